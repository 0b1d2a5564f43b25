#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Many-host runs on one machine (docs/mpi.md): three ranks under mpirun for
# frames and fileio. The merged totals equal the sum of the ranks' own
# results, the merged frame-time percentiles equal those of all ranks'
# per-frame records (-x) within the histogram's error, fileio's merged
# histogram is the bucket-by-bucket sum, the stonewall stops every rank
# when the first is done and both figures are reported, a rank that fails
# before the start stops the job with its reason, a rank that dies (SIGKILL)
# gives a partial report within --mpi-wait (mpirun --enable-recovery), and
# outside mpirun --stonewall is a usage error and no MPI is started.
. "$SM_SOURCE_DIR/tests/lib.sh"

expect_usage "--stonewall outside mpirun" "$STORMARK" frames --stonewall -w 64 -n 1 "$T_DIR"
expect_usage "--mpi-wait outside mpirun" "$STORMARK" fileio --mpi-wait=5 --file-test-mode=seqwr run
expect_usage "--mpi-rank-detail outside mpirun" "$STORMARK" frames --mpi-rank-detail="$T_DIR/d.jsonl" -w 64 -n 1 "$T_DIR"
expect_usage "--mpi-rank-detail: a directory" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" frames \
  --mpi-rank-detail="$T_DIR" -w 64 -n 1 "$T_DIR"
check "--mpi-rank-detail: a directory, said" grep -q "mpi-rank-detail=.*directory" "$T_DIR/usage.err"
expect_usage "--mpi-rank-detail: no such directory" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" frames \
  --mpi-rank-detail="$T_DIR/none/d.jsonl" -w 64 -n 1 "$T_DIR"
expect_usage "--mpi-rank-detail with run" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" run --mpi-rank-detail="$T_DIR/d.jsonl" "$T_DIR"
if [ "${SM_HAVE_MPI:-1}" = 0 ] || ! "$STORMARK" --version | head -1 | grep -q ' mpi[ )]'; then
  # a build without MPI refuses a job instead of running N unrelated copies
  expect_usage "started by mpirun without MPI" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" frames -w 64 -n 1 "$T_DIR"
  finish
fi
# MPI is a module of its own (stormark-mpi.so beside the binary): a plain
# start never loads the MPI library, and a binary without its module says
# so under mpirun instead of running alone
"$STORMARK" time -o /dev/null -- sleep 1 >/dev/null 2>&1 &
bg=$!
sleep 0.3
check "a plain start does not load the MPI library" sh -c "! grep -Eq 'libmpi|stormark-mpi' /proc/$bg/maps"
wait $bg
check "the MPI module is beside the binary" test -f "$(dirname "$STORMARK")/stormark-mpi.so"
mkdir -p "$T_DIR/alone"
cp "$STORMARK" "$T_DIR/alone/stormark"
expect_rc 1 "no module: a job cannot start" env OMPI_COMM_WORLD_SIZE=2 "$T_DIR/alone/stormark" frames -w 64 -n 1 "$T_DIR"
check "no module: the reason names it" grep -q "cannot start MPI under mpirun: .*stormark-mpi.so" "$T_DIR/out"
check "no module: --version says so" sh -c "'$T_DIR/alone/stormark' --version -v 2>&1 | grep -q 'MPI module cannot be loaded' ||
  '$T_DIR/alone/stormark' --version | grep -q 'MPI module cannot be loaded'"
command -v mpirun >/dev/null || skip "mpirun is not installed (scripts/deps.sh installs openmpi-bin)"
command -v python3 >/dev/null || skip "python3 reads the JSON"
if [ "${SM_SANITIZER:-none}" != none ]; then
  # OpenMPI's own start-up leaks (hwloc, PMIx) fill LeakSanitizer's report;
  # stormark's code on the MPI path is still checked for memory errors
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi
MPI=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca rmaps_base_oversubscribe 1)
# a rank plan that is no MPI job: no MPI_Init, nothing slower
expect_rc 0 "plain run outside mpirun" "$STORMARK" frames -w 64 -n 4 "$T_DIR"
check "plain run: no rank directory" test ! -e "$T_DIR/rank.0"
expect_usage "run --stonewall under mpirun" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" run --stonewall "$T_DIR"
expect_rc 0 "--version under mpirun" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" --version

