#!/usr/bin/env bash
# End-to-end tests of the figures of paced frames runs (docs/pacing.md): the
# frame rate is over the schedule, not the I/O; sched_lat_ns means time from
# schedule in capture and playback alike, lateness has its own keys; text
# and JSON histograms cover the same -h window; the -x CSV agrees with the
# JSON.
. "$SM_SOURCE_DIR/tests/lib.sh"
D="$T_DIR/set"; mkdir -p "$D"
cd "$T_DIR"


expect_rc 0 "frames to play" "$STORMARK" frames -w 64 -n 40 "$D"

# --- playback at 10 fps: the display rate, not the read rate -------------------
# 30 frames at 10 fps are shown over 3.0 s from the display's start; the
# reads end about q frames earlier, which once reported 12.9 fps.
expect_rc 0 "playback at 10 fps" "$STORMARK" frames -r -n 30 -f 10 -q 8 -b 5 -x pb.csv --json pb.json "$D"
cp "$T_DIR/out" pb.out
check "playback: schedule span = frames judged x interval" \
  test "$(json pb.json 'd["frames"]["paced"]["schedule_ns"] == d["frames"]["scheduled"] * 100000000')" = True
check "playback: rate = frames shown / span, at most the asked rate" \
  test "$(json pb.json 'abs(d["frames"]["paced"]["frames_per_s"] - 10 * (d["frames"]["scheduled"] - d["frames"]["dropped"]) / d["frames"]["scheduled"]) < 1e-9 and d["frames"]["paced"]["frames_per_s"] <= 10')" = True
check "playback: shown frames counted" \
  test "$(json pb.json 'd["frames"]["paced"]["frames"] == d["frames"]["scheduled"] - d["frames"]["dropped"]')" = True
rate=$(json pb.json '"%.2f" % d["frames"]["paced"]["frames_per_s"]')
check "playback: the text says the same rate ($rate)" grep -q "^Overall frame rate .... $rate fps" pb.out
check "playback: transfer rate stays over duration_ns" \
  test "$(json pb.json 'abs(d["totals"]["items_per_s"] - d["totals"]["items"] / (d["duration_ns"] / 1e9)) < 1e-6 * d["totals"]["items_per_s"]')" = True

check "playback: the JSON carries the text's parameters line and the CSV path" \
  grep -qx "Test parameters: $(json pb.json 'd["params"]["frametest_params"]')" pb.out
check "playback: params.csv" test "$(json pb.json 'd["params"]["csv"]')" = pb.csv

# --- playback: one meaning per key ---------------------------------------------
check "playback: sched_lat_ns covers every frame read" \
  test "$(json pb.json 'd["ops"]["frame"]["sched_lat_ns"]["histogram"]["counts"] and sum(c for _, c in d["ops"]["frame"]["sched_lat_ns"]["histogram"]["counts"]) == d["frames"]["transferred"]')" = True
check "playback: lateness in its own keys" \
  test "$(json pb.json 'all(k in d["frames"]["lateness_ns"] for k in ("early", "late")) and "early_ns" not in d["frames"]')" = True
check "playback: CSV sched_ms = q x interval + lateness_ms from frame q on" python3 - pb.csv pb.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
# a frame skipped on a stalled machine (due before it could be read) has no row
assert len(rows) == d["frames"]["transferred"] >= 20, len(rows)
n = 0
for r in rows:
    if int(r["seq"]) >= 8:
        assert r["lateness_ms"] != "", r
        want = max(0.0, 8 * 100 + float(r["lateness_ms"]))
        assert abs(float(r["sched_ms"]) - want) < 0.0021, (r, want)
        n += 1
assert n >= 12, n
PY
check "playback: JSON sched_lat max = CSV max sched_ms" python3 - pb.csv pb.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
m = max(float(r["sched_ms"]) for r in rows) * 1e6
j = d["ops"]["frame"]["sched_lat_ns"]["max"]
assert abs(j - m) <= 0.01 * m + 1000, (j, m)
PY

