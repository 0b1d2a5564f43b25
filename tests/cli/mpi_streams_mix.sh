#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark streams --mix` as an MPI job on this machine (docs/mpi.md): the
# mix's streams spread over the ranks as a step's streams are (stream i on
# rank i mod P, the mix's first, then the searched ones), in the mix run
# alone and in every step of the search beside it. Checked: each rank's
# bytes and frames are those of its streams (from the per-stream figures,
# placed by that rule), the table of the mix's streams per rank and host
# counts them, every step carries the mix, nothing is left, the JSON fits
# the schema and `report` gives it back. Light rates, 1 s steps: about 15 s.
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job
command -v jq >/dev/null || skip "jq reads the JSON"
jqe() { jq -e "$@" >/dev/null; }
D=$T_DIR/d; mkdir -p "$D"
J=$T_DIR/m.json

"${MPI[@]}" -np 2 "$STORMARK" streams --mix '2xprores-proxy-hd@25:play,1xv210-sd-ntsc@23.976:capture' \
  --rate-mib 2 --play --step 1 --time 20 --max-streams 3 --json="$J" "$D" >"$T_DIR/out" 2>&1
rc=$?
check "exit 0 when the mix holds, 1 when not (exit $rc)" \
  sh -c "[ '$rc' = 0 -a \"\$(jq .mix.held '$J')\" = true ] || [ '$rc' = 1 -a \"\$(jq .mix.held '$J')\" = false ]"
check "the mix table" grep -qx '1xv210-sd-ntsc@23.976:capture' "$T_DIR/out"
check "the rank table" grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/out"
check "the mix's streams per rank and host" grep -q "^The mix's streams per rank and host (stream i on rank i mod 2):" "$T_DIR/out"
check "the mix alone: its 3 streams over 2 ranks, 2 + 1" \
  jqe '[.mpi.mix.ranks[] | .streams] == [2, 1] and .mpi.mix.hosts[0].streams == 3' "$J"
check "the mix alone: the ranks' held streams are the streams that held" \
  jqe '([.mpi.mix.ranks[].held] | add) == .mix.total.streams_held' "$J"
# every stream's bytes, placed by the rule: the mix alone (mix stream i
# on rank i mod 2), then each step (the mix's i on i mod 2, the searched
# stream j on (3 + j) mod 2)
check "each rank's bytes and frames are its streams'" jqe '
  . as $d
  | ([$d.mix.step.per_stream | to_entries[] | {r: (.key % 2), b: .value.bytes, f: .value.done}]
     + [$d.streams[].steps[] | (.mix.per_stream | to_entries[] | {r: (.key % 2), b: .value.bytes, f: .value.done}),
        (.per_stream | to_entries[] | {r: ((3 + .key) % 2), b: .value.bytes, f: .value.done})])
  | group_by(.r) | map({b: (map(.b) | add), f: (map(.f) | add)})
  == [$d.mpi.ranks[] | {b: .bytes, f: .items}]' "$J"
if jq -e '.mix.held' "$J" >/dev/null; then
  check "every step of the search carried the mix's 3 streams" \
    jqe '([.streams[0].steps[] | (.mix.per_stream | length) == 3] | all) and (.streams[0].steps | length) > 0' "$J"
  check "the answer's streams counted after the mix's (stream 3 + j on rank (3 + j) mod 2)" jqe '
    .streams[0].max_streams as $n | .mpi.streams[0].ranks | map(.streams)
    == [([range($n) | select((3 + .) % 2 == 0)] | length), ([range($n) | select((3 + .) % 2 == 1)] | length)]' "$J"
fi
check "nothing left, the ranks' directories included ($(ls -A "$D" | tr '\n' ' '))" test -z "$(ls -A "$D")"
"$STORMARK" report --format json "$J" >"$T_DIR/m2.json" 2>&1
check "report --format json gives the job's JSON back" cmp -s "$J" "$T_DIR/m2.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "the job's JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$J"
fi
finish
