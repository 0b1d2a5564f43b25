#!/bin/bash
# SPDX-License-Identifier: MIT
# The man page covers every command and every option of every command's
# table (stormark --list-options CMD prints them from the tables), its
# generated option lists are current (scripts/man-options.py), and groff
# reads it without a warning.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
MAN=$SM_SOURCE_DIR/docs/stormark.1
FIX="run: python3 scripts/man-options.py BUILD/stormark docs/stormark.1, then read the diff"
# a name as roff writes it: every - as \-
roff() { sed 's/-/\\-/g' <<<"$1"; }
for c in $("$S" --list-commands); do
  [ "$c" = help ] && continue
  check "command $c has its entry" grep -q "^\.B $c\$" "$MAN"
  n=0
  for o in $("$S" --list-options "$c" | grep -oE -- '^--[a-z0-9-]+'); do
    if grep -qF -- "$(roff "$o")" "$MAN"; then ok; else fail "$c $o is not in docs/stormark.1 ($FIX)"; fi
    n=$((n + 1))
  done
  check "$c: options listed" test "$n" -ge 4
done
for o in $("$S" --list-options frametest | grep -oE -- '^-[a-zA-Z0-9]'); do
  if grep -qF -- "\\fB$(roff "$o")\\fR" "$MAN"; then ok; else fail "frametest $o is not in docs/stormark.1 ($FIX)"; fi
done
cp "$MAN" "$T_DIR/page.1"
python3 "$SM_SOURCE_DIR/scripts/man-options.py" "$S" "$T_DIR/page.1"
if cmp -s "$MAN" "$T_DIR/page.1"; then ok
else fail "the option lists of docs/stormark.1 are not those of the tables ($FIX)"
  diff "$MAN" "$T_DIR/page.1" | head -10 >&2; fi
if command -v groff >/dev/null; then
  groff -man -ww -z "$MAN" >"$T_DIR/groff" 2>&1
  check "groff: no warning" test ! -s "$T_DIR/groff"
  head -5 "$T_DIR/groff" >&2
fi
finish
