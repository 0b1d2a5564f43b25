#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --save (time, frames, fileio run, run) and `stormark
# history`: round trip in a temporary database, the default XDG path,
# per-command tables, the JSON export, the migration of a schema 1
# database (tests/golden/history/schema1.sql), comparisons, and a corrupt,
# truncated or locked database (clear error, earlier runs never lost).
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
jcheck() { local d=$1; shift; check "$d" sh -c 'jq -e "$@" >/dev/null' jq "$@"; }
cd "$T_DIR" || exit 1
DB=$T_DIR/h.db

expect_rc 0 "save key a" $S time -n 3 --save a --db "$DB" -o /dev/null -- true
expect_rc 0 "save key b" $S time -n 2 --save b --db "$DB" -o /dev/null -- \
  dd if=/dev/zero of=b.dat bs=1M count=2 oflag=direct status=none
$S history --db "$DB" >list.txt
check "list shows a with 3 runs" grep -Eq '^a +time +3 ' list.txt
check "list shows b with 2 runs" grep -Eq '^b +time +2 ' list.txt
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
check "default database listed" sh -c "XDG_DATA_HOME=$T_DIR/xdg $S history | grep -Eq '^x +time +1 '"
expect_rc 0 "no database yet is not an error for a listing" env XDG_DATA_HOME=$T_DIR/none $S history
check "says no runs yet" grep -q "no runs saved yet" "$T_DIR/out"
check "listing created nothing" [ ! -e "$T_DIR/none" ]

# a corrupt database: clear error, file untouched, command not run
head -c 8192 /dev/urandom >bad.db
sum0=$(md5sum <bad.db)
sum0bad=$sum0
: >ran.log
expect_rc 1 "corrupt database refused" $S time --save k --db bad.db -- sh -c "echo x >> $T_DIR/ran.log"
check "message names the file and the problem" grep -q "cannot use history database 'bad.db': .*not a database" "$T_DIR/out"
check "error is one line" [ "$(wc -l <"$T_DIR/out")" = 1 ]
check "corrupt file left as it was" [ "$(md5sum <bad.db)" = "$sum0" ]
check "command not run against a bad database" [ ! -s ran.log ]
expect_rc 1 "history of a corrupt database" $S history --db bad.db

# the output flags: -o FILE, --json; layouts it does not have are refused
expect_rc 0 "history -o FILE" $S history --db "$DB" -o list3.txt
check "history -o writes the table" grep -Eq '^a +time +3 ' list3.txt
expect_usage "history --format timeit refused" $S history --db "$DB" --format timeit
$S history --db "$DB" --json >keys.json
jcheck "--json: the keys" '.schema_version == 1 and ([.keys[] | select(.key == "a" and
  .command == "time" and .runs == 3)] | length) == 1' keys.json
$S history --db "$DB" --json a >a.json
jcheck "--json KEY: time rows with figures, and the whole result" '.command == "time" and
  (.runs | length) == 3 and (.runs[0].figures.wall_ns > 0) and (.results | length) == 1 and
  .results[0].result.command == "time" and (.results[0].result.time.runs | length) == 3' a.json
expect_rc 0 "--json=FILE besides the text" $S history --db "$DB" --json=k2.json -o list4.txt
check "--json=FILE and the text" sh -c "jq -e '.keys | length == 2' k2.json >/dev/null && grep -q '^a ' list4.txt"
expect_rc 0 "--json with no database yet" $S history --db "$T_DIR/none.db" --json
jcheck "--json: no keys" '.keys == []' "$T_DIR/out"
check "--json with no database created nothing" [ ! -e "$T_DIR/none.db" ]

# --save on frames, fileio run and run: the whole result, one table per command
mkdir -p fr fio rd fr2 fr3 fr4 fr5
for i in 1 2 3; do
  $S frames -w 4 -n 6 -t 1 --save fw --db "$DB" --quiet fr >/dev/null 2>&1 || fail "frames --save $i"
done
expect_rc 0 "frametest name --save" "$SM_BUILD_DIR/frametest" -w4 -n6 -t1 --save ft --db "$DB" fr
$S fileio --file-num=1 --file-total-size=1M --file-dir=fio prepare >/dev/null 2>&1
expect_rc 0 "fileio run --save" $S fileio --file-num=1 --file-total-size=1M --file-dir=fio \
  --file-test-mode=rndrw --time=1 --save fio --db "$DB" run
expect_rc 0 "run --save" $S run rd --engine null --time 1 --classic-only --quiet --save rn \
  --db "$DB" -o /dev/null
