#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark compare: saved JSON files and history keys compared figure by
# figure (text, markdown, JSON validated by docs/compare.schema.json), the
# Welch p-values consistent with the means and deviations printed beside
# them, refusals (other command, other frame size) in one line with exit 2,
# and a differing environment noted.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
G=$SM_SOURCE_DIR/tests/golden
cd "$T_DIR" || exit 1
DB=$T_DIR/h.db

# two files: a result against itself, every ratio 1
expect_rc 0 "a file against itself" $S compare "$G/frames/write.json" "$G/frames/write.json"
cp "$T_DIR/out" self.txt
check "heading names both files" grep -q "A: file '.*write.json' (1 result, 1 run)" self.txt
check "frame rate row, ratio 1" grep -Eq '^frame rate +223\.45/s|^frame rate +223\.5/s' self.txt
check "every ratio is 1.000" sh -c "! grep -E '^(frame rate|throughput|write p99|frame p99\.9) ' self.txt | grep -v ' 1\.000 '"
check "each percentile per operation" sh -c "grep -Eq '^open p99\.9 ' self.txt && grep -Eq '^close p50 ' self.txt && grep -Eq '^frame max ' self.txt"
check "no notes for one result" sh -c "! grep -q '^note:' self.txt"
check "no p-value for single runs" sh -c "grep -E '^frame rate ' self.txt | grep -Eq ' - *$'"

# refusals: one line, exit 2, nothing on stdout
expect_usage "frames vs fileio" $S compare "$G/frames/write.json" "$G/fileio/rndrw.json"
check "says which commands" grep -q "frames runs and B fileio runs" "$T_DIR/usage.err"
expect_usage "write vs paced read" $S compare "$G/frames/write.json" "$G/frames/paced-read.json"
check "names the parameter" grep -q "differ in test" "$T_DIR/usage.err"
expect_usage "run with other formats" $S compare "$G/run/paced.json" "$G/run/null.json"
check "names formats" grep -q "differ in formats" "$T_DIR/usage.err"

# keys: three runs a side, direct and buffered
mkdir fr
for i in 1 2 3; do
  $S frames -w 4 -n 8 -t 1 --quiet --save dir --db "$DB" fr >/dev/null 2>&1 || fail "save dir $i"
  $S frames -w 4 -n 8 -t 1 --buffered --quiet --save buf --db "$DB" fr >/dev/null 2>&1 || fail "save buf $i"
done
$S frames -w 4 -n 8 -t 1 --quiet --json=one.json fr >/dev/null 2>&1
expect_rc 0 "two keys" $S compare --db "$DB" dir buf
cp "$T_DIR/out" keys.txt
check "key heading: 3 runs" grep -q "B: key 'buf' (3 results, 3 runs)" keys.txt
check "direct vs buffered noted" grep -q "^note: I/O differs: direct vs buffered" keys.txt
check "p-value or no spread on the frame rate" grep -Eq '^frame rate .* [0-9.]+ +([0-9.]+|<0\.0001|no spread) +(n\.s\.|better|worse)' keys.txt
# (beside the means when the table fits 80 columns so, else in a second table)
check "means with deviations" sh -c "grep -Eq '^frame rate .*/s \+- .*/s' keys.txt ||
  sed -n '/^standard deviation  /,\$p' keys.txt | grep -Eq '^frame rate +[0-9.]+/s +[0-9.]+/s\$'"
expect_rc 0 "markdown" $S compare --db "$DB" dir buf --format markdown
check "markdown table" grep -q '^| figure | A | B | B/A | p | |$' "$T_DIR/out"
check "markdown note" grep -q '^- \*\*note:\*\* I/O differs' "$T_DIR/out"
expect_rc 0 "csv" $S compare --db "$DB" dir buf --format csv
cp "$T_DIR/out" c.csv
check "csv header" grep -qx 'figure,label,unit,runs_a,runs_b,mean_a,mean_b,sd_a,sd_b,ratio,t,df,p,significant,change,verdict_a,verdict_b' c.csv
check "csv: the frame rate row, 3 runs of B" grep -Eq '^totals\.items_per_s,[^,]+,per_s,[0-9]+,3,' c.csv
expect_rc 0 "json" $S compare --db "$DB" dir buf --json=c.json -o c.txt
check "csv: a row per figure of the JSON" \
  [ "$(($(wc -l <c.csv) - 1))" = "$(jq '.figures | length' c.json 2>/dev/null || echo x)" ]
