#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The size limits of src/ (issue 32): no file over 800 lines (a failure),
# and the functions over 60 lines (listed with --functions, a report that
# does not fail: each of them read once, split when it does two things).
#
# A function is counted from the first line of its definition (the line
# its name is on) to its closing brace at the start of a line, as the
# project's style writes them (STYLE.md: the opening brace of a function
# alone on its line).
#
# usage: check-sizes.sh [--functions] [SRC]
set -u
funcs=0
if [ "${1:-}" = --functions ]; then
  funcs=1
  shift
fi
src="${1:-$(dirname "$0")/../src}"
exec python3 - "$src" "$funcs" <<'PY'
import os, re, sys

src, funcs = sys.argv[1], sys.argv[2] == "1"
FILE_MAX, FUNC_MAX = 800, 60
name_re = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
bad, long_funcs = 0, []
for root, dirs, files in os.walk(src):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(root, f)
        rel = os.path.relpath(path, src)
        with open(path, errors="replace") as fh:
            lines = fh.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > FILE_MAX:
            print("size: src/%s has %d lines (at most %d)" % (rel, len(lines), FILE_MAX))
            bad = 1
        if not funcs or not f.endswith(".c"):
            continue
        for i, text in enumerate(lines):
            if text != "{":
                continue
            # the definition's first line: back to the line naming it
            j = i - 1
            while j > 0 and not name_re.match(lines[j].split("(")[0] + "(") \
                    and lines[j][:1] in ("\t", " "):
                j -= 1
            m = name_re.search(lines[j]) if j >= 0 else None
            if not m or "=" in lines[j].split("(")[0]:
                continue    # a struct or array initialiser, not a function
            k = i + 1
            while k < len(lines) and not lines[k].startswith("}"):
                k += 1
            n = k - i - 1   # the lines between the braces
            if n > FUNC_MAX:
                long_funcs.append((n, rel, j + 1, m.group(1)))
if funcs:
    for n, rel, line, name in sorted(long_funcs, key=lambda x: (-x[0], x[1])):
        print("function: src/%s:%d %s() has %d lines" % (rel, line, name, n))
    print("functions over %d lines: %d" % (FUNC_MAX, len(long_funcs)))
if not bad:
    print("sizes: ok (no file of src/ over %d lines)" % FILE_MAX)
sys.exit(bad)
PY