$S history --db "$DB" >list5.txt
check "list: frames key" grep -Eq '^fw +frames +3 .*/s, .*/s' list5.txt
check "list: frametest's save is a frames key" grep -Eq '^ft +frames +1 ' list5.txt
check "list: fileio key" grep -Eq '^fio +fileio +1 .*, [0-9.]+ IOPS$' list5.txt
check "list: no '/s IOPS'" sh -c "! grep -q '/s IOPS' list5.txt"
check "list: run key" grep -Eq '^rn +run +1 ' list5.txt
check "list: time keys unchanged" grep -Eq '^a +time +3 ' list5.txt
$S history --db "$DB" fw >fw.txt
# (the text fits 80 columns: six figures in two tables of three)
check "frames table: heading" sh -c "grep -Eq 'saved +frame rate +throughput +dropped\$' fw.txt &&
  grep -Eq '^ +run +frame p50 +frame p99 +frame max\$' fw.txt"
check "frames table: 3 rows" [ "$(grep -Ec '^ +[0-9]+ +[0-9]{4}-[0-9-]+T.*/s' fw.txt)" = 3 ]
$S history --db "$DB" fio >fio.txt
check "fileio table" sh -c "grep -Eq 'saved +throughput +IOPS +reads/s\$' fio.txt &&
  grep -Eq '^ +run +writes/s +event p95 +event p99\$' fio.txt"
$S history --db "$DB" rn >rn.txt
check "run table: the summary" grep -q 'summary' rn.txt
check "run table: the title counts results ('1 run run' before)" grep -q "key 'rn', 1 run result\$" rn.txt
# markdown and csv: the same tables
$S history --db "$DB" --format csv >list.csv
check "csv: the header, units in it" grep -qx 'key,command,runs,last saved,frame rate (frames/s),throughput (MiB/s),IOPS (/s),wall trimmed mean (s),dir' list.csv
$S history --db "$T_DIR/none-yet.db" --format csv >none.csv
check "csv with no database yet: the same header, no row" cmp -s none.csv <(head -1 list.csv)
check "csv: a row per key" [ "$(($(wc -l <list.csv) - 1))" = "$($S history --db "$DB" --json | jq '.keys | length')" ]
check "csv: the frames key, its rates as numbers" grep -Eq '^fw,frames,3,[0-9]{4}-[^,]+,[0-9]+(\.[0-9]+)?,[0-9]+(\.[0-9]+)?,,,$' list.csv
check "csv: the fileio key, MiB/s and IOPS as numbers" grep -Eq '^fio,fileio,1,[^,]+,,[0-9.]+,[0-9.]+,,$' list.csv
# IOPS are the reads and writes per second: the run's fsyncs (rndrw's
# periodic ones) are events, not I/O operations
$S history --db "$DB" --json fio | jq '.results[0].result.fileio' >fio-fig.json
check "fileio: the saved run has fsyncs" jq -e '.fsyncs_per_s > 0' fio-fig.json >/dev/null
iops=$(jq '.reads_per_s + .writes_per_s' fio-fig.json | awk '{ printf "%.3f", $1 }')
# (as numbers: the CSV drops a decimal's trailing zeros, 12345.6 for 12345.600)
same_num() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }'; }
check "csv: the fileio key's IOPS are reads + writes per second" \
  same_num "$(grep '^fio,fileio,' list.csv | cut -d, -f7)" "$iops"
$S history --db "$DB" fio --format csv >fio.csv
check "csv: the fileio table's IOPS are reads + writes per second" same_num "$(sed -n 2p fio.csv | cut -d, -f4)" "$iops"
check "list: the fileio headline's IOPS are reads + writes per second" \
  grep -Eq "^fio +fileio +1 .*, $(awk -v v="$iops" 'BEGIN { printf "%.1f", v }') IOPS\$" list5.txt
