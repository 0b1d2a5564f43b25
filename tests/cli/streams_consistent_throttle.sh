#!/bin/bash
# SPDX-License-Identifier: MIT
# Answers that contradict each other are measured again, and reported only
# once consistent (docs/streams.md, "Consistent answers"; slow: about 40 s).
# prores-hq-hd playback needs about 22 MiB/s a stream at 25 fps and 44 at
# 50. Reads are throttled to 40 MiB/s while the 25 fps cell is searched
# (1 stream holds, 2 fail), then to 400 MiB/s as soon as the search moves
# on to 50 fps (seen on its progress line, under a pty): the 50 fps cell
# then holds 4 (the cap), more than the lower rate did. The survey runs
# 50 fps at 2 streams again (--trials times); they hold, so the 50 fps
# answer is bounded by the 25 fps one: 1, with its own trials' 4 kept
# beside it and the bound said on screen; report --check agrees.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v script >/dev/null || skip "no script(1) to give the survey a terminal"
D="$T_DIR/d"
mkdir -p "$D"
t_cgroup_throttle read $((40 * 1024 * 1024)) "$T_DIR" || skip "cannot set up a blkio read throttle (cgroup v1 blkio not writable here)"
J="$T_DIR/s.json"
t_cgroup_exec script -qefc "'$STORMARK' streams '$D' --video-format prores-hq-hd --fps 25,50 --play \
  --step 2 --trials 2 --max-streams 4 --time 60 --json='$J'" /dev/null >"$T_DIR/out" 2>&1 </dev/null &
pid=$!
raised=0
while kill -0 "$pid" 2>/dev/null; do
  if [ $raised = 0 ] && grep -aq "prores-hq-hd 50 fps" "$T_DIR/out"; then
    t_cgroup_throttle_also read $((400 * 1024 * 1024)) "$T_DIR" && raised=1
  fi
  sleep 0.2
done
wait "$pid"
rc=$?
check "exit 0" test "$rc" = 0
check "the throttle was raised for the 50 fps cell" test "$raised" = 1
jq -c '.streams[] | [.fps, .max_streams, .first_failed, .consistency]' "$J" >&2
check "25 fps: 1 stream held, 2 failed" jq -e >/dev/null \
  '.streams[0] | .fps == "25" and .max_streams == 1 and .first_failed == 2' "$J"
check "50 fps: its own trials held more, run again at 2, bounded by 25 fps" jq -e >/dev/null \
  '.streams[1] | .fps == "50" and .consistency.own_max_streams > 1 and .consistency.rechecks >= 1 and
   .consistency.bounded and .consistency.bound_fps == "25" and .consistency.bound_streams == 1 and
   .max_streams == 1 and .max_streams_high > 1 and .max_streams_headroom <= 1' "$J"
check "said on screen" grep -aq "consistent: at most 1, as at 25 fps, which failed 2: 2 held again here" "$T_DIR/out"
check "report --check agrees" "$STORMARK" report --check "$J"
check "the survey kept its budget" jq -e >/dev/null '.duration_ns <= 1.1 * .params.time_ns' "$J"
t_cgroup_release
finish
