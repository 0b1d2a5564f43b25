#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fileio --steady, --steady-round, --steady-rounds and --precondition: the
# command lines refused (one line, exit 2; the sysbench name refuses them
# as sysbench refuses an unknown option), a short run's rounds, window and
# report in every layout, and a saved result rendered again byte for byte.
# Ground truth (a blkio throttle) is in steady_throttle.sh.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
jqe() { jq -e "$@" >/dev/null; }
SET=(--file-num=2 --file-total-size=4M)

expect_usage "--steady with --time" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady --time=5 run
expect_usage "--steady with --events" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady --events=10 run
expect_usage "--steady-round without --steady" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady-round=2 run
expect_usage "--steady-rounds without --steady" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady-rounds=9 run
expect_usage "--steady-rounds below 5" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady --steady-rounds=4 run
expect_usage "--steady-round of 0" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady --steady-round=0 run
expect_usage "--steady with --verify" $S fileio "${SET[@]}" --file-test-mode=rndrd --steady --verify run
expect_usage "--precondition with --validate" $S fileio "${SET[@]}" --file-test-mode=rndrd --precondition --validate run
expect_usage "--steady on prepare" $S fileio "${SET[@]}" --steady prepare
ln -s "$S" sysbench
expect_rc 1 "the sysbench name has no --steady" ./sysbench fileio "${SET[@]}" --file-test-mode=rndrd --steady run
check "  ... and says so as sysbench does" grep -q "invalid option: --steady" "$T_DIR/out"
$S fileio --help >help.out
# the description wraps where it wraps: read it as one line
check "--help explains the cost of --precondition" grep -q "2 x --file-total-size / the write rate" \
  <(tr -s ' \n' '  ' <help.out)

$S fileio "${SET[@]}" prepare >/dev/null 2>&1 || fail "prepare"
# five 1-second rounds at most: steady or not, five rounds end it
$S fileio "${SET[@]}" --file-test-mode=rndrw --steady --steady-round=1 --steady-rounds=5 --precondition \
  --json=s.json run >s.live 2>s.err
check "a steady run: exit 0" test $? = 0
jqe '(.steady.rounds | length) == 5 and .steady.metric == "iops" and .steady.round_ns == 1000000000 and
     .steady.max_rounds == 5 and .steady.rule.window_rounds == 5 and .steady.rule.range_limit == 0.2 and
     .steady.rule.excursion_limit == 0.1' s.json && ok || fail "steady: rounds, metric and rule in the JSON"
jqe '.steady.window.first_round == 1 and .steady.window.rounds == 5 and
     .steady.reached == .steady.window.steady and
     (if .steady.reached then .steady.reached_at_round == 5 else .steady.reached_at_round == null end)' s.json &&
  ok || fail "steady: the window is the five rounds"
# the window's figure is the average of its rounds, each rounds' figure its IOPS
jqe '([.steady.rounds[].figure] | add / 5) as $a | ((.steady.window.avg - $a) | fabs) < 1e-6 * $a' s.json &&
  ok || fail "steady: the window's average is its rounds'"
jqe '(.duration_ns - ([.steady.rounds[].duration_ns] | add)) == 0 and .duration_ns > 4.9e9' s.json &&
  ok || fail "steady: the report's duration is the sum of the window's rounds"
# the report's IOPS is the window's rounds merged: their I/Os (each round's
# IOPS x its duration) over their summed duration; the window's average is
# the plain mean of the rounds' figures, which differs from it when a loaded
# machine stretches a round
jqe '([.steady.rounds[] | .figure * .duration_ns] | add) as $ops | ([.steady.rounds[].duration_ns] | add) as $d |
     ((.fileio.reads_per_s + .fileio.writes_per_s) - $ops / $d | fabs) < 1e-4 * ($ops / $d)' s.json &&
  ok || fail "steady: the report's IOPS is the window's rounds merged"
jqe '.precondition.bytes == 8388608 and .precondition.target_bytes == 8388608 and .precondition.block_bytes == 131072' s.json &&
  ok || fail "precondition: twice the set in 128 KiB requests"
# (the sentence is wrapped at 79 columns: read across its lines)
check "the sysbench layout says it in words" sh -c "tr '\n' ' ' <s.live | tr -s ' ' |
  grep -Eq 'steady state \(SNIA PTS.*(reached at round 5|NOT reached in 5 rounds)'"
check "  ... with the precondition" grep -q "^precondition: 8.00 MiB of 8.00 MiB written" s.live
check "one progress line per round" test "$(grep -c '^stormark: steady round' s.err)" = 5
check "the saved result renders as the live run printed it" sh -c "$S report s.json | cmp -s - s.live"
$S fileio "${SET[@]}" --file-test-mode=seqrd --steady --steady-round=1 --steady-rounds=5 --format=text \
  --json=t.json run >t.live 2>/dev/null
check "text layout: exit 0" test $? = 0
check "text layout says it" grep -Eq "^steady state \(SNIA PTS: the last 5 rounds' bandwidth" t.live
jqe '.steady.metric == "bytes_per_s"' t.json && ok || fail "a sequential mode tracks bandwidth"
check "text: rendered again the same" sh -c "$S report t.json --format text | cmp -s - t.live"
$S report t.json --format markdown >t.md
check "markdown has a steady-state section" grep -q "^## Steady state" t.md
if /usr/bin/python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
  check "the JSON validates" /usr/bin/python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" s.json t.json
fi
# a damaged steady part is refused, not rendered
jq '.steady.reached_at_round = 7 | .steady.reached = true' s.json >bad.json
expect_rc 2 "a reached_at_round outside the rounds is refused" $S report bad.json
$S fileio "${SET[@]}" cleanup >/dev/null 2>&1
finish
