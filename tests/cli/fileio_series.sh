#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fileio's series covers the whole run: the last, partial interval is in
# it with its own duration, the series' reads, writes, fsyncs, bytes and
# events add up exactly to the totals, sysbench's interval lines stay
# whole intervals only (as sysbench prints them), and the HTML draws the
# partial interval over its own duration, at its own rate.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
F=(--file-total-size=32M --file-num=4)
expect_rc 0 "prepare" $S fileio prepare "${F[@]}"

sums() {   # NAME JSON
  python3 - "$2" <<'PY' || fail "$1: the series adds up to the totals"
import json, sys
d = json.load(open(sys.argv[1]))
s, ops = d["series"], d["ops"]
n = len(s["t_ns"])
tot = lambda op, k: ops.get(op, {}).get(k, 0)
for key, want in (("reads", tot("read", "count")), ("writes", tot("write", "count")),
                  ("fsyncs", tot("fsync", "count")), ("read_bytes", tot("read", "bytes")),
                  ("write_bytes", tot("write", "bytes")), ("items", d["fileio"]["events"])):
    assert sum(s[key]) == want, (key, sum(s[key]), want)
assert s["t_ns"][-1] == d["duration_ns"], (s["t_ns"][-1], d["duration_ns"])
start = 0
for t, dur in zip(s["t_ns"], s["duration_ns"]):
    assert dur == t - start, (t, dur, start)
    start = t
assert s["t_ns"][-1] % s["interval_ns"] != 0, s   # the run's end, off the whole intervals
print(f"  {n} intervals, the last {s['duration_ns'][-1] / 1e9:.4f} s; reads {sum(s['reads'])}, writes {sum(s['writes'])}")
PY
}

expect_rc 0 "random reads, 3 s" $S fileio run "${F[@]}" --file-test-mode=rndrd --time=3 --json=rd.json
sums "rndrd" rd.json
expect_rc 0 "random r/w with fsyncs, 2 s, intervals of 1 s" $S fileio run "${F[@]}" \
  --file-test-mode=rndrw --file-fsync-freq=10 --time=2 --report-interval=1 --json=rw.json
cp "$T_DIR/out" rw.txt
sums "rndrw" rw.json
lines=$(grep -c '^\[ [0-9]*s \]' rw.txt)
# whole: the ticks on whole intervals, and the last one when it covers the
# last interval of the time limit (the run went to it): sysbench prints
# that line as the run ends
whole=$(python3 -c 'import json; d=json.load(open("rw.json")); s=d["series"]; iv=s["interval_ns"]; t=s["t_ns"]; lim=d["params"]["time_limit_ns"]
print(sum(1 for x in t if x % iv == 0) + (t[-1] % iv != 0 and t[-1] >= lim and t[-1] - s["duration_ns"][-1] == lim - iv))')
check "sysbench's interval lines: whole intervals, the time limit's last one included ($lines lines, $whole whole)" [ "$lines" = "$whole" ]
if [ "$(python3 -c 'import json; s=json.load(open("rw.json"))["series"]; print(s["t_ns"][-2] if len(s["t_ns"]) > 1 else 0)')" = 1000000000 ]; then
  check "the run's end prints the last interval's line, [ 2s ]" test "$(grep '^\[ [0-9]*s \]' rw.txt | tail -1 | cut -d' ' -f2)" = 2s
fi
expect_rc 0 "rndrw rendered again, sysbench layout" $S report rw.json --format sysbench
check "re-rendered: the same interval lines" \
  diff <(grep '^\[ [0-9]*s \]' rw.txt | sed 's/[0-9.]\+/N/g') <(grep '^\[ [0-9]*s \]' "$T_DIR/out" | sed 's/[0-9.]\+/N/g')

# the HTML's throughput chart: a step per interval, the last one as wide as
# its own duration and as high as its own rate
expect_rc 0 "HTML" $S report rd.json --html rd.html
python3 - <<'PY' || fail "the HTML draws the partial interval by its own duration"
import json, re
d = json.load(open("rd.json")); s = d["series"]
html = open("rd.html").read()
fig = html[html.index('id="chart-throughput"'):]
fig = fig[:fig.index("</figure>")]
pts = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', fig).group(1).split()]
n = len(s["t_ns"])
assert len(pts) == 2 * n, (len(pts), n)
x0, x1 = pts[0][0], pts[-1][0]
# step i spans [start_i, t_i]: widths proportional to the durations
w_last = (pts[-1][0] - pts[-2][0]) / (x1 - x0)
assert abs(w_last - s["duration_ns"][-1] / s["t_ns"][-1]) < 0.01, (w_last, s)
rate = [b / dur for b, dur in zip(s["read_bytes"], s["duration_ns"])]
ys = [pts[2 * i][1] for i in range(n)]
# y = bottom - rate x scale: ratios of heights above the axis are ratios of rates
bottom = float(re.search(r'y1="([0-9.]+)"[^>]*/><text[^>]*>0<', fig).group(1))
h = [bottom - y for y in ys]
assert abs(h[-1] / h[0] - rate[-1] / rate[0]) < 0.03 * rate[-1] / rate[0], (h, rate)
PY

finish
