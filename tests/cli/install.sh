#!/bin/bash
# SPDX-License-Identifier: MIT
# make install (cmake --install, which `make install PREFIX=DIR` runs) puts
# the binary, its frametest link, the sysbench link off the PATH
# (libexec/stormark/bin), the man pages, the bash completion and
# the documents (docs/*.md, the schemas, the README) under the prefix given
# at install time, and nothing outside it.
. "$SM_SOURCE_DIR/tests/lib.sh"
P=$T_DIR/prefix
cmake --install "$SM_BUILD_DIR" --prefix "$P" >"$T_DIR/log" 2>&1
check "cmake --install --prefix: exit 0" test $? = 0
check "binary" test -x "$P/bin/stormark"
check "frametest link to it" test "$(readlink "$P/bin/frametest")" = stormark
check "the installed binary runs" sh -c "'$P/bin/stormark' --version | grep -q '^stormark [0-9.]* (features: '"
check "frametest name runs" sh -c "'$P/bin/frametest' --list-options | grep -qx -- '-w size'"
# the sysbench name: off the PATH (bin/sysbench would hide the real one),
# in libexec/stormark/bin for a script's PATH (README.md)
check "no sysbench in bin/" test ! -e "$P/bin/sysbench"
check "the sysbench link in libexec/stormark/bin" test -L "$P/libexec/stormark/bin/sysbench"
check "sysbench name runs stormark's fileio" sh -c \
  "PATH='$P/libexec/stormark/bin':\$PATH sysbench --version | grep -q '^sysbench 1.0.20 (stormark '"
if "$STORMARK" --version | head -1 | grep -q ' mpi[ )]'; then
  # the MPI module where the installed binary looks for it, and found there
  check "the MPI module installed" test -f "$P/libexec/stormark/stormark-mpi.so"
  check "the installed binary loads it" sh -c "'$P/bin/stormark' --version | grep -E '^  mpi ' | grep -vq 'cannot be loaded'"
fi
check "man page" cmp -s "$P/share/man/man1/stormark.1" "$SM_SOURCE_DIR/docs/stormark.1"
check "frametest man page points to it" grep -qx '.so man1/stormark.1' "$P/share/man/man1/frametest.1"
C=$P/share/bash-completion/completions
check "completion for stormark" cmp -s "$C/stormark" "$SM_SOURCE_DIR/scripts/stormark.bash-completion"
check "completion for frametest" cmp -s "$C/frametest" "$SM_SOURCE_DIR/scripts/stormark.bash-completion"
# the documents: every docs/*.md and schema, and the README beside them;
# every docs/NAME pointer of the man page is an installed file
D=$P/share/doc/stormark
check "README installed" cmp -s "$D/README.md" "$SM_SOURCE_DIR/README.md"
n=0
for f in "$SM_SOURCE_DIR"/docs/*.md "$SM_SOURCE_DIR"/docs/*.schema.json; do
  check "docs/${f##*/} installed" cmp -s "$f" "$D/docs/${f##*/}"
  n=$((n + 1))
done
check "documents found ($n)" test "$n" -ge 20
ptrs=$(grep -oE 'docs/[A-Za-z0-9_.-]+\.(md|json)' "$SM_SOURCE_DIR/docs/stormark.1" | sort -u)
check "the man page points into docs/" test -n "$ptrs"
for d in $ptrs; do check "the man page's $d is installed" test -f "$D/$d"; done
for d in $(grep -oE '\(docs/[A-Za-z0-9_.-]+\.md' "$SM_SOURCE_DIR/README.md" | tr -d '(' | sort -u); do
  check "the README's link $d works where it is installed" test -f "$D/$d"
done
# every file installed is under the prefix (the frametest link was made
# under the prefix configured, /usr/local, whatever --prefix said)
check "nothing installed outside the prefix" sh -c "! grep -E '^-- (Installing|Up-to-date): ' '$T_DIR/log' | grep -v ' $P/'"
if command -v man >/dev/null; then
  check "man renders the installed page" sh -c "MANPATH='$P/share/man' man -P cat stormark 2>/dev/null | grep -q 'FRAMES OPTIONS'"
fi
finish
