#!/bin/bash
# SPDX-License-Identifier: MIT
# Every command's --json output validates against docs/stormark.schema.json
# (JSON Schema draft 2020-12, python3-jsonschema from Debian), and so do the
# canned results in tests/golden/; a document with a key removed does not.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
PY=/usr/bin/python3
CHECK="$SM_SOURCE_DIR/scripts/check-schema.py"
SCHEMA="$SM_SOURCE_DIR/docs/stormark.schema.json"
$PY -c 'from jsonschema import Draft202012Validator' 2>/dev/null ||
  skip "python3-jsonschema cannot be imported (apt-get install python3-jsonschema)"
cd "$T_DIR" || exit 1

valid() {  # valid DESC FILE...
  local d=$1; shift
  if $PY "$CHECK" "$SCHEMA" "$@" >schema.out 2>&1; then ok; else fail "$d"; head -5 schema.out >&2; fi
}

mkdir fr
$S frames -w hd -n 20 -t 2 --json f-write.json fr >/dev/null 2>&1
check "frames write" test -s f-write.json
$S frames -r -n 20 --json f-read.json fr >/dev/null 2>&1
$S frames -r -n 20 -f 200 --json f-paced.json fr >/dev/null 2>&1
$S frames -e -n 20 --engine null --json f-empty.json fr >/dev/null 2>&1
valid "frames" f-write.json f-read.json f-paced.json f-empty.json

$S fileio --file-num=2 --file-total-size=2M prepare >/dev/null 2>&1
$S fileio --file-num=2 --file-total-size=2M --file-test-mode=rndrw --time=1 --report-interval=1 \
  --json=fi.json run >/dev/null 2>&1
$S fileio --file-num=2 --file-total-size=2M --file-test-mode=seqrd --file-io-mode=async --time=1 \
  --json=fi-async.json run >/dev/null 2>&1
$S fileio --file-num=2 --file-total-size=2M cleanup >/dev/null 2>&1
check "fileio" test -s fi.json
valid "fileio" fi.json fi-async.json

$S time -n 2 --json -o t.json -- true
valid "time" t.json

mkdir st
$S streams st --rate-mib 1 --step 1 --time 4 --max-streams 2 --quiet --json=s.json >/dev/null 2>&1
check "streams" test -s s.json
valid "streams" s.json

mkdir rd
$S run rd --time 2 --quiet --engine null --no-confirm --formats dpx-hd --fps 24 --json r.json \
  >/dev/null 2>&1
valid "run" r.json

valid "golden results" "$SM_SOURCE_DIR"/tests/golden/*/*.json

# the check can fail: a head key removed, a verdict misspelt
jq 'del(.interrupted)' r.json >bad1.json
jq '.run.verdicts[0].capture[0].verdict = "maybe"' r.json >bad2.json
for b in bad1.json bad2.json; do
  if $PY "$CHECK" "$SCHEMA" $b >/dev/null 2>&1; then fail "$b passed the schema"; else ok; fi
done
finish
