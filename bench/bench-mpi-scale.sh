#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How an MPI job's cost grows with its ranks (docs/mpi.md, "Scale"): for
# each N given (default 2 4 8 16 32 64), a tiny job of each command under
# mpirun --oversubscribe, and an MPI hello world in the same loop. Prints,
# per command and N: the job JSON's size, rank 0's max RSS (its own, by
# wait4's rusage through GNU time wrapped round each rank, not mpirun's),
# the wall time of the whole mpirun and that of hello world (and of
# hellox, a hello world that exchanges, reduces and gathers as a job
# does, for the library's own per-peer memory); then a
# least-squares line over the N from 4 to 32 (the issue's target: at most
# 128 KiB of rank 0's RSS and 4 KB of JSON per added rank) and over all N,
# extrapolated to 1024 and 4096 ranks.
#
#   bench/bench-mpi-scale.sh                  all commands, N = 2 4 8 16 32 64
#   bench/bench-mpi-scale.sh 2 4 8 16         these N only
#   CMDS="frames fileio" bench/bench-mpi-scale.sh 4 8 16 32
#
# STORMARK=path chooses the binary (default build/stormark); BENCH_DIR
# where the scratch work goes (default /dev/shm, else the current
# directory); it is removed at the end. Not part of `make test`. The
# machine is shared and the ranks oversubscribe its cores: wall times are
# indicative, sizes and RSS are not noisy.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NS=${*:-2 4 8 16 32 64}
CMDS=${CMDS:-frames fileio meta streams}

STORMARK=${STORMARK:-}
if [ -z "$STORMARK" ]; then
  for b in "$HERE/../build/stormark" "$HERE"/../build*/stormark; do
    [ -x "$b" ] && { STORMARK=$b; break; }
  done
fi
[ -n "$STORMARK" ] && [ -x "$STORMARK" ] || { echo "bench-mpi-scale: no stormark binary (build it, or set STORMARK)" >&2; exit 1; }
STORMARK=$(readlink -f "$STORMARK")
command -v mpirun >/dev/null || { echo "bench-mpi-scale: mpirun is not installed (scripts/deps.sh)" >&2; exit 1; }
command -v mpicc >/dev/null || { echo "bench-mpi-scale: mpicc is needed for the hello world" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-mpi-scale: GNU time (/usr/bin/time) measures each rank" >&2; exit 1; }
PY=$(command -v /usr/bin/python3 || command -v python3) || { echo "bench-mpi-scale: python3 fits the lines" >&2; exit 1; }
base=${BENCH_DIR:-}
[ -n "$base" ] || { [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm || base=$PWD; }
D=$(mktemp -d "$base/bench-mpi-scale.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM

cat >"$D/hello.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int r, n;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (!r)
		printf("hello from %d ranks\n", n);
	MPI_Finalize();
	return 0;
}
EOF
# and a hello world that talks as a stormark job does (the host names
# exchanged at the start, 600 KB reduced and 360 bytes gathered at the
# end): the MPI library's own per-peer state, which stormark cannot shrink
cat >"$D/hellox.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int r, n;
	char host[64] = "host", *hosts, rec[360] = { 0 }, *recs;
	static unsigned long long v[75000], sum[75000];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	hosts = malloc((size_t)n * 64);
	recs = malloc((size_t)n * 360);
	MPI_Allgather(host, 64, MPI_CHAR, hosts, 64, MPI_CHAR, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	v[r % 75000] = 1;
	MPI_Reduce(v, sum, 75000, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Gather(rec, 360, MPI_BYTE, recs, 360, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (!r)
		printf("hello from %d ranks, %llu\n", n, sum[0]);
	MPI_Finalize();
	return 0;
}
EOF
mpicc -O2 -o "$D/hello" "$D/hello.c" || exit 1
mpicc -O2 -o "$D/hellox" "$D/hellox.c" || exit 1
# each rank under GNU time: its own max RSS (wait4) into rss.RANK
cat >"$D/wrap.sh" <<EOF
#!/bin/sh
exec /usr/bin/time -f %M -o "$D/rss.\${OMPI_COMM_WORLD_RANK:-\${PMIX_RANK:-0}}" "\$@"
EOF
chmod +x "$D/wrap.sh"
MPI=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca rmaps_base_oversubscribe 1)

# one job: prints "wall_s rss0_kib json_bytes rc"
job() {   # N JSON-or-"" command...
  local n=$1 json=$2 t0 t1 rc rss size=0
  shift 2
  rm -f "$D"/rss.*
  t0=$(date +%s.%N)
  "${MPI[@]}" -np "$n" "$D/wrap.sh" "$@" >"$D/job.out" 2>"$D/job.err"
  rc=$?
  t1=$(date +%s.%N)
  rss=$(cat "$D/rss.0" 2>/dev/null | tail -1)
  [ -n "$json" ] && [ -f "$json" ] && size=$(stat -c %s "$json")
  echo "$(echo "$t1 - $t0" | bc) ${rss:-0} $size $rc"
}

run_cmd() {   # CMD N -> the job's line
  local cmd=$1 n=$2 w
  w=$D/w.$1.$2
  mkdir -p "$w"
  case $cmd in
    frames) job "$n" "$w/job.json" "$STORMARK" frames -w 4 -n 200 --json="$w/job.json" "$w" ;;
    fileio)
      (cd "$w" && "${MPI[@]}" -np "$n" "$STORMARK" fileio --file-num=1 --file-total-size=256K prepare >/dev/null 2>&1)
      (cd "$w" && job "$n" "$w/job.json" "$STORMARK" fileio --file-num=1 --file-total-size=256K \
         --file-test-mode=rndrd --time=0 --events=200 --json="$w/job.json" run) ;;
    meta) job "$n" "$w/job.json" "$STORMARK" meta -n 50 --warm --json="$w/job.json" "$w" ;;
    streams) job "$n" "$w/job.json" "$STORMARK" streams --rate-mib 1 --play --max-streams "$n" \
               --step 1 --time 4 --json="$w/job.json" "$w" ;;
  esac
  rm -rf "$w"
}

