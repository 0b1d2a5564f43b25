#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Engine truth (docs/engines.md, "Fallback"): where io_uring_setup fails
# with ENOSYS, as under a container's default seccomp profile or an
# emulator without io_uring, every command names the engine it really
# used (psync) in its text header, its JSON (environment.engine), its
# markdown and its metrics, and a fallback from io_uring is a warning of
# code engine_fallback in the JSON, with its reason. tests/nouring (built
# by CMake) runs a command under such a filter. Also: the environment
# records the CPU's architecture and model. About 20 s.
. "$SM_SOURCE_DIR/tests/lib.sh"

[ -n "${SM_NOURING:-}" ] && [ -x "$SM_NOURING" ] || skip "tests/nouring was not built (Linux only)"
command -v jq >/dev/null || skip "jq reads the JSON"
NU=("$SM_NOURING")
"${NU[@]}" true || skip "a seccomp filter cannot be installed here"
jqe() { jq -e "$@" >/dev/null; }
REASON="engine 'uring' is not available here (Function not implemented): using 'psync'"
D=$T_DIR/d; mkdir -p "$D"

# the filter does what a container's profile does, and nothing more
check "nouring: io_uring is not usable under the filter" \
  sh -c '"$0" "$1" --version | grep -q "this kernel: not usable, Function not implemented"' "$SM_NOURING" "$STORMARK"
if "$STORMARK" --version | grep -q "this kernel: usable"; then uring_here=1; else uring_here=0; fi

# fallback FILE LABEL: FILE's JSON names psync and warns with the reason
fallback() {
  check "$2: environment.engine is psync" jqe '.environment.engine == "psync"' "$1"
  check "$2: one engine_fallback warning with its reason" jqe --arg m "$REASON" \
    '[.warnings[] | select(.code == "engine_fallback")] | length == 1 and .[0].message == $m' "$1"
}
# no_fallback FILE LABEL ENGINE
no_fallback() {
  check "$2: environment.engine is $3" jqe --arg e "$3" '.environment.engine == $e' "$1"
  check "$2: no engine_fallback warning" jqe '[.warnings[] | select(.code == "engine_fallback")] | length == 0' "$1"
}
# header ENGINE: streams' header (wrapped at 80 columns) in $T_DIR/out ends naming ENGINE
header() { sed -n '/^stormark streams:/,/^Steps/p' "$T_DIR/out" | tr '\n' ' ' | grep -q ", engine $1 Steps"; }
# metrics FILE LABEL ENGINE: the OpenMetrics export's engine label
metrics() {
  check "$2: the metrics' engine label is $3" grep -q "^stormark_result_info{.*engine=\"$3\"" "$1"
}

# ---- frames: -a 4 asks for uring ----------------------------------------
J=$T_DIR/frames.json
expect_rc 0 "frames -a 4 under the filter" "${NU[@]}" "$STORMARK" frames -w 64 -n 8 -a 4 --json="$J" "$D"
check "frames: the warning on stderr" grep -qF "stormark frames: warning: $REASON" "$T_DIR/out"
fallback "$J" frames
check "frames: params.engine is psync" jqe '.params.engine == "psync"' "$J"
"$STORMARK" report "$J" --format markdown >"$T_DIR/md" 2>/dev/null
check "frames: markdown names psync" grep -q "O_DIRECT, engine psync\|buffered, engine psync" "$T_DIR/md"
"$STORMARK" report "$J" --format openmetrics >"$T_DIR/om"
metrics "$T_DIR/om" frames psync
rm -f "$D"/frame*
if [ "$uring_here" = 1 ]; then
  expect_rc 0 "frames -a 4 without the filter" "$STORMARK" frames -w 64 -n 8 -a 4 --json="$T_DIR/f2.json" "$D"
  no_fallback "$T_DIR/f2.json" "frames without the filter" uring
  rm -f "$D"/frame*
fi

# ---- fileio --file-io-mode=async -----------------------------------------
cd "$D" || exit 1
"$STORMARK" fileio --file-total-size=8M --file-num=2 prepare >/dev/null 2>&1
J=$T_DIR/fileio.json
expect_rc 0 "fileio async under the filter" "${NU[@]}" "$STORMARK" fileio --file-total-size=8M --file-num=2 \
  --file-test-mode=rndrd --file-io-mode=async --time=1 --json="$J" run
