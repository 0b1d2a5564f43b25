#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark run end to end: a short run prints every section within 80
# columns, leaves nothing behind, writes JSON whose verdicts follow the
# documented rules; 'stormark DIR', --json -, --keep; bad input is a usage
# error that creates nothing. (The null-engine profile: run_null.sh.)
. "$SM_SOURCE_DIR/tests/lib.sh"

mkdir -p "$T_DIR/probe"
if "$STORMARK" frames -w 4 -n 1 "$T_DIR/probe" 2>&1 | grep -q "not implemented"; then
  skip "stormark frames is not implemented yet (sm_frames_run)"
fi

D="$T_DIR/d"
mkdir -p "$D"
echo "not stormark's" >"$D/keep.txt"

# ---- a short real run -------------------------------------------------------
"$STORMARK" run "$D" --time 3 --quiet --json "$T_DIR/r.json" >"$T_DIR/out" 2>"$T_DIR/err"
rc=$?
if [ "$rc" = 0 ]; then ok; else fail "short run: exit $rc"; head -5 "$T_DIR/err" >&2; fi
for s in "profiling the storage" "file system" "free RAM" "direct I/O" "working set" \
         "Classic figures" "seq 1 MiB QD8" "seq 1 MiB QD1" "rand 4 KiB QD32" "rand 4 KiB QD1" \
         "Frame tests" "Real-time verdicts" "capture at fps" "playback at fps" "dpx-2k" "Summary"; do
  check "output has '$s'" grep -q -- "$s" "$T_DIR/out"
done
check "nothing left in DIR but the user's file" test "$(ls -A "$D")" = "keep.txt"
check "the user's file is intact" grep -qx "not stormark's" "$D/keep.txt"
check "80 columns (but for lines naming the test path)" awk -v d="$D" 'length > 80 && index($0, d) == 0 { print "too wide: " $0 > "/dev/stderr"; bad = 1 } END { exit bad }' "$T_DIR/out"
check "no colour when stdout is not a terminal" sh -c "! grep -q $'\033' '$T_DIR/out'"
check "no progress when stderr is not a terminal" test ! -s "$T_DIR/err"

J="$T_DIR/r.json"
check "json is valid" jq -e . "$J" >/dev/null
check "json command/schema" jq -e >/dev/null '.command == "run" and .schema_version == 1 and .run.phase_reached == "done" and .interrupted == false' "$J"
check "json: 4 classic rows, read and write measured" \
  jq -e >/dev/null '(.run.classic | length) == 4 and all(.run.classic[]; .read.op.count > 0 and .write.op.count > 0 and .read.iops > 0)' "$J"
check "json: 3 frame sizes, fps > 0" \
  jq -e >/dev/null '(.run.frames | length) == 3 and all(.run.frames[]; .write.fps > 0 and .read.fps > 0)' "$J"
check "json: default table is 14 formats x 5 rates x 2 directions" \
  jq -e >/dev/null '(.run.verdicts | length) == 14 and all(.run.verdicts[]; (.capture | length) == 5 and (.playback | length) == 5)' "$J"
# computed verdicts follow the documented boundaries; needed = frame_bytes x fps
check "json: computed verdicts follow the ratio rules" jq -e >/dev/null '
  [.run.verdicts[] | .frame_bytes as $fb | (.capture + .playback)[] |
   ((.needed_bytes_per_s - $fb * .fps_value | fabs) < 1) and
   (if .computed == "realtime" then .measured_bytes_per_s * 5 >= .needed_bytes_per_s * 6
    elif .computed == "marginal" then .measured_bytes_per_s >= .needed_bytes_per_s and .measured_bytes_per_s * 5 < .needed_bytes_per_s * 6
    else .measured_bytes_per_s < .needed_bytes_per_s end) and
   (if .how == "computed" then .verdict == .computed or
      (.verdict == "unconfirmed" and (.basis | length) > 0) or
      (.verdict == "not-realtime" and (.basis | index("stall")))
    else (.paced | type) == "object" end)] | all' "$J"
check "json: summary present" jq -e >/dev/null '.run.summary | length > 40' "$J"
# the summary in the text is the one in the JSON
first=$(jq -r '.run.summary' "$J" | cut -c1-40)
check "text summary = json summary" grep -qF "$first" "$T_DIR/out"

# ---- stormark DIR (no command) and --json - ----------------------------------
"$STORMARK" "$D" --time 1 --quiet --engine null --classic-only --json - \
  >"$T_DIR/j.out" 2>"$T_DIR/j.err"
check "'stormark DIR' runs 'run'" test $? = 0
check "--json - puts JSON alone on stdout" jq -e >/dev/null '.command == "run" and .run.phase_reached == "classic" and (.run.verdicts | length) == 0' "$T_DIR/j.out"
check "--json - puts the text on stderr" grep -q "Summary" "$T_DIR/j.err"

