# SPDX-License-Identifier: MIT
# The body of tests/cli/run_throttle_{read,write}.sh, sourced after
# tests/lib.sh with DIR (read or write: the throttled direction) and PHASE
# (playback or capture: the verdict column it decides) set. Ground truth for
# verdicts: inside a blkio cgroup that throttles DIR to 100 MiB/s, a format
# needing 40% of that (dpx-sd-pal at 24 fps, 41 MB/s) is real time and one
# needing 7.6 times that (dpx-uhd at 24 fps, 798 MB/s) is not; paced runs
# (--confirm-all) must agree.
mkdir -p "$T_DIR/probe"
if "$STORMARK" frames -w 4 -n 1 "$T_DIR/probe" 2>&1 | grep -q "not implemented"; then
  skip "stormark frames is not implemented yet (sm_frames_run)"
fi
RATE=$((100 * 1024 * 1024))
t_cgroup_throttle "$DIR" "$RATE" "$T_DIR" || skip "cannot set up a blkio $DIR throttle (cgroup v1 blkio not writable here)"

D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/run.json"
cell() { jq -r --arg f "$1" --arg d "$2" '.run.verdicts[] | select(.format == $f) | .[$d][0] | "\(.verdict) \(.how)"' "$J"; }
paced_agree() {
  jq -e --arg p "$PHASE" >/dev/null '
    [.run.verdicts[] | . as $v | .[$p][] | select(.how == "paced") |
     if $v.format == "dpx-sd-pal" then .paced.dropped == 0 else .paced.dropped > 0 end] | all' "$J"
}
verdicts_hold() {
  [ "$(cell dpx-sd-pal $PHASE | cut -d' ' -f1)" = realtime ] &&
    [ "$(cell dpx-uhd $PHASE | cut -d' ' -f1)" = not-realtime ] && paced_agree
}
# This machine's disk is shared with others: one stall of a few hundred ms
# drops a frame whatever the throttle allows. A second run is allowed when
# the first disagrees (its paced figures are printed); both disagreeing
# fails.
for attempt in 1 2; do
  t_cgroup_exec "$STORMARK" run "$D" --time 20 --quiet --formats dpx-sd-pal,dpx-uhd --fps 24 \
    --confirm-all --json "$J" >"$T_DIR/run.out" 2>&1
  rc=$?
  [ "$rc" = 0 ] && verdicts_hold && break
  [ "$attempt" = 1 ] || break
  echo "attempt 1 disagreed with the throttle (exit $rc); its paced $PHASE runs:"
  jq -c --arg p "$PHASE" '.run.verdicts[] | {format, ($p): [.[$p][] | {verdict, how, paced}]}' "$J" 2>/dev/null
done
if [ "$rc" = 0 ]; then ok; else fail "throttled run: exit $rc"; tail -5 "$T_DIR/run.out" >&2; fi

echo "dpx-sd-pal $PHASE: $(cell dpx-sd-pal $PHASE); dpx-uhd $PHASE: $(cell dpx-uhd $PHASE)"
check "well under the $DIR throttle: $PHASE is real time" test "$(cell dpx-sd-pal $PHASE | cut -d' ' -f1)" = realtime
check "well over the $DIR throttle: $PHASE is not real time" test "$(cell dpx-uhd $PHASE | cut -d' ' -f1)" = not-realtime

# The frame tests themselves: the 2K frame rate cannot beat the throttle by
# much (the throttle allows a short initial burst).
w2k=$(jq --arg d "$DIR" '.run.frames[] | select(.preset == "2k") | .[$d].bytes_per_s' "$J")
echo "2k frame $DIR under a $RATE B/s throttle: $w2k B/s"
check "2K frame ${DIR}s are held by the throttle" awk -v a="$w2k" -v r="$RATE" 'BEGIN { exit !(a > 0 && a <= 1.5 * r) }'
# Any paced $PHASE run agrees: no drop for sd-pal, drops for uhd.
check "paced runs agree with the throttle" paced_agree
if ! paced_agree; then
  jq -c --arg p "$PHASE" '.run.verdicts[] | {format, ($p): [.[$p][] | {verdict, how, paced}]}' "$J"
fi
check "nothing left behind" test -z "$(ls -A "$D")"

finish
