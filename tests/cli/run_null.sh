#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark run with the null engine: a fixed profile (no I/O, so every
# format is real time, computed), the narrowed table (--formats, --fps) in
# text and JSON, and nothing left behind.
. "$SM_SOURCE_DIR/tests/lib.sh"

mkdir -p "$T_DIR/probe"
if "$STORMARK" frames -w 4 -n 1 "$T_DIR/probe" 2>&1 | grep -q "not implemented"; then
  skip "stormark frames is not implemented yet (sm_frames_run)"
fi

D="$T_DIR/d"
mkdir -p "$D"
echo "not stormark's" >"$D/keep.txt"

# ---- the null engine: a fixed profile, every verdict real time ---------------
"$STORMARK" run "$D" --time 2 --quiet --engine null --no-confirm --formats dpx-hd,DPX-8K-UHD \
  --fps 24,60 --json "$T_DIR/n.json" >"$T_DIR/nout" 2>&1
check "null run exit 0" test $? = 0
check "null run: every section" grep -q "Real-time verdicts" "$T_DIR/nout"
# the verdicts depend on the null engine's speed, which ThreadSanitizer
# takes away; under it only the shape of the table is checked
if [ "${SM_SANITIZER:-none}" = thread ]; then
  check "null run: 2 rows x 2 rates, computed" jq -e >/dev/null '
  (.run.verdicts | map(.format)) == ["dpx-hd", "dpx-8k-uhd"] and .params.fps == ["24", "60"] and
  all(.run.verdicts[] | (.capture + .playback)[]; .how == "computed")' "$T_DIR/n.json"
  check "null run: table rows" grep -Eq '^  dpx-8k-uhd +126\.6 ' "$T_DIR/nout"
else
# A 2 s run computes real time everywhere, but its tests last under a
# second and its write is too short to look for a cliff: with no paced run
# (--no-confirm) every cell stays unconfirmed (docs/run.md, "What a verdict
# rests on").
check "null run: 2 rows x 2 rates, computed realtime, unconfirmed" jq -e >/dev/null '
  (.run.verdicts | map(.format)) == ["dpx-hd", "dpx-8k-uhd"] and .params.fps == ["24", "60"] and
  all(.run.verdicts[] | (.capture + .playback)[]; .computed == "realtime" and
      .verdict == "unconfirmed" and .how == "computed" and (.basis | index("dip")))
  and all(.run.verdicts[] | .capture[]; .basis | index("short"))
  and .run.paced_runs == 0' "$T_DIR/n.json"
check "null run: table rows" grep -Eq '^  dpx-8k-uhd +126\.6 +\? +\? +\? +\?$' "$T_DIR/nout"
check "null run: the Summary says why" grep -q "unconfirmed (?)" "$T_DIR/nout"
fi
check "null run: engine named" jq -e >/dev/null '.params.engine == "null" and .environment.engine == "null"' "$T_DIR/n.json"
check "null run leaves nothing" test "$(ls -A "$D")" = "keep.txt"


finish
