#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A shared file set under mpirun (--mpi-files=shared, docs/mpi.md): every
# rank works in DIR itself, rank r on frames r x N .. (frames) or
# test_file.(r x N) .. (fileio). The set a shared write (prepare) left is
# one sequence: every frame's header carries its name's number and one
# directory id, a shared read (run) and a single process both read it,
# and the ownership rules still hold (a foreign file in a rank's range is
# refused, nothing outside the ranks' ranges is touched). Also: rank 0
# writes the merged result's HTML (--html) under mpirun, as it writes --json,
# with the hosts and ranks section, and report --format html of the JSON
# gives the same page.
. "$SM_SOURCE_DIR/tests/lib.sh"

expect_usage "--mpi-files outside mpirun" "$STORMARK" frames --mpi-files=shared -w 64 -n 1 "$T_DIR"
expect_usage "--mpi-files=bogus" "$STORMARK" fileio --mpi-files=bogus --file-test-mode=seqwr run
t_mpi_job
command -v python3 >/dev/null || skip "python3 reads the JSON and the frame headers"

# ---- frames: a shared write, then reads of the one sequence ---------------
F=$T_DIR/frames; mkdir -p "$F"
expect_rc 0 "frames: shared write" "${MPI[@]}" -np 3 "$STORMARK" frames --mpi-files=shared -w 64 -n 5 \
  --json="$T_DIR/w.json" "$F"
check "frames: no rank directory" test ! -e "$F/rank.0"
check "frames: 15 frames in DIR" test "$(ls "$F" | wc -l)" = 15
# every header: its name's number, one directory id, the frame size
python3 - "$F" >"$T_DIR/py.out" 2>&1 <<'PY'
import os, struct, sys
ids = set()
names = sorted(os.listdir(sys.argv[1]))
assert names == ["frame%06d.tst" % k for k in range(15)], names
for k, n in enumerate(names):
    h = open(os.path.join(sys.argv[1], n), "rb").read(64)
    assert h[:8] == b"\x89SMFRM\r\n", n
    dir_id, index, size = struct.unpack_from("<QQQ", h, 16)
    assert index == k and size == 65536, (n, index, size)
    ids.add(dir_id)
assert len(ids) == 1, ids
PY
[ $? = 0 ] && ok || { fail "frames: the headers of the shared set"; cat "$T_DIR/py.out" >&2; }
check "frames: rank 2 wrote 5 frames" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["mpi"]
assert m["files"] == "shared", m["files"]
assert [r["items"] for r in m["ranks"]] == [5, 5, 5], m' "$T_DIR/w.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "frames: the JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/w.json"
fi

expect_rc 0 "frames: shared read of the whole set" "${MPI[@]}" -np 3 "$STORMARK" frames --mpi-files=shared -r \
  --json="$T_DIR/r.json" "$F"
check "frames: each rank read a third" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["totals"]["items"] == 15, d["totals"]
assert [r["items"] for r in d["mpi"]["ranks"]] == [5, 5, 5]' "$T_DIR/r.json"
expect_rc 0 "frames: shared read, 2 ranks x 7" "${MPI[@]}" -np 2 "$STORMARK" frames --mpi-files=shared -r -n 7 \
  --json="$T_DIR/r2.json" "$F"
check "frames: 14 frames read" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["totals"]["items"] == 14' "$T_DIR/r2.json"
expect_rc_says 1 "frame000015.tst' is missing" "frames: shared read past the set, rank 1 names its missing frame" \
  "${MPI[@]}" -np 2 "$STORMARK" frames --mpi-files=shared -r -n 8 "$F"
# one process sees one set: it reads all and may rewrite all (one directory id)
expect_rc 0 "frames: one process reads the shared set" "$STORMARK" frames -r "$F"
grep -q "Frames transferred: 15 " "$T_DIR/out" && ok || fail "frames: one process read 15"
expect_rc 0 "frames: one process rewrites the shared set" "$STORMARK" frames -w 64 -n 15 "$F"
expect_rc 0 "frames: a shared rewrite of a larger set" "${MPI[@]}" -np 3 "$STORMARK" frames --mpi-files=shared \
  -w 64 -n 6 "$F"
check "frames: 18 frames now" test "$(ls "$F" | wc -l)" = 18

# ---- frames: the ownership rules on a shared set ---------------------------
G=$T_DIR/own; mkdir -p "$G"
echo "someone's notes" >"$G/frame000007.tst"
# (rank 0 says "a rank could not start", or under load "the start barrier
# failed" / a timeout: each line ends "nothing was run")
expect_rc_says 1 "frame000007.tst' exists and was not written by stormark
nothing was run" "frames: a foreign file in rank 1's range named, no rank started" \
  "${MPI[@]}" -np 2 "$STORMARK" frames --mpi-files=shared -w 64 -n 5 "$G"
check "frames: the foreign file untouched" test "$(cat "$G/frame000007.tst")" = "someone's notes"
check "frames: nothing written" test "$(ls "$G" | wc -l)" = 1
# a frame of another set (another directory id) in rank 2's range
H=$T_DIR/other; mkdir -p "$H"
expect_rc 0 "frames: another set" "$STORMARK" frames -w 64 -n 12 "$H"
rm -f "$G/frame000007.tst"
expect_rc 0 "frames: a set in G" "$STORMARK" frames -w 64 -n 4 "$G"
cp "$H/frame000010.tst" "$G/"
expect_rc_says 1 "exists and was not written by stormark" "frames: a frame of another set in the range refused" \
  "${MPI[@]}" -np 3 "$STORMARK" frames --mpi-files=shared -w 64 -n 4 "$G"
