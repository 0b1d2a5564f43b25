# SPDX-License-Identifier: MIT
# Runs that could not end in reasonable time are refused with the limit
# stated (exit 2, one line, nothing created) or bounded: a paced rate below
# 0.01 per second (frames -f, fileio --rate), a paced schedule longer than
# 30 days; a paced
# fileio run ends at --time and stops on SIGINT while it waits for its next
# event. Each command runs under `timeout`: a hang is exit 124 or 137.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
FT="$SM_BUILD_DIR/frametest"
[ -x "$FT" ] || { ln -s "$S" "$T_DIR/frametest"; FT="$T_DIR/frametest"; }
W="$T_DIR/work"
mkdir -p "$W"
TO="timeout -k 5 30"

# refused DESC PATTERN CMD...: exit 2, one stderr line matching PATTERN,
# nothing left in $W.
refused() {
  local d=$1 pat=$2; shift 2
  $TO "$@" >"$T_DIR/r.out" 2>"$T_DIR/r.err"; local got=$?
  local lines; lines=$(wc -l <"$T_DIR/r.err")
  if [ "$got" = 2 ] && [ "$lines" = 1 ] && grep -Eq -- "$pat" "$T_DIR/r.err"; then ok
  else fail "$d: exit $got, $lines stderr line(s)"; head -3 "$T_DIR/r.err" >&2; fi
  if [ -n "$(ls -A "$W")" ]; then fail "$d: left $(ls -A "$W" | head -3 | tr '\n' ' ')"; rm -rf "${W:?}"/* "$W"/.[!.]*; fi
}

RATE='is below the lowest paced rate, 0.01 (frames|events) per second \(one every 100 s\)'
refused "frames -f 0.0000001" "^stormark frames: -f 1e-07 $RATE" "$S" frames -w 4 -n 10 -f 0.0000001 "$W"
refused "frametest -f 0.0000001" "^frametest: -f 1e-07 $RATE" "$FT" -w 4 -n 10 -f 0.0000001 "$W"
refused "frames --fps 0.009" "^stormark frames: -f 0.009 $RATE" "$S" frames -w 64 -n 10 --fps 0.009 "$W"
refused "frames -n 100000000 -f 0.01" \
  "^stormark frames: 100000000 frames at -f 0.01 take 115741 days; the longest paced run is 30 days" \
  "$S" frames -w 4 -n 100000000 -f 0.01 "$W"
refused "fileio --rate=0.000001" "^stormark fileio: --rate 1e-06 $RATE" \
  "$S" fileio --file-dir="$W" --file-test-mode=rndrd --rate=0.000001 run
# (under the sysbench name --rate is a whole number, as in sysbench 1.0.20:
# a fraction is refused there by its own parser, and 1 is above the floor)

# bounded: --time ends a slow paced frames run, however large -n is
mkdir "$W/f"
expect_rc 0 "frames -f 0.01 -n 100000000 --time 2 ends" $TO "$S" frames -w 4 -n 100000000 -f 0.01 --time 2 --quiet "$W/f"
rm -rf "$W/f"

# fileio at 0.01 events per second: the second event is due after 100 s,
# after --time: the run ends at --time (it slept until the event was due)
F="$T_DIR/fio"
mkdir -p "$F"
(cd "$F" && "$S" fileio --file-total-size=4M --file-num=1 prepare >/dev/null) || fail "prepare"
expect_rc 0 "fileio --rate=0.01 --time=2 ends at --time" \
  $TO "$S" fileio --file-dir="$F" --file-total-size=4M --file-num=1 --file-test-mode=rndrd --rate=0.01 --time=2 run
grep -q "total number of events: *1$" "$T_DIR/out" && ok || fail "fileio --rate=0.01 --time=2: one event"
# SIGINT while a worker waits for its next event: the report, exit 130
$TO "$S" fileio --file-dir="$F" --file-total-size=4M --file-num=1 --file-test-mode=rndrd --rate=0.01 \
  --time=0 --events=5 run >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
sleep 1
kill -INT "$(pgrep -P $pid)" 2>/dev/null
wait $pid; rc=$?
[ $rc = 130 ] && ok || fail "fileio paced run and SIGINT: exit $rc, wanted 130"
grep -q "total number of events: *1$" "$T_DIR/int.out" && ok || fail "fileio paced run and SIGINT: the report"
finish
