#!/usr/bin/env bash
# Run every benchmark script in bench/ in turn (outside `make test`).
set -u
cd "$(dirname "$0")"
rc=0
for s in bench-*.sh; do
  [ -e "$s" ] || continue
  echo "== $s"
  bash "$s" || rc=1
done
exit $rc
