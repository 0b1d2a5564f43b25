#!/bin/bash
# SPDX-License-Identifier: MIT
# Ground truth for stalls (slow: about 70 s). The stall injector
# (t_stall_start, tests/lib.sh) throttles reads and writes of the disk to
# 200 MiB/s, except for 1.5 s of every 3.5 s, when nothing completes at
# all. Then:
# - a frames write of 9 s names its stalls: at least two, the longest
#   1.5 s (to within the detector's period and the throttle's timing, or
#   up to 2.5 s where the disk's own stall of about a second joins one),
#   in the JSON and on stderr beside frametest's report; a fileio seqwr of
#   8 s too, beside sysbench's;
# - `run` finds no real-time cell for any format, however little each
#   needs (dpx-sd-pal at 24 fps needs a fifth of the throttle): every cell
#   is "no#", each naming its stall, the Summary names the stalls, and
#   the HTML shades them on the rate charts; the block tests name theirs
#   (a 1 s test meets one in 3.5 s, or more).
. "$SM_SOURCE_DIR/tests/lib.sh"
RATE=$((200 * 1024 * 1024))
t_cgroup_throttle write "$RATE" "$T_DIR" || skip "cannot set up a blkio throttle (cgroup v1 blkio not writable here)"
t_stall_start "$T_DIR" "$RATE" 1.5 3.5 || skip "cannot drive the blkio throttle"

# ---- frames: the stalls named ----------------------------------------------
F="$T_DIR/f"
mkdir -p "$F"
t_cgroup_exec "$STORMARK" frames -w hd -t 4 --time 9 "$F" --json="$T_DIR/f.json" \
  >"$T_DIR/f.out" 2>"$T_DIR/f.err"
check "frames: exit 0" test $? = 0
check "frames: two stalls or more past the threshold" \
  jq -e >/dev/null '.stalls >= 2 and .stall_threshold_ns >= 100000000 and (.stall_list | length) >= 2' "$T_DIR/f.json"
check "frames: the longest is the injected 1.5 s" \
  jq -e >/dev/null '.stall_longest_ns >= 1300000000 and .stall_longest_ns <= 2500000000 and
    .stall_list[0][1] == .stall_longest_ns' "$T_DIR/f.json"
check "frames: the stall said beside frametest's report" grep -q "^stormark: stall: completed nothing for [12]\.[0-9]" "$T_DIR/f.err"
check "frames: frametest's report unchanged on stdout" sh -c "! grep -q stall '$T_DIR/f.out'"
"$STORMARK" report "$T_DIR/f.json" --format markdown >"$T_DIR/f.md" 2>/dev/null
check "frames: markdown names the stalls" grep -q "^Stalls: completed nothing for" "$T_DIR/f.md"

# ---- fileio: the stalls named beside sysbench's report -----------------------
FI="$T_DIR/fio"
mkdir -p "$FI"
(cd "$FI" && "$STORMARK" fileio --file-total-size=64M --file-num=1 prepare >/dev/null 2>&1)
(cd "$FI" && t_cgroup_exec "$STORMARK" fileio --file-total-size=64M --file-num=1 --file-test-mode=seqwr \
  --file-block-size=1M --file-extra-flags=direct --time=8 --json="$T_DIR/fio.json" run \
  >"$T_DIR/fio.out" 2>"$T_DIR/fio.err")
check "fileio: exit 0" test $? = 0
check "fileio: stalls past the threshold, the longest the injected 1.5 s" jq -e >/dev/null \
  '.stalls >= 1 and .stall_longest_ns >= 1300000000 and .stall_longest_ns <= 2500000000' "$T_DIR/fio.json"
check "fileio: said on stderr" grep -q "^stormark: stall: completed nothing for [12]\.[0-9]" "$T_DIR/fio.err"
check "fileio: sysbench's report unchanged on stdout" sh -c "! grep -q stall '$T_DIR/fio.out'"
(cd "$FI" && "$STORMARK" fileio --file-total-size=64M --file-num=1 cleanup >/dev/null 2>&1)

# ---- run: no real-time cell ------------------------------------------------
D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/run.json"
t_cgroup_exec "$STORMARK" run "$D" --time 40 --quiet --video-formats dpx-sd-pal,dpx-hd --fps 24,25 \
  --json "$J" --html "$T_DIR/run.html" >"$T_DIR/run.out" 2>&1
check "run: exit 0" test $? = 0
check "run: every cell not real time by a stall past its buffers" jq -e >/dev/null '
  [.run.verdicts[] | (.capture + .playback)[] |
   .verdict == "not-realtime" and (.basis | index("stall")) and .stall_ns > .buffer_ns and
   .stall_ns >= 1300000000] | all' "$J"
check "run: dpx-sd-pal at 24 fps needs a fifth of the throttle" jq -e >/dev/null --argjson r "$RATE" '
  .run.verdicts[] | select(.format == "dpx-sd-pal") | .capture[0].needed_bytes_per_s < $r / 4' "$J"
check "run: the frame tests name their stalls" jq -e >/dev/null '
  [.run.frames[] | .write, .read | select(. != null) | .stalls] | add >= 4' "$J"
check "run: the block tests name theirs too, one of them the injected stall" jq -e >/dev/null '
  [.run.classic[] | .read, .write | select(. != null)] as $t |
  ([$t[] | .stalls] | add) >= 2 and ([$t[] | .stall_longest_ns] | max) >= 1000000000' "$J"
check "run: a block test's stall said under the classic table" grep -q "^  stall: the block test .* completed nothing for" "$T_DIR/run.out"
check "run: the table marks them" grep -Eq '^  dpx-sd-pal +1\.6 +no\*?# +no\*?# ' "$T_DIR/run.out"
jq -r .run.summary "$J" >"$T_DIR/summary"
check "run: the Summary names the stall" grep -q "completed nothing for [12]\.[0-9][0-9] s, longer than 8" "$T_DIR/summary"
check "run: no format can be captured or played in real time" \
  grep -q "cannot capture any of the 2 tested formats.*cannot play back any of the 2" "$T_DIR/summary"
check "run: the HTML shades the stalls" grep -q '<rect class="stall"' "$T_DIR/run.html"

t_stall_stop
finish
