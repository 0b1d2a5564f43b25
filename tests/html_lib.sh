# SPDX-License-Identifier: MIT
# Helpers of the HTML report tests (tests/cli/html_*.sh): render a report in
# headless Chromium through tests/html_check.py and check what it drew.
# Source after tests/lib.sh.

H_CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$H_CHROMIUM" ] || skip "chromium is not installed (scripts/deps.sh installs it)"
# h_check NAME FILE.html [--strip-data|--dom-only]: render FILE, leave the
# checker's JSON in $T_DIR/NAME.hc.json; a failure to render is a test failure.
# Chromium as root needs --no-sandbox (html_check.py gives it); a browser
# that cannot start at all (no shared memory, a broken install) on the
# script's first page is a skip, with its reason.
H_RENDERED=0
h_check() {
  local name=$1 file=$2 rc; shift 2
  python3 "$SM_SOURCE_DIR/tests/html_check.py" "$H_CHROMIUM" "$file" "$T_DIR/hc-$name" "$@" \
    >"$T_DIR/$name.hc.json" 2>"$T_DIR/$name.hc.err"
  rc=$?
  if [ "$rc" = 3 ] && [ "$H_RENDERED" = 0 ]; then
    skip "headless chromium cannot start here: $(tail -c 300 "$T_DIR/$name.hc.err" | tr '\n' ' ')"
  fi
  if [ "$rc" = 0 ]; then ok; H_RENDERED=1
  else fail "$name: chromium did not render $file"; tail -5 "$T_DIR/$name.hc.err" >&2; fi
}

# h_sections NAME ID...: every section ID is in the DOM.
h_sections() {
  local name=$1; shift
  for s in "$@"; do
    check "$name: section $s" jq -e --arg s "$s" '.sections | index($s) != null' "$T_DIR/$name.hc.json" >/dev/null
  done
}

# h_drawn NAME ID...: chart ID is in the DOM and drawn (>= 100 coloured
# pixels in its box at half scale; axes, grid and text are grey).
h_drawn() {
  local name=$1; shift
  for c in "$@"; do
    check "$name: chart $c drawn" jq -e --arg c "$c" '.charts[$c].pixels >= 100' "$T_DIR/$name.hc.json" >/dev/null
  done
}

# h_clean NAME: no console message from the page.
h_clean() {
  check "$1: no console messages" jq -e '.console == []' "$T_DIR/$1.hc.json" >/dev/null
}
