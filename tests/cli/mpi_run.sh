#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark run` as one MPI job (docs/mpi.md), two and three ranks on this
# machine: each rank in DIR/rank.N; rank 0's classic and frame figures are
# the exact merge of the ranks' own (operation counts and bytes summed,
# latency histograms the bucket-by-bucket sum, frames summed); each verdict
# cell is the worst rank's (the lowest measured rate, a paced run's worst
# outcome); the rank table's bytes are what each rank's tests moved, the
# tests a rank fell behind in those where its own rate is below 80% of the
# median rank's. A rank
# that fails its checks stops the job before any test; one interrupted
# mid-run stops the others at their next test and rank 0 reports the
# partial job naming it (exit 1). --stonewall, --steady and --precondition
# are refused under mpirun.
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job
MPI=(timeout 120 "${MPI[@]}")

expect_usage "run --stonewall under mpirun" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" run --stonewall "$T_DIR"
for opt in steady precondition; do   # mpirun adds its own lines: not expect_usage's one
  expect_rc_says 2 "--$opt cannot be used under mpirun" "run --$opt under mpirun, the reason said" \
    "${MPI[@]}" -np 2 "$STORMARK" run --$opt "$T_DIR"
done

# ---- two ranks: the merged figures against the ranks' own ---------------
D=$T_DIR/run; mkdir -p "$D"
expect_rc 0 "run under mpirun" "${MPI[@]}" -np 2 "$STORMARK" run --time 2 --confirm-all \
  --video-formats dpx-2k,exr-half-hd --fps 24,60 --json="$T_DIR/run.json" "$D"
grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/out" && ok || fail "run: the rank table"
grep -q "^MPI job of 2 ranks, every test started" "$T_DIR/out" && grep -q "its own best capture" "$T_DIR/out" &&
  ok || fail "run: the verdict note and the ranks' own best formats"
grep -q "^Classic figures" "$T_DIR/out" && grep -q "^Real-time verdicts" "$T_DIR/out" && ok ||
  fail "run: the usual report"
grep -q "^  MPI job of 2 ranks: each cell is the worst rank's" "$T_DIR/out" &&
  grep -q "Each of 2 clients at once can" "$T_DIR/out" && ok ||   # (or "cannot", on a slow machine)
  { fail "run: the verdict table's footnote"; sed -n '/^Real-time/,/^MPI job of/p' "$T_DIR/out" >&2; }
"$STORMARK" report "$T_DIR/run.json" 2>&1 | grep -q "^  MPI job of 2 ranks: each cell is the worst rank's" &&
  ok || fail "run: stormark report of the job's JSON keeps the footnote"
"$STORMARK" report --format markdown "$T_DIR/run.json" 2>&1 | grep -q "^- MPI job of 2 ranks (rank 0's" &&
  ok || fail "run: the markdown of the job's JSON says it is a job"
"$STORMARK" report --format json "$T_DIR/run.json" >"$T_DIR/run2.json" 2>&1
check "run: report --format json gives the job's JSON back, mpi object and all" cmp -s "$T_DIR/run.json" "$T_DIR/run2.json"
check "run: one directory per rank" test -d "$D/rank.0" -a -d "$D/rank.1"
check "run: the test data removed" test -z "$(find "$D" -mindepth 2)"
python3 - "$T_DIR/run.json" >"$T_DIR/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
assert m["ranks_total"] == 2 and m["ranks_reported"] == 2, m
assert m["verdicts"] == "worst_rank" and d["run"]["mpi_ranks"] == 2
ranks = [r["result"] for r in m["ranks"]]
def buckets(lat):
    out = {}
    for lo, n in lat["histogram"]["counts"]:
        out[lo] = out.get(lo, 0) + n
    return out
measured = 0
for i, c in enumerate(d["run"]["classic"]):
    for w in ("read", "write"):
        if w not in c:
            continue
        op = c[w]["op"]
        own = [r["run"]["classic"][i][w]["op"] for r in ranks]
        for key in ("count", "bytes", "errors"):
            assert op[key] == sum(o[key] for o in own), (c["test"], w, key)
        assert op["lat_ns"]["histogram"]["counts"], (c["test"], w)
        b, want = buckets(op["lat_ns"]), {}
        for o in own:
            for lo, n in buckets(o["lat_ns"]).items():
                want[lo] = want.get(lo, 0) + n
        assert b == want, (c["test"], w, "histogram")
        assert sum(b.values()) == op["count"]
        assert op["lat_ns"]["max"] == max(o["lat_ns"]["max"] for o in own)
        assert c[w]["duration_ns"] >= max(r["run"]["classic"][i][w]["duration_ns"] for r in ranks)
        measured += 1
assert measured == 8, measured
frames = 0
for i, s in enumerate(d["run"]["frames"]):
    for w in ("write", "read"):
        if w not in s:
            continue
        own = [r["run"]["frames"][i][w] for r in ranks]
        for key in ("frames", "bytes"):
            assert s[w][key] == sum(o[key] for o in own), (s["preset"], w, key)
        assert s[w]["duration_ns"] >= max(o["duration_ns"] for o in own), (s["preset"], w)
        assert s[w]["frame_ns"]["max"] == max(o["frame_ns"]["max"] for o in own), (s["preset"], w)
        frames += s[w]["frames"] > 0
assert frames >= 4, frames
# the rank table: what each rank's tests moved, their sum the job's
for k, r in zip(m["ranks"], ranks):
    own = sum(c[w]["op"]["bytes"] for c in r["run"]["classic"] for w in ("read", "write") if w in c)
    own += sum(s[w]["bytes"] for s in r["run"]["frames"] for w in ("write", "read") if w in s)
    assert k["bytes"] == own, (k["rank"], k["bytes"], own)
