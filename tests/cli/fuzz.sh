#!/bin/bash
# SPDX-License-Identifier: MIT
# The libFuzzer targets of fuzz/ (frametest and sysbench command lines, the
# option module through every command's table, sizes and times, the JSON
# reader of `stormark report`), each run for a bounded time over its corpus
# in fuzz/corpus/NAME/: any crash, leak or sanitizer report fails the test
# and leaves the input that caused it (printed below). Built with clang in
# a build directory of its own unless this build is -DSM_FUZZ=ON already.
# SM_FUZZ_SECONDS sets the time per target (default 10).
. "$SM_SOURCE_DIR/tests/lib.sh"

secs=${SM_FUZZ_SECONDS:-10}
targets="frametest sysbench opt units json"

if [ "${SM_SANITIZER:-none}" != none ]; then
  skip "the fuzz targets carry their own ASan+UBSan; they run in the plain suite"
fi
if grep -q '^SM_FUZZ:BOOL=ON' "$SM_BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
  FB=$SM_BUILD_DIR
else
  command -v clang >/dev/null 2>&1 || skip "clang is not installed (scripts/deps.sh installs it)"
  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$T_DIR/probe.c"
  clang -fsanitize=fuzzer,address,undefined "$T_DIR/probe.c" -o "$T_DIR/probe" 2>/dev/null ||
    skip "clang cannot link libFuzzer (libclang-rt-dev is missing)"
  FB=$SM_BUILD_DIR/fuzz-build
  if ! CC=clang cmake -S "$SM_SOURCE_DIR" -B "$FB" -DSM_FUZZ=ON >"$T_DIR/cmake.log" 2>&1 ||
     ! cmake --build "$FB" -j 2 --target fuzz >>"$T_DIR/cmake.log" 2>&1; then
    tail -30 "$T_DIR/cmake.log" >&2
    fail "the fuzz targets do not build"
    finish
  fi
fi

total_execs=0
for t in $targets; do
  bin=$FB/fuzz/fuzz_$t
  seeds=$SM_SOURCE_DIR/fuzz/corpus/$t
  new=$T_DIR/new-$t
  mkdir -p "$new"
  t_check_skip "$new"   # inputs the fuzzer made up: any may break an invariant
  dict=()
  [ -f "$SM_SOURCE_DIR/fuzz/$t.dict" ] && dict=(-dict="$SM_SOURCE_DIR/fuzz/$t.dict")
  check "$t: has a seed corpus" test -n "$(ls -A "$seeds" 2>/dev/null)"
  # new inputs go to $new, never into the tree; -timeout: an input that
  # takes over 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a bug
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${dict[@]}" -artifact_prefix="$T_DIR/$t-" "$new" "$seeds" >"$T_DIR/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T_DIR/$t.log")
  echo "fuzz_$t: exit $rc, ${execs:-0} inputs in ${secs} s, corpus $(ls "$seeds" | wc -l) seeds + $(ls "$new" | wc -l) new"
  total_execs=$((total_execs + ${execs:-0}))
  if [ "$rc" = 0 ] && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$T_DIR/$t.log"; then
    ok
  else
    fail "fuzz_$t found a problem (exit $rc)"
    grep -E -A25 'ERROR:|runtime error:' "$T_DIR/$t.log" | head -60 >&2
    for a in "$T_DIR/$t"-*; do
      [ -f "$a" ] || continue
      echo "  input $(basename "$a") (add it to fuzz/corpus/$t/ with the fix):" >&2
      od -c "$a" | head -20 >&2
      mkdir -p "$SM_BUILD_DIR/fuzz-artifacts" && cp "$a" "$SM_BUILD_DIR/fuzz-artifacts/"
    done
  fi
  # the run must really have fuzzed: a target that returns at once would
  # pass with nothing tried
  check "$t: ran more inputs than its corpus" test "${execs:-0}" -gt "$(ls "$seeds" | wc -l)"
done
echo "fuzz: $total_execs inputs in all"
finish
