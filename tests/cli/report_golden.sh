#!/bin/bash
# SPDX-License-Identifier: MIT
# Golden renderings: every canned result in tests/golden/<command>/NAME.json
# rendered by `stormark report` in each layout NAME.LAYOUT that is checked
# in, byte for byte; and --format json gives the canned file back.
. "$SM_SOURCE_DIR/tests/lib.sh"
export TZ=UTC LC_ALL=C
G="$SM_SOURCE_DIR/tests/golden"
n=0
for json in "$G"/time/*.json "$G"/run/*.json "$G"/fileio/*.json "$G"/frames/*.json "$G"/streams/*.json \
    "$G"/meta/*.json; do
  base=${json%.json}
  for want in "$base".*; do
    layout=${want##*.}
    [ "$layout" = json ] && continue
    "$STORMARK" report "$json" --format "$layout" >"$T_DIR/got" 2>"$T_DIR/err"
    if [ $? = 0 ] && cmp -s "$want" "$T_DIR/got"; then ok
    else fail "golden ${want#$G/}"; diff "$want" "$T_DIR/got" | head -10 >&2; head -3 "$T_DIR/err" >&2; fi
    n=$((n + 1))
  done
  "$STORMARK" report "$json" --format json >"$T_DIR/got" 2>&1
  check "golden ${json#$G/}: --format json gives it back" cmp -s "$json" "$T_DIR/got"
done
# streams' text fits 80 columns, and its legend explains the cells' marks
for t in "$G"/streams/*.text; do
  name=${t#$G/}
  check "$name: no line over 79 columns" test "$(awk 'length > 79' "$t" | wc -l)" = 0
  check "$name: no trailing blank" test "$(grep -c ' $' "$t")" = 0
  if grep -q "^format " "$t"; then
    check "$name: the legend: capture / playback" grep -A1 "^  C / P  *the answer when the streams write (capture.*/ when they" "$t" |
      grep -q "^  *read (playback)"
    check "$name: the legend: >=" grep -q "^  >=N (>=M)  *the search held --max-streams" "$t"
    check "$name: the legend: ?" grep -q "^  ?  *the search did not end" "$t"
    check "$name: the legend: !" grep -q "^  M!  *the sustained step lowered" "$t"
  fi
done
check "streams/rates: eight rates in four tables of at most 79 columns" \
  test "$(grep -c '^format ' "$G/streams/rates.text")" = 4
check "streams/rates: every rate in a header" \
  test "$(grep '^format ' "$G/streams/rates.text" | grep -o '[0-9.]* fps' | wc -l)" = 8
# every reporter of time, run, fileio and frames has a golden file
check "golden files present" test "$n" -ge 34
finish
