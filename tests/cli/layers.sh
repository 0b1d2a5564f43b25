#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layer check: the real tree passes, and a tree with an include
# against the flow (a workload including a reporter) fails and names it;
# so does a call against the flow through a prototype written by hand
# (read from the objects' symbols), and a circle of calls in check/.
# A reporter opening a file fails too (report/ does no file I/O). The
# platform layer: a Linux header, O_DIRECT or a moved Linux call (statfs)
# outside os/ fails, and so does a POSIX implementation that keeps
# _GNU_SOURCE or includes a Linux header.
# A workload comparing an engine's name, or looking one up by name, fails
# (engines are chosen by capability).
. "$SM_SOURCE_DIR/tests/lib.sh"
check_layers="$SM_SOURCE_DIR/scripts/check-layers.sh"

expect_rc 0 "src/ follows the layers" bash "$check_layers" "$SM_SOURCE_DIR/src"
expect_rc 0 "src/'s objects follow the layers" bash "$check_layers" "$SM_SOURCE_DIR/src" "$SM_BUILD_DIR"
check "the objects were read" grep -q 'includes and symbols' "$T_DIR/out"

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
# engines are chosen by capability: a workload comparing an engine's name fails
mkdir -p "$fake/engine"
printf 'struct o { const char *name; };\nconst struct o u = { .name = "uring" };\n' >"$fake/engine/u.c"
printf '#include "core/clock.h"\nint f(const char *engine) { return !strcmp(engine, "psync"); }\n' \
  >"$fake/workload/w.c"
expect_rc 0 "comparing a name that is no engine's passes" bash "$check_layers" "$fake"
printf 'int g(const char *engine) { return !strcmp(engine, "uring"); }\n' >>"$fake/workload/w.c"
expect_rc 1 "a workload comparing an engine's name fails" bash "$check_layers" "$fake"
check "the comparison is named" grep -q 'workload/w.c:3 compares or looks up the engine name "uring"' "$T_DIR/out"
printf '#include "core/clock.h"\nint g(void) { return sm_engine_find("uring") != 0; }\n' >"$fake/workload/w.c"
expect_rc 1 "a workload looking an engine up by name fails" bash "$check_layers" "$fake"
printf '#include "core/clock.h"\nint g(const char *protocol) { return !strcmp(protocol, "uring"); }\n' \
  >"$fake/workload/w.c"
expect_rc 0 "the same word compared with no engine in sight passes" bash "$check_layers" "$fake"
rm -r "$fake/engine"
printf '#include "core/clock.h"\n' >"$fake/workload/w.c"
mkdir -p "$fake/newlayer"
printf '#include "core/clock.h"\n' >"$fake/report/r.c"
expect_rc 1 "a folder without a rule fails" bash "$check_layers" "$fake"

