#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML report of `run` in headless Chromium (null engine, so no I/O and
# a fixed table): --html and `report --format html` give the same bytes,
# every section and chart is in the DOM and drawn, the verdict cells are
# coloured yes / marginal / no and say how each was decided, no console
# message.
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
h_sections r run environment parameters classic frame-tests verdicts verdict-summary
h_drawn r chart-lat-classic-0-read chart-lat-classic-0-write
h_clean r
# 2 formats x 2 rates x 2 directions, each coloured by its verdict and saying how
check "run: 8 verdict cells, coloured" test "$(grep -Eo 'class="v-(yes|marginal|no)"' "$T_DIR/r.html" | wc -l)" = 8
check "run: each cell says how" test "$(grep -Eo '<small>(computed|paced)</small>' "$T_DIR/r.html" | wc -l)" = 8
finish
