#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stormark run's classic figures against fio 3.33 on the same eight jobs
# (1 MiB sequential at QD8 and QD1, 4 KiB random at QD32 and QD1, read and
# write, O_DIRECT, one file), alternating stormark and fio, PAIRS times.
# Prints per job the median of the per-pair ratios stormark MiB/s / fio MiB/s.
# Usage: bench/bench-run.sh [DIR] [PAIRS] [TIME]   (TIME: stormark --time)
set -u
cd "$(dirname "$0")/.."
DIR=${1:-.}
PAIRS=${2:-5}
TIME=${3:-40}
SM=${STORMARK:-./build/stormark}
command -v fio >/dev/null || { echo "fio is not installed"; exit 1; }
command -v jq >/dev/null || { echo "jq is not installed"; exit 1; }
[ -x "$SM" ] || { echo "build stormark first ($SM)"; exit 1; }
W=$(mktemp -d "$DIR/.bench-run-XXXXXX")
trap 'rm -rf "$W"' EXIT

# the job list, in stormark's order: label bs depth pattern
JOBS="seq1m_qd8:1m:8:seq seq1m_qd1:1m:1:seq rand4k_qd32:4k:32:rand rand4k_qd1:4k:1:rand"

fio_job() { # fio_job NAME BS DEPTH RW SIZE SECS -> MiB/s
  local engine=io_uring extra="--fixedbufs --registerfiles"
  if [ "$3" = 1 ]; then engine=psync; extra=""; fi
  fio --name="$1" --filename="$W/fio.dat" --size="$5" --direct=1 --ioengine=$engine $extra \
      --rw="$4" --bs="$2" --iodepth="$3" --runtime="$6" --time_based --output-format=json \
    | jq '[.jobs[0].read.bw_bytes, .jobs[0].write.bw_bytes] | add / 1048576'
}

echo "pair job stormark_MiBps fio_MiBps ratio" >"$W/pairs.txt"
for p in $(seq 1 "$PAIRS"); do
  "$SM" run "$DIR" --classic-only --time "$TIME" --quiet --json "$W/sm.json" >/dev/null || exit 1
  size=$(jq '.params.block_file_bytes' "$W/sm.json")
  secs=$(jq '.params.block_test_ns / 1e9' "$W/sm.json")
  # fio lays out its own file of the same size once
  [ -e "$W/fio.dat" ] || fio --name=lay --filename="$W/fio.dat" --size="$size" --rw=write --bs=1m \
      --direct=1 --ioengine=psync --output-format=terse >/dev/null
  i=0
  for j in $JOBS; do
    IFS=: read -r name bs depth pat <<<"$j"
    for rw in read write; do
      sm=$(jq --argjson i $i --arg rw $rw '.run.classic[$i][$rw].bytes_per_s / 1048576' "$W/sm.json")
      frw=$rw; [ "$pat" = rand ] && frw=rand$rw
      f=$(fio_job "$name" "$bs" "$depth" "$frw" "$size" "$secs")
      echo "$p ${name}_$rw $sm $f $(awk -v a="$sm" -v b="$f" 'BEGIN { printf "%.3f", a / b }')" >>"$W/pairs.txt"
    done
    i=$((i + 1))
  done
done
cat "$W/pairs.txt"
echo
echo "job median(stormark/fio) over $PAIRS pairs"
for j in $JOBS; do
  for rw in read write; do
    n="${j%%:*}_$rw"
    awk -v n="$n" '$2 == n { print $5 }' "$W/pairs.txt" | sort -n |
      awk -v n="$n" '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%-18s %.2f\n", n, m }'
  done
done
