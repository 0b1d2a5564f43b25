# SPDX-License-Identifier: MIT
# `time -n N` stopped by SIGTERM or SIGHUP keeps its series: the runs
# measured before the signal are reported, saved with --save and marked
# interrupted, exit 130; a signal the command ignores still stops the
# series (docs/time.md). The signals are sent from the series itself (its
# --prepare, or the command) at a chosen run, so no timing is assumed.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# series NAME SIG TIME-ARGS...: run `stormark time` with its pid in NAME.pid
# (the commands of the series read it), the report in NAME.txt, its
# stderr in NAME.err, the JSON in NAME.json, saved under key NAME in h.db;
# the exit status in RC
series() {
  local name=$1; shift
  echo 0 >"$name.count"
  sh -c 'echo $$ >"$0.pid"; exec "$@"' "$name" "$S" time --json="$name.json" --save "$name" \
    --db h.db "$@" >"$name.txt" 2>"$name.err"
  RC=$?
}
# a shell snippet: count this call in NAME.count, and at call AT send SIG to stormark
at_call() { echo "n=\$(cat $1.count); echo \$((n + 1)) >$1.count; [ \$n = $3 ] && kill -$2 \$(cat $1.pid); true"; }

# the signal between runs 2 and 3 (in run 3's --prepare)
for sig in TERM HUP; do
  name=between_$sig
  series "$name" -n 5 --prepare "$(at_call "$name" "$sig" 2)" -- true
  check "$name: exit 130 (got $RC)" [ "$RC" = 130 ]
  check "$name: two runs reported" grep -q "^2 runs of 5 (interrupted by a signal)" "$name.txt"
  check "$name: the line after the report" grep -q "interrupted by signal .* after 2 of 5 runs" "$name.err"
  check "$name: the JSON says interrupted" [ "$(json "$name.json" "d['interrupted']")" = True ]
  check "$name: the JSON holds two runs" [ "$(json "$name.json" "len(d['time']['runs'])")" = 2 ]
  "$S" history --db h.db >hist.txt 2>&1
  check "$name: saved with two runs" grep -Eq "^$name +time +2 " hist.txt
done

# the signal during run 2, whose command ignores it: forwarded, the run
# ends well, and the series stops after it (it went on to 5 runs before)
name=ignored
series "$name" -n 5 -- sh -c "trap '' TERM; $(at_call "$name" TERM 1)"
check "$name: exit 130 (got $RC)" [ "$RC" = 130 ]
check "$name: two runs reported" grep -q "^2 runs of 5 (interrupted by a signal)" "$name.txt"
check "$name: the command ran twice" [ "$(cat "$name.count")" = 2 ]
check "$name: the JSON says interrupted" [ "$(json "$name.json" "d['interrupted']")" = True ]

# a signal the forwarded command dies of: its status, the runs reported
name=killed
series "$name" -n 5 -- sh -c "$(at_call "$name" TERM 1); [ \$n = 1 ] && exec sleep 30; true"
check "$name: the command's status 143 (got $RC)" [ "$RC" = 143 ]
check "$name: two runs reported" grep -q "^2 runs of 5 (interrupted by a signal); 1 with a non-zero" "$name.txt"
check "$name: the JSON says interrupted" [ "$(json "$name.json" "d['interrupted']")" = True ]

# a series that ends on its own is not interrupted
series plain -n 2 -- true
check "plain: exit 0 (got $RC)" [ "$RC" = 0 ]
check "plain: not interrupted" [ "$(json plain.json "d['interrupted']")" = False ]
finish
