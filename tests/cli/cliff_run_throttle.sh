#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for verdicts from what lasts (docs/run.md): `stormark run
# --time 40` in a blkio cgroup whose write throttle is 200 MiB/s and falls
# to 40 MiB/s 4 s into the sustained 2K write. The run must report the
# cliff within 1 s of the change, the burst within 10% of 200 MiB/s and
# the sustained rate within 5% of 40 MiB/s, and rate a capture of
# dpx-hd720 at 24 fps (84.5 MiB/s, between the two) "no" where the burst
# alone would have said "yes", marked "!" with the reason in the footnote.
# The per-second series the HTML report charts shows the two rates, and the
# page marks the cliff on the sustained write's rate chart.
. "$SM_SOURCE_DIR/tests/lib.sh"

MIB=$((1024 * 1024))
HI=200 LO=40 AT=4
t_cgroup_throttle write $((HI * MIB)) "$T_DIR" || skip "cannot set up a blkio write throttle (cgroup v1 blkio not writable here)"
DEVNO=$(t_disk_devno "$T_DIR")
D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/run.json"

# The throttle falls AT s after the sustained write's directory appears
# (the write starts a few ms after: within the 1 s the test allows).
(
  for _ in $(seq 1 1200); do
    compgen -G "$D/.stormark-run-*/frames-2k" >/dev/null && break
    sleep 0.05
  done
  sleep "$AT"
  echo "$DEVNO $((LO * MIB))" >"$T_CGROUP/blkio.throttle.write_bps_device"
) &
changer=$!
t_cgroup_exec "$STORMARK" run "$D" --time 40 --quiet --no-confirm --video-formats dpx-hd720 \
  --fps 24 --json "$J" --html "$T_DIR/run.html" >"$T_DIR/run.out" 2>&1
rc=$?
wait "$changer"
check "throttled run (exit $rc)" test "$rc" = 0
[ "$rc" = 0 ] || tail -5 "$T_DIR/run.out" >&2
w() { jq -r ".run.frames[] | select(.preset == \"2k\") | .write.$1" "$J"; }
cell() { jq -r ".run.verdicts[] | select(.format == \"dpx-hd720\") | .capture[0].$1" "$J"; }
at=$(w 'cliff.at_ns / 1e9')
burst=$(w 'cliff.burst_bytes_per_s / 1048576')
sus=$(w 'cliff.sustained_bytes_per_s / 1048576')
echo "sustained write $(jq '.params.sustained_write_ns / 1e9' "$J") s; throttle $HI -> $LO MiB/s" \
  "at $AT s: cliff found $(w cliff.found) at $at s, burst $burst MiB/s, sustained $sus MiB/s," \
  "ratio $(w cliff.ratio), t $(w cliff.t); whole write $(w 'bytes_per_s / 1048576') MiB/s"
echo "dpx-hd720 capture at 24 fps: $(cell verdict) (needed $(cell 'needed_bytes_per_s / 1048576')" \
  "MiB/s, measured $(cell 'measured_bytes_per_s / 1048576'), burst alone" \
  "$(cell 'burst_measured_bytes_per_s / 1048576'), cliff $(cell cliff))"
check "the cliff is found" test "$(w cliff.found)" = true
check "the cliff within 1 s of the change" approx "$at" "$AT" 0.25
check "the burst within 10% of $HI MiB/s" approx "$burst" "$HI" 0.10
check "the sustained rate within 5% of $LO MiB/s" approx "$sus" "$LO" 0.05
check "capture between the two rates: not real time" test "$(cell verdict)" = not-realtime
check "the burst alone would have said real time" \
  awk -v b="$(cell burst_measured_bytes_per_s)" -v n="$(cell needed_bytes_per_s)" 'BEGIN { exit !(b >= 1.2 * n) }'
check "the cell is marked as downgraded by the cliff" test "$(cell cliff)" = true
check "the table marks it" grep -Eq "^  dpx-hd720 +[0-9.]+ +no!" "$T_DIR/run.out"
check "the footnote says why" grep -q "! = downgraded by a cliff: the sustained 2K write fell" "$T_DIR/run.out"
check "the summary says it" grep -q "Its write rate fell during the sustained write" <(jq -r .run.summary "$J")
# the sustained write's series (what the HTML charts): the mean rate of its
# whole seconds ending in (FROM, TO] s
srate() {
  jq -r --argjson from "$1" --argjson to "$2" '.run.frames[] | select(.preset == "2k") | .write.series as $s |
    [foreach range(0; $s.bytes | length) as $i (0; . + $s.duration_ns[$i];
      {t: (. / 1e9), d: $s.duration_ns[$i], r: ($s.bytes[$i] * 1e9 / $s.duration_ns[$i] / 1048576)})] |
    map(select(.t > $from and .t <= $to and .d > 9e8)) | map(.r) | add / length' "$J"
}
end=$(w 'series.duration_ns | add / 1e9')
s_hi=$(srate 1 "$AT") s_lo=$(srate $((AT + 2)) "$(awk -v e="$end" 'BEGIN { print e - 1 }')")
echo "series: $(w 'series.bytes | length') samples over $end s; ${s_hi} MiB/s in (1, $AT] s, ${s_lo} MiB/s after $((AT + 2)) s"
check "series: $HI MiB/s before the change (within 10%)" approx "$s_hi" "$HI" 0.10
# (10%: a second at 40 MiB/s holds 3 or 4 whole 12.2 MiB frames, so a few
# seconds' mean moves by several percent; 42.8 was seen under load)
check "series: $LO MiB/s after it (within 10%)" approx "$s_lo" "$LO" 0.10
check "html: the cliff marked on the sustained write's chart" grep -Eq \
  'id="chart-rate-2k-write".*class="mark"[^>]*/><text[^>]*>cliff at [0-9.]+ s: [0-9]+ -&gt; [0-9]+ MiB/s' \
  <(tr -d '\n' <"$T_DIR/run.html" | grep -Eo 'id="chart-rate-2k-write".*</figure>' | sed 's|</figure>.*||')
"$STORMARK" report "$J" >"$T_DIR/again.out" 2>&1
check "a saved run renders the same report" cmp -s "$T_DIR/run.out" "$T_DIR/again.out"
check "nothing left behind" test -z "$(ls -A "$D")"
finish
