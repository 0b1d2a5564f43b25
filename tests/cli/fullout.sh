# SPDX-License-Identifier: MIT
# A report lost to a full standard output (>/dev/full) is said once, with
# the real error: exit 1 and exactly one line naming "No space left on
# device" (never "Input/output error", never two lines), for every command
# and every layout. Warnings, and what `run` prints on stderr while the
# report is not text, may come besides; they are not errors.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
mkdir -p w
"$S" time --quiet --json=t.json --save k --db h.db true >/dev/null 2>&1 || fail "time for inputs"
"$S" frames -w 4 -n 2 --json=f.json w >/dev/null 2>&1 || fail "frames for inputs"
rm -rf w/*

# full DESC CMD...: stdout to /dev/full
full() {
  local d=$1; shift
  "$@" >/dev/full 2>err; local rc=$?
  # an error line is stormark's own (`stormark: ...`, or a peer name's):
  # the report that run prints on stderr beside another layout may say
  # "cannot capture" in its Summary
  local errs; errs=$(grep -E '^[A-Za-z]+: ' err | grep -v -e ': warning: ' -e ': note: ' |
    grep -c -i -e 'cannot' -e 'error')
  if [ "$rc" = 1 ] && [ "$errs" = 1 ] && grep -q "No space left on device" err &&
     ! grep -q "Input/output error" err; then ok
  else fail "$d: exit $rc, $errs error line(s)"; grep -i -e cannot -e error err | head -3 >&2; fi
  rm -rf w/* test_file.*
}
for l in timeit text csv markdown json; do full "time --format $l" "$S" time --quiet --format "$l" true; done
full "time --json" "$S" time --quiet --json true
for l in frametest csv markdown json; do full "frames --format $l" "$S" frames -w 4 -n 2 --format "$l" w; done
full "frametest" "$SM_BUILD_DIR/frametest" -w 4 -n 2 w
FIO="--file-total-size=1M --file-num=2 --file-test-mode=seqwr --time=1"
for l in sysbench json; do full "fileio --format $l" "$S" fileio $FIO --format "$l" run; done
full "fileio prepare" "$S" fileio --file-total-size=1M --file-num=2 prepare
# the long runs in two layouts each: the text one, written as the run goes,
# and the one written at the end
for l in text markdown; do
  full "run --format $l" "$S" run w --engine null --time 1 --quiet --no-confirm --format "$l"
done
for l in text json; do
  full "streams --format $l" "$S" streams w --rate-mib 2 --step 1 --time 1 --max-streams 1 --quiet --format "$l"
done
for l in text csv markdown json openmetrics; do
  full "meta --format $l" "$S" meta -n 20 --format "$l" w
done
for l in text csv markdown json; do
  full "history --format $l" "$S" history --db h.db --format "$l"
  full "history KEY --format $l" "$S" history --db h.db --format "$l" k
done
for l in text csv markdown json html; do full "compare --format $l" "$S" compare t.json t.json --format "$l"; done
for l in timeit text csv markdown json html; do full "report time --format $l" "$S" report t.json --format "$l"; done
for l in frametest csv markdown json html; do full "report frames --format $l" "$S" report f.json --format "$l"; done
full "--help" "$S" --help
finish
