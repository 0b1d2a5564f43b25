#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Queue-depth sweep: stormark fileio (async, io_uring) against fio io_uring
# with its best tuning flags and against fio's io_uring defaults, on the same
# file, the same duration, in rotating runs (S F1 F2, F1 F2 S, F2 S F1, ...).
# Per point: median IOPS of each, median of the per-pair IOPS ratios, CPU
# (user + sys of the whole process tree, from wait4) per I/O, and the
# device's own counters (/proc/diskstats: requests, KiB per request, busy
# time / wall time) so that a device-bound point shows. Then the null
# engine: CPU per I/O of stormark against fio's null engine. Prints a
# markdown table ready for bench/README.md.
#
#   bench/bench-sweep.sh                       (about 14-15 minutes)
#   DURATION=1 PAIRS=1 POINTS='rr-q32-t1 sr-q8 null' bench/bench-sweep.sh
#
# Environment:
#   STORMARK  binary (default ../build/stormark)
#   DIR       scratch directory on the disk under test (default
#             ../build/bench-sweep; must not be tmpfs); its file is kept
#   SIZE      the test file (default 1G), prepared once by stormark fileio
#   DURATION  seconds per run (default 2)
#   PAIRS     rounds of (stormark, fio tuned, fio default) per point (default 5)
#   POINTS    shell patterns of the points to run (default '*'); the points:
#             rr-qQ-tT / rw-qQ-tT  4 KiB random read / write, Q in 1 4 16 32
#                                  128, T (threads = fio jobs) in 1 2
#             sr-qQ / sw-qQ        1 MiB sequential read / write, Q in 1 8
#             null                 null engine, CPU per I/O
#   QDS       the queue depths of the 4 KiB points (default '1 4 16 32 128')
#   T_IO_URING  fio's t/io_uring program (built from fio's source; see
#             bench/bench-limit.sh): when set, a fourth tool on the 4 KiB
#             random-read points (it only reads), with fixed buffers,
#             registered files, batches of min(16,Q) / min(8,Q)
#   NULL_IOS  I/Os of stormark's null run (default 10000000)
#   SM_EXTRA  more options for every stormark fileio run (word-split), e.g.
#             an engine option to try; FIO_EXTRA the same for every fio
#             run of the points (e.g. --iomem=mmaphuge); both shown in
#             the output
# shellcheck disable=SC2086  # $fig and $n are two words on purpose
set -u
here=$(cd "$(dirname "$0")" && pwd)
SM=${STORMARK:-$here/../build/stormark}
DIR=${DIR:-$here/../build/bench-sweep}
SIZE=${SIZE:-1G}
DURATION=${DURATION:-2}
PAIRS=${PAIRS:-5}
POINTS=${POINTS:-*}
NULL_IOS=${NULL_IOS:-10000000}
QDS=${QDS:-1 4 16 32 128}
T_IO_URING=${T_IO_URING:-}
if [ -n "$T_IO_URING" ]; then
	[ -x "$T_IO_URING" ] || { echo "bench-sweep: T_IO_URING '$T_IO_URING' is not a program" >&2; exit 1; }
	T_IO_URING=$(readlink -f "$T_IO_URING")
fi
SM_EXTRA=${SM_EXTRA:-}
FIO_EXTRA=${FIO_EXTRA:-}
PY=$(command -v python3) || { echo "bench-sweep: python3 is needed" >&2; exit 1; }
command -v fio >/dev/null || { echo "bench-sweep: fio is not installed (scripts/deps.sh)" >&2; exit 1; }
[ -x "$SM" ] || { echo "bench-sweep: no stormark binary at '$SM' (set STORMARK)" >&2; exit 1; }
SM=$(readlink -f "$SM")
mkdir -p "$DIR/w" || exit 1
DIR=$(cd "$DIR" && pwd)
[ "$(stat -f -c %T "$DIR")" = tmpfs ] && { echo "bench-sweep: '$DIR' is on tmpfs; set DIR to the disk" >&2; exit 1; }
W=$DIR/w
REC=$DIR/runs.tsv
LOG=$DIR/log.txt
: >"$REC"; : >"$LOG"

# the whole disk under DIR, for /proc/diskstats (a partition's parent)
src=$(df --output=source "$DIR" | tail -1)
DEV=$(basename "$(readlink -f "$src")")
[ -e "/sys/class/block/$DEV/partition" ] && DEV=$(basename "$(readlink -f "/sys/class/block/$DEV/..")")
grep -q " $DEV " /proc/diskstats || DEV=""