fallback "$J" fileio
"$STORMARK" report "$J" --format text >"$T_DIR/txt"
check "fileio: the text header names psync" grep -q "^stormark fileio: rndrd, 1 thread, async I/O (engine psync" "$T_DIR/txt"
# (a long line wraps at 79 columns: the text read as one)
check "fileio: the text says the fallback once" \
  test "$(tr '\n' ' ' <"$T_DIR/txt" | tr -s ' ' | grep -o "$REASON" | wc -l)" = 1
if [ "$uring_here" = 1 ]; then
  expect_rc 0 "fileio async without the filter" "$STORMARK" fileio --file-total-size=8M --file-num=2 \
    --file-test-mode=rndrd --file-io-mode=async --time=1 --json="$T_DIR/fi2.json" run
  no_fallback "$T_DIR/fi2.json" "fileio without the filter" uring
fi
"$STORMARK" fileio --file-total-size=8M --file-num=2 cleanup >/dev/null 2>&1
cd "$T_DIR" || exit 1

# ---- streams: uring by default --------------------------------------------
J=$T_DIR/streams.json
expect_rc 0 "streams under the filter" "${NU[@]}" "$STORMARK" streams --rate-mib 2 --play --step 1 --time 3 \
  --max-streams 1 --json="$J" "$D"
check "streams: the header names psync" header psync
fallback "$J" streams
"$STORMARK" report "$J" --format openmetrics >"$T_DIR/om"
metrics "$T_DIR/om" streams psync
"$STORMARK" report "$J" --format markdown >"$T_DIR/md"
check "streams: markdown names psync" grep -q "^## stormark streams: .*, engine psync$" "$T_DIR/md"
if [ "$uring_here" = 1 ]; then
  expect_rc 0 "streams without the filter" "$STORMARK" streams --rate-mib 2 --play --step 1 --time 3 \
    --max-streams 1 --json="$T_DIR/s2.json" "$D"
  no_fallback "$T_DIR/s2.json" "streams without the filter" uring
  check "streams without the filter: the header names uring" header uring
fi

# ---- run: the queued block tests ask for uring ------------------------------
J=$T_DIR/run.json
expect_rc 0 "run under the filter" "${NU[@]}" "$STORMARK" run --time 3 --classic-only --json="$J" "$D"
check "run: the text names psync" grep -q "^  engine: psync for queued tests" "$T_DIR/out"
fallback "$J" run
check "run: block_engine is psync" jqe '.run.block_engine == "psync"' "$J"
"$STORMARK" report "$J" --format openmetrics >"$T_DIR/om"
metrics "$T_DIR/om" run psync

# ---- meta and time: no io_uring to lose --------------------------------------
J=$T_DIR/meta.json
expect_rc 0 "meta under the filter" "${NU[@]}" "$STORMARK" meta -n 20 --json="$J" "$D"
check "meta: the header names psync" sh -c "sed -n '1,2p' '$T_DIR/out' | tr '\n' ' ' | tr -s ' ' |
  grep -Eq '^stormark meta: 20 files of 0 B, 1 thread, in .*, engine psync( |\$)'"
no_fallback "$J" meta psync
J=$T_DIR/time.json
expect_rc 0 "time under the filter" "${NU[@]}" "$STORMARK" time --json="$J" -- true
no_fallback "$J" time none

# ---- the environment's CPU -------------------------------------------------
arch=$(uname -m)
check "the environment's arch is uname -m ($arch)" jqe --arg a "$arch" '.environment.arch == $a' "$J"
model=$(awk -F': *' '/^(model name|Model|Hardware|cpu)[[:space:]]*:/ { print $2; exit }' /proc/cpuinfo |
  tr -s ' \t' '  ' | sed 's/ *$//')
if [ -n "$model" ]; then
  check "the environment's cpu_model is /proc/cpuinfo's ($model)" jqe --arg m "$model" \
    '.environment.cpu_model == $m' "$T_DIR/streams.json"
fi
"$STORMARK" report "$T_DIR/run.json" >"$T_DIR/txt"
check "run's text shows the CPU" grep -q "^  CPU          [0-9]* x .*, $arch$" "$T_DIR/txt"
finish
