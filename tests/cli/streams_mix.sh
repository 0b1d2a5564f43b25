#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark streams --mix (fast; no timing figure is asserted: the disk is
# shared): a bad SPEC is one line naming the bad group, exit 2, nothing
# made; a light mix of a single-file playback group and a frame-sequence
# capture group runs at once, its report per group and in total in every
# layout (text, markdown, csv, JSON, HTML with each group's rate over
# time), all saying one thing, and the exit code says whether it held; a
# mix that cannot be measured (no room) exits 1; the search beside a mix
# carries the mix in every step. Ground truth: streams_mix_throttle.sh.
. "$SM_SOURCE_DIR/tests/lib.sh"
. "$SM_SOURCE_DIR/tests/fusefail/mount.sh"
D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/m.json"
MIX='1xprores-proxy-hd@25:play,1xv210-sd-ntsc@23.976:capture'
jqe() { jq -e "$@" >/dev/null; }

# ---- a bad SPEC: one line naming the group, exit 2, nothing made -------------------
bad() {
  local desc=$1 want=$2
  shift 2
  expect_rc 2 "$desc" "$STORMARK" streams "$D" "$@"
  check "$desc: one line" test "$(wc -l <"$T_DIR/out")" = 1
  check "$desc: it says which group and why" grep -qF -- "$want" "$T_DIR/out"
  check "$desc: nothing made" test -z "$(ls -A "$D")"
}
bad "an unknown format" "stormark streams: bad --mix group '2xfoo@25:play': no stream format 'foo'" \
  --mix "1xprores-hq-hd@25:play,2xfoo@25:play"
bad "a count of 0" "bad --mix group '0xdpx-2k@24:capture': the count is not 1 to 1024" --mix 0xdpx-2k@24:capture
bad "no count" "bad --mix group 'dpx-2k@24:play': expected COUNTxFORMAT@FPS:play|capture" --mix dpx-2k@24:play
bad "no such rate" "bad --mix group '1xdpx-2k@26:play': no frame rate '26'" --mix 1xdpx-2k@26:play
bad "a rate the vendor names not" "bad --mix group '1xxavc-s-i-uhd@25:play': 'xavc-s-i-uhd' has no published rate at 25 fps" \
  --mix 1xxavc-s-i-uhd@25:play
bad "no direction" "bad --mix group '1xdpx-2k@24:record': 'record' is neither play nor capture" --mix 1xdpx-2k@24:record
bad "an empty group" "bad --mix group an empty group" --mix "1xdpx-2k@24:play,,1xdpx-2k@24:play"
bad "too many streams" "the mix would have 1025 streams, at most 1024" --mix "1000xdpx-hd@25:play,25xdpx-hd@25:play"
printf '# the editing room\n2xprores-hq-hd@25:play\n\n1xdpx-2k@24:jump   # ingest\n' >"$T_DIR/bad.mix"
bad "a file's bad line" "bad --mix group in '$T_DIR/bad.mix' line 4: '1xdpx-2k@24:jump': 'jump' is neither play nor capture" \
  --mix "@$T_DIR/bad.mix"
bad "no such file" "cannot read the --mix file '$T_DIR/none.mix'" --mix "@$T_DIR/none.mix"
bad "--play beside a mix needs a format" "--play with --mix needs --video-format" --mix "$MIX" --play

# ---- a light mix: 4.5 MiB/s read from one file, 21.3 MiB/s written a file a frame --
"$STORMARK" streams "$D" --mix "$MIX" --step 2 --quiet --json="$J" -o "$T_DIR/m.txt" \
  --html="$T_DIR/m.html" 2>"$T_DIR/m.err"
rc=$?
held=$(jq '.mix.held' "$J")
echo "mix $MIX: exit $rc, held $held; groups [group, held, drops, p99.9 ns, moved B/s]:" \
  "$(jq -c '[.mix.groups[] | [.group, .held, .dropped, .p99_9_sched_ns, .bytes_per_s]]' "$J")"
check "exit 0 when it holds, 1 when not (exit $rc, held $held)" \
  sh -c "[ '$rc' = 0 -a '$held' = true ] || [ '$rc' = 1 -a '$held' = false ]"
