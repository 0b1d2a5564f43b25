#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The progress line (docs/options.md): on a terminal, run, streams and time
# keep stderr alive - the longest silence on the terminal is at most 2 s,
# through run's 5 s sustained write of --time 20 and every streams step -
# each redraw fits the terminal's 80 columns (the label shortened, the
# figures and times whole) and the line is wiped before
# the report; with stderr a file or a pipe, or with --quiet, no progress
# byte is written. The terminal is a pseudo-terminal of 80x24 made by
# tests/pty_silence.py, which notes when each byte arrives. (frametest's
# and sysbench's layouts are held byte for byte by the golden tests.)
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
PTY=("$PY" "$SM_SOURCE_DIR/tests/pty_silence.py")
cd "$T_DIR" || exit 1
"$PY" -c 'import os; os.close(os.openpty()[0])' 2>/dev/null || skip "no pseudo-terminal here"

# silence NAME: the longest silence pty_silence.py printed into NAME.pty
silence() { awk '$1 == "silence" { print $2 }' "$1.pty"; }
# lines NAME: the terminal's log NAME.log cut into the redraws (and lines)
# it is made of, one a line, the escape sequences of a redraw taken out
lines() { "$PY" -c 'import re, sys
for l in re.split(r"\r\x1b\[K|\r\n|\n|\r", open(sys.argv[1], "rb").read().decode()):
    print(l)' "$1.log"; }
# on_tty NAME [--all] CMD...: CMD with stderr (--all: every stream) on the
# terminal; its rc must be 0 and its silences at most 2 s
on_tty() {
  local name=$1; shift
  local all=()
  [ "$1" = --all ] && { all=(--all); shift; }
  "${PTY[@]}" "${all[@]}" "$name.log" "$name.out" "$@" >"$name.pty"
  check "$name: exit 0 ($(cat "$name.pty" | tr '\n' ' '))" grep -qx "rc 0" "$name.pty"
  check "$name: the longest silence on the terminal $(silence "$name") s, at most 2" \
    awk -v s="$(silence "$name")" 'BEGIN { exit !(s != "" && s <= 2) }'
  check "$name: a progress line drawn" grep -q "^\[ *[0-9]" <(lines "$name")
  check "$name: every redraw fits 80 columns" \
    awk '/^\[ *[0-9]+(\/[0-9]+)? s\]/ && length($0) > 79 { bad = 1 } END { exit bad }' <(lines "$name")
}

mkdir d
# run: 20 s in all, the 2K sustained write a quarter of it
on_tty run "$S" run --time 20 d
check "run: the line names the sustained write and the time left" \
  grep -q "sustained write: [0-9]* s in, [0-9]* s left" <(lines run)
check "run: the sustained write shows its rate and frames so far" \
  grep -q "sustained write: [0-9]* MiB/s, [0-9]* frames, [0-9]* s in" <(lines run)
check "run: the line counts on during the sustained write" \
  test "$(lines run | grep -c "sustained write: .* s in")" -ge 4
check "run: the terminal ends wiped" "$PY" -c 'import sys
sys.exit(not open("run.log", "rb").read().endswith(b"\r\x1b[K"))'
check "run: the report on stdout, no progress in it" grep -q "Verdicts\|verdict" run.out
check "run: no escape byte on stdout" bash -c '! grep -q $'"'"'\e'"'"' run.out'

# streams: each step of 3 s counts
on_tty streams "$S" streams --rate-mib 8 --step 3 --time 9 --max-streams 2 --capture d
check "streams: a step's streams and length are named" \
  grep -q "1 stream, a 3 s step: " <(lines streams)
# once a second the step's rate and drops so far; at 80 columns the label
# is shortened ("..."), the figures and the times stay whole
check "streams: a step shows its rate and drops so far, and the time left" \
  grep -Eq ": [0-9]+ MiB/s, [0-9]+ dropped, [0-9]+ s in, [0-9]+ s left$" <(lines streams)
check "streams: a label too long for the line is shortened, not the times" \
  grep -Eq "^\[ *[0-9]+/[0-9]+ s\] .*[^ :,]\.\.\.: [0-9]+ MiB/s" <(lines streams)
check "streams: no redraw ends in a cut word ('s lef')" \
  awk '/^\[ *[0-9]+(\/[0-9]+)? s\]/ && !/ s (in|left)$/ { bad = 1 } END { exit bad }' <(lines streams)

# time -n 5 -- sleep 1, every stream on the terminal as a person has it
on_tty time --all "$S" time -n 5 -- sleep 1
check "time: run 5 of 5 shown" grep -q "run 5 of 5: [0-9] s in" <(lines time)
check "time: the report follows" grep -q "5 runs" time.log
on_tty warm --all "$S" time -n 1 --warmup 1 -- sleep 0.1
check "time: a warm-up run is named" grep -q "warm-up run 1 of 1" <(lines warm)

# --quiet on a terminal: nothing on stderr
"${PTY[@]}" q.log q.out "$S" time -n 3 --quiet -- sleep 0.5 >q.pty
check "time --quiet: no byte on the terminal" grep -qx "bytes 0" q.pty
check "time --quiet: the report on stdout" grep -q "3 runs" q.out

# stderr a file or a pipe: no progress byte (these runs warn of nothing)
"$S" run --time 5 d >r.out 2>r.err
check "run, stderr a file: exit 0" test $? = 0
check "run, stderr a file: empty ($(head -c 200 r.err))" test ! -s r.err
"$S" streams --rate-mib 8 --step 2 --time 4 --max-streams 2 --capture d 2>&1 >s.out | cat >s.err
check "streams, stderr a pipe: empty ($(head -c 200 s.err))" test ! -s s.err
"$S" time -n 3 -- sleep 0.5 2>&1 >t.out | cat >t.err
check "time, stderr a pipe: empty ($(head -c 200 t.err))" test ! -s t.err
check "time: the report on stdout" grep -q "3 runs" t.out

finish
