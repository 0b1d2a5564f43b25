#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The size limits (scripts/check-sizes.sh): no file of src/ over 800
# lines, the real tree and a scratch tree with one file too long; the
# functions over 60 lines are listed (a report, not a failure).
. "$SM_SOURCE_DIR/tests/lib.sh"
sizes="$SM_SOURCE_DIR/scripts/check-sizes.sh"

expect_rc 0 "no file of src/ is over 800 lines" bash "$sizes" "$SM_SOURCE_DIR/src"
expect_rc 0 "the long functions are listed without failing" bash "$sizes" --functions "$SM_SOURCE_DIR/src"
check "the list has its count" grep -q '^functions over 60 lines: [0-9]' "$T_DIR/out"

fake="$T_DIR/src"
mkdir -p "$fake/core"
{ printf 'int f(void)\n{\n'; for i in $(seq 61); do printf '\t(void)%d;\n' "$i"; done; printf '\treturn 0;\n}\n'; } \
  >"$fake/core/a.c"
expect_rc 0 "a file of 66 lines passes" bash "$sizes" --functions "$fake"
check "its function of 62 lines is listed" grep -q 'src/core/a.c:1 f() has 62 lines' "$T_DIR/out"
{ for i in $(seq 800); do printf '/* %d */\n' "$i"; done; } >"$fake/core/b.h"
expect_rc 0 "a file of 800 lines passes" bash "$sizes" "$fake"
printf '/* 801 */\n' >>"$fake/core/b.h"
expect_rc 1 "a file of 801 lines fails" bash "$sizes" "$fake"
check "the long file is named" grep -q 'src/core/b.h has 801 lines' "$T_DIR/out"

finish
