#!/bin/bash
# SPDX-License-Identifier: MIT
# Answers that repeat (slow: about 4 minutes). Inside a blkio cgroup that
# throttles writes of the disk to 100 MiB/s, dpx-sd-pal capture at 25 fps
# (1.66 MB a frame, 41.5 MB/s a stream) holds 2 streams (79% of the
# throttle) and not 3 (119%): the ground truth. One step is one sample, and
# one slow second on this shared disk moves it; the boundary's trials
# (docs/streams.md, "Trials") make the answer repeat: 5 runs, and at least
# 4 of them must answer exactly 2, each with its trials said (2 held 3/3,
# 3 failed 3/3). Each run is a survey of one cell within --time 48 (its
# search and the 6 trials: 8 steps of 3 s and their setup; at --time 40 the
# third failed trial did not fit): it must end within 10% of it.
. "$SM_SOURCE_DIR/tests/lib.sh"
RATE=$((100 * 1024 * 1024))
D="$T_DIR/d"
mkdir -p "$D"
t_cgroup_throttle write "$RATE" "$T_DIR" || skip "cannot set up a blkio write throttle (cgroup v1 blkio not writable here)"
good=0
answers=""
for run in 1 2 3 4 5; do
  J="$T_DIR/r$run.json"
  t_cgroup_exec "$STORMARK" streams "$D" --video-format dpx-sd-pal --fps 25 --capture --step 3 \
    --time 48 --max-streams 4 --quiet --json="$J" >"$T_DIR/r$run.out" 2>&1
  rc=$?
  a=$(jq -c '.streams[0] | [.max_streams, .max_streams_high, .trials.held_at_answer, .trials.at_answer,
              .first_failed, .trials.held_at_failed, .trials.at_failed]' "$J" 2>/dev/null)
  answers="$answers $a"
  echo "run $run: exit $rc, [answer, high, held at it, trials, first failed, held there, trials]: $a;" \
    "$(jq '.duration_ns / 1e9' "$J") s"
  jq -e >/dev/null '.streams[0] | .max_streams == 2 and .max_streams_high == 2 and
     .trials.at_answer >= 3 and .trials.held_at_answer == .trials.at_answer and
     .first_failed == 3 and .trials.at_failed >= 3' "$J" && good=$((good + 1))
  check "run $run: exit 0" test "$rc" = 0
  check "run $run: within its --time budget and 10%" jq -e >/dev/null '.duration_ns <= 1.1 * .params.time_ns' "$J"
  check "run $run: the text says the trials" grep -q "trials: " "$T_DIR/r$run.out"
done
check "2 streams, their trials held and 3's failed, in at least 4 of 5 runs (got $good:$answers)" test "$good" -ge 4
t_cgroup_release
finish
