#!/bin/bash
# SPDX-License-Identifier: MIT
# Frame-sequence streams (fast; no timing figure is asserted: the disk is
# shared): every format of frames --list-formats is a stream format and
# --list shows both kinds; a sequence stream is a directory of one file
# per frame, each created (capture: O_CREAT|O_EXCL|O_NOFOLLOW) or opened
# (playback: O_NOFOLLOW), moved whole and closed, the playback frames
# written before the step with frames' header, and everything removed at
# the end; the JSON, text, csv and a re-render say "sequence". The
# lightest sequence format, v210-sd-ntsc (933,888 B a frame), at 23.976
# fps: 21.3 MiB/s a stream. Ground truth: streams_seq_throttle.sh.
. "$SM_SOURCE_DIR/tests/lib.sh"
D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/s.json"
FRAME=933888
jqe() { jq -e "$@" >/dev/null; }

expect_rc 0 "--list" "$STORMARK" streams --list
check "--list: the compressed formats first" test "$(grep -n '^prores-hq-uhd ' "$T_DIR/out" | cut -d: -f1)" -lt \
  "$(grep -n '^sequence format ' "$T_DIR/out" | cut -d: -f1)"
check "--list: then the sequence formats" grep -q '^sequence format ' "$T_DIR/out"
# dpx-sd-pal: 1,662,976 B a frame, 38.06 MiB/s at 24 fps, 39.65 at 25
check "--list: dpx-sd-pal, its rates" grep -Eq '^dpx-sd-pal +38\.02 +38\.06 +39\.65 ' "$T_DIR/out"
check "--list: the sequences' codecs" grep -q 'dpx = DPX 10-bit RGB;' "$T_DIR/out"
check "--list --format csv: dpx-sd-pal's frame" sh -c \
  "'$STORMARK' streams --list --format csv | grep -q '^sequence,dpx-sd-pal,DPX 10-bit RGB,1662976,'"
check "--list: every format of frames --list-formats" test \
  "$("$STORMARK" frames --list-formats | awk '/^video formats/ { s = 1; next } s && / bytes\/frame$/ { print $1 }' | sort | tr '\n' ' ')" = \
  "$(awk '/^sequence format/ { s = 1; next } s && /^[a-z0-9-]+ +[0-9]/ { print $1 }' "$T_DIR/out" | sort | tr '\n' ' ')"

# ---- a playback and a capture search of one stream -----------------------------
expect_rc 0 "v210-sd-ntsc both ways" "$STORMARK" streams "$D" --video-format v210-sd-ntsc --fps 23.976 \
  --step 1 --time 6 --max-streams 1 --quiet --json="$J" -o "$T_DIR/s.txt"
check "two cells, both sequences" jqe '[.streams[] | .kind] == ["sequence", "sequence"]' "$J"
check "the frame is the frames table's, whole blocks" \
  jqe "[.streams[] | .frame_bytes == $FRAME and .chunk_bytes == $FRAME] | all" "$J"
check "24 frames a 1 s step at 23.976 fps" jqe '[.streams[].steps[].per_stream[].scheduled == 24] | all' "$J"
check "every frame moved whole: bytes = frames done x the frame" \
  jqe "[.streams[].steps[].per_stream[] | .bytes == .done * $FRAME] | all" "$J"
check "a held step moved every frame" \
  jqe '[.streams[].steps[] | select(.held) | .per_stream[] | .done == .scheduled] | all' "$J"
check "the text says it is a sequence" sh -c "tr '\n' ' ' <'$T_DIR/s.txt' | tr -s ' ' |
  grep -q 'v210-sd-ntsc at 23.976 fps, playback (10-bit 4:2:2 YCbCr (v210), a sequence: one file per frame)'"
check "nothing left behind" test -z "$(ls -A "$D")"
expect_rc 0 "csv of it" "$STORMARK" report "$J" --format csv
check "csv: kind sequence" test "$(tail -n +2 "$T_DIR/out" | awk -F, '{ print $NF }' | sort -u)" = sequence
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "the JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$J"
fi