check "no error line" test ! -s "$T_DIR/m.err"
check "the mix's step has the tool's CPU" jqe '.mix.step.cpu_ns > 0' "$J"
check "the text says it" grep -Eq '^Tool CPU: [0-9]+% of one core, [0-9.]+ us per stream per second\.$' "$T_DIR/m.txt"
check "the mix's groups as planned" jqe --arg m "$MIX" '.mix | .spec == $m and .streams == 2 and .measured and
  ([.groups[] | [.group, .kind, .direction, .streams]] == [["1xprores-proxy-hd@25:play", "file", "playback", 1],
   ["1xv210-sd-ntsc@23.976:capture", "sequence", "capture", 1]])' "$J"
check "each group needs its published rate (38 Mbit/s; 933888 B x 24000/1001)" \
  jqe '.mix.groups[0].needed_bytes_per_s == 4750000 and (.mix.groups[1].needed_bytes_per_s - 933888 * 24000 / 1001 | fabs) < 0.01' "$J"
check "a group holds when all its streams do" \
  jqe '[.mix.groups[] | .held == (.streams_held == .streams)] | all' "$J"
check "the mix holds when every group does" jqe '.mix.held == ([.mix.groups[].held] | all) and .mix.total.held == .mix.held' "$J"
check "the total is the groups' sum" jqe '.mix as $m | [.mix.groups[] | .dropped] | add == $m.total.dropped and
  ([$m.groups[].bytes] | add) == $m.total.bytes and ([$m.groups[].p99_9_sched_ns] | max) == $m.total.p99_9_sched_ns' "$J"
check "the step: both streams, and their bytes the total's" \
  jqe '.mix | (.step.per_stream | length) == 2 and ([.step.per_stream[].bytes] | add) == .total.bytes' "$J"
check "each group's series: its bytes, second by second" \
  jqe '[.mix.groups[] | ([.series.bytes[]] | add) == .bytes] | all' "$J"
check "the total's series: the groups' second by second" \
  jqe '.mix | [range(.total.series.bytes | length) as $i | ([.groups[].series.bytes[$i]] | add) == .total.series.bytes[$i]] | all' "$J"
check "capture: whole frames of 933888 B" jqe '.mix.groups[1] | .bytes == .done * 933888' "$J"
check "nothing left behind" test -z "$(ls -A "$D")"
if python3 -c 'import jsonschema' 2>/dev/null; then
  check "the JSON fits the schema" python3 "$SM_SOURCE_DIR/scripts/check-schema.py" \
    "$SM_SOURCE_DIR/docs/stormark.schema.json" "$J"
fi
# the text: a row per group, the total, the verdict
yn() { jq -r "if $1 then \"yes\" else \"no\" end" "$J"; }
# at 80 columns a group's name stands on its line, its figures on the next
figs() { grep -A1 -x -- "$1" "$2" | sed -n 2p; }
check "text: the group rows" grep -Eq "^ +1  $(yn '.mix.groups[0].held')" <(figs 1xprores-proxy-hd@25:play "$T_DIR/m.txt")
check "text: the total row" grep -Eq "^ +2  $(yn '.mix.held')" <(figs total "$T_DIR/m.txt")
check "text: every line fits 80 columns" awk 'length($0) > 79 { bad = 1 } END { exit bad }' "$T_DIR/m.txt"
if [ "$held" = true ]; then
  check "text: the verdict" grep -qx "The mix holds: every group held." "$T_DIR/m.txt"
fi
check "text: no search table without a format" sh -c "! grep -q '^format ' '$T_DIR/m.txt'"
# every layout again from the JSON, as the live run wrote it
"$STORMARK" report "$J" --format text >"$T_DIR/r.txt"
check "report: the text as live" cmp -s "$T_DIR/m.txt" "$T_DIR/r.txt"
"$STORMARK" report "$J" --format json >"$T_DIR/r.json"
check "report: the JSON as live" cmp -s "$J" "$T_DIR/r.json"
"$STORMARK" report "$J" --format html >"$T_DIR/r.html"
check "report: the HTML as live" cmp -s "$T_DIR/m.html" "$T_DIR/r.html"
# the groups table read as a browser parses it (an open cell ends at the
# next cell or row): 7 cells a row, no markup
# in a cell's text, and the drops and held cells are the JSON's
mix_cells() {
  python3 -c '
import html.parser, sys
class P(html.parser.HTMLParser):
    rows, tab, cell = [], False, None
    def close(self):
        if self.cell is not None: self.rows[-1].append(self.cell); self.cell = None
    def handle_starttag(self, t, a):
        if t == "table": self.tab = dict(a).get("id") == "mix-table"
        elif self.tab and t == "tr": self.close(); self.rows.append([])
        elif self.tab and t == "td": self.close(); self.cell = ""
    def handle_endtag(self, t):
        if t == "table": self.close(); self.tab = False
        elif self.tab and t in ("td", "tr"): self.close()
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
for r in p.rows[1:]: print("|".join(r))
' "$1"
}
mix_cells "$T_DIR/r.html" >"$T_DIR/r.cells"
check "html: a row per group and the total" test "$(wc -l <"$T_DIR/r.cells")" = 3
check "html: 7 cells in each row" test "$(awk -F'|' 'NF != 7' "$T_DIR/r.cells" | wc -l)" = 0
check "html: no markup in a cell" sh -c "! grep -q '[<>]' '$T_DIR/r.cells'"
check "html: group, streams, held and drops as the JSON" test "$(cut -d'|' -f1-4 "$T_DIR/r.cells" | head -2)" = \
  "$(jq -r '.mix.groups[] | [.group, .streams, (if .held then "yes" else "no (\(.streams_held) of \(.streams))" end), .dropped] | map(tostring) | join("|")' "$J")"
