#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a file reaches a layer above its own (docs/architecture.md).
# Data flows up from core; a layer may use only those listed for it here:
#
#   core -> engine, result -> analysis -> check, workload, report, store
#        -> mpi, args -> cmd (which may use anything)
#
# (workload uses engine, result and analysis; report result and analysis;
# store result; mpi workload and report; args all but mpi and check.)
#
# Includes: every spelling counts: "report/x.h", <report/x.h>,
# "../report/x.h", a header of the same folder ("x.h"), and files in
# subfolders (src/report/a/b.c is in report). An include is resolved as the
# compiler finds it in this project: beside the including file first, then
# under src/ (-Isrc).
#
# Symbols, with BUILD (a build tree): `nm` on each object built from a
# file of src/ (BUILD/CMakeFiles/*.dir/src/...), so a call or a use of data
# through a prototype written by hand, without the header, is caught too:
# each undefined symbol of an object is looked up among the others' defined
# ones, and the layer defining it must be one the object's layer may use.
# The files of a folder listed in `acyclic` (check/) must not call each
# other in a circle. The objects of a folder listed in `no_io` (the pure
# layers: analysis/, check/, report/) must not open, write, rename or
# remove a file (a renderer writes to the stream it is given, or to memory).
#
# The platform layer, os/ (docs/platforms.md), is below core/ and every
# layer may use it. What it has taken over stays there: outside os/, no file
# includes a Linux header or spells O_DIRECT, and (with BUILD) no object
# calls a Linux-only function that os/ has a function for, but for the
# files listed below as not yet moved (each list may only shrink). The
# plain-POSIX implementation (os/posix/) takes the build's _GNU_SOURCE
# back before its first include and includes no Linux header.
#
# Engines are chosen by what they can do (sm_engine_choose and its need):
# outside engine/, an engine's name in quotes (one of the `.name = "..."`
# of engine/'s tables) compared with a string about an engine, or looked up
# (sm_engine_find("uring")), fails.
#
# usage: check-layers.sh [SRC [BUILD]]
set -u
src="${1:-$(dirname "$0")/../src}"
exec python3 - "$src" "${2:-}" <<'PY'
import os, re, sys

