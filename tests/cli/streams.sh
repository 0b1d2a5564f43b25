#!/bin/bash
# SPDX-License-Identifier: MIT
# stormark streams, fast checks (no timing figure is asserted: the disk is
# shared): --list, a short search in both directions with the JSON's
# structure and its internal agreement (each step's streams, a held step
# drops nothing, headroom <= held, capture before playback), the text and
# markdown layouts, SIGINT (exit 130, a partial report, nothing left), and
# that the test directory is removed. Ground truth: streams_throttle.sh.
. "$SM_SOURCE_DIR/tests/lib.sh"
D="$T_DIR/d"
mkdir -p "$D"
J="$T_DIR/s.json"
jqe() { jq -e "$@" >/dev/null; }

expect_rc 0 "--list" "$STORMARK" streams --list
check "--list names ProRes and DNxHR formats" grep -q '^prores-hq-uhd ' "$T_DIR/out"
check "--list: the codec of a family" grep -q 'prores-hq = Apple ProRes 422 HQ[;]*$' "$T_DIR/out"
check "--list: every line fits 80 columns" awk 'length($0) > 79 { bad = 1 } END { exit bad }' "$T_DIR/out"
check "--list: dnxhr-444-4k-dci" grep -q '^dnxhr-444-4k-dci ' "$T_DIR/out"
# Sony XAVC S-I UHD: "60p 600M", "50p 500M" (Sony's Help Guides), none at
# 24, 25 or 30 (columns 23.976 24 25 29.97 30 50 59.94 60, in MiB/s).
check "--list: xavc-s-i-uhd at 500/600 Mbit/s, '-' where Sony publishes none" \
  grep -Eq '^xavc-s-i-uhd +- +- +- +- +- +59\.60 +71\.53 +71\.53$' "$T_DIR/out"
check "--list: XAVC S 4K 30p/25p 100M, 24p 100M" \
  grep -Eq '^xavc-s-100-uhd .* 11\.92 +11\.92 +11\.92 +11\.92 +11\.92 +- +- +-$' "$T_DIR/out"
check "--list: an HEVC camera original" grep -q 'xavc-hs-200 = Sony XAVC HS 200M (HEVC)' "$T_DIR/out"
check "--list: XAVC S-I DCI 4K" grep -q '^xavc-s-i-4k-dci ' "$T_DIR/out"
check "--list: no third-party-only setting" sh -c "! grep -q '^xavc-[a-z-]*422' '$T_DIR/out'"
# --list in every layout of a report: --format, --json[=FILE], -o
n=$(grep -v "^format " "$T_DIR/out" | grep -Ec '^[a-z0-9][a-z0-9-]* +([0-9.]+|-)( +([0-9.]+|-)){7}$')   # a row per format
expect_rc 0 "--list --format csv" "$STORMARK" streams --list --format csv
check "--list csv: the header" grep -q '^kind,format,codec,bytes per frame,23.976 fps (bytes/s),' "$T_DIR/out"
check "--list csv: a row per format" test "$(($(wc -l <"$T_DIR/out") - 1))" = "$n"
check "--list csv: xavc-s-i-uhd, empty where none is published" \
  grep -Eq '^compressed,xavc-s-i-uhd,Sony XAVC S-I \(AVC Intra\),,,,,,,62500000,75000000,75000000$' "$T_DIR/out"
check "--list csv: a sequence with its frame bytes" grep -Eq '^sequence,dpx-hd,DPX 10-bit RGB,8298496,' "$T_DIR/out"
expect_rc 0 "--list --format markdown" "$STORMARK" streams --list --format markdown
check "--list markdown: a table row" grep -Eq '^\| compressed \| xavc-s-i-uhd \| .* \| - \| 59\.60 \| 71\.53 \| 71\.53 \|$' "$T_DIR/out"
"$STORMARK" streams --list --json >"$T_DIR/list.json" 2>"$T_DIR/list.err"
check "--list --json: exit 0, JSON only" sh -c "jq -e . '$T_DIR/list.json' >/dev/null && test ! -s '$T_DIR/list.err'"
check "--list --json: every format, its kind" jqe --argjson n "$n" \
  '(.formats | length) == $n and ([.formats[].kind] | unique) == ["compressed", "sequence"]' "$T_DIR/list.json"
