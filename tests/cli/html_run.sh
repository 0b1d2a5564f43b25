#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML report of `run` in headless Chromium (null engine, so no I/O and
# a fixed table): --html and `report --format html` give the same bytes,
# every section and chart is in the DOM and drawn, the verdict cells are
# coloured yes / marginal / no and say how each was decided, no console
# message. The rate over time: each frame test's per-second series is in
# the JSON and adds up to the test's counts, charted (the sustained 2k
# write first); a cliff in the saved result is marked on the sustained
# write's chart only; a result saved before the series were kept still
# renders, its rate section saying it has none.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"

D="$T_DIR/d"
# ---- run (null engine: no I/O, every verdict computed) -------------------------------
mkdir -p "$D/r"
"$STORMARK" run "$D/r" --time 2 --quiet --engine null --no-confirm --formats dpx-hd,dpx-8k-uhd --fps 24,60 \
  --json="$T_DIR/r.json" --html="$T_DIR/r.html" >"$T_DIR/r.out" 2>&1
check "run: exit 0" test $? = 0
"$STORMARK" report "$T_DIR/r.json" --format html >"$T_DIR/r2.html"
check "run: report --format html = --html" cmp -s "$T_DIR/r.html" "$T_DIR/r2.html"
h_check r "$T_DIR/r.html"
h_sections r run environment parameters classic frame-tests rates verdicts verdict-summary
h_drawn r chart-lat-classic-0-read chart-lat-classic-0-write chart-rate-2k-write chart-rate-2k-read \
  chart-rate-hd-write chart-rate-4k-read
h_clean r
h_fit r
# 2 formats x 2 rates x 2 directions, each coloured by its verdict and saying how
check "run: 8 verdict cells, coloured" test "$(grep -Eo 'class="v-(yes|marginal|no)"' "$T_DIR/r.html" | wc -l)" = 8
check "run: each cell says how" test "$(grep -Eo '<small>(computed|paced)</small>' "$T_DIR/r.html" | wc -l)" = 8

# ---- the rate over time --------------------------------------------------------------
# every measured frame test has its series, and it adds up to the test's counts
check "series: one per frame test, adding up" jq -e '[.run.frames[] | (.write, .read) | select(. != null)] |
  length == 6 and all(.series.interval_ns == 1000000000 and (.series.bytes | add) == .bytes and
    (.series.items | add) == .frames and (.series.bytes | length) >= 1 and
    ([.series[] | arrays | length] | unique | length) == 1)' "$T_DIR/r.json" >/dev/null
# the sustained write's chart comes first: before every other rate chart
check "series: the sustained write charted first" test "$(grep -Eo 'id="chart-rate-[a-z0-9]+-[a-z]+"' \
  "$T_DIR/r.html" | head -1)" = 'id="chart-rate-2k-write"'
check "series: no cliff, no mark" test "$(grep -c 'cliff at' "$T_DIR/r.html")" = 0
# a capture that slows down: 12 s at 200 MiB/s then 40 MiB/s, the cliff found at 6 s
jq '(.run.frames[] | select(.preset == "2k") | .write) |= (
  .series = {"interval_ns": 1000000000,
    "duration_ns": [range(12) | 1000000000],
    "bytes": [range(12) | if . < 6 then 209715200 else 41943040 end],
    "items": [range(12) | if . < 6 then 16 else 3 end],
    "dropped": [range(12) | 0], "open_ns": [range(12) | 0], "io_ns": [range(12) | 0],
    "close_ns": [range(12) | 0], "frame_ns": [range(12) | 0]}
  | .cliff = {"looked": true, "found": true, "samples": 12, "interval_ns": 1000000000, "t": 40,
    "split_ratio": 0.2, "burst_bytes_per_s": 209715200, "sustained_bytes_per_s": 41943040,
    "ratio": 0.2, "at_ns": 6000000000, "bytes_at": 1258291200})' "$T_DIR/r.json" >"$T_DIR/cliff.json"
t_check_skip "$T_DIR/cliff.json"   # a cliff put into the series by hand, not a run's
"$STORMARK" report "$T_DIR/cliff.json" --format html >"$T_DIR/cliff.html"
check "cliff: report exit 0" test $? = 0
check "cliff: marked once, on the sustained write" test "$(grep -Eo \
  '<figure[^>]*id="chart-rate-[^"]*"|class="mark"[^>]*/><text[^>]*>cliff at 6.0 s: 200 -&gt; 40 MiB/s' \
  "$T_DIR/cliff.html" | grep -A1 'chart-rate-2k-write' | grep -c 'cliff at')" = 1
check "cliff: one mark in the page" test "$(grep -c 'cliff at 6.0 s' "$T_DIR/cliff.html")" = 1
check "cliff: said in words" grep -Eq 'the write rate fell from 200(\.0)? MiB/s to 40(\.0)? MiB/s' "$T_DIR/cliff.html"
h_check cliff "$T_DIR/cliff.html"
h_drawn cliff chart-rate-2k-write
h_clean cliff
h_fit cliff
# (the negative control of the rate chart, the same xy chart as frames', is
# in html_frames.sh: stripped of its data it counts as blank)

# ---- a result saved before the series were kept ---------------------------------------
jq 'del(.run.frames[].write.series, .run.frames[].read.series)' "$T_DIR/r.json" >"$T_DIR/old.json"
"$STORMARK" report "$T_DIR/old.json" --format html >"$T_DIR/old.html"
check "old: report exit 0" test $? = 0
check "old: the rate section says it has no series" grep -q 'This result holds no per-second series: it was saved by a stormark from before' \
  "$T_DIR/old.html"
check "old: no rate chart" test "$(grep -c 'id="chart-rate-' "$T_DIR/old.html")" = 0
check "old: the rest as before" test "$(grep -Eo 'class="v-(yes|marginal|no)"' "$T_DIR/old.html" | wc -l)" = 8
h_check old "$T_DIR/old.html" --dom-only
h_sections old parameters classic frame-tests rates verdicts verdict-summary
h_clean old
h_fit old
finish
