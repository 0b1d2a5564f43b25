# SPDX-License-Identifier: MIT
# stormark fileio / sysbench link end to end: prepare, cleanup, run without
# prepare, bad input, the sysbench 1.0.20 layout line for line against real
# captured output, --report-interval, --histogram, --percentile, JSON, the
# native report, validation, O_DIRECT checks and SIGINT.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
G="$SM_SOURCE_DIR/tests/golden/sysbench-1.0.20"
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
D="$T_DIR/set"; mkdir -p "$D"
cd "$D" || exit 1
SMALL="--file-total-size=8M --file-num=4"
# shape FILE: the lines with every number replaced by N, the banner dropped
# (runs of spaces before a number collapse: the digits differ, the columns
# are checked separately)
shape() { sed -E '1d; s/[0-9]+(\.[0-9]+)?/N/g; s/ +N/ N/g' "$1"; }

# ---- prepare ---------------------------------------------------------------
expect_rc 0 "prepare" "$SB" fileio $SMALL prepare
check "prepare: 4 files of 2 MiB" test "$(stat -c %s test_file.0 test_file.1 test_file.2 test_file.3 | sort -u)" = 2097152
check "prepare: no fifth file" test ! -e test_file.4
check "prepare: sysbench's lines" diff <(sed 1d "$T_DIR/out" | sed -E 's/^[0-9]+ bytes written in .*/BYTES/') \
	<(sed 1d "$G/prepare.txt" | sed -E 's/^[0-9]+ bytes written in .*/BYTES/')
check "prepare: bytes written" grep -qx "8388608 bytes written in [0-9.]* seconds ([0-9.]* MiB/sec)." "$T_DIR/out"
check "prepare: random data, not zeros" test "$(head -c 65536 test_file.2 | tr -d '\0' | wc -c)" -gt 60000
expect_rc 0 "prepare again" "$SB" fileio $SMALL prepare
check "prepare again: reuses" test "$(grep -c '^Reusing existing file test_file.[0-3]$' "$T_DIR/out")" = 4
check "prepare again: no bytes" grep -qx "No bytes written." "$T_DIR/out"
truncate -s 1M test_file.2
expect_rc 0 "prepare extends" "$SB" fileio $SMALL prepare --threads=2
check "prepare extends: the lines" diff <(sed 1d "$T_DIR/out" | sed -E 's/ in .*//') <(sed 1d "$G/prepare-extend.txt" | sed -E 's/ in .*//')
check "prepare extends: size" test "$(stat -c %s test_file.2)" = 2097152
expect_rc 0 "prepare zero data" "$SB" fileio --file-total-size=1M --file-num=1 --file-data=zero --file-dir="$T_DIR" prepare
check "--file-data=zero writes zeros" test "$(tr -d '\0' <"$T_DIR/test_file.0" | wc -c)" = 0
rm -f "$T_DIR/test_file.0"

# ---- the sysbench layout, line for line -------------------------------------
"$SB" fileio $SMALL --file-test-mode=rndrw --threads=4 --time=1 run >"$T_DIR/run.txt" 2>"$T_DIR/run.err"
check "run: exit 0" test $? = 0
check "run: same lines as sysbench 1.0.20" diff <(shape "$G/run-rndrw.txt") <(shape "$T_DIR/run.txt")
while IFS= read -r pat; do
	case $pat in '#'*|'') continue ;; esac
	check "pattern in real sysbench: $pat" grep -Eq "$pat" "$G/run-rndrw.txt"
	check "pattern in stormark: $pat" grep -Eq "$pat" "$T_DIR/run.txt"
