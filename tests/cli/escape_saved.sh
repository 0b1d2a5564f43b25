#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a saved result holds (a device name, a kernel, a path, the command
# line) reaches the terminal with its control characters escaped, as the
# one-line messages show them: compare's notes and every text layout of
# `report` (text, markdown, CSV, frametest, sysbench, timeit) and the
# command line in `history KEY`'s title; the JSON
# layout gives the strings back as saved.
. "$SM_SOURCE_DIR/tests/lib.sh"

G="$SM_SOURCE_DIR/tests/golden/frames/capture-verdict.json"
cd "$T_DIR" || exit 1
"$PY" - "$G" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['environment']['device'] = 'sda\x1b]0;title\x07'
json.dump(d, open('bad.json', 'w'))
PYEOF
t_check_skip bad.json   # a result doctored on purpose
raw() { grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$1"; }
expect_rc 0 "compare" "$STORMARK" compare bad.json "$G" -o cmp.txt
check "compare: no raw control character" test "$(raw cmp.txt)" = 0
check "compare's note names the device escaped" grep -qF 'device differs: sda\x1b]0;title\x07' cmp.txt

# every text layout `report` has for each kind of saved result, from a
# golden with an escape sequence, a carriage return and a newline put in
# its device, its directory and its command line
"$PY" - "$SM_SOURCE_DIR/tests/golden" <<'PYEOF'
import glob, json, os, sys
for g in sorted(glob.glob(os.path.join(sys.argv[1], '*', '*.json'))):
    d = json.load(open(g))
    d.setdefault('environment', {})['device'] = 'sda\x1b]0;title\x07'
    p = d.get('params')
    if isinstance(p, dict):
        for k in ('dir', 'file_dir'):
            if isinstance(p.get(k), str):
                p[k] += '\x1b[2J\nforged'
    if isinstance(d.get('argv'), list):
        d['argv'].append('a\x1b[31mb\rc')
    json.dump(d, open('esc-%s-%s' % (g.split(os.sep)[-2], os.path.basename(g)), 'w'))
PYEOF
n=0
for f in esc-*.json; do
  t_check_skip "$f"
  for fmt in text markdown csv frametest sysbench timeit; do
    "$STORMARK" report "$f" --format "$fmt" >o.txt 2>e.txt
    rc=$?
    [ "$rc" = 2 ] && continue   # not a layout of this kind of result
    n=$((n + 1))
    check "report $f --format $fmt: exit 0" test "$rc" = 0
    check "report $f --format $fmt: no raw control character" test "$(raw o.txt)" = 0 -a "$(raw e.txt)" = 0
  done
  "$STORMARK" report "$f" --format json >j.txt
  check "report $f --format json: the device as saved" \
    test "$(json j.txt "d['environment']['device']")" = $'sda\x1b]0;title\x07'
done
check "at least 30 layouts of saved results rendered ($n)" test "$n" -ge 30

# history KEY: the saved command line in its title
"$STORMARK" time --save esc --db h.db -- echo $'a\e]0;x\ab' >/dev/null 2>&1
"$STORMARK" history esc --db h.db >h.txt 2>&1
check "history KEY: exit 0, no raw control character" test $? = 0 -a "$(raw h.txt)" = 0
check "history KEY: the command line escaped" grep -qF 'echo a\x1b]0;x\x07b' h.txt
check "markdown shows the device escaped" grep -qF 'sda\x1b]0;title\x07' <("$STORMARK" report esc-frames-write.json --format markdown)
finish
