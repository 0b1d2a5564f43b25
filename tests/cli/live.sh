#!/bin/bash
# SPDX-License-Identifier: MIT
# --live FILE (docs/options.md, "Watching a run"): one JSON line a second
# while the test runs, each flushed as it is written, to a file, a FIFO or
# standard output; read here while the run is under way. Bad --live paths
# are refused before any work.
. "$SM_SOURCE_DIR/tests/lib.sh"
PY=/usr/bin/python3
D="$T_DIR/d"
mkdir -p "$D"

# ---- frames into a FIFO, read while it runs ----------------------------------
mkfifo "$T_DIR/fifo"
"$STORMARK" frames -w hd -t 2 --time 4 --quiet --live "$T_DIR/fifo" "$D" >"$T_DIR/f.out" 2>&1 &
pid=$!
exec 3<"$T_DIR/fifo"
IFS= read -r first <&3
kill -0 "$pid" 2>/dev/null && running=1 || running=0
cat <&3 >"$T_DIR/f.rest"
exec 3<&-
wait "$pid"
rc=$?
check "frames: exit 0" test "$rc" = 0
check "frames: the first line came while the test still ran" test "$running" = 1
printf '%s\n' "$first" | cat - "$T_DIR/f.rest" >"$T_DIR/f.jsonl"
check "frames: a line a second, each a JSON object with the series' keys, stalls and time left" \
  "$PY" - "$T_DIR/f.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert 3 <= len(lines) <= 5, len(lines)
keys = {"duration_ns", "bytes", "items", "dropped", "open_ns", "io_ns", "close_ns", "frame_ns"}
for i, l in enumerate(lines):
    assert l["command"] == "frames" and l["phase"] == "write", l
    assert keys <= set(l), l
    # whole seconds, then the last, partial one (the series' last entry)
    assert l["t_ns"] == (i + 1) * 10**9 or (i == len(lines) - 1 and l["t_ns"] > i * 10**9), l
    assert l["items"] > 0 and l["bytes"] > 0 and "stall_longest_ns" in l and "left_ns" in l, l
assert [l["left_ns"] for l in lines] == sorted([l["left_ns"] for l in lines], reverse=True)
PY

# ---- fileio into a file -------------------------------------------------------
F="$T_DIR/fio"
mkdir -p "$F"
(cd "$F" && "$STORMARK" fileio --file-total-size=32M --file-num=2 prepare >/dev/null 2>&1)
(cd "$F" && "$STORMARK" fileio --file-total-size=32M --file-num=2 --file-test-mode=rndrd \
  --file-extra-flags=direct --time=3 --live="$T_DIR/fio.jsonl" run >"$T_DIR/fio.out" 2>&1)
check "fileio: exit 0" test $? = 0
check "fileio: sysbench's report unchanged on stdout" grep -q "^File operations:" "$T_DIR/fio.out"
check "fileio: lines with the series' keys" "$PY" - "$T_DIR/fio.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) >= 2, len(lines)
for l in lines:
    assert l["command"] == "fileio" and l["phase"] == "rndrd", l
    assert {"t_ns", "duration_ns", "read_bytes", "reads", "lat_max_ns", "left_ns"} <= set(l), l
    assert l["reads"] > 0 and l["write_bytes"] == 0, l
PY
(cd "$F" && "$STORMARK" fileio --file-total-size=32M --file-num=2 cleanup >/dev/null 2>&1)

# ---- streams on standard output, the report in a file -------------------------
S="$T_DIR/s"
mkdir -p "$S"
"$STORMARK" streams "$S" --video-format dpx-sd-pal --fps 25 --play --time 8 --step 2 --trials 1 \
  --max-streams 2 --quiet --live - -o "$T_DIR/s.txt" >"$T_DIR/s.jsonl" 2>"$T_DIR/s.err"
check "streams: exit 0" test $? = 0
check "streams: the report went to its file" grep -q "^dpx-sd-pal at 25 fps, playback" "$T_DIR/s.txt"
check "streams: each second of a step and each step's end, with the cell and the step" \
  "$PY" - "$T_DIR/s.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ends = [l for l in lines if l["phase"] == "step end"]
