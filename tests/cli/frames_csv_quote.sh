# SPDX-License-Identifier: MIT
# frames -x: a field holding a comma, a double quote or a line break is
# quoted as RFC 4180 says, so every row keeps its 14 columns and a CSV
# reader gets the path back as it is.
. "$SM_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the CSV"
D="$T_DIR/a,b\"c"
mkdir -p "$D"
expect_rc 0 "frames -w with -x into a directory named with , and \"" "$STORMARK" frames -w 4 -n 3 -x "$T_DIR/log.csv" "$D"
check "every row has 14 columns" python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
sys.exit(0 if len(rows) == 4 and all(len(r) == 14 for r in rows) else 1)" "$T_DIR/log.csv"
check "the path read back as it is" python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
sys.exit(0 if rows[1][3] == sys.argv[2] + '/frame000000.tst' else 1)" "$T_DIR/log.csv" "$D"
check "the quoted field as written" grep -qF ",\"$T_DIR/a,b\"\"c/frame000001.tst\"," "$T_DIR/log.csv"
finish
