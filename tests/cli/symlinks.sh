# SPDX-License-Identifier: MIT
# No symlink inside the test area is followed: a frames -d subdirectory, a
# frame file name, and a fileio test_file.N (prepare, run, cleanup; as
# `stormark fileio` and as `sysbench`) that is a symlink pointing outside
# the test directory is refused with exit 1 and one line naming it, and
# the file outside is neither created, extended nor changed.
. "$SM_SOURCE_DIR/tests/lib.sh"
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
OUT="$T_DIR/outside"; mkdir -p "$OUT"

# refused DESC LINK CMD...: exit 1, exactly one line on stderr, naming LINK
# as a symbolic link.
refused() {
  local d=$1 link=$2; shift 2
  "$@" >"$T_DIR/r.out" 2>"$T_DIR/r.err"; local got=$?
  if [ "$got" = 1 ] && [ "$(wc -l <"$T_DIR/r.err")" = 1 ] &&
     grep -qF "'$link' is a symbolic link" "$T_DIR/r.err"; then ok
  else fail "$d: exit $got"; sed 's/^/  | /' "$T_DIR/r.err" | head -5 >&2; fi
}
# sum FILE: size and checksum (or "absent")
sum() { if [ -e "$1" ]; then stat -c %s "$1"; md5sum <"$1"; else echo absent; fi; }

# ---- frames: a -d subdirectory that is a symlink --------------------------
D="$T_DIR/f1"; mkdir -p "$D" "$OUT/dir"
ln -s "$OUT/dir" "$D/d00000"
refused "frames -w: symlinked d00000" "$D/d00000" "$STORMARK" frames -w 64 -n 4 -d 2 "$D"
check "frames -w: nothing written through d00000" test -z "$(ls -A "$OUT/dir")"
check "frames -w: the link left alone" test -L "$D/d00000"
# the second directory too, after a real first one
rm "$D/d00000"; mkdir "$D/d00000"; ln -s "$OUT/dir" "$D/d00001"
refused "frames -w: symlinked d00001" "$D/d00001" "$STORMARK" frames -w 64 -n 4 -d 2 "$D"
check "frames -w: nothing written through d00001" test -z "$(ls -A "$OUT/dir")"
# reading: frames written, then a subdirectory swapped for a symlink
D="$T_DIR/f2"; mkdir -p "$D"
expect_rc 0 "frames -w -d 2 (real directories)" "$STORMARK" frames -w 64 -n 4 -d 2 "$D"
mv "$D/d00001" "$OUT/d00001"; ln -s "$OUT/d00001" "$D/d00001"
refused "frames -r: symlinked d00001" "$D/d00001" "$STORMARK" frames -r -n 4 -d 2 "$D"

# frames are opened at the subdirectories' descriptors (each engine), and
# by path past 256 subdirectories: both still write and read every frame
for engine in psync uring; do
  D="$T_DIR/e-$engine"; mkdir -p "$D"
  expect_rc 0 "frames -w -d 2 ($engine)" "$STORMARK" frames --engine $engine -w 64 -n 6 -d 2 "$D"
  check "frames -d 2 ($engine): 6 frames in 3 directories" \
    test "$(ls "$D"/d0000[0-2]/frame00000[0-5].tst | wc -l)" = 6
  expect_rc 0 "frames -r -d 2 ($engine)" "$STORMARK" frames --engine $engine -r -n 6 -d 2 "$D"
done
D="$T_DIR/many"; mkdir -p "$D"
expect_rc 0 "frames -w -d 1, 300 directories" "$STORMARK" frames -w 4 -n 300 -d 1 "$D"
check "frames -d 1: 300 directories" test "$(ls -d "$D"/d* | wc -l)" = 300
expect_rc 0 "frames -r -d 1, 300 directories" "$STORMARK" frames -r -n 300 -d 1 "$D"

# ---- frames: a frame name that is a symlink --------------------------------
echo precious >"$OUT/victim"; before=$(sum "$OUT/victim")
D="$T_DIR/f3"; mkdir -p "$D"
ln -s "$OUT/victim" "$D/frame000002.tst"
refused "frames -w: symlinked frame" "$D/frame000002.tst" "$STORMARK" frames -w 64 -n 4 "$D"
check "frames -w: victim unchanged" test "$(sum "$OUT/victim")" = "$before"
ln -s "$OUT/newfile" "$D/frame000001.tst"; rm "$D/frame000002.tst"
refused "frames -w: dangling symlinked frame" "$D/frame000001.tst" "$STORMARK" frames -w 64 -n 4 "$D"
check "frames -w: nothing created outside" test ! -e "$OUT/newfile"
D="$T_DIR/f4"; mkdir -p "$D"
expect_rc 0 "frames -w (for a read)" "$STORMARK" frames -w 64 -n 4 "$D"
cp "$D/frame000003.tst" "$OUT/frame3"; rm "$D/frame000003.tst"; ln -s "$OUT/frame3" "$D/frame000003.tst"
refused "frames -r: symlinked frame" "$D/frame000003.tst" "$STORMARK" frames -r -n 4 "$D"

# ---- fileio: test_file.N that is a symlink, under both names ---------------
SMALL="--file-total-size=8M --file-num=4"
for name in fileio sysbench; do
  if [ $name = fileio ]; then CMD=("$STORMARK" fileio); else CMD=("$SB" fileio); fi
  D="$T_DIR/io-$name"; mkdir -p "$D"; cd "$D" || exit 1
  # prepare: an outside file that would be extended, and a dangling link
  head -c 4096 /dev/urandom >"$OUT/short-$name"; before=$(sum "$OUT/short-$name")
  ln -s "$OUT/short-$name" test_file.0
  refused "$name prepare: symlinked test_file.0" "test_file.0" "${CMD[@]}" $SMALL prepare
  check "$name prepare: outside file not extended" test "$(sum "$OUT/short-$name")" = "$before"
  check "$name prepare: no other file created" test ! -e test_file.1
  rm test_file.0; ln -s "$OUT/absent-$name" test_file.3
  refused "$name prepare: dangling test_file.3" "test_file.3" "${CMD[@]}" $SMALL prepare
  check "$name prepare: nothing created outside" test ! -e "$OUT/absent-$name"
  rm test_file.3
  # run: a prepared set with one file swapped for a full-size outside one
  expect_rc 0 "$name prepare" "${CMD[@]}" $SMALL prepare
  mv test_file.1 "$OUT/full-$name"; ln -s "$OUT/full-$name" test_file.1
  before=$(sum "$OUT/full-$name")
  for mode in rndwr seqwr seqrewr rndrd; do
    refused "$name run $mode: symlinked test_file.1" "test_file.1" \
      "${CMD[@]}" $SMALL --file-test-mode=$mode --time=1 run
    check "$name run $mode: outside file unchanged" test "$(sum "$OUT/full-$name")" = "$before"
    check "$name run $mode: the link left alone" test -L test_file.1
  done
  # cleanup refuses, and removes nothing
  refused "$name cleanup: symlinked test_file.1" "test_file.1" "${CMD[@]}" $SMALL cleanup
  check "$name cleanup: link kept" test -L test_file.1
  check "$name cleanup: others kept" test -f test_file.0 -a -f test_file.2
  check "$name cleanup: outside file kept" test "$(sum "$OUT/full-$name")" = "$before"
  cd "$T_DIR" || exit 1
done
finish
