#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C during stormark run, in the block tests and in the frame tests:
# exit 130, a partial result on stdout (and in the JSON), no test data left.
. "$SM_SOURCE_DIR/tests/lib.sh"

mkdir -p "$T_DIR/probe"
if "$STORMARK" frames -w 4 -n 1 "$T_DIR/probe" 2>&1 | grep -q "not implemented"; then
  skip "stormark frames is not implemented yet (sm_frames_run)"
fi

# interrupt_at NAME SECS SECTION: start a run, wait until SECTION has been
# printed (so we know which phase is running) plus SECS, send SIGINT.
interrupt_at() {
  local name=$1 after=$2 section=$3 D="$T_DIR/$1" pid rc i
  mkdir -p "$D"
  echo mine >"$D/user.txt"
  "$STORMARK" run "$D" --time 24 --quiet --json "$T_DIR/$name.json" \
    >"$T_DIR/$name.out" 2>"$T_DIR/$name.err" &
  pid=$!
  for i in $(seq 1 300); do
    grep -q "$section" "$T_DIR/$name.out" 2>/dev/null && break
    sleep 0.1
  done
  sleep "$after"
  check "$name: test data exists while running" sh -c "ls -d '$D'/.stormark-run-* >/dev/null 2>&1"
  kill -INT "$pid"
  wait "$pid"; rc=$?
  if [ "$rc" = 130 ]; then ok; else fail "$name: exit $rc, wanted 130"; fi
  check "$name: no test data left" test "$(ls -A "$D")" = "user.txt"
  check "$name: user file intact" grep -qx mine "$D/user.txt"
  check "$name: says it was interrupted" grep -q "interrupted" "$T_DIR/$name.err"
  check "$name: partial summary printed" grep -q "interrupted, so these figures are partial" "$T_DIR/$name.out"
  check "$name: json says interrupted" jq -e >/dev/null '.interrupted == true' "$T_DIR/$name.json"
}

# In the block tests: the header was printed, the classic table comes after.
interrupt_at classic 4 "test data"
check "classic: some block figures printed" grep -q "seq 1 MiB QD8" "$T_DIR/classic.out"
check "classic: json has a measured block test" \
  jq -e >/dev/null '.run.phase_reached == "classic" and (.run.classic | length) >= 1' "$T_DIR/classic.json"

# In the frame tests: the classic table is out, frames are running.
interrupt_at frames 1 "rand 4 KiB QD1"
check "frames: the full classic table" grep -q "rand 4 KiB QD1" "$T_DIR/frames.out"
check "frames: the frame table, partial" grep -q "Frame tests" "$T_DIR/frames.out"
check "frames: json phase" jq -e >/dev/null '.run.phase_reached == "frames" and (.run.classic | length) == 4' "$T_DIR/frames.json"

finish