done <"$G/patterns.txt"
check "latency values end at column 53" test "$(sed -n '/^Latency (ms):/,/sum:/p' "$T_DIR/run.txt" | sed 1d | awk '{ print length($0) }' | sort -u)" = 53
check "run: warning on stderr only" grep -q "page cache" "$T_DIR/run.err"
# rates = counts / time; events = reads + writes + periodic fsyncs
"$SB" fileio $SMALL --file-test-mode=rndrw --time=1 --json="$T_DIR/r.json" run >"$T_DIR/run2.txt" 2>/dev/null
val() { awk -v k="$1" 'index($0, k) { print $NF }' "$T_DIR/run2.txt" | tr -d s; }
T=$(val "total time:"); EV=$(val "total number of events:")
R=$(json "$T_DIR/r.json" "d['ops']['read']['count']"); W=$(json "$T_DIR/r.json" "d['ops']['write']['count']")
F=$(json "$T_DIR/r.json" "d['fileio']['periodic_fsyncs']"); FA=$(json "$T_DIR/r.json" "d['ops']['fsync']['count']")
check "events = reads + writes + periodic fsyncs" test "$EV" = $((R + W + F))
check "json events = text events" test "$(json "$T_DIR/r.json" "d['fileio']['events']")" = "$EV"
check "reads/s = reads / time" approx "$(val 'reads/s:')" "$(awk -v a="$R" -v t="$T" 'BEGIN{print a/t}')" 0.01
check "writes/s = writes / time" approx "$(val 'writes/s:')" "$(awk -v a="$W" -v t="$T" 'BEGIN{print a/t}')" 0.01
check "fsyncs/s = all fsyncs / time" approx "$(val 'fsyncs/s:')" "$(awk -v a="$FA" -v t="$T" 'BEGIN{print a/t}')" 0.01
check "MiB/s read = reads x 16 KiB / time" approx "$(val 'read, MiB/s:')" "$(awk -v a="$R" -v t="$T" 'BEGIN{print a/64/t}')" 0.01
check "rndrw ratio near 1.5" approx "$(awk -v a="$R" -v b="$W" 'BEGIN{print a/b}')" 1.5 0.02
check "end fsyncs: 4 files, 1 thread" test "$(json "$T_DIR/r.json" "d['fileio']['end_fsyncs']")" = 4
# (a run that stops inside a series has done part of it)
check "periodic fsyncs: 4 per 100 requests" test "$F" -ge $(( (R + W - 1) / 100 * 4 )) -a "$F" -le $(( (R + W) / 100 * 4 ))
check "json: p50 <= p99 <= max" json "$T_DIR/r.json" "exit(0 if d['ops']['read']['lat_ns']['p50'] <= d['ops']['read']['lat_ns']['p99'] <= d['ops']['read']['lat_ns']['max'] else 1)"
check "json: warning page_cache" test "$(json "$T_DIR/r.json" "[w['code'] for w in d['warnings']].count('page_cache')")" = 1

# --report-interval, --histogram, --percentile
"$SB" fileio $SMALL --file-test-mode=rndrw --time=3 --report-interval=1 run >"$T_DIR/ri.txt" 2>/dev/null
# sysbench prints 2 or 3 (the line of the time limit when its reporter
# ticks before the run has ended: 3 of 12 rndrd runs, 7 of 8 rndwr runs of
# sysbench 1.0.20 here); stormark prints it whenever the run went to its
# limit; a loaded machine may delay one (tests/cli/fileio_series.sh checks
# the lines against the series)
n=$(grep -c '^\[ [0-9]s \] ' "$T_DIR/ri.txt")
check "report-interval: 1-3 lines in 3 s, like sysbench" test "$n" -ge 1 -a "$n" -le 3
check "report-interval: sysbench's line" grep -Eq '^\[ 1s \] reads: [0-9]+\.[0-9]{2} MiB/s writes: [0-9]+\.[0-9]{2} MiB/s fsyncs: [0-9]+\.[0-9]{2}/s latency \(ms,95%\): [0-9]+\.[0-9]{3}$' "$T_DIR/ri.txt"
check "report-interval: same shape as sysbench" diff <(shape "$G/run-report-interval.txt" | grep -v '^\[ Ns \]') <(shape "$T_DIR/ri.txt" | grep -v '^\[ Ns \]')
"$SB" fileio $SMALL --file-test-mode=rndrd --time=1 --histogram run >"$T_DIR/h.txt" 2>/dev/null
hshape() { shape "$1" | grep -v '^ *N |'; }
check "histogram: same shape as sysbench" diff <(hshape "$G/run-histogram.txt") <(hshape "$T_DIR/h.txt")
check "histogram: rows" grep -Eq '^ +[0-9]+\.[0-9]{3} \|\*+ +[0-9]+$' "$T_DIR/h.txt"
check "histogram: counts add up to the events" test "$(awk '/^ +[0-9.]+ \|/ { s += $NF } END { print s }' "$T_DIR/h.txt")" = "$(awk '/total number of events/ { print $NF }' "$T_DIR/h.txt")"
"$SB" fileio $SMALL --file-test-mode=rndrd --time=1 --percentile=0 run >"$T_DIR/p0.txt" 2>/dev/null
check "percentile=0: same lines as sysbench" diff <(shape "$G/run-percentile0.txt") <(shape "$T_DIR/p0.txt")
# several percentiles and fractions: stormark's (sysbench takes one integer)
"$STORMARK" fileio $SMALL --file-test-mode=rndrd --events=2000 --time=0 --percentile=50,99,99.9 --json="$T_DIR/p.json" run >"$T_DIR/p.txt" 2>/dev/null
check "several percentiles" test "$(grep -Ec '^ +(50th|99th|99\.9th) percentile: +[0-9]+\.[0-9]{2}$' "$T_DIR/p.txt")" = 3
check "percentile lines end at column 53" test "$(grep 'percentile:' "$T_DIR/p.txt" | awk '{ print length($0) }' | sort -u)" = 53
check "json percentiles ordered" json "$T_DIR/p.json" "exit(0 if [x['lat_ns'] for x in d['fileio']['event_percentiles']] == sorted(x['lat_ns'] for x in d['fileio']['event_percentiles']) else 1)"
check "--events is exact" test "$(json "$T_DIR/p.json" "d['fileio']['events']")" = 2000