check "html: the moved rate ends in /s" test "$(cut -d'|' -f6 "$T_DIR/r.cells" | grep -c '/s$')" = 3
expect_rc 0 "markdown" "$STORMARK" report "$J" --format markdown
check "markdown: the groups table" grep -q '^| 1xv210-sd-ntsc@23.976:capture | 1 | ' "$T_DIR/out"
expect_rc 0 "csv" "$STORMARK" report "$J" --format csv
check "csv: header" grep -qx 'kind,group,format,fps,direction,streams,held,dropped,p99_9_sched_ns,bytes_per_s,needed_bytes_per_s,streams_headroom' "$T_DIR/out"
check "csv: a row per group and the total" test "$(cut -d, -f1 "$T_DIR/out" | tail -n +2 | tr '\n' ' ')" = "group group total "
check "csv: the group rows are the JSON's" test "$(sed -n 2p "$T_DIR/out" | cut -d, -f2,6,7,8,9)" = \
  "$(jq -r '.mix.groups[0] | [.group, .streams, (if .held then 1 else 0 end), .dropped, .p99_9_sched_ns] | map(tostring) | join(",")' "$J")"

# ---- HTML: the mix, each group's rate over time --------------------------------------
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
  . "$SM_SOURCE_DIR/tests/html_lib.sh"
  h_check m "$T_DIR/m.html"
  h_sections m run environment parameters mix
  h_drawn m chart-mix-0 chart-mix-1 chart-mix-total
  h_clean m
fi

# ---- a group given twice is one group: one OpenMetrics series per group -------------
"$STORMARK" streams "$D" --mix '1xprores-proxy-hd@25:play,1xprores-proxy-hd@25:playback' --step 1 --quiet \
  --format openmetrics >"$T_DIR/dup.om" 2>"$T_DIR/dup.err"
check "a group twice: exit 0" test $? = 0
check "a group twice: one group of 2 streams" \
  grep -q '^stormark_streams_mix_group_held{.*mix="2xprores-proxy-hd@25:play",group="2xprores-proxy-hd@25:play",' "$T_DIR/dup.om"
check "a group twice: no series repeated" test -z "$(grep -v '^#' "$T_DIR/dup.om" | sed 's/} .*/}/' | sort | uniq -d)"

# ---- the same mix from a file --------------------------------------------------------
printf '# the edit suite\n1xprores-proxy-hd@25:play\n\n1xv210-sd-ntsc@23.976:capture  # ingest\n' >"$T_DIR/ok.mix"
"$STORMARK" streams "$D" --mix "@$T_DIR/ok.mix" --step 1 --quiet --json="$T_DIR/f.json" >/dev/null 2>&1
check "@FILE: the same groups" jqe --arg m "$MIX" '.mix.spec == $m' "$T_DIR/f.json"

# ---- a mix that does not hold, as every layout says it -------------------------------
jq '.mix.held = false | .mix.total.held = false | .mix.total.streams_held = 1 |
    .mix.groups[1].held = false | .mix.groups[1].streams_held = 0 | .mix.groups[1].dropped = 7 |
    .mix.step.complete = true' "$J" >"$T_DIR/no.json"
expect_rc 0 "a failed mix: text" "$STORMARK" report "$T_DIR/no.json" --format text
check "failed: the verdict names the group" \
  grep -qx 'The mix does not hold: 1 of 2 groups failed (1xv210-sd-ntsc@23.976:capture).' "$T_DIR/out"
