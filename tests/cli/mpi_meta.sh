#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark meta` as one MPI job (docs/meta.md, docs/mpi.md): each rank in
# DIR/rank.N, or with --shared-dir every rank's files in one directory
# (rank r's numbered r x N on, each listing them all); every phase starts
# on all ranks at a vote. Rank 0's figures are the exact merge of the
# ranks' own (counts and bytes summed, latency histograms bucket by
# bucket), each phase's span the longest rank's (last-done), its
# first-done rate what every rank had done when the first was done over
# that rank's span; the rank table follows. A rank that fails its checks
# stops the job before any phase; one whose create fails (a full disk)
# stops the others at the next phase, exit 1, and nothing is left.
# Outside mpirun --shared-dir is a usage error.
. "$SM_SOURCE_DIR/tests/lib.sh"

expect_usage "--shared-dir outside mpirun" "$STORMARK" meta --shared-dir -n 10 "$T_DIR"
t_mpi_job
MPI=(timeout 120 "${MPI[@]}")
command -v python3 >/dev/null || skip "python3 reads the JSON"

# check_merge JSON RANKS SHARED DETAIL: the job's figures against the ranks'
# own (DETAIL: --mpi-rank-detail's file, a line per rank)
check_merge() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); P = int(sys.argv[2]); shared = sys.argv[3] == "1"
m = d["meta"]; mp = d["mpi"]
assert m["ranks"] == P and m["shared"] == shared, (m.get("ranks"), m.get("shared"))
assert mp["ranks_total"] == P and mp["ranks_reported"] == P, mp
own = sorted((json.loads(line) for line in open(sys.argv[4])), key=lambda l: l["mpi_rank"]["rank"])
assert [o["mpi_rank"]["rank"] for o in own] == list(range(P))
assert all(r["result"] is None for r in mp["ranks"])
files = d["params"]["files"]
assert m["created"] == P * files, m["created"]
dirs = set(o["meta"]["data_dir"] for o in own)
assert len(dirs) == (1 if shared else P), dirs
def buckets(lat):
    out = {}
    for lo, n in lat["histogram"]["counts"]:
        out[lo] = out.get(lo, 0) + n
    return out
for name, ph in m["ops"].items():
    mine = [o["meta"]["ops"][name] for o in own]
    for key in ("count", "bytes", "errors"):
        assert ph[key] == sum(x[key] for x in mine), (name, key)
    want = {}
    for x in mine:
        for lo, n in buckets(x["lat_ns"]).items():
            want[lo] = want.get(lo, 0) + n
    assert buckets(ph["lat_ns"]) == want, (name, "latency histogram")
    # last-done: the longest rank's span; first-done: the shortest's
    assert ph["duration_ns"] == max(x["duration_ns"] for x in mine), name
    assert ph["first_done_ns"] == min(x["duration_ns"] for x in mine), name
    assert abs(ph["per_s"] - ph["count"] / ph["duration_ns"] * 1e9) <= 1e-9 * ph["per_s"], name
    # what all had done by the first rank's end: at least that rank's own
    # operations, at most all; counted from the ranks' operation end times
    first = min(range(P), key=lambda k: mine[k]["duration_ns"])
    assert mine[first]["count"] <= ph["first_done_count"] <= ph["count"], (name, ph["first_done_count"])
    assert abs(ph["first_done_per_s"] - ph["first_done_count"] / ph["first_done_ns"] * 1e9) <= \
        1e-9 * ph["first_done_per_s"], name
    # each rank's own: its operations' ends, one per operation done
    for x in mine:
        assert x["done_at_ns"]["histogram"]["counts"], name
        assert sum(n for lo, n in x["done_at_ns"]["histogram"]["counts"]) == x["count"] - x["errors"], name
    per = files * (P if shared and name == "list" else 1)
    assert all(x["count"] == per for x in mine), (name, [x["count"] for x in mine], per)
print("ok")
PY
}

# ---- each rank in DIR/rank.N ---------------------------------------------
D=$T_DIR/own; mkdir -p "$D"
expect_rc 0 "two ranks" "${MPI[@]}" -np 2 "$STORMARK" meta -n 500 --size 4k -t 2 --json="$T_DIR/own.json" \
  --mpi-rank-detail="$T_DIR/own.jsonl" --format csv -o "$T_DIR/own.csv" "$D"
check "two ranks: the merge against the ranks' own" sh -c "$(declare -f check_merge); check_merge '$T_DIR/own.json' 2 0 '$T_DIR/own.jsonl' | grep -qx ok"
check "two ranks: one directory each" test -d "$D/rank.0" -a -d "$D/rank.1"
check "two ranks: nothing left in them" test -z "$(find "$D" -mindepth 2)"
check "two ranks: the CSV has the first-done columns" \
  grep -q '^phase,.*,first_done_ns,first_done_count,first_done_per_s$' "$T_DIR/own.csv"
