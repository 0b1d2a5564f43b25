# SPDX-License-Identifier: MIT
# stormark run when the file system fails (tests/fusefail): reads and writes
# failing with EIO or ENOSPC in the block tests and in the frame tests
# (--only aims the faults at one phase's files), and a small tmpfs. Each
# case: exit 1, one error line naming the file, the report of what was
# measured ("profiled only in part"), the error in the JSON, and the test
# directory removed (a FUSE file system releases files late: the removal
# must wait for it) with the user's file untouched.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_fault_fs   # B: the backing directory (keep.txt in it), M: its FUSE mount point
CASES=0

# fault DESC FILE-RE ERR FUSEFAIL-OPTS -- RUN-ARGS
fault() {
	local d=$1 fre=$2 err=$3 fo=() rc
	shift 3
	while [ "$1" != -- ]; do fo+=("$1"); shift; done
	shift
	CASES=$((CASES + 1))
	ff_mount "$B" "$M" "${fo[@]}" || { fail "$d: mount"; return; }
	"$STORMARK" run "$M" --force --time 1 --quiet --no-confirm --json "$T_DIR/r.json" "$@" >"$T_DIR/o" 2>"$T_DIR/e"
	rc=$?
	ff_umount "$M"
	if [ $rc = 1 ]; then ok; else fail "$d: exit $rc, wanted 1"; sed 's/^/  | /' "$T_DIR/e" | head -5 >&2; fi
	grep -v '^stormark: \(warning\|note\|stall\|cliff\): ' "$T_DIR/e" >"$T_DIR/e1"
	check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
	if grep -Eq "^stormark: .*'$M/\.stormark-run-[A-Za-z0-9]{6}/$fre'.*: $err\$" "$T_DIR/e1"; then ok
	else fail "$d: the error names the file"; sed 's/^/  | /' "$T_DIR/e1" >&2; fi
	check "$d: the report of what was measured" grep -q "profiled only in part" "$T_DIR/o"
	check "$d: JSON: the error as on stderr" \
		test "$(jq -r '.errors[0]' "$T_DIR/r.json")" = "$(sed 's/^stormark: //' "$T_DIR/e1")"
	check "$d: JSON: not done" jq -e '.run.phase_reached != "done" and .interrupted == false' "$T_DIR/r.json" >/dev/null
	check "$d: the test directory removed, the user's file alone" test "$(ls -A "$B")" = keep.txt
	check "$d: the user's file is intact" grep -qx "not stormark's" "$B/keep.txt"
}

fault "block test write EIO" "block.dat" "Input/output error" --fail-write=20 --only=block.dat --
fault "block test write ENOSPC" "block.dat" "No space left on device" --fail-write=20 --errno=enospc --only=block.dat --
fault "block test read EIO" "block.dat" "Input/output error" --fail-read=5 --only=block.dat --
fault "block test write EIO, psync" "block.dat" "Input/output error" --fail-write=20 --only=block.dat -- --engine psync
fault "frame test write EIO" "frames-[a-z0-9]+/frame[0-9]{6}\.tst" "Input/output error" --fail-write=10 --only=/frames- --
fault "frame test write ENOSPC" "frames-[a-z0-9]+/frame[0-9]{6}\.tst" "No space left on device" \
	--fail-write=10 --errno=enospc --only=/frames- --
fault "frame test read EIO" "frames-[a-z0-9]+/frame[0-9]{6}\.tst" "Input/output error" --fail-read=10 --only=/frames- --
check "frame test read EIO: the block tests were measured" \
	jq -e '.run.classic[0].read.op.count > 0' "$T_DIR/r.json" >/dev/null

# a small tmpfs: run fits its working set or refuses; whatever happens,
# one line when it fails and nothing left behind
T="$T_DIR/small"
tmpfs_mount "$T" 16m || skip "cannot mount a tmpfs here"
echo "not stormark's" >"$T/keep.txt"
CASES=$((CASES + 1))
"$STORMARK" run "$T" --force --time 1 --quiet --no-confirm >"$T_DIR/o" 2>"$T_DIR/e"
rc=$?
check "tmpfs 16 MiB: exit 0 or 1 (got $rc)" test $rc = 0 -o $rc = 1
[ $rc = 1 ] && check "tmpfs 16 MiB: one error line" test "$(grep -vc '^stormark: \(warning\|note\|stall\|cliff\): ' "$T_DIR/e")" = 1
check "tmpfs 16 MiB: the test directory removed" test "$(ls -A "$T")" = keep.txt
check "tmpfs 16 MiB: the user's file is intact" grep -qx "not stormark's" "$T/keep.txt"

echo "run fault cases: $CASES"
finish
