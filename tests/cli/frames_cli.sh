#!/usr/bin/env bash
# End-to-end tests of `stormark frames` / `frametest` on real files: every
# test kind, files created, report consistency, CSV and JSON, bad input,
# safety of files stormark did not create, interruption.
. "$SM_SOURCE_DIR/tests/lib.sh"
# Its checks of a clean stderr need direct I/O: where there is none (a
# plain-POSIX build on Linux, t_direct_io) every run warns that it falls
# back to buffered I/O. That fallback is checked, then the rest skipped.
t_frames_need_direct_io
FT="$SM_BUILD_DIR/frametest"
D="$T_DIR/set1"; mkdir -p "$D"
cd "$T_DIR"

# json FILE EXPR: evaluate a Python expression on the parsed document d.
field() { sed -n "s/^$1 *//p" "$T_DIR/out" | head -1; }

# --- write: files, sizes, unique contents, report and JSON consistency -----
expect_rc 0 "write 64 KiB x 20, 2 threads, CSV" "$FT" -w 64 -n 20 -t 2 -x w.csv "$D"
check "write: 20 frame files" test "$(ls "$D"/frame*.tst | wc -l)" = 20
check "write: names frame000000..19" test -f "$D/frame000019.tst" -a -f "$D/frame000000.tst"
check "write: each 65536 bytes" test "$(stat -c %s "$D"/frame*.tst | sort -u)" = 65536
check "write: Test parameters" grep -qx "Test parameters: -w64 -n20 -t2" "$T_DIR/out"
check "write: Frames transferred" grep -qx "Frames transferred: 20 (1.250 MB)" "$T_DIR/out"
check "write: Writing log file" grep -qx "Writing log file..." "$T_DIR/out"
check "write: CSV rows = frames + header" test "$(wc -l < w.csv)" = 21
check "write: CSV header" grep -qx "frame,seq,thread,file,start_s,open_ms,io_ms,close_ms,frame_ms,bytes,sched_ms,lateness_ms,late,error" w.csv
check "write: every 4 KiB block unique and incompressible" python3 - "$D" <<'PY'
import sys, glob, math, collections
blocks = set(); data = b""
files = sorted(glob.glob(sys.argv[1] + "/frame*.tst"))
for f in files:
    b = open(f, "rb").read()
    for i in range(0, len(b), 4096):
        blocks.add(b[i:i+4096])
    data += b
assert len(blocks) == 20 * 16, len(blocks)
c = collections.Counter(data); n = len(data)
h = -sum(v / n * math.log2(v / n) for v in c.values())
assert h > 7.9, h
PY
check "write: bytes in the report" grep -q "^Overall frame rate .... [0-9.]* fps ([0-9]* bytes/s)$" "$T_DIR/out"

expect_rc 0 "write with --json" "$STORMARK" frames -w 64 -n 20 --json w.json "$D"
check "json: schema_version, command" test "$(json w.json 'd["schema_version"], d["command"]')" = "1 frames"
check "json: bytes = frames x size" test "$(json w.json 'd["totals"]["bytes"] == d["totals"]["items"] * d["params"]["frame_bytes"] == 20 * 65536')" = True
check "json: rate = frames / duration" test "$(json w.json 'abs(d["totals"]["items_per_s"] - 20 / (d["duration_ns"] / 1e9)) < 1e-6 * d["totals"]["items_per_s"]')" = True
check "json: documented fields" test "$(json w.json 'all(k in d for k in ("tool","argv","params","environment","started_at","duration_ns","totals","ops","series","frames","warnings","errors")) and all(k in d["ops"]["frame"]["lat_ns"] for k in ("min","mean","max","p50","p90","p99","p99_9")) and d["environment"]["direct_io"] is True and d["ops"]["write"]["count"] == 20')" = True
check "json: percentiles ordered" test "$(json w.json 'd["ops"]["frame"]["lat_ns"]["min"] <= d["ops"]["frame"]["lat_ns"]["p50"] <= d["ops"]["frame"]["lat_ns"]["p99"] <= d["ops"]["frame"]["lat_ns"]["max"]')" = True
expect_rc 0 "json to stdout" "$STORMARK" frames -w 64 -n 5 --json - "$D"
check "json to stdout is only JSON" python3 -c "import json; json.load(open('$T_DIR/out'))"

