#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compare's notes show what they read from a saved result (a device name,
# a kernel, a file system) with its control characters escaped, as the
# one-line messages do. (The other layouts of a saved result do not yet:
# see docs/options.md.)
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
finish
