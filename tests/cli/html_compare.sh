#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML page of `stormark compare` in headless Chromium: --html FILE and
# --format html give the same page (bar the command line), every section is in the DOM, the bar
# charts of A and B are drawn (and none once the data elements are
# stripped), the verdict cells are there for run results, no console message.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"
G=$SM_SOURCE_DIR/tests/golden
cd "$T_DIR" || exit 1

# ---- frames: two saved files ---------------------------------------------------
"$STORMARK" compare --html=c.html "$G/frames/write.json" "$G/frames/write.json" >c.txt 2>c.err
check "frames: exit 0" test $? = 0
check "frames: the text table still on stdout" grep -q '^frame rate ' c.txt
"$STORMARK" compare --format html "$G/frames/write.json" "$G/frames/write.json" >c2.html 2>/dev/null
# the same page but for the command line it names
check "frames: --format html = --html" sh -c "diff c.html c2.html | grep -v -e command-line -e '^---' -e '^[0-9]' | grep -q . && exit 1 || exit 0"
check "frames: pages differ only in the command" test "$(diff c.html c2.html | grep -c '^[<>]')" = 2
h_check c "$T_DIR/c.html"
h_sections c sides charts figures
h_drawn c chart-throughput chart-rates chart-latency
h_clean c
h_fit c
check "frames: the exact command" jq -e --arg g "$G" \
  '.command == "stormark compare --html=c.html \($g)/frames/write.json \($g)/frames/write.json"' c.hc.json >/dev/null
# the command as typed, options after the operands too (the parser reorders
# its own copy of the line)
"$STORMARK" compare "$G/frames/write.json" "$G/frames/write.json" --html=c3.html >/dev/null 2>&1
check "frames: the command in the order typed" grep -qF \
  "stormark compare $G/frames/write.json $G/frames/write.json --html=c3.html" c3.html
# the negative control: without the data elements no chart may pass (the
# page is the same in every build; the plain build's run covers it)
if [ "${SM_SANITIZER:-none}" = none ]; then
  h_check cstrip "$T_DIR/c.html" --strip-data
  check "stripped: no chart counts as drawn" jq -e '[.charts[].pixels] | max < 100' cstrip.hc.json >/dev/null
  check "stripped: the three charts were measured" jq -e '.charts | length == 3' cstrip.hc.json >/dev/null
fi

# ---- run: verdict cells --------------------------------------------------------
"$STORMARK" compare "$G/run/paced.json" "$G/run/paced.json" --format html >r.html 2>/dev/null
check "run: exit 0" test $? = 0
h_check r "$T_DIR/r.html"
h_sections r sides charts verdicts figures
h_clean r
h_fit r
check "run: verdict table in the DOM" grep -q 'id="verdict-table"' r.html

# ---- keys of three runs a side: each bar with its spread -------------------------
mkdir -p fr
for i in 1 2 3; do
  "$STORMARK" frames -w 4 -n 8 -t 1 --quiet --save dir --db k.db fr >/dev/null 2>&1 || fail "save dir $i"
  "$STORMARK" frames -w 4 -n 8 -t 1 --buffered --quiet --save buf --db k.db fr >/dev/null 2>&1 || fail "save buf $i"
done
"$STORMARK" compare --db k.db dir buf --format html -o k.html --json=k.json >/dev/null 2>&1
check "keys: exit 0" test $? = 0
h_check k "$T_DIR/k.html"
h_drawn k chart-throughput chart-rates chart-latency
h_clean k
h_fit k
check "keys: a whisker per bar with a spread" test "$(grep -c '<path class="spread"' k.html)" -ge 6
check "keys: the whiskers said above the chart" grep -q 'whiskers: mean +/- sd over the side' k.html
for side in a b; do
  sd=$(printf %g "$(jq '.figures[] | select(.label == "frame rate") | .'$side'.stddev' k.json)")
  S=$(echo $side | tr ab AB)
  check "keys: $S's frame rate bar carries its sd ($sd)" grep -Eq \
    "<title>frame rate $S: [0-9.e+]+ \(\+/- sd $sd\)</title></rect>\$" k.html
done
# one run a side: no spread, and the chart says so
check "frames files: no whisker for one run a side" sh -c "! grep -q 'class=\"spread\"' c.html"
check "frames files: the chart says why" grep -q 'one run a side: no spread to draw' c.html

finish
