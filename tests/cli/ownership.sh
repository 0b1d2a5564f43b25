# SPDX-License-Identifier: MIT
# Never touch a file stormark did not create (issue 10 §1, issue 9's
# frametest item): the header in every frame decides ownership (no marker
# file beside the frames); frames are created with O_EXCL, so a file that
# appears under a frame's name during a run is left alone (each engine);
# under the frametest name a regular file of exactly the frame size may be
# overwritten, as frametest does; fileio's seal decides which test_file.N
# `stormark fileio` may rewrite or remove (under `sysbench`, sysbench's
# rules); a file system's root is refused without --force.
. "$SM_SOURCE_DIR/tests/lib.sh"
FT="$SM_BUILD_DIR/frametest"
if [ ! -x "$FT" ]; then ln -s "$STORMARK" "$T_DIR/frametest"; FT="$T_DIR/frametest"; fi
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
cd "$T_DIR"

# refused DESC WHAT CMD...: exit 1, one line on stderr naming WHAT.
refused() {
  local d=$1 what=$2; shift 2
  "$@" >"$T_DIR/r.out" 2>"$T_DIR/r.err"; local got=$?
  if [ "$got" = 1 ] && [ "$(wc -l <"$T_DIR/r.err")" = 1 ] && grep -qF "'$what'" "$T_DIR/r.err"; then ok
  else fail "$d: exit $got"; sed 's/^/  | /' "$T_DIR/r.err" | head -5 >&2; fi
}
sum() { if [ -e "$1" ]; then stat -c %s "$1"; md5sum <"$1"; else echo absent; fi; }

# ---- the frame header; no marker file ---------------------------------------
D="$T_DIR/own"; mkdir -p "$D"
expect_rc 0 "write 8 frames" "$STORMARK" frames -w 4 -n 8 --quiet "$D"
check "only the frames are left (no marker file)" test "$(ls -A "$D" | grep -cv '^frame00000[0-7]\.tst$')" = 0
check "frame 5 starts with the header magic" test "$(head -c 6 "$D/frame000005.tst" | od -An -tx1 | tr -d ' \n')" = 89534d46524d
expect_rc 0 "read them" "$STORMARK" frames -r --quiet "$D"
expect_rc 0 "rewrite our own frames" "$STORMARK" frames -w 4 -n 8 --quiet "$D"
check "still no marker file after a read and a rewrite" test "$(ls -A "$D" | wc -l)" = 8
# the frametest name writes stormark frames too, and leaves no marker
D2="$T_DIR/own2"; mkdir -p "$D2"
expect_rc 0 "frametest write, then a read" "$FT" -w 4 -n 8 "$D2"
expect_rc 0 "frametest read" "$FT" -r "$D2"
check "frametest: no marker file" test "$(ls -A "$D2" | wc -l)" = 8

# files that are not this directory's frame N, though close to one
E="$T_DIR/edge"
for case in text copy otherdir badsum index; do
  rm -rf "$E"; mkdir -p "$E"
  "$STORMARK" frames -w 4 -n 8 --quiet "$E" >/dev/null 2>&1
  case $case in
    text)     { printf 'STORMARK'; head -c 4088 /dev/zero | tr '\0' x; } > "$E/frame000004.tst" ;;
    copy)     cp "$E/frame000003.tst" "$E/frame000004.tst" ;;
    otherdir) cp "$D/frame000004.tst" "$E/frame000004.tst" ;;
    badsum)   flip_byte "$E/frame000004.tst" 20 ;;   # in the directory id: the checksum fails
    index)    # a header rebuilt for another index would need its checksum: a
              # frame's own header with the index byte changed must fail too
              printf '\x05' | dd of="$E/frame000004.tst" bs=1 seek=24 conv=notrunc status=none ;;
  esac
  before=$(sum "$E/frame000004.tst")
  refused "$case: frame000004 refused" "$E/frame000004.tst" "$STORMARK" frames -w 4 -n 8 --quiet "$E"
  check "$case: frame000004 intact" test "$(sum "$E/frame000004.tst")" = "$before"
done
# a stream: a text file beginning STORMARK is not ours; our own stream is
{ printf 'STORMARK'; head -c 8184 /dev/zero; } > "$T_DIR/s.txt"; before=$(sum "$T_DIR/s.txt")
refused "stream: text file refused" "$T_DIR/s.txt" "$STORMARK" frames -s -w 4 -n 2 --quiet "$T_DIR/s.txt"
check "stream: text file intact" test "$(sum "$T_DIR/s.txt")" = "$before"
expect_rc 0 "stream: written" "$STORMARK" frames -s -w 4 -n 4 --quiet "$T_DIR/s.bin"
expect_rc 0 "stream: ours, rewritten" "$STORMARK" frames -s -w 4 -n 4 --quiet "$T_DIR/s.bin"

