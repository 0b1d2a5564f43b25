#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stormark fileio against sysbench 1.0.20 (same file set, same options,
# runs alternating A B B A ...) and against fio with io_uring (4 KiB direct
# random reads at depth 32 on the same file). Prints, per case, the median
# of each tool and the median of the per-pair ratios stormark / other.
#
# Environment: STORMARK (binary; default ../build/stormark), DIR (scratch
# directory on the disk under test; default ../build/bench-fileio), PAIRS
# (default 5), T (seconds per run, default 5), SIZE (file set, default 1G).
# About 6 minutes with the defaults.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SM=${STORMARK:-$here/../build/stormark}
DIR=${DIR:-$here/../build/bench-fileio}
PAIRS=${PAIRS:-5}
T=${T:-5}
SIZE=${SIZE:-1G}
for tool in sysbench fio; do
	command -v $tool >/dev/null || { echo "bench-fileio: '$tool' is not installed" >&2; exit 1; }
done
[ -x "$SM" ] || { echo "bench-fileio: no stormark binary at '$SM' (set STORMARK)" >&2; exit 1; }
SM=$(cd "$(dirname "$SM")" && pwd)/$(basename "$SM")
mkdir -p "$DIR/set" "$DIR/one" || exit 1
DIR=$(cd "$DIR" && pwd)
cd "$DIR/set" || exit 1
SET="--file-total-size=$SIZE --file-num=16"
LOG="$DIR/log.txt"
: >"$LOG"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# events/s from a sysbench-layout report (stdin): events / total time
evs() { awk '/total time:/ { t = $3 + 0 } /total number of events:/ { e = $5 } END { if (t > 0) printf "%.2f\n", e / t; else print 0 }'; }

# case NAME OPTIONS...: PAIRS alternating runs of stormark and sysbench
run_case() {
	local name=$1 i a b; shift
	local ra=() rb=() rr=()
	for i in $(seq "$PAIRS"); do
		# A B, then B A: neither tool always follows the other
		if [ $((i % 2)) = 1 ]; then
			a=$("$SM" fileio $SET "$@" --time="$T" run 2>>"$LOG" | tee -a "$LOG" | evs)
			b=$(sysbench fileio $SET "$@" --time="$T" run 2>>"$LOG" | tee -a "$LOG" | evs)
		else
			b=$(sysbench fileio $SET "$@" --time="$T" run 2>>"$LOG" | tee -a "$LOG" | evs)
			a=$("$SM" fileio $SET "$@" --time="$T" run 2>>"$LOG" | tee -a "$LOG" | evs)
		fi
		ra+=("$a"); rb+=("$b")
		rr+=("$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print 0 }')")
	done
	printf "%-34s %12.1f %12.1f %8.3f   [%s]\n" "$name" \
		"$(printf '%s\n' "${ra[@]}" | median)" "$(printf '%s\n' "${rb[@]}" | median)" \
		"$(printf '%s\n' "${rr[@]}" | median)" "$(echo "${rr[@]}")"
}

echo "stormark fileio vs sysbench 1.0.20: $PAIRS pairs of ${T}-s runs, set $SIZE in 16 files, $(date -u +%FT%TZ)"
echo "kernel $(uname -r), $(nproc) CPUs, $(df --output=fstype "$DIR" | tail -1) on $(df --output=source "$DIR" | tail -1)"
"$SM" fileio $SET --file-dir="$DIR/set" cleanup >/dev/null
"$SM" fileio $SET --threads=2 prepare >/dev/null || exit 1
printf "%-34s %12s %12s %8s   %s\n" "case (events/s)" stormark sysbench ratio "per-pair ratios"
run_case "rndrw 16K 4 threads buffered" --file-test-mode=rndrw --threads=4
run_case "rndrw 16K 4 threads direct" --file-test-mode=rndrw --threads=4 --file-extra-flags=direct
run_case "rndrd 4K direct" --file-test-mode=rndrd --file-block-size=4K --file-extra-flags=direct
run_case "seqrd 1M direct" --file-test-mode=seqrd --file-block-size=1M --file-extra-flags=direct
run_case "seqwr 1M direct" --file-test-mode=seqwr --file-block-size=1M --file-extra-flags=direct
"$SM" fileio $SET cleanup >/dev/null

# ---- async: stormark (io_uring, depth 32) vs fio io_uring depth 32 ----------
cd "$DIR/one" || exit 1
ONE="--file-total-size=$SIZE --file-num=1"
"$SM" fileio $ONE prepare >/dev/null || exit 1
cpu() { awk '/^CPU / { print $2 + $3 }' "$1"; }
ra=(); rb=(); rr=(); ca=(); cb=(); cr=()
for i in $(seq "$PAIRS"); do
	/usr/bin/time -f "CPU %U %S" -o "$DIR/cpu.a" "$SM" fileio $ONE --file-test-mode=rndrd \
		--file-block-size=4K --file-extra-flags=direct --file-io-mode=async --file-async-backlog=32 \
		--time="$T" --json="$DIR/a.json" run >>"$LOG" 2>&1
	/usr/bin/time -f "CPU %U %S" -o "$DIR/cpu.b" fio --name=d --filename=test_file.0 --size="$SIZE" \
		--direct=1 --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --runtime="$T" \
		--time_based --output-format=json --output="$DIR/b.json" >>"$LOG" 2>&1
	a=$(python3 -c "import json; d=json.load(open('$DIR/a.json')); print(d['ops']['read']['count'] / (d['duration_ns'] / 1e9), d['ops']['read']['count'])")
	b=$(python3 -c "import json; j=json.load(open('$DIR/b.json'))['jobs'][0]['read']; print(j['iops'], j['total_ios'])")
	ai=${a% *}; an=${a#* }; bi=${b% *}; bn=${b#* }
	ac=$(awk -v c="$(cpu "$DIR/cpu.a")" -v n="$an" 'BEGIN { printf "%.3f\n", c * 1e6 / n }')
	bc=$(awk -v c="$(cpu "$DIR/cpu.b")" -v n="$bn" 'BEGIN { printf "%.3f\n", c * 1e6 / n }')
	ra+=("$ai"); rb+=("$bi"); ca+=("$ac"); cb+=("$bc")
	rr+=("$(awk -v a="$ai" -v b="$bi" 'BEGIN { printf "%.3f\n", a / b }')")
	cr+=("$(awk -v a="$ac" -v b="$bc" 'BEGIN { printf "%.3f\n", a / b }')")
done
printf "%-34s %12s %12s %8s   %s\n" "rndrd 4K direct, depth 32" stormark fio ratio "per-pair ratios"
printf "%-34s %12.0f %12.0f %8.3f   [%s]\n" "  IOPS" "$(printf '%s\n' "${ra[@]}" | median)" \
	"$(printf '%s\n' "${rb[@]}" | median)" "$(printf '%s\n' "${rr[@]}" | median)" "$(echo "${rr[@]}")"
printf "%-34s %12.3f %12.3f %8.3f   [%s]\n" "  CPU us per I/O (user+sys)" "$(printf '%s\n' "${ca[@]}" | median)" \
	"$(printf '%s\n' "${cb[@]}" | median)" "$(printf '%s\n' "${cr[@]}" | median)" "$(echo "${cr[@]}")"
"$SM" fileio $ONE cleanup >/dev/null
echo "engine used by stormark async: $(python3 -c "import json; print(json.load(open('$DIR/a.json'))['environment']['engine'])")"
echo "(log of every run: $LOG)"
