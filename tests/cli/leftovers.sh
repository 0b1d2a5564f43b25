# SPDX-License-Identifier: MIT
# What a command leaves behind when it stored nothing or was stopped
# (docs/history.md, docs/options.md): no empty history database (nor its
# directories) for a --save whose command never produced a result; no
# temporary report file after a signal; and the test directory a killed
# streams run could not remove is named by the next run, not removed.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# ---- --save with nothing to save creates no database
expect_rc 127 "time of a missing command" "$S" time --save k --db a.db -o /dev/null -- ./no-such-command
check "time of a missing command: no database" test ! -e a.db
expect_rc 1 "time whose --prepare fails" "$S" time --save k --db b.db --prepare false -o /dev/null -- true
check "a failed --prepare: no database" test ! -e b.db
expect_rc 1 "fileio run of files never prepared" "$S" fileio --save k --db c.db --file-total-size=1M \
  --file-num=2 --file-test-mode=seqrd --time=1 run
check "fileio run refused: no database" test ! -e c.db
XDG_DATA_HOME=$T_DIR/xdg expect_rc 127 "the default history, a missing command" \
  "$S" time --save k -o /dev/null -- ./no-such-command
check "the default history: neither database nor directory" test ! -e xdg
# a save still creates it, and its directories
XDG_DATA_HOME=$T_DIR/xdg expect_rc 0 "the default history, a run" "$S" time --save k -o /dev/null -- true
check "the default history is created by the save" test -s xdg/stormark/history.db
expect_rc 0 "a save to a new --db" "$S" time --save k --db d.db -o /dev/null -- true
"$S" history --db d.db >h.txt 2>&1
check "the new database holds the run" grep -Eq "^k +time +1 " h.txt
# a database that cannot be created is still refused before the run
mkdir -p ro && chmod 555 ro
if ! touch ro/probe 2>/dev/null; then
  "$S" time --save k --db ro/h.db -o /dev/null -- touch ran 2>/dev/null
  check "an uncreatable --db is refused (exit $?)" [ $? != 0 ]
  check "an uncreatable --db: the command did not run" test ! -e ran
fi
chmod 755 ro

# ---- a signal while a report file is being written removes its temporary
# file: `history KEY -o F` waits for a history another process holds, its
# report's temporary file already open (the wait is the test's, not a time)
if /usr/bin/python3 -c "import sqlite3" 2>/dev/null; then
  "$S" time --quiet --save k --db hl.db -o /dev/null -- true || fail "a run saved for the lock"
  /usr/bin/python3 -c "
import os, sqlite3, time
c = sqlite3.connect('hl.db', isolation_level=None)
c.execute('BEGIN EXCLUSIVE')
open('locked', 'w').close()
for _ in range(600):
    if os.path.exists('done'):
        break
    time.sleep(0.05)
c.execute('COMMIT')" &
  lp=$!
  for _ in $(seq 600); do [ -e locked ] && break; sleep 0.05; done
  for sig in TERM HUP INT; do
    # INT: a background job of a script ignores it; stormark sets its own
    # handler only where the action is the default, so the job gets one
    (trap - INT; exec "$S" history --db hl.db k -o "out_$sig.txt") 2>/dev/null & hp=$!
    for _ in $(seq 600); do compgen -G ".out_$sig.txt.*" >/dev/null && break; sleep 0.01; done
    compgen -G ".out_$sig.txt.*" >/dev/null || fail "SIG$sig: the temporary report file was never seen"
    kill -"$sig" "$hp"; wait "$hp"; rc=$?
    check "history -o F, SIG$sig: dies of the signal (exit $rc)" [ "$rc" -gt 128 ]
    check "history -o F, SIG$sig: no temporary file left ($(ls -A | grep "^\.out_" | tr '\n' ' '))" \
      sh -c '! ls -A | grep -q "^\.out_"'
    check "history -o F, SIG$sig: no report file" test ! -e "out_$sig.txt"
  done
  touch done
  wait "$lp"
fi
# ---- a streams run killed (SIGKILL, the OOM killer) cannot remove its
# test directory: the next run in that directory names it and leaves it
mkdir -p sd/.stormark-streams-Ab12Cd/f000 sd/.stormark-streams-Ab12Cd/f001
expect_rc 0 "streams beside an earlier run's test directory" "$S" streams --rate-mib 1 --play --step 1 \
  --time 2 --max-streams 1 --json=sd.json sd
# (lines joined: the text report wraps its warnings)
check "streams names the earlier test directory" sh -c 'tr -s " \n" "  " <"$0" |
  grep -q "1 test directory of an earlier streams run that did not end is in .*sd.: .\.stormark-streams-Ab12Cd."' \
  "$T_DIR/out"
check "the JSON's warning names it" [ "$(json sd.json "[w['code'] for w in d['warnings']].count('data_dir_leftover')")" = 1 ]
check "the earlier directory is left as it was" test -d sd/.stormark-streams-Ab12Cd/f001
check "nothing else left" [ "$(ls -A sd)" = .stormark-streams-Ab12Cd ]
finish
