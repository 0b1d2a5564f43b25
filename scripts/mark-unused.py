#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Marks unused parameters with SM_UNUSED (core/compiler.h).

mark-unused.py [--casts] LOG... : reads the compiler's "unused parameter"
warnings (FILE:LINE:COL: warning: unused parameter 'x', gcc's and clang's)
from each LOG and writes SM_UNUSED before each parameter's declaration.
With --casts it also looks at every `(void)x;` statement in the files named
after --files: where x is a parameter of the enclosing function and the body
names it nowhere else, the cast goes and the parameter is marked. A file that
gets a marker includes "core/compiler.h". Prints what it did and the casts it
left (a parameter named elsewhere in the body, or no parameter)."""
import os, re, sys

warn = re.compile(r"^(\S+?):(\d+):(\d+): (?:warning|error): unused parameter [\'\u2018]([A-Za-z_]\w*)[\'\u2019]")
ident = re.compile(r"[A-Za-z_]\w*")


def blank_code(text):
    """The text with comments, strings, char literals and preprocessor lines
    turned into spaces (newlines kept), so offsets stay the same."""
    out = list(text)
    i, n = 0, len(text)
    bol = True
    while i < n:
        c = text[i]
        if bol and c == "#" or (bol and c in " \t" and text[i:].lstrip(" \t").startswith("#")):
            j = i
            while j < n:
                if text[j] == "\n" and text[j - 1] != "\\":
                    break
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        bol = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            if c == "\n":
                bol = True
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def param_start(code, pos):
    """Offset of the first character of the parameter declaration whose
    name is at pos: after the unmatched '(' or the ',' at depth 0."""
    depth = 0
    i = pos - 1
    while i >= 0:
        c = code[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i -= 1
    i += 1
    while code[i].isspace():
        i += 1
    return i


def functions(code):
    """(params, body_start, body_end) of each function definition: params is
    a list of (name, offset)."""
    res = []
    depth = 0
    for m in re.finditer(r"[{}]", code):
        if m.group() == "{":
            if depth == 0:
                j = m.start() - 1
                while j >= 0 and code[j].isspace():
                    j -= 1
                if j >= 0 and code[j] == ")":
                    # the matching '('
                    d = 0
                    k = j
                    while k >= 0:
                        if code[k] == ")":
                            d += 1
                        elif code[k] == "(":
                            d -= 1
                            if d == 0:
                                break
                        k -= 1
                    plist = (k + 1, j)
                    start_body = m.start()
                else:
                    plist = None
            depth += 1
        else:
            depth -= 1
            if depth == 0 and plist:
                res.append((params_of(code, *plist), start_body, m.end()))
                plist = None
    return res


def params_of(code, a, b):
    out = []
    d = 0
    seg = a
    for i in range(a, b + 1):
        c = code[i] if i < b else ","
        if c in "([":
            d += 1
        elif c in ")]":
            d -= 1
        elif c == "," and d == 0:
            text = code[seg:i]
            m = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)", text)
            if m:
                out.append((m.group(1), seg + m.start(1)))
            else:
                t = text.split("[")[0]
                ids = list(ident.finditer(t))
                if ids and ids[-1].group() != "void":
                    out.append((ids[-1].group(), seg + ids[-1].start()))
            seg = i + 1
    return out


def line_offsets(text):
    offs = [0]
    for m in re.finditer("\n", text):
        offs.append(m.end())
    return offs


def add_include(text, path):
    """#include "core/compiler.h" among the file's project includes: with
    the other core/ headers where there are some, else at the end of the
    last group (never before the first include, the file's own header)."""
    if re.search(r'^#include "core/compiler\.h"', text, re.M):
        return text
    lines = text.split("\n")
    inc = [i for i, l in enumerate(lines) if l.startswith("#include")]
    new = '#include "core/compiler.h"'
    quoted = [i for i in inc[1:] if re.match(r'#include "[a-z]+/', lines[i])]
    if quoted:
        last = quoted[-1]
        first = last
        while first - 1 in quoted:
            first -= 1
        core = [i for i in range(first, last + 1) if lines[i].startswith('#include "core/')]
        at = last + 1
        if core:
            at = core[-1] + 1
            for i in core:
                if lines[i] > new:
                    at = i
                    break
        lines.insert(at, new)
    else:
        at = inc[-1] + 1 if inc else 0
        lines[at:at] = ["", new]
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    casts = "--casts" in args
    args = [a for a in args if a != "--casts"]
    files = []
    if "--files" in args:
        k = args.index("--files")
        files = args[k + 1:]
        args = args[:k]
    sites = {}   # path -> {offset of the name: name}
    for log in args:
        for l in open(log, errors="replace"):
            m = warn.match(l)
            if not m:
                continue
            path = os.path.realpath(m.group(1))
            sites.setdefault(path, set()).add((int(m.group(2)), int(m.group(3)), m.group(4)))
    todo = {}
    for path, ss in sites.items():
        text = open(path).read()
        offs = line_offsets(text)
        for ln, col, name in ss:
            o = offs[ln - 1] + col - 1
            if text[o:o + len(name)] != name:
                # gcc counts display columns: a tab to the next multiple of 8
                disp = 1
                for o in range(offs[ln - 1], len(text)):
                    if disp == col or text[o] == "\n":
                        break
                    disp = (disp - 1) // 8 * 8 + 9 if text[o] == "\t" else disp + 1
            if text[o:o + len(name)] != name:
                sys.exit("%s:%d:%d: '%s' is not there" % (path, ln, col, name))
            todo.setdefault(path, {"marks": set(), "cuts": []})["marks"].add(o)
    left = []
    if casts:
        cast = re.compile(r"\(void\)\s*([A-Za-z_]\w*)\s*;")
        for f in files:
            path = os.path.realpath(f)
            text = open(path).read()
            code = blank_code(text)
            for params, a, b in functions(code):
                pnames = dict(params)
                for m in cast.finditer(code, a, b):
                    x = m.group(1)
                    ln = code.count("\n", 0, m.start()) + 1
                    if x not in pnames:
                        left.append("%s:%d: (void)%s; not a parameter" % (f, ln, x))
                        continue
                    uses = [u for u in re.finditer(r"\b%s\b" % re.escape(x), code[a:b])
                            if not (a + u.start() >= m.start() and a + u.end() <= m.end())]
                    if uses:
                        left.append("%s:%d: (void)%s; the parameter is named elsewhere in its body" % (f, ln, x))
                        continue
                    t = todo.setdefault(path, {"marks": set(), "cuts": []})
                    t["marks"].add(pnames[x])
                    t["cuts"].append((m.start(), m.end()))
    nmarks = 0
    for path, t in sorted(todo.items()):
        text = open(path).read()
        code = blank_code(text)
        edits = []   # (offset, end, replacement)
        for o in t["marks"]:
            s = param_start(code, o)
            if code.startswith("SM_UNUSED", s):
                continue
            edits.append((s, s, "SM_UNUSED "))
        bylines = {}
        for a, b in t["cuts"]:
            ls = text.rfind("\n", 0, a) + 1
            bylines.setdefault(ls, []).append((a, b))
        for ls, cuts in bylines.items():
            le = text.find("\n", ls)
            line = text[ls:le]
            for a, b in sorted(cuts, reverse=True):
                while b < le and text[b] in " \t":
                    b += 1
                line = line[:a - ls] + line[b - ls:]
            if line.strip():
                edits.append((ls, le, line.rstrip()))
                continue
            # the line goes, and a blank line after it where the one before
            # is the body's '{' or blank
            end = le + 1
            prev = text[text.rfind("\n", 0, ls - 1) + 1:ls - 1]
            if text.startswith("\n", end) and (prev == "{" or prev.strip() == ""):
                end += 1
            edits.append((ls, end, ""))
        for a, b, r in sorted(edits, reverse=True):
            text = text[:a] + r + text[b:]
        nmarks += sum(1 for e in edits if e[2] == "SM_UNUSED ")
        text = add_include(text, path)
        open(path, "w").write(text)
        print("%s: %d marked, %d casts removed" % (os.path.relpath(path), sum(1 for e in edits if e[2] == "SM_UNUSED "), len(t["cuts"])))
    print("marked:", nmarks)
    for l in left:
        print("left:", l)


main()
