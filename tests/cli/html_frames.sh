#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML report of frames in headless Chromium (paced runs: html_paced.sh):
# --html on a write test; `report --format html` gives the same bytes;
# every section and chart is in the DOM, the charts are drawn (coloured
# pixels in a screenshot, and none once the data elements are stripped: the
# check can fail), no console message; the per-frame series in the JSON
# adds up to the run's counts; a 200,000-frame run (null engine) stays
# under 2 MiB.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"

D="$T_DIR/d"
mkdir -p "$D"

# ---- unpaced write ---------------------------------------------------------
"$STORMARK" frames -w 256 -n 300 -t 2 --quiet --json="$T_DIR/w.json" --html="$T_DIR/w.html" "$D" \
  >"$T_DIR/w.out" 2>&1
check "write: exit 0" test $? = 0
check "write: frametest's report still on stdout" grep -q "^Frames transferred: 300" "$T_DIR/w.out"
"$STORMARK" report "$T_DIR/w.json" --format html >"$T_DIR/w2.html"
check "report --format html = --html" cmp -s "$T_DIR/w.html" "$T_DIR/w2.html"
check "write: per-frame series adds up" jq -e '.frames.per_frame as $p |
  ($p.frames | add) == .frames.transferred and ($p.dropped | add) == 0 and
  ($p.frames | length) <= 1024 and ($p.frames_per_column >= 1) and
  ([range(0; $p.frames | length)] | all(. as $i | $p.frames[$i] == 0 or
     ($p.min_ns[$i] <= $p.max_ns[$i] and $p.sum_ns[$i] >= $p.min_ns[$i] * $p.frames[$i])))' \
  "$T_DIR/w.json" >/dev/null
h_check w "$T_DIR/w.html"
h_sections w run environment parameters summary rates per-frame latency
h_drawn w chart-throughput chart-fps chart-frames chart-lat-frame chart-lat-open chart-lat-io chart-lat-close
h_clean w
h_fit w
check "write: the exact command" jq -e --arg d "$D" \
  '.command == "stormark frames -w 256 -n 300 -t 2 --quiet --json=\($d|sub("/d$";""))/w.json --html=\($d|sub("/d$";""))/w.html \($d)"' \
  "$T_DIR/w.hc.json" >/dev/null
check "write: the tool version" grep -q "<td>stormark $("$STORMARK" --version | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -1)</td>" "$T_DIR/w.html"
# the negative control: without its data elements no chart may pass (the
# page is the same in every build: under a sanitizer, where the test must
# stay short, the plain build's run covers it)
if [ "${SM_SANITIZER:-none}" = none ]; then
  h_check wstrip "$T_DIR/w.html" --strip-data
  check "stripped: no chart counts as drawn" jq -e '[.charts[].pixels] | max < 100' "$T_DIR/wstrip.hc.json" >/dev/null
fi

# ---- a cliff in the result is marked on the rate charts ------------------------
jq '.cliff = {"looked": true, "found": true, "samples": 12, "interval_ns": 1000000000, "t": 40,
  "split_ratio": 0.2, "burst_bytes_per_s": 209715200, "sustained_bytes_per_s": 41943040,
  "ratio": 0.2, "at_ns": (.duration_ns / 2 | floor), "bytes_at": 859832320}' "$T_DIR/w.json" >"$T_DIR/cliff.json"
"$STORMARK" report "$T_DIR/cliff.json" --format html >"$T_DIR/cliff.html" 2>/dev/null
check "cliff: marked on both rate charts" test "$(grep -Ec 'class="mark"[^>]*/><text[^>]*>cliff at [0-9.]+ s: 200 -&gt; 40 MiB/s' "$T_DIR/cliff.html")" = 2
check "no cliff: no mark" test "$(grep -c 'cliff at' "$T_DIR/w.html")" = 0

# ---- a long run stays light ---------------------------------------------------
mkdir -p "$D/big"
"$STORMARK" frames -w 4 -n 200000 -t 4 --engine null --quiet --html="$T_DIR/big.html" "$D/big" >/dev/null 2>&1
check "200,000 frames: exit 0" test $? = 0
size=$(stat -c %s "$T_DIR/big.html")
check "200,000 frames: report under 2 MiB ($size bytes)" test "$size" -lt 2097152
h_check big "$T_DIR/big.html" --dom-only
h_fit big
echo "200,000-frame report: $size bytes, layout done $(jq .render_ms "$T_DIR/big.hc.json") ms after navigation"

# ---- bad input --------------------------------------------------------------
expect_usage "--html into a missing directory" "$STORMARK" frames -w 4 -n 1 --html "$T_DIR/no/such/r.html" "$D"
expect_usage "--html is a directory" "$STORMARK" frames -w 4 -n 1 --html "$T_DIR" "$D"
finish
