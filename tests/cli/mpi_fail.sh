#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A failing rank in a many-host run (docs/mpi.md): one that fails its
# checks stops the job at the start barrier with the reason on rank 0 (no
# hang); one killed by SIGKILL mid-run gives, under mpirun
# --enable-recovery, rank 0's partial report naming it, within --mpi-wait
# of rank 0's end (OpenMPI without that option ends the whole job at once).
. "$SM_SOURCE_DIR/tests/lib.sh"

t_mpi_job

# rank 0 can run, rank 1 reads a directory that is not there
G=$T_DIR/good; mkdir -p "$G"
# (mpirun exits with the first non-zero status it sees: rank 1's 2 or rank 0's 1)
expect_rc_says "1|2" "rank.1' does not exist
a rank could not start" "a rank that cannot start stops the job, both reasons said" \
  timeout 120 "${MPI[@]}" -np 1 "$STORMARK" frames -w 64 -n 4 "$G" : -np 1 "$STORMARK" frames -r -z 64 "$T_DIR/none"
check "failed start: nothing written" test ! -e "$G/rank.0/frame000000.tst"

K=$T_DIR/kill; mkdir -p "$K"
cat >"$T_DIR/die.sh" <<SH
#!/bin/sh
"$STORMARK" frames -w 64 -f 25 -n 100 "$K" & sleep 2; kill -9 \$!; wait
SH
chmod +x "$T_DIR/die.sh"
t0=$(date +%s)
timeout 120 "${MPI[@]}" --enable-recovery -np 2 "$STORMARK" frames --mpi-wait=1 -w 64 -f 25 -n 100 "$K" \
  : -np 1 "$T_DIR/die.sh" >"$T_DIR/out" 2>&1 </dev/null
t1=$(date +%s)
grep -q "MPI job: 3 ranks on 1 host, 2 reported" "$T_DIR/out" && ok || { fail "killed rank: partial report"; tail -20 "$T_DIR/out" >&2; }
grep -q "rank 2 on .*: no result within" "$T_DIR/out" && ok || fail "killed rank: named"
[ $((t1 - t0)) -lt 60 ] && ok || fail "killed rank: took $((t1 - t0)) s"
# the dead rank in the middle: rank 2's result is still taken while rank 0
# waits for rank 1's (results are taken as they come, not in rank order,
# so no live rank's send times out behind a dead one)
timeout 120 "${MPI[@]}" --enable-recovery -np 1 "$STORMARK" frames --mpi-wait=1 -w 64 -f 25 -n 100 "$K" \
  : -np 1 "$T_DIR/die.sh" : -np 1 "$STORMARK" frames --mpi-wait=1 -w 64 -f 25 -n 100 "$K" \
  >"$T_DIR/out" 2>&1 </dev/null
grep -q "MPI job: 3 ranks on 1 host, 2 reported" "$T_DIR/out" && ok || { fail "killed rank 1: rank 2 reported"; tail -20 "$T_DIR/out" >&2; }
grep -q "rank 1 on .*: no result within" "$T_DIR/out" && ok || fail "killed rank 1: named"
check "killed rank 1: rank 2 handed its result" sh -c "! grep -q 'rank 2: cannot hand' '$T_DIR/out'"
finish
