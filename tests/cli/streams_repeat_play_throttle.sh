#!/bin/bash
# SPDX-License-Identifier: MIT
# Playback answers that repeat (slow: about 3 minutes). Inside a blkio
# cgroup that throttles reads of the disk to 100 MiB/s, prores-hq-hd
# playback (21.9 MiB/s a stream at 25 fps, 43.7 at 50) holds 4 streams at
# 25 fps (88% of the throttle) and not 5 (109%), and 2 at 50 fps (87%) and
# not 3 (131%): the ground truth. 5 runs of a survey of each rate, and in
# at least 4 of them both answer exactly that, their trials said; every
# survey ends within its --time budget and 10%, and report --check agrees.
# Each rate has a survey of its own: in one survey of both, the 50 fps
# cell starts at the 2 streams the 25 fps cell's rate gives, straight after
# its playback files grew, and cgroup v1's throttle starts such a step
# late (2 of 10 such runs lost a frame in that first step, 6 of 6 with a
# second's pause before it); a survey of one rate starts at 1 stream.
. "$SM_SOURCE_DIR/tests/lib.sh"
RATE=$((100 * 1024 * 1024))
D="$T_DIR/d"
mkdir -p "$D"
t_cgroup_throttle read "$RATE" "$T_DIR" || skip "cannot set up a blkio read throttle (cgroup v1 blkio not writable here)"
good=0
answers=""
for run in 1 2 3 4 5; do
  right=1
  for fps in 25 50; do
    want=$([ $fps = 25 ] && echo 4 || echo 2)
    J="$T_DIR/r$run-$fps.json"
    t_cgroup_exec "$STORMARK" streams "$D" --video-format prores-hq-hd --fps $fps --play --step 2 \
      --time 30 --max-streams 8 --quiet --json="$J" >"$T_DIR/r$run-$fps.out" 2>&1
    rc=$?
    a=$(jq -c '.streams[0] | [.max_streams, .max_streams_high, .trials.held_at_answer, .trials.at_answer,
                .first_failed, .trials.held_at_failed, .trials.at_failed]' "$J" 2>/dev/null)
    answers="$answers $fps:$a"
    echo "run $run at $fps fps: exit $rc, [answer, high, held at it, trials, first failed, held there," \
      "trials]: $a; $(jq '.duration_ns / 1e9' "$J") s"
    jq -e >/dev/null --argjson want "$want" '.streams[0] | .max_streams == $want and
       .max_streams_high == $want and .trials.at_answer >= 3 and
       .trials.held_at_answer == .trials.at_answer and .first_failed == $want + 1 and
       .trials.at_failed >= 3' "$J" || right=0
    check "run $run at $fps fps: exit 0" test "$rc" = 0
    check "run $run at $fps fps: within its --time budget and 10%" \
      jq -e >/dev/null '.duration_ns <= 1.1 * .params.time_ns' "$J"
    check "run $run at $fps fps: the text says the trials" grep -q "trials: " "$T_DIR/r$run-$fps.out"
    check "run $run at $fps fps: report --check agrees" "$STORMARK" report --check "$J"
  done
  good=$((good + right))
done
check "4 streams at 25 fps and 2 at 50, their trials held and the next failed, in at least 4 of 5 runs (got $good:$answers)" \
  test "$good" -ge 4
t_cgroup_release
finish
