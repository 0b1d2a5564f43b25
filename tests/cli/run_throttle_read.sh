#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for playback verdicts: inside a blkio cgroup that throttles
# reads to 100 MiB/s, a format needing 40% of that (dpx-sd-pal at 24 fps,
# 41 MB/s) plays back in real time and one needing 7.6 times that (dpx-uhd at
# 24 fps, 798 MB/s) does not; paced runs (--confirm-all) must agree.
. "$SM_SOURCE_DIR/tests/lib.sh"

DIR=read PHASE=playback
. "$SM_SOURCE_DIR/tests/run_throttle.sh"
