#!/bin/bash
# SPDX-License-Identifier: MIT
# meta's HTML page in headless Chromium: --html on a real run; `report
# --format html` gives the same bytes; every section and the rates chart
# are in the DOM and drawn (none once the data elements are stripped: the
# check can fail), no console message; the page fits a 500 px and a
# 1280 px window (tests/html_lib.sh's h_fit, as every other page).
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"

D="$T_DIR/d"
mkdir -p "$D"
"$STORMARK" meta -n 300 -t 2 --size 8192 --json="$T_DIR/m.json" --html="$T_DIR/m.html" "$D" \
  >"$T_DIR/m.out" 2>&1
check "meta: exit 0" test $? = 0
check "meta: its files removed" test -z "$(ls -A "$D")"
"$STORMARK" report "$T_DIR/m.json" --format html >"$T_DIR/m2.html"
check "report --format html = --html" cmp -s "$T_DIR/m.html" "$T_DIR/m2.html"
h_check m "$T_DIR/m.html"
h_sections m run environment phases rates
h_drawn m meta-rates
h_clean m
h_fit m
if [ "${SM_SANITIZER:-none}" = none ]; then
  h_check mstrip "$T_DIR/m.html" --strip-data
  check "stripped: no chart counts as drawn" jq -e '[.charts[].pixels] | max < 100' "$T_DIR/mstrip.hc.json" >/dev/null
fi
finish
