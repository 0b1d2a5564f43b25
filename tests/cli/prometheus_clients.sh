#!/bin/bash
# SPDX-License-Identifier: MIT
# --format prometheus read by the real consumers (docs/openmetrics.md),
# Debian's prometheus-node-exporter, promtool and prometheus:
# - promtool check metrics is clean on each command's output (frames,
#   fileio, streams, meta, time, run, and report of a saved result);
# - node_exporter on 127.0.0.1, its textfile directory holding those files
#   (written by -o, and one renamed into place by mv), serves every sample
#   of every file over HTTP, with node_textfile_scrape_error 0;
# - a Prometheus server on 127.0.0.1 scrapes node_exporter each second and
#   answers the documented PromQL through /api/v1/query: the rate of a
#   volume over 30 days, and the verdict drop alert once a file's verdict
#   went from realtime (3) to marginal (2);
# - a run watched live (--live with --format prometheus -o FILE): the file
#   is rewritten each second while the run goes on, every copy a reader
#   takes is whole (promtool clean), node_exporter serves its samples and
#   Prometheus answers for them while the run is under way, and the
#   result replaces it at the end, no temporary file left.
# Each server runs in the background and is stopped by its pid.
. "$SM_SOURCE_DIR/tests/lib.sh"
S=$STORMARK
cd "$T_DIR" || exit 1
NE=$(command -v prometheus-node-exporter || command -v node_exporter) ||
  skip "prometheus-node-exporter is missing (scripts/deps.sh installs it)"
command -v promtool >/dev/null || skip "promtool is missing (package prometheus; scripts/deps.sh installs it)"
command -v prometheus >/dev/null || skip "prometheus is missing (scripts/deps.sh installs it)"
"$PY" -c 'import prometheus_client.parser' 2>/dev/null ||
  skip "python3-prometheus-client is missing (scripts/deps.sh installs it)"

PIDS=()
ALL_PIDS=()
stop_servers() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  PIDS=()
}
trap 'stop_servers; t_cleanup' EXIT

# a free TCP port on 127.0.0.1
free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# get URL: the body, or nothing (curl or python)
get() {
  "$PY" - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end='')
EOF
}
# wait_for DESC SECS CMD...: CMD succeeds within SECS seconds (polled)
wait_for() {
  local d=$1 n=$(($2 * 5)); shift 2
  while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.2; n=$((n - 1)); done
  return 1
}

# ---- each command's output, and promtool on it
TF=$T_DIR/tf
mkdir tf vol fio sd md rd
$S frames -w 1024 -n 10 --format prometheus --output "$TF/frames.prom" --json=f.json "$T_DIR/vol" 2>/dev/null
FI="--file-total-size=2M --file-num=2 --file-dir=$T_DIR/fio --file-test-mode=rndrw"
$S fileio $FI prepare >/dev/null 2>&1
$S fileio $FI --time=1 --format prometheus -o "$TF/fileio.prom" run 2>/dev/null
$S streams "$T_DIR/sd" --rate-mib 2 --step 1 --time 2 --max-streams 1 --quiet --format prometheus \
  -o "$TF/streams.prom" 2>/dev/null
$S meta -n 50 --size 4k --format prometheus -o "$TF/meta.prom" "$T_DIR/md" 2>/dev/null
$S time -n 2 --format prometheus -o "$TF/time.prom" -- sh -c 'head -c 100000 /dev/zero >/dev/null' 2>/dev/null
$S run "$T_DIR/rd" --time 2 --quiet --engine null --no-confirm --formats dpx-hd --fps 24 \
  --format prometheus -o "$TF/run.prom" 2>/dev/null
# a saved result, its verdicts realtime in one version and one of them
# marginal in the next: report's file renamed into place by mv, as
# docs/openmetrics.md shows for a file written by another program
G=$SM_SOURCE_DIR/tests/golden/run/paced.json
command -v jq >/dev/null || skip "jq is missing (scripts/deps.sh installs it)"
cp "$G" saved.json
jq '(.run.verdicts[0].playback[0].verdict) = "marginal" | (.run.verdicts[0].playback[0].computed) = "marginal"' \
  "$G" >dropped.json
t_check_skip dropped.json
check "the saved result has a realtime cell to drop" \
  test "$(jq -r '.run.verdicts[0].playback[0].verdict' saved.json)" = realtime
$S report saved.json --format prometheus -o "$TF/.saved.tmp" && mv "$TF/.saved.tmp" "$TF/saved.prom"
$S report dropped.json --format prometheus -o dropped.prom
check "report of the dropped verdict" test -s dropped.prom

