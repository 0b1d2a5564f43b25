#!/usr/bin/env bash
# Run every benchmark script in bench/ in turn (outside `make test`).
set -u
cd "$(dirname "$0")"
rc=0
for s in bench-*.sh; do
  [ -e "$s" ] || continue
  # before/after of two binaries: only when both are named
  if [ "$s" = bench-ab.sh ] && { [ -z "${STORMARK_A:-}" ] || [ -z "${STORMARK_B:-}" ]; }; then
    echo "== $s skipped (set STORMARK_A and STORMARK_B)"
    continue
  fi
  echo "== $s"
  bash "$s" || rc=1
done
exit $rc
