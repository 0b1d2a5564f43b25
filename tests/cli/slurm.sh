#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# stormark's MPI mode under Slurm (docs/mpi.md, "Slurm"): a one-node Slurm
# (Debian's slurm-wlm, scripts/deps.sh) configured in the scratch
# directory on localhost: slurmctld and slurmd in the foreground (-D) in
# the background, SLURM_CONF pointing at the scratch slurm.conf, auth/none
# (no munged needed), stopped by their pids at the end. Checked: frames and
# streams with 2 ranks under `srun --mpi=pmix` print the job's report;
# `srun --mpi=pmi2` and `--mpi=none`, which give Debian's Open MPI no PMIx
# server, stop at once with one line naming `srun --mpi=pmix`, exit 2,
# instead of Open MPI's page of 45 lines per rank. About 15 s.
. "$SM_SOURCE_DIR/tests/lib.sh"
# shared memory between the ranks of one node, as the other MPI tests use:
# Open MPI's TCP transport trips ThreadSanitizer inside the library (a lock
# order inversion in mca_btl_tcp_add_procs, seen in the TSan pass)
export OMPI_MCA_btl=self,vader

t_mpi_job
for c in slurmctld slurmd srun sinfo; do
  command -v "$c" >/dev/null || skip "$c is not installed (scripts/deps.sh installs slurm-wlm)"
done
[ "$(id -u)" = 0 ] || skip "slurmd runs tasks as root here: run as root"
command -v jq >/dev/null || skip "jq reads the JSON"

# ---- the one-node cluster ------------------------------------------------
S=$T_DIR/slurm
mkdir -p "$S/state" "$S/spool" "$S/log"
# two ports of their own (another copy of this test may run beside it)
port=$((20000 + ($$ % 10000) * 2))
cat >"$S/slurm.conf" <<CONF
ClusterName=smtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=smtest Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$S/slurm.conf
CTLD=; SLD=
slurm_stop() {
  local p
  for p in $SLD $CTLD; do kill "$p" 2>/dev/null; done
  for p in $SLD $CTLD; do wait "$p" 2>/dev/null; done
  t_cleanup
}
trap slurm_stop EXIT
slurmctld -D -i >"$S/log/slurmctld.out" 2>&1 & CTLD=$!
slurmd -D -N localhost >"$S/log/slurmd.out" 2>&1 & SLD=$!
up=0
for _ in $(seq 1 100); do
  if sinfo -h -o %t 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.2
done
if [ "$up" = 0 ]; then
  fail "the one-node Slurm did not come up within 20 s"
  tail -5 "$S"/log/*.out "$S"/log/*.log >&2
  finish
fi
srun --mpi=list 2>&1 | grep -qw pmix || { fail "this Slurm has no pmix plugin (srun --mpi=list)"; finish; }
check "srun runs a step" test "$(timeout 60 srun -n 2 true 2>&1; echo $?)" = 0
RUN=(timeout 120 srun -n 2 --overcommit)
if [ "${SM_SANITIZER:-none}" != none ]; then
  RUN=(env "ASAN_OPTIONS=${ASAN_OPTIONS}" "${RUN[@]}")
fi

# ---- srun --mpi=pmix: the job runs ---------------------------------------
D=$T_DIR/d; mkdir -p "$D"
J=$T_DIR/frames.json
expect_rc 0 "frames under srun --mpi=pmix" "${RUN[@]}" --mpi=pmix "$STORMARK" frames -w 64 -n 40 \
  --json="$J" "$D"
check "frames: the MPI job report" grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/out"
check "frames: one report (rank 0's)" test "$(grep -c 'MPI job:' "$T_DIR/out")" = 1
check "frames: the JSON says srun's 2 ranks, 80 frames" jq -e \
  '.mpi.ranks_total == 2 and .mpi.ranks_reported == 2 and .totals.items == 80' "$J"
cp "$T_DIR/out" "$T_DIR/frames.out"
J=$T_DIR/streams.json
expect_rc 0 "streams under srun --mpi=pmix" "${RUN[@]}" --mpi=pmix "$STORMARK" streams --rate-mib 2 \
  --play --step 1 --time 6 --max-streams 2 --json="$J" "$D"
check "streams: the MPI job report" grep -q "MPI job: 2 ranks on 1 host, 2 reported" "$T_DIR/out"
check "streams: the streams table" grep -q "custom-2mib" "$T_DIR/out"
check "streams: the JSON's job has 2 ranks" jq -e '.mpi.ranks_total == 2 and .mpi.ranks_reported == 2' "$J"
check "streams left no test directory" test -z "$(find "$D" -name '.stormark-streams-*')"

# ---- a plugin without PMIx: one line, exit 2 ----------------------------
for m in pmi2 none; do
  srun --mpi=list 2>&1 | grep -qw "$m" || continue
  "${RUN[@]}" --mpi="$m" "$STORMARK" frames -w 64 -n 40 "$D" >"$T_DIR/out" 2>"$T_DIR/err"; rc=$?
  check "srun --mpi=$m: non-zero exit ($rc)" test "$rc" != 0
  own=$(grep -c '^stormark' "$T_DIR/err")
  check "srun --mpi=$m: one line of stormark's ($own)" test "$own" = 1
  check "srun --mpi=$m: the line names srun --mpi=pmix and mpirun" \
    grep -q "^stormark: mpi: srun started this job with --mpi=$m, .*'srun --mpi=pmix' (or under mpirun" "$T_DIR/err"
  check "srun --mpi=$m: no Open MPI page" test "$(grep -c 'MPI_Init\|OPAL ERROR\|--------' "$T_DIR/err")" = 0
  check "srun --mpi=$m: every task exited 2" grep -q "Exited with exit code 2" "$T_DIR/err"
  check "srun --mpi=$m: nothing on stdout" test ! -s "$T_DIR/out"
done
sed -n '/MPI job:/,$p' "$T_DIR/frames.out" | head -4
head -1 "$T_DIR/err"
finish
