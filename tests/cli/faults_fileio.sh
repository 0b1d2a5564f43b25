# SPDX-License-Identifier: MIT
# stormark fileio run and prepare through a file system that fails
# (tests/fusefail): reads, writes and fsyncs that fail with EIO or ENOSPC
# after a few requests, in every --file-io-mode and every --file-test-mode,
# buffered and O_DIRECT. Each case: exit 1, one error line naming the file
# (and the offset of a read or write), the partial report on stdout (text
# layouts) or in the JSON (with the error under "errors"), and nothing but
# the test files touched. mmap: a read error is a SIGBUS in the copy, which
# must be an error like any other, never a dead process.
. "$SM_SOURCE_DIR/tests/lib.sh"
t_fault_fs   # B: the backing directory (keep.txt in it), M: its FUSE mount point
SIZE="--file-total-size=8M --file-num=2"
CASES=0

# A fresh prepared set in the backing directory (seqwr recreates files).
prep() {
	rm -f "$B"/test_file.*
	"$STORMARK" fileio --file-dir="$B" $SIZE prepare >/dev/null 2>&1 || fail "prepare in $B"
}

# the error line: "<op> of N bytes at offset O of '<M>/test_file.K' failed: ERR"
# or "fsync of '<M>/test_file.K' failed: ERR" (ops as a regex alternation)
err_re() {
	local ops=$1 err=$2 f="'$M/test_file\\.[01]'"
	echo "^stormark: ((($ops) of [0-9]+ bytes at offset [0-9]+ of $f failed: (SIGBUS on the mapping at file offset [0-9]+: )?)|((fsync|fdatasync) of $f failed: ))$err\$"
}

# fault DESC OPS ERR FUSEFAIL-OPTS -- FILEIO-ARGS: one run through the
# failing mount; OPS is what may fail (read|write|fsync), ERR the message.
fault() {
	local d=$1 ops=$2 err=$3 fo=() rc
	shift 3
	while [ "$1" != -- ]; do fo+=("$1"); shift; done
	shift
	CASES=$((CASES + 1))
	prep
	ff_mount "$B" "$M" "${fo[@]}" || { fail "$d: mount"; return; }
	"$STORMARK" fileio --force --file-dir="$M" $SIZE --time=5 "$@" run >"$T_DIR/o" 2>"$T_DIR/e"
	rc=$?
	ff_umount "$M"
	if [ $rc = 1 ]; then ok; else fail "$d: exit $rc, wanted 1"; sed 's/^/  | /' "$T_DIR/e" | head -5 >&2; fi
	grep -v '^stormark: \(warning\|note\|stall\|cliff\): ' "$T_DIR/e" >"$T_DIR/e1"
	check "$d: one error line" test "$(wc -l <"$T_DIR/e1")" = 1
	if grep -Eq "$(err_re "$ops" "$err")" "$T_DIR/e1"; then ok
	else fail "$d: the error names the file and offset"; sed 's/^/  | /' "$T_DIR/e1" >&2; fi
	case " $* " in
	*" --json "*) ;;
	*" --format=text "*)
		check "$d: text report" grep -q "^duration: .* events .*FAILED (partial)" "$T_DIR/o"
		check "$d: text report rows" grep -q "^  event " "$T_DIR/o" ;;
	*)
		for s in "General statistics:" "total number of events:" "Throughput:" "Latency (ms):" "Threads fairness:"; do
			check "$d: partial report has '$s'" grep -q "$s" "$T_DIR/o"
		done ;;
	esac
	check "$d: only the test files and the user's file in the directory" \
		test "$(ls "$B" | tr '\n' ' ')" = "keep.txt test_file.0 test_file.1 "
	check "$d: the user's file is intact" grep -qx "not stormark's" "$B/keep.txt"
}

READ_OPS="read"
WRITE_OPS="write|fsync|fdatasync"
for io in sync async mmap; do
	# reads: through the page cache (each open drops the file's pages, so
	# reads reach the file system), with the mount in direct_io mode, and
	# with O_DIRECT (not for mmap, which has no direct mode)
	for t in seqrd rndrd; do
		fault "$io $t read EIO" "$READ_OPS" "Input/output error" --fail-read=5 -- \
			--file-io-mode=$io --file-test-mode=$t
		[ $io = mmap ] && continue
		fault "$io $t read EIO direct_io mount" "$READ_OPS" "Input/output error" --fail-read=5 --direct-io -- \
			--file-io-mode=$io --file-test-mode=$t
		fault "$io $t read EIO O_DIRECT" "$READ_OPS" "Input/output error" --fail-read=5 -- \
			--file-io-mode=$io --file-test-mode=$t --file-extra-flags=direct
	done
	# writes (mmap: dirty pages reach the file system at msync, so the
	# error is the periodic fsync's), fsyncs, a full disk
	for t in seqwr seqrewr rndwr rndrw; do
		ops=$WRITE_OPS
		[ $t = rndrw ] && ops="$ops|read"
		fault "$io $t write EIO" "$ops" "Input/output error" --fail-write=20 -- \
			--file-io-mode=$io --file-test-mode=$t
		fault "$io $t fsync EIO" "fsync|fdatasync" "Input/output error" --fail-fsync=1 -- \
			--file-io-mode=$io --file-test-mode=$t
		fault "$io $t write ENOSPC" "$ops" "No space left on device" --fail-write=20 --errno=enospc -- \
			--file-io-mode=$io --file-test-mode=$t
	done
	[ $io = mmap ] && continue
	fault "$io rndwr write EIO O_DIRECT" "$WRITE_OPS" "Input/output error" --fail-write=20 -- \
		--file-io-mode=$io --file-test-mode=rndwr --file-extra-flags=direct
