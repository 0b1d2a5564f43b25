#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One overall figure per run: frametest's averaged "Overall:" row, its
# "Overall frame rate" line and the JSON's windows.overall say the same
# rate, paced (over the schedule) or not (over the I/O), and a window that
# covers the whole run says it too; and the run's clock starts at its first
# request (docs/frames.md): the duration is the first issue to the last
# completion that the -x log shows, not the threads' wake-up before it.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
mkdir set
expect_rc 0 "write 60 HD frames" $S frames -w hd -n 60 set

# overall ROW_FPS LINE_FPS: the row's one decimal is the line's two, rounded
agree() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.051) }'; }
check_overall() {   # NAME TEXT JSON
  local row line
  row=$(awk '$1 == "Overall:" { print $(NF - 1) }' "$2")
  line=$(awk '/^Overall frame rate/ { print $5 }' "$2")
  check "$1: the Overall row ($row fps) is the Overall frame rate ($line fps)" agree "$row" "$line"
  for w in 5s: 30s:; do
    local v; v=$(awk -v w="$w" '$1 == w { print $(NF - 1) }' "$2")
    check "$1: the $w row of a run under 5 s is the whole run's ($v fps)" agree "$v" "$line"
  done
  python3 - "$3" "$line" <<'PY' || fail "$1: the JSON's windows.overall is the line's"
import json, sys
d = json.load(open(sys.argv[1]))
fr, line = d["frames"], float(sys.argv[2])
o = fr["windows"]["overall"]
want = fr["paced"]["frames_per_s"] if "paced" in fr else d["totals"]["items_per_s"]
assert abs(o["frames_per_s"] - want) < 1e-6 * want, (o, want)
assert abs(o["frames_per_s"] - line) <= 0.005, (o, line)
assert abs(o["frames_per_s"] - o["frames"] * 1e9 / o["duration_ns"]) < 1e-6 * want, o
assert fr["windows"]["last_5s"]["frames_per_s"] == o["frames_per_s"]
PY
}

# paced playback: the reads run ahead of the display, so the I/O's span is
# shorter than the schedule's; the overall figure is the schedule's
expect_rc 0 "paced read" $S frames -r -f 20 --json=paced.json set
cp "$T_DIR/out" paced.txt
check_overall "paced read" paced.txt paced.json
check "paced read: 20 fps over the schedule" grep -q '^Overall frame rate .... 20.00 fps' paced.txt
expect_rc 0 "paced read, rendered again" $S report paced.json --format frametest
check "paced read: the saved run renders the same rows" \
  diff <(grep -E '^ +(5s|30s|Overall):|^Overall frame rate' paced.txt) \
       <(grep -E '^ +(5s|30s|Overall):|^Overall frame rate' "$T_DIR/out")

# unpaced, 4 threads
expect_rc 0 "read, 4 threads" $S frames -r -t 4 -x log.csv --json=plain.json set
cp "$T_DIR/out" plain.txt
check_overall "read" plain.txt plain.json

# the clock: first request's issue to last completion, to the log's microsecond
python3 - <<'PY' || fail "the duration is the first request to the last completion"
import csv, json
rows = list(csv.DictReader(open("log.csv")))
first = min(float(r["start_s"]) for r in rows)
last = max(float(r["start_s"]) + float(r["frame_ms"]) / 1e3 for r in rows)
dur = json.load(open("plain.json"))["duration_ns"] / 1e9
print(f"  first request {first * 1e3:.3f} ms after the threads' release; "
      f"last - first {(last - first) * 1e3:.3f} ms, duration {dur * 1e3:.3f} ms")
assert abs(dur - (last - first)) <= 5e-6, (dur, last - first)
PY

finish
