#!/bin/bash
# SPDX-License-Identifier: MIT
# The uring engine's setup as the commands use it: --sqpoll and --iopoll
# refused with one line and exit 2 before any work where they cannot apply
# (another engine, buffered I/O, prepare) or where a real polled read fails
# (a disk without poll queues, tmpfs); --sqpoll working on tmpfs with
# O_DIRECT; environment.engine_setup in the JSON (null for psync, one ring
# per fileio thread, the setup flags probed). No timing is asserted.
. "$SM_SOURCE_DIR/tests/lib.sh"
jqe() { jq -e "$@" >/dev/null; }
D="$T_DIR/d"
mkdir -p "$D"
F=(--file-dir="$D" --file-num=2 --file-total-size=8M)

expect_rc 0 "fileio prepare" "$STORMARK" fileio "${F[@]}" prepare

# --- refusals that need no probe --------------------------------------------
expect_usage "frames --sqpoll on psync" "$STORMARK" frames -w 2k -n 2 --sqpoll "$D"
check "frames: says to use uring" grep -q -- '--sqpoll needs the uring engine: give -a N or --engine uring' "$T_DIR/usage.err"
expect_usage "frames --iopoll --buffered" "$STORMARK" frames -w 2k -n 2 -a 2 --buffered --iopoll "$D"
check "frames: direct I/O only" grep -q -- '--iopoll polls direct I/O only: leave out --buffered' "$T_DIR/usage.err"
expect_usage "fileio --sqpoll, sync mode" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --sqpoll run
check "fileio: names async mode" grep -q -- 'give --file-io-mode=async' "$T_DIR/usage.err"
expect_usage "fileio --iopoll, buffered" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --file-io-mode=async --iopoll run
check "fileio: names direct" grep -q -- 'add --file-extra-flags=direct' "$T_DIR/usage.err"
expect_usage "fileio prepare --sqpoll" "$STORMARK" fileio "${F[@]}" --sqpoll prepare
expect_usage "run --engine psync --sqpoll" "$STORMARK" run --engine psync --sqpoll --no-confirm "$D"
expect_usage "streams --engine psync --iopoll" "$STORMARK" streams --engine psync --iopoll "$D"
expect_usage "frames --submit-batch on psync" "$STORMARK" frames -w 2k -n 2 --submit-batch 8 "$D"
check "frames: --submit-batch says to use uring" grep -q -- '--submit-batch needs the uring engine: give -a N or --engine uring' "$T_DIR/usage.err"
expect_usage "fileio --submit-batch=0" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --file-io-mode=async --submit-batch=0 run
expect_usage "run --submit-batch 1025" "$STORMARK" run --submit-batch 1025 --no-confirm "$D"
check "nothing written by the refusals" test "$(ls -A "$D" | wc -l)" = 2

# --- --iopoll on this disk: as the device's poll queues say -----------------
devno=$(t_disk_devno "$D") || devno=""
poll=""
[ -n "$devno" ] && poll=$(cat "/sys/dev/block/$devno/queue/io_poll" 2>/dev/null)
"$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --file-io-mode=async --file-extra-flags=direct \
  --iopoll --time=1 --json="$T_DIR/ip.json" run >"$T_DIR/ip.out" 2>"$T_DIR/ip.err"
rc=$?
if [ "$poll" = 0 ]; then
  check "--iopoll on a disk without poll queues: exit 2 (got $rc)" test "$rc" = 2
  check "--iopoll: one line" test "$(wc -l <"$T_DIR/ip.err")" = 1
  check "--iopoll: the reason names the poll queues" grep -q 'has no poll queues (/sys/block/.*/queue/io_poll is 0)' "$T_DIR/ip.err"
  check "--iopoll: no run" test ! -s "$T_DIR/ip.out"
  for c in "frames -w 2k -n 2 -a 2 --iopoll $D" "streams --iopoll $D" "run --iopoll --no-confirm $D"; do
    # shellcheck disable=SC2086
    expect_usage "$c" "$STORMARK" $c
    check "$c: poll queues" grep -q 'no poll queues' "$T_DIR/usage.err"
  done
elif [ "$rc" = 0 ]; then
  check "--iopoll works here: reported" jqe '.environment.engine_setup.flags | index("iopoll")' "$T_DIR/ip.json"
else
  check "--iopoll refused with one line" test "$rc" = 2 -a "$(wc -l <"$T_DIR/ip.err")" = 1
fi

