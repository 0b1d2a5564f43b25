# SPDX-License-Identifier: MIT
# stormark fileio: every test mode with sync, async (io_uring) and mmap on a
# small file set; the counters agree with sysbench's rules (events = reads +
# writes + periodic fsyncs, one fsync series of every file per 100 requests,
# end fsyncs per thread, rndrw's ratio) and with each other.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON report"
D="$T_DIR/set"; mkdir -p "$D"
F="--file-dir=$D --file-total-size=4M --file-num=4"
cnt() { json "$T_DIR/r.json" "d['ops'].get('$1', {}).get('count', 0)"; }
# every figure the mode loop needs, from one interpreter start
figures() { json "$T_DIR/r.json" "' '.join(str(x) for x in [d['ops'].get(k, {}).get('count', 0) for k in ('read', 'write', 'fsync')] + [d['fileio']['periodic_fsyncs'], d['fileio']['end_fsyncs'], d['environment']['engine'], d['totals']['bytes']])"; }

expect_rc 0 "prepare" "$STORMARK" fileio $F --threads=2 prepare
for io in sync async mmap; do
	for m in seqwr seqrewr seqrd rndrd rndwr rndrw; do
		[ $m = seqwr ] || "$STORMARK" fileio $F prepare >/dev/null 2>&1
		t="$io $m"
		"$STORMARK" fileio $F --file-test-mode=$m --file-io-mode=$io --events=300 --time=0 \
			--json="$T_DIR/r.json" run >"$T_DIR/out" 2>&1
		check "$t: exit 0" test $? = 0
		read -r R W S P E ENG BY < <(figures)
		check "$t: 300 events = reads + writes + periodic fsyncs" test $((R + W + P)) = 300
		check "$t: text agrees" grep -Eq "total number of events: +300$" "$T_DIR/out"
		check "$t: fsync count = periodic + end" test "$S" = $((P + E))
		case $m in
		seqrd|rndrd)
			check "$t: reads only" test "$R $W $S" = "300 0 0" ;;
		rndrw)
			# sysbench 1.0.20 gives 175 reads, 117 writes, 8 + 4 fsyncs
			check "$t: sysbench's counts" test "$R $W $P $E" = "175 117 8 4" ;;
		*)
			check "$t: sysbench's counts" test "$R $W $P $E" = "0 292 8 4" ;;
		esac
		want=psync; [ $io = async ] && t_uring_usable && want=uring; [ $io = mmap ] && want=mmap
		check "$t: engine $want" test "$ENG" = $want
		check "$t: bytes = count x 16 KiB" test "$BY" = $(( (R + W) * 16384 ))
	done
done
# seqwr starts from empty files: 100 writes of 16 KiB fill the first 1 MiB
# file and 36 blocks of the second
"$STORMARK" fileio $F --file-test-mode=seqwr --events=100 --time=0 run >/dev/null 2>&1
check "seqwr: recreated files" test "$(stat -c %s "$D"/test_file.0 "$D"/test_file.1 "$D"/test_file.2 "$D"/test_file.3 | paste -sd' ')" = "1048576 589824 0 0"
"$STORMARK" fileio $F --file-test-mode=seqwr --file-merged-requests=2 --events=40 --time=0 --json="$T_DIR/r.json" run >"$T_DIR/out" 2>&1
check "merged: 32 KiB requests" test "$(json "$T_DIR/r.json" "d['ops']['write']['bytes'] // d['ops']['write']['count']")" = 32768
check "merged: the line" grep -qx "Merging requests up to 32KiB for sequential IO." "$T_DIR/out"

# fsync options, as sysbench counts them (rndwr, 100 events, 4 files)
"$STORMARK" fileio $F prepare >/dev/null 2>&1
run_f() { "$STORMARK" fileio $F --file-test-mode=rndwr --events=100 --time=0 --json="$T_DIR/r.json" "$@" run >"$T_DIR/out" 2>&1; echo "$(cnt write) $(cnt fsync)"; }
check "fsync-all: one per write" test "$(run_f --file-fsync-all=on)" = "100 100"
check "fsync-all: line" grep -qx "Calling fsync() after each write operation." "$T_DIR/out"
check "fsync-freq=0: end only" test "$(run_f --file-fsync-freq=0)" = "100 4"
check "fsync-end=off: none in 100" test "$(run_f --file-fsync-end=off)" = "100 0"
check "fdatasync: counted as fsyncs" test "$(run_f --file-fsync-mode=fdatasync)" = "100 4"
check "4 threads: end fsyncs per thread" test "$(run_f --threads=4 --file-fsync-freq=0)" = "100 16"

# --rand-seed is announced as sysbench does (that the offsets do not depend
# on the thread count is tested on the generator in test_fileio)
"$STORMARK" fileio $F --file-test-mode=rndrd --rand-seed=7 --events=200 --time=0 --threads=4 run >"$T_DIR/out" 2>&1
check "seed line" grep -qx "Initializing random number generator from seed (7)." "$T_DIR/out"
"$STORMARK" fileio $F cleanup >/dev/null
finish