check "--list --json: published rates only" jqe \
  '.formats[] | select(.name == "xavc-s-i-uhd") | [.rates[].fps] == ["50", "59.94", "60"] and .rates[0].bytes_per_s == 62500000' \
  "$T_DIR/list.json"
expect_rc 0 "--list --json=FILE -o FILE" "$STORMARK" streams --list --json="$T_DIR/list2.json" -o "$T_DIR/list.txt"
check "--list --json=FILE: the same JSON" cmp -s "$T_DIR/list.json" "$T_DIR/list2.json"
check "--list -o FILE: the text there, nothing on stdout" \
  sh -c "grep -q '^prores-hq-uhd ' '$T_DIR/list.txt' && test ! -s '$T_DIR/out'"
expect_usage "--list --format openmetrics" "$STORMARK" streams --list --format openmetrics
expect_usage "--list --html" "$STORMARK" streams --list --html "$T_DIR/list.html"
check "--list --html: nothing written" test ! -e "$T_DIR/list.html"
expect_rc 0 "--help" "$STORMARK" streams --help
check "--help names --video-format" grep -q -- '--video-format' "$T_DIR/out"

expect_rc 0 "short search" "$STORMARK" streams "$D" --rate-mib 2 --step 1 --time 8 \
  --max-streams 2 --quiet --json="$J" -o "$T_DIR/report.txt"
check "JSON command" jqe '.command == "streams" and .params.max_streams == 2 and .params.step_ns == 1000000000' "$J"
check "two cells, capture then playback" jqe '[.streams[].direction] == ["capture", "playback"]' "$J"
check "the format is the custom one" jqe '[.streams[].format] | unique == ["custom-2mib"]' "$J"
check "a 2 MiB/s stream at 25 fps moves 84 KiB chunks (83,886 B rounded up to 4 KiB)" jqe ".streams[0].chunk_bytes == 86016" "$J"
check "every step lists each of its streams" \
  jqe '[.streams[].steps[] | (.per_stream | length) == .streams] | all' "$J"
check "a held step dropped nothing" jqe '[.streams[].steps[] | select(.held) | .dropped == 0] | all' "$J"
check "headroom <= held <= cap" \
  jqe '[.streams[] | .max_streams_headroom <= .max_streams and .max_streams <= 2] | all' "$J"
# the answer: every trial of every n up to it held (docs/streams.md, "Trials");
# the largest n held in any trial is max_streams_high
check "held = the largest n whose trials, and all below, held; high = the largest held" \
  jqe '[.streams[] | select(.max_streams != null) | . as $c |
        ([$c.steps[] | select(.complete and .streams <= $c.max_streams) | .held] | all) and
        $c.max_streams_high == ([0] + [$c.steps[] | select(.held) | .streams] | max) and
        $c.max_streams <= $c.max_streams_high] | all' "$J"
check "each stream scheduled 25 frames (1 s at 25 fps)" \
  jqe '[.streams[].steps[].per_stream[].scheduled == 25] | all' "$J"
check "text report has the table" grep -q '^custom-2mib ' "$T_DIR/report.txt"
check "text report has the detail" grep -q 'custom-2mib at 25 fps, playback' "$T_DIR/report.txt"
# the tool's own CPU per step, and the text's line for the largest step (the
# first of its trials; its figures from that step's cpu_ns and duration_ns)
check "every step has the tool's CPU" jqe '[.streams[].steps[] | .cpu_ns > 0] | all' "$J"
want=$(jq -r '.streams[1].steps | (map(.streams) | max) as $m | map(select(.streams == $m))[0] | "tool CPU at \(.streams) stream\(if .streams == 1 then "" else "s" end): \(.cpu_ns / .duration_ns * 100 | round)% of one core"' "$J")
check "the text gives the largest step's CPU ($want)" sh -c "grep -c '^  $want, [0-9.]* us per stream per second\$' '$T_DIR/report.txt' | grep -q '^[12]\$'"
check "test directory removed" test -z "$(ls -A "$D")"
# --time 8 leaves the capture cell 4 s, not the 10 s a sustained step needs
check "short --time: the capture answer could not be checked for a cliff" \
  jqe '.streams[0] | .max_streams_headroom == 0 or (.confirmation.state == "no_time" and .cliff.looked == false and (.confirmation.note | test("could not be checked for a cliff")))' "$J"
