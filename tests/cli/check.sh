#!/bin/bash
# SPDX-License-Identifier: MIT
# The result checker (stormark report --check, docs/report.md): every
# golden result keeps its invariants (but the known contradictions of
# tests/check_known.tsv); a result with one figure changed is caught under
# the right invariant; the interface (one line per violation, exit codes,
# refusals); and the end-of-test hook of tests/lib.sh, which checks every
# result a test leaves.
. "$SM_SOURCE_DIR/tests/lib.sh"
G="$SM_SOURCE_DIR/tests/golden"
S="$STORMARK"

# ---- the golden results ----
goldens=("$G"/*/*.json)
check "golden results to check" test "${#goldens[@]}" -ge 14
"$S" report --check "${goldens[@]}" >"$T_DIR/golden.out" 2>"$T_DIR/golden.err"
rc=$?
check "goldens: every file is a result the checker reads (exit 0 or 1, got $rc)" test "$rc" -le 1
check "goldens: nothing on stderr" test ! -s "$T_DIR/golden.err"
t_check_filter <"$T_DIR/golden.out" >"$T_DIR/golden.new"
if [ -s "$T_DIR/golden.new" ]; then fail "goldens: violations not known"; sed 's/^/  | /' "$T_DIR/golden.new" | head -20 >&2
else ok; fi
echo "golden results checked: ${#goldens[@]}"
# each known exception is still needed by some golden file or is one that
# only live runs show; either way it names an invariant the checker has
while IFS=$'\t' read -r id re why; do
  case $id in ''|'#'*) continue ;; esac
  check "known exception '$id' names an invariant of docs/report.md" grep -q "^| \`$id\` |" "$SM_SOURCE_DIR/docs/report.md"
done <"$SM_SOURCE_DIR/tests/check_known.tsv"

# ---- the invariants listed in docs/report.md are the checker's ----
grep -o '^	{ "[a-z.-]*",' "$SM_SOURCE_DIR/src/check/inv.c" | tr -d '\t{", ' | sort >"$T_DIR/ids.c"
grep -oE '^\| `[a-z-]+\.[a-z.-]+` \|' "$SM_SOURCE_DIR/docs/report.md" | tr -d '|` ' | sort >"$T_DIR/ids.md"
check "docs/report.md lists every invariant, and no other" cmp -s "$T_DIR/ids.c" "$T_DIR/ids.md"
check "there are invariants to list" test "$(wc -l <"$T_DIR/ids.c")" -ge 40

# ---- a changed figure is caught, under its invariant ----
# broken NAME ID JQ-FILTER RESULT: the result (a golden one's path under
# tests/golden, or a file) with the filter applied must fail the check with
# a line of ID.
broken() {
  local name=$1 id=$2 filter=$3 src=$4
  case $src in /*) ;; *) src=$G/$src ;; esac
  jq "$filter" "$src" >"$T_DIR/$name.json" || { fail "$name: jq"; return; }
  t_check_skip "$T_DIR/$name.json"
  "$S" report --check "$T_DIR/$name.json" >"$T_DIR/$name.out" 2>&1
  local rc=$?
  if [ "$rc" = 1 ] && grep -q "^$T_DIR/$name.json: $id: " "$T_DIR/$name.out"; then ok
  else fail "$name: exit $rc, wanted 1 and a '$id' line"; head -5 "$T_DIR/$name.out" >&2; fi
}
broken frames-rate totals.rate '.totals.items_per_s *= 1.01' frames/write.json
broken frames-series frames.series-sum '.series.items[0] += 1' frames/write.json
broken frames-lat lat.figures '.ops.frame.lat_ns.p99 += 1000' frames/write.json
broken frames-window frames.windows '.frames.windows.overall.frames -= 1' frames/paced-read.json
broken frames-drop frames.share '.frames.longest_drop_run = 10' frames/paced-read.json
broken fileio-events fileio.events '.fileio.events += 1' fileio/async.json
broken fileio-busy fileio.busy '.fileio.thread_busy_ns[0] = .duration_ns + 1' fileio/rndrw.json
broken run-computed verdict.computed '.run.verdicts[0].capture[0].computed = "realtime" | .run.verdicts[0].capture[0].verdict = "realtime"' run/paced.json
broken run-how verdict.how '.run.verdicts[0].playback[0].verdict = "marginal"' run/null.json
broken run-model verdict.model '.run.verdicts[0].playback[0].measured_bytes_per_s *= 2 | .run.verdicts[0].playback[0].burst_measured_bytes_per_s *= 2 | .run.verdicts[0].playback[0].ratio *= 2' run/null.json
broken run-rate run.rate '.run.classic[0].read.iops += 1' run/paced.json
broken time-stats time.stats '.time.stats.wall_ns.mean += 1000' time/three.json
broken streams-step streams.step-sum '.streams[0].steps[0].bytes += 4096' streams/short.json
broken streams-answer streams.answer '.streams[1].max_streams_headroom = 2' streams/short.json
# a figure only a layout shows wrong: a rate in the JSON that the text prints
broken layout-rate sysbench.figures '.fileio.reads_per_s += 1' fileio/rndrw.json
# a yes whose ratio says ~ (1.1: below the 20% headroom yes needs)
broken yes-at-1.1 verdict.computed '.run.verdicts[0].playback[0] |= (.ratio = 1.1
  | .measured_bytes_per_s = .needed_bytes_per_s * 1.1 | .burst_measured_bytes_per_s = .measured_bytes_per_s)' run/null.json
# an MPI job's totals that are no longer its ranks' sum
broken mpi-sum mpi.sum '.mpi.ranks[1].bytes += 4096' mpi/frames.json
broken mpi-totals mpi.sum '.totals.bytes += 4096 | .mpi.ranks[].result = null' mpi/frames.json
# a share over 100%: --verify's hashing time above the run's (a fileio run
# of its own: no golden result was made with --verify)
(cd "$T_DIR" && "$S" fileio --file-total-size=1M --file-num=1 prepare >/dev/null &&
  "$S" fileio --file-total-size=1M --file-num=1 --file-test-mode=seqwr --events=64 --time=0 \
    --verify --json=v.json run >/dev/null 2>&1)
check "a --verify run to break" test -s "$T_DIR/v.json"
broken verify-share verify.share '.verify.hash_share = 1.5' "$T_DIR/v.json"
# a fileio series that no longer adds up to the totals (the run's own
# series, with its partial last interval, does)
broken fileio-series fileio.series-sum '.series.writes[-1] -= 1' "$T_DIR/v.json"

# fileio's text layout cut a mean to whole ns before printing it (847.7 ns
# was "847 ns" there, "848 ns" in markdown): three reads of 200, 201, 201 ns
jq '.ops.read.count = 3 | .ops.read.lat_ns = {"min": 200, "mean": 200.66666666666666, "max": 201,
  "stddev": 0.4714045207910317, "p50": 201, "p90": 201, "p95": 201, "p99": 201, "p99_9": 201,
  "p99_99": 201, "histogram": {"sub_bits": 8, "sum": 602, "m2": 0.6666666666666666,
  "counts": [[200, 1], [201, 2]]}}' "$G/fileio/rndrw.json" >"$T_DIR/submicro.json"
t_check_skip "$T_DIR/submicro.json"
"$S" report --check "$T_DIR/submicro.json" >"$T_DIR/submicro.out" 2>&1
if grep -q 'text.figures' "$T_DIR/submicro.out"; then fail "fileio text: a mean under 1 us as markdown prints it"
else ok; fi
check "fileio text: the mean cell (latency table) reads 201 ns" \
  test "$("$S" report "$T_DIR/submicro.json" --format text |
    awk '$1 == "read" && ++n == 2 { print $2, $3 }')" = "201 ns"

# ---- the interface ----
"$S" report --check "$G/time/three.json" >"$T_DIR/clean.out" 2>&1
check "a clean result: exit 0" test $? = 0
check "a clean result: prints nothing" test ! -s "$T_DIR/clean.out"
expect_usage "--check refuses --format" "$S" report --check --format csv "$G/time/three.json"
expect_usage "--check refuses -o" "$S" report --check -o "$T_DIR/x" "$G/time/three.json"
expect_usage "--check needs a file" "$S" report --check
echo '{"compare": 1}' >"$T_DIR/notres.json"
t_check_skip "$T_DIR/notres.json"
"$S" report --check "$T_DIR/notres.json" "$G/time/three.json" >"$T_DIR/nr.out" 2>"$T_DIR/nr.err"
check "a file that is not a result: exit 2" test $? = 2
check "... one line on stderr naming it" test "$(grep -c notres.json "$T_DIR/nr.err")" = 1
check "... the other file still checked" test ! -s "$T_DIR/nr.out"
"$S" report --check "$T_DIR/frames-rate.json" "$T_DIR/fileio-events.json" >"$T_DIR/two.out" 2>&1
check "two files: each one's lines" test "$(cut -d: -f1 "$T_DIR/two.out" | sort -u | wc -l)" = 2
"$S" report --help >"$T_DIR/help" 2>&1
check "--help names --check" grep -q -- '--check' "$T_DIR/help"

# ---- the hook: a test that leaves a broken result fails ----
hook() {   # hook NAME KNOWN-FILE SKIP: a test script that leaves frames-rate.json
  cat >"$T_DIR/$1.sh" <<EOF
. "$SM_SOURCE_DIR/tests/lib.sh"
cp "$T_DIR/frames-rate.json" "\$T_DIR/left.json"
[ "$3" = skip ] && t_check_skip "\$T_DIR/left.json"
ok
finish
EOF
  T_CHECK_KNOWN=$2 bash "$T_DIR/$1.sh" >"$T_DIR/$1.out" 2>&1
}
: >"$T_DIR/none.tsv"
for id in totals.rate frametest.figures csv.figures markdown.figures; do
  printf '%s\titems_per_s\tfor the test\n' "$id"
done >"$T_DIR/known.tsv"
hook plain "$T_DIR/none.tsv" no
check "hook: a broken result fails the test" test $? = 1
check "hook: it names the violation" grep -q 'totals.rate: totals.items_per_s' "$T_DIR/plain.out"
hook known "$T_DIR/known.tsv" no
check "hook: a known exception is tolerated" test $? = 0
hook skipped "$T_DIR/none.tsv" skip
check "hook: a result named with t_check_skip is left alone" test $? = 0
finish
