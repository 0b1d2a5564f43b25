#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark report FILE.json: a saved run rendered again prints exactly what
# the live run printed, in every layout of its command; bad, truncated or
# newer files get one line and exit 2.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# same DESC LIVE FILE.json [ARGS...]: `report FILE.json ARGS` prints LIVE
same() {
  local d=$1 live=$2 json=$3; shift 3
  $S report "$json" "$@" >re.out 2>re.err
  local rc=$?
  if [ $rc = 0 ] && cmp -s "$live" re.out; then ok
  else fail "$d: exit $rc, output differs"; diff "$live" re.out | head -10 >&2; head -3 re.err >&2; fi
}

# ---- time: text, timeit, csv from one live run each, and the JSON itself
for layout in text timeit csv markdown; do
  $S time -n 2 --format $layout --json=t-$layout.json -- sh -c 'head -c 100000 /dev/zero >/dev/null' \
    >t-$layout.live 2>/dev/null
  check "time $layout: live run" test -s t-$layout.live
  same "time $layout" t-$layout.live t-$layout.json --format $layout
done
same "time: text is the default layout" t-text.live t-text.json
$S time --json -o t.json -- true 2>/dev/null
same "time json" t.json t.json --format json
$S report t-csv.json --format csv -o t-out.csv
check "time: -o writes the file" cmp -s t-csv.live t-out.csv

# ---- run: the null engine (no I/O, fixed profile), text and JSON
mkdir rd
$S run rd --time 2 --quiet --engine null --no-confirm --formats dpx-hd,dpx-4k --fps 24,60 \
  --json r.json >r.live 2>/dev/null
check "run: live run" test $? = 0
same "run text" r.live r.json
same "run text (named)" r.live r.json --format text
same "run json" r.json r.json --format json
$S run rd --time 2 --quiet --engine null --classic-only --json rc.json >rc.live 2>/dev/null
same "run --classic-only text" rc.live rc.json
same "run --classic-only json" rc.json rc.json --format json
# an interrupted run: the partial result, "interrupted" in the head
mkdir ri
$S run ri --time 20 --quiet --engine null --json ri.json >ri.live 2>/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
check "run interrupted: exit 130" test $? = 130
check "run interrupted: in the head" jq -e '.interrupted == true' ri.json >/dev/null
same "run interrupted text" ri.live ri.json

# ---- fileio: sysbench's layout (with --histogram, intervals, a percentile),
# the native text, the JSON; sync, async and fsync-all
$S fileio --file-num=2 --file-total-size=4M prepare >/dev/null 2>&1
$S fileio --file-num=2 --file-total-size=4M --file-test-mode=rndrw --time=2 --report-interval=1 \
  --histogram --percentile=99 --rand-seed=7 --json=fi.json run >fi.live 2>/dev/null
check "fileio: live run" grep -q "Latency histogram" fi.live
same "fileio sysbench (default)" fi.live fi.json
same "fileio sysbench" fi.live fi.json --format sysbench
same "fileio json" fi.json fi.json --format json
$S fileio --file-num=2 --file-total-size=4M --file-test-mode=seqwr --file-io-mode=async --time=1 \
  --report-interval=1 --format=stormark --json=fa.json run >fa.live 2>/dev/null
check "fileio async native: live run" test -s fa.live
same "fileio async native" fa.live fa.json --format text
same "fileio async json" fa.json fa.json --format json
$S fileio --file-num=2 --file-total-size=4M --file-test-mode=rndwr --file-fsync-all=on \
  --events=200 --json=fs.json run >fs.live 2>/dev/null
same "fileio fsync-all sysbench" fs.live fs.json
$S fileio --file-num=2 --file-total-size=4M cleanup >/dev/null 2>&1