"$STORMARK" report "$T_DIR/own.json" >"$T_DIR/own.txt" 2>&1
check "two ranks: the text says it is a job" grep -q "^MPI job of 2 ranks, each in DIR/rank.N" "$T_DIR/own.txt"
check "two ranks: the first-done table" grep -Eq "^create +[0-9.]+ +[0-9.]+ +[0-9.]+ [mun]?s$" "$T_DIR/own.txt"
check "two ranks: the rank table" grep -q "^MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/own.txt"
check "two ranks: no one-client sequence estimate from all ranks' rates" \
  sh -c "! grep -q 'a sequence of' '$T_DIR/own.txt'"
"$STORMARK" report --format html "$T_DIR/own.json" >"$T_DIR/own.html"
check "two ranks: the HTML's job section" grep -q '<table id="job-table">' "$T_DIR/own.html"
"$STORMARK" report --format json "$T_DIR/own.json" >"$T_DIR/own2.json"
check "two ranks: report --format json gives the job's JSON back" cmp -s "$T_DIR/own.json" "$T_DIR/own2.json"

# ---- one shared directory -------------------------------------------------
S=$T_DIR/shared; mkdir -p "$S"
expect_rc 0 "three ranks, --shared-dir" "${MPI[@]}" -np 3 "$STORMARK" meta -n 400 --shared-dir \
  --json="$T_DIR/sh.json" --mpi-rank-detail="$T_DIR/sh.jsonl" "$S"
check "shared: the merge against the ranks' own" sh -c "$(declare -f check_merge); check_merge '$T_DIR/sh.json' 3 1 '$T_DIR/sh.jsonl' | grep -qx ok"
check "shared: no rank directories, nothing left" test -z "$(ls -A "$S")"
check "shared: each rank lists all 1200" test "$(json "$T_DIR/sh.json" "d['meta']['ops']['list']['count']")" = 3600
check "shared: rank r's files are r x 400 on" test "$(python3 -c 'import json, sys
print(sorted(json.loads(l)["meta"]["set_files"] for l in open(sys.argv[1])))' "$T_DIR/sh.jsonl")" = "[1200, 1200, 1200]"
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "the job's JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/own.json" "$T_DIR/sh.json"
fi
# --mpi-files=shared means the same for meta
expect_rc 0 "--mpi-files=shared" "${MPI[@]}" -np 2 "$STORMARK" meta -n 100 --mpi-files=shared \
  --json="$T_DIR/mf.json" "$S"
check "--mpi-files=shared: one directory" test "$(json "$T_DIR/mf.json" "d['meta']['shared']")" = True

# ---- a rank that fails its checks: no rank starts -------------------------
expect_rc_says "1|2" "none' is not a directory
a rank could not start" "a rank that cannot start stops the job, both reasons said" \
  "${MPI[@]}" -np 1 "$STORMARK" meta -n 50 "$D" : -np 1 "$STORMARK" meta -n 50 "$T_DIR/none"
check "failed start: nothing left" test -z "$(find "$D" -mindepth 2)"

# ---- a full disk on one rank: the others stop at the next phase ----------
if [ "$(id -u)" = 0 ]; then
  M=$T_DIR/small; mkdir -p "$M"
  if mount -t tmpfs -o size=1m tmpfs "$M" 2>/dev/null; then
    expect_rc_says 1 "No space left on device
another rank failed or was stopped before the stat phase" \
      "a full disk on rank 1: it says why, rank 0 stopped before the next phase" \
      "${MPI[@]}" -np 1 "$STORMARK" meta -n 200 --size 64k --json="$T_DIR/full.json" "$D" : \
      -np 1 "$STORMARK" meta -n 200 --size 64k "$M"
    check "a full disk: rank 0's create measured, no stat" test "$(json "$T_DIR/full.json" \
      "sorted(d['meta']['ops'])")" = "['create']"
    # (rank 0 was stopped: its row says by what)
    check "a full disk: the rank table names rank 1's reason" test "$(json "$T_DIR/full.json" \
      "'No space left' in d['mpi']['ranks'][1]['error'] and 'another rank' in d['mpi']['ranks'][0]['error']")" = True
    check "a full disk: nothing left on either" test -z "$(find "$D" "$M" -mindepth 2)"
    umount "$M"
  else
    echo "note: cannot mount a tmpfs here; the full-disk case not run"
  fi
fi

t_check_dir
finish
