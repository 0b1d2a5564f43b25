#!/bin/bash
# SPDX-License-Identifier: MIT
# The common head of every command's JSON: command, argv as given,
# started_at taken when the run starts (not when the JSON is written: a
# regression, it used to be the writing time), duration_ns, interrupted.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# head_ok DESC FILE COMMAND BEFORE: BEFORE is `date +%s` just before the
# command started, and the check takes `date +%s` again just after it
# ended (AFTER). Each command below works for 3 s after its start, so a
# start time taken when the run starts is at most AFTER - 2 (whole seconds:
# floor(start) + 2 <= floor(end) whenever end - start >= 2, with a second
# to spare), while one taken when the JSON is written, at the end, is
# AFTER - 1 or AFTER. (It used to require started_at <= BEFORE + 1, which a
# loaded machine broke by starting the run more than a second after `date`;
# then 2 s runs, which the CI on adeb42d failed once: frames' `--time 2`
# measures 1.99995 s, so a run that started just after a whole second could
# end just before the second one after next.)
head_ok() {
  local d=$1 f=$2 cmd=$3 before=$4 after
  after=$(date +%s)
  check "$d: head" jq -e >/dev/null --arg c "$cmd" --argjson b "$before" --argjson a "$after" '
    .schema_version == 1 and .command == $c and (.argv | length) > 1 and
    .interrupted == false and (.duration_ns >= 2500000000) and
    (.started_at | fromdateiso8601) >= $b and (.started_at | fromdateiso8601) <= $a - 2 and
    (.warnings | type) == "array" and (.errors | type) == "array" and
    (.environment.kernel | length) > 0' "$f"
}

mkdir fr
b=$(date +%s)
$S frames -w 2k -n 1000000 -t 1 --engine null --time 3 --json f.json fr >/dev/null 2>&1
check "frames exit 0" test $? = 0
head_ok frames f.json frames "$b"
check "frames argv as given" jq -e >/dev/null \
  '.argv == ["frames","-w","2k","-n","1000000","-t","1","--engine","null","--time","3","--json","f.json","fr"]' f.json

$S fileio --file-num=1 --file-total-size=1M prepare >/dev/null 2>&1
b=$(date +%s)
$S fileio --file-num=1 --file-total-size=1M --file-test-mode=seqrd --time=3 --json=fi.json run >/dev/null 2>&1
check "fileio exit 0" test $? = 0
head_ok fileio fi.json fileio "$b"
$S fileio --file-num=1 --file-total-size=1M cleanup >/dev/null 2>&1

b=$(date +%s)
$S time --json -o t.json -- sleep 3
check "time exit 0" test $? = 0
head_ok time t.json time "$b"

mkdir rd
b=$(date +%s)
$S run rd --time 3 --quiet --engine null --no-confirm --formats dpx-hd --fps 24 --json r.json >/dev/null 2>&1
check "run exit 0" test $? = 0
head_ok run r.json run "$b"

finish
