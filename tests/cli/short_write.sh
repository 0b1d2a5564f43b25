# SPDX-License-Identifier: MIT
# A write that stops partway is reported with the error that stopped it,
# never taken for a full disk: through tests/shim/shortwrite.c, the first
# write to one file moves half its bytes (or none) and every later write
# to that file fails with EIO, as a file system does when an I/O error cuts
# a request short. Each writer continues a short write (or tries a write
# that moved nothing once more) and names EIO: streams' playback files and
# frames, the frames CSV log (its header is the first write), meta's
# files, fileio prepare's test files. (Before, streams and the CSV header
# said "No space left on device" for the short write, meta and fileio for
# the write that moved nothing.)
. "$SM_SOURCE_DIR/tests/lib.sh"
SHIM="$SM_BUILD_DIR/libsm_shortwrite.so"
[ -f "$SHIM" ] || skip "the shortwrite shim was not built"
[ "${SM_SANITIZER:-none}" = none ] || skip "a preloaded shim and a sanitizer's runtime do not mix"
mkdir -p "$T_DIR/w"; cd "$T_DIR/w" || exit 1
EIO="Input/output error"
# short MODE TEXT DESC CMD...: run CMD with the shim aimed at paths
# containing TEXT (MODE half or zero); exit 1, its error line names EIO
short() {
  local mode=$1 text=$2 d=$3
  shift 3
  SM_SHORT_MODE=$mode SM_SHORT_FILE=$text SM_SHORT_NTH=1 LD_PRELOAD="$SHIM" "$@" >"$T_DIR/o" 2>"$T_DIR/e"
  local rc=$?
  check "$d: exit 1 (got $rc)" test "$rc" = 1
  check "$d: the error is EIO" grep -q "cannot write .*: $EIO\|write failed while writing .*: $EIO" "$T_DIR/e"
  if grep -q "No space left on device\|disk full" "$T_DIR/e"; then fail "$d: called a full disk"; sed 's/^/  | /' "$T_DIR/e" | head -3 >&2; else ok; fi
}
short half /play-000.stm "streams: a playback file's write cut short" \
  "$STORMARK" streams . --rate-mib 2 --step 1 --time 4 --max-streams 2 --quiet --play
check "streams: the file named" grep -q "^stormark: cannot write '.*/play-000.stm': $EIO$" "$T_DIR/e"
short half frame000000.tst "streams: a playback frame's write cut short" \
  "$STORMARK" streams . --video-format v210-sd-ntsc --fps 23.976 --step 1 --time 4 --max-streams 2 --quiet --play
check "streams: the frame named" grep -q "^stormark: cannot write '.*/play-v210-sd-ntsc-000/frame000000.tst': $EIO$" "$T_DIR/e"
mkdir -p fr
short half /.log.csv. "frames: the CSV log's header cut short" "$STORMARK" frames -w 4 -n 10 -x log.csv fr
check "frames: the log named" grep -qx "stormark frames: cannot write 'log.csv': $EIO" "$T_DIR/e"
check "frames: no log left" test ! -e log.csv
rm -rf fr
for m in half zero; do
  short $m frame000003.tst "meta: a file's write cut short ($m)" "$STORMARK" meta -n 10 --size 2M .
  check "meta ($m): the file named" grep -q "^stormark: cannot write '.*/frame000003.tst': $EIO" "$T_DIR/e"
  short $m test_file.1 "fileio prepare: a write cut short ($m)" "$STORMARK" fileio --file-num=2 --file-total-size=8M prepare
  check "fileio ($m): the file named" grep -q "write failed while writing 'test_file.1': $EIO" "$T_DIR/e"
  "$STORMARK" fileio --file-num=2 --file-total-size=8M cleanup >/dev/null 2>&1
done
check "nothing left behind" test -z "$(ls -A)"
finish
