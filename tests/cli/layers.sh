#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The include check: the real tree passes, and a tree with an include
# against the flow (a workload including a reporter) fails and names it.
. "$SM_SOURCE_DIR/tests/lib.sh"
check_layers="$SM_SOURCE_DIR/scripts/check-layers.sh"

expect_rc 0 "src/ follows the layers" bash "$check_layers" "$SM_SOURCE_DIR/src"

fake="$T_DIR/src"
mkdir -p "$fake"/{core,workload,report,result,cmd}
printf '#include "core/clock.h"\n' >"$fake/workload/w.c"
printf '#include "result/result.h"\n' >"$fake/report/r.c"
expect_rc 0 "a clean synthetic tree passes" bash "$check_layers" "$fake"
printf '#include "report/frametest.h"\n' >>"$fake/workload/w.c"
expect_rc 1 "a workload including a reporter fails" bash "$check_layers" "$fake"
check "the violation is named" grep -q 'workload/w.c:2 includes report/frametest.h' "$T_DIR/out"
printf '#include "workload/frames.h"\n' >"$fake/workload/w.c"
printf '#include "workload/frames.h"\n' >>"$fake/report/r.c"
expect_rc 1 "a reporter including a workload fails" bash "$check_layers" "$fake"
# every spelling: relative to the file, in angle brackets, from a subfolder
printf '#include "core/clock.h"\n' >"$fake/workload/w.c"
printf '#include "result/result.h"\n' >"$fake/report/r.c"
: >"$fake/report/frametest.h"
printf '#include "../report/frametest.h"\n' >>"$fake/workload/w.c"
expect_rc 1 "\"../report/x.h\" from a workload fails" bash "$check_layers" "$fake"
check "the relative include is named" grep -q 'workload/w.c:2 includes report/frametest.h' "$T_DIR/out"
printf '#include "core/clock.h"\n#include <report/frametest.h>\n' >"$fake/workload/w.c"
expect_rc 1 "<report/x.h> from a workload fails" bash "$check_layers" "$fake"
printf '#include "core/clock.h"\n' >"$fake/workload/w.c"
mkdir -p "$fake/workload/sub"
printf '#include "report/frametest.h"\n' >"$fake/workload/sub/s.c"
expect_rc 1 "a file in a subfolder is checked" bash "$check_layers" "$fake"
check "the subfolder's file is named" grep -q 'workload/sub/s.c:1 includes report/frametest.h' "$T_DIR/out"
printf '#include "frametest.h"\n' >"$fake/report/r.c"
rm "$fake/workload/sub/s.c"
expect_rc 0 "a header of the same folder is the folder's layer" bash "$check_layers" "$fake"
mkdir -p "$fake/newlayer"
printf '#include "core/clock.h"\n' >"$fake/report/r.c"
expect_rc 1 "a folder without a rule fails" bash "$check_layers" "$fake"

finish