# ---- frames: 3 ranks, merged vs per-rank and per-frame records -----------
F=$T_DIR/frames; mkdir -p "$F"
expect_rc 0 "frames under mpirun" "${MPI[@]}" -np 3 "$STORMARK" frames -w 1024 -n 40 -x "$T_DIR/log.csv" \
  --json="$T_DIR/frames.json" --mpi-rank-detail="$T_DIR/frames.ranks.jsonl" "$F"
grep -q "MPI job: 3 ranks on 1 host, 3 reported" "$T_DIR/out" && ok || fail "frames: the rank table"
check "frames: one directory per rank" test -d "$F/rank.0" -a -d "$F/rank.1" -a -d "$F/rank.2"
check "frames: one -x log per rank" test -s "$T_DIR/log.csv.rank.2"
python3 - "$T_DIR/frames.json" "$T_DIR/frames.ranks.jsonl" "$T_DIR"/log.csv.rank.* >"$T_DIR/py.out" 2>&1 <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
# the ranks' own results are in the detail file, one line each in rank
# order, not in the job's JSON
ranks = sorted((json.loads(line) for line in open(sys.argv[2])), key=lambda l: l["mpi_rank"]["rank"])
assert [r["mpi_rank"]["rank"] for r in ranks] == [0, 1, 2], ranks
assert all(r["result"] is None for r in m["ranks"])
for row, r in zip(m["ranks"], ranks):
    assert row["bytes"] == r["totals"]["bytes"] and row["items"] == r["totals"]["items"], row
assert m["ranks_total"] == 3 and m["ranks_reported"] == 3, m
for key in ("bytes", "items"):
    assert d["totals"][key] == sum(r["totals"][key] for r in ranks), key
for op in ("open", "write", "close", "frame"):
    assert d["ops"][op]["count"] == sum(r["ops"][op]["count"] for r in ranks), op
    assert d["ops"][op]["bytes"] == sum(r["ops"][op]["bytes"] for r in ranks), op
assert d["frames"]["transferred"] == sum(r["frames"]["transferred"] for r in ranks)
assert m["bytes"] == d["totals"]["bytes"]
assert m["last_done_ns"] == d["duration_ns"], (m["last_done_ns"], d["duration_ns"])
assert m["first_done_ns"] <= m["last_done_ns"]
# the merged histogram is the sum of the ranks' bucket by bucket
def buckets(lat):
    out = {}
    for low, n in lat["histogram"]["counts"]:
        out[low] = out.get(low, 0) + n
    return out
merged = buckets(d["ops"]["frame"]["lat_ns"])
summed = {}
for r in ranks:
    for low, n in buckets(r["ops"]["frame"]["lat_ns"]).items():
        summed[low] = summed.get(low, 0) + n
assert merged == summed
# percentiles against every rank's per-frame records (nearest rank)
times = []
for path in sys.argv[3:]:
    with open(path) as f:
        times += [float(row["frame_ms"]) * 1e6 for row in csv.DictReader(f) if not row["error"]]
times.sort()
assert len(times) == d["ops"]["frame"]["count"], (len(times), d["ops"]["frame"]["count"])
import math
for key, p in (("p50", 50), ("p90", 90), ("p99", 99)):
    k = max(1, math.ceil(p / 100 * len(times) - 1e-9))
    want, got = times[k - 1], d["ops"]["frame"]["lat_ns"][key]
    # the histogram's error (0.4%) plus the CSV's rounding to 1 us
    assert abs(got - want) <= 0.01 * want + 2000, (key, got, want)
print("frames merge ok")
PY
[ $? = 0 ] && ok || { fail "frames merge"; cat "$T_DIR/py.out" >&2; }

if python3 -c 'import jsonschema' 2>/dev/null; then
  check "frames: the merged JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/frames.json"
fi