# --hipri only where the queue polls (io_poll = 1) and a short fio run with
# it succeeds
HIPRI=()
probe_hipri() {
	[ -n "$DEV" ] && [ "$(cat "/sys/block/$DEV/queue/io_poll" 2>/dev/null)" = 1 ] &&
		fio --name=hipri --filename="$DIR/test_file.0" --size="$SIZE" --direct=1 --ioengine=io_uring \
			--hipri --rw=randread --bs=4k --runtime=0.3 --time_based >>"$LOG" 2>&1
}

point_wanted() {
	local p -
	set -f   # the patterns are matched below, never expanded against the files here
	for p in $POINTS; do
		# shellcheck disable=SC2254
		case $1 in $p) return 0 ;; esac
	done
	return 1
}

# measure OUT CMD...: run CMD (no shell), record "cpu_s wall_s dev_ios
# dev_sectors dev_busy_ms" in OUT: CPU of CMD and its reaped descendants
# (wait4), the device's completed requests, sectors and busy time between
# start and end. CMD's output goes to the log.
measure() {
	local out=$1; shift
	"$PY" - "$out" "$DEV" "$@" >>"$LOG" 2>&1 <<'PY'
import os, sys, time
out, dev, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
def disk():
    if not dev:
        return (0, 0, 0)
    for line in open("/proc/diskstats"):
        f = line.split()
        if f[2] == dev:   # reads, sectors read, writes, sectors written, io_ticks
            return (int(f[3]) + int(f[7]), int(f[5]) + int(f[9]), int(f[12]))
    return (0, 0, 0)
d0 = disk(); t0 = time.monotonic()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, st, ru = os.wait4(pid, 0)
t1 = time.monotonic(); d1 = disk()
with open(out, "w") as f:
    print(ru.ru_utime + ru.ru_stime, t1 - t0, *(b - a for a, b in zip(d0, d1)), file=f)
sys.exit(os.waitstatus_to_exitcode(st))
PY
}

# record POINT PAIR TOOL IOPS IOS: one line of runs.tsv with measure's figures
record() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$(tr ' ' '\t' <"$W/m")" >>"$REC"
}

