#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Before/after a change: two stormark binaries on the same work, in
# alternating runs (A B, then B A), and the median of the per-pair ratios
# B / A. The work: 2K frames, 4 threads, direct, write then read (frametest's
# command line), and fileio 4 KiB direct random reads at depth 32 (async,
# io_uring), one thread.
#
#   STORMARK_A=old/stormark STORMARK_B=build/stormark bench/bench-ab.sh
#
# Environment: STORMARK_A, STORMARK_B (required), DIR (scratch directory on
# the disk; default ../build/bench-ab, not tmpfs; removed at the end), PAIRS
# (default 5), NFRAMES (2K frames per run, 12512 KiB each; default 100),
# T (seconds per fileio run, default 3), SIZE (fileio's file, default 1G).
set -u
here=$(cd "$(dirname "$0")" && pwd)
A=${STORMARK_A:-}
B=${STORMARK_B:-}
DIR=${DIR:-$here/../build/bench-ab}
PAIRS=${PAIRS:-5}
NFRAMES=${NFRAMES:-100}
T=${T:-3}
SIZE=${SIZE:-1G}
PY=$(command -v python3) || { echo "bench-ab: python3 is needed" >&2; exit 1; }
for b in "$A" "$B"; do
	{ [ -n "$b" ] && [ -x "$b" ]; } || { echo "bench-ab: set STORMARK_A and STORMARK_B to two stormark binaries" >&2; exit 1; }
done
A=$(readlink -f "$A"); B=$(readlink -f "$B")
mkdir -p "$DIR" || exit 1
DIR=$(cd "$DIR" && pwd)
[ "$(stat -f -c %T "$DIR")" = tmpfs ] && { echo "bench-ab: '$DIR' is on tmpfs; set DIR to the disk" >&2; exit 1; }
D=$(mktemp -d "$DIR/ab.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$D/fA" "$D/fB" "$D/io" || exit 1
LOG=$D/log.txt

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# frames BIN SUBDIR write|read: frames per second of one run. Before a
# write, the previous frames go and the journal is committed, untimed.
frames() {
	local args=(-t 4 -n "$NFRAMES")
	[ "$3" = write ] && { args=(-w 2k "${args[@]}"); rm -f "$D/$2"/frame*; sync -f "$D/$2"; }
	"$1" frames "${args[@]}" "$D/$2" >"$D/out" 2>>"$LOG" || { echo "bench-ab: $1 frames failed (see $LOG)" >&2; return 1; }
	sed -n 's/^Overall frame rate \.* \([0-9.]*\) fps.*/\1/p' "$D/out"
}

# fileio BIN: IOPS of one 4 KiB direct random read run at depth 32
fileio() {
	(cd "$D/io" && "$1" fileio --file-total-size="$SIZE" --file-num=1 --file-test-mode=rndrd \
		--file-block-size=4K --file-extra-flags=direct --file-io-mode=async --file-async-backlog=32 \
		--time="$T" --json="$D/io.json" run >>"$LOG" 2>&1) || { echo "bench-ab: $1 fileio failed (see $LOG)" >&2; return 1; }
	"$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.1f' % (d['ops']['read']['count'] / (d['duration_ns'] / 1e9)))" "$D/io.json"
}

# case NAME CMD...: PAIRS pairs of CMD A and CMD B (CMD gets the binary and
# a per-binary argument: the frames directory), B first in even pairs
run_case() {
	local name=$1 i a b r; shift
	local ra=() rb=() rr=()
	for i in $(seq "$PAIRS"); do
		if [ $((i % 2)) = 1 ]; then
			a=$("$@" "$A" fA) && b=$("$@" "$B" fB) || return 1
		else
			b=$("$@" "$B" fB) && a=$("$@" "$A" fA) || return 1
		fi
		r=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print 0 }')
		ra+=("$a"); rb+=("$b"); rr+=("$r")
	done
	printf '%-28s %12.1f %12.1f %8.3f   [%s]\n' "$name" "$(printf '%s\n' "${ra[@]}" | median)" \
		"$(printf '%s\n' "${rb[@]}" | median)" "$(printf '%s\n' "${rr[@]}" | median)" "${rr[*]}"
}
fw() { frames "$1" "$2" write; }
fr() { frames "$1" "$2" read; }
fi4k() { fileio "$1"; }

echo "bench-ab: $(date -u '+%Y-%m-%d %H:%M UTC'), $PAIRS pairs; kernel $(uname -r), $(nproc) CPUs,"
echo "  $(df --output=fstype "$DIR" | tail -1) on $(df --output=source "$DIR" | tail -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  A: $A ($("$A" --version | head -1))"
echo "  B: $B ($("$B" --version | head -1))"
echo "  frames: stormark frames [-w 2k] -t 4 -n $NFRAMES DIR (fps); fileio: --file-num=1 --file-total-size=$SIZE"
echo "  --file-test-mode=rndrd --file-block-size=4K --file-extra-flags=direct --file-io-mode=async"
echo "  --file-async-backlog=32 --time=$T (IOPS)"
(cd "$D/io" && "$A" fileio --file-total-size="$SIZE" --file-num=1 prepare >>"$LOG" 2>&1) ||
	{ echo "bench-ab: prepare failed (see $LOG)" >&2; exit 1; }
# one untimed warm-up write of each, so the first read has frames
fw "$A" fA >/dev/null && fw "$B" fB >/dev/null || exit 1
printf '%-28s %12s %12s %8s   %s\n' case A B "B/A" "per-pair B/A"
run_case "frames 2K write (fps)" fw || exit 1
run_case "frames 2K read (fps)" fr || exit 1
run_case "fileio 4K rand read QD32" fi4k || exit 1
