# SPDX-License-Identifier: MIT
# SIGINT under the frametest name: a run started with SIGINT ignored (a
# background job of a script, `trap '' INT; exec frametest ...`) keeps it
# ignored and finishes with its full report, exit 0, as frametest leaves
# an inherited ignore; with SIGINT at its default the run stops with the
# report so far, exit 130; under `stormark frames` SIGINT always stops the
# run with a report (docs/compat.md).
. "$SM_SOURCE_DIR/tests/lib.sh"
env --default-signal=INT true 2>/dev/null || skip "env --default-signal is needed"
FT="$SM_BUILD_DIR/frametest"
if [ ! -x "$FT" ]; then ln -s "$STORMARK" "$T_DIR/frametest"; FT="$T_DIR/frametest"; fi
D="$T_DIR/set"
# a paced write of 30 frames at 10 fps: 3 s, which the signal comes well before
W=(-w 64 -n 30 -f 10 -t 1)
# sigint_run HOW CMD...: start CMD in the background with SIGINT as HOW says
# (ignore|default), wait until it has written its third frame (its
# handlers are in place by then), send SIGINT, wait; sets rc
sigint_run() {
  local how=$1 pid; shift
  rm -rf "$D"; mkdir -p "$D"
  if [ "$how" = ignore ]; then
    (trap '' INT; exec "$@") >"$T_DIR/o" 2>"$T_DIR/e" &
  else
    env --default-signal=INT "$@" >"$T_DIR/o" 2>"$T_DIR/e" &
  fi
  pid=$!
  for _ in $(seq 400); do [ -e "$D/frame000002.tst" ] && break; sleep 0.025; done
  check "$how: the run started before the signal" test -e "$D/frame000002.tst"
  kill -INT "$pid"; wait "$pid"; rc=$?
}
sigint_run ignore "$FT" "${W[@]}" "$D"
check "frametest, SIGINT ignored: exit 0 (got $rc)" test "$rc" = 0
check "frametest, SIGINT ignored: every frame written" grep -qx "Frames transferred: 30 (1.875 MB)" "$T_DIR/o"
check "frametest, SIGINT ignored: not interrupted" sh -c "! grep -q interrupted '$T_DIR/e'"
sigint_run default "$FT" "${W[@]}" "$D"
check "frametest, SIGINT default: exit 130 (got $rc)" test "$rc" = 130
check "frametest, SIGINT default: the report so far" grep -q "^Frames transferred: " "$T_DIR/o"
check "frametest, SIGINT default: not every frame" sh -c "! grep -q '^Frames transferred: 30 ' '$T_DIR/o'"
sigint_run ignore "$STORMARK" frames "${W[@]}" "$D"
check "stormark frames, SIGINT ignored: still stops, exit 130 (got $rc)" test "$rc" = 130
check "stormark frames, SIGINT ignored: the report so far" grep -q "^Frames transferred: " "$T_DIR/o"
finish
