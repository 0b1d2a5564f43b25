# SPDX-License-Identifier: MIT
# The `sysbench` name against real sysbench 1.0.20 on bad and borderline
# command lines (tests/golden/sysbench-1.0.20/errors.cases, recorded by
# record.sh there): the same stdout, stderr and exit code. The banner line
# differs by design (it names stormark); lines of a run report are compared
# by shape (numbers replaced), as their figures are measured. stormark's
# own notices (stderr lines starting "stormark: warning: " or "stormark:
# note: ", docs/fileio.md, "Under the name sysbench") are set aside before comparing, and counted.
. "$SM_SOURCE_DIR/tests/lib.sh"
G="$SM_SOURCE_DIR/tests/golden/sysbench-1.0.20"
SB="$SM_BUILD_DIR/sysbench"
if [ ! -x "$SB" ]; then ln -s "$STORMARK" "$T_DIR/sysbench"; SB="$T_DIR/sysbench"; fi
banner() { sed -E 's/^sysbench 1\.0\.20 \(.*\)$/BANNER/'; }
shape() { banner | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +N/ N/g'; }
tried=0 notices=0
while IFS='|' read -r name setup args; do
  name=$(echo $name); setup=$(echo $setup)
  case $name in '#'*|'') continue ;; esac
  tried=$((tried + 1))
  rm -rf "$T_DIR/d"; mkdir "$T_DIR/d"
  [ "$setup" = prep ] && (cd "$T_DIR/d" && "$SB" fileio --file-total-size=8M --file-num=4 prepare >/dev/null 2>&1)
  # shellcheck disable=SC2086 # the arguments are split on spaces
  (cd "$T_DIR/d" && exec timeout 60 "$SB" $args) >"$T_DIR/out" 2>"$T_DIR/err" </dev/null
  rc=$?
  check "$name: exit $(cat "$G/errors/$name.rc") (got $rc)" test "$rc" = "$(cat "$G/errors/$name.rc")"
  if grep -Eq 'Threads started!|bytes written in' "$G/errors/$name.out"; then
    check "$name: stdout (shape)" diff <(shape <"$G/errors/$name.out") <(shape <"$T_DIR/out")
  else
    check "$name: stdout" diff <(banner <"$G/errors/$name.out") <(banner <"$T_DIR/out")
  fi
  case $args in *--verbosity=[01]*)
    check "$name: no stormark warning below --verbosity=2" test "$(grep -c '^stormark: warning: ' "$T_DIR/err")" = 0 ;;
  esac
  notices=$((notices + $(grep -Ec '^stormark: (warning|note): ' "$T_DIR/err")))
  check "$name: stderr" diff "$G/errors/$name.err" <(grep -Ev '^stormark: (warning|note): ' "$T_DIR/err")
done <"$G/errors.cases"
echo "$tried command lines compared with sysbench 1.0.20 ($notices stormark notice line(s) set aside)"
check "the table has cases" test "$tried" -ge 70
finish
