#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark meta on a file system that fails (tests/fusefail, FUSE): a read
# of a header that fails with EIO is an error of the probe phase, named on
# one line, the other phases going on, exit 1; a write that fails with EIO
# stops the measuring at the create phase; either way the run's files and
# directory are removed and the user's file is left as it was.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_fault_fs   # B: the backing directory (keep.txt in it), M: its FUSE mount point

left_ok() {
  check "$1: only the user's file left" test "$(ls -A "$B")" = keep.txt
  check "$1: the user's file intact" grep -qx "not stormark's" "$B/keep.txt"
}

# from the 10th read of a frame file on, every read fails: the probes
# from the file named on
ff_mount "$B" "$M" --fail-read=10 --only=frame || { fail "mount"; finish; }
"$STORMARK" meta --force -n 50 --size 8k --json="$T_DIR/r.json" "$M" >"$T_DIR/o" 2>"$T_DIR/e"
rc=$?
ff_umount "$M"
check "read EIO: exit 1" test $rc = 1
check "read EIO: one line naming the file" \
  grep -Eq "^stormark: cannot read the header of '.*/\.stormark-meta-.{6}/frame0000[0-9]{2}\.tst': Input/output error" "$T_DIR/e"
check "read EIO: one line on stderr" test "$(wc -l <"$T_DIR/e")" = 1
k=$(grep -oE 'frame0000[0-9]{2}' "$T_DIR/e" | head -1 | sed 's/frame0*//')
check "read EIO: the probe counts 50, an error from the file named on ($k)" \
  test "$(json "$T_DIR/r.json" "(d['meta']['ops']['probe']['count'], d['meta']['ops']['probe']['errors'])")" = "(50, $((50 - ${k:-0})))"
check "read EIO: list and delete ran, every file" \
  test "$(json "$T_DIR/r.json" "(d['meta']['ops']['list']['count'], d['meta']['ops']['delete']['count'], d['meta']['cleaned'])")" = "(50, 50, True)"
check "read EIO: the probe's row shows the errors" grep -Eq "^probe +50 +$((50 - ${k:-0})) " "$T_DIR/o"
check "read EIO: the figures are whole: not called partial" grep -q "Input/output error (the run's files removed)$" "$T_DIR/e"
left_ok "read EIO"

# the 20th write to a frame file fails: create stops there
ff_mount "$B" "$M" --fail-write=20 --errno=eio --only=frame || { fail "mount"; finish; }
"$STORMARK" meta --force -n 50 --size 8k --json="$T_DIR/w.json" "$M" >"$T_DIR/o" 2>"$T_DIR/e"
rc=$?
ff_umount "$M"
check "write EIO: exit 1" test $rc = 1
check "write EIO: one line naming the file" \
  grep -Eq "^stormark: cannot write '.*/\.stormark-meta-.{6}/frame0000[0-9]{2}\.tst': Input/output error" "$T_DIR/e"
check "write EIO: create only, with its error" \
  test "$(json "$T_DIR/w.json" "(sorted(d['meta']['ops']), d['meta']['ops']['create']['errors'], d['meta']['cleaned'])")" = "(['create'], 1, True)"
left_ok "write EIO"
finish
