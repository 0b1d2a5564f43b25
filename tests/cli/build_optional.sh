#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# io_uring and SQLite are optional at build time (docs/architecture.md):
# a build without either builds, says so in --version, runs the uring
# engine's tests as psync with the notice, and refuses --save and the
# io_uring-only options with one line, exit 2, before any work.
. "$SM_SOURCE_DIR/tests/lib.sh"

B="$T_DIR/build-min"
if ! cmake -S "$SM_SOURCE_DIR" -B "$B" -DSM_URING=OFF -DSM_SQLITE=OFF -DSM_MPI=OFF \
     -DSM_WERROR=ON >"$T_DIR/cfg.log" 2>&1 ||
   ! cmake --build "$B" -j 2 --target stormark >"$T_DIR/build.log" 2>&1; then
  fail "the build without liburing and SQLite"
  tail -n 30 "$T_DIR/cfg.log" "$T_DIR/build.log" >&2
  finish
fi
ok
MIN="$B/stormark"
check "the configure step says liburing is left out" grep -q "the uring engine is not built" "$T_DIR/cfg.log"
check "the configure step says SQLite is left out" grep -q "the history is not built" "$T_DIR/cfg.log"
# (neither the shared library nor, SM_STATIC_DEPS, the archive's code)
check "nothing links liburing" sh -c "! ldd '$MIN' | grep -q liburing && ! nm '$MIN' | grep -q ' io_uring_queue_init'"
check "nothing links SQLite" sh -c "! ldd '$MIN' | grep -q libsqlite3 && ! nm '$MIN' | grep -q ' sqlite3_open'"

expect_rc 0 "--version" "$MIN" --version
check "--version's first line names neither" sh -c "head -1 '$T_DIR/out' | grep -v -e io_uring -e sqlite | grep -q 'features:.* xxhash json'"
check "--version says io_uring is not in this build" grep -q "io_uring .*not in this build" "$T_DIR/out"
check "--version says SQLite is not in this build" grep -q "sqlite .*not in this build" "$T_DIR/out"

D="$T_DIR/d"; mkdir -p "$D"
expect_rc 0 "frames -a 4 runs" "$MIN" frames -w 64 -n 8 -a 4 "$D"
check "the uring engine falls back to psync with the notice" \
  grep -q "engine 'uring' is not available here (Function not implemented): using 'psync'" "$T_DIR/out"
rm -f "$D"/frame*.tst
expect_usage "--save without SQLite" "$MIN" frames -w 64 -n 8 --save k --db "$T_DIR/h.db" "$D"
check "the reason is the build" grep -q "built without SQLite" "$T_DIR/usage.err"
check "no frame was written" sh -c "! ls '$D' | grep -q frame"
check "no database was made" test ! -e "$T_DIR/h.db"
expect_usage "history KEY --html without SQLite" "$MIN" history --db "$T_DIR/h.db" k --html "$T_DIR/k.html"
check "the reason is the build" grep -q "built without SQLite" "$T_DIR/usage.err"
check "no page was written" test ! -e "$T_DIR/k.html"
expect_usage "--sqpoll without io_uring" "$MIN" frames -w 64 -n 8 -a 4 --sqpoll "$D"
check "the reason is the build" grep -q "built without io_uring" "$T_DIR/usage.err"
finish