# --- engine_setup in the JSON -------------------------------------------------
expect_rc 0 "fileio sync run" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --time=1 --json="$T_DIR/s.json" run
check "psync: no engine_setup" jqe '.environment | has("engine_setup") | not' "$T_DIR/s.json"
expect_rc 0 "fileio async, 3 threads" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --file-io-mode=async \
  --file-async-backlog=8 --threads=3 --time=1 --json="$T_DIR/a.json" run
check "uring: one ring per thread" jqe '.environment.engine_setup.rings == 3' "$T_DIR/a.json"
check "uring: SQ of the backlog" jqe '.environment.engine_setup.sq_entries == 8' "$T_DIR/a.json"
check "uring: buffers and files registered" \
  jqe '.environment.engine_setup | .registered_buffers and .registered_files' "$T_DIR/a.json"
check "uring: no sqpoll unasked" jqe '.environment.engine_setup.flags | index("sqpoll") | not' "$T_DIR/a.json"
check "uring: the default submit batch, 4" jqe '.environment.engine_setup.submit_batch == 4' "$T_DIR/a.json"
expect_rc 0 "fileio async --submit-batch=3" "$STORMARK" fileio "${F[@]}" --file-test-mode=rndrd --file-io-mode=async \
  --file-async-backlog=8 --submit-batch=3 --time=1 --json="$T_DIR/b3.json" run
check "uring: --submit-batch=3 reported" jqe '.environment.engine_setup.submit_batch == 3' "$T_DIR/b3.json"
mkdir -p "$T_DIR/fr"
expect_rc 0 "frames -a 4 --submit-batch 64" "$STORMARK" frames -w 2k -n 4 -a 4 --submit-batch 64 --json "$T_DIR/fb.json" "$T_DIR/fr"
check "uring: a batch above the depth reported as the depth" jqe '.environment.engine_setup.submit_batch == 4' "$T_DIR/fb.json"
# the flags follow the kernel: 6.1 has DEFER_TASKRUN, 6.0 SINGLE_ISSUER
kv=$(uname -r | awk -F. '{ printf "%d", $1 * 100 + $2 }')
if [ "$kv" -ge 601 ]; then
  check "6.1+: single_issuer, defer_taskrun, registered ring fd" \
    jqe '.environment.engine_setup | (.flags | index("single_issuer") and index("defer_taskrun")) and .registered_ring_fd' "$T_DIR/a.json"
fi
"$STORMARK" report "$T_DIR/a.json" --format json >"$T_DIR/a2.json" 2>&1
check "engine_setup read back and written again the same" cmp -s "$T_DIR/a.json" "$T_DIR/a2.json"
check "schema: the async result" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" "$SM_SOURCE_DIR/docs/stormark.schema.json" "$T_DIR/a.json"

# --- --sqpoll on tmpfs with O_DIRECT -----------------------------------------
S=""
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  S=$(mktemp -d /dev/shm/stormark-test-XXXXXX)
  trap 't_cleanup; rm -rf "$S"' EXIT
fi
if [ -z "$S" ]; then
  echo "note: /dev/shm is not tmpfs: --sqpoll on tmpfs not tested"
else
  G=(--file-dir="$S" --file-num=1 --file-total-size=4M)
  expect_rc 0 "tmpfs prepare" "$STORMARK" fileio "${G[@]}" prepare
  "$STORMARK" fileio "${G[@]}" --file-test-mode=rndrw --file-io-mode=async --file-extra-flags=direct \
    --sqpoll --time=1 --json="$T_DIR/sq.json" run >"$T_DIR/sq.out" 2>"$T_DIR/sq.err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q 'does not support O_DIRECT' "$T_DIR/sq.err"; then
    echo "note: tmpfs takes no O_DIRECT on this kernel: --sqpoll tested buffered"
    expect_rc 0 "tmpfs --sqpoll buffered" "$STORMARK" fileio "${G[@]}" --file-test-mode=rndrw \
      --file-io-mode=async --sqpoll --time=1 --json="$T_DIR/sq.json" run
  else
    check "tmpfs --sqpoll O_DIRECT: exit 0 (got $rc)" test "$rc" = 0
  fi
  check "sqpoll reported" jqe '.environment.engine_setup.flags | index("sqpoll")' "$T_DIR/sq.json"
  check "sqpoll: I/O done" jqe '.ops.read.count > 0 and .ops.write.count > 0 and .ops.read.errors == 0' "$T_DIR/sq.json"
  expect_usage "tmpfs --iopoll" "$STORMARK" fileio "${G[@]}" --file-test-mode=rndrd --file-io-mode=async \
    --file-extra-flags=direct --iopoll run
  check "tmpfs --iopoll: the file system named" grep -Eq 'tmpfs does not do polled I/O|O_DIRECT' "$T_DIR/usage.err"
fi
finish
