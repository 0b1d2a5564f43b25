#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ground truth for `stormark streams` as an MPI job (slow: about 45 s).
# Inside one blkio cgroup throttling reads of the disk to 100 MiB/s, a
# made-up playback format of 25 MiB/s per stream (--rate-mib 25) is
# searched by one process and then by two ranks under mpirun (each step's
# streams spread over both, as two clients of one storage): both must find
# 3 streams with 20% headroom (3 or 4 raw: 4 x 25 MiB/s is exactly the
# limit), the two ranks' answer split between them round-robin, and the
# most the storage delivered to the two close to the throttle.
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job
command -v jq >/dev/null || skip "jq reads the JSON"
RATE=$((100 * 1024 * 1024))
D=$T_DIR/d; mkdir -p "$D"
ARGS=(streams --rate-mib 25 --play --step 3 --time 40 --max-streams 8 --quiet)

t_cgroup_throttle read "$RATE" "$T_DIR" || skip "cannot set up a blkio read throttle (cgroup v1 blkio not writable here)"
# near the limit one stall of this shared disk longer than a stream's
# buffers drops a frame whatever the throttle allows: one more try each
# when the answer disagrees (all printed)
agrees() {   # agrees JSON
  local raw hr
  raw=$(jq '.streams[0].max_streams' "$1"); hr=$(jq '.streams[0].max_streams_headroom' "$1")
  { [ "$raw" = 3 ] || [ "$raw" = 4 ]; } && [ "$hr" = 3 ]
}
show() {   # show WHAT JSON
  echo "$1: $(jq -c '.streams[0] | {raw: .max_streams, headroom: .max_streams_headroom,
    sustained: .sustained_bytes_per_s, steps: [.steps[] | [.streams, .held, .dropped, .delivered_bytes_per_s]]}' "$2")"
}
J1=$T_DIR/one.json; J2=$T_DIR/two.json
for attempt in 1 2; do
  t_cgroup_exec "$STORMARK" "${ARGS[@]}" --json="$J1" "$D" >"$T_DIR/out1" 2>&1
  show "attempt $attempt, one process" "$J1"
  agrees "$J1" && break
done
for attempt in 1 2; do
  t_cgroup_exec "${MPI[@]}" -np 2 "$STORMARK" "${ARGS[@]}" --json="$J2" "$D" >"$T_DIR/out2" 2>&1
  show "attempt $attempt, two ranks" "$J2"
  jq -c '.mpi.streams[0]' "$J2"
  agrees "$J2" && break
done
t_cgroup_release
for j in one two; do
  J=$T_DIR/$j.json
  raw=$(jq '.streams[0].max_streams' "$J"); hr=$(jq '.streams[0].max_streams_headroom' "$J")
  sus=$(jq '.streams[0].sustained_bytes_per_s' "$J")
  check "$j: 3 or 4 streams held (got $raw)" test "$raw" = 3 -o "$raw" = 4
  check "$j: 3 streams with 20% headroom (got $hr)" test "$hr" = 3
  check "$j: delivered at most about the throttle ($sus B/s)" awk -v a="$sus" -v r="$RATE" \
    'BEGIN { exit !(a >= 0.85 * r && a <= 1.15 * r) }'
done
check "two ranks: the same answer as one process" \
  test "$(jq '.streams[0].max_streams_headroom' "$J1")" = "$(jq '.streams[0].max_streams_headroom' "$J2")"
check "two ranks: the answer split round-robin" jq -e '.streams[0].max_streams as $n
  | [.mpi.streams[0].ranks[] | .streams] == [($n + 1) / 2 | floor, $n / 2 | floor]' "$J2"
check "two ranks: both served streams in the steps" jq -e '[.mpi.ranks[] | .items > 0] | all' "$J2"
check "nothing left behind" test -z "$(find "$D" -mindepth 1 -not -name 'rank.*')"
check "the rank directories emptied" test -z "$(find "$D" -mindepth 2)"
finish
