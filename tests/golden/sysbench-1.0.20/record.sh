#!/bin/sh
# SPDX-License-Identifier: MIT
# Record what real sysbench 1.0.20 prints for each line of errors.cases:
# errors/NAME.out (stdout), errors/NAME.err (stderr), errors/NAME.rc (the
# exit code), errors/NAME.cmd (the command line). Run from anywhere:
#   sh tests/golden/sysbench-1.0.20/record.sh [/path/to/real/sysbench]
# Each case runs in a new empty directory (after a small prepare for
# "prep"), with SIGINT at its default and a 30 s time limit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SB=${1:-/usr/bin/sysbench}
"$SB" --version | grep -qx 'sysbench 1.0.20' || { echo "not sysbench 1.0.20: $SB" >&2; exit 1; }
mkdir -p "$here/errors"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