# --- read ------------------------------------------------------------------
expect_rc 0 "read back" "$FT" -t 2 -x r.csv "$D"
check "read: all 20 frames (found by itself)" grep -qx "Frames transferred: 20 (1.250 MB)" "$T_DIR/out"
check "read: says open/read" grep -q "^Average read time" "$T_DIR/out"
check "read: CSV rows" test "$(wc -l < r.csv)" = 21
expect_rc 1 "read more frames than exist" "$FT" -r -n 30 "$D"
check "read: missing frame named" grep -q "frame000020.tst' is missing" "$T_DIR/out"
mkdir -p short && head -c 4096 "$D/frame000000.tst" > short/frame000000.tst
expect_rc 1 "read a short frame" "$FT" -r -z 64 -n 1 short
check "read: short frame named" grep -q "shorter" "$T_DIR/out"

# --- crop, -i, orders, loop, directories, async --------------------------------
expect_rc 0 "crop 50%" "$STORMARK" frames -r -c 50 --json c.json "$D"
check "crop: half of each frame read" test "$(json c.json 'd["ops"]["read"]["bytes"]')" = $((20 * 32768))
expect_rc 0 "-i 4 split" "$STORMARK" frames -w 64 -n 8 -i 4 --json i.json "$D"
check "-i: bytes intact" test "$(json i.json 'd["totals"]["bytes"]')" = $((8 * 65536))
expect_rc 0 "reverse order" "$FT" -r -v -n 20 -x v.csv "$D"
check "reverse: frames 19..0" test "$(cut -d, -f1 v.csv | tail -n +2 | tr '\n' ' ')" = "19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0 "
expect_rc 0 "random order" "$FT" -r -m -n 20 -x m.csv "$D"
check "random: a permutation" test "$(cut -d, -f1 m.csv | tail -n +2 | sort -n | tr '\n' ' ')" = "$(seq 0 19 | tr '\n' ' ')"
check "random: not in order" test "$(cut -d, -f1 m.csv | tail -n +2 | tr '\n' ' ')" != "$(seq 0 19 | tr '\n' ' ')"
mkdir -p L && expect_rc 0 "loop over 5 frames" "$FT" -w 64 -n 20 -l 5 -x l.csv L
check "loop: 5 files" test "$(ls L/frame*.tst | wc -l)" = 5
check "loop: 20 frames moved" grep -qx "Frames transferred: 20 (1.250 MB)" "$T_DIR/out"
mkdir -p DD && expect_rc 0 "directories of 8" "$FT" -w 64 -n 20 -d 8 DD
check "dirs: 3 directories" test "$(ls -d DD/d0000* | wc -l)" = 3
check "dirs: 8 files in the first" test "$(ls DD/d00000 | wc -l)" = 8
expect_rc 0 "dirs: read back" "$FT" -d 8 DD
check "dirs: 20 read" grep -qx "Frames transferred: 20 (1.250 MB)" "$T_DIR/out"
for engine in psync uring; do
  mkdir -p A_$engine
  expect_rc 0 "async depth 4, 2 threads ($engine)" "$STORMARK" frames -w 64 -n 40 -a 4 -t 2 --engine $engine --json a.json A_$engine
  check "async ($engine): 40 files" test "$(ls A_$engine | grep -c '^frame')" = 40
  check "async ($engine): 40 frames" test "$(json a.json 'd["frames"]["transferred"]')" = 40
  expect_rc 0 "async read, out of order ($engine)" "$FT" -a 4 -o -t 2 A_$engine
done

# --- pause, update, histogram window; the parameters line --------------------------
start=$(date +%s.%N)
expect_rc 0 "pause 1 s, update 1 s, histogram of the last 1 s" "$STORMARK" frames -w 64 -n 4 -p 1 -u 1 -h 1 --json pz.json "$D"
end=$(date +%s.%N)
check "pause: the run took at least 1 s" ge "$(awk -v a="$end" -v b="$start" 'BEGIN{print a-b}')" 1
check "pause: not counted in the duration" test "$(json pz.json 'd["duration_ns"] < 1e9')" = True
check "histogram printed" grep -q "^Histogram of frame completion times:" "$T_DIR/out"
expect_rc 0 "all pacing options in the parameters line" "$FT" -w 64 -n 4 -f 50 -q 3 -b 2 -a 2 -o -i 2 -d 2 "$D"
check "parameters line, attached form" grep -qx "Test parameters: -w64 -n4 -a2 -o -f50 -q3 -b2 -i2 -d2" "$T_DIR/out"