expect_usage "run with --mpi-files=shared" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" run --mpi-files=shared "$G"
expect_usage "streams with --mpi-files=shared" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" streams --mpi-files=shared "$G"
expect_usage "frames: -d with --mpi-files=shared" env OMPI_COMM_WORLD_SIZE=2 "$STORMARK" frames \
  --mpi-files=shared -w 64 -n 4 -d 2 "$G"

# ---- fileio: a shared prepare, run and cleanup -----------------------------
D=$T_DIR/fio; mkdir -p "$D"
FIO=(fileio --mpi-files=shared --file-dir="$D" --file-num=2 --file-total-size=2M --file-block-size=4096)
expect_rc 0 "fileio: shared prepare" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" --verify prepare
check "fileio: test_file.0 .. 5 in DIR, each with its --verify block map" test "$(cd "$D" && ls | tr '\n' ' ')" = \
  "test_file.0 test_file.0.verify test_file.1 test_file.1.verify test_file.2 test_file.2.verify test_file.3 test_file.3.verify test_file.4 test_file.4.verify test_file.5 test_file.5.verify "
expect_rc 0 "fileio: shared run" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" --file-test-mode=rndrw --verify \
  --events=300 --time=0 --json="$T_DIR/f.json" run
check "fileio: 900 events merged" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mpi"]["ranks_reported"] == 3, d["mpi"]
assert sum(r["items"] for r in d["mpi"]["ranks"]) == d["fileio"]["events"] == 900, d["fileio"]' \
  "$T_DIR/f.json"
# one process takes the set as its own: seals and block trailers carry the
# file's number in the set
expect_rc 0 "fileio: one process runs the shared set" "$STORMARK" fileio --file-dir="$D" --file-num=6 \
  --file-total-size=6M --file-block-size=4096 --file-test-mode=rndrd --verify --events=200 --time=0 run
echo "not stormark's" >"$T_DIR/foreign"
mv "$D/test_file.3" "$T_DIR/t3" && cp "$T_DIR/foreign" "$D/test_file.3"
echo "another tool's" >"$D/test_file.6"
expect_rc_says 1 "'$D/test_file.3' was not prepared by stormark fileio" \
  "fileio: a foreign file in rank 1's set, named" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" cleanup
check "fileio: the foreign file stays" test "$(cat "$D/test_file.3")" = "not stormark's"
mv "$T_DIR/t3" "$D/test_file.3"
expect_rc 0 "fileio: shared cleanup" "${MPI[@]}" -np 3 "$STORMARK" "${FIO[@]}" cleanup
check "fileio: only the set removed" test "$(ls "$D")" = "test_file.6"

# ---- HTML under mpirun: rank 0 writes the merged result's page -------------
expect_rc 0 "frames --html under mpirun" "${MPI[@]}" -np 2 "$STORMARK" frames -w 64 -n 6 \
  --json="$T_DIR/h.json" --html="$T_DIR/h.html" "$T_DIR/frames"
check "html: written" test -s "$T_DIR/h.html"
check "html: the JSON says own" python3 -c '
import json, sys; assert json.load(open(sys.argv[1]))["mpi"]["files"] == "own"' "$T_DIR/h.json"
check "html: the merged frames" grep -q '<td>12 of 12 transferred' "$T_DIR/h.html"
check "html: the hosts and ranks section" grep -q '<section id="mpi">' "$T_DIR/h.html"
check "html: a row per rank" test "$(sed -n '/<table id="mpi-ranks">/,/<\/table>/p' "$T_DIR/h.html" |
  grep -c '^<tr><td>[01]</td><td>')" = 2
check "html: the job line" grep -q '<td>job</td><td>2 ranks on 1 host, 2 reported</td>' "$T_DIR/h.html"
"$STORMARK" report "$T_DIR/h.json" --format html >"$T_DIR/h2.html"
check "html: report --format html gives the same page" cmp -s "$T_DIR/h.html" "$T_DIR/h2.html"
"$STORMARK" report "$T_DIR/h.json" --format json >"$T_DIR/h2.json"
check "report --format json gives the frames job's JSON back, mpi object and all" cmp -s "$T_DIR/h.json" "$T_DIR/h2.json"
"${MPI[@]}" -np 2 "$STORMARK" fileio --mpi-files=shared --file-dir="$D" --file-num=1 --file-total-size=1M \
  --file-test-mode=seqwr --events=50 --time=0 --html="$T_DIR/f.html" --json="$T_DIR/f2.json" run \
  >"$T_DIR/f.live" 2>"$T_DIR/f.err"
check "fileio --html under mpirun" test $? = 0
check "html: fileio's hosts and ranks" grep -q '<table id="mpi-ranks">' "$T_DIR/f.html"
# the text report of the saved job is what rank 0 printed, the rank table included
"$STORMARK" report "$T_DIR/f2.json" >"$T_DIR/f.rep" 2>/dev/null
check "report: fileio job, the same text" cmp -s "$T_DIR/f.live" "$T_DIR/f.rep"
check "report: the rank table" grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/f.rep"
"$STORMARK" report "$T_DIR/f2.json" --format json >"$T_DIR/f3.json"
check "report --format json gives the fileio job's JSON back" cmp -s "$T_DIR/f2.json" "$T_DIR/f3.json"
"$STORMARK" frames -w 64 -n 2 --html="$T_DIR/one.html" "$T_DIR/frames" >/dev/null
check "html: no such section outside a job" test "$(grep -c 'id="mpi"' "$T_DIR/one.html")" = 0
finish