# ---- symbols: a tree whose includes pass, built into objects as CMake lays
# them out (BUILD/CMakeFiles/TARGET.dir/src/FOLDER/FILE.c.o)
sym="$T_DIR/sym"
mkdir -p "$sym"/src/{core,report,result,workload,check,cmd}
build_sym() {   # compile every .c of the scratch tree into its object
  local f o
  for f in "$sym"/src/*/*.c; do
    o="$sym/build/CMakeFiles/smcore.dir/src/${f#"$sym"/src/}.o"
    mkdir -p "${o%/*}" && "${CC:-cc}" -c -o "$o" "$f" || return 1
  done
}
printf 'int sm_fake_res(void) { return 1; }\n' >"$sym/src/result/res.c"
printf 'int sm_fake_rep(void) { return 2; }\n' >"$sym/src/report/rep.c"
# a downward call, through a prototype written by hand: allowed
printf 'int sm_fake_res(void);\nint sm_fake_rep2(void) { return sm_fake_res(); }\n' >"$sym/src/report/rep2.c"
printf 'int sm_fake_work(void) { return 0; }\n' >"$sym/src/workload/w.c"
printf 'int sm_fake_ca(void) { return 0; }\n' >"$sym/src/check/a.c"
printf 'int sm_fake_ca(void);\nint sm_fake_cb(void) { return sm_fake_ca(); }\n' >"$sym/src/check/b.c"
check "the scratch tree builds" build_sym
expect_rc 0 "objects calling only downward pass" bash "$check_layers" "$sym/src" "$sym/build"
# a workload calling a reporter through its own prototype: no include says so
printf 'int sm_fake_rep(void);\nint sm_fake_work(void) { return sm_fake_rep(); }\n' >"$sym/src/workload/w.c"
check "the scratch tree builds" build_sym
expect_rc 0 "the includes alone do not see the upward call" bash "$check_layers" "$sym/src"
expect_rc 1 "an upward call through a hand-written prototype fails" bash "$check_layers" "$sym/src" "$sym/build"
check "the upward call is named" grep -q 'workload/w.c uses sm_fake_rep of report/rep.c' "$T_DIR/out"
# an object whose source is gone is not read
rm "$sym/src/workload/w.c"
expect_rc 0 "a stale object (its source gone) is not read" bash "$check_layers" "$sym/src" "$sym/build"
# two files of check/ calling each other
printf 'int sm_fake_cb(void);\nint sm_fake_ca(void) { return sm_fake_cb() + 1; }\n' >"$sym/src/check/a.c"
printf 'int sm_fake_ca(void);\nint sm_fake_cb(void) { return 0; }\nint sm_fake_cc(void) { return sm_fake_ca(); }\n' >"$sym/src/check/b.c"
check "the scratch tree builds" build_sym
expect_rc 1 "a circle of calls in check/ fails" bash "$check_layers" "$sym/src" "$sym/build"
check "the circle is named" grep -q 'a circle of calls in check/: check/a.c -> check/b.c -> check/a.c' "$T_DIR/out"
# a reporter that writes a file itself (report/ does no file I/O)
printf 'int sm_fake_ca(void) { return 0; }\n' >"$sym/src/check/a.c"
printf 'int sm_fake_cb(void) { return 0; }\n' >"$sym/src/check/b.c"
printf '#include <stdio.h>\nint sm_fake_rep(void) { return fprintf(stdout, "x\\n"); }\n' >"$sym/src/report/rep.c"
check "the scratch tree builds" build_sym
expect_rc 0 "a reporter writing to the stream it is given passes" bash "$check_layers" "$sym/src" "$sym/build"
printf '#include <stdio.h>\nint sm_fake_rep(void) { FILE *f = fopen("x", "w"); return f ? fclose(f) : 1; }\n' >"$sym/src/report/rep.c"
check "the scratch tree builds" build_sym
expect_rc 1 "a reporter opening a file fails" bash "$check_layers" "$sym/src" "$sym/build"
check "the file I/O is named" grep -q 'report/rep.c does file I/O: it calls fopen' "$T_DIR/out"


# ---- the platform layer (os/): what it took over stays there
plat="$T_DIR/plat"
mkdir -p "$plat"/src/{os/linux,os/posix,core,workload}
printf '#include "os/os.h"\nint sm_fake_w(void) { return 0; }\n' >"$plat/src/workload/w.c"
: >"$plat/src/os/os.h"
printf '#include "os/os.h"\n#include <linux/magic.h>\n' >"$plat/src/os/linux/os.c"
printf '#undef _GNU_SOURCE\n#define _POSIX_C_SOURCE 200809L\n#include "os/os.h"\n' >"$plat/src/os/posix/os.c"
expect_rc 0 "a workload using os/, and Linux headers in os/linux/, pass" bash "$check_layers" "$plat/src"
printf '#include <linux/fs.h>\n' >"$plat/src/core/c.c"
expect_rc 1 "a Linux header outside os/ fails" bash "$check_layers" "$plat/src"
check "the Linux header is named" grep -q 'core/c.c:1 includes <linux/fs.h>, a Linux header, outside os/' "$T_DIR/out"
printf '#include <fcntl.h>\n/* O_DIRECT in a comment */\nconst char *s = "O_DIRECT";\n' >"$plat/src/core/c.c"
expect_rc 0 "O_DIRECT in a comment or a string passes" bash "$check_layers" "$plat/src"
printf 'int fl = 1 | O_DIRECT;\n' >>"$plat/src/core/c.c"
expect_rc 1 "O_DIRECT in code outside os/ fails" bash "$check_layers" "$plat/src"
check "the O_DIRECT is named" grep -q 'core/c.c:4 uses O_DIRECT outside os/' "$T_DIR/out"
: >"$plat/src/core/c.c"
printf '#include "os/os.h"\n#include <sys/statfs.h>\n' >"$plat/src/os/posix/os.c"
expect_rc 1 "a POSIX implementation keeping _GNU_SOURCE fails" bash "$check_layers" "$plat/src"
check "the missing #undef is named" grep -q 'os/posix/os.c must #undef _GNU_SOURCE' "$T_DIR/out"
check "its Linux header is named" grep -q 'os/posix/os.c:2 includes <sys/statfs.h>, a Linux header, in the POSIX' "$T_DIR/out"
# a moved call (statfs), read from the objects
printf 'int sm_fake_w(void) { return 0; }\n' >"$sym/src/workload/w.c"
printf 'int sm_fake_rep(void) { return 2; }\n' >"$sym/src/report/rep.c"
printf '#include <sys/statfs.h>\nlong sm_fake_c(void) { struct statfs s; return statfs("/", &s) ? 0 : (long)s.f_type; }\n' >"$sym/src/core/c.c"
check "the scratch tree builds" build_sym
expect_rc 1 "a moved Linux call (statfs) outside os/ fails" bash "$check_layers" "$sym/src" "$sym/build"
check "the call is named" grep -q 'core/c.c calls statfs outside os/' "$T_DIR/out"
mkdir -p "$sym/src/os/linux"
mv "$sym/src/core/c.c" "$sym/src/os/linux/c.c"
rm -f "$sym/build/CMakeFiles/smcore.dir/src/core/c.c.o"
check "the scratch tree builds" build_sym
expect_rc 0 "the same call in os/linux/ passes" bash "$check_layers" "$sym/src" "$sym/build"

finish
