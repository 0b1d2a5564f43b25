#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The frametest name as frametest's users script it: the help (golden,
# every frametest option with its meaning), stormark's long options under
# that name, a paced run's own lines after frametest's whole block (the
# line structure of a real frametest report, tests/golden/frames/
# frametest-seed-report.txt), and a -x log that cannot be written whole
# (full tmpfs, /dev/full, EIO through tests/fusefail): exit 1, a clear
# line, no "Writing log file...".
. "$SM_SOURCE_DIR/tests/lib.sh"
# Its checks of a clean stderr need direct I/O: where there is none (a
# plain-POSIX build on Linux, t_direct_io) every run warns that it falls
# back to buffered I/O. That fallback is checked, then the rest skipped.
t_frames_need_direct_io
. "$SM_SOURCE_DIR/tests/fusefail/mount.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
FT="$SM_BUILD_DIR/frametest"
G="$SM_SOURCE_DIR/tests/golden/frames"
D="$T_DIR/set1"; mkdir -p "$D" "$T_DIR/V"
cd "$T_DIR"

# --- help -------------------------------------------------------------------------
expect_rc 0 "frametest alone prints its help" "$FT"
check "the help as in the golden file" diff -u "$G/frametest-help.txt" "$T_DIR/out"
expect_rc 0 "frametest --help" "$FT" --help
check "--help prints the same help" diff -u "$G/frametest-help.txt" "$T_DIR/out"
# every option of frametest's own help (the seed), each with a meaning
for o in "w size" e r s "n num" "a num" "t num" o "f rate" "q num" "b num" v m "l num" \
	 "i num" "z size" "d num" "p secs" "c perc" "u secs" "h secs" "x file"; do
	check "help: -$o with its meaning" grep -Eq "^  -$o +[a-zA-Z'(]" "$G/frametest-help.txt"
done
for o in n a t q b l i c u h; do
	check "help: -$o says its default" grep -A1 "^  -$o " "$G/frametest-help.txt" | grep -q default
done
check "help: nothing wider than 79 columns" test "$(awk 'length > 79' "$G/frametest-help.txt" | wc -l)" = 0
expect_usage "an unknown option" "$FT" -Q B
check "the usage hint is a sentence naming --help" grep -qx "frametest: unknown option '-Q' (try 'frametest --help')" "$T_DIR/usage.err"
expect_usage "-? is refused as an unknown option" "$FT" "-?"
# no printf artefact in any help text printed from an option table
for c in frames fileio time run history report; do
	"$STORMARK" "$c" --help >>"$T_DIR/helps" 2>&1
done
"$FT" >>"$T_DIR/helps"; "$SM_BUILD_DIR/sysbench" fileio help >>"$T_DIR/helps" 2>&1
"$SM_BUILD_DIR/sysbench" --help >>"$T_DIR/helps" 2>&1; "$STORMARK" --help >>"$T_DIR/helps" 2>&1
check "the helps were printed" test "$(wc -l <"$T_DIR/helps")" -gt 150
check "no %% in any help" test "$(grep -c '%%' "$T_DIR/helps")" = 0

# --- stormark's long options under the frametest name -------------------------------
expect_rc 0 "--json FILE --buffered --engine psync --quiet" "$FT" -w 64 -n 8 --json "$T_DIR/a.json" \
	--buffered --engine psync --quiet --seed 7 "$D"
check "--json wrote the file" test "$(json a.json 'd["params"]["frames"]')" = 8
check "--buffered taken" test "$(json a.json 'd["params"]["direct"]')" = False
check "--seed taken" test "$(json a.json 'd["params"]["seed"]')" = 7
check "the report stays frametest's" grep -qx "Test parameters: -w64 -n8" "$T_DIR/out"
expect_rc 0 "--json=FILE with --engine=null" "$FT" -w 64 -n 4 --json="$T_DIR/b.json" --engine=null "$D"
check "--engine=null taken" test "$(json b.json 'd["params"]["engine"]')" = null
expect_rc 0 "long names of frametest's options" "$FT" --write=64 --frames 6 --threads=2 "$D"
check "--write --frames --threads taken" grep -qx "Test parameters: -w64 -n6 -t2" "$T_DIR/out"
expect_rc 0 "--format json" "$FT" -r --format json "$D"
check "--format json: the JSON is the report" test "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["params"]["test"])' <"$T_DIR/out")" = read
expect_rc 0 "--output FILE" "$FT" -r --output "$T_DIR/rep.txt" "$D"
check "--output: the report in FILE" grep -q "^Test parameters: -r -n" "$T_DIR/rep.txt"
check "--output: nothing on stdout" test ! -s "$T_DIR/out"
expect_rc 0 "--verify" "$FT" -w 64 -n 4 --verify "$D"
check "--verify checked the frames" grep -qi "verif" "$T_DIR/out"
expect_rc 0 "--video-format --fps --capture" "$FT" --video-format dpx-sd-pal --fps 5 --capture -n 5 "$T_DIR/V"
check "--video-format: the verdict line" grep -q "^dpx-sd-pal capture at 5 fps: " "$T_DIR/out"
expect_rc 0 "--list-formats" "$FT" --list-formats
check "--list-formats lists 2k" grep -qw "2k" "$T_DIR/out"
expect_usage "an unknown long option" "$FT" --bogus "$D"
expect_usage "-o keeps frametest's meaning (out of order, no value)" "$FT" -w 64 -n 2 -o x "$D"

