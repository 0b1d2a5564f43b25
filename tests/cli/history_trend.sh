#!/bin/bash
# SPDX-License-Identifier: MIT
# The trend page of `stormark history KEY --html FILE` in headless
# Chromium: a frames key of 4 short runs and a time key of 2 saves of 3
# runs (a slow command after a fast one), each headline figure a chart with
# a point per run (the count checked against the runs), its mean and +/- sd
# band; the first runs against the last with compare's Welch verdict (the
# time key's checked against `stormark compare` of the two saved results);
# the run table; a key of one run (no band, said); the house fit checks at
# 500 and 1280 px; the refusals (no KEY, two keys, an unknown key, a
# missing history, the --db file or -o's file as the page), one line, exit 2,
# nothing written.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
DB=$T_DIR/h.db
mkdir -p fr

# points NAME FILE: "chart-id count" for every trend chart of FILE, the
# count being its <circle class="data point"> elements
points() {
  awk '/<figure class="chart"/ { match($0, /id="[^"]*"/); id = substr($0, RSTART + 4, RLENGTH - 5); n[id] = 0 }
       /<circle class="data point"/ { n[id]++ }
       END { for (i in n) print i, n[i] }' "$1" | sort
}

# ---- frames: 4 short runs under one key ------------------------------------------
for i in 1 2 3 4; do
  "$S" frames -w 4 -n 8 -t 1 --quiet --save fr4 --db "$DB" --json="fr$i.json" fr >/dev/null 2>&1 ||
    fail "frames run $i"
done
"$S" history --db "$DB" fr4 --html f.html >f.txt 2>f.err
check "frames: exit 0" test $? = 0
check "frames: nothing on stderr" test ! -s f.err
check "frames: the text table still on stdout" grep -q "key 'fr4', 4 frames results" f.txt
h_check f "$T_DIR/f.html"
h_sections f key charts verdict runs
h_drawn f chart-totals-items_per_s chart-totals-bytes_per_s chart-ops-frame-p99 chart-frames-dropped
h_clean f
h_fit f
check "frames: the exact command" jq -e --arg db "$DB" \
  '.command == "stormark history --db \($db) fr4 --html f.html"' f.hc.json >/dev/null
check "frames: 4 trend charts" test "$(grep -c 'data-kind="trend"' f.html)" = 4
check "frames: each chart has a point per run" test "$(points f.html | awk '$2 == 4' | wc -l)" = 4
check "frames: each chart says its point count" test "$(grep -c 'data-kind="trend" data-points="4"' f.html)" = 4
# each point is its run's figure as saved: run 3's frame rate
fr3=$(jq -r '.totals.items_per_s' fr3.json)
check "frames: run 3's point is its saved frame rate ($fr3)" grep -Eq \
  "<title>run 3 \(saved [0-9TZ:-]+\): $(printf '%.1f' "$fr3")/s</title>" f.html
check "frames: a band where the runs differ" grep -q 'class="data band"' f.html
check "frames: the band said" grep -q 'band: +/- sd' f.html
check "frames: the run table has the 4 runs and a mean row" \
  test "$(sed -n '/id="run-table"/,/<\/table>/p' f.html | grep -c '^<tr><td>[0-9]')" = 4
check "frames: the mean row" grep -q '<tr><td>mean</td>' f.html
check "frames: runs 1-2 against runs 3-4" grep -q 'First: runs 1-2 (saved .*Last: runs 3-4' f.html
# 2 a side: every headline figure tested, each verdict compare's word
check "frames: a verdict per headline figure" test "$(sed -n '/id="verdict-table"/,/<\/table>/p' f.html |
  grep -Ec '<td class="[^"]*">(better|worse|differs|n\.s\.)</td></tr>$')" = 4
check "frames: the verdict summed up" grep -Eq '<p id="verdict-summary">Verdict at p &lt; 0.05: [0-9] better, [0-9] worse, [0-9] differ, [0-9] not significant' f.html
# the negative control: stripped of its data no chart counts as drawn
if [ "${SM_SANITIZER:-none}" = none ]; then
  h_check fstrip "$T_DIR/f.html" --strip-data
  check "stripped: no chart counts as drawn" jq -e '[.charts[].pixels] | max < 100' fstrip.hc.json >/dev/null
  check "stripped: the four charts were measured" jq -e '.charts | length == 4' fstrip.hc.json >/dev/null
fi