LAYOUTS="frames fileio streams meta time run saved"
for n in $LAYOUTS; do
  f=$TF/$n.prom
  if [ ! -s "$f" ]; then fail "$n: no --format prometheus output"; continue; fi
  if promtool check metrics <"$f" >pt.out 2>&1; then
    check "$n: promtool check metrics says nothing" test ! -s pt.out
  else fail "$n: promtool check metrics: $(head -3 pt.out | tr '\n' ';')"; fi
done
promtool check metrics <dropped.prom >pt.out 2>&1 && [ ! -s pt.out ] && ok || fail "dropped: promtool"
# promtool does find fault: an OpenMetrics info family and a quantile
# label on a gauge are what it refuses
$S report saved.json --format openmetrics >om.txt
check "promtool refuses OpenMetrics' info type" bash -c "! promtool check metrics <om.txt >/dev/null 2>&1"
printf '# HELP x a gauge\n# TYPE x gauge\nx{quantile="0.5"} 1\n' >bad.prom
check "promtool flags a quantile label on a gauge" bash -c "promtool check metrics <bad.prom 2>&1 | grep -q quantile"
check "the textfile directory holds only the .prom files" \
  test "$(ls -A tf | sort | tr '\n' ' ')" = "fileio.prom frames.prom meta.prom run.prom saved.prom streams.prom time.prom "

# ---- node_exporter serving the textfile directory
P1=$(free_port)
"$NE" --web.listen-address="127.0.0.1:$P1" --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory="$TF" >ne.log 2>&1 &
PIDS+=($!)
ALL_PIDS+=($!)
url1="http://127.0.0.1:$P1/metrics"
served() { get "$url1" >served.txt && grep -q '^node_textfile_scrape_error' served.txt; }
if ! wait_for "node_exporter" 15 served; then
  fail "node_exporter serves nothing on 127.0.0.1:$P1: $(tail -3 ne.log | tr '\n' ';')"
  finish
fi
check "node_exporter: node_textfile_scrape_error 0" grep -q '^node_textfile_scrape_error 0$' served.txt
check "node_exporter: no error in its log" bash -c "! grep -qi 'level=error' ne.log"
# every sample of every file is served with its value (a label node_exporter
# fills with "" where a family's other samples have it is no label)
cat >served.py <<'EOF'
import sys
from prometheus_client.parser import text_string_to_metric_families as parse

def samples(text):
    out = {}
    for f in parse(text):
        for s in f.samples:
            k = (s.name, frozenset((a, b) for a, b in s.labels.items() if b != ''))
            out[k] = s.value
    return out

served = samples(open(sys.argv[1]).read())
n = bad = 0
for path in sys.argv[2:]:
    for k, v in samples(open(path).read()).items():
        n += 1
        if k not in served:
            bad += 1
            print('%s: not served: %s%s' % (path, k[0], dict(k[1])))
        elif served[k] != v:
            bad += 1
            print('%s: %s served as %r, the file says %r' % (path, k[0], served[k], v))
print('%d samples in the files, %d not served as written' % (n, bad))
sys.exit(1 if bad or not n else 0)
EOF
files=()
for n in $LAYOUTS; do files+=("$TF/$n.prom"); done
if "$PY" served.py served.txt "${files[@]}" >sv.out 2>&1; then ok
else fail "node_exporter: $(head -5 sv.out | tr '\n' ';')"; fi
echo "node_exporter: $(tail -1 sv.out)"
check "node_exporter: a sample of each file" \
  test "$(grep -c '^node_textfile_mtime_seconds{file=' served.txt)" = "$(echo $LAYOUTS | wc -w)"

# ---- a Prometheus server scraping node_exporter each second
P2=$(free_port)
cat >prometheus.yml <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$P1"]
EOF
prometheus --config.file=prometheus.yml --storage.tsdb.path="$T_DIR/tsdb" \
  --web.listen-address="127.0.0.1:$P2" >prom.log 2>&1 &
PIDS+=($!)
ALL_PIDS+=($!)
# query PROMQL: the result vector of /api/v1/query as "labels value" lines
query() {
  "$PY" - "http://127.0.0.1:$P2/api/v1/query" "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + '?' + urllib.parse.urlencode({'query': sys.argv[2]})
d = json.load(urllib.request.urlopen(url, timeout=5))
if d.get('status') != 'success':
    sys.exit(1)
for r in d['data']['result']:
    m = r['metric']
    print(','.join('%s=%s' % kv for kv in sorted(m.items())), r['value'][1])
EOF
}
has() { [ -n "$(query "$1" 2>/dev/null)" ]; }
VOL="stormark_frames_throughput_bytes_per_second{dir=\"$T_DIR/vol\",direction=\"write\"}"
if ! wait_for "prometheus" 30 has "$VOL"; then
  fail "prometheus: no sample of $VOL: $(grep -i 'level=error' prom.log | tail -2 | tr '\n' ';')"
  finish
