#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark streams` as an MPI job on this machine (docs/mpi.md): rank 0
# drives the search, each step's N streams spread round-robin over the
# ranks (stream i on rank i mod P), every rank in DIR/rank.N. Checked: the
# merged steps hold every stream of the step, each rank's streams in their
# places; the job's bytes and frames are the sum of the ranks' own (from
# the steps' per-stream figures); the spread table counts each rank's
# streams at the answer; capture and playback leave nothing behind; a
# rank that cannot start stops the job with its reason; --stonewall is a
# usage error for streams. Tiny rates and 1 s steps: about 10 s.
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job
command -v jq >/dev/null || skip "jq reads the JSON"
jqe() { jq -e "$@" >/dev/null; }
D=$T_DIR/d; mkdir -p "$D"

# ---- playback, 3 ranks: 5 streams at the cap (2 + 2 + 1) ----------------
J=$T_DIR/play.json
expect_rc 0 "playback under mpirun -np 3" "${MPI[@]}" -np 3 "$STORMARK" streams --rate-mib 2 --play \
  --step 1 --time 20 --max-streams 5 --json="$J" "$D"
check "the streams table" grep -q "custom-2mib" "$T_DIR/out"
check "the rank table" grep -q "MPI job: 3 ranks on 1 host, 3 reported" "$T_DIR/out"
check "the spread table" grep -q "Streams per rank and host (stream i of a step ran on rank i mod 3)" "$T_DIR/out"
"$STORMARK" report --format json "$J" >"$T_DIR/play2.json" 2>&1
check "report --format json gives the job's JSON back, mpi object and all" cmp -s "$J" "$T_DIR/play2.json"
# whether a step holds depends on this machine's load (the disk is shared
# by other tests): the checks below hold for any answer N
spread='. as $d | .streams[0].max_streams as $n | $d.mpi.ranks_total as $p
  | [range($p) | ($n / $p | floor) + (if . < ($n % $p) then 1 else 0 end)]
  == [$d.mpi.streams[0].ranks[] | .streams] and $d.mpi.streams[0].hosts[0].streams == $n'
check "playback: some streams held ($(jq .streams[0].max_streams "$J"))" jqe '.streams[0].max_streams >= 1' "$J"
check "playback: the answer's streams spread round-robin over the 3 ranks" jqe "$spread" "$J"
# the job's figures are the sum of the ranks' own, from the per-stream
# figures: stream i of a step is rank (i mod 3)'s
check "playback: each rank's frames are its streams' frames" jqe '
  . as $doc | [.streams[0].steps[] | .per_stream | to_entries[] | {r: (.key % 3), d: .value.done, b: .value.bytes}]
  | group_by(.r) | map({d: (map(.d) | add), b: (map(.b) | add)}) as $mine
  | [$doc.mpi.ranks[] | {d: .items, b: .bytes}] == $mine' "$J"
check "playback: a step's bytes are its streams' bytes" \
  jqe '[.streams[0].steps[] | .bytes == ([.per_stream[].bytes] | add)] | all' "$J"
check "playback: the job's bytes are the ranks' bytes" jqe '.mpi.bytes == ([.mpi.ranks[].bytes] | add)' "$J"
# the rows came as fixed-size records (MPI_Igather): no rank's document is
# sent or kept, so no row carries one
check "playback: the rows carry no rank's document" jqe '[.mpi.ranks[] | .result == null] | all' "$J"
check "playback: every step has its N streams' figures" \
  jqe '[.streams[0].steps[] | (.per_stream | length) == .streams] | all' "$J"
check "playback: a step holds when every stream does, its drops their sum" \
  jqe '[.streams[0].steps[] | (.dropped == ([.per_stream[].dropped] | add))
        and (if .held then ([.per_stream[] | .dropped == 0 and .done == .scheduled] | all) else true end)]
       | all' "$J"
# each rank made its DIR/rank.N and removes it, empty, at the end
check "playback: nothing left, the ranks' directories included ($(ls -A "$D" | tr '\n' ' '))" \
  test -z "$(ls -A "$D")"

# ---- capture, 2 ranks (no time left for the sustained step) -------------
J=$T_DIR/cap.json
expect_rc 0 "capture under mpirun -np 2" "${MPI[@]}" -np 2 "$STORMARK" streams --rate-mib 1 --capture \
  --step 1 --time 4 --max-streams 3 --json="$J" "$D"
check "capture: the rank table" grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/out"
check "capture: the answer's streams spread round-robin over the 2 ranks" jqe "$spread" "$J"
check "capture: every step has its N streams' figures" \
  jqe '[.streams[0].steps[] | (.per_stream | length) == .streams] | all' "$J"
check "capture: the first step's stream wrote (rank 0)" \
  jqe '.streams[0].steps[0].per_stream[0].done > 0 and .mpi.ranks[0].items > 0' "$J"
check "capture: nothing left behind ($(ls -A "$D" | tr '\n' ' '))" test -z "$(ls -A "$D")"
# a DIR/rank.N that was there before stays (stormark did not make it)
mkdir -p "$D/rank.1"
expect_rc 0 "capture with rank 1's directory there" "${MPI[@]}" -np 2 "$STORMARK" streams --rate-mib 1 \
  --capture --step 1 --time 2 --max-streams 1 --json="$T_DIR/cap2.json" "$D"
check "the directory that was there stays, the one made is gone" test -d "$D/rank.1" -a ! -e "$D/rank.0"
rmdir "$D/rank.1"

if python3 -c 'import jsonschema' 2>/dev/null; then
  for j in play cap; do
    check "$j: the job's JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
      "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/$j.json"
  done
fi

# ---- a rank that cannot start; --stonewall -------------------------------
E=$T_DIR/e; mkdir -p "$E"; : >"$E/rank.1"   # rank 1's directory is a file
# mpirun exits with the first failing rank's code: rank 1's 2 or rank 0's 1
expect_rc_says "1|2" "rank.1' is not a directory
a rank could not start" "a rank that cannot start stops the job, its reason and rank 0's said" \
  "${MPI[@]}" -np 2 "$STORMARK" streams --rate-mib 1 --play --step 1 --time 4 --max-streams 2 "$E"
check "nothing ran, rank 0's directory removed" test ! -e "$E/rank.0"
"${MPI[@]}" -np 2 "$STORMARK" streams --stonewall --rate-mib 1 --step 1 --time 4 "$D" >"$T_DIR/out" 2>&1
check "--stonewall with streams: a usage error" grep -q "does not apply to streams" "$T_DIR/out"
finish
