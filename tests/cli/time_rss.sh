#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `stormark time`'s max RSS is the command's own peak, not stormark's: a
# command that prints its own VmHWM (the kernel's peak RSS of its memory)
# is reported within 15% + 256 KiB of it, for one run and for every run of
# -n, as GNU time reports it; a command larger than stormark too; the
# launcher that makes this so leaves no process behind, keeps the tree's
# accounting (orphans waited for, exit codes) and, when it cannot run,
# the figure is missing with its reason rather than stormark's own peak.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1

fig() { awk -F, -v k="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                                            NR == r + 1 { print (c ? $c : "missing"); exit }' "$1"; }
# near BYTES KIB: BYTES within 15% + 256 KiB of KIB KiB
near() { awk -v b="$1" -v k="$2" 'BEGIN { h = k * 1024; d = b - h; if (d < 0) d = -d; exit !(d <= 0.15 * h + 262144) }'; }

# --- one run: grep prints its own peak, stormark reports the same
expect_rc 0 "one run" $S time --csv -o one.csv -- grep VmHWM /proc/self/status
hwm=$(awk '/^VmHWM/ { print $2 }' "$T_DIR/out")
rss=$(fig one.csv max_rss_bytes)
check "one run: max RSS $rss B is grep's own VmHWM $hwm KiB" near "$rss" "$hwm"

# --- -n 5: every run's figure against the VmHWM that run printed
expect_rc 0 "five runs" $S time -n 5 --csv -o five.csv -- grep VmHWM /proc/self/status
awk '/^VmHWM/ { print $2 }' "$T_DIR/out" >hwm5
check "five VmHWM lines" [ "$(wc -l <hwm5)" = 5 ]
for i in 1 2 3 4 5; do
  h=$(sed -n "${i}p" hwm5); r=$(fig five.csv max_rss_bytes "$i")
  check "run $i: max RSS $r B is its VmHWM $h KiB" near "$r" "$h"
done
# the text report's mean is the runs' mean, and the JSON says so too
# (grep itself prints its peak: through a shell, the run's peak would be the
# larger of the shell's and grep's, not the shell's the test would read)
expect_rc 0 "five runs, JSON" $S time -n 5 --json=five.json -- grep VmHWM /proc/self/status
python3 - "$T_DIR/out" five.json <<'PY' || fail "JSON: max_rss_bytes per run"
import json, re, sys
text = open(sys.argv[1]).read()
hwm = [int(x) * 1024 for x in re.findall(r"VmHWM:\s+(\d+) kB", text)]
doc = json.load(open(sys.argv[2]))
runs = doc["time"]["runs"]
assert len(runs) == 5 == len(hwm), (len(runs), hwm)
for r, h in zip(runs, hwm):
    assert abs(r["max_rss_bytes"] - h) <= 0.15 * h + 262144, (r["max_rss_bytes"], h)
assert doc["time"]["max_rss_missing_reason"] == ""
PY

# --- GNU time agrees on the same command (medians of 5 each)
if [ -x /usr/bin/time ]; then
  : >gnu; : >ours
  for i in 1 2 3 4 5; do
    /usr/bin/time -f '%M' -o gt.txt grep -q VmHWM /proc/self/status; cat gt.txt >>gnu
    $S time --csv -o r.csv -- grep -q VmHWM /proc/self/status; echo $(($(fig r.csv max_rss_bytes) / 1024)) >>ours
  done
  g=$(sort -n gnu | sed -n 3p); o=$(sort -n ours | sed -n 3p)
  echo "  grep's max RSS: stormark $o KiB, GNU time $g KiB (medians of 5)"
  check "max RSS agrees with GNU time ($o vs $g KiB)" near $((o * 1024)) "$g"
fi

# --- a command far larger than stormark: its own peak, not less
expect_rc 0 "a 64 MiB command" $S time --csv -o big.csv -- \
  python3 -c 'b = b"x" * (64 << 20); print(open("/proc/self/status").read())'
hwm=$(awk '/^VmHWM/ { print $2 }' "$T_DIR/out"); big=$(fig big.csv max_rss_bytes)
check "a 64 MiB command: max RSS $big B is its VmHWM $hwm KiB" near "$big" "$hwm"
check "a 64 MiB command: at least 64 MiB" ge "$big" $((64 * 1048576))

# --- the tree is still the tree: orphans waited for, status, no launcher left
# (every stormark below carries this test's own mark in its environment,
# which its launcher inherits: launchers of tests running beside this one
# are not this test's)
export SM_TIME_RSS_MARK="time_rss.$$"
expect_rc 3 "a double fork, exit 3" $S time --csv -o tree.csv --shell \
  '( (sleep 0.3; echo late >late.txt) & ); exit 3'
check "the orphan was waited for" grep -q late late.txt
check "two processes reaped" ge "$(fig tree.csv processes)" 2
expect_rc 127 "a missing command" $S time -n 3 -o /dev/null -- /nonexistent/cmd
expect_rc 0 "warm-up and runs" $S time --warmup 2 -n 3 -o /dev/null -- true
ours_left() {
  local p
  for p in $(pgrep -f '^stormark-launch '); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "SM_TIME_RSS_MARK=$SM_TIME_RSS_MARK" && echo "$p"
  done
}
# stormark does not wait for its launcher to exit: each ends at its end of
# file, within a few milliseconds of its stormark, or a second later when
# it keeps the system-call counter (src/launch/launch.c)
none_left() {
  local i
  for i in $(seq 40); do
    [ -z "$(ours_left)" ] && return 0
    sleep 0.05
  done
  return 1
}
check "no launcher left behind" none_left
unset SM_TIME_RSS_MARK

# --- without its launcher (exec from memory files refused), max RSS is missing with a reason, never
# stormark's own peak
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/memfd_noexec ] &&
   [ "$(cat /proc/sys/vm/memfd_noexec)" = 0 ] && command -v unshare >/dev/null &&
   unshare --pid --fork --mount-proc true 2>/dev/null; then
  # memfd_noexec is per pid namespace: 2 refuses exec of any memfd there
  unshare --pid --fork --mount-proc sh -c \
    "echo 2 >/proc/sys/vm/memfd_noexec && exec $S time --json=noexec.json --csv -o noexec.csv -- true" \
    >"$T_DIR/out" 2>&1
  check "without the launcher: the run still works" [ -s noexec.csv ]
  check "without the launcher: max RSS is an empty cell" [ -z "$(fig noexec.csv max_rss_bytes)" ]
  check "without the launcher: the reason is given" \
    python3 -c 'import json,sys; d=json.load(open("noexec.json"))["time"]; r=d["max_rss_missing_reason"]; assert "launcher" in r and d["missing"]["max_rss_bytes"] == r, d'
  echo "  without the launcher: $(python3 -c 'import json; print(json.load(open("noexec.json"))["time"]["max_rss_missing_reason"])')"
else
  echo "note: cannot refuse memfd exec here (needs root, vm.memfd_noexec, unshare); fallback not checked"
fi

finish
