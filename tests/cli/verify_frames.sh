# SPDX-License-Identifier: MIT
# frames --verify end to end: a write test seals every 4 KiB of each frame
# and reads every frame back; a read test checks frames written earlier.
# Each kind of damage (byte flip, torn block, block swap between frames,
# a stale frame from an earlier run, a zeroed block, a lost write during
# the write test, truncation) is found with the right frame, offset and
# kind, in text and JSON; untouched frames, and frames read by a test
# without --verify, raise no false alarm.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
D="$T_DIR/frames"; mkdir -p "$D" "$T_DIR/dirs" "$T_DIR/odd" "$T_DIR/plain"
SHIM="$SM_BUILD_DIR/libsm_dropwrite.so"
W="-w 64 -n 24 -t 2"
blk() { dd if="$1" bs=4096 skip="$2" count=1 status=none; }
put() { dd of="$1" bs=4096 seek="$2" count=1 conv=notrunc status=none; }
write() { "$STORMARK" frames $W --verify --quiet "$D" >/dev/null 2>&1; }
# found DESC FRAME OFFSET KIND: the last read test exited 1, its error line
# names the frame and offset first, and its JSON lists KIND there.
found() {
  check "$1: error names frame and offset" grep -q "verification failed: .* first '$D/$2' offset $3: " "$T_DIR/out"
  check "$1: report line" grep -q "problem: '$D/$2' offset $3: " "$T_DIR/out"
  check "$1: JSON kind and place" test "$(json "$T_DIR/v.json" \
    "d['verify']['problem_list'][0]['kind'], d['verify']['problem_list'][0]['path'], d['verify']['problem_list'][0]['offset']")" = "$4 $D/$2 $3"
}
read_verify() { expect_rc "$1" "$2" "$STORMARK" frames -r --verify --quiet --json="$T_DIR/v.json" "$D"; }

# ---- untouched frames ------------------------------------------------------------
expect_rc 0 "write --verify" "$STORMARK" frames $W --verify --quiet --json="$T_DIR/w.json" "$D"
check "write: every block sealed and read back" test "$(json "$T_DIR/w.json" \
  "d['verify']['blocks_sealed'], d['verify']['blocks_checked'], d['verify']['problems'], d['verify']['pass_bytes']")" = "384 384 0 1572864"
check "write: both rates shown" grep -Eq "read-back pass: 1572864 bytes in [0-9.]+ s \([0-9.]+ MiB/s\)" "$T_DIR/out"
check "write: the test's own rate is there too" grep -q "^Overall frame rate" "$T_DIR/out"
read_verify 0 "read --verify"
check "read: every block checked" test "$(json "$T_DIR/v.json" "d['verify']['blocks_checked'], d['verify']['problems']")" = "384 0"
expect_rc 0 "a read test without --verify" "$STORMARK" frames -r -t 2 --quiet "$D"
read_verify 0 "no false alarm after it"
expect_rc 0 "a write test without --verify" "$STORMARK" frames $W --quiet "$T_DIR/plain"
expect_usage "read --verify of frames without trailers: one line, exit 2" "$STORMARK" frames -r --verify --quiet "$T_DIR/plain"
check "says why" grep -q "carry no verify trailer" "$T_DIR/usage.err"
expect_rc 0 "write --verify with -d, -a, random order" "$STORMARK" frames -w 64 -n 24 -d 5 -a 4 -m --verify --quiet "$T_DIR/dirs"
expect_rc 0 "read --verify with -d" "$STORMARK" frames -r -d 5 --verify --quiet "$T_DIR/dirs"
expect_rc 0 "write --verify --buffered, a frame not a multiple of 4 KiB" "$STORMARK" frames -w 10 -n 8 --buffered --verify \
  --quiet --json="$T_DIR/b.json" "$T_DIR/odd"
