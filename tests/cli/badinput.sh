# SPDX-License-Identifier: MIT
# Bad command lines, from the table tests/cli/badinput.tsv (its head says
# how to read it): each one must exit as the table says (2 for a usage
# error), with exactly one line on stderr matching the row's pattern,
# nothing on stdout, and nothing created, changed or removed in its scratch
# directory (its working directory and the test directory it names), in
# the shared fixtures, or under HOME and XDG_DATA_HOME.
#
# Rows run in parallel, each in a directory of its own, under a timeout:
# a command that wrongly starts work is cut short and reported.
# BADINPUT_ONLY=REGEX runs only the rows whose text matches (debugging).
. "$SM_SOURCE_DIR/tests/lib.sh"
TABLE=${BADINPUT_TABLE:-$SM_SOURCE_DIR/tests/cli/badinput.tsv}
JOBS=${BADINPUT_JOBS:-4}
S=$STORMARK
BIN=$T_DIR/bin
mkdir -p "$BIN"
# the three program names, as links to the binary under test
for n in stormark frametest sysbench; do ln -s "$S" "$BIN/$n"; done

# Shared fixtures (read only by the rows; checked unchanged at the end):
# FX/ok.json a saved result; FX/*.json bad ones; RO a read-only mount.
FX=$T_DIR/fx
mkdir -p "$FX"
"$S" time --quiet --json="$FX/ok.json" true >/dev/null 2>&1 || fail "time --json for the report fixture"
printf 'not json\n' >"$FX/text.json"
: >"$FX/empty.json"
head -c 40 "$FX/ok.json" >"$FX/cut.json"
printf '{}\n' >"$FX/obj.json"
printf '[1,2,3]\n' >"$FX/array.json"
sed 's/"schema_version": *[0-9]*/"schema_version": 999/' "$FX/ok.json" >"$FX/newer.json"
{ cat "$FX/ok.json"; printf '{}\n'; } >"$FX/trail.json"
sed 's/"wall_ns":\([[:space:]]*\)\([0-9]\)/"wall_ns":\1-\2/' "$FX/ok.json" >"$FX/neg.json"
grep -q '"wall_ns":[[:space:]]*-' "$FX/neg.json" || fail "neg.json: no wall_ns to make negative"
mkdir -p "$FX/adir"
RO=$T_DIR/ro
mkdir -p "$RO"
HAVE_RO=0
if mount --bind -o ro "$RO" "$RO" 2>/dev/null; then
  HAVE_RO=1
  trap 'umount "$RO" 2>/dev/null; t_cleanup' EXIT
