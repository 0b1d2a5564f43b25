# SPDX-License-Identifier: MIT
# fileio --verify and --validate end to end: each kind of damage (byte
# flip, torn block, block swap, stale block from an earlier set, zeroed
# block, truncation, a write lost during the run or by an earlier run, a
# stale block where the set is learnt from) put into files written
# with --verify is found with the right file, offset and kind, in text and
# JSON; untouched data and runs without --verify raise no false alarm;
# --validate never reports blocks of a set prepared without it as corrupt,
# finds a block without a trailer in a set prepared with it, and finds a
# lost write.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
D="$T_DIR/set"; mkdir -p "$D"
cd "$D" || exit 1
S="--file-total-size=4M --file-num=2 --file-block-size=4096"
SEQRD="--file-test-mode=seqrd --events=1024 --time=0"
SHIM="$SM_BUILD_DIR/libsm_dropwrite.so"
fresh() { "$STORMARK" fileio $S cleanup >/dev/null; "$STORMARK" fileio $S "$@" prepare >/dev/null; }
blk() { dd if="$1" bs=4096 skip="$2" count=1 status=none; }
put() { dd of="$1" bs=4096 seek="$2" count=1 conv=notrunc status=none; }
# found DESC FILE OFFSET KIND: the last run exited 1 naming FILE and OFFSET
# in its error line, and its JSON lists KIND at that place first.
found() {
  check "$1: error names file and offset" grep -q "failed: block at offset $3 of '$2'" "$T_DIR/out"
  check "$1: report line" grep -q "problem: '$2' offset $3: " "$T_DIR/out"
  check "$1: JSON kind and place" test "$(json "$T_DIR/v.json" \
    "d['verify']['problem_list'][0]['kind'], d['verify']['problem_list'][0]['path'], d['verify']['problem_list'][0]['offset']")" = "$4 $2 $3"
}
run_verify() { expect_rc "$1" "$2" "$STORMARK" fileio $S --verify $SEQRD --json="$T_DIR/v.json" run; }

# ---- untouched data ------------------------------------------------------------
expect_rc 0 "prepare --verify" "$STORMARK" fileio $S --verify prepare
check "prepare: says what it sealed" grep -q "^Verification: 1024 blocks of 4096 bytes written with a trailer" "$T_DIR/out"
run_verify 0 "untouched: seqrd --verify"
check "untouched: every block checked" test "$(json "$T_DIR/v.json" "d['verify']['blocks_checked'], d['verify']['problems']")" = "1024 0"
check "untouched: cost shown (a read test checks, seals nothing)" sh -c \
  "grep -Eq 'hashing: [0-9.]+ s checking' '$T_DIR/out' && ! grep -q sealing '$T_DIR/out'"
check "untouched: hashing rate in JSON" test "$(json "$T_DIR/v.json" "int(d['verify']['check_bytes_per_s'] > 0)")" = 1
expect_rc 0 "rndrw --verify, 2 threads, async" "$STORMARK" fileio $S --verify --file-test-mode=rndrw --threads=2 \
  --file-io-mode=async --events=6000 --time=0 --json="$T_DIR/w.json" run
# stormark report gives the run back with its verification block, and the JSON
"$STORMARK" fileio $S --verify --file-test-mode=seqrd --events=1024 --time=0 --json="$T_DIR/r.json" run >"$T_DIR/live" 2>/dev/null
check "report: the text as the run printed it" cmp -s "$T_DIR/live" <("$STORMARK" report "$T_DIR/r.json")
check "report: the verify object as written" python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.loads(sys.stdin.read()); sys.exit(a['verify'] != b['verify'])" \
  "$T_DIR/r.json" < <("$STORMARK" report "$T_DIR/r.json" --format json)
check "rndrw: blocks sealed and checked" test "$(json "$T_DIR/w.json" \
  "int(d['verify']['blocks_sealed'] > 1000 and d['verify']['blocks_checked'] > 1000 and d['verify']['problems'] == 0)")" = 1
expect_rc 0 "rndrw --verify, mmap" "$STORMARK" fileio $S --verify --file-test-mode=rndrw --file-io-mode=mmap --events=3000 --time=0 run
expect_rc 0 "a read-only run without --verify" "$STORMARK" fileio $S --file-test-mode=rndrd --events=2000 --time=0 run
run_verify 0 "no false alarm after the runs above"
expect_rc 0 "seqrewr --verify" "$STORMARK" fileio $S --verify --file-test-mode=seqrewr --events=1024 --time=0 run
run_verify 0 "no false alarm after seqrewr"

# ---- damage --------------------------------------------------------------------------
flip_byte test_file.1 70000
run_verify 1 "byte flip"
found "byte flip" test_file.1 69632 checksum
if python3 -c "import jsonschema" 2>/dev/null; then
  for f in "$T_DIR/v.json" "$T_DIR/w.json"; do
    check "schema: $(basename "$f")" python3 -c "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
      "$f" "$SM_SOURCE_DIR/docs/stormark.schema.json"
  done
