#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stormark meta against fio's metadata engines on the same directory: the
# create, stat and delete rates of N files (default 20000), one thread,
# in alternating pairs (stormark first in odd pairs, fio first in even
# ones); prints each pair's rates and ratios, then the median ratio per
# operation (docs/meta.md, "Beside fio").
#
#   bench/bench-meta.sh                      (STORMARK=path/to/stormark to choose the binary)
#   PAIRS=5 N=20000 BENCH_DIR=/data bench/bench-meta.sh
#
# What is compared: fio's filecreate (each "I/O" an open with O_CREAT and
# a close, files left empty: no data is written) against stormark meta
# --size 0's create (openat O_CREAT|O_EXCL|O_NOFOLLOW, close); fio's
# filestat (stat) and filedelete (unlink) on files fio lays out first,
# untimed, with filesize=4k, against the stat and delete phases of
# stormark meta --size 4096 (files of the same size). fio's rate is its
# job's total_ios / runtime; stormark's the phase's per_s (its count over
# the phase's span). The work is made under BENCH_DIR (default: the
# current directory) and removed at the end. Not part of `make test`.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=${PAIRS:-3}
N=${N:-20000}

STORMARK=${STORMARK:-}
if [ -z "$STORMARK" ]; then
  for b in "$HERE/../build/stormark" "$HERE"/../build*/stormark; do
    [ -x "$b" ] && { STORMARK=$b; break; }
  done
fi
[ -n "$STORMARK" ] && [ -x "$STORMARK" ] || { echo "bench-meta: no stormark binary (build it, or set STORMARK)" >&2; exit 1; }
STORMARK=$(readlink -f "$STORMARK")
command -v fio >/dev/null || { echo "bench-meta: fio is not installed (apt-get install fio)" >&2; exit 1; }
PY=$(command -v /usr/bin/python3 || command -v python3) || { echo "bench-meta: python3 is needed to read the JSON" >&2; exit 1; }

D=$(mktemp -d "${BENCH_DIR:-$PWD}/bench-meta.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM

echo "bench-meta: $(date -u '+%Y-%m-%d %H:%M UTC'), $("$STORMARK" --version | head -1), $(fio --version)"
echo "data in $D ($(stat -f -c %T "$D") on $(df --output=source "$D" | tail -1)), $(nproc) CPUs, $N files, one thread"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

# fresh: an empty directory, the journal committed, for both tools alike
fresh() { rm -rf "$D/w"; mkdir "$D/w"; sync -f "$D"; }

# fio_rate ENGINE: the engine's rate on N files (fio's "read" counts them)
fio_rate() {
  local extra=()
  [ "$1" = filecreate ] && extra=(--create_on_open=1 --fallocate=none)
  fresh
  fio --name=m --ioengine="$1" --directory="$D/w" --nrfiles="$N" --filesize=4k --openfiles=1 \
      "${extra[@]}" --output-format=json >"$D/fio.json" 2>"$D/fio.err" ||
    { echo "bench-meta: fio $1 failed: $(head -1 "$D/fio.err")" >&2; exit 1; }
  "$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]['read']; assert j['total_ios'] == int(sys.argv[2]), j['total_ios']; print('%.1f' % j['iops'])" "$D/fio.json" "$N"
}

# sm_rates SIZE: stormark meta's create, stat and delete rates
sm_rates() {
  fresh
  "$STORMARK" meta -n "$N" --size "$1" --json="$D/sm.json" "$D/w" >/dev/null 2>"$D/sm.err" ||
    { echo "bench-meta: stormark meta failed: $(head -1 "$D/sm.err")" >&2; exit 1; }
  "$PY" -c "import json,sys; o=json.load(open(sys.argv[1]))['meta']['ops']; print(' '.join('%.1f' % o[k]['per_s'] for k in ('create','stat','delete')))" "$D/sm.json"
}

fio_all() { FC=$(fio_rate filecreate); FS=$(fio_rate filestat); FD=$(fio_rate filedelete); }
sm_all() {
  local a b
  a=$(sm_rates 0); b=$(sm_rates 4096)
  SC=${a%% *}
  set -- $b
  SS=$2 SD=$3
}

ratios_c=() ratios_s=() ratios_d=()
printf '%-5s %-6s %12s %12s %12s\n' pair tool create/s stat/s delete/s
for i in $(seq 1 "$PAIRS"); do
  if [ $((i % 2)) = 1 ]; then sm_all; fio_all; else fio_all; sm_all; fi
  printf '%-5s %-6s %12s %12s %12s\n' "$i" stormark "$SC" "$SS" "$SD"
  printf '%-5s %-6s %12s %12s %12s\n' "$i" fio "$FC" "$FS" "$FD"
  ratios_c+=("$(awk -v a="$SC" -v b="$FC" 'BEGIN { printf "%.3f", a / b }')")
  ratios_s+=("$(awk -v a="$SS" -v b="$FS" 'BEGIN { printf "%.3f", a / b }')")
  ratios_d+=("$(awk -v a="$SD" -v b="$FD" 'BEGIN { printf "%.3f", a / b }')")
  printf '%-5s %-6s %12s %12s %12s\n' "$i" ratio "${ratios_c[-1]}" "${ratios_s[-1]}" "${ratios_d[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median ratio stormark / fio: create $(median "${ratios_c[@]}"), stat $(median "${ratios_s[@]}"), delete $(median "${ratios_d[@]}")"
echo "load after: $(uptime | sed 's/.*load average/load average/')"
