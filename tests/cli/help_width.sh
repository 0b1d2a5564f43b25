#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every help stormark prints fits an 80-column terminal (no line over 79
# characters), as do streams' text report and its --list (at the end),
# and each option's description is wrapped once, by the one
# wrapper of src/core/opt.c: its continuation lines hang under its first
# at the description's column, and no line of it ends where the next
# line's first word would still have fitted (a line broken by hand in the
# table, then again by the wrapper, does: "(default 1800; a read test" /
# "without -n: ..." with room left after "test").
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# help NAME CMD...: CMD's help (stdout) into NAME.help, exit 0 wanted
help() {
  local name=$1; shift
  "$@" >"$name.help" 2>"$name.err"; local rc=$?
  check "$name: exit 0 (got $rc)" test "$rc" = 0
  check "$name: some help printed" test -s "$name.help"
}

help stormark "$S" --help
for c in $("$S" --list-commands | grep -vx help); do
  help "$c" "$S" "$c" --help
  help "help-$c" "$S" help "$c"
done
help frametest "$SM_BUILD_DIR/frametest" --help
help sysbench "$SM_BUILD_DIR/sysbench" --help
help sysbench-fileio "$SM_BUILD_DIR/sysbench" fileio help
help fileio-help "$S" fileio help

# the checker: one line per problem on stdout, nothing when all is well
cat >check.py <<'EOF'
import re, sys, unicodedata

WIDTH = 79
def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)

def indent(s):
    return len(s) - len(s.lstrip(" "))

# the first line of an option's entry: "  -n, --runs N", "      --quiet", "  -w size"
ENTRY = re.compile(r"^(  -[^ -]|      --[a-z0-9])")

def check(name, text):
    bad = []
    lines = text.split("\n")
    for n, l in enumerate(lines, 1):
        if width(l) > WIDTH:
            bad.append("%s:%d: %d columns: %s" % (name, n, width(l), l))
    i = 0
    while i < len(lines):
        if not ENTRY.match(lines[i]):
            i += 1
            continue
        first = lines[i]
        # the description's column: the continuation lines' indentation, or
        # where the text after a gap of two blanks begins on a lone line
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt.strip() and not ENTRY.match(nxt) and indent(nxt) >= 8:
            col = indent(nxt)
        else:
            m = re.match(r"^(.*?\S)( {2,})(\S)", first[2:])
            i += 1
            if not m:
                bad.append("%s: no description after the option: %s" % (name, first))
            continue
        if len(first) > col and first[col - 1] == " " and first[col] != " ":
            desc = [first]              # the description starts on the option's line
        else:
            desc = []                   # the option alone, its description below
        j = i + 1
        while j < len(lines) and lines[j].strip() and not ENTRY.match(lines[j]) \
              and indent(lines[j]) >= col:
            if indent(lines[j]) != col:
                bad.append("%s:%d: not under the description's column %d: %s"
                           % (name, j + 1, col, lines[j]))
            desc.append(lines[j])
            j += 1
        for a, b in zip(desc, desc[1:]):
            word = b.split()[0]
            if width(a) + 1 + width(word) <= WIDTH:
                bad.append("%s: line broken before '%s', which fits after it (%d + 1 + %d"
                           " columns): %r / %r" % (name, word, width(a), width(word),
                                                  a.strip(), b.strip()))
        i = j
    return bad

problems = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        problems += check(path[:-5], f.read())
for p in problems:
    print(p)
EOF

"$PY" check.py ./*.help >problems.txt 2>&1
check "every help: no line over 79 columns, each description wrapped once" test ! -s problems.txt
sed 's/^/  | /' problems.txt | head -40 >&2

# the checker catches what it is for (it must not pass everything)
printf '%s\n' "Options:" \
  "  -n, --frames num   number of frames to read or write (default 1800; a read test" \
  "                     without -n: every frame present)" \
  "  -a, --async num    asynchronous I/O, 'num' frames in flight" \
  "                     per thread (default: synchronous)" >twice.help
"$PY" check.py twice.help >twice.out 2>&1
check "the checker: a line broken before a word that fitted is found" \
  grep -q "broken before 'per'" twice.out
check "the checker: a wrapped line that is full is not" sh -c "! grep -q \"before 'without'\" twice.out"
printf '%s\n' "  -x       $(printf 'word %.0s' $(seq 1 16))" >wide.help
"$PY" check.py wide.help >wide.out 2>&1
check "the checker: a line over 79 columns is found" grep -q "columns:" wide.out

# ---- the reports that fit 80 columns too (issue 30 item 8): streams'
# text report (every saved streams result of tests/golden) and its --list
fits() { awk 'length($0) > 79 { print FILENAME ": " length($0) ": " $0; bad = 1 } END { exit bad }' "$1"; }
"$S" streams --list >list.txt
check "streams --list: no line over 79 columns" fits list.txt
for j in "$SM_SOURCE_DIR"/tests/golden/streams/*.json; do
  n=$(basename "$j" .json)
  "$S" report "$j" --format text >"streams-$n.txt" 2>/dev/null
  check "streams report $n: no line over 79 columns" fits "streams-$n.txt"
done
finish
