#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a file includes a layer above its own (docs/architecture.md):
# data flows core -> engine -> workload -> result -> analysis -> report ->
# args -> cmd, and a layer may include only those listed for it here. Every
# spelling counts: "report/x.h", <report/x.h>, "../report/x.h", a header
# of the same folder ("x.h"), and files in subfolders (src/report/a/b.c is
# in report). An include is resolved as the compiler finds it in this
# project: beside the including file first, then under src/ (-Isrc).
set -u
src="${1:-$(dirname "$0")/../src}"
exec python3 - "$src" <<'PY'
import os, re, sys

src = os.path.realpath(sys.argv[1])
allowed = {
    "core": "core",
    "engine": "core engine",
    "result": "core result",
    "analysis": "core result analysis",
    # `report --check`: the invariants of a result and its layouts
    "check": "core result analysis check",
    "workload": "core engine result analysis workload",
    "store": "core result store",
    "mpi": "core workload result analysis report mpi",
    "report": "core result analysis report",
    # the command lines: option tables, output and --save options, the
    # peers' grammars (argv in, typed options out; nothing runs)
    "args": "core engine workload result analysis store report args",
    "launch": "",   # the launcher of `time`: a program of its own
}
inc = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

def layer_of(path):
    rel = os.path.relpath(path, src)
    if rel.startswith("..") or os.sep not in rel:
        return None
    return rel.split(os.sep, 1)[0]

bad = 0
for root, dirs, files in os.walk(src):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(root, f)
        layer = layer_of(path)
        if layer is None or layer == "cmd":
            continue
        with open(path, errors="replace") as fh:
            for n, text in enumerate(fh, 1):
                m = inc.match(text)
                if not m:
                    continue
                quote, name = m.groups()
                target = None
                if quote == '"' and os.path.isfile(os.path.join(root, name)):
                    target = os.path.realpath(os.path.join(root, name))
                elif os.path.isfile(os.path.join(src, name)):
                    target = os.path.realpath(os.path.join(src, name))
                if target is None and quote == '"':
                    # not there (yet): by its spelling, beside the file
                    # for "../x/y.h", under src/ for "x/y.h"
                    guess = os.path.normpath(os.path.join(root if name.startswith(".") else src, name))
                    d = layer_of(guess)
                    if d and os.path.isdir(os.path.join(src, d)):
                        target = guess
                if target is None:
                    continue   # a system or library header
                dep = layer_of(target)
                if dep is None or dep in allowed.get(layer, "").split():
                    continue
                print("layer violation: %s:%d includes %s (%s may include: %s)" % (
                    os.path.relpath(path, src), n, os.path.relpath(target, src), layer,
                    allowed.get(layer) or "nothing"))
                bad = 1
# every folder under src/ must have a rule (cmd/ may include anything)
for d in sorted(os.listdir(src)):
    if os.path.isdir(os.path.join(src, d)) and d != "cmd" and d not in allowed:
        print("layer check: no rule for src/%s/" % d)
        bad = 1
if not bad:
    print("layers: ok")
sys.exit(bad)
PY