fi
want=$(sed -n "s/^stormark_frames_throughput_bytes_per_second{.*} //p" "$TF/frames.prom")
got=$(query "avg_over_time(${VOL}[30d])" | awk '{print $NF}')
echo "PromQL avg_over_time(...[30d]): $got (the file: $want)"
check "PromQL: the rate over 30 days is the probe's" \
  "$PY" -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "${got:-nan}" "$want"
# the verdict drop: no series before; the realtime cell seen as 3, then
# the file replaced by the one where it is marginal (2)
DROP='stormark_run_verdict < max_over_time(stormark_run_verdict[1d])'
CELL='stormark_run_verdict{dir="/tmp/gold/d2",format="dpx-hd",direction="play",fps="24"}'
cell_is_3() { [ "$(query "$CELL" 2>/dev/null | awk '{print $NF}')" = 3 ]; }
check "PromQL: the realtime cell is 3" wait_for "verdict 3" 15 cell_is_3
check "PromQL: no verdict dropped yet" test -z "$(query "$DROP")"
cp dropped.prom "$TF/.saved.tmp" && mv "$TF/.saved.tmp" "$TF/saved.prom"
check "PromQL: the verdict drop is seen" wait_for "drop" 15 has "$DROP"
query "$DROP" >drop.out
echo "PromQL $DROP: $(cat drop.out)"
check "PromQL: the one cell that dropped, now 2" \
  bash -c "[ \$(wc -l <drop.out) = 1 ] && grep -q 'direction=play,.*fps=24.* 2$' drop.out"

# ---- a run watched live: the file rewritten whole each second
mkdir lv snaps
LIVE=$TF/live.prom
LVSEL="dir=\"$T_DIR/lv\""
$S frames -w 4 -n 1000000 --time 6 --live live.jsonl --format prometheus --output "$LIVE" "$T_DIR/lv" \
  2>live.err &
LPID=$!
ALL_PIDS+=($LPID)
i=0
live_served=0 live_queried=0
while kill -0 "$LPID" 2>/dev/null; do
  [ -e "$LIVE" ] && cat "$LIVE" >"snaps/$i" 2>/dev/null && i=$((i + 1))
  if [ $live_served = 0 ] && get "$url1" >lserved.txt &&
     grep -q "^stormark_live_elapsed_seconds{.*$LVSEL" lserved.txt &&
     grep -q '^node_textfile_scrape_error 0$' lserved.txt; then live_served=1; fi
  if [ $live_served = 1 ] && [ $live_queried = 0 ] &&
     has "stormark_live_elapsed_seconds{$LVSEL}" && kill -0 "$LPID" 2>/dev/null; then live_queried=1; fi
  sleep 0.1
done
wait "$LPID"
check "live: the run ended well" test $? = 0
check "live: node_exporter served the live samples while the run went on" test $live_served = 1
check "live: Prometheus answered for them while the run went on" test $live_queried = 1
nlive=0 nfinal=0 nbad=0 elapsed=
for f in snaps/*; do
  if ! promtool check metrics <"$f" >pt.out 2>&1 || [ -s pt.out ]; then
    nbad=$((nbad + 1)); echo "live: $f: $(head -2 pt.out | tr '\n' ';')"; continue
  fi
  if grep -q '^stormark_live_info{' "$f"; then
    nlive=$((nlive + 1))
    elapsed="$elapsed $(sed -n 's/^stormark_live_elapsed_seconds{.*} //p' "$f")"
  elif grep -q '^stormark_frames_throughput_bytes_per_second{' "$f"; then nfinal=$((nfinal + 1))
  else nbad=$((nbad + 1)); echo "live: $f is neither the live file nor the result"; fi
done
echo "live: $i copies taken: $nlive live, $nfinal the result, $nbad bad; elapsed seen:$(echo $elapsed | tr ' ' '\n' | sort -un | tr '\n' ' ')"
check "live: every copy a reader took is whole (promtool clean)" test $nbad = 0
check "live: the file moved on while the run went on (3 seconds or more seen)" \
  test "$(echo $elapsed | tr ' ' '\n' | sort -un | wc -l)" -ge 3
check "live: at the end the file is the result" grep -q '^stormark_frames_throughput_bytes_per_second{' "$LIVE"
check "live: ... and nothing of the live file" bash -c "! grep -q '^stormark_live' '$LIVE'"
check "live: the JSON lines went to --live" test "$(grep -c '"phase": "write"' live.jsonl)" -ge 3
check "live: no temporary file left in the textfile directory" \
  test "$(ls -A tf | sort | tr '\n' ' ')" = "fileio.prom frames.prom live.prom meta.prom run.prom saved.prom streams.prom time.prom "

stop_servers
for p in "${ALL_PIDS[@]}"; do
  check "server $p is stopped" bash -c "! kill -0 $p 2>/dev/null"
done

finish