# sm_run POINT PAIR MODE BS QD T
sm_run() {
	local fig
	measure "$W/m" "$SM" fileio --file-total-size="$SIZE" --file-num=1 --file-test-mode="$3" \
		--file-block-size="$4" --file-extra-flags=direct --file-io-mode=async \
		--file-async-backlog="$5" --threads="$6" --file-fsync-freq=0 --file-fsync-end=off \
		$SM_EXTRA --time="$DURATION" --json="$W/s.json" run || { echo "bench-sweep: stormark failed (see $LOG)" >&2; return 1; }
	fig=$("$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); o=d['ops']; n=sum(o.get(k, {}).get('count', 0) for k in ('read', 'write'))
print(n / (d['duration_ns'] / 1e9), n)" "$W/s.json") || return 1
	record "$1" "$2" S $fig
}

# fio_run POINT PAIR TOOL(F1|F2) RW BS QD T
fio_run() {
	local tune=() fig b
	if [ "$3" = F1 ]; then
		b=$6
		tune=(--registerfiles=1 --fixedbufs=1 --iodepth_batch_submit=$((b < 16 ? b : 16))
		      --iodepth_batch_complete_min=$((b < 8 ? b : 8))
		      --iodepth_batch_complete_max=$((b < 32 ? b : 32)) "${HIPRI[@]}")
	fi
	measure "$W/m" fio --name=sweep --filename="$DIR/test_file.0" --size="$SIZE" --direct=1 \
		--ioengine=io_uring --rw="$4" --bs="$5" --iodepth="$6" --numjobs="$7" "${tune[@]}" \
		--runtime="$DURATION" --time_based --group_reporting --output-format=json \
		--output="$W/f.json" $FIO_EXTRA || { echo "bench-sweep: fio failed (see $LOG)" >&2; return 1; }
	fig=$("$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; r, w = j['read'], j['write']
print(r['iops'] + w['iops'], r['total_ios'] + w['total_ios'])" "$W/f.json") || return 1
	record "$1" "$2" "$3" $fig
}

# tio_run POINT PAIR QD T: t/io_uring, 4 KiB direct random reads of the
# file, T threads of a ring each. It prints the IOPS of each whole second
# and no total: its IOPS is their mean, its I/Os that mean x DURATION.
tio_run() {
	local b=$3 fig
	[ "$DURATION" -ge 2 ] || { echo "bench-sweep: t/io_uring needs DURATION of 2 s or more" >&2; return 1; }
	measure "$W/m" "$T_IO_URING" -d "$b" -s $((b < 16 ? b : 16)) -c $((b < 8 ? b : 8)) -b 4096 \
		-p 0 -B 1 -F 1 -O 1 -R 1 -n "$4" -r "$DURATION" "$DIR/test_file.0" ||
		{ echo "bench-sweep: t/io_uring failed (see $LOG)" >&2; return 1; }
	fig=$(tail -n 40 "$LOG" | awk -v d="$DURATION" -F'[=,]' '/^IOPS=/ { s += $2; n++ }
		END { if (n) printf "%.1f %.0f\n", s / n, s / n * d; else print "0 0" }')
	record "$1" "$2" T $fig
}

# point NAME SM_MODE FIO_RW BS QD T: PAIRS rounds, the order rotating
# (t/io_uring joins the 4 KiB random reads when T_IO_URING is set)
point() {
	local name=$1 i k tools=3
	point_wanted "$name" || return 0
	echo "  $name" >&2
	[ -n "$T_IO_URING" ] && [ "$2" = rndrd ] && [ "$4" = 4k ] && tools=4
	for i in $(seq "$PAIRS"); do
		for k in $(seq 0 $((tools - 1))); do
			case $(((i - 1 + k) % tools)) in
			0) sm_run "$name" "$i" "$2" "$4" "$5" "$6" || return 1 ;;
			1) fio_run "$name" "$i" F1 "$3" "$4" "$5" "$6" || return 1 ;;
			2) fio_run "$name" "$i" F2 "$3" "$4" "$5" "$6" || return 1 ;;
			3) tio_run "$name" "$i" "$5" "$6" || return 1 ;;
			esac
		done
	done
}

null_point() {
	local i n
	point_wanted null || return 0
	echo "  null" >&2
	for i in $(seq "$PAIRS"); do
		measure "$W/m" "$SM" frames --engine null -s -w 4 -n "$NULL_IOS" "$W/stream" ||
			{ echo "bench-sweep: stormark null failed (see $LOG)" >&2; return 1; }
		record null "$i" S 0 "$NULL_IOS"
		measure "$W/m" fio --name=null --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=1 \
			--runtime="$DURATION" --time_based --output-format=json --output="$W/f.json" ||
			{ echo "bench-sweep: fio null failed (see $LOG)" >&2; return 1; }
		n=$("$PY" -c "import json,sys; r=json.load(open(sys.argv[1]))['jobs'][0]['read']; print(r['iops'], r['total_ios'])" "$W/f.json")
		record null "$i" F2 $n
	done
}

start=$(date -u +%FT%TZ)
t_start=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
cd "$DIR" || exit 1
echo "bench-sweep: preparing $SIZE in $DIR/test_file.0, then the points:" >&2
"$SM" fileio --file-total-size="$SIZE" --file-num=1 prepare >>"$LOG" 2>&1 ||
	{ echo "bench-sweep: prepare failed (see $LOG)" >&2; exit 1; }
probe_hipri && HIPRI=(--hipri)
# the points: NAME STORMARK_MODE FIO_RW BS QD THREADS
specs=()
for t in 1 2; do
	for q in $QDS; do
		specs+=("rr-q$q-t$t rndrd randread 4k $q $t" "rw-q$q-t$t rndwr randwrite 4k $q $t")
	done
done
for q in 1 8; do
	specs+=("sr-q$q seqrd read 1m $q 1" "sw-q$q seqrewr write 1m $q 1")
done
n=0
for sp in "${specs[@]}"; do point_wanted "${sp%% *}" && n=$((n + 1)); done
# about 0.4 s of start-up and reading per run (fio's start-up is most of
# it); a null round about DURATION + 2 s. In tenths of a second:
est=$((n * PAIRS * (${T_IO_URING:+1}0 * DURATION / 2 + 30 * DURATION + 13)))
point_wanted null && est=$((est + PAIRS * (10 * DURATION + 20)))
echo "  $n points x $PAIRS rounds x 3 runs of ${DURATION} s$(point_wanted null && echo ", and null"):" \
     "about $(((est + 599) / 600)) min" >&2
