#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Regenerate the option lists of the man page from the binary's own tables:
#   python3 scripts/man-options.py build/stormark docs/stormark.1
# Each block between '.\" BEGIN options CMD' and '.\" END options' in the
# page is replaced by CMD's options as `stormark CMD --help` prints them
# (that help is printed from the option table, core/opt.c), one .TP entry
# per option, with the table's headings as .SS lines. The rest of the page
# is left as written. tests/cli/manpage.sh checks that the page names every
# option of every table; run this after adding one, then read the diff.
import re
import subprocess
import sys

OPT = re.compile(r'^ {2}(-\S)(?:, (--\S+?))?((?:\[=|=| )\S.*?)?(?: {2,}(\S.*))?$|'
                 r'^ {6}(--\S+?)((?:\[=|=| )\S.*?)?(?: {2,}(\S.*))?$')


def roff(text):
    """Escape text for roff: backslashes and dashes; no leading dot."""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    if text.startswith(('.', "'")):
        text = '\\&' + text
    return text


def parse_help(lines):
    """(kind, ...) items: ('head', text) or ('opt', short, long, arg, help)."""
    items, cur = [], None
    for i, line in enumerate(lines):
        m = OPT.match(line)
        if m:
            if m.group(1):
                short, long_, arg, help_ = m.group(1), m.group(2), m.group(3), m.group(4)
            else:
                short, long_, arg, help_ = None, m.group(5), m.group(6), m.group(7)
            cur = ['opt', short, long_, (arg or '').strip(), help_ or '']
            items.append(cur)
            continue
        if cur and line.startswith(' ' * 8) and line.strip():
            cur[4] = (cur[4] + ' ' + line.strip()).strip()
            continue
        cur = None
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        if line and not line.startswith(' ') and line.endswith(':') and OPT.match(nxt):
            items.append(['head', line])
    return items


def block(stormark, cmd):
    out = subprocess.run([stormark, cmd, '--help'], capture_output=True, text=True, check=True)
    res = []
    for it in parse_help(out.stdout.splitlines()):
        if it[0] == 'head':
            res.append('.SS ' + roff(it[1].rstrip(':')))
            continue
        _, short, long_, arg, help_ = it
        names = ', '.join('\\fB' + roff(n) + '\\fR' for n in (short, long_) if n)
        if arg:
            sep = '' if arg[0] in '[=' else ' '
            a = arg.lstrip()
            names += sep + re.sub(r'([A-Za-z][A-Za-z_,.]*)', r'\\fI\1\\fR', roff(a))
        res += ['.TP', names, roff(help_)]
    return res


def main():
    stormark, page = sys.argv[1], sys.argv[2]
    src = open(page).read().split('\n')
    out, i = [], 0
    while i < len(src):
        line = src[i]
        m = re.match(r'^\.\\" BEGIN options (\S+)$', line)
        if not m:
            out.append(line)
            i += 1
            continue
        out.append(line)
        out += block(stormark, m.group(1))
        while not src[i].startswith('.\\" END options'):
            i += 1
    open(page, 'w').write('\n'.join(out))


if __name__ == '__main__':
    main()
