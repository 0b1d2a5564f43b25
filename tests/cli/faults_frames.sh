# SPDX-License-Identifier: MIT
# stormark frames (and the frametest name) when the file system fails:
# writes and reads that fail with EIO or ENOSPC after a few requests through
# tests/fusefail, psync and uring engines, direct and buffered, and a full
# tmpfs. Each case: exit 1, one error line naming the frame file, the
# frametest report of the frames moved before the error (and the error in
# the JSON), and nothing touched but the test's own frames.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_fault_fs   # B: the backing directory (keep.txt in it), M: its FUSE mount point
FRAME=65536
CASES=0

# only frames (and the .stormark marker of a write test, while there is
# one) and the user's file in DIR; the user's file intact
left_ok() {
	local d=$1 dir=$2
	check "$d: nothing but frames and the user's file" \
		test -z "$(ls -A "$dir" | grep -v '^frame[0-9]\{6\}\.tst$' | grep -vx 'keep.txt\|\.stormark')"
	check "$d: the user's file is intact" grep -qx "not stormark's" "$dir/keep.txt"
}

# fault DESC KIND(write|read) ERR PROG FUSEFAIL-OPTS -- FRAMES-ARGS
fault() {
	local d=$1 kind=$2 err=$3 prog=$4 fo=() rc name
	shift 4
	while [ "$1" != -- ]; do fo+=("$1"); shift; done
	shift
	CASES=$((CASES + 1))
	name=$(basename "$prog")
	[ "$name" = stormark ] && name="stormark frames"
	ff_mount "$B" "$M" "${fo[@]}" || { fail "$d: mount"; return; }
	rm -f "$T_DIR/r.json"
	if [ "$(basename "$prog")" = stormark ]; then
		"$prog" frames --force "$@" --json="$T_DIR/r.json" "$M" >"$T_DIR/o" 2>"$T_DIR/e"
	else
		"$prog" --force "$@" "$M" >"$T_DIR/o" 2>"$T_DIR/e"
	fi
	rc=$?
	ff_umount "$M"
	if [ $rc = 1 ]; then ok; else fail "$d: exit $rc, wanted 1"; sed 's/^/  | /' "$T_DIR/e" | head -5 >&2; fi
	grep -v -e ": warning: " -e "^stormark: stall: " -e "^stormark: cliff: " "$T_DIR/e" >"$T_DIR/e1"
	check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
	if grep -Eq "^$name: cannot $kind '$M/frame[0-9]{6}\.tst': $err\$" "$T_DIR/e1"; then ok
	else fail "$d: the error names the frame"; sed 's/^/  | /' "$T_DIR/e1" >&2; fi
	for s in "Frames transferred:" "Overall frame rate" "Average file time"; do
		check "$d: the report has '$s'" grep -q "$s" "$T_DIR/o"
	done
	check "$d: frames before the error counted" \
		test "$(sed -n 's/^Frames transferred: \([0-9]*\) .*/\1/p' "$T_DIR/o")" -ge 1
	[ -e "$T_DIR/r.json" ] || [ "$name" != "stormark frames" ] || fail "$d: no JSON written"
	[ -e "$T_DIR/r.json" ] && check "$d: JSON: the error as on stderr" \
		test "$(jq -r '.errors[0]' "$T_DIR/r.json")" = "$(sed "s/^$name: //" "$T_DIR/e1")"
}

for eng in psync uring; do
	for buf in "" --buffered; do
		rm -f "$B"/frame*.tst
		fault "write $eng ${buf:-direct} EIO" write "Input/output error" "$STORMARK" \
			--fail-write=30 -- -w 64 -n 100 -t 2 --engine $eng $buf
		left_ok "write $eng ${buf:-direct} EIO" "$B"
		# a frame cut short by the error is removed, never taken for a frame
		check "write $eng ${buf:-direct} EIO: every frame left is whole" \
			test -z "$(find "$B" -name 'frame*.tst' ! -size ${FRAME}c)"
		rm -f "$B"/frame*.tst
		fault "write $eng ${buf:-direct} ENOSPC" write "No space left on device" "$STORMARK" \
			--fail-write=30 --errno=enospc -- -w 64 -n 100 -t 2 --engine $eng $buf
		left_ok "write $eng ${buf:-direct} ENOSPC" "$B"
	done
done
rm -f "$B"/frame*.tst
fault "write uring -a 4 EIO" write "Input/output error" "$STORMARK" --fail-write=30 -- -w 64 -n 100 -t 2 -a 4
fault "write under the frametest name" write "Input/output error" "$SM_BUILD_DIR/frametest" \
	--fail-write=30 -- -w 64 -n 100 -t 2