# native report and JSON on stdout
expect_rc 0 "native report" "$STORMARK" fileio $SMALL --file-test-mode=rndwr --events=500 --time=0 --format=stormark run
check "native: op table" grep -Eq '^  write +484 ' "$T_DIR/out"
check "native: fsync row" grep -Eq '^  fsync +20 ' "$T_DIR/out"
check "native: no sysbench header" test "$(grep -c 'Running the test' "$T_DIR/out")" = 0
"$STORMARK" fileio $SMALL --file-test-mode=rndrd --events=100 --time=0 --json run >"$T_DIR/j.json" 2>/dev/null
check "--json: stdout is only JSON" test "$(json "$T_DIR/j.json" "d['command']")" = fileio
# the output flags of docs/options.md: --format text (the native layout), -o FILE
expect_rc 0 "--format text -o FILE" "$STORMARK" fileio $SMALL --file-test-mode=rndwr --events=500 --time=0 --format=text -o "$T_DIR/nat.txt" --quiet run
check "-o: the report in the file" grep -Eq '^  write +484 ' "$T_DIR/nat.txt"
check "-o: nothing on stdout" test ! -s "$T_DIR/out"
"$STORMARK" fileio $SMALL --file-test-mode=rndrd --events=100 --time=0 --format=json run >"$T_DIR/fj.json" 2>/dev/null
check "--format json: stdout is only JSON" test "$(json "$T_DIR/fj.json" "d['command']")" = fileio
# csv and markdown live: what stormark report prints from the saved JSON, byte for byte
for L in csv markdown; do
  "$STORMARK" fileio $SMALL --file-test-mode=rndrw --events=300 --time=0 --format=$L --json="$T_DIR/l.json" run \
    >"$T_DIR/l.$L" 2>/dev/null
  check "--format $L live = stormark report --format $L" cmp -s "$T_DIR/l.$L" <("$STORMARK" report "$T_DIR/l.json" --format $L)
  check "--format $L is not empty" test -s "$T_DIR/l.$L"
done
expect_usage "a layout fileio does not have" "$STORMARK" fileio --format=timeit --file-test-mode=rndrd run
expect_usage "--format json with --json=FILE" "$STORMARK" fileio --format=json --json=x.json --file-test-mode=rndrd run
expect_usage "an unsupported sysbench option" "$STORMARK" fileio --config-file=x run
check "one wording for bad values" grep -qx "stormark fileio: invalid value 'x' for --threads: expected an integer from 1 to 1024 (try 'stormark help fileio')" \
  <("$STORMARK" fileio --threads=x run 2>&1)
# under the sysbench name a value sysbench takes but stormark cannot run is
# stormark's refusal: one `stormark:` line (docs/compat.md), exit 2; the
# --time hint offers no unit, which that name refuses as sysbench does
sb_refused() {
  local d=$1 want=$2; shift 2
  "$SB" "$@" >"$T_DIR/sr.out" 2>"$T_DIR/sr.err"; local rc=$?
  check "sysbench name, $d: exit 2 (got $rc)" test "$rc" = 2
  check "sysbench name, $d: one stormark line" grep -qx "$want" "$T_DIR/sr.err"
  check "sysbench name, $d: nothing else on stderr" test "$(wc -l <"$T_DIR/sr.err")" = 1
}
sb_refused "--time=-1" "stormark: invalid value '-1' for --time: expected a non-negative whole number of seconds (try 'sysbench fileio help')" \
  fileio --time=-1 --file-test-mode=rndrd run
sb_refused "--report-interval=-1" "stormark: invalid value '-1' for --report-interval: expected a non-negative whole number of seconds (try 'sysbench fileio help')" \
  fileio --report-interval=-1 --file-test-mode=rndrd run
sb_refused "--threads=2000" "stormark: invalid value '2000' for --threads: expected an integer from 1 to 1024 (try 'sysbench fileio help')" \
  fileio --threads=2000 --file-test-mode=rndrd run