for sp in "${specs[@]}"; do
	point $sp || exit 1
done
null_point || exit 1
# what one run costs before its first I/O and after its last: CPU of a run
# of one I/O (the rr-q32-t1 job), so the CPU per I/O above can be read
# knowing how much of it is start-up and exit (it weighs less in longer runs)
measure "$W/m" "$SM" fileio --file-total-size="$SIZE" --file-num=1 --file-test-mode=rndrd \
	--file-block-size=4K --file-extra-flags=direct --file-io-mode=async --file-async-backlog=32 \
	--events=1 --time=0 run && su_s=$(cut -d' ' -f1 "$W/m")
measure "$W/m" fio --name=one --filename="$DIR/test_file.0" --size="$SIZE" --direct=1 --ioengine=io_uring \
	--rw=randread --bs=4k --iodepth=32 --number_ios=1 --registerfiles=1 --fixedbufs=1 && su_f1=$(cut -d' ' -f1 "$W/m")
measure "$W/m" fio --name=one --filename="$DIR/test_file.0" --size="$SIZE" --direct=1 --ioengine=io_uring \
	--rw=randread --bs=4k --iodepth=32 --number_ios=1 && su_f2=$(cut -d' ' -f1 "$W/m")
ms() { awk -v s="$1" 'BEGIN { if (s == "") print "?"; else printf "%.1f", s * 1e3 }'; }
end=$(date -u +%FT%TZ)
elapsed=$(($(date +%s) - t_start))

cat <<EOF
### Sweep: $start .. $end