fi
check "byte flip: one line on stderr" test "$("$STORMARK" fileio $S --verify $SEQRD run 2>&1 >/dev/null | wc -l)" -le 2

fresh --verify
cp test_file.0 old.0
blk test_file.0 3 >b3; blk test_file.0 5 >b5
put test_file.0 3 <b5; put test_file.0 5 <b3
run_verify 1 "block swap"
found "block swap" test_file.0 12288 misplaced
check "block swap: names where it belongs" grep -q "found file 0 offset 20480" "$T_DIR/out"

fresh --verify
blk old.0 7 | put test_file.0 7
run_verify 1 "stale block from an earlier set"
found "stale block" test_file.0 28672 stale

fresh --verify
blk old.0 9 | head -c 2048 | dd of=test_file.1 bs=1 seek=$((9 * 4096)) conv=notrunc status=none
run_verify 1 "torn block (half from an earlier write)"
found "torn block" test_file.1 36864 checksum

fresh --verify
dd if=/dev/zero bs=4096 count=1 status=none | put test_file.1 11
run_verify 1 "zeroed block"
found "zeroed block" test_file.1 45056 zeroed

fresh --verify
truncate -s 1000000 test_file.1
expect_rc 1 "truncation" "$STORMARK" fileio $S --verify $SEQRD run
check "truncation: names file and offset" grep -q "'test_file.1' is truncated: it ends at offset 1000000" "$T_DIR/out"

# A write lost during the run (the shim reports success without writing):
# the block later read still holds the earlier write.
if [ "${SM_SANITIZER:-none}" = none ] && [ -f "$SHIM" ]; then
  fresh --verify
  SM_DROP_FILE=test_file.0 SM_DROP_NTH=100 LD_PRELOAD="$SHIM" "$STORMARK" fileio $S --verify --file-test-mode=rndrw \
    --rand-seed=7 --events=3000 --time=0 --json="$T_DIR/v.json" run >"$T_DIR/out" 2>&1
  rc=$?
  off=$(sed -n 's/^dropwrite: dropped the write at offset \([0-9]*\) of .*/\1/p' "$T_DIR/out")
  check "lost write: the shim dropped one" test -n "$off"
  check "lost write: exit 1" test $rc = 1
  found "lost write" test_file.0 "$off" stale
  # --validate finds it too (it used to pass: a lost write left a valid block)
  fresh --validate
  SM_DROP_FILE=test_file.0 SM_DROP_NTH=100 LD_PRELOAD="$SHIM" "$STORMARK" fileio $S --validate --file-test-mode=rndrw \
    --rand-seed=7 --events=3000 --time=0 run >"$T_DIR/out" 2>&1
  check "validate: lost write found" test $? = 1
  check "validate: lost write named" grep -q "validation failed: block at offset $off of 'test_file.0': stale block" "$T_DIR/out"
fi

# A write lost by one run (rndwr reads nothing back, so it cannot see it)
# is found by the next run that reads the block: the block map says which
# write the block should hold.
if [ "${SM_SANITIZER:-none}" = none ] && [ -f "$SHIM" ]; then
  fresh --verify
  SM_DROP_FILE=test_file.1 SM_DROP_NTH=40 LD_PRELOAD="$SHIM" "$STORMARK" fileio $S --verify --file-test-mode=rndwr \
    --rand-seed=3 --events=400 --time=0 run >"$T_DIR/out" 2>&1
  rc=$?
  off=$(sed -n 's/^dropwrite: dropped the write at offset \([0-9]*\) of .*/\1/p' "$T_DIR/out")
  check "earlier run: the shim dropped one write" test -n "$off"
  check "earlier run: it ends well (it reads nothing back)" test $rc = 0
  run_verify 1 "a write lost by an earlier run"
  found "earlier run's lost write" test_file.1 "$off" stale
  check "earlier run's lost write: the write expected" test "$(json "$T_DIR/v.json" \
    "int(d['verify']['problem_list'][0]['expected']['run'] > 0 and d['verify']['problem_list'][0]['expected']['seq'] > 0)")" = 1
fi

# After a seqwr rewrite, a block of the earlier set in a place the set is
# learnt from (block 0) is the one named, stale, not an intact block after
# it; with the block maps and, for a set without them, by the majority of
# the probed blocks.
for maps in with without; do
  fresh --verify
  cp test_file.0 old.0
  expect_rc 0 "seqwr --verify rewrite ($maps maps)" "$STORMARK" fileio $S --verify --file-test-mode=seqwr \
    --events=1100 --time=0 run
  [ "$maps" = with ] || rm test_file.0.verify test_file.1.verify
  blk old.0 0 | put test_file.0 0
  run_verify 1 "stale block 0 after seqwr ($maps maps)"
  found "stale block 0 after seqwr ($maps maps)" test_file.0 0 stale
done
rm -f old.0