sb_refused "--config-file" "stormark: option '--config-file' is not supported (try 'sysbench fileio help')" \
  fileio --config-file=x --file-test-mode=rndrd run
check "sysbench name: a unit in --time is refused as sysbench refuses it" grep -qx "Invalid value for the 'time' option: '10s'" \
  <("$SB" fileio --time=10s --file-test-mode=rndrd run 2>&1)

# ---- run without prepare, cleanup ------------------------------------------------
touch keep.txt test_file.4 test_file.x
expect_rc 0 "cleanup" "$SB" fileio $SMALL cleanup
check "cleanup: sysbench's lines" diff <(sed 1d "$T_DIR/out") <(sed 1d "$G/cleanup.txt")
check "cleanup: test files gone" test ! -e test_file.0 -a ! -e test_file.3
check "cleanup: other files kept" test -e keep.txt -a -e test_file.4 -a -e test_file.x
"$SB" fileio $SMALL --file-test-mode=rndrd --time=1 run >"$T_DIR/np.txt" 2>"$T_DIR/np.err"
check "run without prepare: exit 1" test $? = 1
check "run without prepare: sysbench's lines" diff <(shape "$G/run-noprepare.txt") <(shape "$T_DIR/np.txt")
check "run without prepare: nothing on stderr, as sysbench" test ! -s "$T_DIR/np.err"

# ---- bad input: one line, exit 2 ----------------------------------------------------
expect_usage "unknown mode" "$STORMARK" fileio --file-test-mode=foo run
expect_usage "no mode for run" "$STORMARK" fileio run
expect_usage "fractional size" "$STORMARK" fileio --file-total-size=1.5G prepare
expect_usage "zero files" "$STORMARK" fileio --file-num=0 prepare
expect_usage "negative files" "$STORMARK" fileio --file-num=-1 prepare
expect_usage "zero threads" "$STORMARK" fileio --threads=0 prepare
expect_usage "total below a block" "$STORMARK" fileio --file-total-size=100 prepare
expect_usage "unknown extra flag" "$STORMARK" fileio --file-extra-flags=foo prepare
expect_usage "unknown io mode" "$STORMARK" fileio --file-io-mode=libaio prepare
expect_usage "unknown option" "$STORMARK" fileio --foo=1 prepare
expect_usage "no command" "$STORMARK" fileio
expect_usage "bad percentile" "$STORMARK" fileio --percentile=101 --file-test-mode=rndrd run
expect_usage "missing dir" "$STORMARK" fileio --file-dir="$T_DIR/nope" prepare
expect_usage "direct with an odd block" "$STORMARK" fileio $SMALL --file-block-size=1000 --file-extra-flags=direct --file-test-mode=rndrd run
check "direct error names the minimum" grep -Eq 'multiple of (512|1024|2048|4096) bytes' "$T_DIR/usage.err"
check "deprecated aliases accepted" "$SB" fileio --file-total-size=1M --file-num=1 --num-threads=2 --max-requests=10 --max-time=0 cleanup
expect_rc 1 "sysbench cpu: only fileio" "$SB" cpu run
check "sysbench cpu: says so" grep -q "only" "$T_DIR/out"

# async under the sysbench name: stdout is sysbench's report to its last
# line (tests/golden/sysbench-1.0.20/errors/async-run.out), the note on what
# its Latency means goes to stderr with stormark's other notices
"$SB" fileio $SMALL prepare >/dev/null 2>&1
"$SB" fileio $SMALL --file-io-mode=async --file-test-mode=rndrd --events=2000 --time=0 run >"$T_DIR/as.out" 2>"$T_DIR/as.err"
check "async: sysbench's last lines on stdout" diff <(tail -4 "$G/errors/async-run.out" | shape /dev/stdin) <(tail -4 "$T_DIR/as.out" | shape /dev/stdin)
check "async: no note on stdout" sh -c "! grep -q 'async I/O' '$T_DIR/as.out'"
check "async: the note on stderr" grep -q "^stormark: note: async I/O: the Latency above is each request's submission, as sysbench times it; issue to completion, p95: read [0-9.]* ms$" "$T_DIR/as.err"
check "async: silenced below --verbosity 3 with the report" sh -c "! '$SB' fileio $SMALL --file-io-mode=async --file-test-mode=rndrd --events=200 --time=0 --verbosity=2 run 2>&1 | grep -q 'async I/O'"
"$SB" fileio $SMALL cleanup >/dev/null 2>&1

