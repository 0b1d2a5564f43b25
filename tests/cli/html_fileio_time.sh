#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML reports of fileio and time in headless Chromium: --html on each,
# `report --format html` gives the same bytes, every section and chart is
# in the DOM and drawn, no console message. (frames: html_frames.sh,
# html_paced.sh; run: html_run.sh.)
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"

D="$T_DIR/d"
mkdir -p "$D"

# ---- fileio -----------------------------------------------------------------
F="--file-total-size=16M --file-num=2 --file-dir=$D"
# shellcheck disable=SC2086
"$STORMARK" fileio $F prepare >/dev/null 2>&1
# shellcheck disable=SC2086
"$STORMARK" fileio $F --file-test-mode=rndrw --time=2 --report-interval=1 --threads=2 \
  --json="$T_DIR/f.json" --html="$T_DIR/f.html" run >"$T_DIR/f.out" 2>&1
check "fileio: exit 0" test $? = 0
check "fileio: sysbench's report still on stdout" grep -q "^File operations:" "$T_DIR/f.out"
"$STORMARK" report "$T_DIR/f.json" --format html >"$T_DIR/f2.html"
check "fileio: report --format html = --html" cmp -s "$T_DIR/f.html" "$T_DIR/f2.html"
h_check f "$T_DIR/f.html"
h_sections f run environment parameters summary rates latency
h_drawn f chart-throughput chart-iops chart-lat-read chart-lat-write chart-lat-fsync chart-lat-event
h_clean f
h_fit f

# without --report-interval: the per-second series is in the result and
# charted, and sysbench's layout prints no interval line
# shellcheck disable=SC2086
"$STORMARK" fileio $F --file-test-mode=rndrw --time=3 --threads=2 \
  --json="$T_DIR/p.json" --html="$T_DIR/p.html" run >"$T_DIR/p.out" 2>&1
check "per second: exit 0" test $? = 0
check "per second: no interval line on stdout" sh -c "! grep -q '^\[ ' '$T_DIR/p.out'"
check "per second: report --format sysbench has none either" sh -c \
  "'$STORMARK' report '$T_DIR/p.json' | grep -c '^\[ ' | grep -qx 0"
check "per second: the series, 1 s a sample, then the partial end" jq -e \
  '.params.report_interval_ns == 0 and .series.interval_ns == 1000000000 and
   (.series.t_ns | length) >= 2 and (.series.t_ns | length) <= 4 and
   ([.series.duration_ns[:-1][] == 1000000000] | all) and
   .series.t_ns[-1] == .duration_ns' "$T_DIR/p.json" >/dev/null
check "per second: the bytes of the series are at most the run's" jq -e \
  '([.series.read_bytes[]] | add) <= .ops.read.bytes and ([.series.write_bytes[]] | add) <= .ops.write.bytes and
   ([.series.reads[]] | add) > 0' "$T_DIR/p.json" >/dev/null
h_check p "$T_DIR/p.html"
h_drawn p chart-throughput chart-iops
h_clean p
h_fit p
# shellcheck disable=SC2086
"$STORMARK" fileio $F cleanup >/dev/null 2>&1

# ---- a partial last interval is drawn over its own duration --------------------
# 100 MiB/s throughout: 1 s, 1 s, then 0.25 s (25 MiB) to the end of the run;
# drawn per 1 s the last step would fall to 25 MiB/s, here it stays level
# and ends at the run's end (the axis' right end, x = 944)
G=$SM_SOURCE_DIR/tests/golden/fileio/rndrw.json
t_check_skip "$T_DIR/part.json"   # its series is made up to test the drawing
jq '.series |= (.t_ns = [1000000000, 2000000000, 2250000000] | .duration_ns = [1000000000, 1000000000, 250000000]
  | .read_bytes = [104857600, 104857600, 26214400] | .write_bytes = [0, 0, 0] | .reads = [6400, 6400, 1600]
  | .writes = [0, 0, 0] | .fsyncs = [0, 0, 0] | .items = [6400, 6400, 1600] | .lat_pct_ns = [1000, 1000, 1000]
  | .lat_max_ns = [2000, 2000, 2000])' "$G" >"$T_DIR/part.json"
"$STORMARK" report "$T_DIR/part.json" --format html >"$T_DIR/part.html"
check "partial: rendered" test $? = 0
awk '/id="chart-throughput"/,/<\/figure>/' "$T_DIR/part.html" | grep -o '<polyline class="data"[^>]*points="[^"]*"' \
  | head -1 | sed 's/.*points="//; s/"$//' | tr ' ' '\n' | grep . >"$T_DIR/part.pts"
check "partial: the read rate is level to the end (one y for every point)" \
  test "$(cut -d, -f2 "$T_DIR/part.pts" | sort -u | wc -l)" = 1
check "partial: the last step ends at the end of the run, 0.25 s after the one before" \
  test "$(tail -1 "$T_DIR/part.pts" | cut -d, -f1)" = 944.0

# ---- a chart with nothing to draw is a sentence ----------------------------------
jq 'del(.series)' "$G" >"$T_DIR/noser.json"
"$STORMARK" report "$T_DIR/noser.json" --format html >"$T_DIR/noser.html"
check "no series: a sentence instead of the rate chart" grep -q \
  '<figure class="chart" id="chart-throughput" data-kind="xy"><figcaption>[^<]*</figcaption>$' "$T_DIR/noser.html"
check "no series: the sentence" grep -q '^<p class="muted empty">No samples in this result: nothing to chart.</p></figure>' \
  "$T_DIR/noser.html"
check "no series: no empty plot drawn" sh -c "! grep -q 'no samples' '$T_DIR/noser.html'"
h_check noser "$T_DIR/noser.html" --dom-only
h_fit noser

# ---- time -n 3 ----------------------------------------------------------------
"$STORMARK" time -n 3 --html="$T_DIR/t.html" --json="$T_DIR/t.json" -- \
  dd if=/dev/zero of="$D/dd" bs=64k count=16 conv=fsync >"$T_DIR/t.out" 2>&1
check "time: exit 0" test $? = 0
"$STORMARK" report "$T_DIR/t.json" --format html >"$T_DIR/t2.html"
check "time: report --format html = --html" cmp -s "$T_DIR/t.html" "$T_DIR/t2.html"
h_check t "$T_DIR/t.html"
h_sections t run environment parameters runs
h_drawn t chart-wall chart-storage
h_clean t
h_fit t
check "time: a row per run" test "$(grep -c '^<tr><td>[0-9]</td><td>0</td>' "$T_DIR/t.html")" = 3

finish
