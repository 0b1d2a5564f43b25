#!/bin/bash
# SPDX-License-Identifier: MIT
# --format openmetrics (docs/openmetrics.md): every command with a result
# (frames, fileio, run, streams, time, meta) and `report` of every golden print
# OpenMetrics text that Prometheus' own parser reads (python3-prometheus-
# client, tests/openmetrics_check.py), with "# EOF" last, units in the
# names, the common labels and the document's figures; a live run prints
# the bytes `report` prints from its saved JSON; -o FILE.prom is replaced
# whole; an MPI job's report is valid with its ranks; history and compare
# refuse the layout.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
"$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
  skip "python3-prometheus-client is missing (scripts/deps.sh installs it)"
CHECK="$SM_SOURCE_DIR/tests/openmetrics_check.py"

# parsed DESC OUT DOC.json [--prometheus]: OUT passes openmetrics_check.py
# against DOC (in the Prometheus text format with --prometheus)
parsed() {
  if "$PY" "$CHECK" ${4:+"$4"} "$2" "$3" >chk.out 2>&1; then ok
  else fail "$1: $(head -5 chk.out | tr '\n' ';')"; fi
}
# live DESC NAME: NAME.om (a live run's report, exit 0) parses and is what
# `report NAME.json --format openmetrics` prints; the same result in the
# Prometheus format parses too, with the same figures
live() {
  local d=$1 n=$2
  check "$d: exit 0 and a report" test -s "$n.om"
  parsed "$d" "$n.om" "$n.json"
  $S report "$n.json" --format openmetrics >"$n.rep" 2>rep.err
  if cmp -s "$n.om" "$n.rep"; then ok
  else fail "$d: live and report differ"; diff "$n.om" "$n.rep" | head -5 >&2; fi
  $S report "$n.json" --format prometheus >"$n.prom" 2>rep.err
  parsed "$d (prometheus)" "$n.prom" "$n.json" --prometheus
}

# ---- each command, small and short, live
mkdir fr
$S frames -w 1024 -n 10 --format openmetrics --json=f.json fr >f.om 2>/dev/null || rm -f f.om
live "frames write" f
check "frames: direction write, the directory tested" \
  grep -q 'stormark_frames_throughput_bytes_per_second{command="frames",host="[^"]*",dir="fr",\(device="[^"]*",\)\?direction="write"} ' f.om
$S frames -r -n 10 --format openmetrics --json=fr.json fr >fr.om 2>/dev/null || rm -f fr.om
live "frames read" fr
# a paced read: the frame rate is the one the report prints, the
# schedule's, not the I/O's over the run
$S frames -r -f 10 -n 10 --format openmetrics --json=fp.json fr >fp.om 2>/dev/null || rm -f fp.om
live "frames paced read" fp
check "frames paced: the rate is the report's Overall frame rate" test \
  "$(sed -n 's/^stormark_frames_rate_frames_per_second{.*} \(.*\)/\1/p' fp.om | xargs printf '%.2f')" = \
  "$($S report fp.json | sed -n 's/^Overall frame rate \.* \([0-9.]*\) fps.*/\1/p')"
mkdir fv
$S frames --video-format dpx-hd --fps 48 --capture -n 6 --format openmetrics --json=fv.json fv >fv.om 2>/dev/null
[ -s fv.om ] || fail "frames --video-format: no report"
live "frames --video-format" fv
check "frames: format label" grep -q 'stormark_frames_dropped_frames{.*direction="write",format="dpx-hd"}' fv.om

mkdir fi
FI="--file-total-size=2M --file-num=2 --file-dir=fi --file-test-mode=rndrw"
$S fileio $FI prepare >/dev/null 2>&1
$S fileio $FI --time=1 --format openmetrics --json=fi.json run >fi.om 2>/dev/null || rm -f fi.om
live "fileio" fi
# under the sysbench name: the document alone, no banner before it
SB=$T_DIR/sysbench
ln -s "$S" "$SB"
"$SB" fileio $FI --time=1 --format=openmetrics --json=sb.json run >sb.om 2>/dev/null || rm -f sb.om
live "sysbench fileio" sb
"$SB" fileio $FI --time=1 --format=json run >sbj.json 2>/dev/null
check "sysbench fileio --format=json: JSON alone" "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' sbj.json
check "fileio: per-op latency in seconds" \
  bash -c "grep '^stormark_fileio_latency_seconds{' fi.om | grep 'op=\"read\"' | grep -q 'quantile=\"0.99\"'"

mkdir rd
$S run rd --time 2 --quiet --engine null --no-confirm --formats dpx-hd,dpx-4k --fps 24,60 \
  --format openmetrics --json r.json >r.om 2>/dev/null || rm -f r.om
live "run" r
check "run: a verdict cell's ratio" \
  grep -q '^stormark_run_verdict_ratio{.*format="dpx-4k",direction="play",fps="60"} ' r.om
check "run: eight verdict cells, each verdict a value (0 to 3)" \
  test "$(grep -c '^stormark_run_verdict{.*} [0-3]$' r.om)" = 8
check "run: no verdict as a label" bash -c "! grep -q 'verdict=' r.om"