# --- empty frames and streams ------------------------------------------------
mkdir -p E && expect_rc 0 "empty frames" "$FT" -e -n 50 -t 4 E
check "empty: 50 empty files" test "$(find E -name 'frame*.tst' -size 0 | wc -l)" = 50
check "empty: report" grep -qx "Frames transferred: 50 (0.000 MB)" "$T_DIR/out"
expect_rc 0 "empty frames again (ours, overwritten)" "$FT" -e -n 50 E
expect_rc 0 "stream write" "$FT" -s -w 128 -n 16 "$T_DIR/stream1"
check "stream: file size" test "$(stat -c %s "$T_DIR/stream1")" = $((16 * 131072))
expect_rc 0 "stream read" "$FT" -s -z 128 -r "$T_DIR/stream1"
check "stream read: 16 frames" grep -qx "Frames transferred: 16 (2.000 MB)" "$T_DIR/out"
expect_rc 1 "stream read beyond the file" "$FT" -s -z 128 -r -n 17 "$T_DIR/stream1"

# --- pacing ---------------------------------------------------------------------
expect_rc 0 "paced capture, easy" "$STORMARK" frames -w 64 -n 20 -f 20 -q 16 --json p.json "$D"
check "paced capture easy: no drops" test "$(json p.json 'd["frames"]["dropped"]')" = 0
check "paced capture easy: report line" grep -q "^Frames dropped: 0 of 20" "$T_DIR/out"
check "paced capture: duration follows the rate" test "$(json p.json 'd["duration_ns"] > 0.9e9')" = True
mkdir -p P && expect_rc 0 "paced capture, impossible rate" "$STORMARK" frames -w 1024 -n 200 -f 100000 -q 2 --json p2.json P
check "impossible capture: drops" test "$(json p2.json 'd["frames"]["dropped"] > 100 and d["frames"]["dropped"] + d["frames"]["transferred"] == 200')" = True
expect_rc 0 "paced playback, easy" "$STORMARK" frames -r -n 20 -f 20 -q 16 -b 3 --json p3.json "$D"
check "paced playback easy: no drops" test "$(json p3.json 'd["frames"]["dropped"]')" = 0
expect_rc 0 "paced playback, impossible" "$STORMARK" frames -r -n 200 -l 20 -f 100000 -q 2 -b 1 --json p4.json "$D"
check "impossible playback: drops" test "$(json p4.json 'd["frames"]["dropped"] > 100')" = True
expect_rc 0 "format check that holds" "$STORMARK" frames --format dpx-sd-pal --fps 2 -n 4 --capture --quiet "$D"
check "format check prints a verdict" grep -q "^dpx-sd-pal capture at 2 fps: realtime" "$T_DIR/out"
expect_rc 1 "format check that cannot hold" "$STORMARK" frames --format dpx-4k --fps 5000 -n 50 --capture --quiet "$D"
# --video-format is the name now; the old --format NAME works with a notice on stderr
"$STORMARK" frames --video-format dpx-sd-pal --fps 2 -n 4 --capture --quiet "$D" >"$T_DIR/vf.out" 2>"$T_DIR/vf.err"
check "--video-format: a verdict" grep -q "^dpx-sd-pal capture at 2 fps: realtime" "$T_DIR/vf.out"
check "--video-format: no notice" test ! -s "$T_DIR/vf.err"
"$STORMARK" frames --format dpx-sd-pal --fps 2 -n 4 --capture --quiet "$D" >"$T_DIR/vf.out" 2>"$T_DIR/vf.err"
check "old --format NAME: one notice line" test "$(grep -c 'notice: --format NAME is now --video-format NAME' "$T_DIR/vf.err")" = 1

# --- output flags (docs/options.md) ----------------------------------------------------
"$STORMARK" frames -w 64 -n 5 --format json "$D" >"$T_DIR/fj.out" 2>"$T_DIR/fj.err"
check "--format json: JSON alone on stdout" python3 -c "import json; assert json.load(open('$T_DIR/fj.out'))['command'] == 'frames'"
"$STORMARK" frames -w 64 -n 5 --output "$T_DIR/rep.txt" --json "$T_DIR/rep.json" "$D" >"$T_DIR/o.out"
check "--output: the report in the file" grep -q "^Frames transferred: 5 " "$T_DIR/rep.txt"
check "--output: nothing on stdout" test ! -s "$T_DIR/o.out"
check "--json FILE besides --output" python3 -c "import json; assert json.load(open('$T_DIR/rep.json'))['command'] == 'frames'"