# ---- fileio: prepare, run, cleanup, each rank on its own set ------------
D=$T_DIR/fio; mkdir -p "$D"
FIO=(fileio --file-dir="$D" --file-num=2 --file-total-size=8M --file-test-mode=rndrw)
expect_rc 0 "fileio prepare under mpirun" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" prepare
check "fileio prepare: rank 2's set" test -s "$D/rank.2/test_file.1"
expect_rc 0 "fileio run under mpirun" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" --time=1 \
  --json="$T_DIR/fio.json" --mpi-rank-detail="$T_DIR/fio.ranks.jsonl" run
grep -q "Threads fairness" "$T_DIR/out" && grep -q "MPI job: 3 ranks" "$T_DIR/out" && ok ||
  fail "fileio: sysbench layout and the rank table"
python3 - "$T_DIR/fio.json" "$T_DIR/fio.ranks.jsonl" >"$T_DIR/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ranks = sorted((json.loads(line) for line in open(sys.argv[2])), key=lambda l: l["mpi_rank"]["rank"])
assert len(ranks) == 3 and all(ranks)
assert [r["mpi_rank"]["rank"] for r in ranks] == [0, 1, 2]
for row, r in zip(d["mpi"]["ranks"], ranks):
    assert row["result"] is None
    assert row["bytes"] == r["ops"]["read"]["bytes"] + r["ops"]["write"]["bytes"], row
for op in d["ops"]:
    for key in ("count", "bytes"):
        assert d["ops"][op][key] == sum(r["ops"][op][key] for r in ranks), (op, key)
f, fr = d["fileio"], [r["fileio"] for r in ranks]
assert f["events"] == sum(x["events"] for x in fr)
def buckets(lat):
    return {low: n for low, n in lat["histogram"]["counts"]}
summed = {}
for x in fr:
    for low, n in buckets(x["event_lat_ns"]).items():
        summed[low] = summed.get(low, 0) + n
assert buckets(f["event_lat_ns"]) == summed
print("fileio merge ok")
PY
[ $? = 0 ] && ok || { fail "fileio merge"; cat "$T_DIR/py.out" >&2; }
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "fileio: the merged JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/fio.json"
fi
expect_rc 0 "fileio cleanup under mpirun" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" cleanup
check "fileio cleanup: the sets are gone" test ! -e "$D/rank.1/test_file.0"

# ---- stonewall: rank 0 has 10 frames at 50 fps, the others 100000 -------
S=$T_DIR/wall; mkdir -p "$S"
expect_rc 0 "frames --stonewall" "${MPI[@]}" -np 1 "$STORMARK" frames --stonewall -w 64 -f 50 -n 10 \
  --json="$T_DIR/wall.json" --mpi-rank-detail="$T_DIR/wall.ranks.jsonl" "$S" : -np 2 "$STORMARK" frames --stonewall -w 64 -f 50 -n 100000 "$S"
grep -q "stonewall: all stopped when the first was done" "$T_DIR/out" && ok || fail "stonewall: the job line"
python3 - "$T_DIR/wall.json" "$T_DIR/wall.ranks.jsonl" >"$T_DIR/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
detail = sorted((json.loads(line) for line in open(sys.argv[2])), key=lambda l: l["mpi_rank"]["rank"])
m = d["mpi"]
assert m["stonewall"] is True and m["first_done_rank"] == 0, m
# rank 0's 10 frames take 0.2 s; the others stop soon after, not in 2000 s
assert m["first_done_ns"] <= m["last_done_ns"] < m["first_done_ns"] + 3e9, m
assert 0 < m["stonewall_bytes_per_s"] and 0 < m["bytes_per_s"]
assert m["ranks"][0]["stonewalled"] is False
for r, res in zip(m["ranks"][1:], detail[1:]):
    assert r["stonewalled"] is True
    assert res["frames"]["transferred"] < 1000 and res["interrupted"] is False, res["frames"]
print("stonewall ok")
PY
[ $? = 0 ] && ok || { fail "stonewall"; cat "$T_DIR/py.out" >&2; }

finish
