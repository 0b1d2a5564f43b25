# SPDX-License-Identifier: MIT
# SIGINT under the sysbench name against real sysbench 1.0.20
# (tests/golden/sysbench-1.0.20/sigint.txt): a run started with SIGINT
# ignored (a background job of a script, `trap '' INT`) keeps it ignored and
# finishes with its full report; with SIGINT at its default the run stops
# with a partial report, exit 130 (stormark's deliberate difference). Under
# `stormark fileio` SIGINT always stops the run with a report (docs).
. "$SM_SOURCE_DIR/tests/lib.sh"
env --default-signal=INT true 2>/dev/null || skip "env --default-signal is needed"
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
cd "$T_DIR" || exit 1
SMALL="--file-total-size=8M --file-num=4"
"$SB" fileio $SMALL prepare >/dev/null || { fail "prepare"; finish; }
# start CMD... in the background with SIGINT as `how` says (ignore|default),
# wait for the workers, send SIGINT, wait; sets rc
sigint_run() {
  local how=$1; shift
  if [ "$how" = ignore ]; then
    (trap '' INT; exec "$@") >"$T_DIR/o" 2>"$T_DIR/e" &
  else
    env --default-signal=INT "$@" >"$T_DIR/o" 2>"$T_DIR/e" &
  fi
  local pid=$!
  for _ in $(seq 200); do grep -q "Threads started" "$T_DIR/o" 2>/dev/null && break; sleep 0.05; done
  sleep 0.3; kill -INT $pid; wait $pid; rc=$?
}
# the run must outlast the signal: a time limit the signal comes well before
sigint_run ignore "$SB" fileio $SMALL --file-test-mode=rndrd --time=3 run
check "sysbench, SIGINT ignored: exit 0 (got $rc)" test "$rc" = 0
check "sysbench, SIGINT ignored: the full report" grep -q "total number of events" "$T_DIR/o"
check "sysbench, SIGINT ignored: not interrupted" test -z "$(grep -Ev "^stormark: (warning|note): " "$T_DIR/e")"
sigint_run default "$SB" fileio $SMALL --file-test-mode=rndrd --time=30 run
check "sysbench, SIGINT default: exit 130 (got $rc)" test "$rc" = 130
check "sysbench, SIGINT default: partial report" grep -q "total number of events" "$T_DIR/o"
sigint_run ignore "$STORMARK" fileio $SMALL --file-test-mode=rndrd --time=30 run
check "stormark fileio, SIGINT ignored: still stops, exit 130 (got $rc)" test "$rc" = 130
check "stormark fileio, SIGINT ignored: partial report" grep -q "total number of events" "$T_DIR/o"
finish