printf '%-8s %4s %10s %12s %9s %9s %3s\n' command N json_bytes rss0_KiB wall_s hello_s rc
: >"$D/rows"
for n in $NS; do
  h=$(job "$n" "" "$D/hello")
  printf '%-8s %4s %10s %12s %9s %9s %3s\n' hello "$n" 0 "$(echo "$h" | cut -d' ' -f2)" \
    "$(echo "$h" | cut -d' ' -f1)" "$(echo "$h" | cut -d' ' -f1)" "$(echo "$h" | cut -d' ' -f4)"
  echo "hello $n $h" >>"$D/rows"
  hx=$(job "$n" "" "$D/hellox")
  printf '%-8s %4s %10s %12s %9s %9s %3s\n' hellox "$n" 0 "$(echo "$hx" | cut -d' ' -f2)" \
    "$(echo "$hx" | cut -d' ' -f1)" "$(echo "$h" | cut -d' ' -f1)" "$(echo "$hx" | cut -d' ' -f4)"
  echo "hellox $n $hx" >>"$D/rows"
  for c in $CMDS; do
    line=$(run_cmd "$c" "$n")
    set -- $line
    printf '%-8s %4s %10s %12s %9s %9s %3s\n' "$c" "$n" "$3" "$2" "$1" "$(echo "$h" | cut -d' ' -f1)" "$4"
    echo "$c $n $line" >>"$D/rows"
    [ "$4" = 0 ] || { echo "  ($c at N=$n exited $4:" "$(tail -2 "$D/job.err" | tr '\n' ' ')" ")"; }
  done
done

"$PY" - "$D/rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
def fit(pts):
    n = len(pts)
    if n < 2:
        return None
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if not sxx:
        return None
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    return b, my - b * mx
print()
print("least squares: per added rank, and extrapolated (N 4..32, then all N)")
for cmd in dict.fromkeys(r[0] for r in rows):
    for what, col, unit, scale in (("json", 4, "KB", 1e3), ("rss0", 3, "KiB", 1.0)):
        if cmd in ("hello", "hellox") and what == "json":
            continue
        for label, lo, hi in (("4..32", 4, 32), ("all", 0, 1 << 30)):
            pts = [(int(r[1]), float(r[col])) for r in rows
                   if r[0] == cmd and lo <= int(r[1]) <= hi and r[5] == "0"]
            f = fit(pts)
            if not f:
                continue
            b, a = f
            e = lambda n: (a + b * n)
            if what == "json":
                print("  %-8s %-4s N %-5s %9.2f KB/rank   1024: %10.1f MB   4096: %10.1f MB" %
                      (cmd, what, label, b / 1e3, e(1024) / 1e6, e(4096) / 1e6))
            else:
                print("  %-8s %-4s N %-5s %9.1f KiB/rank  1024: %10.1f MiB  4096: %10.1f MiB" %
                      (cmd, what, label, b, e(1024) / 1024, e(4096) / 1024))
    for base in ("hello", "hellox"):
        if cmd in ("hello", "hellox"):
            break
        # what stormark adds over the MPI library's own growth (the RSS of
        # hello, and of hellox, which talks as a job does)
        hello = {int(r[1]): float(r[3]) for r in rows if r[0] == base}
        pts = [(int(r[1]), float(r[3]) - hello[int(r[1])]) for r in rows
               if r[0] == cmd and 4 <= int(r[1]) <= 32 and r[5] == "0" and int(r[1]) in hello]
        f = fit(pts)
        if f:
            print("  %-8s rss0 over %-6s N 4..32: %7.1f KiB/rank  1024: %8.1f MiB  4096: %8.1f MiB" %
                  (cmd, base + "'s,", f[0], (f[1] + f[0] * 1024) / 1024, (f[1] + f[0] * 4096) / 1024))
    if cmd not in ("hello", "hellox"):
        # the wall time stormark adds over hello's at each N
        hw = {int(r[1]): float(r[2]) for r in rows if r[0] == "hello"}
        over = ["%d: %+.0f%%" % (int(r[1]), 100 * (float(r[2]) - hw[int(r[1])]) / hw[int(r[1])])
                for r in rows if r[0] == cmd and int(r[1]) in hw and hw[int(r[1])] > 0]
        print("  %-8s wall over hello's: %s" % (cmd, ", ".join(over)))
    pts = [(int(r[1]), float(r[2])) for r in rows if r[0] == cmd and r[5] == "0"]
    f = fit(pts)
    if f:
        print("  %-8s wall N all  %9.3f s/rank    1024: %10.1f s    4096: %10.1f s" %
              (cmd, f[0], f[1] + f[0] * 1024, f[1] + f[0] * 4096))
PY
