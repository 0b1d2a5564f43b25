#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark streams when the file system fails: a stream's write or read
# failing with EIO or ENOSPC (tests/fusefail, --only aims at the capture or
# the playback files) and a small tmpfs that fills. A fault is not an
# answer: the search stops as frames and fileio stop, exit 1, one error
# line naming the file, the report of what was measured before it (the
# error in the JSON too), and a cell no step could judge is "not measured"
# (null in the JSON, its reason beside it), never "0 held". The test
# directory is removed and the user's file left alone.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_fault_fs   # B: the backing directory (keep.txt in it), M: its FUSE mount point
J="$T_DIR/r.json"
jqe() { jq -e "$@" "$J" >/dev/null; }

# outcome DESC DIR KIND(write|read) FILE-RE ERR: the checks every fault case
# makes after the command ran with stdout in o, stderr in e, exit in rc
outcome() {
	local d=$1 dir=$2 kind=$3 fre=$4 err=$5
	if [ "$rc" = 1 ]; then ok; else fail "$d: exit $rc, wanted 1"; sed 's/^/  | /' "$T_DIR/e" | head -5 >&2; fi
	grep -v '^stormark: \(warning\|note\|stall\|cliff\): ' "$T_DIR/e" >"$T_DIR/e1"
	check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
	if grep -Eq "^stormark: cannot $kind '$dir/\.stormark-streams-[A-Za-z0-9]{6}/$fre': $err\$" "$T_DIR/e1"; then ok
	else fail "$d: the error names the file"; sed 's/^/  | /' "$T_DIR/e1" >&2; fi
	check "$d: the report of what was measured" grep -q '^format ' "$T_DIR/o"
	check "$d: JSON: the error as on stderr" test "$(jq -r '.errors[0]' "$J")" = "$(sed 's/^stormark: //' "$T_DIR/e1")"
	check "$d: no answer of 0 from the fault" jqe '[.streams[] | select(.max_streams == 0)] | length == 0'
	check "$d: the cell says it stopped at the error" \
		jqe --arg k "$kind" '[.streams[] | .note | select(test("stopped at an error .*cannot " + $k))] | length == 1'
	check "$d: no step judged a stream that failed" jqe '[.streams[].steps[].per_stream[].error == 0] | all'
}

# fault DESC KIND FILE-RE ERR FUSEFAIL-OPTS -- STREAMS-ARGS
fault() {
	local d=$1 kind=$2 fre=$3 err=$4 fo=()
	shift 4
	while [ "$1" != -- ]; do fo+=("$1"); shift; done
	shift
	ff_mount "$B" "$M" "${fo[@]}" || { fail "$d: mount"; return; }
	rm -f "$J"
	"$STORMARK" streams "$M" --force "${FMT[@]}" --step 1 --time 6 --max-streams 4 --quiet \
		--json="$J" "$@" >"$T_DIR/o" 2>"$T_DIR/e"
	rc=$?
	ff_umount "$M"
	outcome "$d" "$M" "$kind" "$fre" "$err"
	left=$(ls -A "$B" | tr '\n' ' ')
	check "$d: the test directory removed, the user's file alone (there: $left)" test "$left" = "keep.txt "
	# what one case left must not fail the next ones too
	find "$B" -mindepth 1 -maxdepth 1 ! -name keep.txt -exec rm -rf {} +
	check "$d: the user's file is intact" grep -qx "not stormark's" "$B/keep.txt"
}

FMT=(--rate-mib 2)
# the first write fails: nothing was measured
fault "capture, first write EIO" write "cap-[0-9]{3}\.stm" "Input/output error" --fail-write=0 --only=/cap- -- --capture
check "capture, first write EIO: not measured, null, the reason beside it" \
	jqe '.streams[0] | .max_streams == null and .max_streams_headroom == null and .aggregate_bytes_per_s == null
	     and (.not_measured | test("cannot write"))'
check "capture, first write EIO: the text says not measured" grep -q '^custom-2mib *not measured' "$T_DIR/o"
# later: the steps before it stand, the answer is cut short ("?")
fault "capture, a later write EIO" write "cap-[0-9]{3}\.stm" "Input/output error" --fail-write=30 --only=/cap- -- --capture
check "capture, a later write EIO: the steps before it stand" \
	jqe '.streams[0] | .max_streams >= 1 and .searched == false and ([.steps[] | select(.held)] | length >= 1)'
fault "capture, write ENOSPC" write "cap-[0-9]{3}\.stm" "No space left on device" \
	--fail-write=0 --errno=enospc --only=/cap- -- --capture
# playback: the files are written first, then read by the steps
fault "playback, first read EIO" read "play-[0-9]{3}\.stm" "Input/output error" --fail-read=0 --only=/play- -- --play
check "playback, first read EIO: not measured" jqe '.streams[0] | .max_streams == null and (.not_measured | test("cannot read"))'
# both directions: the cell after the fault did not run, and says so
fault "capture EIO, then playback" write "cap-[0-9]{3}\.stm" "Input/output error" --fail-write=0 --only=/cap- --
check "capture EIO, then playback: the playback cell not run, not 0" \
	jqe '.streams[1] | .max_streams == null and .not_measured == "not run: the search stopped at an error before it"'

# frame sequences: the frame file that failed is named, in its stream's
# directory (a frame opened, written, closed: the write fails)
FMT=(--video-format v210-sd-ntsc --fps 23.976)
fault "sequence capture, write EIO" write "cap-v210-sd-ntsc-000/frame[0-9]{6}\.tst" "Input/output error" \
	--fail-write=5 --only=/cap- -- --capture
fault "sequence playback, read EIO" read "play-v210-sd-ntsc-000/frame[0-9]{6}\.tst" "Input/output error" \
	--fail-read=0 --only=/play- -- --play
check "sequence playback, read EIO: not measured" jqe '.streams[0] | .max_streams == null and (.not_measured | test("cannot read"))'

# The case as a user met it: a 16 MiB tmpfs with 1 MiB left, 200 MiB/s
# streams (a frame is 8 MiB): the first write cannot be whole.
T="$T_DIR/small"
tmpfs_mount "$T" 16m || skip "cannot mount a tmpfs here"
dd if=/dev/zero of="$T/fill" bs=1M count=15 status=none
echo "not stormark's" >"$T/keep.txt"
rm -f "$J"
"$STORMARK" streams --rate-mib 200 --time 4 --step 1 --max-streams 8 --capture --force "$T" \
	--json="$J" >"$T_DIR/o" 2>"$T_DIR/e"
rc=$?
outcome "full tmpfs" "$T" write "cap-[0-9]{3}\.stm" "No space left on device"
check "full tmpfs: not measured, not '0 held'" jqe '.streams[0] | .max_streams == null and (.not_measured | test("No space left"))'
check "full tmpfs: no 'held 0 streams' in the text" sh -c "! grep -q 'held 0 streams' '$T_DIR/o'"
check "full tmpfs: nothing left but the user's files" test "$(ls -A "$T" | sort | tr '\n' ' ')" = "fill keep.txt "
finish
