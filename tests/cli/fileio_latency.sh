# SPDX-License-Identifier: MIT
# stormark fileio: the sysbench-layout latency means what sysbench 1.0.20's
# means, the time a thread spent executing an event. With --file-fsync-all
# the fsync after a write is part of the write's event; in async mode an
# event is its submission (plus the wait for a free slot when it filled the
# queue), so a thread's events add up to at most its run time. Bounds are
# generous ratios, never timings.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
D="$T_DIR/set"; mkdir -p "$D"
F="--file-dir=$D --file-total-size=8M --file-num=4"
# From the JSON: threads, duration, the sum of event times (the threads'
# busy time), the summed request latencies of writes and fsyncs, events,
# and the event latency mean x count.
figures() {
	"$PY" - "$T_DIR/r.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
f = d['fileio']; ops = d['ops']
def s(k):
    o = ops.get(k)
    return o['count'] * o['lat_ns']['mean'] if o else 0
print(d['params']['threads'], d['duration_ns'], sum(f['thread_busy_ns']), int(s('write')),
      int(s('fsync')), f['events'], int(f['event_lat_ns']['mean'] * f['events']))
PYEOF
}
# sysbench's text: "sum:" (ms), "total time:" (s), execution time avg (s)
text_fig() {
	case $1 in
	sum) awk '$1 == "sum:" { print $2 }' "$T_DIR/out" ;;
	time) awk '/total time:/ { sub("s$", "", $3); print $3 }' "$T_DIR/out" ;;
	exec) awk '/execution time \(avg\/stddev\)/ { split($4, v, "/"); print v[1] }' "$T_DIR/out" ;;
	esac
}
expect_rc 0 "prepare" "$STORMARK" fileio $F prepare

# --file-fsync-all: every event holds its write and the fsync after it
"$STORMARK" fileio $F --file-test-mode=rndwr --file-fsync-all=on --time=2 --threads=2 \
	--json="$T_DIR/r.json" run >"$T_DIR/out" 2>&1
check "fsync-all: exit 0" test $? = 0
read -r TH DUR BUSY WSUM FSUM EV EVSUM < <(figures)
check "fsync-all: events ran" ge "$EV" 10
check "fsync-all: event sum = threads' busy time" approx "$EVSUM" "$BUSY" 0.001
check "fsync-all: event times hold the writes and their fsyncs ($BUSY >= $WSUM + $FSUM ns)" \
	ge "$BUSY" "$(awk -v a="$WSUM" -v b="$FSUM" 'BEGIN { printf "%.0f", (a + b) * 0.999 }')"
check "fsync-all: text sum = JSON sum" approx "$(text_fig sum)" "$(awk -v b="$BUSY" 'BEGIN { print b / 1e6 }')" 0.001
# on a disk the fsyncs are nearly all of a thread's time (sysbench: sum near
# threads x time); tmpfs has nothing to flush
if [ "$(stat -f -c %T "$D")" != tmpfs ]; then
	check "fsync-all: latency sum near threads x run time ($BUSY ns, $TH x $DUR)" \
		ge "$BUSY" "$(awk -v t="$TH" -v d="$DUR" 'BEGIN { printf "%.0f", 0.5 * t * d }')"
fi
check "fsync-all: latency sum at most threads x run time" \
	ge "$(awk -v t="$TH" -v d="$DUR" 'BEGIN { printf "%.0f", 1.01 * t * d }')" "$BUSY"

# async: what a thread spends submitting and waiting, never more than it ran
# (two threads and the interval reporter: the case TSan must see clean)
"$STORMARK" fileio $F --file-test-mode=rndrw --file-io-mode=async --time=2 --threads=2 \
	--report-interval=1 --json="$T_DIR/r.json" run >"$T_DIR/out" 2>&1
check "async: exit 0" test $? = 0
read -r TH DUR BUSY WSUM FSUM EV EVSUM < <(figures)
check "async: events ran" ge "$EV" 100
check "async: an interval line" grep -Eq '^\[ 1s \] reads: ' "$T_DIR/out"
check "async: event sum = threads' busy time" approx "$EVSUM" "$BUSY" 0.001
check "async: execution time avg <= total time" \
	ge "$(awk -v t="$(text_fig time)" 'BEGIN { print t * 1.01 + 0.01 }')" "$(text_fig exec)"
check "async: latency sum <= threads x run time" \
	ge "$(awk -v t="$TH" -v d="$DUR" 'BEGIN { printf "%.0f", 1.01 * t * d }')" "$BUSY"
# a thread is submitting or waiting most of its time: not a sum of nothing
check "async: latency sum >= 0.2 x threads x run time" \
	ge "$BUSY" "$(awk -v t="$TH" -v d="$DUR" 'BEGIN { printf "%.0f", 0.2 * t * d }')"
# stormark's own request latency (issue to completion) is kept per operation
check "async: request latency of writes kept" ge "$WSUM" 1
"$STORMARK" fileio $F cleanup >/dev/null
finish