check "csv: a time key's trimmed mean wall time in seconds" grep -Eq '^a,time,3,[^,]+,,,,[0-9]+\.[0-9]+,$' list.csv
check "csv: a run key's directory" grep -Eq '^rn,run,1,[^,]+,,,,,.*/rd$' list.csv
$S history --db "$DB" --format markdown >list.md
check "markdown: the title" grep -q '^## history: ' list.md
check "markdown: the frames key" grep -Eq '^\| fw \| frames \| 3 \| ' list.md
check "markdown: the note" grep -q '^(trimmed means' list.md
$S history --db "$DB" --format csv fw >fw.csv
check "csv KEY: 3 runs" [ "$(grep -Ec '^[0-9]+,[0-9]{4}-[0-9-]+T[^,]*,[0-9.]+,' fw.csv)" = 3 ]
$S history --db "$DB" --format markdown a >a.md
check "markdown time KEY: the trimmed mean row" grep -Eq '^\|  \| trimmed mean \|  \| ' a.md
$S history --db "$DB" --format markdown a b >ab.md
check "markdown compare: header" grep -qx '| figure | a | b | change |' ab.md
$S history --db "$DB" --format csv a b >ab.csv
check "csv compare: the unit column" grep -qx 'figure,unit,a,b,change (%)' ab.csv
check "csv compare: the wall time row in seconds, the change in %" grep -Eq '^wall time,s,[0-9.]+,[0-9.]+,-?[0-9.]+$' ab.csv
$S history --db "$DB" --json fw >fw.json
jcheck "--json: every frames result whole" '(.results | length) == 3 and
  all(.results[]; .result.command == "frames" and .result.params.frames == 6 and
  (.result.ops.frame.lat_ns.p99 > 0))' fw.json
jcheck "a key's JSON is what --json writes" '.results[0].result | has("environment") and
  has("series") and has("warnings")' fw.json
# every figure cell of every csv table is a plain number (or empty: not
# measured), the unit in its column's header; throughput is the JSON's
# bytes per second in MiB/s, a frame time its ns in ms
for k in fw fio a rn; do $S history --db "$DB" --format csv $k >"k-$k.csv"; done
check "csv: numbers, not text with units ('755 MiB/s')" "$PY" - list.csv k-fw.csv k-fio.csv k-a.csv <<'EOF'
import csv, re, sys
num = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
text = {"key", "command", "last saved", "saved", "dir", "summary", "note", "figure", "unit"}
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    assert len(rows) > 1, path
    for row in rows[1:]:
        for head, cell in zip(rows[0], row):
            if head in text or (head == "run" and cell == ""):
                continue
            assert cell == "" or num.match(cell), (path, head, cell)
        if path != "list.csv" and row[1] != "trimmed mean":
            assert any(num.match(c) for c in row[2:]), (path, row)
EOF
check "csv KEY: throughput in MiB/s, frame p99 in ms, from the JSON" "$PY" - k-fw.csv fw.json <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
res = json.load(open(sys.argv[2]))["results"]
assert len(rows) == len(res) == 3
for row, r in zip(rows, res):
    want = r["result"]["totals"]["bytes_per_s"] / 1048576
    assert abs(float(row["throughput (MiB/s)"]) - want) <= 0.0005 + want * 1e-9, (row, want)
    want = r["result"]["ops"]["frame"]["lat_ns"]["p99"] / 1e6
    assert abs(float(row["frame p99 (ms)"]) - want) <= 1e-6, (row, want)
EOF
expect_rc 2 "a key holds one command: frames under a time key" $S frames -w 4 -n 2 --save a \
  --db "$DB" fr2
check "refused in one line naming both commands" grep -Eq "holds time runs.*not frames" "$T_DIR/out"
check "refused before the test: nothing written" [ -z "$(ls -A fr2)" ]
expect_rc 2 "time under a frames key" $S time --save fw --db "$DB" -- true
expect_usage "history compares time keys only" $S history --db "$DB" fw a

# a schema 1 database (main before --save on every command): read as it
# is, then migrated by the first save, its runs kept
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()" \
  v1.db "$SM_SOURCE_DIR/tests/golden/history/schema1.sql" || fail "load the schema 1 fixture"
sum0=$(md5sum <v1.db)
$S history --db v1.db >v1.txt
check "schema 1: keys listed" sh -c "grep -Eq '^old-a +time +3 ' v1.txt && grep -Eq '^old-b +time +1 ' v1.txt"
$S history --db v1.db old-a >v1a.txt
check "schema 1: runs shown" [ "$(grep -Ec '^ +[0-9]+ +2026-' v1a.txt)" = 3 ]
check "schema 1: reading changes nothing" [ "$(md5sum <v1.db)" = "$sum0" ]
expect_rc 0 "schema 1: a frames save migrates" $S frames -w 4 -n 2 --save new --db v1.db --quiet fr
check "migrated to schema 2" [ "$(python3 -c "import sqlite3; print(sqlite3.connect('v1.db').execute('PRAGMA user_version').fetchone()[0])")" = 2 ]
$S history --db v1.db old-a >v1b.txt
check "migrated: the old runs and figures are all there" cmp -s v1a.txt v1b.txt
$S history --db v1.db >v1l.txt
check "migrated: old and new keys" sh -c "grep -Eq '^old-b +time +1 ' v1l.txt && grep -Eq '^new +frames +1 ' v1l.txt"
expect_rc 0 "migrated: time saves too" $S time --save old-a --db v1.db -o /dev/null -- true
check "migrated: the key grows" sh -c "$S history --db v1.db | grep -Eq '^old-a +time +4 '"

