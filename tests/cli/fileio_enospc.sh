# SPDX-License-Identifier: MIT
# stormark fileio prepare on a full disk (an 8 MiB tmpfs): a clear message
# with the bytes written, exit 1, and no half-written file left to pass for
# a prepared one; files that were there before are cut back, not deleted.
# fileio run filling the disk (seqwr, which creates the files; in mmap mode
# the files are sparse and the full disk is a SIGBUS in the copy): the
# partial report, one line naming the file and offset, exit 1, in every
# --file-io-mode.
. "$SM_SOURCE_DIR/tests/lib.sh"
M="$T_DIR/small"
mkdir -p "$M"
mount -t tmpfs -o size=8m tmpfs "$M" 2>/dev/null || skip "cannot mount a tmpfs here (needs root)"
trap 'umount "$M" 2>/dev/null; t_cleanup' EXIT
# a directory under the mount point: its root is refused without --force
D="$M/d"; mkdir "$D"

for th in 1 3; do
	expect_rc 1 "prepare $th thread(s) on a full disk" "$STORMARK" fileio --file-dir="$D" \
		--file-total-size=16M --file-num=4 --threads=$th prepare
	check "message: disk full" grep -q "disk full while writing '$D/test_file.[0-3]'" "$T_DIR/out"
	check "message: bytes written" grep -Eq "[0-9]+ bytes \([0-9.]+ MiB\) of 16.0 MiB written in all" "$T_DIR/out"
	check "message: one line on stderr" test "$(grep -c '^stormark: ' "$T_DIR/out")" = 1
	bad=0
	for f in "$D"/test_file.*; do
		[ -e "$f" ] || continue
		[ "$(stat -c %s "$f")" = 4194304 ] || bad=1
	done
	check "no half-written file left" test $bad = 0
	# one thread finishes test_file.0 before the disk fills; three share the
	# space and may all be cut short (then all are removed)
	[ $th = 1 ] && check "the first file was complete" test -e "$D/test_file.0"
	"$STORMARK" fileio --file-dir="$D" --file-total-size=16M --file-num=4 --file-test-mode=rndrd --time=1 run >"$T_DIR/run" 2>&1
	check "run after a failed prepare fails" test $? = 1
	rm -f "$D"/test_file.*
done

# files that were there before (prepared by stormark, 1 MiB each) are cut
# back to their old size, not removed
"$STORMARK" fileio --file-dir="$D" --file-total-size=2M --file-num=2 prepare >/dev/null 2>&1
"$STORMARK" fileio --file-dir="$D" --file-total-size=24M --file-num=2 prepare >"$T_DIR/out" 2>&1
check "extend on a full disk: exit 1" test $? = 1
check "existing files kept at their old size" test "$(stat -c %s "$D/test_file.0" "$D/test_file.1" | sort -u)" = 1048576
rm -f "$D"/test_file.*

# ---- run: the disk fills during a creation test --------------------------
echo "not stormark's" >"$D/keep.txt"
free0=$(stat -f -c %a "$M")
# The files of an io_uring run are let go by the kernel after the process
# has exited (the ring is torn down by a kernel worker), so their space can
# come back a little after their removal: wait for it before the next run,
# which would otherwise find the disk full from its first write (the CI on
# d65cae9 saw the mmap run after the async ones fail so, once).
space_back() {
	local i
	for i in $(seq 50); do
		[ "$(stat -f -c %a "$M")" -ge "$free0" ] && return 0
		sleep 0.1
	done
	echo "the space of the removed files did not come back in 5 s" >&2
	return 1
}
for io in sync async mmap; do
	for th in 1 2; do
		d="run seqwr $io, $th thread(s), full disk"
		"$STORMARK" fileio --file-dir="$D" --file-total-size=16M --file-num=2 --file-test-mode=seqwr \
			--file-io-mode=$io --threads=$th --time=10 --json="$T_DIR/r.json" run >"$T_DIR/o" 2>"$T_DIR/e"
		rc=$?
		check "$d: exit 1 (got $rc)" test $rc = 1
		grep -v '^stormark: \(warning\|note\|stall\|cliff\): ' "$T_DIR/e" >"$T_DIR/e1"
		check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
		check "$d: the error names the file and offset" grep -Eq \
			"^stormark: (write of [0-9]+ bytes at offset [0-9]+ of '$D/test_file\.[01]' failed: (SIGBUS on the mapping at file offset [0-9]+: )?|fsync of '$D/test_file\.[01]' failed: )No space left on device$" \
			"$T_DIR/e1"
		for s in "General statistics:" "total number of events:" "written, MiB/s:" "Latency (ms):"; do
			check "$d: partial report has '$s'" grep -q "$s" "$T_DIR/o"
		done
		check "$d: JSON has the error and the writes before it" jq -e \
			'(.errors[0] | test("No space left on device$")) and .ops.write.count > 1 and .interrupted == false' \
			"$T_DIR/r.json" >/dev/null
		check "$d: the user's file is intact" grep -qx "not stormark's" "$D/keep.txt"
		check "$d: nothing else left but the run's files" \
			test "$(ls "$D" | tr '\n' ' ')" = "keep.txt test_file.0 test_file.1 "
		rm -f "$D"/test_file.*
		check "$d: the space of its files comes back" space_back
	done
done

# ---- run: the disk full before the first write ------------------------------
# the one write that failed is no write done: no rate beside zero events
dd if=/dev/zero of="$D/fill" bs=1M count=8 2>/dev/null
"$STORMARK" fileio --file-dir="$D" --file-total-size=16M --file-num=2 --file-test-mode=seqwr --time=10 \
	--json="$T_DIR/z.json" run >"$T_DIR/o" 2>"$T_DIR/e"
check "full from the start: exit 1" test $? = 1
check "full from the start: zero events" grep -Eq '^ +total number of events: +0$' "$T_DIR/o"
check "full from the start: writes/s 0.00" grep -Eq '^ +writes/s: +0\.00$' "$T_DIR/o"
check "full from the start: the JSON's rates are 0" jq -e \
	'.fileio.events == 0 and .fileio.writes_per_s == 0 and .fileio.events_per_s == 0 and .ops.write.errors == 1' \
	"$T_DIR/z.json" >/dev/null
check "full from the start: report --check passes" "$STORMARK" report --check "$T_DIR/z.json"
rm -f "$D"/test_file.* "$D/fill"
finish