$("$SM" --version | head -1), $(fio --version); kernel $(uname -r), $(nproc) CPUs,
$(df --output=fstype "$DIR" | tail -1) on /dev/${DEV:-?} ($(cat /sys/block/"$DEV"/device/model 2>/dev/null || echo "model unknown"));
load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end.
$PAIRS rounds of ${DURATION}-s runs per point, file $SIZE; hipri: ${HIPRI[*]:-no (the queue does not poll)}.

    S:  stormark fileio --file-total-size=$SIZE --file-num=1 --file-test-mode=rndrd|rndwr|seqrd|seqrewr \\
          --file-block-size=4K|1M --file-extra-flags=direct --file-io-mode=async --file-async-backlog=Q \\
          --threads=T --file-fsync-freq=0 --file-fsync-end=off --time=$DURATION run
    F1: fio --name=sweep --filename=test_file.0 --size=$SIZE --direct=1 --ioengine=io_uring \\
          --rw=randread|randwrite|read|write --bs=4k|1m --iodepth=Q --numjobs=T --runtime=$DURATION --time_based \\
          --group_reporting --registerfiles=1 --fixedbufs=1 --iodepth_batch_submit=min(16,Q) \\
          --iodepth_batch_complete_min=min(8,Q) --iodepth_batch_complete_max=min(32,Q) ${HIPRI[*]}
    F2: the same fio without the tuning flags (fio's io_uring defaults)
    T:  ${T_IO_URING:-(not run: T_IO_URING unset)} -d Q -s min(16,Q) -c min(8,Q) -b 4096 -p 0 -B 1 -F 1 -O 1 -R 1 \\
          -n T -r $DURATION test_file.0 (4 KiB random reads only; IOPS the mean of its per-second lines)
    extra options: stormark '${SM_EXTRA}', fio '${FIO_EXTRA}'
    null: stormark frames --engine null -s -w 4 -n $NULL_IOS FILE against
          fio --name=null --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=1 --runtime=$DURATION --time_based

CPU of a run of one I/O, one job (start-up and exit; included in every run's CPU above):
stormark $(ms "${su_s:-}") ms, fio tuned $(ms "${su_f1:-}") ms, fio default $(ms "${su_f2:-}") ms;
"net" = the CPU per I/O with that subtracted. The sweep took ${elapsed} s.

IOPS and ratios are medians (ratios: of the per-round ratios); CPU is user + sys
of the process and its children (wait4) / I/Os; util = the device's busy time /
wall time of the run, KiB/req = the device's KiB per completed request (medians).
EOF
"$PY" - "$REC" "${su_s:-0}" "${su_f1:-0}" "${su_f2:-0}" <<'PY'
import statistics as st, sys
su = dict(zip(("S", "F1", "F2"), map(float, sys.argv[2:5])))
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
pts = []
by = {}
for p, i, tool, iops, ios, cpu, wall, dios, dsec, dbusy in rows:
    if p not in pts:
        pts.append(p)
    ios = float(ios)
    by.setdefault((p, tool), {})[i] = dict(
        iops=float(iops), cpuio=float(cpu) / ios * 1e6 if ios else float("nan"),
        net=(float(cpu) - su.get(tool, 0.0)) / ios * 1e6 if ios else float("nan"),
        util=100 * float(dbusy) / (1000 * float(wall)) if float(wall) else 0,
        kib=float(dsec) / 2 / float(dios) if float(dios) else 0)
def med(p, t, k):
    v = [r[k] for r in by.get((p, t), {}).values()]
    return st.median(v) if v else None
def ratio(p, t, k):
    a, b = by.get((p, "S"), {}), by.get((p, t), {})
    v = [a[i][k] / b[i][k] for i in a if i in b and b[i][k]]
    return st.median(v) if v else None
def f(x, fmt):
    return "-" if x is None else format(x, fmt)
print()
print("| point | stormark IOPS | fio tuned | fio default | S/tuned | S/default "
      "| CPU us/IO S | tuned | default | CPU S/tuned | CPU S/default | net S/tuned | util % S/t/d | KiB/req S/t/d |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for p in pts:
    if p == "null":
        continue
    print(f"| {p} | {f(med(p,'S','iops'),'.0f')} | {f(med(p,'F1','iops'),'.0f')} | {f(med(p,'F2','iops'),'.0f')} "
          f"| **{f(ratio(p,'F1','iops'),'.3f')}** | {f(ratio(p,'F2','iops'),'.3f')} "
          f"| {f(med(p,'S','cpuio'),'.2f')} | {f(med(p,'F1','cpuio'),'.2f')} | {f(med(p,'F2','cpuio'),'.2f')} "
          f"| **{f(ratio(p,'F1','cpuio'),'.3f')}** | {f(ratio(p,'F2','cpuio'),'.3f')} | {f(ratio(p,'F1','net'),'.3f')} "
          f"| {f(med(p,'S','util'),'.0f')}/{f(med(p,'F1','util'),'.0f')}/{f(med(p,'F2','util'),'.0f')} "
          f"| {f(med(p,'S','kib'),'.0f')}/{f(med(p,'F1','kib'),'.0f')}/{f(med(p,'F2','kib'),'.0f')} |")
tpts = [p for p in pts if (p, "T") in by]
if tpts:
    print()
    print("| point | stormark IOPS | t/io_uring IOPS | S/T (target >= 0.97) | CPU us/IO S | T "
          "| CPU S/T (target <= 1.1) | per-round S/T |")
    print("|---|---|---|---|---|---|---|---|")
    for p in tpts:
        a, b = by[(p, "S")], by[(p, "T")]
        rr = " ".join(f"{a[i]['iops'] / b[i]['iops']:.3f}" for i in a if i in b and b[i]["iops"])
        print(f"| {p} | {f(med(p,'S','iops'),'.0f')} | {f(med(p,'T','iops'),'.0f')} "
              f"| **{f(ratio(p,'T','iops'),'.3f')}** | {f(med(p,'S','cpuio'),'.2f')} | {f(med(p,'T','cpuio'),'.2f')} "
              f"| **{f(ratio(p,'T','cpuio'),'.3f')}** | {rr} |")
if "null" in pts:
    s, fo = med("null", "S", "cpuio"), med("null", "F2", "cpuio")
    print()
    print("| null engine | stormark ns/IO | fio ns/IO | ratio (target <= 0.5) | fio IOPS |")
    print("|---|---|---|---|---|")
    print(f"| 4 KiB, one stream / iodepth 1 | {f(s * 1e3, '.1f')} | {f(fo * 1e3, '.1f')} "
          f"| **{f(ratio('null', 'F2', 'cpuio'), '.3f')}** | {f(med('null', 'F2', 'iops'), '.0f')} |")
PY
echo
echo "(every run: $REC; tool output: $LOG; the test file is kept: $DIR/test_file.0)"
