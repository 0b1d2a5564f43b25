#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for `streams --mix` (slow: about 100 s). Inside one blkio
# cgroup that throttles reads of the disk to 100 MiB/s and writes to
# 60 MiB/s:
# - '2xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture' (43.9 MiB/s read, 38.1
#   MiB/s written as one file per frame) holds: exit 0, both groups held;
# - '5xprores-hq-hd@25:play' (109.6 MiB/s) does not: exit 1;
# - beside '2xprores-hq-hd@25:play', prores-hq-hd at 25 fps playback finds
#   2 more raw (4 x 21.9 = 87.7 MiB/s; 5 need 109.6) and 1 more with 20%
#   headroom (1.2 x 87.7 = 105.3 MiB/s is more than the throttle gives).
# The steps that must see 109.6 MiB/s fail run 8 s: 5 streams' 8 buffers
# hide a shortfall of 10 MiB/s for about 3.5 s, of 5 MiB/s (the throttle
# let about 4% more through here) for about 7 s.
. "$SM_SOURCE_DIR/tests/lib.sh"
MIB=1048576
D="$T_DIR/d"
mkdir -p "$D"
jqe() { jq -e "$@" >/dev/null; }

throttle() {
  t_cgroup_throttle read $((100 * MIB)) "$T_DIR" && t_cgroup_throttle_also write $((60 * MIB)) "$T_DIR" ||
    { t_cgroup_release; skip "cannot set up a blkio throttle (cgroup v1 blkio not writable here)"; }
}
# run NAME EXPECTED-EXIT ARGS...: the command in the throttled cgroup,
# retried once when its exit is not the expected one (the disk is shared:
# a stall longer than 8 frame intervals drops a frame whatever the
# throttle allows); prints what each try measured
run() {
  local name=$1 want=$2 attempt
  shift 2
  for attempt in 1 2; do
    throttle
    t_cgroup_exec "$STORMARK" streams "$D" --quiet --json="$T_DIR/$name.json" "$@" >"$T_DIR/$name.out" 2>&1
    rc=$?
    t_cgroup_release
    echo "$name, attempt $attempt: exit $rc; groups [group, held, drops, p99.9 ns, moved B/s]:" \
      "$(jq -c '[.mix.groups[] | [.group, .held, .dropped, .p99_9_sched_ns, .bytes_per_s]]' "$T_DIR/$name.json")"
    [ "$rc" = "$want" ] && break
  done
}

run hold 0 --mix '2xprores-hq-hd@25:play,1xdpx-sd-pal@24:capture' --step 5
check "mix 43.9 MiB/s read + 38.1 MiB/s written holds: exit 0 (got $rc)" test "$rc" = 0
check "hold: both groups held, no drop" jqe '.mix.held and ([.mix.groups[] | .held and .dropped == 0] | all)' "$T_DIR/hold.json"
check "hold: the capture group a sequence of 1662976 B frames" \
  jqe '.mix.groups[1] | .kind == "sequence" and .chunk_bytes == 1662976 and .bytes == .done * 1662976' "$T_DIR/hold.json"
check "hold: each group moved its published rate (within 1%)" \
  jqe '[.mix.groups[] | ((.bytes_per_s / .needed_bytes_per_s) - 1 | fabs) < 0.01] | all' "$T_DIR/hold.json"
check "hold: nothing left behind" test -z "$(ls -A "$D")"

run over 1 --mix '5xprores-hq-hd@25:play' --step 8
check "mix of 109.6 MiB/s does not hold: exit 1 (got $rc)" test "$rc" = 1
check "over: the group failed, and says so" jqe '.mix.held == false and .mix.groups[0].held == false' "$T_DIR/over.json"
check "over: the text names the group" grep -q 'The mix does not hold: 1 of 1 group failed (5xprores-hq-hd@25:play)' "$T_DIR/over.out"

# the search beside the mix: exit 0 when the mix holds
for attempt in 1 2; do
  throttle
  t_cgroup_exec "$STORMARK" streams "$D" --mix '2xprores-hq-hd@25:play' --video-format prores-hq-hd \
    --fps 25 --play --step 8 --max-streams 4 --time 120 --quiet --json="$T_DIR/beside.json" >"$T_DIR/beside.out" 2>&1
  rc=$?
  t_cgroup_release
  raw=$(jq '.streams[0].max_streams' "$T_DIR/beside.json")
  hr=$(jq '.streams[0].max_streams_headroom' "$T_DIR/beside.json")
  echo "beside, attempt $attempt: exit $rc, $raw more held, $hr with headroom; mix alone held:" \
    "$(jq '.mix.held' "$T_DIR/beside.json"); steps [more, held, mix held, drops, delivered B/s]:" \
    "$(jq -c '[.streams[0].steps[] | [.streams, .held, .mix.held, .dropped + .mix.dropped, .delivered_bytes_per_s]]' "$T_DIR/beside.json");" \
    "sustained $(jq '.streams[0].sustained_bytes_per_s' "$T_DIR/beside.json") B/s"
  [ "$raw" = 2 ] && [ "$hr" = 1 ] && break
done
check "beside: exit 0 (got $rc)" test "$rc" = 0
check "beside: 2 more held (got $raw)" test "$raw" = 2
check "beside: 1 more with headroom (got $hr)" test "$hr" = 1
check "beside: every step ran the mix's 2 streams" \
  jqe '[.streams[0].steps[] | (.mix.per_stream | length) == 2] | all' "$T_DIR/beside.json"
check "beside: the headroom demand counts the mix (46 MB/s)" \
  jqe '.streams[0].beside_mix_bytes_per_s == 46000000' "$T_DIR/beside.json"
check "beside: nothing left behind" test -z "$(ls -A "$D")"
finish