src = os.path.realpath(sys.argv[1])
allowed = {
    "os": "os",     # the platform layer: below everything, uses nothing
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
# every layer but the launcher may use os/
for k in allowed:
    if k not in ("os", "launch"):
        allowed[k] = "os " + allowed[k]
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
# ---- the platform layer: what it has taken over stays in os/ ----
# Linux headers (and liburing's), by name
linux_hdr = re.compile(r'^\s*#\s*include\s*<(linux/[^>]+|liburing\.h|sys/(statfs|vfs|sysinfo|prctl|'
                       r'sysmacros|syscall|personality|signalfd|eventfd|timerfd|epoll|fsuid|'
                       r'sendfile|xattr|inotify|mount)\.h)>')
# not yet moved into os/: file -> the Linux headers it still includes
hdr_not_moved = {
    "core/fsx.c": "sys/sysmacros.h",
    "core/perfsys.c": "linux/perf_event.h sys/mount.h sys/syscall.h",
    "core/proctree.c": "sys/syscall.h sys/prctl.h",
    "core/proctree_launch.c": "sys/syscall.h",
    "core/seal.c": "sys/xattr.h",
    "engine/uring.c": "liburing.h sys/syscall.h",
    "engine/uring_poll.c": "liburing.h sys/sysmacros.h",
    "workload/time.c": "sys/sysmacros.h",
}
# Linux's open flags that os/ spells for each platform
linux_flags = {"O_DIRECT": ["engine/uring_poll.c"]}
# Linux-only (or moved) calls os/ has a function for: symbol -> the
# objects that still call it (not yet moved). 32-bit builds call the
# ...64 names.
linux_calls = {
    "statfs": [], "statfs64": [], "fstatfs": [], "fstatfs64": [],
    "fdatasync": ["engine/psync.c", "engine/uring_poll.c"],
    "clock_nanosleep": ["core/perfsys.c"],
    "fallocate": ["engine/mmap.c"], "fallocate64": ["engine/mmap.c"],
    "sched_getaffinity": [], "sysinfo": [], "get_nprocs": [],
}
def code_only(text):
    """text without its comments, string and character literals"""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
for root, dirs, files in os.walk(src):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(root, f)
        layer = layer_of(path)
        rel = os.path.relpath(path, src)
        if layer in (None, "os", "launch"):
            if layer == "os" and rel.startswith("os" + os.sep + "posix" + os.sep) and f.endswith(".c"):
                with open(path, errors="replace") as fh:
                    text = fh.read()
                head = text[:text.find("#include")] if "#include" in text else text
                if "#undef _GNU_SOURCE" not in head or "#define _POSIX_C_SOURCE 200809L" not in head:
                    print("platform layer: %s must #undef _GNU_SOURCE and #define _POSIX_C_SOURCE "
                          "200809L before its first include (plain POSIX)" % rel)
                    bad = 1
                for n, line in enumerate(text.splitlines(), 1):
                    m = linux_hdr.match(line)
                    if m:
                        print("platform layer: %s:%d includes <%s>, a Linux header, in the POSIX "
                              "implementation" % (rel, n, m.group(1)))
                        bad = 1
            continue
        with open(path, errors="replace") as fh:
            text = fh.read()
        for n, line in enumerate(text.splitlines(), 1):
            m = linux_hdr.match(line)
            if m and m.group(1) not in hdr_not_moved.get(rel, "").split():
                print("platform layer: %s:%d includes <%s>, a Linux header, outside os/ "
                      "(docs/platforms.md)" % (rel, n, m.group(1)))
                bad = 1
        for n, line in enumerate(code_only(text).splitlines(), 1):
            for flag, users in sorted(linux_flags.items()):
                if re.search(r'\b%s\b' % flag, line) and rel not in users:
                    print("platform layer: %s:%d uses %s outside os/: ask os/os.h "
                          "(sm_os_direct_oflag, sm_os_direct_fd)" % (rel, n, flag))
                    bad = 1

# ---- symbols: what each built object uses, and where that is defined ----
# files whose objects call one another only downward, never in a circle
acyclic = ["check"]
# folders whose objects do no file I/O, and the calls that would be some
no_io = ["analysis", "check", "report"]
io_calls = set("""open open64 openat openat64 creat creat64 fopen fopen64 fdopen
    freopen write pwrite pwrite64 writev pwritev read pread pread64 readv
    rename renameat renameat2 unlink unlinkat remove mkdir mkdirat rmdir
    ftruncate truncate fcntl fsync fdatasync
    sm_outfile_open sm_outfile_close sm_write_all""".split())
build = sys.argv[2] if len(sys.argv) > 2 else ""
if build:
    import subprocess
    objs = {}          # source path relative to src/ -> its object
    top = os.path.join(build, "CMakeFiles")
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".c.o"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, top).split(os.sep)
            # CMakeFiles/<target>.dir/src/<folder>/.../<file>.c.o
            if len(rel) < 4 or not rel[0].endswith(".dir") or rel[1] != "src":
                continue
            rel_src = os.path.join(*rel[2:])[:-2]
            # an object whose source is gone (renamed, deleted) is stale
            if os.path.isfile(os.path.join(src, rel_src)) and rel_src not in objs:
                objs[rel_src] = path
    if not objs:
        print("layer check: no object built from src/ under %s" % build)
        bad = 1
    defs, undef = {}, {}
    where = {path: rel_src for rel_src, path in objs.items()}
    paths = sorted(where)
    out = subprocess.run(["nm", "-A"] + paths, capture_output=True, text=True)
    if out.returncode:
        print("layer check: nm failed: %s" % out.stderr.strip())
        bad = 1
    for rel_src in objs:
        undef[rel_src] = set()
    for line in out.stdout.splitlines():
        # "OBJECT.c.o:[VALUE] TYPE SYMBOL"
        cut = line.find(".c.o:")
        path, rest = line[:cut + 4], line[cut + 5:]
        f = rest.split()
        rel_src = where.get(path)
        if rel_src is None:
            continue
        if len(f) == 2 and f[0] == "U":
            undef[rel_src].add(f[1])
        elif len(f) == 3 and f[1] in "TDBRCGSVW":
            defs.setdefault(f[2], rel_src)
    calls = {}         # (user, definer) -> the first symbol
    for user in sorted(undef):
        for sym in sorted(undef[user]):
            owner = defs.get(sym)
            if owner is not None and owner != user:
                calls.setdefault((user, owner), sym)
    for (user, owner), sym in sorted(calls.items()):
        layer = user.split(os.sep, 1)[0] if os.sep in user else None
        dep = owner.split(os.sep, 1)[0] if os.sep in owner else None
        if layer is None or layer == "cmd" or dep is None or \
                dep in allowed.get(layer, "").split():
            continue
        print("layer violation: %s uses %s of %s (%s may use: %s)" % (
            user, sym, owner, layer, allowed.get(layer) or "nothing"))
        bad = 1
    for user in sorted(undef):
        layer = user.split(os.sep, 1)[0] if os.sep in user else None
        if layer in no_io:
            for sym in sorted(undef[user] & io_calls):
                print("layer violation: %s does file I/O: it calls %s (%s/ does none)" % (
                    user, sym, layer))
                bad = 1
    for user in sorted(undef):
        if user.startswith("os" + os.sep):
            continue
        for sym in sorted(undef[user] & set(linux_calls)):
            if user not in linux_calls[sym]:
                print("platform layer: %s calls %s outside os/: use os/os.h (docs/platforms.md)" % (
                    user, sym))
                bad = 1
    for folder in acyclic:
        edges = {}
        for (user, owner) in calls:
            if user.startswith(folder + os.sep) and owner.startswith(folder + os.sep):
                edges.setdefault(user, set()).add(owner)
        # a circle is a path back to where it began (depth-first, colours)
        state, stack = {}, []
        def visit(v):
            state[v] = 1
            stack.append(v)
            for w in sorted(edges.get(v, ())):
                if state.get(w) == 1:
                    return stack[stack.index(w):] + [w]
                if not state.get(w):
                    found = visit(w)
                    if found:
                        return found
            stack.pop()
            state[v] = 2
            return None
        for v in sorted(edges):
            if not state.get(v):
                circle = visit(v)
                if circle:
                    print("layer violation: a circle of calls in %s/: %s (%s uses %s)" % (
                        folder, " -> ".join(circle), circle[-2], calls[(circle[-2], circle[-1])]))
                    bad = 1
                    break