done

# every thread stops, the first error is the one reported
fault "sync rndrw 4 threads" "$WRITE_OPS|read" "Input/output error" --fail-write=50 --fail-read=50 -- \
	--file-io-mode=sync --file-test-mode=rndrw --threads=4
fault "async rndrd 3 threads" "$READ_OPS" "Input/output error" --fail-read=30 --direct-io -- \
	--file-io-mode=async --file-test-mode=rndrd --threads=3 --file-async-backlog=16
fault "mmap rndrd 3 threads" "$READ_OPS" "Input/output error" --fail-read=30 -- \
	--file-io-mode=mmap --file-test-mode=rndrd --threads=3
# fdatasync, fsync after every write
fault "sync rndwr fdatasync EIO" "fdatasync" "Input/output error" --fail-fsync=3 -- \
	--file-io-mode=sync --file-test-mode=rndwr --file-fsync-mode=fdatasync
fault "async rndwr fsync-all EIO" "fsync" "Input/output error" --fail-fsync=5 -- \
	--file-io-mode=async --file-test-mode=rndwr --file-fsync-all=on

# the other layouts carry the same partial report
fault "text layout" "$READ_OPS" "Input/output error" --fail-read=5 -- \
	--file-io-mode=sync --file-test-mode=rndrd --file-extra-flags=direct --format=text
fault "mmap text layout" "$READ_OPS" "Input/output error" --fail-read=5 -- \
	--file-io-mode=mmap --file-test-mode=seqrd --format=text
for io in sync async mmap; do
	fault "$io JSON on stdout" "$READ_OPS" "Input/output error" --fail-read=5 -- \
		--file-io-mode=$io --file-test-mode=rndrd --json
	check "$io JSON: valid" jq -e . "$T_DIR/o" >/dev/null
	check "$io JSON: the error, as on stderr" \
		test "$(jq -r '.errors[0]' "$T_DIR/o")" = "$(sed 's/^stormark: //' "$T_DIR/e1")"
	check "$io JSON: not interrupted, reads before the error counted, one failed" \
		jq -e '.interrupted == false and .ops.read.count > 1 and .ops.read.errors >= 1' "$T_DIR/o" >/dev/null
done
# --json=FILE beside the sysbench report
fault "JSON file" "$WRITE_OPS" "Input/output error" --fail-write=20 -- \
	--file-io-mode=async --file-test-mode=rndwr --json="$T_DIR/r.json"
check "JSON file: the error" jq -e '.errors[0] | test("^write of 16384 bytes at offset [0-9]+ of .*test_file.[01].* failed: Input/output error$")' "$T_DIR/r.json" >/dev/null

# ---- prepare through the failing mount ----------------------------------------
prep_fault() {
	local d=$1 err=$2 rc
	shift 2
	CASES=$((CASES + 1))
	rm -f "$B"/test_file.*
	ff_mount "$B" "$M" "$@" || { fail "$d: mount"; return; }
	"$STORMARK" fileio --force --file-dir="$M" $SIZE prepare >"$T_DIR/o" 2>"$T_DIR/e"
	rc=$?
	ff_umount "$M"
	check "$d: exit 1" test $rc = 1
	check "$d: one line on stderr" test "$(wc -l <"$T_DIR/e")" = 1
	check "$d: the message names the file" \
		grep -Eq "^stormark: (write failed|disk full) while writing '$M/test_file\.[01]': $err; [0-9]+ bytes" "$T_DIR/e"
	# no half-written file passes for a prepared one
	for f in "$B"/test_file.*; do
		[ -e "$f" ] || continue
		check "$d: $(basename "$f") is complete or gone" test "$(stat -c %s "$f")" = 4194304
	done
	check "$d: the user's file is intact" grep -qx "not stormark's" "$B/keep.txt"
}
prep_fault "prepare write EIO" "Input/output error" --fail-write=1
prep_fault "prepare write EIO, second file" "Input/output error" --fail-write=5
prep_fault "prepare ENOSPC" "No space left on device" --fail-write=2 --errno=enospc
prep_fault "prepare fsync EIO" "Input/output error" --fail-fsync=0

echo "fileio fault cases: $CASES"
finish