check "short --time: the text says so" \
  sh -c "jq -e '.streams[0].max_streams_headroom == 0' '$J' >/dev/null || grep -q '^  sustained: could not be checked for a cliff' '$T_DIR/report.txt'"
check "playback: no confirmation" jqe '.streams[1] | has("confirmation") | not' "$J"

# a format with no published rate at one of the --fps rates: that pair is
# not run, with one note on stderr (XAVC S HD 16M: Sony names 30p/25p only)
expect_rc 0 "a camera setting at 25 and 50 fps" "$STORMARK" streams "$D" --video-format xavc-s-16-hd \
  --fps 25,50 --capture --step 1 --time 2 --max-streams 1 --json="$T_DIR/cam.json" -o "$T_DIR/cam.txt"
check "note: not run at 50 fps" \
  grep -qx 'stormark streams: note: no published rate at 50 fps, not run there: xavc-s-16-hd' "$T_DIR/out"
check "only the 25 fps pair ran" jqe '[.streams[] | [.format, .fps]] == [["xavc-s-16-hd", "25"]]' "$T_DIR/cam.json"
check "16 Mbit/s at 25 fps: 80,000 B a frame, at most 81,920 in one request" \
  jqe '.streams[0].chunk_bytes == 81920 and .streams[0].frame_bytes == 80000 and .streams[0].rate_bytes_per_s == 2000000' "$T_DIR/cam.json"
# Published rates, moved as published (core/sformats.h, the byte schedule):
# a stream that moved every frame of its step moved the frames' published
# bytes rounded down to a 4 KiB block, never a rounded-up chunk per frame
# (25 x 81,920 = 2,048,000 B a second, 2.4% over 16 Mbit/s), and each step
# that moved everything moved within 1% of n x the published rate.
moved_ok() {
  jq -e '[.streams[] | .frame_bytes as $f | .rate_bytes_per_s as $r | .steps[] |
      . as $s | .per_stream[] | select(.done == .scheduled) |
      .bytes == ((.scheduled * $f / 4096 | floor) * 4096)] | (length > 0 and all)' "$1" >/dev/null &&
  jq -e '[.streams[] | .rate_bytes_per_s as $r | .steps[] | select([.per_stream[] | .done == .scheduled] | all) |
      ((.bytes_per_s / (.streams * $r)) - 1 | fabs) < 0.01] | (length > 0 and all)' "$1" >/dev/null
}
check "xavc-s-16-hd: the bytes moved are the published ones" moved_ok "$T_DIR/cam.json"
check "xavc-s-16-hd: moved as published" jqe '.streams[0].moved_bytes_per_s == .streams[0].rate_bytes_per_s' "$T_DIR/cam.json"
check "the text says it is moved as published" grep -q "per stream (moved as published)" "$T_DIR/cam.txt"
check "custom 2 MiB/s: the bytes moved are the published ones" moved_ok "$J"

expect_rc 0 "markdown" "$STORMARK" streams "$D" --rate-mib 2 --step 1 --time 3 --max-streams 1 \
  --play --format markdown --quiet
check "markdown heading" grep -q '^## stormark streams' "$T_DIR/out"
check "markdown detail table" grep -q '^| custom-2mib | 25 | playback |' "$T_DIR/out"

# csv: a row per cell, the figures of the JSON written by the same run
expect_rc 0 "csv" "$STORMARK" streams "$D" --rate-mib 2 --step 1 --time 3 --max-streams 1 \
  --play --format csv --json="$T_DIR/csv.json" --quiet
check "csv header" grep -qx 'format,codec,fps,direction,stream_bytes_per_s,chunk_bytes,streams,streams_headroom,first_failed,at_cap,searched,aggregate_bytes_per_s,sustained_bytes_per_s,confirmation,confirmation_streams,confirmation_held,streams_headroom_before,cliff_looked,cliff_found,cliff_at_s,cliff_burst_bytes_per_s,cliff_sustained_bytes_per_s,moved_bytes_per_s,kind' "$T_DIR/out"
check "csv: one row per cell" test "$(($(wc -l <"$T_DIR/out") - 1))" = "$(jq '.streams | length' "$T_DIR/csv.json")"
check "csv row = the JSON's cell" test "$(sed -n 2p "$T_DIR/out" | cut -d, -f1,4,6,7,8)" = \
  "$(jq -r '.streams[0] | [.format, .direction, .chunk_bytes, .max_streams, .max_streams_headroom] | map(tostring) | join(",")' "$T_DIR/csv.json")"