check "failed: the group's row" grep -Eq '^ +1  no \(0 of 1\) +7 ' <(figs 1xv210-sd-ntsc@23.976:capture "$T_DIR/out")
expect_rc 0 "a failed mix: html" "$STORMARK" report "$T_DIR/no.json" --format html
check "failed: the html says so" grep -q '<td class="v-no">the mix does not hold</td>' "$T_DIR/out"
mix_cells "$T_DIR/out" >"$T_DIR/no.cells"
check "failed: the html row of the failed group" grep -qx '1xv210-sd-ntsc@23.976:capture|1|no (0 of 1)|7|.*' "$T_DIR/no.cells"

# ---- no room for the mix: not measured, exit 1 ---------------------------------------
T="$T_DIR/small"
if tmpfs_mount "$T" 4m; then
  "$STORMARK" streams "$T" --force --mix '1xdpx-sd-pal@24:play' --step 2 --json="$T_DIR/room.json" \
    >"$T_DIR/room.out" 2>"$T_DIR/room.err"
  rc=$?
  check "no room: exit 1 (got $rc)" test "$rc" = 1
  check "no room: one line says why" grep -qx "stormark: the mix was not measured: no room for the mix's playback files" "$T_DIR/room.err"
  check "no room: not measured, not held" jqe '.mix.measured == false and .mix.held == false and (has("total") | not)' "$T_DIR/room.json"
  check "no room: the text says so" grep -q "^Not measured: no room for the mix's playback files" "$T_DIR/room.out"
  check "no room: nothing left" test -z "$(ls -A "$T")"
else
  echo "cannot mount a tmpfs: the no-room case is not checked"
fi

# ---- beside the mix: the mix in every step --------------------------------------------
B="$T_DIR/b.json"
"$STORMARK" streams "$D" --mix '1xprores-proxy-hd@25:play' --rate-mib 2 --play --step 1 --time 10 \
  --max-streams 2 --quiet --json="$B" -o "$T_DIR/b.txt"
rc=$?
check "beside: exit 0 when the mix holds, 1 when not (exit $rc)" \
  sh -c "[ '$rc' = 0 -a \"\$(jq .mix.held '$B')\" = true ] || [ '$rc' = 1 -a \"\$(jq .mix.held '$B')\" = false ]"
if jq -e '.mix.held' "$B" >/dev/null; then
  check "beside: the demand of the mix's playback" jqe '.streams[0].beside_mix_bytes_per_s == 4750000' "$B"
  check "beside: every step ran the mix's stream" jqe '[.streams[0].steps[] | (.mix.per_stream | length) == 1] | all' "$B"
  check "beside: a step's bytes are its streams' and the mix's (both playback)" \
    jqe '[.streams[0].steps[] | .bytes == ([.per_stream[].bytes] | add) + .mix.bytes] | all' "$B"
  check "beside: a step holds only when the mix does" \
    jqe '[.streams[0].steps[] | select(.held) | .mix.held] | all' "$B"
  check "beside: the text says 'beside the mix'" grep -q '^Beside the mix:' "$T_DIR/b.txt"
  expect_rc 0 "beside: csv" "$STORMARK" report "$B" --format csv
  check "beside: csv rows group, total, more" test "$(cut -d, -f1 "$T_DIR/out" | tail -n +2 | tr '\n' ' ')" = "group total more "
  check "beside: the more row is the cell's answer" test "$(grep '^more,' "$T_DIR/out" | cut -d, -f6,12)" = \
    "$(jq -r '.streams[0] | "\(.max_streams),\(.max_streams_headroom)"' "$B")"
fi
# capture beside a playback mix: the mix's bytes are not the capture's
"$STORMARK" streams "$D" --mix '1xprores-proxy-hd@25:play' --rate-mib 2 --capture --step 1 --time 3 \
  --max-streams 1 --quiet --json="$T_DIR/c.json" >/dev/null 2>&1
if jq -e '.mix.held and (.streams[0].steps | length) > 0' "$T_DIR/c.json" >/dev/null; then
  check "beside, capture: no capture in the mix, no base" jqe '.streams[0].beside_mix_bytes_per_s == 0' "$T_DIR/c.json"
  check "beside, capture: a step's bytes are its own streams'" \
    jqe '[.streams[0].steps[] | .bytes == ([.per_stream[].bytes] | add)] | all' "$T_DIR/c.json"
fi
check "beside: nothing left behind" test -z "$(ls -A "$D")"
finish
