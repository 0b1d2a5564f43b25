#!/bin/sh
# SPDX-License-Identifier: MIT
# Record what real sysbench 1.0.20 prints for each line of errors.cases:
# errors/NAME.out (stdout), errors/NAME.err (stderr), errors/NAME.rc (the
# exit code), errors/NAME.cmd (the command line). Run from anywhere:
#   sh tests/golden/sysbench-1.0.20/record.sh [/path/to/real/sysbench]
# Each case runs in a new empty directory (after a small prepare for
# "prep"), with SIGINT at its default and a 30 s time limit. With
# FUSEFAIL=path/to/fusefail it also records faults.cases (below);
# ONLY=faults records those alone.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SB=${1:-/usr/bin/sysbench}
"$SB" --version | grep -qx 'sysbench 1.0.20' || { echo "not sysbench 1.0.20: $SB" >&2; exit 1; }
mkdir -p "$here/errors"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "${ONLY:-}" = faults ] ||
grep -v '^#' "$here/errors.cases" | while IFS='|' read -r name setup args; do
	name=$(echo $name); setup=$(echo $setup)
	[ -n "$name" ] || continue
	rm -rf "$work/d"; mkdir "$work/d"
	if [ "$setup" = prep ]; then
		(cd "$work/d" && "$SB" fileio --file-total-size=8M --file-num=4 prepare >/dev/null) || exit 1
	fi
	# shellcheck disable=SC2086 # the arguments are split on spaces
	(cd "$work/d" && exec timeout 30 "$SB" $args) >"$here/errors/$name.out" 2>"$here/errors/$name.err" </dev/null
	echo $? >"$here/errors/$name.rc"
	echo "sysbench" $args >"$here/errors/$name.cmd"
done

# Faults (faults.cases): real sysbench on a tests/fusefail mount, when
# FUSEFAIL names the built fusefail binary (as root, or where FUSE mounts
# are allowed):  FUSEFAIL=build/fusefail sh tests/golden/sysbench-1.0.20/record.sh
[ -n "${FUSEFAIL:-}" ] || exit 0
FUSEFAIL=$(cd "$(dirname "$FUSEFAIL")" && pwd)/$(basename "$FUSEFAIL")
mkdir -p "$here/faults"
grep -v '^#' "$here/faults.cases" | while IFS='|' read -r name ffopts args; do
	name=$(echo $name)
	[ -n "$name" ] || continue
	rm -rf "$work/b" "$work/m"; mkdir -p "$work/b/d" "$work/m"
	case $args in
	*prepare) ;;
	*) (cd "$work/b/d" && "$SB" fileio --file-total-size=8M --file-num=2 prepare >/dev/null) || exit 1 ;;
	esac
	# shellcheck disable=SC2086 # the options are split on spaces
	"$FUSEFAIL" -f $ffopts "$work/b" "$work/m" 2>/dev/null &
	pid=$!
	i=0
	while ! mountpoint -q "$work/m" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	mountpoint -q "$work/m" || { echo "fusefail did not mount" >&2; kill $pid; exit 1; }
	# shellcheck disable=SC2086 # the arguments are split on spaces
	(cd "$work/m/d" && exec timeout 30 "$SB" $args) >"$here/faults/$name.out" 2>"$here/faults/$name.err" </dev/null
	echo $? >"$here/faults/$name.rc"
	echo "sysbench" $args "# fusefail" $ffopts >"$here/faults/$name.cmd"
	ls "$work/b/d" >"$here/faults/$name.files"
	i=0
	while ! fusermount3 -u "$work/m" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	wait $pid
done
