#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark time`'s system-call count is exact: a command that makes a
# known number of extra calls (dd with bs=1 makes one read and one write per
# byte) is counted with exactly that many more, every run of a -n series
# and every invocation in a row (the probe kept registered by the previous
# invocation, src/core/perfsys.c) count the same, and so does an
# invocation after that has lapsed; flush calls are counted one by one.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

# col CSV KEY: the values of column KEY in every data row, space-separated
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                             { printf "%s%s", (NR > 2 ? " " : ""), (c ? $c : "missing") } END { print "" }' "$1"; }

$S time --csv -o probe.csv -- true || { fail "stormark time -- true failed"; finish; }
[ -n "$(col probe.csv syscalls)" ] || skip "no system-call counter here: $($S time -- true 2>&1 | grep -i 'system calls')"

DD0=(dd if=/dev/zero of=/dev/null bs=1 count=0 status=none)
DDN=(dd if=/dev/zero of=/dev/null bs=1 count=1000 status=none)

# --- a -n series: every run the same count; N bytes = 2N more calls
expect_rc 0 "series of dd count=0" $S time -n 3 --csv -o z.csv -- "${DD0[@]}"
expect_rc 0 "series of dd count=1000" $S time -n 3 --csv -o k.csv -- "${DDN[@]}"
read -r z1 z2 z3 <<<"$(col z.csv syscalls)"
read -r k1 k2 k3 <<<"$(col k.csv syscalls)"
check "every run of a series counts the same (count=0: $z1 $z2 $z3)" [ "$z1" = "$z2" ] && [ "$z2" = "$z3" ]
check "every run of a series counts the same (count=1000: $k1 $k2 $k3)" [ "$k1" = "$k2" ] && [ "$k2" = "$k3" ]
check "1000 one-byte copies are exactly 2000 more calls ($k1 - $z1)" [ $((k1 - z1)) = 2000 ]
check "the bare dd makes some calls ($z1)" ge "$z1" 10

# --- invocations back to back (the previous one's probe still registered)
for i in 1 2 3; do
  $S time --csv -o b$i.csv -- "${DDN[@]}" || fail "invocation $i failed"
done
check "back-to-back invocations count what the series counted" \
  [ "$(col b1.csv syscalls) $(col b2.csv syscalls) $(col b3.csv syscalls)" = "$k1 $k1 $k1" ]

# --- an invocation after the previous one's probe has been let go
sleep 2
$S time --csv -o cold.csv -- "${DDN[@]}" || fail "cold invocation failed"
check "a cold invocation counts the same ($(col cold.csv syscalls) = $k1)" [ "$(col cold.csv syscalls)" = "$k1" ]

# --- the counter kept to the end (src/core/perfsys.c) is held by the
# launcher, close-on-exec: no run of the command sees it, nor the launcher's
# socket, runs after the first included (their processes are made after
# the launcher took it)
$S time -n 3 -o /dev/null --shell -- 'ls -l /proc/$$/fd >>fds.txt'
check "three runs listed their files" [ "$(grep -c ' 0 -> ' fds.txt)" = 3 ]
check "no run of the command holds a perf event or a socket" \
  bash -c '! grep -Eq "perf_event|socket:" fds.txt'

# --- after stormark has ended, its launcher keeps the counter a second
# longer, holding nothing else (a pipe of stormark's caller must not wait
# for it); found by this test's mark in its environment
export SM_TIME_SYSCALLS_MARK="time_syscalls.$$"
$S time -o /dev/null -- true >linger.out 2>&1
held=""
for p in $(pgrep -f '^stormark-launch '); do
  tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "SM_TIME_SYSCALLS_MARK=$SM_TIME_SYSCALLS_MARK" &&
    held="$held$(ls -l "/proc/$p/fd" 2>/dev/null | awk 'NR > 1 { print $NF }' | sort | uniq -c | tr -s ' ')"
done
unset SM_TIME_SYSCALLS_MARK
if [ -n "$held" ]; then
  check "the lingering launcher holds one perf event and nothing else ($held)" \
    [ "$held" = " 1 anon_inode:[perf_event]" ]
else
  echo "note: the launcher had ended before it was looked at"
fi

# --- flush calls: exactly those of the command
$S time --csv -o f0.csv -- dd if=/dev/zero of=f.dat bs=4k count=4 status=none
$S time --csv -o f1.csv -- dd if=/dev/zero of=f.dat bs=4k count=4 conv=fsync status=none
$S time --csv -o f2.csv -- dd if=/dev/zero of=f.dat bs=4k count=4 conv=fdatasync status=none
$S time --shell --csv -o f3.csv -- 'dd if=/dev/zero of=f.dat bs=4k count=1 conv=fsync status=none &&
  dd if=/dev/zero of=f.dat bs=4k count=1 conv=fsync status=none && sync f.dat'
check "no flush call counted without one ($(col f0.csv flush_calls))" [ "$(col f0.csv flush_calls)" = 0 ]
check "conv=fsync is one flush call ($(col f1.csv flush_calls))" [ "$(col f1.csv flush_calls)" = 1 ]
check "conv=fdatasync is one flush call ($(col f2.csv flush_calls))" [ "$(col f2.csv flush_calls)" = 1 ]
check "two dd with fsync and sync FILE are three flush calls ($(col f3.csv flush_calls))" \
  [ "$(col f3.csv flush_calls)" = 3 ]

finish