# ---- the output flags of docs/options.md ------------------------------------
"$STORMARK" run "$D" --time 1 --quiet --engine null --classic-only --format json -o "$T_DIR/f.json" \
  >"$T_DIR/f.out" 2>"$T_DIR/f.err"
check "--format json -o FILE: the JSON in FILE" jq -e >/dev/null '.command == "run"' "$T_DIR/f.json"
check "--format json: the text on stderr" grep -q "Summary" "$T_DIR/f.err"
check "--format json -o FILE: nothing on stdout" test ! -s "$T_DIR/f.out"
"$STORMARK" run "$D" --time 1 --quiet --engine null --classic-only -o "$T_DIR/t.txt" \
  >"$T_DIR/t.out" 2>&1
check "-o FILE: the text report in FILE" grep -q "Summary" "$T_DIR/t.txt"
check "-o FILE: nothing on stdout" test ! -s "$T_DIR/t.out"
# csv and markdown live: what stormark report prints from the saved JSON, byte for byte
for L in csv markdown; do
  "$STORMARK" run "$D" --time 2 --quiet --engine null --no-confirm --video-formats dpx-hd,dpx-4k \
    --format $L --json="$T_DIR/l.json" >"$T_DIR/l.$L" 2>"$T_DIR/l.err"
  check "--format $L live = stormark report --format $L" cmp -s "$T_DIR/l.$L" <("$STORMARK" report "$T_DIR/l.json" --format $L)
  check "--format $L: the text report on stderr" grep -q "Summary" "$T_DIR/l.err"
done
expect_usage "a layout run does not have" "$STORMARK" run "$D" --format timeit
expect_usage "--json - with another layout" "$STORMARK" run "$D" --json - --format text
expect_usage "--video-formats unknown" "$STORMARK" run "$D" --video-formats dpx-3k

# ---- --keep -----------------------------------------------------------------
"$STORMARK" run "$D" --time 1 --quiet --engine null --classic-only --keep \
  >"$T_DIR/k.out" 2>&1
kept=$(ls -d "$D"/.stormark-run-* 2>/dev/null | head -1)
check "--keep keeps the test directory" test -n "$kept" -a -d "$kept"
check "--keep prints where" grep -qF "Test data kept in" "$T_DIR/k.out"
[ -n "$kept" ] && rm -rf "$kept"

# ---- output into a closed pipe: the run still removes its data --------------
"$STORMARK" run "$D" --time 1 --quiet --engine null --classic-only 2>/dev/null | head -1 >/dev/null
check "a closed pipe leaves nothing behind" test "$(ls -A "$D")" = "keep.txt"

# ---- usage errors: exit 2, one line, nothing created ---------------------------
expect_usage "--time 0" "$STORMARK" run "$D" --time 0
expect_usage "--time abc" "$STORMARK" run "$D" --time abc
expect_usage "--formats unknown" "$STORMARK" run "$D" --formats dpx-2k,dpx-3k
expect_usage "--formats empty" "$STORMARK" run "$D" --formats ,
expect_usage "--fps unknown" "$STORMARK" run "$D" --fps 24,23
# one --fps for run and streams: the same reason for the same list
for list in 24,23 , 24,25,30,48,50,60,120,23.976,29.97,59.94,24; do
  for c in run streams; do
    "$STORMARK" $c "$D" --fps "$list" 2>&1 | sed "s/^stormark $c: //; s/'stormark help $c'//"
  done >"$T_DIR/fps.err"
  check "--fps $list: run and streams give one reason" test "$(sort -u "$T_DIR/fps.err" | wc -l)" = 1
done
grep -q "frame rates from 23.976 .* ('23' is none)" <("$STORMARK" streams "$D" --fps 24,23 2>&1) && ok ||
  fail "--fps names the rate that is none"
expect_usage "--engine unknown" "$STORMARK" run "$D" --engine nosuch
expect_usage "unknown option" "$STORMARK" run "$D" --bogus
expect_usage "missing value" "$STORMARK" run "$D" --time
expect_usage "two directories" "$STORMARK" run "$D" "$D"
expect_usage "missing directory" "$STORMARK" run "$T_DIR/nope"
expect_usage "a file, not a directory" "$STORMARK" run "$D/keep.txt"
check "usage errors created nothing" test "$(ls -A "$D")" = "keep.txt"
check "no directory was created for a missing DIR" test ! -e "$T_DIR/nope"

"$STORMARK" run --help >"$T_DIR/h.out" 2>&1
check "--help exits 0" test $? = 0
check "--help names the options" grep -q -- "--formats LIST" "$T_DIR/h.out"
check "--help names --video-formats" grep -q -- "--video-formats LIST" "$T_DIR/h.out"

finish