# ---- time: 3 fast runs, then 3 slow ones ------------------------------------------
"$S" time -n 3 --save t --db "$DB" --json=t1.json -o /dev/null -- sleep 0.01 || fail "time save 1"
"$S" time -n 3 --save t --db "$DB" --json=t2.json -o /dev/null -- sleep 0.3 || fail "time save 2"
"$S" history --db "$DB" t --html t.html -o t.txt
check "time: exit 0" test $? = 0
check "time: the table in -o's file" grep -q "key 't', 6 runs" t.txt
h_check t "$T_DIR/t.html"
h_sections t key charts verdict runs
h_drawn t chart-time-wall_ns chart-time-user_ns chart-time-sys_ns
h_clean t
h_fit t
check "time: a point per measured run" test "$(points t.html | awk '$2 == 6' | wc -l)" = 3
check "time: the timed command" grep -q '<td>timed command</td><td>sleep 0.3</td>' t.html
check "time: runs 1-3 against runs 4-6" grep -q 'First: runs 1-3 (saved .*Last: runs 4-6' t.html
check "time: the wall time got worse" grep -Eq '^<tr><td>wall time</td>.*<td class="v-no">worse</td></tr>$' t.html
# the same verdict as stormark compare of the two saves (its p-value too)
"$S" compare t1.json t2.json --format csv >cmp.csv 2>/dev/null
check "time: compare ran" test $? = 0
p=$(awk -F, '$1 == "time.wall_ns" { print $13 }' cmp.csv)
pp=$(awk -v p="$p" 'BEGIN { if (p < 0.0001) print "&lt;0.0001"; else printf "%.4f", p }')
check "time: compare says worse too (significant, change -1)" test \
  "$(awk -F, '$1 == "time.wall_ns" { print $14 "," $15 }' cmp.csv)" = 1,-1
check "time: the page's p is compare's ($pp)" grep -Eq "^<tr><td>wall time</td>.*<td>$pp</td><td class=\"v-no\">worse</td></tr>\$" t.html
check "time: compare's note on the differing command" grep -q 'class="warn">.*command' t.html

# ---- one run: no band, and the page says so -------------------------------------
"$S" frames -w 4 -n 8 -t 1 --quiet --save one --db "$DB" fr >/dev/null 2>&1 || fail "frames run one"
"$S" history --db "$DB" one --html o.html >/dev/null
check "one: exit 0" test $? = 0
h_check o "$T_DIR/o.html"
h_sections o key charts verdict runs
h_drawn o chart-totals-items_per_s
h_clean o
h_fit o
check "one: one point a chart" test "$(points o.html | awk '$2 == 1' | wc -l)" = 4
check "one: no band" sh -c "! grep -q 'class=\"data band\"' o.html"
check "one: the charts say why" test "$(grep -c 'one run: no spread, so no band' o.html)" = 4
check "one: the verdict section says there is nothing to compare" grep -q 'One run only: nothing to compare' o.html

# ---- runs compare refuses to compare: the charts, and no verdict with the reason ----
for w in 4 4 8 8; do
  "$S" frames -w $w -n 8 -t 1 --quiet --save mixed --db "$DB" fr >/dev/null 2>&1 || fail "frames -w $w"
done
"$S" history --db "$DB" mixed --html m.html >/dev/null
check "mixed: exit 0" test $? = 0
check "mixed: still a point per run" test "$(points m.html | awk '$2 == 4' | wc -l)" = 4
check "mixed: no verdict, compare's reason" grep -q \
  'class="warn">No verdict (A the first runs, B the last): A and B differ in frame_bytes (4096 vs 8192)' m.html
check "mixed: no verdict table" sh -c "! grep -q 'id=\"verdict-table\"' m.html"

# ---- more runs than pixel columns: a min-max tick per column, the page as light --
"$S" time -n 450 --quiet --save many --db "$DB" -o /dev/null -- true || fail "time -n 450"
"$S" history --db "$DB" many --html n.html -o /dev/null
check "many: exit 0" test $? = 0
check "many: every run counted in each chart" test "$(grep -c 'data-kind="trend" data-points="450"' n.html)" = 3
check "many: no circle per run" test "$(grep -c '<circle' n.html)" = 0
check "many: the page stays light (< 150 kB with its 450-row table)" test "$(wc -c <n.html)" -lt 150000
h_check n "$T_DIR/n.html"
h_drawn n chart-time-wall_ns
h_clean n
h_fit n

# ---- refusals: one line, exit 2, before any work ----------------------------------
cp "$DB" before.db
expect_usage "--html without KEY" "$S" history --db "$DB" --html x.html
check "no KEY: said" grep -q -- '--html draws the trend of one key' usage.err
expect_usage "--html with two keys" "$S" history --db "$DB" t fr4 --html x.html
expect_usage "--html of an unknown key" "$S" history --db "$DB" nosuchkey --html x.html
check "unknown key: named" grep -q "no runs saved under key 'nosuchkey'" usage.err
expect_usage "--html of a missing history" "$S" history --db "$T_DIR/none.db" t --html x.html
check "missing history: not created" test ! -e none.db
expect_usage "--html onto the --db file" "$S" history --db "$DB" t --html "$DB"
check "--db as the page: said" grep -q "cannot write --html '$DB': it is the file of --db" usage.err
expect_usage "--html onto -o's file" "$S" history --db "$DB" t --html y.txt -o y.txt
check "refused: no page written" test ! -e x.html -a ! -e y.txt
check "refused: the history untouched" cmp -s "$DB" before.db
"$S" history --help >help.txt
check "--help names the trend page" grep -q -- '--html FILE' help.txt

finish