assert m["bytes"] == sum(k["bytes"] for k in m["ranks"])
# each verdict cell is the worst rank's
paced = 0
for i, row in enumerate(d["run"]["verdicts"]):
    for dr in ("capture", "playback"):
        for k, cell in enumerate(row[dr]):
            own = [r["run"]["verdicts"][i][dr][k] for r in ranks]
            # (a rank's document went through one more print and parse: 15 digits)
            low = min(o["measured_bytes_per_s"] for o in own)
            # ... or lower: a client's share of what the job moved together
            # (docs/mpi.md), said by a warning
            assert cell["measured_bytes_per_s"] <= low * (1 + 1e-12), (row["format"], dr, k)
            if cell["measured_bytes_per_s"] < low * (1 - 1e-12):
                assert any(w["code"] == "mpi_job_rate" for w in d["warnings"]), (row["format"], dr, k)
            # (a cell a paced run held may stay computed: its sustained
            # rate is under the need; it still carries the paced run)
            if "paced" in cell and all("paced" in o for o in own) and \
               all(o["paced"]["interval_ns"] == cell["paced"]["interval_ns"] for o in own):
                assert cell["paced"]["dropped"] == max(o["paced"]["dropped"] for o in own)
                paced += 1
# (a stall past the buffers on any rank rules its direction's cells out,
# and none of them is offered a paced run: a shared disk can stall both)
stalled = all("stall" in c.get("basis", []) for row in d["run"]["verdicts"]
              for dr in ("capture", "playback") for c in row[dr])
assert stalled or (d["run"]["paced_runs"] >= 1 and paced >= 1), (d["run"]["paced_runs"], paced)
# the tests a rank fell behind in: its own rate below 80% of the median rank's
tests = [(c["test"] + " " + w, [r["run"]["classic"][i][w].get("bytes_per_s", 0) for r in ranks])
         for i, c in enumerate(d["run"]["classic"]) for w in ("read", "write")]
tests += [(s["preset"] + " frames " + w, [r["run"]["frames"][i][w]["bytes_per_s"] if w in r["run"]["frames"][i] else 0
           for r in ranks]) for i, s in enumerate(d["run"]["frames"]) for w in ("write", "read")]
want = [[] for _ in ranks]
for name, rates in tests:
    v = sorted(x for x in rates if x > 0)
    if len(v) < 2:
        continue
    med = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
    for k, x in enumerate(rates):
        if 0 < x < 0.8 * med * (1 - 1e-12):
            want[k].append(name)
got = [r["behind_in"] for r in m["run_ranks"]]
assert got == want, (got, want)
# the metadata line: every rank ran it at once; the job's is the slowest
# rank's whole line (the longest sequence_probe_ns), named
own = [r["run"].get("meta") for r in ranks]
assert all(o is not None for o in own), own
jm = d["run"]["meta"]
assert jm["ranks"] == len(ranks), jm
slow = max(range(len(own)), key=lambda k: own[k]["sequence_probe_ns"])
assert jm["rank"] == slow, (jm["rank"], slow)
for key, v in own[slow].items():
    assert jm[key] == v, (key, jm[key], v)
print("ok")
PY
grep -q '^ok$' "$T_DIR/py.out" && ok || { fail "run: merged figures against the ranks' own"; cat "$T_DIR/py.out" >&2; }
check "run: the metadata line names the slowest rank" grep -q "metadata (rank [01]'s, the slowest of 2 ranks running it at once;" \
  <(tr -s ' \n' ' ' <"$T_DIR/out" | sed 's/  metadata/\nmetadata/g; s/ metadata (/\nmetadata (/g')
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "run: the merged JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/run.json"
fi

# ---- a rank that fails its checks: no rank starts ------------------------
expect_rc_says "1|2" "none' is not a directory
a rank could not start" "a rank that cannot start stops the job, both reasons said" \
  "${MPI[@]}" -np 1 "$STORMARK" run --time 2 "$D" : -np 1 "$STORMARK" run --time 2 "$T_DIR/none"
check "failed start: nothing written" test -z "$(find "$D" -mindepth 2)"

# ---- a rank interrupted mid-run: the others stop, rank 0 reports ---------
cat >"$T_DIR/int.sh" <<SH
#!/bin/sh
"$STORMARK" run --time 4 "$D" & sleep 4; kill -INT \$!; wait \$!
SH
chmod +x "$T_DIR/int.sh"
"${MPI[@]}" -np 2 "$STORMARK" run --time 4 --json="$T_DIR/int.json" "$D" : -np 1 "$T_DIR/int.sh" \
  >"$T_DIR/out" 2>&1 </dev/null
rc=$?
[ "$rc" != 0 ] && ok || fail "interrupted rank: mpirun exit $rc"
grep -q "MPI job: 3 ranks on 1 host, 3 reported" "$T_DIR/out" && ok || { fail "interrupted rank: the partial report"; tail -30 "$T_DIR/out" >&2; }
# (on rank 2's row, or below it when the row would pass 80 columns)
sed -n '/^  rank host /,$p' "$T_DIR/out" | grep -EA1 "^ +2 " | tr -s '\n ' ' ' |
  grep -q "failed: interrupted by a signal" && ok || fail "interrupted rank: named in the table"
grep -q "another rank failed or was stopped before" "$T_DIR/out" && ok || fail "interrupted rank: the others said why they stopped"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {k["rank"]: k for k in d["mpi"]["ranks"]}
assert r[2]["failed"] and not r[0]["failed"] and not r[1]["failed"], r
' "$T_DIR/int.json" && ok || fail "interrupted rank: the JSON marks it failed"
check "interrupted rank: test data removed" test -z "$(find "$D" -mindepth 2)"
finish
