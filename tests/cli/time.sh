#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of `stormark time`: per-tree I/O accounting against
# ground truth (O_DIRECT + fsync writes, page-cache reads, a double-forked
# grandchild), exit codes and signals, --prepare, formats, bad input, and
# agreement with GNU time on the figures rusage gives.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
MIB=1048576
cd "$T_DIR" || exit 1

# fig CSV KEY [ROW]: the value of column KEY in data row ROW (default 1).
fig() { awk -F, -v k="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                                            NR == r + 1 { print (c ? $c : "missing"); exit }' "$1"; }

# --- O_DIRECT + fsync writes of N MiB reach storage: >= N MiB, not far above
N=16
expect_rc 0 "direct write runs" $S time --csv -o d.csv -- \
  dd if=/dev/urandom of=direct.dat bs=1M count=$N oflag=direct conv=fsync status=none
sw=$(fig d.csv storage_write_bytes)
check "storage bytes written >= $N MiB (got $sw)" ge "$sw" $((N * MIB))
check "storage bytes written not far above $N MiB (got $sw)" ge $((N * MIB + 2 * MIB)) "$sw"
lw=$(fig d.csv write_bytes)
check "logical bytes written = $N MiB (got $lw)" [ "$lw" = $((N * MIB)) ]
dw=$(fig d.csv disk_write_bytes)
[ -n "$dw" ] && check "system-wide device writes >= the tree's storage writes ($dw >= $sw)" ge "$dw" "$sw"
fc=$(fig d.csv flush_calls)
[ -n "$fc" ] && check "conv=fsync counted as a flush call (got $fc)" ge "$fc" 1
sc=$(fig d.csv syscalls)
if [ -n "$sc" ]; then
  rc_=$(fig d.csv read_calls); wc_=$(fig d.csv write_calls)
  check "all syscalls ($sc) >= read+write calls ($rc_+$wc_)" ge "$sc" $((rc_ + wc_))
else
  grep -q syscalls_missing <($S time --json -- true) && ok || fail "missing syscalls not explained"
fi

# --- a file already in the page cache: logical N MiB, storage near zero
dd if=/dev/urandom of=cached.dat bs=1M count=8 status=none
cat cached.dat >/dev/null; cat cached.dat >/dev/null
expect_rc 0 "cached read runs" $S time --csv -o c.csv -- dd if=cached.dat of=/dev/null bs=1M status=none
lr=$(fig c.csv read_bytes); sr=$(fig c.csv storage_read_bytes)
check "logical bytes read >= 8 MiB (got $lr)" ge "$lr" $((8 * MIB))
check "storage bytes read near zero (got $sr)" ge $((256 * 1024)) "$sr"
$S time -- dd if=cached.dat of=/dev/null bs=1M status=none >c.txt 2>&1
check "served-from-cache hint shown" grep -q served_from_cache c.txt

# --- --drop-caches (root): the same read now comes from storage
if [ "$(id -u)" = 0 ]; then
  expect_rc 0 "drop-caches read runs" $S time --drop-caches --csv -o dc.csv -- \
    dd if=cached.dat of=/dev/null bs=1M status=none
  dr=$(fig dc.csv storage_read_bytes)
  check "after --drop-caches, storage bytes read >= 8 MiB (got $dr)" ge "$dr" $((8 * MIB))
  # dd's own binary and libraries are re-read too: allow a few MiB
  check "after --drop-caches, storage bytes read not far above (got $dr)" ge $((14 * MIB)) "$dr"
fi
# as nobody, without the ThreadSanitizer suppressions file of the TSan pass
# (the clone it lives in may be closed to other users; nothing here is MPI)
unpriv() {
  env TSAN_OPTIONS="$(printf '%s' "${TSAN_OPTIONS:-}" | sed 's/suppressions=[^ :]*//')" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
command -v setpriv >/dev/null && expect_rc 1 "drop-caches refused without root" sh -c \
  "cd / && exec env TSAN_OPTIONS='$(printf '%s' "${TSAN_OPTIONS:-}" | sed 's/suppressions=[^ :]*//')' setpriv --reuid=65534 --regid=65534 --clear-groups $S time --drop-caches -- true"

# --- a grandchild that double-forks (re-parented away) is still counted
expect_rc 0 "double fork runs" $S time --csv -o g.csv --shell \
  '( (sleep 0.3; dd if=/dev/urandom of=grand.dat bs=1M count=4 oflag=direct conv=fsync status=none) & ); exit 0'
gw=$(fig g.csv storage_write_bytes); gp=$(fig g.csv processes)
if t_tree_followed; then
  check "grandchild's storage writes counted (got $gw)" ge "$gw" $((4 * MIB))
  check "orphan reaped by stormark (processes $gp >= 2)" ge "$gp" 2
  check "stormark waited for the grandchild" [ "$(stat -c %s grand.dat 2>/dev/null)" = $((4 * MIB)) ]
else
  # qemu-user: no subreaper; the result says so instead
  echo "the tree is not followed here (no PR_SET_CHILD_SUBREAPER): the orphan checks become the warning's"
  $S time --json -o gj.json --shell '( (sleep 0.3; true) & ); exit 0' 2>/dev/null
  check "no subreaper: the result warns tree_unfollowed" grep -q '"tree_unfollowed"' gj.json
fi

# --- exit status and signals
expect_rc 7 "exit status passed through" $S time -o /dev/null -- sh -c 'exit 7'
expect_rc 143 "SIGTERM death gives 143" $S time -o /dev/null -- sh -c 'kill -TERM $$'
expect_rc 137 "SIGKILL death gives 137" $S time -o /dev/null -- sh -c 'kill -KILL $$'
$S time -- sh -c 'kill -TERM $$' >sig.txt 2>&1
check "report names the signal" grep -q "killed by signal 15" sig.txt
t0=$(date +%s%N)
$S time -o /dev/null -- sleep 10 & sp=$!
sleep 0.5; kill -TERM $sp; wait $sp; got=$?
t1=$(date +%s%N)
check "SIGTERM to stormark is forwarded (exit $got)" [ "$got" = 143 ]
check "forwarded signal ended the command early" [ $(((t1 - t0) / 1000000)) -lt 8000 ]

$S time -n 5 --prepare 'sleep 0.5' -o /dev/null -- true & sp=$!
sleep 0.2; kill -TERM $sp; wait $sp; got=$?
check "SIGTERM between runs stops stormark (exit $got)" [ "$got" = 143 ]

# --- --prepare before every run (warm-up runs included), -n statistics
: >prep.log
expect_rc 0 "prepare runs" $S time -n 3 --warmup 2 --prepare "echo x >> $T_DIR/prep.log" --csv -o p.csv -- true
check "prepare ran 5 times (got $(wc -l <prep.log))" [ "$(wc -l <prep.log)" = 5 ]
check "3 measured runs in the CSV" [ "$(($(wc -l <p.csv) - 1))" = 3 ]
expect_rc 4 "a failing run stops the series with its status" $S time -n 3 --csv -o f.csv -- sh -c 'exit 4'
check "only the failed run is reported" [ "$(($(wc -l <f.csv) - 1))" = 1 ]
check "its exit code is in the CSV" [ "$(fig f.csv exit_code)" = 4 ]
expect_rc 1 "failing prepare stops" $S time --prepare 'exit 3' -- true
check "failing prepare is named" grep -q "prepare command 'exit 3' failed" "$T_DIR/out"

# --- formats
$S time --format timeit -- true >t.txt
# the block: timeit's fields in its order, those measured only (Bytes Other
# never is on Linux), each value a number or timeit's time forms
block() { sed -n '2,/^$/p' "$1" | sed '/^$/d'; }
# System Calls is shown where they are counted (a tracepoint; not under
# qemu-user, which says why after the block)
sc='System Calls:'
grep -q '^#   System Calls - ' t.txt && sc=
check "timeit layout in order" diff <(block t.txt | grep -o '^[A-Za-z ]*:') <(printf '%s\n' \
  'Version Number:' 'Exit Time:' 'Elapsed Time:' 'Process Time:' ${sc:+"$sc"} \
  'Context Switches:' 'Page Faults:' 'Bytes Read:' 'Bytes Written:')
check "timeit counts are numbers" test "$(block t.txt | sed -n '5,$p' | grep -Evc '^[A-Za-z ]+: +[0-9]+$')" = 0
check "timeit: nothing after the block looks like a field" \
  test "$(sed -n '2,$p' t.txt | sed '1,/^$/d' | grep -Ec '^[A-Za-z][A-Za-z ]*:|n/a')" = 0
check "timeit: stormark's section, every line '#'" test "$(sed -n '2,$p' t.txt | sed '1,/^$/d' | grep -vc '^#')" = 0
check "timeit: Bytes Other explained" grep -q '^#   Bytes Other - ' t.txt
$S time --format timeit --no-syscalls -- true >t2.txt
check "timeit --no-syscalls: no System Calls field" test "$(grep -c '^System Calls' t2.txt)" = 0
check "timeit --no-syscalls: explained after the block" grep -Eq '^#   System Calls - .*\(read and write calls: [0-9]+\)$' t2.txt
check "timeit elapsed format H:MM:SS.mmm" grep -Eq '^Elapsed Time: +[0-9]+:[0-5][0-9]:[0-5][0-9]\.[0-9]{3}$' t.txt
$S time -n 2 --json -o j.json -- true
check "json document" python3 -c "
import json,sys; d=json.load(open('j.json'))
assert d['command'] == 'time' and d['schema_version'] == 1
t = d['time']; assert d['params']['command'] == ['true'] and len(t['runs']) == 2
assert t['stats']['wall_ns']['n'] == 2 and t['runs'][0]['exit_code'] == 0
assert t['stats']['wall_ns']['min'] <= t['stats']['wall_ns']['median'] <= t['stats']['wall_ns']['max']
"
# --json=FILE: the JSON besides the text report; the output flags of docs/options.md
$S time --json=jf.json -o jt.txt -- true
check "--json=FILE writes JSON" python3 -c "import json; assert json.load(open('jf.json'))['command'] == 'time'"
check "--json=FILE keeps the text report" grep -q "exit status 0" jt.txt
$S time --format json -- true >fj.json
# --json FILE with a space, as frames and run take it: FILE is the JSON's
# path when it is - or ends in .json; any other word is the command
expect_rc 0 "--json FILE.json -- CMD runs CMD" $S time --json sp.json -o sp.txt -- true
check "--json FILE.json: the JSON in FILE" python3 -c "import json; assert json.load(open('sp.json'))['params']['command'] == ['true']"
check "--json FILE.json: the text report besides it" grep -q "exit status 0" sp.txt
expect_rc 0 "--json FILE.json CMD (no --) runs CMD" $S time --json sp2.json -o sp2.txt true
check "--json FILE.json CMD: the JSON in FILE" python3 -c "import json; assert json.load(open('sp2.json'))['params']['command'] == ['true']"
$S time --json - -- true >sp3.out
check "--json - -- CMD: the JSON is the report" python3 -c "import json; assert json.load(open('sp3.out'))['params']['command'] == ['true']"
$S time --json true hi >sp4.out
check "--json CMD: CMD is the command, the JSON the report" python3 -c "import json; assert json.load(open('sp4.out'))['params']['command'] == ['true', 'hi']"
check "--format json is JSON on stdout" python3 -c "import json; assert json.load(open('fj.json'))['command'] == 'time'"
expect_rc 0 "--quiet accepted" $S time --quiet -o /dev/null -- true

# --- bad input: one line, exit 2 (or 127/126 like a shell)
expect_usage "no command" $S time
expect_usage "only options" $S time -n 2
expect_usage "unknown option" $S time --frobnicate -- true
expect_usage "-n 0" $S time -n 0 -- true
expect_usage "-n junk" $S time -n 3x -- true
expect_usage "bad format" $S time --format xml -- true
$S time --format markdown --json=md.json -- true >md.txt
check "--format markdown live = stormark report --format markdown" cmp -s md.txt <($S report md.json --format markdown)
expect_usage "layout not available" $S time --format sysbench -- true
expect_usage "--json with no FILE and another layout" $S time --json --format timeit -- true
check "one wording for bad values" grep -qx "stormark time: invalid value '3x' for -n: expected an integer from 1 to 100000 (try 'stormark time --help')" \
  <($S time -n 3x -- true 2>&1)
expect_usage "missing value" $S time --prepare
expect_rc 127 "command not found" $S time -- no-such-command-stormark
check "not-found message" grep -q "cannot run 'no-such-command-stormark'" "$T_DIR/out"
printf 'echo hi\n' >noexec.sh; chmod -x noexec.sh
expect_rc 126 "not executable" $S time -- ./noexec.sh

# --- without privileges: no perf counter (reason given), and the I/O sums
# come from the kernel's accounting of our children; same figures as root's
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
  chmod 755 "$T_DIR"
  work=(dd if=/dev/zero of=/dev/null bs=1k count=1000 status=none)
  $S time --csv -o "$T_DIR/root.csv" -- "${work[@]}"
  (cd / && unpriv $S time -- "${work[@]}" >"$T_DIR/nobody.txt" 2>&1)
  (cd / && unpriv $S time --csv -- "${work[@]}" >"$T_DIR/nobody.csv" 2>&1)
  # (a long reason wraps at 79 columns onto the lines below)
  check "unprivileged: syscalls missing with a reason" grep -Eq '^  system calls \(all\) +n/a \([a-z]{3,}' nobody.txt
  check "unprivileged: read+write calls shown instead" grep -Eq '^  system calls \(counted\) +[0-9]+ \(read and write family only\)' nobody.txt
  check "unprivileged: syscalls cell empty" [ -z "$(fig nobody.csv syscalls)" ]
  for k in read_calls write_calls read_bytes write_bytes; do
    check "unprivileged $k equals root's ($(fig nobody.csv $k) vs $(fig root.csv $k))" \
      [ "$(fig nobody.csv $k)" = "$(fig root.csv $k)" ]
  done
fi

# --- GNU time agreement on rusage figures, within the run-to-run spread
if [ -x /usr/bin/time ]; then
  work=(dd if=/dev/zero of=/dev/null bs=16M count=40 status=none)
  : >ours; : >gnu
  for i in 1 2 3 4 5; do
    $S time --csv -o r.csv -- "${work[@]}"
    echo "$(fig r.csv user_ns) $(fig r.csv sys_ns) $(fig r.csv max_rss_bytes) $(fig r.csv minor_faults)" |
      awk '{ printf "%.0f %.0f %d\n", $1 + $2, $3, $4 }' >>ours
    /usr/bin/time -f '%U %S %M %R' -o gt.txt "${work[@]}"
    awk '{ printf "%.0f %.0f %d\n", ($1 + $2) * 1e9, $3 * 1024, $4 }' gt.txt >>gnu
  done
  # column C: |median(ours) - median(gnu)| <= max(spread over all 10 runs, REL * median(gnu), ABS)
  agree() {
    cat ours gnu | awk -v c="$1" -v rel="$2" -v abs="$3" '
      function med(x,   t, i, j, k) { for (i = 1; i <= 5; i++) t[i] = x[i]
        for (i = 1; i <= 5; i++) for (j = i + 1; j <= 5; j++) if (t[j] < t[i]) { k = t[i]; t[i] = t[j]; t[j] = k }
        return t[3] }
      { v[NR] = $c }
      END {
        for (i = 1; i <= 5; i++) { a[i] = v[i]; b[i] = v[i + 5] }
        ma = med(a); mb = med(b)
        lo = hi = v[1]; for (i = 1; i <= 10; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
        tol = hi - lo; if (rel * mb > tol) tol = rel * mb; if (abs > tol) tol = abs
        d = ma - mb; if (d < 0) d = -d
        printf "  column %d: stormark %.0f, GNU time %.0f, tolerance %.0f\n", c, ma, mb, tol
        exit !(d <= tol) }'
  }
  check "user+sys CPU agree with GNU time" agree 1 0.3 20000000
  check "max RSS agrees with GNU time" agree 2 0.2 2097152
  check "minor faults agree with GNU time" agree 3 0.2 200
else
  echo "note: /usr/bin/time missing, agreement test not run"
fi

finish
