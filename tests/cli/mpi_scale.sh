#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A job of more ranks than its table lists (docs/mpi.md, "Scale"): twelve
# ranks with the list cut to 8 rows (SM_MPI_RANK_ROWS, the tests' knob for
# the 64): the JSON and the text carry 8 rows at most, among them the
# slowest and the fastest rank, with the counts of failed and silent ranks;
# every rank's whole result is in --mpi-rank-detail's file, one line each
# (rank 0 first, the others as their results came), and the job's totals and histograms are those lines added
# up; `report` of the JSON prints the rank section as rank 0 printed it
# (the job's figures read as saved, not derived from the 8 rows). Without
# the cut, all 12 rows.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_mpi_job
command -v python3 >/dev/null || skip "python3 reads the JSON"
MPI=(timeout 120 "${MPI[@]}")

# check_job JSON DETAIL ROWS: the job against its detail file
check_job() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rows = int(sys.argv[3]); m = d["mpi"]
lines = sorted((json.loads(l) for l in open(sys.argv[2])), key=lambda l: l["mpi_rank"]["rank"])
assert [l["mpi_rank"]["rank"] for l in lines] == list(range(12)), "detail: one line per rank"
assert m["ranks_total"] == 12 and m["ranks_reported"] == 12, m["ranks_total"]
assert m["ranks_failed"] == 0 and m["ranks_silent"] == 0
assert m["ranks_listed"] == len(m["ranks"]) <= rows, (m["ranks_listed"], len(m["ranks"]))
assert all(r["result"] is None for r in m["ranks"])
def nbytes(l):
    return l["totals"]["bytes"] if "totals" in l else 0
assert d["totals"]["bytes"] == m["bytes"] == sum(nbytes(l) for l in lines), "bytes"
for op in d["ops"]:
    assert d["ops"][op]["count"] == sum(l["ops"][op]["count"] for l in lines), op
    want = {}
    for l in lines:
        for lo, n in l["ops"][op]["lat_ns"]["histogram"]["counts"]:
            want[lo] = want.get(lo, 0) + n
    got = {lo: n for lo, n in d["ops"][op]["lat_ns"]["histogram"]["counts"]}
    assert got == want, (op, "histogram")
# each listed row is its rank's line; the slowest and fastest are listed
for r in m["ranks"]:
    l = lines[r["rank"]]
    assert r["bytes"] == l["totals"]["bytes"] and r["done_ns"] == l["mpi_rank"]["done_ns"], r
rate = [l["totals"]["bytes"] * 1e9 / l["mpi_rank"]["done_ns"] for l in lines]
shown = [r["bytes_per_s"] for r in m["ranks"]]
close = lambda a, b: abs(a - b) <= 1e-9 * max(a, b)
assert close(max(shown), max(rate)) and close(min(shown), min(rate)), (shown, rate)
print("ok")
PY
}

F=$T_DIR/frames; mkdir -p "$F"
expect_rc 0 "12 ranks, 8 rows" env SM_MPI_RANK_ROWS=8 "${MPI[@]}" -x SM_MPI_RANK_ROWS -np 12 "$STORMARK" \
  frames -w 16 -n 30 --json="$T_DIR/cut.json" --mpi-rank-detail="$T_DIR/cut.jsonl" "$F"
cp "$T_DIR/out" "$T_DIR/cut.txt"
check "8 rows: the job against its detail file" sh -c "$(declare -f check_job); check_job '$T_DIR/cut.json' '$T_DIR/cut.jsonl' 8 | grep -qx ok"
sed -n '/^  rank host/,/^  [0-9]* of 12 ranks listed/p' "$T_DIR/cut.txt" >"$T_DIR/rows.txt"
check "8 rows: the text lists at most 8 ranks" test "$(grep -cE '^ +[0-9]+ ' "$T_DIR/rows.txt")" -le 8
check "8 rows: the text says how many are listed, and the counts" \
  grep -q "^  [0-9] of 12 ranks listed: the first failed or silent" "$T_DIR/cut.txt"
sed -n '/^MPI job: 12 ranks/,$p' "$T_DIR/cut.txt" >"$T_DIR/cut.mpi"
"$STORMARK" report "$T_DIR/cut.json" 2>/dev/null | sed -n '/^MPI job: 12 ranks/,$p' >"$T_DIR/rep.mpi"
check "8 rows: report of the JSON prints the rank section as rank 0 did" cmp -s "$T_DIR/cut.mpi" "$T_DIR/rep.mpi"
check "8 rows: the section is there" test -s "$T_DIR/cut.mpi"
"$STORMARK" report --format html "$T_DIR/cut.json" >"$T_DIR/cut.html" 2>/dev/null
check "8 rows: the HTML lists the same rows" test "$(grep -o '<tr><td>[0-9]*</td>' "$T_DIR/cut.html" | wc -l)" = \
  "$(json "$T_DIR/cut.json" "d['mpi']['ranks_listed']")"
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "8 rows: the JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/cut.json"
fi

# ---- the same job without the cut: every rank a row ----------------------
expect_rc 0 "12 ranks, every row" "${MPI[@]}" -np 12 "$STORMARK" frames -w 16 -n 30 --json="$T_DIR/all.json" \
  --mpi-rank-detail="$T_DIR/all.jsonl" "$F"
check "every row: the job against its detail file" sh -c "$(declare -f check_job); check_job '$T_DIR/all.json' '$T_DIR/all.jsonl' 12 | grep -qx ok"
check "every row: 12 listed" test "$(json "$T_DIR/all.json" "d['mpi']['ranks_listed']")" = 12
check "every row: no 'listed' line" sh -c "! grep -q 'ranks listed' '$T_DIR/out'"
finish