secs = [l for l in lines if l["phase"] == "second"]
assert ends and secs, lines
for l in lines:
    assert l["command"] == "streams" and l["format"] == "dpx-sd-pal" and l["fps"] == "25", l
    assert l["direction"] == "playback" and l["streams"] >= 1 and "left_ns" in l, l
for l in ends:
    assert l["held"] in ("yes", "no") and "stalls" in l and "bytes_per_s" in l, l
PY

# ---- streams in OpenMetrics to a file: the file rewritten whole each line --
"$STORMARK" streams "$S" --video-format dpx-sd-pal --fps 25 --play --time 6 --step 2 --trials 1 \
  --max-streams 2 --quiet --live /dev/null --format openmetrics -o "$T_DIR/s.om" 2>"$T_DIR/s2.err" &
pid=$!
mkdir "$T_DIR/snaps"
n=0
while kill -0 "$pid" 2>/dev/null; do
  [ -e "$T_DIR/s.om" ] && cat "$T_DIR/s.om" >"$T_DIR/snaps/$n" && n=$((n + 1))
  sleep 0.05
done
wait "$pid"
check "streams --format openmetrics -o FILE --live: exit 0" test $? = 0
check "streams: each copy of the file taken during the run is whole, the live file or the result" \
  "$PY" - "$T_DIR/s.om" "$T_DIR"/snaps/* <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
def fams(path):
    return {f.name: f for f in parse(open(path).read())}
final = fams(sys.argv[1])
assert "stormark_streams_max_streams" in final and "stormark_live" not in final, sorted(final)
steps = set()
for p in sys.argv[2:]:
    f = fams(p)          # a partial file fails here: no "# EOF"
    if "stormark_live" in f:
        for s in f["stormark_live"].samples:
            assert s.labels["command"] == "streams" and s.labels["format"] == "dpx-sd-pal", s
            steps.add((s.labels["phase"], s.labels.get("step")))
        assert "stormark_live_left_seconds" in f, sorted(f)
    else:
        assert "stormark_streams_max_streams" in f, sorted(f)
assert ("step end", "step") in steps and any(ph == "second" for ph, _ in steps), steps
PY
check "streams: no temporary file beside the report" test -z "$(find "$T_DIR" -maxdepth 1 -name '.s.om.*')"
# ---- run: its tests by name ---------------------------------------------------
R="$T_DIR/r"
mkdir -p "$R"
"$STORMARK" run "$R" --time 30 --quiet --video-formats dpx-hd --fps 24 --live "$T_DIR/r.jsonl" \
  >/dev/null 2>&1
check "run: exit 0" test $? = 0
check "run: lines of its block and frame tests, named" "$PY" - "$T_DIR/r.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
phases = {l["phase"] for l in lines}
assert all(l["command"] == "run" and "left_ns" in l and "bytes" in l for l in lines), lines[:3]
assert any(p.startswith("seq 1 MiB") or p.startswith("rand 4 KiB") for p in phases), phases
assert any("frames" in p for p in phases), phases
PY

# ---- refused before any work --------------------------------------------------
expect_rc_says 2 "--live - and the report would both go to stdout" "--live - beside a report on stdout" \
  "$STORMARK" frames -w hd -n 2 --live - "$D"
expect_rc_says 2 "cannot write --live '/dev/zero'" "--live onto a device" \
  "$STORMARK" streams "$S" --live /dev/zero
expect_rc_says 2 "--live watches 'run'; 'prepare' has no test to watch" "fileio prepare with --live" \
  "$STORMARK" fileio --file-total-size=1M prepare --live "$T_DIR/p.jsonl"
: >"$T_DIR/same"
expect_rc_says 2 "an output never replaces an input or another output" "--live onto the report's own file" \
  "$STORMARK" run "$R" -o "$T_DIR/same" --live "$T_DIR/same"
check "nothing left in the streams and run directories" test -z "$(find "$S" "$R" -mindepth 1)"
finish