check "odd size: blocks of 4 KiB, the last one longer" test "$(json "$T_DIR/b.json" "d['verify']['blocks_checked']")" = 16

# ---- damage ----------------------------------------------------------------------------
flip_byte "$D/frame000003.tst" 5000
read_verify 1 "byte flip"
found "byte flip" frame000003.tst 4096 checksum
"$STORMARK" frames -r --verify --quiet --json="$T_DIR/r.json" "$D" >"$T_DIR/live" 2>/dev/null
check "report: the text as the run printed it, problems too" cmp -s "$T_DIR/live" <("$STORMARK" report "$T_DIR/r.json")
check "report: the verify object as written" python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.loads(sys.stdin.read()); sys.exit(a['verify'] != b['verify'])" \
  "$T_DIR/r.json" < <("$STORMARK" report "$T_DIR/r.json" --format json)
if python3 -c "import jsonschema" 2>/dev/null; then
  for f in "$T_DIR/v.json" "$T_DIR/w.json"; do
    check "schema: $(basename "$f")" python3 -c "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
      "$f" "$SM_SOURCE_DIR/docs/stormark.schema.json"
  done
fi

write
cp "$D/frame000007.tst" "$T_DIR/old7"
blk "$D/frame000002.tst" 1 >"$T_DIR/a"; blk "$D/frame000005.tst" 1 >"$T_DIR/b"
put "$D/frame000002.tst" 1 <"$T_DIR/b"; put "$D/frame000005.tst" 1 <"$T_DIR/a"
read_verify 1 "block swap between frames"
found "block swap" frame000002.tst 4096 misplaced
check "block swap: both frames named" grep -q "problem: '$D/frame000005.tst' offset 4096: misplaced block: expected file 5 offset 4096, found file 2" "$T_DIR/out"

write
cp "$T_DIR/old7" "$D/frame000007.tst"
read_verify 1 "a frame from an earlier run (lost write)"
found "stale frame" frame000007.tst 0 stale

write
blk "$T_DIR/old7" 9 | head -c 2048 | dd of="$D/frame000006.tst" bs=1 seek=$((9 * 4096)) conv=notrunc status=none
read_verify 1 "torn block"
found "torn block" frame000006.tst 36864 checksum

write
dd if=/dev/zero bs=4096 count=1 status=none | put "$D/frame000009.tst" 4
read_verify 1 "zeroed block"
found "zeroed block" frame000009.tst 16384 zeroed

write
truncate -s 30000 "$D/frame000011.tst"
expect_rc 1 "truncation" "$STORMARK" frames -r --verify --quiet "$D"
check "truncation: names the frame and where it ends" grep -q "'$D/frame000011.tst' is shorter (30000 bytes)" "$T_DIR/out"

# A write lost by the file system (the shim reports success without
# writing): the write test's own read-back pass finds the frame empty (a
# write test recreates its frames).
if [ "${SM_SANITIZER:-none}" = none ] && [ -f "$SHIM" ]; then
  write
  SM_DROP_FILE=frame000013.tst SM_DROP_NTH=1 LD_PRELOAD="$SHIM" "$STORMARK" frames $W --verify --quiet \
    --json="$T_DIR/v.json" "$D" >"$T_DIR/out" 2>&1
  check "lost write: exit 1" test $? = 1
  check "lost write: the shim dropped it" grep -q "dropwrite: dropped the write at offset 0 of .*frame000013.tst" "$T_DIR/out"
  found "lost write" frame000013.tst 0 truncated
fi

# ---- refused -----------------------------------------------------------------------
expect_usage "--verify with a stream" "$STORMARK" frames -w 64 -n 4 -s --verify "$T_DIR/stream.bin"
expect_usage "--verify with empty frames" "$STORMARK" frames -e -n 4 --verify "$T_DIR/empty"
expect_usage "--verify with the null engine" "$STORMARK" frames -w 64 -n 4 --engine null --verify "$T_DIR/null"
finish
