#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `sysbench` name when a request fails during `run` (tests/fusefail:
# EIO or ENOSPC on a read, a write or an fsync, sync, async, mmap and
# O_DIRECT) or a write fails during `prepare`, against real sysbench 1.0.20 (tests/golden/sysbench-1.0.20/
# faults.cases, recorded by record.sh there): sysbench's FATAL line on
# stdout and no report, nothing on stderr but stormark's notices, exit 1.
# The descriptor and the offset in the FATAL line depend on the run; the
# rest of the line is compared as it is. In async mode sysbench prints
# errno 0 (Success) after "Asynchronous ... failed!", stormark the real
# errno (docs/compat.md). Under `stormark fileio` the same fault gives the
# partial report and one `stormark:` line (tests/cli/faults_fileio.sh).
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/fusefail/mount.sh"
ff_require
G="$SM_SOURCE_DIR/tests/golden/sysbench-1.0.20"
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
B="$T_DIR/back"
M="$T_DIR/mnt"
banner() { sed -E 's/^sysbench 1\.0\.20 \(.*\)$/BANNER/'; }
# the FATAL line with the descriptor and the offset left out
fatal() { grep '^FATAL: ' | sed -E 's/file: [0-9]+/file: F/; s/pos: [0-9]+/pos: P/'; }
# everything else: numbers replaced (the random seed line, sizes are fixed)
shape() { grep -v '^FATAL: ' | banner | sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }
tried=0
while IFS='|' read -r name ffopts args; do
	name=$(echo $name)
	case $name in '#'*|'') continue ;; esac
	tried=$((tried + 1))
	rm -rf "$B"; mkdir -p "$B/d"
	case $args in
	*prepare) ;;   # from an empty directory
	*) (cd "$B/d" && "$SB" fileio --file-total-size=8M --file-num=2 prepare >/dev/null 2>&1) || fail "$name: prepare" ;;
	esac
	# shellcheck disable=SC2086 # the options are split on spaces
	ff_mount "$B" "$M" $ffopts || { fail "$name: mount"; continue; }
	# shellcheck disable=SC2086 # the arguments are split on spaces
	(cd "$M/d" && exec timeout 60 "$SB" $args) >"$T_DIR/out" 2>"$T_DIR/err" </dev/null
	rc=$?
	ff_umount "$M"
	want=$(cat "$G/faults/$name.rc")
	check "$name: exit $want (got $rc)" test "$rc" = "$want"
	check "$name: stdout but the FATAL line (shape)" diff <(shape <"$G/faults/$name.out") <(shape <"$T_DIR/out")
	if [ "${name#async}" != "$name" ]; then
		# sysbench's errno 0 (Success) there; stormark's the error fusefail gave
		check "$name: FATAL lines" diff <(fatal <"$G/faults/$name.out" | sed -E 's/errno = 0 \(Success\)/errno = 5 (Input\/output error)/') \
			<(fatal <"$T_DIR/out")
	else
		check "$name: FATAL line" diff <(fatal <"$G/faults/$name.out") <(fatal <"$T_DIR/out")
	fi
	check "$name: no report" test "$(grep -c 'General statistics\|Throughput:' "$T_DIR/out")" = 0
	check "$name: stderr" diff "$G/faults/$name.err" <(grep -Ev '^stormark: (warning|note): ' "$T_DIR/err")
	case $args in
	*prepare)
		# sysbench leaves the file it stopped in, empty or cut;
		# stormark removes it and says so in a note (docs/compat.md)
		check "$name: sysbench left the file it stopped in" test -s "$G/faults/$name.files"
		check "$name: stormark left no incomplete file" test -z "$(ls "$B/d")"
		check "$name: the note says so" grep -qx "stormark: note: removed the incomplete file 'test_file.0'" "$T_DIR/err" ;;
	*)
		check "$name: the test files left, as sysbench leaves them" diff "$G/faults/$name.files" <(ls "$B/d") ;;
	esac
done <"$G/faults.cases"
echo "$tried faults compared with sysbench 1.0.20"
check "the table has cases" test "$tried" -ge 10
finish
