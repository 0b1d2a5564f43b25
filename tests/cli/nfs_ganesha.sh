#!/bin/bash
# SPDX-License-Identifier: MIT
# fileio --nfs against a real NFS server (docs/engines.md, "nfs";
# docs/shares.md, "Tested here"): nfs-ganesha's VFS backend exports a
# scratch directory over NFSv3 inside a network namespace of its own (with
# its rpcbind, which NFSv3 needs; the namespace keeps port 111 and the NFS
# ports away from the machine's). stormark, run in the namespace, prepares,
# runs and cleans up the sysbench file set through libnfs, with no kernel
# mount, and the test checks each file in the exported directory: names
# and sizes after prepare and run, nothing left after cleanup. A foreign
# file under a test file's name is refused and left as it was. meta --nfs
# runs its phases there too and leaves the export as it was. ganesha and
# rpcbind are stopped by their pids, the namespace removed.
. "$SM_SOURCE_DIR/tests/lib.sh"

"$STORMARK" --version | grep -q '(features:.* nfs' ||
  skip "this stormark has no nfs engine (libnfs-dev missing when it was configured: run scripts/deps.sh)"
GANESHA=$(command -v ganesha.nfsd || echo /usr/bin/ganesha.nfsd)
[ -x "$GANESHA" ] || skip "ganesha.nfsd missing (Debian packages nfs-ganesha, nfs-ganesha-vfs: run scripts/deps.sh)"
ls /usr/lib/*/ganesha/libfsalvfs.so >/dev/null 2>&1 ||
  skip "ganesha's VFS backend missing (Debian package nfs-ganesha-vfs: run scripts/deps.sh)"
RPCBIND=$(command -v rpcbind || echo /usr/sbin/rpcbind)
[ -x "$RPCBIND" ] || skip "rpcbind missing (ganesha's NFSv3 registers with it: run scripts/deps.sh)"
[ "$(id -u)" = 0 ] || skip "ganesha and a network namespace need root"
command -v ip >/dev/null || skip "ip (iproute2) missing: no network namespace"

NS="smnfs-$$"
G="$T_DIR/ganesha"        # its configuration, pid file, log, recovery directory
EXPORT="$T_DIR/export"    # what it exports
mkdir -p "$G/recovery" "$EXPORT/foreign"
# a user's file where prepare would put test_file.1 (made before the server
# starts: ganesha's cache is not told of changes made behind its back)
echo "not stormark's" >"$EXPORT/foreign/test_file.1"
RPC_PID=""
G_PID=""

nfs_cleanup() {
  if [ -n "$G_PID" ]; then
    kill "$G_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$G_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$G_PID" 2>/dev/null
    wait "$G_PID" 2>/dev/null
  fi
  if [ -n "$RPC_PID" ]; then
    kill "$RPC_PID" 2>/dev/null
    wait "$RPC_PID" 2>/dev/null
  fi
  ip netns del "$NS" 2>/dev/null
  t_cleanup
}
trap nfs_cleanup EXIT

ip netns add "$NS" || skip "cannot create a network namespace here"
ip -n "$NS" link set lo up || skip "cannot bring up the namespace's loopback"
ip netns exec "$NS" "$RPCBIND" -f >"$G/rpcbind.out" 2>&1 &
RPC_PID=$!
cat >"$G/ganesha.conf" <<EOF
NFS_CORE_PARAM {
  NFS_Port = 2049;
  MNT_Port = 20048;
  Protocols = 3;
  Enable_NLM = false;
  Enable_RQUOTA = false;
}
NFSV4 { RecoveryRoot = $G/recovery; Graceless = true; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
  Export_Id = 1;
  Path = $EXPORT;
  Pseudo = $EXPORT;
  Access_Type = RW;
  Squash = No_Root_Squash;
  Protocols = 3;
  SecType = sys;
  FSAL { Name = VFS; }
}
EOF
up=0
for _ in $(seq 50); do   # rpcbind answers before ganesha can register
  ip netns exec "$NS" "$PY" -c 'import socket; socket.create_connection(("127.0.0.1", 111), 1)' 2>/dev/null && break
  sleep 0.1
done
ip netns exec "$NS" "$GANESHA" -F -f "$G/ganesha.conf" -L "$G/ganesha.log" -p "$G/ganesha.pid" -N NIV_EVENT \
  >"$G/ganesha.out" 2>&1 &
G_PID=$!
for _ in $(seq 200); do
  kill -0 "$G_PID" 2>/dev/null || break
  grep -q "NFS SERVER INITIALIZED" "$G/ganesha.log" 2>/dev/null && { up=1; break; }
  sleep 0.1
done
if [ "$up" != 1 ]; then
  grep -E "CRIT|MAJ|FATAL" "$G/ganesha.log" 2>/dev/null | grep -v DBUS | tail -5 | sed 's/^/  | /'
  skip "ganesha did not start here (its log's errors above)"
fi

URL="nfs://127.0.0.1$EXPORT?nfsport=2049&mountport=20048"
FOREIGN="nfs://127.0.0.1$EXPORT/foreign?nfsport=2049&mountport=20048"
SET=(--file-num=4 --file-total-size=8M)
in_ns() { ip netns exec "$NS" "$@"; }

# the option is checked before any work
expect_usage "--nfs takes sync mode only" "$STORMARK" fileio --nfs "$URL" "${SET[@]}" --file-io-mode=async prepare
expect_usage "--nfs needs nfs://SERVER/PATH" "$STORMARK" fileio --nfs "127.0.0.1:$EXPORT" "${SET[@]}" prepare
expect_usage "--nfs and --file-dir do not go together" "$STORMARK" fileio --nfs "$URL" --file-dir "$T_DIR" "${SET[@]}" prepare

# "NAME SIZE" for each test file in the exported directory
listing() { (cd "$EXPORT" && for f in test_file.*; do [ -e "$f" ] && echo "$f $(stat -c %s "$f")"; done); }
want=$(printf 'test_file.%s 2097152\n' 0 1 2 3)

expect_rc 0 "prepare on the server" in_ns "$STORMARK" fileio --nfs "$URL" "${SET[@]}" prepare
check "prepare: 8388608 bytes written" grep -q "^8388608 bytes written" "$T_DIR/out"
check "prepare: the four files, 2 MiB each, and the list of them" \
  test "$(listing)" = "$want"$'\n'"test_file.owner $(stat -c %s "$EXPORT/test_file.owner" 2>/dev/null)"
check "prepare: the list names each file" \
  test "$(tail -n +2 "$EXPORT/test_file.owner" | awk '{print $1}' | tr '\n' ' ')" = "test_file.0 test_file.1 test_file.2 test_file.3 "
expect_rc 1 "a second prepare is refused (the set is there)" in_ns "$STORMARK" fileio --nfs "$URL" "${SET[@]}" prepare
check "the second prepare says why" grep -q "test_file.owner' exists" "$T_DIR/out"

in_ns "$STORMARK" fileio --nfs "$URL" "${SET[@]}" --file-test-mode=rndrw --time=1 --json="$T_DIR/r.json" run \
  >"$T_DIR/out" 2>&1
check "run: exit 0" test $? = 0
check "run: reads and writes reached the server" "$PY" -c '
import json, sys
o = json.load(open(sys.argv[1]))["ops"]
sys.exit(not (o["read"]["count"] > 0 and o["write"]["count"] > 0))' "$T_DIR/r.json"
check "run: environment.engine is nfs" test "$(json "$T_DIR/r.json" "d['environment']['engine']")" = nfs
check "run: environment.mount names the client, the server and the export" \
  test "$(json "$T_DIR/r.json" "[d['environment']['mount'][k] for k in ('protocol', 'kind', 'server', 'export')]")" = \
  "['nfs', 'client', '127.0.0.1', '$EXPORT']"
check "run: environment.mount.options has the server's rsize and wsize (the engine's request limits)" "$PY" -c '
import json, sys
o = json.load(open(sys.argv[1]))["environment"]["mount"]["options"]
sys.exit(not (o["vers"] == "3" and o["rsize"] >= 4096 and o["wsize"] >= 4096))' "$T_DIR/r.json"
check "run: no page-cache warning (this client has no cache; this host's RAM is not the server's)" \
  test "$(json "$T_DIR/r.json" "[w['code'] for w in d['warnings'] if w['code'] == 'page_cache']")" = "[]"
check "run: the result conforms to the schema" "$PY" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$T_DIR/r.json" "$SM_SOURCE_DIR/docs/stormark.schema.json"
check "run: the files keep their names and sizes" test "$(listing | grep -v owner)" = "$want"

# a foreign file where a test file goes: refused, left as it was, nothing made
expect_rc 1 "prepare over a foreign file is refused" in_ns "$STORMARK" fileio --nfs "$FOREIGN" "${SET[@]}" prepare
check "the refusal names the file" grep -q "foreign/test_file.1' exists and stormark did not create it" "$T_DIR/out"
check "the foreign file is untouched" test "$(cat "$EXPORT/foreign/test_file.1")" = "not stormark's"
check "nothing of the refused prepare is left" test "$(ls "$EXPORT/foreign")" = test_file.1
expect_rc 0 "cleanup where stormark made nothing removes nothing" \
  in_ns "$STORMARK" fileio --nfs "$FOREIGN" "${SET[@]}" cleanup
check "the foreign file is still there" test "$(cat "$EXPORT/foreign/test_file.1")" = "not stormark's"
expect_rc 1 "run refuses a set it did not prepare" \
  in_ns "$STORMARK" fileio --nfs "$FOREIGN" "${SET[@]}" --file-test-mode=seqrd --time=1 run

# ground truth for the engine's rate: a token bucket on the namespace's
# loopback (tc tbf, 80 Mbit/s = 10,000,000 bytes/s for every packet either
# way) is the only path to the server, so a sequential run must come out
# just under it: RPC and TCP headers and the acks take their few percent
if tc -n "$NS" qdisc add dev lo root tbf rate 80mbit burst 256kb latency 100ms 2>"$T_DIR/tc.err"; then
  for mode in seqrd seqwr; do
    # no COMMIT in the writes (sysbench's fsync every 100 writes): it would
    # put the server's disk, which stalls now and then, in the figure
    in_ns "$STORMARK" fileio --nfs "$URL" "${SET[@]}" --file-test-mode=$mode --time=3 \
      --file-fsync-freq=0 --file-fsync-end=off \
      --json="$T_DIR/t-$mode.json" run >"$T_DIR/out" 2>&1
    check "throttled $mode: exit 0" test $? = 0
    rate=$(json "$T_DIR/t-$mode.json" "d['totals']['bytes_per_s']")
    echo "throttled $mode: $rate bytes/s through a 10000000 bytes/s bucket"
    check "throttled $mode: 80% to 102% of the bucket's rate" "$PY" -c '
import sys; r = float(sys.argv[1]) / 10e6; sys.exit(not 0.80 <= r <= 1.02)' "$rate"
  done
  tc -n "$NS" qdisc del dev lo root
else
  echo "no tc tbf here ($(cat "$T_DIR/tc.err")): the rate is not checked against a throttle"
fi

# an MPI job of 2 ranks, each a client of its own with its set in rank.N on
# the server (made by prepare, removed by cleanup once empty)
if [ "${SM_HAVE_MPI:-1}" = 1 ] && "$STORMARK" --version | head -1 | grep -q ' mpi[ )]' &&
   command -v mpirun >/dev/null; then
  [ "${SM_SANITIZER:-none}" = none ] || export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  MPI=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 2)
  expect_rc 2 "MPI: --nfs with --mpi-files=shared is refused" \
    in_ns "${MPI[@]}" "$STORMARK" fileio --nfs "$URL" --mpi-files=shared "${SET[@]}" prepare
  check "MPI: the refusal says why" grep -q "cannot be combined with --mpi-files=shared" "$T_DIR/out"
  expect_rc 0 "MPI: prepare, a set per rank" in_ns "${MPI[@]}" "$STORMARK" fileio --nfs "$URL" "${SET[@]}" prepare
  for r in 0 1; do
    check "MPI: rank.$r has its four files" \
      test "$(cd "$EXPORT/rank.$r" 2>/dev/null && ls test_file.[0-9] | tr '\n' ' ')" = "test_file.0 test_file.1 test_file.2 test_file.3 "
  done
  in_ns "${MPI[@]}" "$STORMARK" fileio --nfs "$URL" "${SET[@]}" --file-test-mode=rndrd --time=1 \
    --json="$T_DIR/m.json" run >"$T_DIR/out" 2>&1
  check "MPI: run, exit 0" test $? = 0
  check "MPI: both ranks read from the server" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["mpi"]["ranks_reported"] == 2 and all(r["items"] > 0 for r in d["mpi"]["ranks"])))' "$T_DIR/m.json"
  expect_rc 0 "MPI: cleanup" in_ns "${MPI[@]}" "$STORMARK" fileio --nfs "$URL" "${SET[@]}" cleanup
  check "MPI: no rank.N left" test -z "$(ls -d "$EXPORT"/rank.* 2>/dev/null)"
  check "MPI: nothing made on this host" test -z "$(ls -d ./rank.* 2>/dev/null)"
fi

# ---- meta --nfs: the metadata phases on the server, through the nfs
# engine's namespace ops; its own directory, removed with what it made
expect_usage "meta: --nfs needs nfs://SERVER/PATH" "$STORMARK" meta --nfs "127.0.0.1:$EXPORT"
expect_usage "meta: --nfs and a directory do not go together" "$STORMARK" meta --nfs "$URL" "$T_DIR"
# (nfs://x/y: libnfs parses it with a part left NULL, and crashed on it)
expect_rc 1 "meta: a URL libnfs cannot mount fails, it does not crash" \
  "$STORMARK" meta --nfs "nfs://x/y" -n 2 --quiet
check "meta: it says no directory was made" grep -q "no directory was made" "$T_DIR/out"
expect_rc 1 "fileio: the same URL fails in prepare, it does not crash" \
  "$STORMARK" fileio --nfs "nfs://x/y" "${SET[@]}" prepare
check "fileio: it names the URL" grep -q "'nfs://x/y' is not an NFS URL libnfs takes" "$T_DIR/out"
before=$(cd "$EXPORT" && ls -A)
expect_rc 0 "meta on the server" in_ns "$STORMARK" meta --nfs "$URL" -n 20 -t 2 --size 8k --quiet \
  --json="$T_DIR/m.json"
check "meta: every phase did its 20 files with no error" \
  test "$(json "$T_DIR/m.json" "[(p, o['count'], o['errors']) for p, o in sorted(d['meta']['ops'].items())]")" = \
  "[('create', 20, 0), ('delete', 20, 0), ('list', 20, 0), ('probe', 20, 0), ('stat', 20, 0)]"
check "meta: 8 KiB written into each file, its first 4 KiB read back" \
  test "$(json "$T_DIR/m.json" "(d['meta']['ops']['create']['bytes'], d['meta']['ops']['probe']['bytes'])")" = \
  "(163840, 81920)"
check "meta: environment.engine is nfs, the mount the server's" \
  test "$(json "$T_DIR/m.json" "(d['environment']['engine'], d['environment']['mount']['server'])")" = \
  "('nfs', '127.0.0.1')"
check "meta: its directory was made on the server and removed" \
  test "$(json "$T_DIR/m.json" "(d['meta']['created'], d['meta']['cleaned'], d['meta']['data_dir'][:15])")" = \
  "(20, True, '/.stormark-meta')"
check "meta: the export is as it was" test "$(cd "$EXPORT" && ls -A)" = "$before"

expect_rc 0 "cleanup on the server" in_ns "$STORMARK" fileio --nfs "$URL" "${SET[@]}" cleanup
check "cleanup: no test file and no list left" test -z "$(listing)"
check "cleanup: the foreign directory is as it was" test "$(ls "$EXPORT")" = foreign
finish