mkdir sd
$S streams sd --rate-mib 2 --step 1 --time 2 --max-streams 1 --quiet --format openmetrics \
  --json=s.json >s.om 2>/dev/null || rm -f s.om
live "streams" s
check "streams: max streams of the cell" grep -q '^stormark_streams_max_streams{.*direction="play",kind="file"} ' s.om

$S time --format openmetrics --json=t1.json -- true >t1.om 2>/dev/null || rm -f t1.om
live "time" t1
$S time -n 3 --format openmetrics --json=t3.json -- sh -c 'head -c 100000 /dev/zero >/dev/null' \
  >t3.om 2>/dev/null || rm -f t3.om
live "time -n 3" t3
check "time -n 3: the sd of wall seconds" grep -q '^stormark_time_wall_seconds{.*stat="stddev"} ' t3.om

# ---- an MPI job (when this stormark has MPI and mpirun is here): the
# job's merged figures and its ranks, rank 0's report
if [ "${SM_HAVE_MPI:-1}" != 0 ] && $S --version | head -1 | grep -q ' mpi[ )]' && command -v mpirun >/dev/null; then
  [ "${SM_SANITIZER:-none}" = none ] || export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  mkdir mp
  mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca rmaps_base_oversubscribe 1 -np 2 \
    $S frames -w 1024 -n 8 --format openmetrics --json=m.json mp >m.om 2>/dev/null || rm -f m.om
  live "frames as a 2-rank MPI job" m
  check "MPI: the ranks" grep -q '^stormark_mpi_ranks{.*state="reported"} 2$' m.om
fi

# ---- the key: --save's, its quote and backslash escaped (the checker
# compares the parsed label with the argv's key)
if $S --version | head -1 | grep -q ' sqlite[ )]'; then
  $S frames -w 1024 -n 4 --save 'vol "a"\b' --db h.db --format openmetrics --json=k.json fr >k.om 2>k.err
  live "--save key" k
  check "--save key: escaped" grep -q 'key="vol \\"a\\"\\\\b"' k.om
fi

# ---- -o FILE.prom: replaced whole, nothing left beside it
mkdir prom
echo old >prom/stormark.prom
$S report f.json --format openmetrics -o prom/stormark.prom
check "-o: the report" cmp -s f.om prom/stormark.prom
check "-o: no temporary file left" test "$(ls -A prom)" = stormark.prom
$S time --format openmetrics -o prom/stormark.prom -- true 2>/dev/null
check "-o live: ends with # EOF" test "$(tail -1 prom/stormark.prom)" = "# EOF"
# a live run in the Prometheus format prints what report prints of its JSON
$S time --format prometheus --json=tp.json -o prom/stormark.prom -- true 2>/dev/null
$S report tp.json --format prometheus >tp.prom
check "-o live prometheus: report's bytes" cmp -s tp.prom prom/stormark.prom
check "-o live prometheus: no # EOF" bash -c "! grep -q '# EOF' prom/stormark.prom"

# ---- every golden rendered again
for g in "$SM_SOURCE_DIR"/tests/golden/*/*.json; do
  n=$(basename "$(dirname "$g")")-$(basename "$g" .json)
  if $S report "$g" --format openmetrics >"g-$n.om" 2>/dev/null; then parsed "golden $n" "g-$n.om" "$g"
  else fail "golden $n: report exit $?"; fi
  if $S report "$g" --format prometheus >"g-$n.prom" 2>/dev/null; then
    parsed "golden $n (prometheus)" "g-$n.prom" "$g" --prometheus
  else fail "golden $n: report --format prometheus exit $?"; fi
done

# ---- the checker itself fails on a figure that is not the document's,
# a missing # EOF, a unit not in the name
sed 's/^\(stormark_frames_rate_frames_per_second{[^}]*}\) .*/\1 12345/' f.om >bad1.om
check "checker: a changed figure is caught" bash -c "! '$PY' '$CHECK' bad1.om f.json >/dev/null"
sed '$d' f.om >bad2.om
check "checker: no # EOF is caught" bash -c "! '$PY' '$CHECK' bad2.om f.json >/dev/null"
sed 's/^# UNIT stormark_frames_transferred_bytes bytes$/# UNIT stormark_frames_transferred_bytes seconds/' f.om >bad3.om
check "checker: a unit not in the name is caught" bash -c "! '$PY' '$CHECK' bad3.om f.json >/dev/null"
sed 's/^\(stormark_frames_rate_frames_per_second{[^}]*\)}/\1,verdict="x"}/' f.prom >bad4.prom
check "checker: a verdict label is caught" bash -c "! '$PY' '$CHECK' --prometheus bad4.prom f.json >/dev/null"
sed 's/,dir="fr"//' f.prom >bad5.prom
check "checker: a sample without the directory is caught" \
  bash -c "! '$PY' '$CHECK' --prometheus bad5.prom f.json >/dev/null"

# ---- commands without a result
expect_usage "history refuses openmetrics" $S history --format openmetrics
expect_usage "compare refuses openmetrics" $S compare --format openmetrics f.json f.json
check "--help lists it" bash -c "'$S' frames --help | grep -q openmetrics"
check "--help lists prometheus" bash -c "'$S' frames --help | grep -q prometheus"
expect_usage "history refuses prometheus" $S history --format prometheus

finish
