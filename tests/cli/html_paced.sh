#!/bin/bash
# SPDX-License-Identifier: MIT
# The HTML report of paced frames runs in headless Chromium: a capture fast
# enough to drop frames (the per-frame series' drops add up to the run's,
# and are marked), a playback under the frametest name (--html is the one
# long option that name takes).
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/html_lib.sh"

D="$T_DIR/d"
mkdir -p "$D/cap"
"$STORMARK" frames -w 256 -n 300 -t 2 --quiet "$D" >/dev/null 2>&1
check "frames to play back written" test $? = 0

# ---- paced capture, fast enough to drop frames on most disks ------------------
"$STORMARK" frames -w 1024 -n 200 -f 4000 -q 2 -t 1 --quiet --json="$T_DIR/c.json" --html="$T_DIR/c.html" \
  "$D/cap" >"$T_DIR/c.out" 2>&1
check "capture: exit 0" test $? = 0
check "capture: per-frame series adds up (frames, drops, times from schedule)" jq -e '.frames.per_frame as $p |
  ($p.frames | add) == .frames.transferred and ($p.dropped | add) == .frames.dropped and
  ($p.sched_frames | add) == .frames.transferred' "$T_DIR/c.json" >/dev/null
h_check c "$T_DIR/c.html"
h_sections c run environment parameters summary rates per-frame latency
h_drawn c chart-frames chart-schedule chart-lat-sched
h_clean c
h_fit c
if [ "$(jq .frames.dropped "$T_DIR/c.json")" -gt 0 ]; then
  check "capture: dropped frames marked" grep -q 'class="drops"' "$T_DIR/c.html"
fi

# ---- paced playback under the frametest name ----------------------------------
ln -sf "$STORMARK" "$T_DIR/frametest"
"$T_DIR/frametest" -r -n 300 -f 3000 -t 1 --html="$T_DIR/p.html" "$D" >"$T_DIR/p.out" 2>&1
check "playback (frametest name): exit 0" test $? = 0
h_check p "$T_DIR/p.html" --dom-only
h_fit p
h_sections p run parameters summary rates per-frame latency
check "playback: per-frame and schedule charts" jq -e '.charts | has("chart-frames") and has("chart-schedule")' \
  "$T_DIR/p.hc.json" >/dev/null
check "playback: frametest's command line" jq -e '.command | endswith("/frametest -r -n 300 -f 3000 -t 1 --html=\($t)/p.html \($t)/d")' --arg t "$T_DIR" "$T_DIR/p.hc.json" >/dev/null

finish