check "--json=FILE besides the text" grep -q '^frame rate ' c.txt
if /usr/bin/python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
  check "compare JSON validates" /usr/bin/python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/compare.schema.json" c.json
fi
check "JSON: sides and figures" jq -e '.compare == "frames" and .a.kind == "key" and .a.runs == 3 and
  .b.name == "buf" and (.figures | map(.name) | index("totals.items_per_s")) != null' c.json
# Welch's t, df and p agree with the means, deviations and counts beside
# them; p from the t density integrated by Simpson's rule (a method
# independent of the continued fraction stormark uses)
check "JSON: Welch consistent with the figures" /usr/bin/python3 - c.json <<'PY'
import json, sys, math
doc = json.load(open(sys.argv[1]))
def p2(t, df):
    t = abs(t)
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    f = lambda x: math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))
    n = 20000
    h = t / n
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return max(0.0, 1 - 2 * s * h / 3)
n = 0
for f in doc["figures"]:
    w = f["welch"]
    if f["unit"] == "verdict" or w is None or w["p"] is None or f["a"]["stddev"] + f["b"]["stddev"] == 0:
        continue
    a, b = f["a"], f["b"]
    sa, sb = a["stddev"] ** 2 / a["n"], b["stddev"] ** 2 / b["n"]
    t = (b["mean"] - a["mean"]) / math.sqrt(sa + sb)
    df = (sa + sb) ** 2 / (sa * sa / (a["n"] - 1) + sb * sb / (b["n"] - 1))
    assert abs(t - w["t"]) <= 1e-9 * max(1, abs(t)), (f["name"], t, w["t"])
    assert abs(df - w["df"]) <= 1e-9 * max(1, df), (f["name"], df, w["df"])
    if abs(t) < 50:
        assert abs(p2(t, df) - w["p"]) <= 1e-6, (f["name"], p2(t, df), w["p"])
    assert w["significant"] == (w["p"] < doc["alpha"])
    n += 1
assert n >= 10, n
PY
check "JSON: ratio is B/A" jq -e '.figures[] | select(.name == "totals.items_per_s") |
  ((.ratio - .b.mean / .a.mean) | fabs) < 1e-12' c.json

# HTML: both sides on the same charts, the verdict cells coloured, every figure
expect_rc 0 "--html FILE besides the text" $S compare --db "$DB" dir buf --html c.html -o /dev/null
check "html: sides, notes, charts and table" sh -c "grep -q 'id=\"sides\"' c.html &&
  grep -q 'id=\"notes\"' c.html && grep -q 'id=\"chart-throughput\"' c.html &&
  grep -q 'id=\"chart-latency\"' c.html && grep -q 'id=\"figure-table\"' c.html"
check "html: two bars a figure (A and B)" grep -q '<figure class="chart" id="chart-rates" data-kind="bars">' c.html
check "html: self-contained (no external file, no script)" sh -c "! grep -Eq '<script|src=\"http|href=\"http' c.html"
expect_rc 0 "--format html" $S compare "$G/run/paced.json" "$G/run/paced.json" --format html
check "html: verdict cells coloured" sh -c "grep -q 'id=\"verdict-table\"' '$T_DIR/out' && grep -q 'class=\"v-yes\"' '$T_DIR/out'"

# a file against a key: one run against three, a ratio and no test
expect_rc 0 "file against key" $S compare --db "$DB" one.json dir
check "file vs key heading" sh -c "grep -q \"A: file 'one.json'\" '$T_DIR/out' && grep -q \"B: key 'dir'\" '$T_DIR/out'"
# a key of another command, another frame size: refused
$S time -n 2 --save t --db "$DB" -o /dev/null -- true
expect_usage "frames key vs time key" $S compare --db "$DB" dir t
$S frames -w 8 -n 4 -t 1 --quiet --save big --db "$DB" fr >/dev/null 2>&1
expect_usage "another frame size" $S compare --db "$DB" dir big
check "names frame_bytes" grep -q "frame_bytes" "$T_DIR/usage.err"
expect_usage "unknown key" $S compare --db "$DB" dir nosuch
# time keys: figures from the runs' rows
expect_rc 0 "time keys" $S compare --db "$DB" t t
check "time: wall time row with a p-value" grep -Eq '^wall time .* 1\.000 +1\.0000 +n\.s\.' "$T_DIR/out"

finish
