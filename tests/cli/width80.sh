#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every text report fits an 80-column terminal (issue 30 item 8): no line
# over 79 columns in the text layouts of fileio (sysbench's and
# stormark's), meta, time (text and timeit, one run and a series), frames
# (frametest's block and stormark's lines after it), run, history (the
# keys, a key of each kind), compare, report's rendering of every saved
# kind (tests/golden) and an MPI job's host and rank table, also with a
# long host name and a long error. (help and streams: help_width.sh.)
#
# The runs work in a directory with a long name: a line that carries that
# path may be wider (a path is not cut), so it is measured with the path
# written DIR (and the scratch directory, the history's, T); its table
# must still fit.
#
# Exempt, each for its reason (nothing else is):
#  - sysbench's interval line "[ Ns ] reads: ... latency (ms,95%): ...":
#    sysbench 1.0.20 prints it so (88 columns), the sysbench layout stays
#    byte-compatible, and stormark's text layout prints the same line so
#    that one parser reads both;
#  - the lines of frametest's own block (the frametest layout up to
#    "Longest close time"): frametest prints them so; none is wider today.
#    stormark's lines after the block are checked.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
export TZ=UTC LC_ALL=C
G="$SM_SOURCE_DIR/tests/golden"
L=$T_DIR/a-directory-with-a-rather-long-name-to-see-how-reports-lay-out-paths
mkdir -p "$L/vf" out
DB=$T_DIR/h.db

# wide NAME FILE [frametest]: the lines of FILE over 79 columns (the long
# path written DIR, the exemptions above left out) on stdout; status 1
# when there is one
wide() {
  sed "s#$L#DIR#g; s#$T_DIR#T#g" "$2" | awk -v name="$1" -v ft="${3:-}" '
    ft && /^Longest close time/ { inblock = 0; next }
    ft && NR == 1 { inblock = 1 }
    inblock { next }
    /^\[ [0-9]+s \] reads: .* latency \(ms,[0-9.]+%\): / { next }
    length($0) > 79 { print name ": " length($0) ": " $0; bad = 1 }
    END { exit bad }'
}
# fits NAME FILE [frametest]: a check that FILE has no such line
fits() {
  wide "$@" >>"$T_DIR/bad.txt"
  check "$1: no line over 79 columns" test $? = 0
}
# run NAME CMD...: CMD's stdout into out/NAME (exit status not judged
# here: the other tests do), then fits
run() {
  local n=$1; shift
  "$@" >"$T_DIR/out/$n" 2>"$T_DIR/out/$n.err"
  fits "$n" "$T_DIR/out/$n" "${FT:-}"
}
: >bad.txt

