#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stormark frames against fio on the same frame-sequence job (2K frames,
# 4 threads, direct, write then read; one file per frame), in alternating
# runs, and stormark's CPU cost per frame and per I/O with the null engine
# against fio's null engine. Prints per-pair figures and medians.
#
#   bench/bench-frames.sh                 (STORMARK=path/to/stormark to choose the binary)
#   PAIRS=7 NULL_PAIRS=3 BENCH_DIR=/data bench/bench-frames.sh
#
# The data directory is made under BENCH_DIR (default: the current
# directory), must not be tmpfs, and is removed at the end.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=${PAIRS:-7}
NULL_PAIRS=${NULL_PAIRS:-3}
NFRAMES=200                   # 2K frames: 200 x 12512 KiB = 2.4 GiB per run
NULL_FRAMES=${NULL_FRAMES:-1000000}
NULL_IOS=${NULL_IOS:-20000000}

STORMARK=${STORMARK:-}
if [ -z "$STORMARK" ]; then
  for b in "$HERE/../build/stormark" "$HERE"/../build*/stormark; do
    [ -x "$b" ] && { STORMARK=$b; break; }
  done
fi
[ -n "$STORMARK" ] && [ -x "$STORMARK" ] || { echo "bench-frames: no stormark binary (build it, or set STORMARK)" >&2; exit 1; }
STORMARK=$(readlink -f "$STORMARK")
command -v fio >/dev/null || { echo "bench-frames: fio is not installed (scripts/deps.sh)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-frames: GNU time (/usr/bin/time) is not installed" >&2; exit 1; }
PY=$(command -v /usr/bin/python3 || command -v python3) || { echo "bench-frames: python3 is needed to read fio's JSON" >&2; exit 1; }

