#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Render a stormark HTML report in headless Chromium and say what it drew.

usage: html_check.py CHROMIUM REPORT.html WORKDIR [--strip-data] [--dom-only]

One browser run (two when the page is taller than estimated) of a copy
with a probe script appended: --dump-dom (the DOM as the browser built it,
each chart's box, the page height and the time from navigation to a forced
layout at the load event) and --screenshot at half scale, whose pixels
inside each chart's box are counted: a drawn chart has many saturated (coloured)
pixels, axes, grid and text are grey. Console messages are
collected (--enable-logging=stderr). --strip-data first removes every
element of class "data" (the negative control: the counts must then fall);
--dom-only leaves the screenshot out (pixels are then null).

Prints one JSON object: {"sections": [ids], "charts": {id: {"kind",
"pixels"}}, "command": text of #command-line, "render_ms", "height",
"console": [lines]}. Exit 0, or 3 when Chromium could not run (with the
reason on stderr). Standard library only (PNG decoded with zlib).
"""
import json
import os
import re
import struct
import subprocess
import sys
import zlib

WIDTH = 1000
SCALE = 0.5        # the screenshot at half size: a quarter of the pixels to decode
FIT_WIDTHS = (500, 1280)
# the page again in an iframe per window width (hidden, so not in the
# screenshot; an iframe is its own viewport, so the page's media queries
# answer to its width), measured at the load event, which waits for them
FRAMES = """<div id="sm-fit" style="position:absolute;left:0;top:0;visibility:hidden">%s</div>"""
FIT = """
function smFit(w) {
  var d = w.document, vw = w.innerWidth, r = { width: vw,
    scroll_width: d.documentElement.scrollWidth, nowrap: [], html_min_font: 99,
    svg_min_font: 99, svg_texts: 0, clipped: [], over_bars: [], overlaps: [], cut: [] };
  function txt(e) { return (e.textContent || '').trim().slice(0, 40); }
  [].forEach.call(d.body.querySelectorAll('*'), function (e) {
    if (e.closest('svg')) return;
    var own = [].some.call(e.childNodes, function (n) { return n.nodeType == 3 && n.data.trim(); });
    if (!own) return;
    var cs = w.getComputedStyle(e);
    if (cs.whiteSpace == 'pre' || cs.whiteSpace == 'nowrap') r.nowrap.push(e.tagName + ': ' + txt(e));
    r.html_min_font = Math.min(r.html_min_font, parseFloat(cs.fontSize));
    if ((cs.overflowX == 'hidden' || cs.overflowX == 'clip') && e.scrollWidth > e.clientWidth + 1)
      r.cut.push(e.tagName + ': ' + txt(e));
  });
  [].forEach.call(d.querySelectorAll('figure.chart svg'), function (svg) {
    var box = svg.getBoundingClientRect(), id = svg.closest('figure').id;
    var bars = [].map.call(svg.querySelectorAll('rect.data'), function (b) { return b.getBoundingClientRect(); });
    var ts = [].slice.call(svg.querySelectorAll('text'));
    var rs = ts.map(function (t) { return t.getBoundingClientRect(); });
    function meet(a, b, m) { return a.left + m < b.right && b.left + m < a.right && a.top + m < b.bottom && b.top + m < a.bottom; }
    ts.forEach(function (t, i) {
      var m = t.getScreenCTM(), fs = parseFloat(w.getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      var a = rs[i];
      r.svg_texts++;
      r.svg_min_font = Math.min(r.svg_min_font, fs);
      if (a.left < box.left - 1 || a.right > box.right + 1 || a.top < box.top - 1 || a.bottom > box.bottom + 1)
        r.clipped.push(id + ': ' + txt(t));
      if (bars.some(function (b) { return meet(a, b, 1); })) r.over_bars.push(id + ': ' + txt(t));
      for (var j = i + 1; j < ts.length; j++)
        if (meet(a, rs[j], 1)) r.overlaps.push(id + ': ' + txt(t) + ' / ' + txt(ts[j]));
    });
  });
  r.html_min_font = Math.round(r.html_min_font * 100) / 100;
  r.svg_min_font = Math.round(r.svg_min_font * 100) / 100;
  return r;
}
"""
PROBE = """<script>""" + FIT + """
addEventListener('load', function () {
  var t0 = performance.now();
  document.body.getBoundingClientRect();
  var figs = [].map.call(document.querySelectorAll('figure.chart'), function (f) {
    // a chart with nothing to draw is a sentence: its box is the figure's
    var s = (f.querySelector('svg') || f).getBoundingClientRect();
    return [f.id, f.dataset.kind, Math.round(s.left), Math.round(s.top + scrollY),
            Math.round(s.width), Math.round(s.height)];
  });
  var p = document.createElement('pre');
  p.id = 'sm-probe';
  var t1 = performance.now(), fit = {};
  fit.viewport = !!document.querySelector('meta[name="viewport"][content*="width=device-width"]');
  [].forEach.call(document.querySelectorAll('#sm-fit iframe'), function (f) {
    fit[f.width] = smFit(f.contentWindow);
  });
  document.getElementById('sm-fit').remove();
  p.textContent = JSON.stringify({ t: t1, t_load: t0, figs: figs,
    height: document.documentElement.scrollHeight, fit: fit });
  document.body.appendChild(p);
});
</script>"""


def chromium(exe, workdir, args, timeout=40):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + os.path.join(workdir, "profile"), "--hide-scrollbars",
           "--allow-file-access-from-files",
           "--enable-logging=stderr", "--v=0"] + args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("chromium could not run: %s\n" % e)
        sys.exit(3)
    err = p.stderr.decode("utf-8", "replace")
    console = [l for l in err.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    return p.returncode, p.stdout.decode("utf-8", "replace"), console, err


def png_pixels(path):
    """(width, height, rows): rows of RGB(A) bytes, unfiltered."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("PNG colour type %d depth %d not handled" % (ctype, depth))
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 0 or (f == 2 and not line.strip(b"\0")):
            # None, or Up with nothing to add (a row like the one above)
            rows.append(line if f == 0 else prev)
            prev = rows[-1]
            continue
        if f == 2:
            line = bytearray((u + v) & 255 for u, v in zip(line, prev))
            rows.append(line)
            prev = line
            continue
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def saturated(rows, bpp, x0, y0, w, h):
    n = 0
    for y in range(max(y0, 0), min(y0 + h, len(rows))):
        r = rows[y]
        for x in range(max(x0, 0), min(x0 + w, len(r) // bpp)):
            px = r[x * bpp:x * bpp + 3]
            if max(px) - min(px) > 60:
                n += 1
    return n


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    exe, report, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    strip = "--strip-data" in sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    html = open(report, encoding="utf-8").read()
    if strip:
        # every element of class "data" (its class list may say more: "data
        # point"), self-closing or with a tooltip inside
        html = re.sub(r'<(path|polyline|circle|line|rect) class="data( [^"]*)?"[^>]*/>', "", html)
        html = re.sub(r'<(rect|circle) class="data( [^"]*)?".*?</\1>', "", html, flags=re.S)
        report = os.path.join(work, "stripped.html")
        open(report, "w", encoding="utf-8").write(html)
    probe = os.path.join(work, "probe.html")
    frames = "".join('<iframe width="%d" height="800" src="%s"></iframe>' % (w, "file://" + report)
                     for w in FIT_WIDTHS)
    open(probe, "w", encoding="utf-8").write(html.replace("</body>", FRAMES % frames + PROBE + "</body>"))
    # one browser run gives the DOM and the screenshot; the window is as tall
    # as the page is likely to be, and a second run takes the real height
    # when that was short (the probe is appended below every chart)
    height = 400 + 340 * html.count("<figure") + 30 * html.count("<tr") + 60 * html.count("<section")
    dom_only = "--dom-only" in sys.argv[4:]
    shot = os.path.join(work, "shot.png")
    for attempt in range(2):
        args = ["--window-size=%d,%d" % (WIDTH, height), "--dump-dom"]
        if not dom_only:
            args += ["--force-device-scale-factor=%g" % SCALE, "--screenshot=" + shot]
        rc, dom, console, err = chromium(exe, work, args + ["file://" + probe])
        m = re.search(r'<pre id="sm-probe">(.*?)</pre>', dom, re.S)
        if rc != 0 or not m or (not dom_only and not os.path.exists(shot)):
            sys.stderr.write("chromium failed (exit %d): %s\n" % (rc, err[-400:]))
            return 3
        info = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        if dom_only:
            return report_out(info, dom, console, {f[0]: {"kind": f[1], "pixels": None}
                                                   for f in info["figs"]})
        if int(info["height"]) <= height:
            break
        height = min(int(info["height"]) + 20, 16000)
    _, _, bpp, rows = png_pixels(shot)
    charts = {}
    for fid, kind, x, y, w, h in info["figs"]:
        charts[fid] = {"kind": kind, "pixels": saturated(rows, bpp, int(x * SCALE), int(y * SCALE),
                                                         int(w * SCALE), int(h * SCALE))}
    return report_out(info, dom, console, charts)


def report_out(info, dom, console, charts):
    cmdline = re.search(r'<code id="command-line">(.*?)</code>', dom, re.S)
    out = {
        "sections": re.findall(r'<section id="([^"]+)"', dom),
        "charts": charts,
        "command": cmdline.group(1) if cmdline else None,
        "render_ms": round(info["t"], 1),
        "height": info["height"],
        "console": console,
        "fit": info.get("fit", {}),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