# reads: frames written beforehand, not changed by the failed read test
rm -f "$B"/frame*.tst
"$STORMARK" frames -w 64 -n 100 -t 2 "$B" >/dev/null 2>&1 || fail "writing the frames to read"
sum=$(cat "$B"/frame*.tst | md5sum)
for eng in psync uring; do
	for buf in "" --buffered; do
		fault "read $eng ${buf:-direct} EIO" read "Input/output error" "$STORMARK" \
			--fail-read=30 -- -r -t 2 --engine $eng $buf
	done
done
fault "read uring -a 4 EIO" read "Input/output error" "$STORMARK" --fail-read=30 -- -r -t 2 -a 4
fault "read under the frametest name" read "Input/output error" "$SM_BUILD_DIR/frametest" \
	--fail-read=30 -- -r -t 2
check "read tests: the frames are unchanged" test "$(cat "$B"/frame*.tst | md5sum)" = "$sum"
check "read tests: all 100 frames still there" test "$(ls "$B"/frame*.tst | wc -l)" = 100
left_ok "read tests" "$B"

# streams (-s): one file; the error names it and the offset
stream_fault() {
	local d=$1 kind=$2 err=$3 fo=() rc
	shift 3
	while [ "$1" != -- ]; do fo+=("$1"); shift; done
	shift
	CASES=$((CASES + 1))
	ff_mount "$B" "$M" "${fo[@]}" || { fail "$d: mount"; return; }
	"$STORMARK" frames -s "$@" --json="$T_DIR/r.json" "$M/stream.dat" >"$T_DIR/o" 2>"$T_DIR/e"
	rc=$?
	ff_umount "$M"
	check "$d: exit 1 (got $rc)" test $rc = 1
	grep -v -e ": warning: " -e "^stormark: stall: " -e "^stormark: cliff: " "$T_DIR/e" >"$T_DIR/e1"
	check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
	if grep -Eq "^stormark frames: cannot $kind '$M/stream\.dat': $err at offset [0-9]+\$" "$T_DIR/e1"; then ok
	else fail "$d: the error names the stream and the offset"; sed 's/^/  | /' "$T_DIR/e1" >&2; fi
	check "$d: the report" grep -q "Frames transferred:" "$T_DIR/o"
	check "$d: JSON: the error as on stderr" \
		test "$(jq -r '.errors[0]' "$T_DIR/r.json")" = "$(sed "s/^stormark frames: //" "$T_DIR/e1")"
	check "$d: only the stream and the user's file" \
		test "$(ls -A "$B" | grep -vx 'keep.txt\|stream.dat\|\.stormark')" = ""
}
rm -f "$B"/frame*.tst
for eng in psync uring; do
	stream_fault "stream write $eng EIO" write "Input/output error" --fail-write=30 -- -w 64 -n 100 --engine $eng
	stream_fault "stream write $eng ENOSPC" write "No space left on device" --fail-write=30 --errno=enospc -- \
		-w 64 -n 100 --engine $eng
done
rm -f "$B/stream.dat"
"$STORMARK" frames -s -w 64 -n 100 "$B/stream.dat" >/dev/null 2>&1 || fail "writing the stream to read"
for eng in psync uring; do
	stream_fault "stream read $eng EIO" read "Input/output error" --fail-read=30 -- -r -z 64 --engine $eng
done
rm -f "$B/stream.dat"

# ---- a full tmpfs ------------------------------------------------------------
T="$T_DIR/small"
tmpfs_mount "$T" 4m || skip "cannot mount a tmpfs here"
echo "not stormark's" >"$T/keep.txt"
for eng in psync uring; do
	for buf in "" --buffered; do
		d="tmpfs write $eng ${buf:-direct} full"
		CASES=$((CASES + 1))
		"$STORMARK" frames --force -w 64 -n 200 -t 2 --engine $eng $buf "$T" >"$T_DIR/o" 2>"$T_DIR/e"
		rc=$?
		check "$d: exit 1 (got $rc)" test $rc = 1
		grep -v -e ": warning: " -e "^stormark: stall: " -e "^stormark: cliff: " "$T_DIR/e" >"$T_DIR/e1"
		check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
		check "$d: the error names the frame" \
			grep -Eq "^stormark frames: cannot write '$T/frame[0-9]{6}\.tst': No space left on device$" "$T_DIR/e1"
		check "$d: the report" grep -q "Frames transferred:" "$T_DIR/o"
		left_ok "$d" "$T"
		rm -f "$T"/frame*.tst
	done
done

# a write that fills the disk half-way: the reason, not a short count
dd if=/dev/zero of="$T/fill" bs=4k 2>/dev/null
truncate -s -32K "$T/fill"
for eng in psync uring; do
	d="tmpfs write $eng: disk full half-way through a frame"
	CASES=$((CASES + 1))
	expect_rc 1 "$d" "$STORMARK" frames --force -w 64 -n 1 --buffered --engine $eng "$T"
	check "$d: ENOSPC named" grep -q "^stormark frames: cannot write '$T/frame000000.tst': No space left on device$" "$T_DIR/out"
	rm -f "$T"/frame*.tst
done

echo "frames fault cases: $CASES"
finish
