# SPDX-License-Identifier: MIT
# Buffers larger than the memory really available (a memory cgroup's limit,
# MemAvailable) are refused up front: exit 2, one line naming the need and
# the limit, nothing created, and no OOM kill. So are saved results whose
# parsed tree would not fit (report, compare). The cgroup part runs each
# command inside a memory cgroup with a small limit (v1 or v2, whichever
# this machine has); the synthetic part feeds the probe a fake /proc through
# SM_MEMCHECK_ROOT.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
FT="$SM_BUILD_DIR/frametest"
SB="$SM_BUILD_DIR/sysbench"
[ -x "$FT" ] || { ln -s "$S" "$T_DIR/frametest"; FT="$T_DIR/frametest"; }
[ -x "$SB" ] || { ln -s "$S" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; }
W="$T_DIR/work"
mkdir -p "$W"
cd "$W" || exit 1

# refused DESC PATTERN CMD...: exit 2, exactly one line on stderr matching
# PATTERN, nothing in $W, no -o file.
refused() {
  local d=$1 pat=$2; shift 2
  "$@" >"$T_DIR/r.out" 2>"$T_DIR/r.err"; local got=$?
  local lines; lines=$(wc -l <"$T_DIR/r.err")
  if [ "$got" = 2 ] && [ "$lines" = 1 ] && grep -Eq -- "$pat" "$T_DIR/r.err"; then ok
  else fail "$d: exit $got, $lines stderr line(s)"; head -5 "$T_DIR/r.err" "$T_DIR/r.out" >&2; fi
  if [ -n "$(ls -A "$W")" ]; then fail "$d: left $(ls -A "$W" | head -3 | tr '\n' ' ')"; rm -rf "${W:?}"/* "$W"/.[!.]*; fi
  [ ! -e "$T_DIR/report.txt" ] || { fail "$d: created the -o file"; rm -f "$T_DIR/report.txt"; }
}

# ---- synthetic: MemAvailable of 40 MiB, no cgroup --------------------------
FAKE="$T_DIR/fake"
mkdir -p "$FAKE/proc/self"
printf 'MemTotal: 1000000 kB\nMemAvailable: 40960 kB\n' >"$FAKE/proc/meminfo"
: >"$FAKE/proc/self/cgroup"
: >"$FAKE/proc/self/mountinfo"
export SM_MEMCHECK_ROOT="$FAKE"
AV='need [0-9.]+ [KMGT]iB of memory, but only 40.0 MiB is available \(MemAvailable'
refused "frames -w hd -t 2 (fake 40 MiB)" "^stormark frames: the frame buffers \(7.97 MiB x 2 threads.*$AV" \
  "$S" frames -w hd -t 2 -n 4 --output "$T_DIR/report.txt" "$W"
refused "frametest -w hd -t 2 (fake 40 MiB)" "^frametest: the frame buffers.*$AV" "$FT" -w hd -t 2 -n 4 "$W"
refused "fileio run async backlog (fake)" "^stormark fileio: fileio's I/O buffers \(1.00 MiB x 2 threads x 8 requests.*$AV" \
  "$S" fileio --file-total-size=4M --file-block-size=1M --threads=2 --file-io-mode=async \
  --file-async-backlog=8 --file-test-mode=seqwr -o "$T_DIR/report.txt" run
refused "fileio prepare (fake)" "^stormark fileio: fileio prepare's write buffers \(64.0 MiB x 1 thread.*$AV" \
  "$S" fileio --file-total-size=64M --file-block-size=64M prepare
refused "sysbench prepare (fake)" "^stormark: fileio prepare's write buffers.*$AV" \
  "$SB" fileio --file-total-size=64M --file-block-size=64M prepare
refused "run (fake)" "^stormark run: the frame tests' buffers \(48.7 MiB x 4 threads\).*$AV" \
  "$S" run "$W" --time 5 --quiet -o "$T_DIR/report.txt"
refused "fileio run --verify: the maps of 2M blocks (fake)" "^stormark fileio: fileio's I/O buffers \(4.00 KiB x 1 thread x 1 request in flight\) and the --verify maps of 2097152 blocks $AV" \
  "$S" fileio --file-total-size=8G --file-block-size=4096 --file-dir="$W" --verify --file-test-mode=rndrd -o "$T_DIR/report.txt" run
refused "streams --rate-mib 1000 (fake)" "^stormark streams: the stream buffer \(one 40.0 MiB chunk of custom-1000mib at 25 fps, shared by the streams\) and the figures of 64 streams $AV" \
  "$S" streams --rate-mib 1000 --time 2 --step 1 -o "$T_DIR/report.txt" "$W"
# a sequence capture: the shared 5.28 MiB frame buffer (6 MiB in huge
# pages), one stream's figures and the reserve fit in 40 MiB; its
# frames' own buffers (the frame again, a page a request and the page
# tables of a request's mapping of the frame: 8 bytes a 4 KiB page) do not
refused "streams dpx16-hd720 capture (fake)" "^stormark streams: the stream buffer \(one 5.28 MiB chunk of dpx16-hd720 at 24 fps, shared by the streams\) and the figures of 1 stream, and the captured frames' buffers \(one 5.28 MiB frame shared, 14.6 KiB a request with its page tables\) $AV" \
  "$S" streams --video-format dpx16-hd720 --fps 24 --capture --max-streams 1 --time 2 --step 1 -o "$T_DIR/report.txt" "$W"
# a mix: its groups' chunks and streams count (no format searched: the
# mix's own, which alone fit in nothing but the reserve)
refused "streams --mix (fake)" "^stormark streams: the stream buffer \(one 5.28 MiB chunk of dpx16-hd720 at 24 fps, shared by the streams\) and the figures of 3 streams, and the captured frames' buffers \(one 5.28 MiB frame shared, 14.6 KiB a request with its page tables\) $AV" \
  "$S" streams --mix '1xprores-proxy-hd@25:play,1xdpx16-hd720@24:capture' --max-streams 1 --step 1 -o "$T_DIR/report.txt" "$W"
# a mix of captured frames: each request maps the whole frame, and its
# page tables (8 bytes per 4 KiB page, 63 KiB for a 31.6 MiB frame) count:
# 256 requests' 16 MiB of them (measured: VmPTE) do not fit in what the
# rest leaves of 112 MiB (the rest, 70 MiB and the reserve, would)
printf 'MemTotal: 1000000 kB\nMemAvailable: 114688 kB\n' >"$FAKE/proc/meminfo"
refused "streams --mix of captured frames counts their page tables (fake 112 MiB)" \
  "^stormark streams: .*, and the captured frames' buffers \(one 31.6 MiB frame shared, 67.3 KiB a request with its page tables\) need 8[0-9.]+ MiB of memory, but only 112 MiB is available" \
  "$S" streams --mix 32xdpx-uhd@24:capture --depth 8 --capture --rate-mib 1 --max-streams 1 --time 1 --step 1 \
  -o "$T_DIR/report.txt" "$W"
printf 'MemTotal: 1000000 kB\nMemAvailable: 40960 kB\n' >"$FAKE/proc/meminfo"
# report and compare: the parsed tree of a saved result, counted from its
# text (a series of 60000 seconds of small numbers: 1 MB of JSON, 2.7
# million values, ~50 MiB once parsed)
big_result() {   # big_result N FILE: frames/paced-read.json with an N-second series
  python3 - "$SM_SOURCE_DIR/tests/golden/frames/paced-read.json" "$1" >"$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
s = d["series"]
for k in list(s):
    if k != "interval_ns":
        s[k] = [0] * n
s["duration_ns"] = [1] * n
sys.stdout.write(json.dumps(d, separators=(",", ":")))
PY
}
big_result 60000 "$T_DIR/mid.json"
t_check_skip "$T_DIR/mid.json"   # its series is zeros made up to be large
TREE="reading '$T_DIR/mid.json' \([0-9.]+ [KM]iB of JSON, [0-9]+ values\)"
refused "report of a 1 MB result (fake)" "^stormark report: $TREE need [0-9.]+ MiB of memory, but only 40.0 MiB is available" \
  "$S" report "$T_DIR/mid.json" -o "$T_DIR/report.txt"
refused "compare of a 1 MB result (fake)" "^stormark compare: $TREE need [0-9.]+ MiB of memory, but only 40.0 MiB" \
  "$S" compare "$T_DIR/mid.json" "$T_DIR/mid.json" -o "$T_DIR/report.txt"
refused "report - of a 1 MB result (fake)" "^stormark report: reading '-' \([0-9.]+ [KM]iB of JSON, [0-9]+ values\) need" \
  "$S" report - <"$T_DIR/mid.json"
# history --json KEY and KEY --html load every result of the key: three
# such results under one key (put in the database directly) are refused
# before any of them is parsed; a key that fits still runs
"$S" time --quiet --save t --db "$T_DIR/hist.db" -o /dev/null -- true || fail "a history for the big key"
python3 - "$T_DIR/hist.db" "$T_DIR/mid.json" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
text = open(sys.argv[2]).read()
for i in range(3):
    c.execute("INSERT INTO results(key, command, saved_at, json) VALUES('big', 'frames', "
              "'2026-01-0%dT00:00:00Z', ?)" % (i + 1), (text,))
c.commit()
PY
HK="^stormark history: reading key 'big' of '$T_DIR/hist.db' \(3 results, [0-9.]+ [KM]iB of JSON\)"
refused "history --json KEY of 3 MB of results (fake)" "$HK to write it as JSON need [0-9.]+ MiB of memory, but only 40.0 MiB" \
  "$S" history --db "$T_DIR/hist.db" --json big -o "$T_DIR/report.txt"
refused "history KEY --html of 3 MB of results (fake)" "$HK to draw its trend page need [0-9.]+ MiB of memory, but only 40.0 MiB" \
  "$S" history --db "$T_DIR/hist.db" big --html "$T_DIR/report.html" -o "$T_DIR/report.txt"
check "history KEY --html refused: no page" test ! -e "$T_DIR/report.html"
expect_rc 0 "history --json of a small key fits (fake)" "$S" history --db "$T_DIR/hist.db" --json t -o /dev/null
# time: nothing is run (the command would create a file)
printf 'MemTotal: 1000000 kB\nMemAvailable: 1024 kB\n' >"$FAKE/proc/meminfo"
refused "time -n 1000 (fake 1 MiB)" "^stormark time: the records of --runs need .* but only 1.00 MiB is available" \
  "$S" time -n 1000 touch "$W/ran"
# what fits still runs
printf 'MemTotal: 1000000 kB\nMemAvailable: 409600 kB\n' >"$FAKE/proc/meminfo"
mkdir "$W/ok"
expect_rc 0 "frames -w hd -t 2 fits in 400 MiB (fake)" "$S" frames -w hd -t 2 -n 4 --quiet "$W/ok"
expect_rc 0 "fileio cleanup needs no buffers (fake)" "$S" fileio cleanup
rm -rf "$W/ok"
unset SM_MEMCHECK_ROOT

# ---- a real memory cgroup ----------------------------------------------------
LIMIT=$((96 * 1024 * 1024))
CG="" VER=0
if [ -w /sys/fs/cgroup/memory ] && [ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
  CG=/sys/fs/cgroup/memory/stormark-memlimit-$$
  mkdir "$CG" 2>/dev/null && echo "$LIMIT" >"$CG/memory.limit_in_bytes" 2>/dev/null && VER=1
elif [ -w /sys/fs/cgroup ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
  CG=/sys/fs/cgroup/stormark-memlimit-$$
  echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
  mkdir "$CG" 2>/dev/null && echo "$LIMIT" >"$CG/memory.max" 2>/dev/null && VER=2
fi
if [ "$VER" = 0 ]; then
  [ -n "$CG" ] && rmdir "$CG" 2>/dev/null
  echo "$T_PASSES passed, $T_FAILS failed (synthetic part)"
  [ "$T_FAILS" = 0 ] || exit 1
  skip "no memory cgroup can be made here (needs root and a v1 memory controller or v2 with memory)"
fi
T_CGROUP=$CG   # lib.sh's t_cgroup_exec and cleanup
oom_kills() {
  if [ "$VER" = 1 ]; then awk '$1 == "oom_kill" { print $2 }' "$CG/memory.oom_control"
  else awk '$1 == "oom_kill" { print $2 }' "$CG/memory.events"; fi
}
K0=$(oom_kills); K0=${K0:-0}
LIM="need [0-9.]+ [KMGT]iB of memory, but only [0-9.]+ [KM]iB is free under the memory limit of cgroup '$CG' \(96.0 MiB"

refused "cgroup: fileio prepare 1 GiB blocks x 2 threads" "^stormark fileio: fileio prepare's write buffers \(1.00 GiB x 2 threads\) $LIM" \
  t_cgroup_exec "$S" fileio --file-total-size=2G --file-num=2 --file-block-size=1G --threads=2 prepare
refused "cgroup: sysbench prepare 1 GiB blocks" "^stormark: fileio prepare's write buffers \(1.00 GiB x 1 thread\) $LIM" \
  t_cgroup_exec "$SB" fileio --file-total-size=1G --file-num=1 --file-block-size=1G prepare
refused "cgroup: fileio run 1 MiB x 4 threads x 64 in flight" "^stormark fileio: fileio's I/O buffers \(1.00 MiB x 4 threads x 64 requests in flight\) $LIM" \
  t_cgroup_exec "$S" fileio --file-total-size=64M --file-block-size=1M --threads=4 --file-io-mode=async \
  --file-async-backlog=64 --file-test-mode=rndrd -o "$T_DIR/report.txt" run
refused "cgroup: frames -w hd -t 16" "^stormark frames: the frame buffers \(7.97 MiB x 16 threads x 1 frame in flight\) $LIM" \
  t_cgroup_exec "$S" frames -w hd -t 16 -n 32 "$W"
refused "cgroup: frametest -w 4k -t 2" "^frametest: the frame buffers \(48.7 MiB x 2 threads x 1 frame in flight\) $LIM" \
  t_cgroup_exec "$FT" -w 4k -t 2 -n 4 "$W"
refused "cgroup: run" "^stormark run: the frame tests' buffers \(48.7 MiB x 4 threads\) $LIM" \
  t_cgroup_exec "$S" run "$W" --time 5 --quiet
refused "cgroup: streams --rate-mib 100000" "^stormark streams: the stream buffer \(one 3.91 GiB chunk of custom-100000mib at 25 fps, shared by the streams\) and the figures of 64 streams $LIM" \
  t_cgroup_exec "$S" streams --rate-mib 100000 --time 10 --step 2 "$W"
# report and compare of a result whose parsed tree does not fit: refused
# with the figure (before, the kernel killed them); one that fits renders
big_result 400000 "$T_DIR/big.json"
t_check_skip "$T_DIR/big.json"
BIG="reading '$T_DIR/big.json' \(6\.[0-9]+ MiB of JSON, [0-9]+ values\) need [0-9.]+ MiB of memory"
refused "cgroup: report of a 6 MB result" "^stormark report: $BIG, but only [0-9.]+ [KM]iB is free under the memory limit of cgroup '$CG' \(96.0 MiB" \
  t_cgroup_exec "$S" report "$T_DIR/big.json"
refused "cgroup: report --format html of a 6 MB result" "^stormark report: $BIG" \
  t_cgroup_exec "$S" report "$T_DIR/big.json" --format html
# (not under a sanitizer, whose shadow memory and quarantine of freed
# blocks the counts do not model: what fits here does not fit there)
if [ "${SM_SANITIZER:-none}" = none ]; then
  refused "cgroup: compare of a 6 MB result" "^stormark compare: $BIG" \
    t_cgroup_exec "$S" compare "$T_DIR/mid.json" "$T_DIR/big.json"
  expect_rc 0 "cgroup: report of a 1 MB result fits" t_cgroup_exec "$S" report "$T_DIR/mid.json" -o "$T_DIR/mid.txt"
  check "cgroup: the 1 MB result was rendered" grep -q "^Frames transferred" "$T_DIR/mid.txt"
  expect_rc 0 "cgroup: compare of two 1 MB results fits" t_cgroup_exec "$S" compare "$T_DIR/mid.json" \
    "$T_DIR/mid.json" -o "$T_DIR/mid.txt"
fi
# --format json builds a second document: the same result no longer fits
refused "cgroup: report --format json of a 1 MB result" "^stormark report: reading '$T_DIR/mid.json' \([0-9.]+ [KM]iB of JSON, [0-9]+ values\) and writing it again as JSON need [0-9.]+ MiB" \
  t_cgroup_exec "$S" report "$T_DIR/mid.json" --format json
rm -f "$T_DIR/mid.txt"
# a run that fits the limit still works inside it
mkdir "$W/ok"
expect_rc 0 "cgroup: frames -w 1024 -t 2 fits" t_cgroup_exec "$S" frames -w 1024 -t 2 -n 20 --quiet "$W/ok"
expect_rc 0 "cgroup: streams --rate-mib 10 fits" t_cgroup_exec "$S" streams --rate-mib 10 --capture --time 2 \
  --step 1 --max-streams 1 --quiet "$W/ok"
rm -rf "$W/ok"
K1=$(oom_kills); K1=${K1:-0}
[ "$K1" = "$K0" ] && ok || fail "the OOM killer acted in the test cgroup ($K0 -> $K1 kills)"
finish
