# SPDX-License-Identifier: MIT
# stormark run on a small file system (tmpfs of 4, 16, 64 and 256 MiB):
# the working set is sized to the free space it found (a margin left free),
# a frame test whose fewest frames do not fit is skipped with a warning,
# and the run never fails with ENOSPC; too little space to run at all is
# refused up front (exit 2, one line with the figure needed, nothing
# created). The mount points are file system roots: --force lets run use them.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
jqok() { jq -e "$@" >/dev/null; }
MOUNTS=""
umount_all() { for m in $MOUNTS; do umount "$m" 2>/dev/null; done; t_cleanup; }
trap umount_all EXIT
small_fs() {   # small_fs DIR SIZE
  mkdir -p "$1"
  mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null || return 1
  MOUNTS="$MOUNTS $1"
}
small_fs "$T_DIR/m4" 4m || skip "cannot mount a tmpfs here (needs root)"

# too small to run at all
"$S" run "$T_DIR/m4" --force --time 5 --quiet >"$T_DIR/o" 2>"$T_DIR/e"
rc=$?
check "4 MiB: exit 2 (got $rc)" test $rc = 2
check "4 MiB: one line" test "$(wc -l <"$T_DIR/e")" = 1
check "4 MiB: the figure needed" grep -q "^stormark run: '$T_DIR/m4' has 4.00 MiB free; a run needs at least 8.00 MiB" "$T_DIR/e"
check "4 MiB: nothing created" test -z "$(ls -A "$T_DIR/m4")"
check "4 MiB: nothing on stdout" test ! -s "$T_DIR/o"

# sized down: $1 MiB, the frame sizes expected skipped
sized() {
  local mib=$1 skipped=$2 d="$T_DIR/m$1"
  small_fs "$d" "${mib}m" || { fail "cannot mount a ${mib} MiB tmpfs"; return; }
  echo "not stormark's" >"$d/keep.txt"
  "$S" run "$d" --force --time 5 --quiet --json="$T_DIR/r$mib.json" >"$T_DIR/o$mib" 2>"$T_DIR/e$mib"
  local rc=$?
  check "$mib MiB: exit 0 (got $rc)" test $rc = 0
  [ $rc = 0 ] || sed 's/^/  | /' "$T_DIR/e$mib" | head -5 >&2
  check "$mib MiB: no ENOSPC" sh -c "! grep -q 'No space left' '$T_DIR/o$mib' '$T_DIR/e$mib'"
  check "$mib MiB: the test directory removed" test "$(ls -A "$d")" = keep.txt
  check "$mib MiB: the user's file is intact" grep -qx "not stormark's" "$d/keep.txt"
  check "$mib MiB: the block tests ran" \
    jqok '[.run.classic[] | .read.op.count > 0 and .write.op.count > 0] | all' "$T_DIR/r$mib.json"
  check "$mib MiB: the block test file fits the free space" \
    jqok '.params.block_file_bytes <= 0.9 * .environment.fs_free_bytes' "$T_DIR/r$mib.json"
  if [ -n "$skipped" ]; then
    check "$mib MiB: frame tests skipped ($skipped) with a warning" \
      jqok --arg s "($skipped)" '[.warnings[] | select(.code == "frame_test_skipped" and (.message | contains($s)))] | length == 1' "$T_DIR/r$mib.json"
  fi
  check "$mib MiB: said in the text report" grep -q "skipped ($skipped)" "$T_DIR/o$mib"
  [ "$(jq '.run.frames | length' "$T_DIR/r$mib.json")" = 3 ] && ok || fail "$mib MiB: three frame sizes in the JSON"
}
sized 16 "hd, 2k, 4k"
check "16 MiB: the verdicts say why there are none" grep -q "none: no frame test fitted in the free space" "$T_DIR/o16"
sized 64 "hd, 2k, 4k"
sized 256 "4k"
check "256 MiB: the hd and 2k frame tests ran" \
  jqok '[.run.frames[] | select(.preset == "hd" or .preset == "2k") | .write.frames > 0 and .read.frames > 0] | (all and length == 2)' "$T_DIR/r256.json"
finish