D=$(mktemp -d "${BENCH_DIR:-$PWD}/bench-frames.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
if [ "$(stat -f -c %T "$D")" = tmpfs ]; then
  echo "bench-frames: '$D' is on tmpfs; set BENCH_DIR to a directory on the disk" >&2; exit 1
fi
mkdir -p "$D/bin" "$D/S" "$D/F" "$D/N"
ln -s "$STORMARK" "$D/bin/frametest"
FT="$D/bin/frametest"

echo "bench-frames: $(date -u '+%Y-%m-%d %H:%M UTC'), $("$STORMARK" --version | head -1), $(fio --version)"
echo "data in $D ($(stat -f -c %T "$D") on $(df --output=source "$D" | tail -1)), $(nproc) CPUs"

# fresh DIR: before a write test, remove the frames of the previous run and
# commit the file system's journal, untimed, for both tools alike. Otherwise
# stormark truncates its own old frames inside its timed run (open with
# O_TRUNC; on a file system mounted with -o discard, as here, that frees and
# discards 2.4 GiB while it writes) whereas fio overwrites its old files in
# place (no truncation, no allocation): two different jobs.
fresh() { rm -f "$1"/frame*; sync -f "$1"; }

# fio_frames RW: the methodology.md job; prints frames per second (IOPS,
# since bs = frame size).
fio_frames() {
  local extra=()
  [ "$1" = write ] && { extra=(--create_on_open=1 --fallocate=none); fresh "$D/F"; }
  fio --name=frames --directory="$D/F" --numjobs=4 --nrfiles=50 --filesize=12512k \
      --size=625600k --bs=12512k --rw="$1" --direct=1 --ioengine=psync \
      --openfiles=1 --file_service_type=sequential "${extra[@]}" --group_reporting \
      --output-format=json >"$D/fio.json" 2>"$D/fio.err" || { cat "$D/fio.err" >&2; return 1; }
  "$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0][sys.argv[2]]; print('%.2f' % j['iops'])" "$D/fio.json" "$1"
}

# sm_frames write|read: frametest's command line; prints the overall fps.
sm_frames() {
  local args=(-t 4 -n $NFRAMES)
  [ "$1" = write ] && { args=(-w 2k "${args[@]}"); fresh "$D/S"; }
  "$FT" "${args[@]}" "$D/S" >"$D/sm.out" 2>"$D/sm.err" || { cat "$D/sm.err" >&2; return 1; }
  sed -n 's/^Overall frame rate \.* \([0-9.]*\) fps.*/\1/p' "$D/sm.out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- 1. 2K frames, 4 threads, direct: write then read ----------------------
echo
echo "== 2K frames (12512 KiB), 4 threads, direct, $NFRAMES frames; $PAIRS pairs"
echo "   stormark: frametest -w 2k -t 4 -n $NFRAMES DIR; frametest -t 4 -n $NFRAMES DIR"
echo "   fio: --numjobs=4 --nrfiles=50 --filesize=12512k --bs=12512k --direct=1 --ioengine=psync ..."
# Warm-up (not counted): first-touch memory, file-system metadata.
sm_frames write >/dev/null && fio_frames write >/dev/null && sm_frames read >/dev/null && fio_frames read >/dev/null || exit 1
: >"$D/wr.ratios"; : >"$D/rd.ratios"
printf '%-5s %-6s %10s %10s %7s\n' pair phase stormark fio ratio
for i in $(seq 1 "$PAIRS"); do
  for phase in write read; do
    # Alternate who goes first: odd pairs stormark, even pairs fio.
    if [ $((i % 2)) = 1 ]; then
      s=$(sm_frames $phase) && f=$(fio_frames $phase) || exit 1
    else
      f=$(fio_frames $phase) && s=$(sm_frames $phase) || exit 1
    fi
    r=$(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.3f", s / f }')
    printf '%-5s %-6s %10s %10s %7s\n' "$i" $phase "$s" "$f" "$r"
    echo "$r" >>"$D/$( [ $phase = write ] && echo wr || echo rd ).ratios"
    echo "$s $f" >>"$D/$phase.fps"
  done
done
echo "median stormark/fio fps: write $(median <"$D/wr.ratios"), read $(median <"$D/rd.ratios")"
echo "median fps: write stormark $(cut -d' ' -f1 "$D/write.fps" | median) fio $(cut -d' ' -f2 "$D/write.fps" | median);" \
     "read stormark $(cut -d' ' -f1 "$D/read.fps" | median) fio $(cut -d' ' -f2 "$D/read.fps" | median)"
rm -rf "$D/S" "$D/F"

# --- 2. the null engine: CPU per frame and per I/O ---------------------------
# cpu_ns N CMD...: user + sys CPU of CMD (GNU time) divided by N, in ns.
cpu_ns() {
  local n=$1; shift
  /usr/bin/time -f '%U %S' -o "$D/time.txt" "$@" >"$D/null.out" 2>"$D/null.err" || { cat "$D/null.err" >&2; return 1; }
  awk -v n="$n" '{ printf "%.1f", ($1 + $2) * 1e9 / n }' "$D/time.txt"
}
echo
echo "== null engine, CPU (user + sys, whole process) per frame and per I/O; $NULL_PAIRS pairs"
echo "   stormark frames --engine null -w 4 -n $NULL_FRAMES DIR        (per frame: open + write + close)"
echo "   stormark frames --engine null -s -w 4 -n $NULL_IOS FILE    (per I/O)"
echo "   fio --name=null --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=1 --runtime=10 --time_based"
printf '%-5s %16s %14s %12s %12s\n' pair sm_ns/frame sm_ns/io fio_ns/io fio_iops
: >"$D/null.rows"
for i in $(seq 1 "$NULL_PAIRS"); do
  pf=$(cpu_ns "$NULL_FRAMES" "$STORMARK" frames --engine null -w 4 -n "$NULL_FRAMES" "$D/N") || exit 1
  pi=$(cpu_ns "$NULL_IOS" "$STORMARK" frames --engine null -s -w 4 -n "$NULL_IOS" "$D/N/stream") || exit 1
  /usr/bin/time -f '%U %S' -o "$D/time.txt" fio --name=null --ioengine=null --rw=randread --bs=4k \
      --size=1g --iodepth=1 --runtime=10 --time_based --output-format=json >"$D/fio.json" || exit 1
  read -r fios fiops < <("$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]['read']; print(j['total_ios'], '%.0f' % j['iops'])" "$D/fio.json")
  fi=$(awk -v n="$fios" '{ printf "%.1f", ($1 + $2) * 1e9 / n }' "$D/time.txt")
  printf '%-5s %16s %14s %12s %12s\n' "$i" "$pf" "$pi" "$fi" "$fiops"
  echo "$pf $pi $fi" >>"$D/null.rows"
done
echo "median CPU ns: stormark per frame $(cut -d' ' -f1 "$D/null.rows" | median)," \
     "stormark per I/O $(cut -d' ' -f2 "$D/null.rows" | median), fio per I/O $(cut -d' ' -f3 "$D/null.rows" | median)"
