#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML report of `stormark streams` in headless Chromium: --html and
# `report --format html` give the same bytes, the answers table coloured by
# the answer, per cell the search chart and the drops chart drawn (none
# with the data stripped), a failed step and its drops shown, no console
# message.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"
D="$T_DIR/d"
mkdir -p "$D"

# ---- a live search ---------------------------------------------------------------
"$STORMARK" streams "$D" --rate-mib 2 --step 1 --time 4 --max-streams 2 --capture --quiet \
  --json="$T_DIR/s.json" --html="$T_DIR/s.html" -o "$T_DIR/s.txt" 2>"$T_DIR/s.err"
check "live: exit 0" test $? = 0
check "live: the text report still written" grep -q '^custom-2mib ' "$T_DIR/s.txt"
"$STORMARK" report "$T_DIR/s.json" --format html >"$T_DIR/s2.html"
check "live: report --format html = --html" cmp -s "$T_DIR/s.html" "$T_DIR/s2.html"
h_check s "$T_DIR/s.html"
h_sections s run environment parameters answers cells
h_drawn s chart-steps-0
h_clean s
h_fit s
check "live: the title names the tested directory" grep -qF "<title>stormark streams: $D</title>" "$T_DIR/s.html"
check "live: and the heading" grep -qF "<h1>stormark streams: $D</h1>" "$T_DIR/s.html"
check "live: a table cell per direction and rate" grep -q '<td class="v-[a-z]*"><a href="#cell-0">' "$T_DIR/s.html"
check "live: one step bar label per N run" test "$(grep -Eo '>[0-9]+ (held|failed)</text>' "$T_DIR/s.html" | sort -u | wc -l)" = \
  "$(jq '[.streams[0].steps[].streams] | unique | length' "$T_DIR/s.json")"

# ---- a search that failed at 3: held 2, drops at 3 ---------------------------------
G=$SM_SOURCE_DIR/tests/golden/streams/short.json
jq '.streams[0] |= (.at_cap = false | .first_failed = 3 |
   .steps += [(.steps[1] | .streams = 3 | .held = false | .dropped = 9 |
     .per_stream = (.per_stream + [.per_stream[0]] | .[2].dropped = 9 | .[1].dropped = 2))])' \
  "$G" >"$T_DIR/fail.json"
t_check_skip "$T_DIR/fail.json"   # a failed step made by hand, not a run's
"$STORMARK" report "$T_DIR/fail.json" --format html >"$T_DIR/fail.html"
check "failed: rendered" test $? = 0
h_check fail "$T_DIR/fail.html"
h_drawn fail chart-steps-0 chart-drops-0 chart-steps-1
h_clean fail
h_fit fail
check "failed: the step at 3 marked failed" grep -q '>3 failed</text>' "$T_DIR/fail.html"
check "failed: the drops of stream 3 at 3 streams" grep -q '<title>3 at 3: 9</title>' "$T_DIR/fail.html"
check "failed: stream 3 did not run at 2" grep -q '>n/a</text>' "$T_DIR/fail.html"
# the negative control: no chart counts as drawn without its data
if [ "${SM_SANITIZER:-none}" = none ]; then
  h_check fstrip "$T_DIR/fail.html" --strip-data
  check "stripped: no chart counts as drawn" jq -e '[.charts[].pixels] | max < 100' "$T_DIR/fstrip.hc.json" >/dev/null
  check "stripped: four charts measured" jq -e '.charts | length == 4' "$T_DIR/fstrip.hc.json" >/dev/null
fi

# ---- a cell with no step: sentences, not empty charts -------------------------------
jq '.streams[0].steps = []' "$G" >"$T_DIR/nost.json"
t_check_skip "$T_DIR/nost.json"   # its steps taken out by hand
"$STORMARK" report "$T_DIR/nost.json" --format html >"$T_DIR/nost.html"
check "no step: rendered" test $? = 0
check "no step: the search chart is a sentence" grep -q \
  '^<p class="muted empty">No step was run: nothing to chart.</p></figure>' "$T_DIR/nost.html"
check "no step: the drops chart is a sentence" grep -q \
  '^<p class="muted empty">No stream ran at either number: nothing to chart.</p></figure>' "$T_DIR/nost.html"

# ---- the sustained confirmation of a capture answer, and a cliff in it -------------
G2=$SM_SOURCE_DIR/tests/golden/streams/sustained.json
"$STORMARK" report "$G2" --format html >"$T_DIR/sus.html"
check "sustained: the confirmation shown, no cliff" grep -q '<td class="v-yes" data-cliff="no">1 stream for 16 s held' "$T_DIR/sus.html"
check "sustained: not lowered, no '!'" sh -c "! grep -q '!)' '$T_DIR/sus.html'"
jq '.streams[0] |= (.cliff = {"looked": true, "found": true, "samples": 16, "interval_ns": 1000000000,
   "t": 40, "split_ratio": 0.3, "burst_bytes_per_s": 4194304, "sustained_bytes_per_s": 1258291,
   "ratio": 0.3, "at_ns": 6000000000, "bytes_at": 25165824} | .max_streams_headroom = 0 |
   .confirmation.lowered = true | .confirmation.note = "the write rate fell off a cliff")' "$G2" >"$T_DIR/cl.json"
"$STORMARK" report "$T_DIR/cl.json" --format html >"$T_DIR/cl.html"
check "cliff: marked in the cell" grep -q '<td class="v-marginal" data-cliff="yes">.*fell from 4.00 MiB/s to 1.20 MiB/s' "$T_DIR/cl.html"
check "cliff: the answer says '!' and why on hover" grep -q '<span title="the write rate fell off a cliff">[^<]*(0!)' "$T_DIR/cl.html"
h_check cl "$T_DIR/cl.html" --dom-only
h_clean cl
h_fit cl

# ---- refused before any work: --html with no file ---------------------------------
expect_usage "--html to a missing directory" "$STORMARK" streams "$D" --html="$T_DIR/no/x.html"
check "nothing written" test -z "$(ls -A "$D")"

finish
