#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Overhead of `stormark time -- true` against bare `true`, `/usr/bin/time -v
# true` and hyperfine's own measurement of `true`. hyperfine (-N, no shell)
# times every variant; the variants take turns in ROUNDS rounds of RUNS runs
# each, and the per-round median differences are summarised by their median,
# so slow drifts of this noisy machine hit every variant alike.
# STORMARK_BEFORE=path/to/an/older/stormark adds that binary as a variant
# (before/after a change, in the same rounds). Back to back, an invocation
# finds the previous one's system-call probe still registered
# (src/core/perfsys.c); COLD runs (default 10; 0 skips) spaced 2 s apart,
# so that the probe of the one before has been unregistered, show what a
# lone invocation costs.
# Usage: bench/bench-time.sh [ROUNDS] [RUNS]   (env STORMARK=path/to/stormark,
#        STORMARK_BEFORE, COLD)
set -u
ROUNDS=${1:-8}
RUNS=${2:-100}
COLD=${COLD:-10}
B=${STORMARK_BEFORE:-}
here=$(cd "$(dirname "$0")" && pwd)
S=${STORMARK:-$here/../build/stormark}
TRUE=/bin/true
command -v hyperfine >/dev/null || { echo "hyperfine is missing (scripts/deps.sh --bench)"; exit 1; }
[ -x "$S" ] || { echo "no stormark binary at $S (set STORMARK)"; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

variants=(
  "$TRUE"
  "$S time -o /dev/null -- $TRUE"
  "$S time --no-syscalls -o /dev/null -- $TRUE"
  "/usr/bin/time -v -o /dev/null $TRUE"
)
names=(bare stormark stormark_nosys gnu_time)
if [ -n "$B" ]; then
  [ -x "$B" ] || { echo "no stormark binary at $B (STORMARK_BEFORE)"; exit 1; }
  variants+=("$B time -o /dev/null -- $TRUE")
  names+=(before)
fi

echo "stormark time overhead: $ROUNDS rounds x $RUNS runs per variant, $(nproc) CPUs, $(uname -r)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  hyperfine -N --warmup 10 --runs "$RUNS" --export-json "$tmp/r$r.json" "${variants[@]}" >/dev/null 2>&1 ||
    { echo "hyperfine failed"; exit 1; }
  # stormark's own figure for `true` (median wall of RUNS runs) in the same round
  "$S" time --no-syscalls -n "$RUNS" --csv -o "$tmp/s$r.csv" -- "$TRUE"
done

if [ "$COLD" -gt 0 ]; then
  cold=("$TRUE" "$S time -o /dev/null -- $TRUE" "$S time --no-syscalls -o /dev/null -- $TRUE")
  [ -n "$B" ] && cold+=("$B time -o /dev/null -- $TRUE")
  hyperfine -N --runs "$COLD" --prepare "sleep 2" --export-json "$tmp/cold.json" "${cold[@]}" >/dev/null 2>&1 ||
    { echo "hyperfine failed"; exit 1; }
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$ROUNDS" "${names[@]}" <<'PY'
import csv, json, statistics as st, sys
tmp, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
med = {n: [] for n in names}
cpu = {n: [] for n in names}
own = []
for r in range(1, rounds + 1):
    res = json.load(open(f"{tmp}/r{r}.json"))["results"]
    for n, x in zip(names, res):
        med[n].append(x["median"] * 1e3)
        cpu[n].append((x["user"] + x["system"]) * 1e3)
    with open(f"{tmp}/s{r}.csv") as f:
        own.append(st.median(float(row["wall_ns"]) for row in csv.DictReader(f)) / 1e6)
print(f"{'variant':<16}{'median ms':>10}{'extra over bare, ms (median of rounds, min..max)':>52}")
for n in names:
    extra = [a - b for a, b in zip(med[n], med["bare"])]
    print(f"{n:<16}{st.median(med[n]):>10.3f}   {st.median(extra):>+8.3f}  ({min(extra):+.3f} .. {max(extra):+.3f})")
print("CPU time (user + system, mean per run incl. children; less sensitive to load than wall time):")
for n in names:
    extra = [a - b for a, b in zip(cpu[n], cpu["bare"])]
    print(f"  {n:<16}{st.median(cpu[n]):>8.3f} ms   extra {st.median(extra):+.3f} ms")
import os
if os.path.exists(f"{tmp}/cold.json"):
    res = json.load(open(f"{tmp}/cold.json"))["results"]
    cn = ["bare", "stormark", "stormark_nosys", "before"][:len(res)]
    base = res[0]["median"] * 1e3
    print(f"alone (runs 2 s apart, {len(res[0]['times'])} each; median ms, extra over bare):")
    for n, x in zip(cn, res):
        print(f"  {n:<16}{x['median'] * 1e3:>8.3f}   {x['median'] * 1e3 - base:+8.3f}")
diff = [a - b for a, b in zip(own, med["bare"])]
print(f"{'true as stormark sees it':<26} {st.median(own):.3f} ms  (hyperfine's figure for true: {st.median(med['bare']):.3f} ms;"
      f" difference {st.median(diff):+.3f} ms)")
PY