# ---- what the files are: through psync, every request a system call --------------
if command -v strace >/dev/null; then
  # (LeakSanitizer cannot run under ptrace)
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
  strace -f -o "$T_DIR/tr" -e trace=openat,pwrite64,unlinkat,mkdir,rmdir "$STORMARK" streams "$D" \
    --video-format v210-sd-ntsc --fps 23.976 --step 1 --time 6 --max-streams 1 --engine psync \
    --quiet --json="$T_DIR/p.json" >/dev/null 2>&1
  check "psync run: exit 0" test $? = 0
  cap=$(jq '[.streams[0].steps[].per_stream[].done] | add' "$T_DIR/p.json")
  play=$(jq '[.streams[1].steps[].per_stream[].done] | add' "$T_DIR/p.json")
  check "capture: one create per frame moved ($cap), O_CREAT|O_EXCL|O_NOFOLLOW, in cap-v210-sd-ntsc-000" \
    test "$(grep -c 'openat([0-9]*, "frame[0-9]\{6\}\.tst", O_WRONLY|O_CREAT|O_EXCL|O_DIRECT|O_NOFOLLOW' "$T_DIR/tr")" -ge "$cap"
  check "capture: each frame starts with frames' header" \
    test "$(grep -c 'pwrite64([0-9]*, "\\211SMFRM\\r\\n' "$T_DIR/tr")" -ge "$cap"
  check "capture: its directory made and removed" \
    sh -c "grep -q 'mkdir(\".*/cap-v210-sd-ntsc-000\"' '$T_DIR/tr' && grep -q 'rmdir(\".*/cap-v210-sd-ntsc-000\")' '$T_DIR/tr'"
  # the playback frames: written before the step, each created O_EXCL
  # with its header, then opened O_NOFOLLOW by the step, removed at the end
  made=$(grep -c 'openat([0-9]*, "frame[0-9]\{6\}\.tst", O_WRONLY|O_CREAT|O_EXCL|O_DIRECT|O_NOFOLLOW|O_CLOEXEC, 0644)' "$T_DIR/tr")
  check "playback: the frames written first ($made in all, both directions)" test "$made" -ge $((cap + 24))
  check "playback: read by opening each frame O_RDONLY|O_NOFOLLOW ($play)" \
    test "$(grep -c 'openat([0-9]*, "frame[0-9]\{6\}\.tst", O_RDONLY|O_DIRECT|O_NOFOLLOW' "$T_DIR/tr")" -ge "$play"
  check "every frame made is removed" test "$(grep -c 'unlinkat([0-9]*, "frame[0-9]\{6\}\.tst", 0) = 0' "$T_DIR/tr")" = "$made"
  check "psync run: nothing left behind" test -z "$(ls -A "$D")"
else
  echo "strace is not installed: the per-frame system calls are not checked"
fi

# ---- SIGINT in the middle of a capture step: exit 130, nothing left ---------------
"$STORMARK" streams "$D" --video-format v210-sd-ntsc --fps 23.976 --capture --step 3 --time 30 \
  --max-streams 2 --quiet --json="$T_DIR/int.json" >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130 (got $rc)" test "$rc" = 130
check "SIGINT: nothing left behind" test -z "$(ls -A "$D")"

# ---- a sequence format at a rate the compressed tables lack ------------------------
expect_rc 0 "a sequence at 48 fps" "$STORMARK" streams "$D" --video-format v210-sd-ntsc --fps 48 \
  --play --step 1 --time 2 --max-streams 1 --trials 1 --quiet --json="$T_DIR/48.json"
check "48 fps: run (compressed formats have no 48 fps column)" jqe '.streams[0].fps == "48" and (.streams[0].steps | length) == 1' "$T_DIR/48.json"
finish
