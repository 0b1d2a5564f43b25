#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The job's histograms are reduced by the MPI library (docs/mpi.md, "What
# is merged, and how"): MPI_Ireduce with a user-defined operation (the
# histogram's exact merge) over every histogram of the result, and the
# rank table's rows gathered as fixed-size records. The job's JSON says
# "histograms": "reduced"; every histogram in it (wherever it is in the
# document) equals, bucket by bucket, with its count, sum, min and max, the
# merge of the ranks' own from --mpi-rank-detail's file (frames, fileio,
# meta). Without the detail file the ranks' documents carry no
# histogram, and the job's still counts every rank's values. `report
# --check JOB.json --mpi-rank-detail=FILE` finds a rank's line missing or
# twice (mpi.detail).
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job
MPI=(timeout 120 "${MPI[@]}")
command -v python3 >/dev/null || skip "python3 reads the JSON"

# check_reduced JSON [DETAIL]: "reduced", and each histogram the merge of
# the detail file's (or, without one, counting as many values as its
# operation's count says, where it has one)
check_reduced() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mpi"]["histograms"] == "reduced", d["mpi"].get("histograms")
def hists(o, path=()):
    if isinstance(o, dict):
        if "histogram" in o and isinstance(o["histogram"], dict) and "counts" in o["histogram"]:
            yield path, o
        for k, v in o.items():
            if k != "mpi":
                yield from hists(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from hists(v, path + (i,))
def get(o, path):
    for k in path:
        o = o[k]
    return o
def buckets(h):
    out = {}
    for lo, n in h["histogram"]["counts"]:
        out[lo] = out.get(lo, 0) + n
    return out
found = list(hists(d))
assert found, "no histogram in the job's JSON"
if len(sys.argv) > 2:
    ranks = [json.loads(l) for l in open(sys.argv[2])]
    assert len(ranks) == d["mpi"]["ranks_total"], len(ranks)
    for path, h in found:
        own = [get(r, path) for r in ranks]
        summed = {}
        for x in own:
            for lo, n in buckets(x).items():
                summed[lo] = summed.get(lo, 0) + n
        assert buckets(h) == summed, path
        assert h["histogram"]["sum"] == sum(x["histogram"]["sum"] for x in own), path
        counted = [x for x in own if x["histogram"]["counts"]]
        if counted:
            assert h["min"] == min(x["min"] for x in counted), path
            assert h["max"] == max(x["max"] for x in counted), path
else:
    checked = 0
    for path, h in found:
        parent = get(d, path[:-1])
        if path[-1] == "lat_ns" and "count" in parent:
            assert sum(buckets(h).values()) == parent["count"], (path, parent["count"])
            checked += parent["count"]
    assert checked > 0, "no histogram with a count"
print("reduced ok", len(found))
PY
}

F=$T_DIR/frames; mkdir -p "$F"
expect_rc 0 "frames, 3 ranks" "${MPI[@]}" -np 3 "$STORMARK" frames -w 1024 -n 30 \
  --json="$T_DIR/f.json" --mpi-rank-detail="$T_DIR/f.jsonl" "$F"
check "frames: reduced histograms are the ranks' merged" check_reduced "$T_DIR/f.json" "$T_DIR/f.jsonl"
expect_rc 0 "frames, 3 ranks, no detail" "${MPI[@]}" -np 3 "$STORMARK" frames -w 1024 -n 30 \
  --json="$T_DIR/f2.json" "$F"
check "frames: reduced histograms count every rank's values" check_reduced "$T_DIR/f2.json"

D=$T_DIR/fio; mkdir -p "$D"
FIO=(fileio --file-dir="$D" --file-num=1 --file-total-size=1M --file-test-mode=rndrd)
expect_rc 0 "fileio prepare" "${MPI[@]}" -np 2 "$STORMARK" "${FIO[@]}" prepare
expect_rc 0 "fileio run, 2 ranks" "${MPI[@]}" -np 2 "$STORMARK" "${FIO[@]}" --time=0 --events=300 \
  --json="$T_DIR/io.json" --mpi-rank-detail="$T_DIR/io.jsonl" run
check "fileio: reduced histograms are the ranks' merged" check_reduced "$T_DIR/io.json" "$T_DIR/io.jsonl"

M=$T_DIR/meta; mkdir -p "$M"
expect_rc 0 "meta, 3 ranks" "${MPI[@]}" -np 3 "$STORMARK" meta -n 40 --warm \
  --json="$T_DIR/m.json" --mpi-rank-detail="$T_DIR/m.jsonl" "$M"
check "meta: reduced histograms are the ranks' merged" check_reduced "$T_DIR/m.json" "$T_DIR/m.jsonl"

# report --check with the detail file: a line per rank, each rank once,
# the job's bytes and reported ranks the lines' (mpi.detail)
# (the merged series' known span, tests/check_known.tsv, is filtered out)
for f in f io m; do
  "$STORMARK" report --check "$T_DIR/$f.json" --mpi-rank-detail="$T_DIR/$f.jsonl" >"$T_DIR/ck.out" 2>&1
  check "$f: report --check with its detail file: exit $?, nothing found" \
    test -z "$(t_check_filter <"$T_DIR/ck.out")"
done
head -n 1 "$T_DIR/f.jsonl" >"$T_DIR/one.json"
head -n 2 "$T_DIR/f.jsonl" >"$T_DIR/short.jsonl"
expect_rc 1 "report --check: a rank's line missing" "$STORMARK" report --check "$T_DIR/f.json" \
  --mpi-rank-detail="$T_DIR/short.jsonl"
check "a rank's line missing: said" grep -q "mpi.detail: the detail file's lines is 2, mpi.ranks_total is 3" "$T_DIR/out"
{ head -n 2 "$T_DIR/f.jsonl"; head -n 1 "$T_DIR/f.jsonl"; } >"$T_DIR/dup.jsonl"
expect_rc 1 "report --check: a rank twice" "$STORMARK" report --check "$T_DIR/f.json" \
  --mpi-rank-detail="$T_DIR/dup.jsonl"
check "a rank twice: said" grep -q "mpi.detail: rank .* has a second line (line 3)" "$T_DIR/out"
expect_usage "--mpi-rank-detail without --check" "$STORMARK" report --mpi-rank-detail="$T_DIR/f.jsonl" "$T_DIR/f.json"
expect_rc 2 "--mpi-rank-detail with a result of one process" "$STORMARK" report --check \
  "$T_DIR/one.json" --mpi-rank-detail="$T_DIR/f.jsonl"

if python3 -c 'import jsonschema' 2>/dev/null; then
  for f in f f2 io m; do
    check "$f: the JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
      "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/$f.json"
  done
fi
finish