# --- options frametest takes where they cannot apply, as frametest does ------------
# (stormark frames refuses them: tests/cli/badinput.tsv)
expect_rc 0 "-c in a write test (ignored)" "$FT" -w 64 -n 2 -c 50 "$D"
check "-c: echoed as frametest echoes it" grep -qx "Test parameters: -w64 -n2 -c50" "$T_DIR/out"
expect_rc 0 "-q and -b without -f" "$FT" -w 64 -n 2 -q 8 -b 3 "$D"
expect_rc 0 "-b above -q" "$FT" -w 64 -n 2 -f 1000 -q 4 -b 10 "$D"
expect_rc 0 "-i 1024 with a 1 KiB frame" "$FT" -w 1 -n 2 -i 1024 "$T_DIR/V"
rm -f "$T_DIR"/V/frame*.tst

# --- a paced run: frametest's block first, line for line --------------------------
expect_rc 0 "paced write with -x" "$FT" -w 64 -n 10 -f 50 -x "$T_DIR/p.csv" "$D"
check "paced: the block's line structure is the seed's, then stormark's lines" python3 - \
	"$G/frametest-seed-report.txt" "$T_DIR/out" <<'PY'
import re, sys
def key(line):
    s = ' '.join(line.split())
    if re.match(r'^(\d+%\s*)?\+?\|', s):
        return 'histogram'
    m = re.match(r'(\d+s:|[A-Za-z][A-Za-z/ ]*)', s)
    return m.group(0).strip() if m else s
seed = [key(l) for l in open(sys.argv[1]) if l.strip()]
ours = [key(l) for l in open(sys.argv[2])]
head = ours[:len(seed)]
if head != seed:
    for i, (a, b) in enumerate(zip(seed, head)):
        if a != b:
            print("line %d: seed %r, ours %r" % (i + 1, a, b)); break
    sys.exit(1)
# stormark's own lines after the block: an indented line continues the one
# above it (each fits 80 columns)
raw = open(sys.argv[2]).read().split("\n")[len(seed):]
rest = [key(l) for l in raw if l.strip() and not l.startswith("  ")]
want = ['Frames dropped', 'Frame time from schedule', 'Buffers used at most']
sys.exit(0 if rest == want else print("after the block:", rest) or 1)
PY
expect_rc 0 "paced read" "$FT" -r -n 10 -f 50 "$D"
check "paced read: frametest's block ends at the close times" python3 - "$T_DIR/out" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
i = next(i for i, l in enumerate(lines) if l.startswith("Longest close time"))
tail = [l.split(":")[0].split(" ..")[0] for l in lines[i + 1:] if not l.startswith("  ")]
sys.exit(0 if tail == ["Frames dropped", "Frame time from schedule", "Lateness (done - due)",
                       "Buffers used at most"] and not any(l.startswith("Frames dropped") for l in lines[:i])
         else print(tail) or 1)
PY

# --- a -x log that cannot be written whole ------------------------------------------
# csv_fails DESC CSV: exit 1, the report, no "Writing log file...", one line
# naming the file as incomplete
csv_fails() {
	local d=$1 csv=$2
	"$FT" -w 4 -n 400 -x "$csv" "$D" >"$T_DIR/c.out" 2>"$T_DIR/c.err"
	local rc=$?
	check "$d: exit 1 (got $rc)" test "$rc" = 1
	check "$d: the report is printed" grep -q "^Longest close time" "$T_DIR/c.out"
	check "$d: no 'Writing log file...'" test "$(grep -c 'Writing log file' "$T_DIR/c.out")" = 0
	check "$d: one clear line" grep -qx "frametest: cannot write '$csv': .* (the file is incomplete)" "$T_DIR/c.err"
	check "$d: nothing else on stderr" test "$(wc -l <"$T_DIR/c.err")" = 1
}
expect_rc 0 "control: -x into a file that has room" "$FT" -w 4 -n 400 -x "$T_DIR/ok.csv" "$D"
check "control: 'Writing log file...'" grep -qx "Writing log file..." "$T_DIR/out"
check "control: the whole log" test "$(wc -l <"$T_DIR/ok.csv")" = 401
if tmpfs_mount "$T_DIR/small" 8k; then
	csv_fails "a full tmpfs" "$T_DIR/small/log.csv"
	# written under a temporary name, removed when a write fails: nothing
	# half-written is left under the name asked (docs/options.md)
	check "full tmpfs: no cut file is left" test -z "$(ls -A "$T_DIR/small" | grep -v '^fill')"
else
	echo "note: no tmpfs could be mounted here; the full-disk case is left out"
fi
if [ -c /dev/full ]; then
	# a character device is no output: refused before the run
	"$FT" -w 4 -n 4 -x /dev/full "$D" >"$T_DIR/c.out" 2>"$T_DIR/c.err"
	check "/dev/full: exit 2" test $? = 2
	check "/dev/full: one line, no report" test "$(wc -l <"$T_DIR/c.err")" = 1 -a ! -s "$T_DIR/c.out"
	check "/dev/full: names it" grep -q "cannot write -x '/dev/full': it is a character device" "$T_DIR/c.err"
	# the report itself on a full device: frametest's name on the line
	"$FT" -w 4 -n 4 "$D" >/dev/full 2>"$T_DIR/c.err"
	check "report to /dev/full: exit 1" test $? = 1
	check "report to /dev/full: one line under frametest's name" grep -qx \
		"frametest: cannot write the report to standard output: No space left on device" "$T_DIR/c.err"
fi
if [ -n "${SM_FUSEFAIL:-}" ] && [ -x "$SM_FUSEFAIL" ] && [ -c /dev/fuse ] &&
   ff_mount "$T_DIR/fb" "$T_DIR/fm" --fail-write=2 --only=log; then
	csv_fails "EIO (fusefail)" "$T_DIR/fm/log.csv"
	check "EIO: the error is EIO" grep -q "Input/output error" "$T_DIR/c.err"
	ff_umount "$T_DIR/fm"
else
	echo "note: tests/fusefail cannot mount here; the EIO case is left out"
fi
finish