fi
BLK=$(lsblk -dpno NAME 2>/dev/null | head -1)
[ -b "$BLK" ] || BLK=""
LONG=$T_DIR/$(printf 'x%.0s' $(seq 1 200))
LONG=$LONG/$(printf 'y%.0s' $(seq 1 200))
while [ ${#LONG} -lt 4200 ]; do LONG=$LONG/$(printf 'z%.0s' $(seq 1 200)); done
LONGNAME=$(printf 'n%.0s' $(seq 1 300))
snap_fixtures() { find "$FX" "$RO" -printf '%p %s %T@ %y\n' | sort; }
FX_BEFORE=$(snap_fixtures)

# run_row LINENO PROG RC PATTERN ARGS...: one row in $T_DIR/rNNN; writes
# "ok" or the reasons it failed into $T_DIR/rNNN.res
run_row() {
  local ln=$1 prog=$2 rc=$3 pat=$4; shift 4
  local dir=$T_DIR/r$ln a args=() why="" got before after lines
  mkdir -p "$dir/d" && echo keep >"$dir/f"
  for a in "$@"; do
    case $a in @E@) a="" ;; esac
    a=${a//@D@/$dir/d}; a=${a//@F@/$dir/f}; a=${a//@FX@/$FX}; a=${a//@RO@/$RO}
    a=${a//@BLK@/$BLK}; a=${a//@LONG@/$LONG}; a=${a//@LONGNAME@/$LONGNAME}
    a=${a//@NL@/$'\n'}; a=${a//@TAB@/$'\t'}; a=${a//@HERE@/$dir}
    args+=("$a")
  done
  before=$(find "$dir" -printf '%P %s %T@ %y\n')
  (cd "$dir" && HOME=$dir/home XDG_DATA_HOME=$dir/xdg \
     timeout -k 2 20 "$BIN/$prog" "${args[@]}" </dev/null >"$dir.out" 2>"$dir.err")
  got=$?
  after=$(find "$dir" -printf '%P %s %T@ %y\n')
  # AddressSanitizer's note on time's clone()d child (make test-asan) is
  # the sanitizer's, not stormark's: those three lines are left out
  if grep -q '^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return' "$dir.err"; then
    grep -v -e '^==[0-9]*==WARNING: ASan is ignoring requested __asan_handle_no_return' \
      -e '^False positive error reports may follow$' \
      -e '^For details see https://github.com/google/sanitizers/issues/189$' "$dir.err" >"$dir.err2"
    mv "$dir.err2" "$dir.err"
  fi
  mapfile -t err <"$dir.err"
  lines=${#err[@]}
  [ "$got" = "$rc" ] || why="$why exit $got (wanted $rc);"
  # one line, ended by a newline
  if [ "$lines" != 1 ] || [ -n "$(tail -c1 "$dir.err")" ]; then
    why="$why $lines stderr line(s);"
  elif ! [[ ${err[0]} =~ $pat ]]; then
    why="$why stderr does not match /$pat/;"
  fi
  [ -s "$dir.out" ] && why="$why $(wc -l <"$dir.out") line(s) on stdout;"
  [ "$before" = "$after" ] || why="$why the directory changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -3 | tr '\n' ' ');"
  if [ -z "$why" ]; then echo ok >"$dir.res"
  else
    { echo "line $ln: $prog ${args[*]:0:12}"; echo "  $why"; head -3 "$dir.err" | cut -c1-200 | sed 's/^/  | /'; } >"$dir.res"
  fi
  rm -rf "$dir"
}

# The table: RC <tab> PATTERN <tab> PROG <tab> ARG <tab> ARG ...
# (blank lines and lines starting with '#' are comments)
ln=0 n=0 skipped=0 running=0
while IFS=$'\t' read -r -a f; do
  ln=$((ln + 1))
  [ ${#f[@]} -eq 0 ] && continue
  case ${f[0]} in '#'*) continue ;; esac
  if [ -n "${BADINPUT_ONLY:-}" ] && ! printf '%s\n' "${f[*]}" | grep -Eq -- "$BADINPUT_ONLY"; then continue; fi
  case "${f[*]}" in
    *@RO@*) [ "$HAVE_RO" = 1 ] || { skipped=$((skipped + 1)); continue; } ;;
    *@BLK@*) [ -n "$BLK" ] || { skipped=$((skipped + 1)); continue; } ;;
  esac
  if [ ${#f[@]} -lt 3 ]; then fail "table line $ln: fewer than 3 fields"; continue; fi
  n=$((n + 1))
  run_row "$ln" "${f[2]}" "${f[0]}" "${f[1]}" "${f[@]:3}" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done <"$TABLE"
wait

# Standard input is /dev/null in every row; two more: a device on stdin is
# refused before it is read, and a pipe without end is refused at the size
# limit, not read for ever.
zero_in() {
  local d=$1 pat=$2; shift 2
  "$@" >"$T_DIR/z.out" 2>"$T_DIR/z.err"
  local zrc=$?
  if [ "$zrc" = 2 ] && [ "$(wc -l <"$T_DIR/z.err")" = 1 ] && [ ! -s "$T_DIR/z.out" ] &&
     grep -q -- "$pat" "$T_DIR/z.err"; then ok
  else fail "$d: exit $zrc"; head -3 "$T_DIR/z.err" >&2; fi
}
zero_in "report - </dev/zero" "'standard input' is a character device" timeout 60 "$S" report - </dev/zero
zero_in "a pipe of zeros into report -" "over 256 MiB" timeout 60 bash -c 'cat /dev/zero | "$1" report -' _ "$S"

bad=0
for r in "$T_DIR"/r*.res; do
  [ -e "$r" ] || continue
  if [ "$(cat "$r")" = ok ]; then ok; else bad=$((bad + 1)); fail "$(cat "$r")"; fi
done
[ "$(ls "$T_DIR"/r*.res 2>/dev/null | wc -l)" = "$n" ] || fail "only $(ls "$T_DIR"/r*.res | wc -l) of $n rows reported"
[ "$(snap_fixtures)" = "$FX_BEFORE" ] && ok || fail "the shared fixtures changed"
echo "bad input: $n command lines tried, $((n - bad)) passed, $bad failed, $skipped skipped (no read-only mount or block device here)"
[ -n "${BADINPUT_ONLY:-}" ] || [ "$n" -ge 300 ] || fail "the table has $n rows here, fewer than 300"
finish
