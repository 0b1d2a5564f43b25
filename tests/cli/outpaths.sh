# SPDX-License-Identifier: MIT
# Output paths (--json FILE, -x FILE, -o/--output FILE, --db) are checked
# before any work starts: a bad one is exit 2, one line on stderr, nothing
# run and nothing created. A write error on stdout or a report file is
# exit 1 with a message, never exit 0 with the report lost.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

W="$T_DIR/work"            # where the commands would put test files
mkdir -p "$W" "$T_DIR/adir"
echo keep >"$T_DIR/afile"
RO="$T_DIR/ro"
mkdir -p "$RO"
HAVE_RO=0
if mount --bind -o ro "$RO" "$RO" 2>/dev/null; then
  HAVE_RO=1
  trap 'umount "$RO" 2>/dev/null; t_cleanup' EXIT
else
  echo "note: no read-only bind mount here; that path kind is left out"
fi
"$S" time --quiet --json="$T_DIR/t.json" true >/dev/null 2>&1 || fail "time --json for report input"

# the bad path kinds: under a missing directory, a directory, a file used
# as a directory, under a read-only mount
BAD=("$T_DIR/missing/out" "$T_DIR/adir" "$T_DIR/afile/out")
[ "$HAVE_RO" = 1 ] && BAD+=("$RO/out")

# nothing_left DESC: nothing was created anywhere we look
nothing_left() {
  local n
  n=$(find "$W" "$T_DIR/adir" "$RO" -mindepth 1 | wc -l)
  if [ "$n" = 0 ] && [ ! -e "$T_DIR/missing" ] && [ "$(cat "$T_DIR/afile")" = keep ]; then ok
  else fail "$1: left something behind"; find "$W" "$T_DIR/adir" "$RO" -mindepth 1 >&2; fi
  # start the next case clean, so one leftover is reported once
  rm -rf "${W:?}"/* "$T_DIR/adir"/* "$T_DIR/missing"; echo keep >"$T_DIR/afile"
}

# refused DESC CMD...: exit 2, one stderr line, nothing created
refused() {
  local d=$1; shift
  expect_usage "$d" "$@"
  nothing_left "$d"
}

FIO="--file-total-size=1M --file-num=2 --file-dir=$W"
for b in "${BAD[@]}"; do
  refused "frames --json=$b" "$S" frames -w 4 -n 2 --json="$b" "$W"
  refused "frames -x $b" "$S" frames -w 4 -n 2 -x "$b" "$W"
  refused "frames --output $b" "$S" frames -w 4 -n 2 --output "$b" "$W"
  refused "fileio run --json=$b" "$S" fileio $FIO --file-test-mode=seqwr --time=1 --json="$b" run
  refused "fileio run -o $b" "$S" fileio $FIO --file-test-mode=seqwr --time=1 -o "$b" run
  refused "time --json=$b" "$S" time --json="$b" touch "$W/ran"
  refused "time -o $b" "$S" time -o "$b" touch "$W/ran"
  refused "time --db $b" "$S" time --db "$b" --save k touch "$W/ran"
  refused "run -o $b" "$S" run "$W" --engine null --time 1 --quiet --no-confirm -o "$b"
  refused "run --json=$b" "$S" run "$W" --engine null --time 1 --quiet --no-confirm --json="$b"
  refused "history -o $b" "$S" history --db "$T_DIR/h.db" -o "$b"
  refused "report -o $b" "$S" report "$T_DIR/t.json" -o "$b"
  refused "report --json=$b" "$S" report "$T_DIR/t.json" --json="$b"
done
# history only reads --db: a read-only one is fine, the other kinds are not
for b in "$T_DIR/missing/h.db" "$T_DIR/adir" "$T_DIR/afile/h.db"; do
  refused "history --db $b" "$S" history --db "$b"
done
refused "time --db ''" "$S" time --db '' --save k touch "$W/ran"
refused "history --db ''" "$S" history --db ''

# write errors: exit 1 and one message, not exit 0 with the report lost
# lost_report DESC CMD...: CMD's stdout goes to /dev/full
lost_report() {
  local d=$1; shift
  "$@" >/dev/full 2>"$T_DIR/full.err"; local got=$?
  if [ "$got" = 1 ] && grep -q "cannot write" "$T_DIR/full.err"; then ok
  else fail "$d: exit $got"; head -5 "$T_DIR/full.err" >&2; fi
}
lost_report "time >/dev/full" "$S" time --quiet true
lost_report "time --format json >/dev/full" "$S" time --quiet --format json true
lost_report "fileio run >/dev/full" "$S" fileio --file-total-size=1M --file-num=2 --file-dir="$W" \
  --file-test-mode=seqwr --time=1 run
lost_report "frames >/dev/full" "$S" frames -w 4 -n 2 "$W"
lost_report "run >/dev/full" "$S" run "$W" --engine null --time 1 --quiet --no-confirm
lost_report "history >/dev/full" "$S" history --db "$T_DIR/h.db"
lost_report "report >/dev/full" "$S" report "$T_DIR/t.json"
rm -rf "${W:?}"/*
# a report file on a character device such as /dev/full is refused up
# front (tests/cli/outkinds.sh writes report files on a full file system)
refused "time --json=/dev/full" "$S" time --quiet --json=/dev/full touch "$W/ran"
refused "frames -x /dev/full" "$S" frames -w 4 -n 2 -x /dev/full "$W"
refused "frames --json=/dev/full" "$S" frames -w 4 -n 2 --json=/dev/full "$W"
refused "fileio run --json=/dev/full" "$S" fileio --file-total-size=1M --file-num=2 --file-dir="$W" \
  --file-test-mode=seqwr --time=1 --json=/dev/full run

finish