# --- capture at 10 fps: frames written per second of the schedule ---------------
mkdir -p C
expect_rc 0 "capture at 10 fps" "$STORMARK" frames -w 64 -n 20 -f 10 -x cap.csv --json cap.json C
cp "$T_DIR/out" cap.out
check "capture: span = 20 intervals" test "$(json cap.json 'd["frames"]["paced"]["schedule_ns"]')" = 2000000000
check "capture: rate = written / span" \
  test "$(json cap.json 'abs(d["frames"]["paced"]["frames_per_s"] - d["frames"]["transferred"] / 2.0) < 1e-9')" = True
rate=$(json cap.json '"%.2f" % d["frames"]["paced"]["frames_per_s"]')
check "capture: the text says the same rate ($rate)" grep -q "^Overall frame rate .... $rate fps" cap.out
check "capture: sched_lat_ns = CSV sched_ms (from arrival)" python3 - cap.csv cap.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
assert all(r["lateness_ms"] == "" for r in rows)
v = sorted(float(r["sched_ms"]) * 1e6 for r in rows)
h = d["ops"]["frame"]["sched_lat_ns"]
assert sum(c for _, c in h["histogram"]["counts"]) == len(rows) == 20
assert abs(h["max"] - v[-1]) <= 0.01 * v[-1] + 1000, (h["max"], v[-1])
assert abs(h["min"] - v[0]) <= 0.01 * v[0] + 1000, (h["min"], v[0])
PY

# --- -h: text and JSON histograms of the same window -------------------------------
# 5 s at 20 fps with a 2 s window: the window holds about 40 of 100 frames.
expect_rc 0 "histogram window of 2 s" "$STORMARK" frames -r -n 100 -l 40 -f 20 -h 2 --json h.json "$D"
cp "$T_DIR/out" h.out
# (the span covered is at least the window; samples a second apart make it
# up to a second more, a stalled sampler more still: the JSON says which)
check "-h: window asked and covered" \
  test "$(json h.json 'd["frames"]["histogram"]["window_ns"] == 2000000000 and 2e9 <= d["frames"]["histogram"]["covered_ns"] <= d["duration_ns"]')" = True
check "-h: the columns count the window's frames, fewer than the run's" \
  test "$(json h.json '0 < sum(d["frames"]["histogram"]["columns"]) == sum(c for _, c in d["frames"]["histogram"]["frame_ns"]["histogram"]["counts"]) and (sum(d["frames"]["histogram"]["columns"]) < d["frames"]["transferred"] or d["frames"]["histogram"]["covered_ns"] == d["duration_ns"])')" = True
check "-h: the text histogram is drawn from the JSON columns" python3 - h.json h.out <<'PY'
import json, sys
cols = json.load(open(sys.argv[1]))["frames"]["histogram"]["columns"]
text = open(sys.argv[2]).read().split("Histogram of frame completion times:\n")[1].split("\n")[:10]
total = sum(cols)
pct = [100.0 * c / total if total else 0 for c in cols]
m = max(pct)
scale = 20 if m <= 20 else 50 if m <= 50 else 100
for i, row in enumerate(range(10, 0, -1)):
    need = scale * (row - 0.5) / 10
    want = "".join("*" if p >= need else " " for p in pct).rstrip()
    got = text[i].split("|", 1)[1]
    assert got == want, (row, got, want)
PY
expect_rc 0 "no -h: the whole run" "$STORMARK" frames -r -n 20 --json h0.json "$D"
check "no -h: window 0, the run's frames" \
  test "$(json h0.json 'd["frames"]["histogram"]["window_ns"] == 0 and sum(d["frames"]["histogram"]["columns"]) == 20')" = True

# --- a CSV that cannot be written fails the run ----------------------------------
# (/dev/full is a character device, refused before the run: outkinds.sh
# writes on a full file system)
if [ -w /dev/full ]; then
  expect_rc 2 "CSV on a character device" "$STORMARK" frames -r -n 5 -x /dev/full "$D"
  check "CSV refusal named" grep -q "cannot write -x '/dev/full': it is a character device" "$T_DIR/out"
fi

finish
