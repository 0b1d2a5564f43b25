#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for capture verdicts: inside a blkio cgroup that throttles
# writes to 100 MiB/s, a format needing 40% of that (dpx-sd-pal at 24 fps,
# 41 MB/s) captures in real time and one needing 7.6 times that (dpx-uhd at
# 24 fps, 798 MB/s) does not; paced runs (--confirm-all) must agree.
. "$SM_SOURCE_DIR/tests/lib.sh"

DIR=write PHASE=capture
. "$SM_SOURCE_DIR/tests/run_throttle.sh"