# A block map a run left unfinished (marked as being updated) is not
# trusted: a warning, the set checked as before, no false alarm; the next
# run that writes makes it whole again.
fresh --verify
check "prepare --verify: a block map per file" test -f test_file.0.verify -a -f test_file.1.verify
printf '\001' | dd of=test_file.0.verify bs=1 seek=8 conv=notrunc status=none
run_verify 0 "an unfinished block map"
check "an unfinished block map: said" grep -q "the block map 'test_file.0.verify' was left by a run that did not end" "$T_DIR/out"
expect_rc 0 "a writing run after it" "$STORMARK" fileio $S --verify --file-test-mode=rndwr --events=200 --time=0 run
run_verify 0 "the block map made whole again"
check "the block map made whole again: nothing said" sh -c "! grep -q 'block map' '$T_DIR/out'"
# --validate keeps the block map up to date: no false alarm after it
expect_rc 0 "a --validate writing run on a set with block maps" "$STORMARK" fileio $S --validate \
  --file-test-mode=rndwr --events=300 --time=0 run
run_verify 0 "--verify after --validate wrote"
# a file under a map's name that is no map is never taken for one, nor touched
rm test_file.1.verify
echo mine >test_file.1.verify
run_verify 0 "a foreign file under a map's name"
check "a foreign file under a map's name: said" grep -q "is not a block map of stormark's (left alone)" "$T_DIR/out"
expect_rc 0 "a writing run beside it" "$STORMARK" fileio $S --verify --file-test-mode=rndwr --events=100 --time=0 run
check "the foreign file is left as it was" test "$(cat test_file.1.verify)" = mine
expect_rc 0 "cleanup" "$STORMARK" fileio $S cleanup
check "cleanup removes the block maps it made" test ! -e test_file.0.verify
check "cleanup leaves the foreign file" test "$(cat test_file.1.verify)" = mine
rm test_file.1.verify

# ---- sets --verify cannot check --------------------------------------------------
fresh
expect_usage "run --verify on a set prepared without it" "$STORMARK" fileio $S --verify $SEQRD run
check "says why" grep -q "not prepared with --verify" "$T_DIR/usage.err"
expect_rc 0 "prepare --verify over it writes it again" "$STORMARK" fileio $S --verify prepare
run_verify 0 "then it verifies"
expect_rc 0 "a write run without --verify" "$STORMARK" fileio $S --file-test-mode=rndwr --events=50 --time=0 run
check "warns that --verify will report its blocks" grep -q "which a later --validate or --verify run reports" "$T_DIR/out"
expect_usage "--verify with a block below 128 bytes" "$STORMARK" fileio $S --file-block-size=64 --verify prepare
expect_usage "--verify with a tiny set for the requests in flight" "$STORMARK" fileio --file-total-size=64K --file-num=1 \
  --file-block-size=4096 --verify --threads=16 --file-test-mode=rndrd --events=10 --time=0 run

# ---- --validate: no false alarms ----------------------------------------------
fresh
expect_rc 0 "validate: set prepared without --validate" "$STORMARK" fileio $S --validate --file-test-mode=rndrw \
  --events=3000 --time=0 --json="$T_DIR/v.json" run
check "validate: says what it could not check" grep -q "blocks read carry no checksum (written without --validate) and were not checked" "$T_DIR/out"
check "validate: unchecked counted, no problem" test "$(json "$T_DIR/v.json" \
  "int(d['verify']['blocks_unchecked'] > 0 and d['verify']['problems'] == 0)")" = 1
fresh
expect_rc 0 "validate: prepare --validate reusing it" "$STORMARK" fileio $S --validate prepare
check "validate: prepare says the reused files cannot be checked" grep -q "not prepared with --validate and are reused" "$T_DIR/out"
expect_rc 0 "validate: run on the reused set" "$STORMARK" fileio $S --validate --file-test-mode=rndrd --events=2000 --time=0 run
fresh --validate
expect_rc 0 "validate: a run without --validate rewrites blocks" "$STORMARK" fileio $S --file-test-mode=rndwr --events=500 --time=0 run
check "validate: that run says a later --validate reports them" grep -q "which a later --validate or --verify run reports as damaged" "$T_DIR/out"
# the set was prepared with --validate: every block had a trailer, and one
# without is damage (as real sysbench, which finds no checksum there)
expect_rc 1 "validate: then seqrd --validate finds the rewritten blocks" "$STORMARK" fileio $S --validate $SEQRD run
check "validate: names the first of them" grep -q "validation failed: block at offset [0-9]* of 'test_file.[01]'" "$T_DIR/out"
check "validate: none called unchecked" sh -c "! grep -q 'not checked' '$T_DIR/out'"
fresh --validate
put test_file.1 3 </dev/zero
expect_rc 1 "validate: a zeroed block in a set prepared with --validate" "$STORMARK" fileio $S --validate $SEQRD \
  --json="$T_DIR/v.json" run
found "validate: zeroed block" test_file.1 12288 zeroed
fresh --validate
flip_byte test_file.0 $((1024 * 1024 + 5))
expect_rc 1 "validate: a flipped byte in a sealed block is found" "$STORMARK" fileio $S --validate $SEQRD run
check "validate: named" grep -q "offset 1048576 of 'test_file.0'" "$T_DIR/out"
"$STORMARK" fileio $S cleanup >/dev/null
finish
