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

# h_fit NAME: the page fits windows of 500 and 1280 CSS px (html_check.py
# lays it out in an iframe of each width): never wider than the window
# (a wide table or chart scrolls in its own box), every text box wraps (no
# white-space pre or nowrap), HTML text and chart text at least 10 CSS px
# as drawn (an SVG label's size times the chart's scale), no chart label
# outside its chart's box (clipped), on a bar or on another label.
h_fit() {
  local name=$1 w
  check "$name: a viewport tag (a phone lays the page out at its own width)" \
    jq -e '.fit.viewport == true' "$T_DIR/$name.hc.json" >/dev/null
  for w in 500 1280; do
    check "$name @${w}px: the page is no wider than the window" \
      jq -e --arg w "$w" '.fit[$w] | .scroll_width <= .width' "$T_DIR/$name.hc.json" >/dev/null
    check "$name @${w}px: every text box wraps" \
      jq -e --arg w "$w" '.fit[$w].nowrap == [] and .fit[$w].cut == []' "$T_DIR/$name.hc.json" >/dev/null
    check "$name @${w}px: text at least 10 px (chart text as drawn)" \
      jq -e --arg w "$w" '.fit[$w] | .html_min_font >= 10 and (.svg_texts == 0 or .svg_min_font >= 10)' \
      "$T_DIR/$name.hc.json" >/dev/null
    check "$name @${w}px: no chart label clipped, on a bar or on another label" \
      jq -e --arg w "$w" '.fit[$w] | .clipped == [] and .over_bars == [] and .overlaps == []' \
      "$T_DIR/$name.hc.json" >/dev/null
    jq -c --arg w "$w" '.fit[$w] | select(.scroll_width > .width or .nowrap != [] or .cut != [] or
      .html_min_font < 10 or (.svg_texts > 0 and .svg_min_font < 10) or .clipped != [] or
      .over_bars != [] or .overlaps != []) | {width, scroll_width, html_min_font, svg_min_font,
      nowrap: .nowrap[:3], clipped: .clipped[:3], over_bars: .over_bars[:3], overlaps: .overlaps[:3]}' \
      "$T_DIR/$name.hc.json" >&2
  done
}