# ---- validation, direct, SIGINT ------------------------------------------------------
expect_rc 0 "prepare --validate" "$SB" fileio $SMALL --validate prepare
expect_rc 0 "validated rndrw, 2 threads" "$SB" fileio $SMALL --validate --file-test-mode=rndrw --threads=2 --events=3000 --time=0 run
check "validation line" grep -qx "Using checksums validation." "$T_DIR/out"
printf 'XXXX' | dd of=test_file.1 bs=1 seek=70000 conv=notrunc status=none
expect_rc 1 "corruption is found" "$SB" fileio $SMALL --validate --file-test-mode=seqrd --events=1000 --time=0 run
# sysbench's lines (tests/golden/sysbench-1.0.20/run-validate-fail.txt), no report
check "corruption: sysbench's checksum line" grep -qx "FATAL: Checksum mismatch in block with offset: 65536" "$T_DIR/out"
check "corruption: sysbench's last line" grep -qx "FATAL: Validation failed on file 1, block offset 65536, exiting..." "$T_DIR/out"
check "corruption: the line forms are real sysbench's" test "$(grep -Ec '^FATAL: (Checksum mismatch in block with offset|Validation failed on file [0-9]+, block offset [0-9]+, exiting\.\.\.)' "$G/run-validate-fail.txt")" = 2
check "corruption: no report, as sysbench" test "$(grep -c 'total number of events' "$T_DIR/out")" = 0
expect_rc 1 "corruption is found (stormark fileio)" "$STORMARK" fileio $SMALL --validate --file-test-mode=seqrd --events=1000 --time=0 run
check "corruption: names file and offset" grep -q "offset 65536 of 'test_file.1'" "$T_DIR/out"
# a block whose trailer is gone too (zeroed, or random bytes) in a set
# prepared with --validate is damage, not a block without a checksum: real
# sysbench 1.0.20 stops at it with the same lines and exit 1
for kind in zero random; do
  "$SB" fileio $SMALL cleanup >/dev/null
  "$SB" fileio $SMALL --validate prepare >/dev/null
  if [ $kind = zero ]; then src=/dev/zero; else src=/dev/urandom; fi
  dd if=$src of=test_file.1 bs=16384 count=1 seek=2 conv=notrunc iflag=fullblock status=none
  expect_rc 1 "$kind block is found" "$SB" fileio $SMALL --validate --file-test-mode=seqrd --time=1 run
  check "$kind block: sysbench's checksum line" grep -qx "FATAL: Checksum mismatch in block with offset: 32768" "$T_DIR/out"
  check "$kind block: sysbench's last line" grep -qx "FATAL: Validation failed on file 1, block offset 32768, exiting..." "$T_DIR/out"
  check "$kind block: no report, as sysbench" test "$(grep -c 'total number of events' "$T_DIR/out")" = 0
  expect_rc 1 "$kind block is found (stormark fileio)" "$STORMARK" fileio $SMALL --validate --file-test-mode=seqrd --time=1 run
  check "$kind block: names file and offset" grep -q "validation failed: block at offset 32768 of 'test_file.1'" "$T_DIR/out"
  check "$kind block: not called a block without a checksum" sh -c "! grep -q 'carry no checksum' '$T_DIR/out'"
done
if t_direct_io; then
  expect_rc 0 "direct rndrd" "$SB" fileio $SMALL --file-extra-flags=direct --file-test-mode=rndrd --events=500 --time=0 run
  check "direct: flags line" grep -qx "Extra file open flags: directio" "$T_DIR/out"
else   # plain POSIX on Linux (t_direct_io): no direct I/O, refused before any work
  expect_rc 2 "no direct I/O in this build: direct refused" "$SB" fileio $SMALL --file-extra-flags=direct --file-test-mode=rndrd --events=500 --time=0 run
  check "the refusal names direct I/O" grep -q 'does not support O_DIRECT' "$T_DIR/out"
fi
# (SIGINT at its default: ignored, as a background job has it, it stays
# ignored under the sysbench name; tests/cli/sysbench_sigint.sh)
env --default-signal=INT "$SB" fileio $SMALL --file-test-mode=rndrd --time=30 run >"$T_DIR/int.txt" 2>"$T_DIR/int.err" &
pid=$!
# signal once the workers run (a slow start, e.g. under ASan, must not
# meet the default SIGINT handler)
for i in $(seq 100); do grep -q "Threads started" "$T_DIR/int.txt" 2>/dev/null && break; sleep 0.1; done
sleep 0.5; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 130" test $rc = 130
check "SIGINT: partial report" grep -q "total number of events:" "$T_DIR/int.txt"
check "SIGINT: says interrupted" grep -q "interrupted" "$T_DIR/int.err"
"$SB" fileio $SMALL cleanup >/dev/null
finish
