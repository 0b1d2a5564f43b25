#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a file includes a layer above its own (docs/architecture.md):
# data flows core -> engine -> workload -> result -> analysis -> report ->
# cmd, and a layer may include only those listed for it here.
set -u
src="${1:-$(dirname "$0")/../src}"
declare -A allowed=(
	[core]="core"
	[engine]="core engine"
	[result]="core result"
	[analysis]="core result analysis"
	[workload]="core engine result analysis workload"
	[store]="core result store"
	[mpi]="core workload result analysis report mpi"
	[report]="core result analysis report"
	[launch]=""    # the launcher of `time`: a program of its own, no project includes
)
bad=0
for layer in "${!allowed[@]}"; do
	[ -d "$src/$layer" ] || continue
	while IFS=: read -r file line inc; do
		dep=${inc#*\"}; dep=${dep%%/*}
		case " ${allowed[$layer]} " in
		*" $dep "*) ;;
		*) echo "layer violation: ${file#"$src"/}:$line includes \"${inc#*\"} ($layer may include: ${allowed[$layer]})"
		   bad=1 ;;
		esac
	done < <(grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$src/$layer"/*.[ch] 2>/dev/null)
done
# every folder under src/ must have a rule (cmd/ may include anything)
for d in "$src"/*/; do
	name=$(basename "$d")
	[ "$name" = cmd ] || [ -n "${allowed[$name]+x}" ] || { echo "layer check: no rule for src/$name/"; bad=1; }
done
[ "$bad" = 0 ] && echo "layers: ok"
exit "$bad"