# engines are chosen by what they can do (engine/engine.h, sm_engine_need):
# outside engine/, an engine's name in quotes is never compared with a
# string nor looked up (the names are those of the `.name = "..."` of
# engine/'s ops tables)
names = set()
edir = os.path.join(src, "engine")
if os.path.isdir(edir):
    for f in sorted(os.listdir(edir)):
        if f.endswith(".c"):
            with open(os.path.join(edir, f), errors="replace") as fh:
                names |= set(re.findall(r'\.name\s*=\s*"([^"]+)"', fh.read()))
if names:
    alt = "|".join(re.escape(n) for n in sorted(names))
    # strcmp(x, "uring"), strcmp("uring", x), with x about an engine; a
    # lookup or an open by a literal name
    cmp_re = re.compile(r'\bstr(?:n|case|ncase)?cmp\s*\(([^;]*)"(%s)"' % alt)
    find_re = re.compile(r'\bsm_engine_(?:find|open|caps_of)\s*\([^;]*"(%s)"' % alt)
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            if not f.endswith((".c", ".h")) or layer_of(path) == "engine":
                continue
            with open(path, errors="replace") as fh:
                lines = fh.readlines()
                for n, text in enumerate(lines, 1):
                    m = cmp_re.search(text)
                    hit = None
                    # about an engine: said on the line or the 3 before it
                    near = "".join(lines[max(0, n - 4):n])
                    if m and re.search(r'engine|\beng\b', near):
                        hit = m.group(2)
                    m = find_re.search(text)
                    if m:
                        hit = m.group(1)
                    if hit:
                        print("engine by name: %s:%d compares or looks up the engine name "
                              "\"%s\" (choose by capability: sm_engine_choose)"
                              % (os.path.relpath(path, src), n, hit))
                        bad = 1

# every folder under src/ must have a rule (cmd/ may include anything)
for d in sorted(os.listdir(src)):
    if os.path.isdir(os.path.join(src, d)) and d != "cmd" and d not in allowed:
        print("layer check: no rule for src/%s/" % d)
        bad = 1
if not bad:
    print("layers: ok" + (" (includes and symbols)" if build else " (includes)"))
sys.exit(bad)
PY