# SIGINT in the middle of a step: a partial report, exit 130, nothing left
"$STORMARK" streams "$D" --rate-mib 2 --step 3 --time 30 --max-streams 4 --quiet \
  --json="$T_DIR/int.json" >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130 (got $rc)" test "$rc" = 130
check "SIGINT: one line says so" grep -q 'interrupted' "$T_DIR/int.err"
check "SIGINT: a partial report" grep -q '^custom-2mib ' "$T_DIR/int.out"
check "SIGINT: JSON says interrupted" jqe '.interrupted == true' "$T_DIR/int.json"
check "SIGINT: nothing left behind" test -z "$(ls -A "$D")"
# the step a signal cut short answers nothing: no "0 held" from it
check "SIGINT: no cell answers 0 from a step cut short" \
  jqe '[.streams[] | select([.steps[] | select(.complete)] | length == 0) | .max_streams == null] | all' "$T_DIR/int.json"

# A budget too short for one step: the cell is not measured (null, the
# reason beside it), never "0 held"; the reason names the cell's share of
# --time and how much of --time the search had used, not "time budget
# spent" while most of --time was left.
expect_rc 0 "a cell's share shorter than a step" "$STORMARK" streams "$D" --rate-mib 2 --step 3 \
  --time 4 --max-streams 2 --quiet --json="$T_DIR/budget.json" -o "$T_DIR/budget.txt"
check "budget: the capture cell is not measured, null" \
  jqe '.streams[0] | .max_streams == null and .max_streams_headroom == null and .steps == []' "$T_DIR/budget.json"
check "budget: the reason names the cell's share and the time used" \
  jqe '.streams[0].not_measured | test("^stopped before the step of 1 stream: its 3 s would end past this cell.s share of --time \\(2\\.0 s\\); [0-9]+ of 4 s used in all$")' "$T_DIR/budget.json"
check "budget: the text says not measured, not 0" grep -q '^custom-2mib *not measured / ' "$T_DIR/budget.txt"
check "budget: the detail says why" grep -q "^  not measured: stopped before the step of 1 stream" "$T_DIR/budget.txt"
# at --max-streams both answers are lower bounds, and read as such
if jq -e '.streams[0].at_cap and (.streams[0].confirmation.lowered | not)' "$J" >/dev/null; then
  check "at the cap: '>=N (>=M)' in the table" grep -Eq '^custom-2mib +>=2 \(>=[0-9]+\)' "$T_DIR/report.txt"
  check "at the cap: 'at least M with 20% headroom'" grep -Eq '^  held at least 2 streams, at least [0-9]+ with 20% headroom' "$T_DIR/report.txt"
fi

# --save (issue 31): the result kept in the history under its key, the key
# the metrics' label; history lists it, compare reads its cells; --list
# has nothing to save
if "$STORMARK" --version | head -1 | grep -q ' sqlite[ )]'; then
  expect_rc 0 "--save" "$STORMARK" streams "$D" --rate-mib 2 --step 1 --time 2 --max-streams 1 --quiet \
    --save s1 --db "$T_DIR/h.db" --format prometheus -o "$T_DIR/save.prom"
  n=$(grep -vc '^#' "$T_DIR/save.prom")
  check "--save: the key on every sample" \
    test "${n:-0}" -gt 0 -a "${n:-0}" = "$(grep -c '{command="streams",key="s1",' "$T_DIR/save.prom")"
  check "--save: history lists the streams key" grep -Eq '^s1 +streams +1 ' <("$STORMARK" history --db "$T_DIR/h.db")
  check "--save: history shows the key's run" grep -Eq '^ +1 +[0-9T:-]+Z' <("$STORMARK" history s1 --db "$T_DIR/h.db")
  check "--save: compare reads its cells" \
    grep -q '^custom-2mib @25 playback streams ' <("$STORMARK" compare --db "$T_DIR/h.db" s1 s1)
  expect_usage "--list --save" "$STORMARK" streams --list --save s2 --db "$T_DIR/h.db"
fi
finish
