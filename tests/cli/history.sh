#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of `stormark time --save` and `stormark history`: round
# trip in a temporary database, the default XDG path, comparisons, and a
# corrupt or locked database (clear error, earlier runs never lost).
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
DB=$T_DIR/h.db

expect_rc 0 "save key a" $S time -n 3 --save a --db "$DB" -o /dev/null -- true
expect_rc 0 "save key b" $S time -n 2 --save b --db "$DB" -o /dev/null -- \
  dd if=/dev/zero of=b.dat bs=1M count=2 oflag=direct status=none
$S history --db "$DB" >list.txt
check "list shows a with 3 runs" grep -Eq '^a +3 ' list.txt
check "list shows b with 2 runs" grep -Eq '^b +2 ' list.txt
check "list mentions trimmed means" grep -q "trimmed means" list.txt
$S history --db "$DB" a >a.txt
check "key a: 3 run rows" [ "$(grep -Ec '^ +[0-9]+ +[0-9]{4}-' a.txt)" = 3 ]
check "key a: command shown" grep -q "of: true" a.txt
$S history --db "$DB" a b >cmp.txt
check "compare: wall time line" grep -Eq '^wall time ' cmp.txt
check "compare: storage writes of b are 2 MiB" grep -Eq '^storage bytes written .* 2\.00 MiB' cmp.txt
check "compare: logical bytes written line" grep -Eq '^bytes written \(logical\)' cmp.txt
expect_rc 1 "unknown key" $S history --db "$DB" nosuchkey
check "unknown key named" grep -q "no runs saved under key 'nosuchkey'" "$T_DIR/out"
expect_usage "three keys" $S history --db "$DB" a b c
expect_usage "unknown option" $S history --bogus
expect_usage "empty key" $S time --save "" -- true

# default location under XDG_DATA_HOME
XDG_DATA_HOME=$T_DIR/xdg $S time --save x -o /dev/null -- true
check "default database under XDG_DATA_HOME" [ -s "$T_DIR/xdg/stormark/history.db" ]
check "default database listed" sh -c "XDG_DATA_HOME=$T_DIR/xdg $S history | grep -Eq '^x +1 '"
expect_rc 0 "no database yet is not an error for a listing" env XDG_DATA_HOME=$T_DIR/none $S history
check "says no runs yet" grep -q "no runs saved yet" "$T_DIR/out"
check "listing created nothing" [ ! -e "$T_DIR/none" ]

# a corrupt database: clear error, file untouched, command not run
head -c 8192 /dev/urandom >bad.db
sum0=$(md5sum <bad.db)
: >ran.log
expect_rc 1 "corrupt database refused" $S time --save k --db bad.db -- sh -c "echo x >> $T_DIR/ran.log"
check "message names the file and the problem" grep -q "cannot use history database 'bad.db': .*not a database" "$T_DIR/out"
check "error is one line" [ "$(wc -l <"$T_DIR/out")" = 1 ]
check "corrupt file left as it was" [ "$(md5sum <bad.db)" = "$sum0" ]
check "command not run against a bad database" [ ! -s ran.log ]
expect_rc 1 "history of a corrupt database" $S history --db bad.db

# a locked database: clear error after the busy timeout, earlier runs kept
if command -v python3 >/dev/null; then
  python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN EXCLUSIVE'); open(sys.argv[2], 'w').close(); time.sleep(6)" "$DB" locked.flag &
lp=$!
for _ in $(seq 50); do [ -e locked.flag ] && break; sleep 0.1; done
expect_rc 1 "locked database" $S time --save a --db "$DB" -o /dev/null -- true
check "lock named in the message" grep -q "locked" "$T_DIR/out"
wait $lp
$S history --db "$DB" >list2.txt
check "earlier runs survive the lock" grep -Eq '^a +3 ' list2.txt
else
  echo "note: python3 missing, lock test not run"
fi

# the output flags: -o FILE; layouts it does not have are refused
expect_rc 0 "history -o FILE" $S history --db "$DB" -o list3.txt
check "history -o writes the table" grep -Eq '^a +3 ' list3.txt
expect_usage "history --json refused" $S history --db "$DB" --json
$S history --help >hhelp.txt
check "history --help says --json is refused, as it is" grep -Eq -- '--json.*refused' hhelp.txt
check "history --help does not offer JSON output" sh -c "! grep -q 'write the result as JSON' hhelp.txt"
expect_usage "history --format csv refused" $S history --db "$DB" --format csv

finish