# --- bad input: one line, exit 2, nothing created -----------------------------------
mkdir -p B && touch B/keep
expect_usage "unknown option" "$FT" -k B
expect_usage "unknown long option" "$STORMARK" frames --bogus B
expect_usage "an unknown long option under the frametest name" "$FT" --bogus B
expect_usage "missing path" "$FT" -w 64
expect_usage "two paths" "$FT" -w 64 B B
expect_usage "non-numeric count" "$FT" -w 64 -n many B
expect_usage "negative count" "$FT" -w 64 -n -5 B
expect_usage "zero frames" "$FT" -w 64 -n 0 B
expect_usage "zero threads" "$FT" -w 64 -t 0 B
expect_usage "bad size" "$FT" -w huge B
expect_usage "frame over the limit" "$FT" -w 2000000 B
expect_usage "crop over 100" "$FT" -r -c 150 B
expect_usage "bad rate" "$FT" -w 64 -f 0 B
expect_usage "missing value" "$FT" -w
expect_usage "a file where a directory is needed" "$FT" -w 64 B/keep
expect_usage "a directory where a file is needed" "$FT" -s -w 64 B
expect_usage "missing directory" "$FT" -w 64 B/nope
expect_usage "unknown format" "$STORMARK" frames --format dpx-99k --fps 24 --capture B
expect_usage "unknown video format" "$STORMARK" frames --video-format dpx-99k --fps 24 --capture B
expect_usage "layout frames does not have" "$STORMARK" frames -w 64 --format timeit B
check "one wording for bad values" grep -q "^frametest: invalid value 'many' for -n: expected an integer from 1 to " \
  <("$FT" -w 64 -n many B 2>&1)
check "bad input created nothing" test "$(ls -A B)" = keep

# --- safety: never overwrite what stormark did not write --------------------------------
mkdir -p S && echo "precious" > S/frame000003.tst && echo "mine" > S/notes.txt
expect_rc 1 "foreign frame file" "$FT" -w 64 -n 10 S
check "foreign file named in the error" grep -q "frame000003.tst' exists and is neither a frame of 65536 bytes nor one stormark wrote" "$T_DIR/out"
check "foreign file intact" test "$(cat S/frame000003.tst)" = precious
check "other files intact" test "$(cat S/notes.txt)" = mine
check "nothing written" test "$(ls S | wc -l)" = 2
echo "precious" > "$T_DIR/stream2"
expect_rc 1 "foreign stream file" "$FT" -s -w 64 -n 2 "$T_DIR/stream2"
check "foreign stream file intact" test "$(cat "$T_DIR/stream2")" = precious
expect_rc 0 "rewriting our own frames" "$FT" -w 64 -n 20 "$D"
mkdir -p Z && expect_rc 0 "zero frames" "$STORMARK" frames -w 8 -n 2 --data zero Z
check "zero frames: zeros after the header" test "$(tail -c +65 Z/frame000001.tst | tr -d '\0' | wc -c)" = 0
expect_rc 0 "zero frames are ours to rewrite" "$FT" -w 8 -n 2 Z

# --- help and interruption ---------------------------------------------------------------
expect_rc 0 "frametest alone prints help" "$FT"
check "help lists -w" grep -q "^  -w size" "$T_DIR/out"
expect_rc 0 "stormark help frames" "$STORMARK" help frames
check "help lists --format" grep -q -- "--format NAME" "$T_DIR/out"
check "help lists --video-format" grep -q -- "--video-format NAME" "$T_DIR/out"
check "frametest's help lists no long option as an option line" test "$("$FT" | grep -c -- '^  --')" = 0

mkdir -p I
# (SIGINT at its default: a background job of a script has it ignored, and
# the frametest name keeps it so; tests/cli/frametest_sigint.sh)
env --default-signal=INT "$FT" -w 64 -n 10000000 -f 200 I >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
sleep 1.5; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 130" test "$rc" = 130
check "SIGINT: partial report" grep -q "^Frames transferred: [1-9]" "$T_DIR/int.out"
check "SIGINT: says so" grep -q "interrupted" "$T_DIR/int.err"

finish