# ---- the saved results of tests/golden, in each text layout --------------
for j in "$G"/fileio/*.json; do
  b=fileio-$(basename "$j" .json)
  run "$b.text" "$S" report "$j" --format text
  run "$b.sysbench" "$S" report "$j" --format sysbench
done
for j in "$G"/frames/*.json "$G"/mpi/frames.json; do
  FT=1 run "frames-$(basename "$(dirname "$j")")-$(basename "$j" .json).frametest" "$S" report "$j"
done
for j in "$G"/time/*.json; do
  run "time-$(basename "$j" .json).text" "$S" report "$j" --format text
  run "time-$(basename "$j" .json).timeit" "$S" report "$j" --format timeit
done
for j in "$G"/run/*.json "$G"/meta/*.json; do
  run "$(basename "$(dirname "$j")")-$(basename "$j" .json).text" "$S" report "$j" --format text
done

# an MPI job's table with a long host name, a failed rank's long error and
# a rank that sent nothing
jq '.mpi.hosts[0].host = "render-node-042.studio.example.org"
  | .mpi.ranks[0].host = "render-node-042.studio.example.org"
  | .mpi.ranks[1].host = "render-node-042.studio.example.org"
  | .mpi.ranks[1].failed = true
  | .mpi.ranks[1].error = "cannot create frame000011.tst in DIR/rank.1: No space left on device (the file system has 0 B free of 2.00 TiB)"' \
  "$G/mpi/frames.json" >mpi-long.json
t_check_skip mpi-long.json
FT=1 run mpi-long "$S" report mpi-long.json
check "mpi: the long host name on a line of its own" grep -qx "  render-node-042.studio.example.org" out/mpi-long
check "mpi: the error continues below its row" grep -q "^      failed: cannot create frame000011.tst" out/mpi-long

# ---- live runs in a directory with a long name --------------------------
F=(--file-total-size=4M --file-num=2)
(cd "$L" && "$S" fileio "${F[@]}" prepare >/dev/null 2>&1)
(cd "$L" && run fileio-sysbench "$S" fileio "${F[@]}" --file-test-mode=rndrw --time=1 \
  --report-interval=1 --save fio --db "$DB" --json="$T_DIR/fio1.json" run)
(cd "$L" && run fileio-text "$S" fileio "${F[@]}" --file-test-mode=rndrw --time=1 --format=text \
  --report-interval=1 --save fio --db "$DB" --json="$T_DIR/fio2.json" run)
(cd "$L" && run sysbench-name "$SM_BUILD_DIR/sysbench" fileio "${F[@]}" --file-test-mode=seqwr --time=1 run)
(cd "$L" && "$S" fileio "${F[@]}" cleanup >/dev/null 2>&1)
run meta "$S" meta -n 100 --size 4K --save meta --db "$DB" --json="$T_DIR/meta.json" "$L"
run time-one "$S" time --save t --db "$DB" -- dd if=/dev/zero of="$L/blob" bs=64k count=4 status=none
run time-series "$S" time -n 3 --save t --db "$DB" --json="$T_DIR/time.json" -- true
run time-timeit "$S" time -n 2 --format timeit -- true
FT=1 run frames-write "$S" frames -w 64 -n 10 --save fr --db "$DB" --json="$T_DIR/fr.json" "$L"
FT=1 run frames-paced "$S" frames -r -n 10 -f 200 "$L"
FT=1 run frames-format "$S" frames --video-format dpx-sd-pal --capture -n 5 --fps 200 "$L/vf"
run run-null "$S" run --engine null --time 2 --save rn --db "$DB" --json="$T_DIR/run.json" "$L"
run list-formats "$S" frames --list-formats

# ---- history, compare and report of what was saved ----------------------
run history-keys "$S" history --db "$DB"
for k in fio meta t fr rn; do
  run "history-$k" "$S" history --db "$DB" "$k"
done
run history-tt "$S" history --db "$DB" t t
run compare-keys-time "$S" compare --db "$DB" t t
run compare-keys-fileio "$S" compare --db "$DB" fio fio
run compare-files-frames "$S" compare fr.json fr.json
run compare-files-meta "$S" compare meta.json meta.json
for j in fio1 fio2 meta time fr run; do
  FT=$([ "$j" = fr ] && echo 1) run "report-$j" "$S" report "$j.json"
done

sed 's/^/  | /' bad.txt | head -40 >&2

# the checker catches what it is for: a wide line, a wide line of a path's
# table, and not an exempt one
printf '%s\n' "$(printf 'x%.0s' $(seq 1 80))" >wide.txt
printf '  %s  %s\n' "$L" "$(printf 'y%.0s' $(seq 1 80))" >pathrow.txt
printf '[ 1s ] reads: 735.94 MiB/s writes: 490.62 MiB/s fsyncs: 1570.00/s latency (ms,95%%): 0.007\n' >iv.txt
wide selfcheck-wide wide.txt >self.txt
wide selfcheck-pathrow pathrow.txt >>self.txt
wide selfcheck-interval iv.txt >>self.txt
check "the checker: a line of 80 columns is found" grep -q '^selfcheck-wide: 80: ' self.txt
check "the checker: a wide row beside a path is found" grep -q '^selfcheck-pathrow: ' self.txt
check "the checker: sysbench's interval line is exempt" sh -c "! grep -q '^selfcheck-interval' self.txt"
finish