# a truncated database: refused in one line, by every command, left as it was
cp "$DB" cut.db
truncate -s 8192 cut.db
sum1=$(md5sum <cut.db)
expect_rc 1 "truncated: history" $S history --db cut.db fw
check "truncated: one line naming the file" sh -c "[ \$(wc -l <'$T_DIR/out') = 1 ] && grep -q \"'cut.db'\" '$T_DIR/out'"
expect_rc 1 "truncated: frames --save refused before the test" $S frames -w 4 -n 2 --save fw \
  --db cut.db fr3
check "truncated: no frames written" [ -z "$(ls -A fr3)" ]
check "truncated: file untouched" [ "$(md5sum <cut.db)" = "$sum1" ]
# garbage: refused by frames, fileio, run and compare, never rewritten
expect_rc 1 "garbage: frames --save" $S frames -w 4 -n 2 --save k --db bad.db fr4
check "garbage: frames names the problem" grep -q "cannot use history database 'bad.db': .*not a database" "$T_DIR/out"
check "garbage: no frames written" [ -z "$(ls -A fr4)" ]
expect_rc 1 "garbage: run --save" $S run rd --engine null --time 1 --classic-only --quiet --save k --db bad.db
expect_rc 1 "garbage: compare a key" $S compare --db bad.db k1 k2
check "garbage file left as it was" [ "$(md5sum <bad.db)" = "$sum0bad" ]

# a locked database: time, frames and history wait for the busy timeout
# (3 s, all at once here), then say so in one line; earlier runs survive
if command -v python3 >/dev/null; then
  rm -f locked.flag
  python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN EXCLUSIVE'); open(sys.argv[2], 'w').close(); time.sleep(6)" "$DB" locked.flag &
  lp=$!
  for _ in $(seq 50); do [ -e locked.flag ] && break; sleep 0.1; done
  ($S time --save a --db "$DB" -o /dev/null -- true 2>lk1.err; echo $? >lk1.rc) &
  ($S frames -w 4 -n 2 --save fw --db "$DB" fr5 >/dev/null 2>lk2.err; echo $? >lk2.rc) &
  $S history --db "$DB" --json fw >lk3.out 2>lk3.err; echo $? >lk3.rc
  wait $lp
  wait
  check "locked: time --save exit 1" [ "$(cat lk1.rc)" = 1 ]
  check "locked: time names the lock" grep -q "locked" lk1.err
  check "locked: frames --save exit 1" [ "$(cat lk2.rc)" = 1 ]
  check "locked: frames names the lock in one line" sh -c "grep -q locked lk2.err && [ \$(wc -l <lk2.err) = 1 ]"
  check "locked: no frames written" [ -z "$(ls -A fr5)" ]
  check "locked: history --json exit 1, nothing on stdout" sh -c "[ \$(cat lk3.rc) = 1 ] && [ ! -s lk3.out ]"
  $S history --db "$DB" >list6.txt
  check "locked: earlier time runs survive" grep -Eq '^a +time +3 ' list6.txt
  check "locked: earlier frames runs survive" grep -Eq '^fw +frames +3 ' list6.txt
else
  echo "note: python3 missing, lock test not run"
fi

# a saved result that cannot be read is not exported as null: exit 1, the run named
if [ -x /usr/bin/python3 ]; then
  $S time --quiet --save broken --db unread.db true >/dev/null 2>&1
  $S time --quiet --save broken --db unread.db true >/dev/null 2>&1
  /usr/bin/python3 -c "
import sqlite3
c = sqlite3.connect('unread.db')
c.execute(\"UPDATE results SET json = '{\\\"schema_version\\\": 1, broken' WHERE id = (SELECT MAX(id) FROM results)\")
c.commit()"
  expect_rc 1 "--json KEY with an unreadable result" $S history --db unread.db --json broken
  check "the unreadable run is named" grep -q "the result of run 2 of key 'broken'" "$T_DIR/out"
  check "one line" [ "$(wc -l <"$T_DIR/out")" = 1 ]
fi

finish
