#!/bin/bash
# SPDX-License-Identifier: MIT
# The share a result was measured on, as saved (environment.mount,
# docs/shares.md), in every command's reports: the canned results of
# tests/golden given an NFS mount are read back whole (`--format json`
# gives the same document), show one `share` line beside the file system
# in text, markdown and HTML, and run's Summary and streams' head say the
# answer is one client's; the same results without it show none of that.
. "$SM_SOURCE_DIR/tests/lib.sh"
G="$SM_SOURCE_DIR/tests/golden"
LINE="nfs4, server 10.0.0.1, export /vol/media: vers=4.2 proto=tcp nconnect=8 rsize=1048576 wsize=1048576 acregmin=1 lookupcache=pos hard"

# with_mount IN OUT: IN's document with an NFS mount in its environment,
# placed where the writer puts it (after mount_point)
with_mount() {
  "$PY" - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
env = {}
for k, v in d['environment'].items():
    env[k] = v
    if k == 'mount_point':
        env['mount'] = {'protocol': 'nfs4', 'kind': 'network', 'subtype': '', 'server': '10.0.0.1',
                        'export': '/vol/media',
                        'options': {'vers': '4.2', 'proto': 'tcp', 'nconnect': 8, 'rsize': 1048576,
                                    'wsize': 1048576, 'acregmin': 1, 'lookupcache': 'pos', 'hard': True}}
d['environment'] = env
json.dump(d, open(sys.argv[2], 'w'), indent=1)
EOF
}

for c in run/null streams/short meta/small fileio/async frames/write; do
  n=${c%%/*}
  with_mount "$G/$c.json" "$T_DIR/$n.json"
  "$STORMARK" report --format json "$T_DIR/$n.json" >"$T_DIR/$n.back" 2>/dev/null
  # run's summary is written again, now with the share's sentence (below)
  check "$n: read back whole, the mount with it" "$PY" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    d.get("run", {}).pop("summary", None)
sys.exit(a != b)' "$T_DIR/$n.json" "$T_DIR/$n.back"
  "$STORMARK" report --format markdown "$T_DIR/$n.json" >"$T_DIR/$n.md" 2>/dev/null
  check "$n: markdown shows the share" grep -qF -- "$LINE" "$T_DIR/$n.md"
  "$STORMARK" report --format markdown "$G/$c.json" >"$T_DIR/$n.md0" 2>/dev/null
  check "$n: without a mount, no share in markdown" test "$(grep -c "share" "$T_DIR/$n.md0")" = 0
  "$STORMARK" report --html "$T_DIR/$n.html" "$T_DIR/$n.json" >/dev/null 2>&1
  check "$n: HTML shows the share" grep -qF "<tr><td>share</td><td>$LINE</td></tr>" "$T_DIR/$n.html"
done

# the text layouts: the line under the file system, wrapped at 79 columns
for n in run streams meta fileio; do
  "$STORMARK" report --format text "$T_DIR/$n.json" >"$T_DIR/$n.txt" 2>/dev/null
  check "$n: text shows the share" grep -qF "nfs4, server 10.0.0.1, export /vol/media" "$T_DIR/$n.txt"
  check "$n: text within 80 columns" test "$(awk 'length > 79' "$T_DIR/$n.txt" | wc -l)" = 0
done
check "run: the share line in the header" grep -q "^  share        nfs4, server 10.0.0.1" "$T_DIR/run.txt"
check "fileio: the share line under the files" grep -q "^share:    nfs4, server 10.0.0.1" "$T_DIR/fileio.txt"
# run's Summary and streams' head: one client's answer, MPI for many
tr '\n' ' ' <"$T_DIR/run.txt" | tr -s ' ' >"$T_DIR/run.flat"
check "run: the Summary says the answer is one client's" \
  grep -q "On this nfs4 share the answer is one client's: other clients draw on the same server, and MPI runs measure many at once (docs/mpi.md)" "$T_DIR/run.flat"
tr '\n' ' ' <"$T_DIR/streams.txt" | tr -s ' ' >"$T_DIR/streams.flat"
check "streams: one client's answer" grep -q "On this nfs4 share the answer is one client's" "$T_DIR/streams.flat"
"$STORMARK" report "$G/run/null.json" >"$T_DIR/run0.txt" 2>/dev/null
check "run: the JSON's summary says so too" grep -q "On this nfs4 share the answer is one client's" "$T_DIR/run.back"
check "run without a mount: no share, no client sentence" test "$(grep -c "share\|one client" "$T_DIR/run0.txt")" = 0

# a mount that is not one: refused with the member named
"$PY" - "$T_DIR/frames.json" "$T_DIR/bad.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['environment']['mount']['options']['rsize'] = 'big'
json.dump(d, open(sys.argv[2], 'w'))
EOF
t_check_skip "$T_DIR/bad.json"
"$STORMARK" report "$T_DIR/bad.json" >/dev/null 2>"$T_DIR/e"
check "a mistyped option: exit 2" test $? = 2
check "a mistyped option: named" grep -q "'rsize'" "$T_DIR/e"
finish