# ---- a file appearing under a frame's name during the run ----------------------
# Paced at 4 frames/s, frame 15 is due ~3.5 s after frame 2 exists: the
# file is planted long before its frame is created, after the checks.
# plant DESC FILE STARTED ARGS...: run frames ARGS in the background; once
# the frame STARTED exists, put a file of someone else's at FILE.
plant() {
  local d=$1 f=$2 started=$3; shift 3
  "$STORMARK" frames "$@" >"$T_DIR/p.out" 2>"$T_DIR/p.err" & local pid=$!
  local i=0
  while [ ! -e "$started" ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
  echo precious > "$f"
  wait $pid; local got=$?
  if [ "$got" = 1 ] && [ "$(wc -l <"$T_DIR/p.err")" = 1 ] &&
     grep -qF "cannot create '$f': it appeared during the run and is not stormark's; not overwriting it" "$T_DIR/p.err"
  then ok; else fail "$d: exit $got"; sed 's/^/  | /' "$T_DIR/p.err" | head -3 >&2; fi
  check "$d: the file is intact" test "$(cat "$f")" = precious
  check "$d: partial report" grep -q "^Frames transferred: 1[0-5] " "$T_DIR/p.out"
}
for engine in psync uring; do
  P="$T_DIR/plant-$engine"; mkdir -p "$P"
  plant "planted ($engine)" "$P/frame000015.tst" "$P/frame000002.tst" \
    --engine $engine -w 4 -n 16 -f 4 --buffered --quiet "$P"
  P="$T_DIR/plant-d-$engine"; mkdir -p "$P"
  plant "planted in a -d subdirectory ($engine)" "$P/d00003/frame000015.tst" "$P/d00000/frame000002.tst" \
    --engine $engine -w 4 -n 16 -f 4 -d 4 --buffered --quiet "$P"
done
# a loop shorter than the frames in flight: the run's own frames, created
# once, are reopened; no false alarm
L="$T_DIR/loop"; mkdir -p "$L"
for engine in psync uring; do
  rm -f "$L"/*
  expect_rc 0 "loop of 2 frames, 4 threads x 4 in flight ($engine)" \
    "$STORMARK" frames --engine $engine -w 4 -n 200 -l 2 -t 4 -a 4 --buffered --quiet "$L"
done

# ---- the frametest name: frametest-compatible frames are overwritten ------------
F="$T_DIR/ftc"; mkdir -p "$F"
for k in 0 1 2 3; do head -c 65536 /dev/urandom > "$F/frame00000$k.tst"; done
old=$(sum "$F/frame000002.tst")
expect_rc 0 "frametest: frames of exactly 64 KiB (another tool's) overwritten" "$FT" -w 64 -n 4 "$F"
check "frametest: they are stormark's frames now" test "$(sum "$F/frame000002.tst")" != "$old"
head -c 65536 /dev/urandom > "$F/frame000002.tst"; old=$(sum "$F/frame000002.tst")
refused "stormark frames: such a file is not its own" "$F/frame000002.tst" "$STORMARK" frames -w 64 -n 4 "$F"
check "stormark frames: left intact" test "$(sum "$F/frame000002.tst")" = "$old"
head -c 65537 /dev/urandom > "$F/frame000001.tst"; old=$(sum "$F/frame000001.tst")
"$FT" -w 64 -n 4 "$F" >"$T_DIR/r.out" 2>"$T_DIR/r.err"; got=$?
check "frametest: another size refused (exit $got)" test "$got" = 1
check "frametest: the error names it" grep -qF "'$F/frame000001.tst' exists and is neither a frame of 65536 bytes nor one stormark wrote" "$T_DIR/r.err"
check "frametest: another size intact" test "$(sum "$F/frame000001.tst")" = "$old"
rm "$F/frame000001.tst"; mkdir "$F/frame000001.tst"
refused "frametest: a directory under a frame's name" "$F/frame000001.tst" "$FT" -w 64 -n 4 "$F"
rmdir "$F/frame000001.tst"; echo outside > "$T_DIR/target"; ln -s "$T_DIR/target" "$F/frame000001.tst"
refused "frametest: a symlink under a frame's name" "$F/frame000001.tst" "$FT" -w 64 -n 4 "$F"
check "frametest: the symlink's target intact" test "$(cat "$T_DIR/target")" = outside

# ---- fileio: the seal ----------------------------------------------------------------
FI="$T_DIR/fio"; mkdir -p "$FI"; cd "$FI"
A="--file-num=2 --file-total-size=2M"
"$STORMARK" fileio $A prepare >"$T_DIR/fp.out" 2>"$T_DIR/fp.err"; got=$?
if grep -q "keeps no user extended attributes" "$T_DIR/fp.err"; then
  echo "SKIP (fileio seal): $(cat "$T_DIR/fp.err")"
else
  check "fileio prepare (exit $got)" test "$got" = 0
  expect_rc 0 "fileio run on its own files" "$STORMARK" fileio $A --file-test-mode=rndrw --time=1 run
  expect_rc 0 "fileio prepare again over its own files" "$STORMARK" fileio $A prepare
  for how in foreign copy; do
    "$STORMARK" fileio $A prepare >/dev/null 2>&1
    rm -f test_file.1
    if [ $how = foreign ]; then head -c 1048576 /dev/urandom > test_file.1
    else cp -a test_file.0 test_file.1; fi   # its seal (attributes) copied too
    before=$(sum test_file.1)
    refused "fileio prepare: $how test_file.1" test_file.1 "$STORMARK" fileio $A prepare
    for mode in rndrw seqwr; do
      refused "fileio run $mode: $how test_file.1" test_file.1 "$STORMARK" fileio $A --file-test-mode=$mode --time=1 run
    done
    refused "fileio cleanup: $how test_file.1" test_file.1 "$STORMARK" fileio $A cleanup
    check "fileio: $how test_file.1 intact" test "$(sum test_file.1)" = "$before"
    check "fileio cleanup removed nothing ($how)" test -e test_file.0
  done
  # sysbench's rules under its name: a regular test_file.N is rewritten and removed
  expect_rc 0 "sysbench prepare over a foreign file" "$SB" fileio $A prepare
  check "sysbench prepare: extended to the file size" test "$(stat -c %s test_file.1)" -ge 1048576
  expect_rc 0 "sysbench cleanup removes it" "$SB" fileio $A cleanup
  check "sysbench cleanup: gone" test ! -e test_file.1 -a ! -e test_file.0
  expect_rc 0 "fileio prepare, cleanup" "$STORMARK" fileio $A prepare
  expect_rc 0 "fileio cleanup of its own files" "$STORMARK" fileio $A cleanup
  check "fileio cleanup: gone" test ! -e test_file.1 -a ! -e test_file.0
fi
cd "$T_DIR"

# ---- a file system's root -------------------------------------------------------------
if [ ! -e /frame000000.tst ]; then
  expect_usage "frames -w /" "$STORMARK" frames -w 4 -n 1 /
  check "frames -w /: nothing created" test ! -e /frame000000.tst
  rm -f /frame000000.tst   # only if a regression created it just now
fi
M="$T_DIR/mnt"; mkdir -p "$M"
trap 'umount "$M" 2>/dev/null; t_cleanup' EXIT
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=8m tmpfs "$M" 2>/dev/null; then
  echo "SKIP (mount point): cannot mount a tmpfs here"
else
  expect_usage "frames -w on a mount point" "$STORMARK" frames -w 4 -n 2 "$M"
  check "frames: the reason" grep -q "is the root of a file system (a mount point)" "$T_DIR/usage.err"
  expect_usage "frametest -w on a mount point" "$FT" -w 4 -n 2 "$M"
  expect_usage "frames -e on a mount point" "$STORMARK" frames -e -n 2 "$M"
  expect_usage "fileio prepare --file-dir mount point" "$STORMARK" fileio --file-dir="$M" --file-num=1 --file-total-size=1M prepare
  (cd "$M" && "$STORMARK" fileio --file-num=1 --file-total-size=1M prepare) >"$T_DIR/usage.out" 2>"$T_DIR/usage.err"
  check "fileio prepare in a mount point as cwd: exit 2" test $? = 2
  # (the sysbench name prints its banner on stdout first, as sysbench does)
  "$SB" fileio --file-dir="$M" --file-num=1 --file-total-size=1M prepare >"$T_DIR/usage.out" 2>"$T_DIR/usage.err"
  got=$?
  check "sysbench prepare --file-dir mount point: exit 2 (got $got)" test $got = 2
  check "sysbench prepare --file-dir mount point: one line naming it" \
    test "$(grep -c "'$M' is the root of a file system" "$T_DIR/usage.err")" = 1
  expect_rc 0 "sysbench --force prepare" "$SB" fileio --force --file-dir="$M" --file-num=1 --file-total-size=1M prepare
  expect_rc 0 "sysbench --force cleanup" "$SB" fileio --force --file-dir="$M" --file-num=1 cleanup
  expect_usage "fileio cleanup on a mount point" "$STORMARK" fileio --file-dir="$M" --file-num=1 cleanup
  expect_usage "run on a mount point" "$STORMARK" run "$M" --time 1 --engine null --quiet --no-confirm
  check "mount point: nothing created" test -z "$(ls -A "$M")"
  expect_rc 0 "frames --force on a mount point" "$STORMARK" frames --force -w 4 -n 2 --quiet "$M"
  expect_rc 0 "frametest --force on a mount point" "$FT" --force -w 4 -n 2 "$M"
  expect_rc 0 "frames -r on a mount point (reading creates nothing)" "$STORMARK" frames -r --quiet "$M"
  rm -f "$M"/frame*
  expect_rc 0 "fileio --force prepare" "$STORMARK" fileio --force --file-dir="$M" --file-num=1 --file-total-size=1M prepare
  expect_rc 0 "fileio --force cleanup" "$STORMARK" fileio --force --file-dir="$M" --file-num=1 cleanup
  mkdir "$M/sub"
  expect_rc 0 "frames under the mount point" "$STORMARK" frames -w 4 -n 2 --quiet "$M/sub"
  umount "$M"
fi
finish
