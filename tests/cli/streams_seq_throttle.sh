#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for frame-sequence streams (slow: about 50 s, up to three
# times that with retries). Inside a blkio cgroup that throttles reads (then writes)
# of the disk to 100 MiB/s, dpx-sd-pal at 24 fps (one 1,662,976-byte file
# per frame: 38.06 MiB/s a stream, each frame opened, moved and closed)
# must hold 2 playback (capture) streams raw and 2 with 20% headroom: 3
# would need 114.2 MiB/s, and 1.2 x 2 x 38.06 = 91.4 MiB/s is within what
# the storage delivers. The most delivered is close to the throttle, every
# frame of a held step is a whole frame file, and nothing is left behind.
. "$SM_SOURCE_DIR/tests/lib.sh"
RATE=$((100 * 1024 * 1024))
FRAME=1662976
D="$T_DIR/d"
mkdir -p "$D"
jqe() { jq -e "$@" >/dev/null; }

# agrees RAW HR SUS: the answers the throttle implies
agrees() {
  [ "$1" = 2 ] && [ "$2" = 2 ] &&
    awk -v a="$3" -v r="$RATE" 'BEGIN { exit !(a >= 0.8 * r && a <= 1.15 * r) }'
}

# one direction: $1 read|write (throttled), $2 --play|--capture, $3 the
# step. Capture runs 5 s steps: this disk's write throttle let about 5%
# more through than set (105.7 MiB/s delivered in one 3 s step), and 3
# streams' 8 buffers hid that shortfall for about 2.7 s; 5 s see it. The disk
# is shared with other work: one stall longer than a stream's 8 buffers
# (333 ms) drops a frame whatever the throttle allows, so up to three runs
# are allowed while they disagree (each is printed): under other work one
# CI run's capture held 2 (1 with headroom), then 0 (one stall of 640 ms).
one() {
  local kind=$1 flag=$2 step=$3 J="$T_DIR/$1.json" raw hr sus attempt
  for attempt in 1 2 3; do
    t_cgroup_throttle "$kind" "$RATE" "$T_DIR" ||
      skip "cannot set up a blkio $kind throttle (cgroup v1 blkio not writable here)"
    expect_rc 0 "$kind: dpx-sd-pal sequences run" t_cgroup_exec "$STORMARK" streams "$D" \
      --video-format dpx-sd-pal --fps 24 "$flag" --step "$step" --time 60 --max-streams 3 --quiet --json="$J"
    t_cgroup_release
    raw=$(jq '.streams[0].max_streams' "$J")
    hr=$(jq '.streams[0].max_streams_headroom' "$J")
    sus=$(jq '.streams[0].sustained_bytes_per_s' "$J")
    echo "attempt $attempt: $kind throttle $RATE B/s, dpx-sd-pal 24 fps $flag: $raw held," \
      "$hr with headroom, storage delivered $sus B/s at most; steps [n, held, drops," \
      "delivered B/s, worst p99.9 ns]: $(jq -c '[.streams[0].steps[] | [.streams, .held, .dropped, .delivered_bytes_per_s, .worst_p99_9_sched_ns]]' "$J")" \
      "confirmation: $(jq -c '.streams[0].confirmation // "none" | if type == "object" then [.state, .streams, .held, .dropped, .delivered_bytes_per_s] else . end' "$J")"
    agrees "$raw" "$hr" "$sus" && break
  done
  check "$kind: a sequence, one file of $FRAME B per frame" \
    jqe ".streams[0] | .kind == \"sequence\" and .chunk_bytes == $FRAME and .frame_bytes == $FRAME" "$J"
  check "$kind: 2 streams held (got $raw)" test "$raw" = 2
  check "$kind: 2 streams with 20% headroom (got $hr)" test "$hr" = 2
  check "$kind: delivered at most about the throttle" awk -v a="$sus" -v r="$RATE" \
    'BEGIN { exit !(a >= 0.8 * r && a <= 1.15 * r) }'
  check "$kind: every held step dropped nothing and moved whole frames" \
    jqe "[.streams[0].steps[] | select(.held) | .dropped == 0 and
         ([.per_stream[] | .bytes == .done * $FRAME and .done == .scheduled] | all)] | all" "$J"
  check "$kind: 3 streams (114 MiB/s) failed, every trial" \
    jqe '[.streams[0].steps[] | select(.streams == 3) | .held == false] | (length >= 1 and all)' "$J"
  check "$kind: nothing left behind" test -z "$(ls -A "$D")"
}
one read --play 3
one write --capture 5
finish