# ---- frames: frametest's layout (write, paced read with -h and -x, a
# video-format verdict), and the JSON
mkdir ff ffv
$S frames -w hd -n 30 -t 2 --json fw.json ff >fw.live 2>/dev/null
check "frames write: live run" grep -q "Frames transferred: 30" fw.live
same "frames write frametest (default)" fw.live fw.json
same "frames write frametest" fw.live fw.json --format frametest
same "frames write json" fw.json fw.json --format json
$S frames -r -n 30 -f 100 -h 1 -x log.csv --json fr.json ff >fr.live 2>/dev/null
check "frames paced read: live run" grep -q "Writing log file" fr.live
same "frames paced read frametest" fr.live fr.json
same "frames paced read json" fr.json fr.json --format json
$S frames --video-format dpx-hd --fps 24 --capture -n 20 --json fv.json ffv >fv.live 2>/dev/null
check "frames video format: live run" grep -q "dpx-hd capture at 24 fps" fv.live
same "frames video format frametest" fv.live fv.json
# markdown and csv, live and rendered again; the verdict is in them, not apart
for layout in markdown csv; do
  $S frames -r -n 30 -f 100 --format $layout --json=fr-$layout.json ff >fr-$layout.live 2>/dev/null
  check "frames paced read $layout: live run" grep -Eq '^(\| frame \| |frame,)[0-9]+' fr-$layout.live
  same "frames paced read $layout" fr-$layout.live fr-$layout.json --format $layout
  $S frames --video-format dpx-hd --fps 24 --capture -n 20 --format $layout --json=fv-$layout.json ffv \
    >fv-$layout.live 2>/dev/null
  check "frames video format $layout: the verdict" grep -Eq "realtime|marginal|undecided" fv-$layout.live
  same "frames video format $layout" fv-$layout.live fv-$layout.json --format $layout
done
# the notices the live run printed on stderr beside its layout come again
# on stderr (a buffered read of a set smaller than the free RAM: a warning)
mkdir fsm
$S frames -w 4 -n 20 fsm >/dev/null 2>&1
$S frames -r -n 20 --buffered --json frb.json fsm >frb.live 2>frb.err
check "frames buffered read: the live run's warning" grep -q "^stormark frames: warning: buffered reads" frb.err
same "frames buffered read frametest" frb.live frb.json
check "frames: report says the live run's warning on stderr" \
  test "$(sed -n 's/^stormark frames: warning: //p' frb.err)" = "$(sed -n 's/^stormark report: warning: //p' re.err)"
$S report frb.json --format json >/dev/null 2>re.err
check "frames: report --format json adds nothing on stderr" test ! -s re.err
check "frames csv: one verdict cell" \
  test "$(grep -Ec '^schedule,[0-9]+,,,[0-9]+,.*,(realtime|marginal|not-realtime|undecided)$' fv-csv.live)" = 1

# ---- streams: text, markdown and csv, live and from the JSON
mkdir sd
for layout in text markdown csv; do
  $S streams sd --rate-mib 2 --step 1 --time 3 --max-streams 1 --play --quiet --format $layout \
    --json=st-$layout.json >st-$layout.live 2>/dev/null
  check "streams $layout: live run" test -s st-$layout.live
  same "streams $layout" st-$layout.live st-$layout.json --format $layout
done
same "streams json" st-text.json st-text.json --format json

# ---- bad input: one line on stderr, nothing on stdout, exit 2
expect_usage "no file" $S report
expect_usage "missing file" $S report no-such.json
expect_usage "unknown layout" $S report t.json --format pdf
expect_usage "layout of another command" $S report r.json --format timeit
printf 'not json\n' >bad.json
expect_usage "not JSON" $S report bad.json
head -c 300 r.json >trunc.json
expect_usage "truncated" $S report trunc.json
jq '.schema_version = 99' r.json >newer.json
expect_usage "newer schema" $S report newer.json
check "newer schema: says so" grep -q "schema_version 99" "$T_DIR/usage.err"
jq 'del(.run.classic[0].read.op.lat_ns.histogram)' r.json >nohist.json
expect_usage "no histogram" $S report nohist.json
jq 'del(.params)' t.json >noparams.json
expect_usage "time without params" $S report noparams.json
jq '.series.duration_ns[0] = 0' fi.json >fi0.json
expect_usage "fileio: an interval of no length" $S report fi0.json
check "fileio: an interval of no length: no inf or nan printed" sh -c "! grep -Eqi 'inf|nan' $T_DIR/usage.out"
jq 'del(.streams[0].steps[0].per_stream[0])' st-text.json >st-short.json
expect_usage "streams: a step missing a stream" $S report st-short.json
check "streams: says which" grep -q "lists 0 of them" "$T_DIR/usage.err"
jq '.streams[0].direction = "sideways"' st-text.json >st-dir.json
expect_usage "streams: an unknown direction" $S report st-dir.json
printf '[1, 2]\n' >array.json
expect_usage "not an object" $S report array.json

finish
