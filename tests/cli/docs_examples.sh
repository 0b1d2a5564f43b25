#!/bin/bash
# SPDX-License-Identifier: MIT
# Every example command of README.md and docs/*.md runs, and exits 0.
#
# Which lines are examples: in an indented code block (4 spaces), a line
# whose first word is stormark, frametest, sysbench, mpirun, srun, mkdir or
# for ("$ " before it is dropped; a line ending in "\" goes on with the
# next). Not examples: a synopsis (an optional part in [brackets], or a
# placeholder in capitals: FILE, KEY, DIR...), a line of output (the first
# word followed by a colon or a version number, "stormark fileio: ..."),
# and `make` targets (the build's; `make test` is this suite).
#
# How each is adapted, in sizes, times and paths only, and nothing else:
# - paths: every absolute path but /dev/... moves under a scratch root
#   ($R/data/set1 for /data/set1; a streams example's under $F, a tmpfs
#   when one can be mounted: whether a mix holds on a shared, loaded disk
#   is not what this test asks); before a file's examples, the parent of
#   every path it names is made, and the path itself unless a mkdir of the
#   file makes it or its last part has a dot or starts with "testfile" (a
#   file). Each doc file runs its examples in order, in a directory of its
#   own with its own history (XDG_DATA_HOME), where the inputs its examples
#   read but never make are put first: big.dat (1 MiB), suite.mix (two
#   groups), hosts (this host), and the saved results and history keys
#   that docs/compare.md, history.md, report.md and openmetrics.md name.
# - sizes and times: frames and frametest -n 4 (given, or added);
#   fileio and sysbench --file-total-size=16M and a run --time=1; run (and
#   bare `stormark`) --time 1; streams --time 3 --step 1 --max-streams 2,
#   and a --mix group's count 1; meta -n 50 and --size 4k; time -n 2;
#   mpirun -np 2 (srun is a skip: no Slurm runs here; tests/cli/slurm.sh has
#   its own).
# A program is found as the docs name it: stormark, and its frametest and
# sysbench links (the build's), first in the PATH; mpirun's ranks run on
# this host (as root if need be, oversubscribed), by its environment.
. "$SM_SOURCE_DIR/tests/lib.sh"
B="$T_DIR/bin"
mkdir -p "$B"
for n in stormark frametest sysbench; do ln -s "$STORMARK" "$B/$n"; done
export PATH="$B:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_btl=self,vader
G=$SM_SOURCE_DIR/tests/golden
FAST="$T_DIR/fast"
mkdir -p "$FAST"
if mount -t tmpfs -o size=3g tmpfs "$FAST" 2>/dev/null; then
  trap 'cd /; umount "$FAST" 2>/dev/null; t_cleanup' EXIT
else
  echo "no tmpfs could be mounted: the streams examples run on the disk"
fi

# ---- the words around the examples -----------------------------------------
# --help names every command that runs as one job under mpirun, as
# --version's mpi line does
jobs=$(stormark --version | sed -n 's/^  mpi  *\(.*\) as one job under.*/\1/p')
if [ -n "$jobs" ]; then
  check "--help: the commands of an MPI job are --version's ($jobs)" \
    sh -c "stormark --help | tr '\n' ' ' | tr -s ' ' | grep -qF 'Under mpirun or srun, $jobs run as one job'"
fi
# the version line the README and docs/options.md quote is this build's,
# when it has every feature
v=$(stormark --version | head -1)
if [ "${v#*features: }" = "io_uring sqlite nfs xxhash json mpi)" ]; then
  for d in README.md docs/options.md; do
    check "$d quotes the version line" grep -qF "$v" "$SM_SOURCE_DIR/$d"
  done
fi
# a section a document points to is there
check "docs/fileio.md: its section on the latency figures" \
  grep -qx '## What the latency figures mean' "$SM_SOURCE_DIR/docs/fileio.md"

# ---- the examples, adapted: FILE, LINE, then the command, tab-separated
"$PY" - "$SM_SOURCE_DIR" >"$T_DIR/examples.tsv" <<'EOF'
import glob, os, re, sys

src = sys.argv[1]
PROGS = ('stormark', 'frametest', 'sysbench', 'mpirun', 'srun', 'mkdir', 'for')
CMDS = ('frames', 'fileio', 'run', 'streams', 'meta', 'time', 'history', 'compare', 'report', 'help')


def uncomment(s):
    """The line without a trailing # comment (a # outside quotes, after a blank)."""
    q = None
    for i, c in enumerate(s):
        if q:
            q = None if c == q else q
        elif c in '\'"':
            q = c
        elif c == '#' and (i == 0 or s[i - 1] in ' \t'):
            return s[:i].rstrip()
    return s.rstrip()


def opt(seg, pat, new, add=None, after=None):
    """Replace option pat (a regex) in seg by new; when absent, put add after
    the words that match after (the program and its command)."""
    if re.search(pat, seg):
        return re.sub(pat, new, seg)
    if add is not None and after is not None:
        return re.sub(after, lambda m: m.group(0) + ' ' + add, seg, count=1)
    return seg


def adapt(seg):
    """Sizes and times of one command (a part between ;, && and ||)."""
    m = re.search(r'(?<![\w/.-])(stormark|frametest|sysbench)(?![\w.-])(?:\s+(\w+))?', seg)
    if not m:
        return seg
    prog, cmd = m.group(1), m.group(2)
    at = re.escape(m.group(0))
    seg = re.sub(r'(\bmpirun\b.*?)-np\s+\d+', r'\1-np 2', seg)
    if prog == 'frametest' or cmd == 'frames':
        return opt(seg, r'(?<=\s)(?:-n\s*\d+|--frames[= ]\d+)', '-n 4', '-n 4',
                   r'\bframetest\b' if prog == 'frametest' else r'\bstormark\s+frames\b')
    if cmd == 'fileio':
        word = lambda w: re.search(r'(?<!\S)%s(?!\S)' % w, seg)
        seg = opt(seg, r'--file-total-size=\S+', '--file-total-size=16M',
                  '--file-total-size=16M' if word('prepare') or word('run') else None, at)
        if word('run'):
            seg = opt(seg, r'--time=\d+', '--time=1', '--time=1', at)
        return seg
    if prog == 'stormark' and (cmd == 'run' or cmd not in CMDS):
        after = r'\bstormark\s+run\b' if cmd == 'run' else r'\bstormark\b'
        return opt(seg, r'--time[= ]\d+', '--time 1', '--time 1', after)
    if cmd == 'streams' and '--list' not in seg:
        seg = re.sub(r"(?<=['@,\s])\d+x(?=[a-z])", '1x', seg) if '--mix' in seg else seg
        seg = opt(seg, r'--step[= ]\d+', '--step 1', '--step 1', at)
        if '--video-format' in seg or '--mix' not in seg:
            seg = opt(seg, r'--time[= ]\d+', '--time 3', '--time 3', at)
            seg = opt(seg, r'--max-streams[= ]\d+', '--max-streams 2', '--max-streams 2', at)
        return seg
    if cmd == 'meta':
        seg = opt(seg, r'--size[= ]\S+', '--size 4k')
        return opt(seg, r'(?<=\s)(?:-n\s*\d+|--files[= ]\d+)', '-n 50', '-n 50', at)
    if cmd == 'time':
        return opt(seg, r'(?<=\s)-n\s*\d+(?=.*\s--\s)', '-n 2')
    return seg


def paths(line):
    root = '$F/' if re.search(r'\bstormark\s+streams\b', line) else '$R/'
    return re.sub(r'(?<=[\s=])/(?!dev/)(?=[A-Za-z])', root, line)


files = [os.path.join(src, 'README.md')] + sorted(glob.glob(os.path.join(src, 'docs', '*.md')))
for path in files:
    rel = os.path.relpath(path, src)
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        no, line = i + 1, lines[i]
        i += 1
        if not line.startswith('    '):
            continue
        cmd = line[4:]
        while cmd.endswith('\\') and i < len(lines):
            cmd = cmd[:-1].rstrip() + ' ' + lines[i].strip()
            i += 1
        if cmd.startswith('$ '):
            cmd = cmd[2:]
        words = cmd.split()
        if not words or words[0] not in PROGS:
            continue
        if words[0].endswith(':') or (len(words) > 1 and (words[1].endswith(':') or words[1][0].isdigit())):
            continue          # a line of output
        cmd = uncomment(cmd)
        if '[' in cmd or re.search(r'\b[A-Z][A-Z0-9_]{2,}\b', cmd):
            continue          # a synopsis
        parts = re.split(r'(;|&&|\|\|)', cmd)
        cmd = ''.join(p if p in (';', '&&', '||') else adapt(p) for p in parts)
        print('%s\t%d\t%s' % (rel, no, paths(cmd)))
EOF
check "examples found in README.md and docs/" test "$(wc -l <"$T_DIR/examples.tsv")" -ge 80

# fixtures: the inputs a doc file's examples read and never make
fixtures() {
  local f=$1
  head -c 1048576 /dev/urandom >big.dat
  printf '1xprores-proxy-hd@25:play\n1xdpx-sd-pal@24:capture\n' >suite.mix
  echo "localhost slots=8" >hosts
  case $f in
    docs/compare.md)
      cp "$G/frames/write.json" before.json
      cp "$G/frames/write.json" after.json
      cp "$G/frames/write.json" old.json
      mkdir -p fx
      for k in nas-2k san-2k; do
        stormark frames -w hd -n 4 --quiet --save $k fx >/dev/null 2>&1 || fail "$f: fixture key $k"
      done
      # the frame size of the saved results (golden frames/write.json)
      stormark frames -w hd -n 4 --quiet --save nas-2k --db team.db fx >/dev/null 2>&1 || fail "$f: team.db"
      ;;
    docs/history.md)
      stormark time --save cp-hdd --db team.db -- true >/dev/null 2>&1 || fail "$f: team.db"
      ;;
    docs/report.md|docs/openmetrics.md)
      cp "$G/run/basic.json" today.json 2>/dev/null || cp "$(ls "$G"/run/*.json | head -1)" today.json
      ;;
  esac
}

# the directories the file's examples name (rule above)
dirs() {
  local f=$1 p made
  made=$(awk -F'\t' -v f="$f" '$1 == f' "$T_DIR/examples.tsv" | cut -f3 |
    grep -oE '(^|[;&|] *)mkdir( -p)? [^;&|]*' | grep -oE '\$[RF]/[^ ;&|]*' | sed 's|/$||' | sort -u)
  # mk D: D, or only its parent when a mkdir of the file makes D ($R and
  # $F in D expanded)
  mk() {
    local d
    if grep -qxF "$1" <<<"$made"; then d=$(dirname "$1"); else d=$1; fi
    d=${d/#\$R/$R}
    mkdir -p "${d/#\$F/$F}"
  }
  awk -F'\t' -v f="$f" '$1 == f' "$T_DIR/examples.tsv" | cut -f3 | grep -oE '\$[RF]/[^ ;&|]*' | sort -u |
    while read -r p; do
      p=${p%/}
      mk "$(dirname "$p")"
      case $(basename "$p") in *.*|testfile*) continue ;; esac
      mk "$p"
    done
}

ran=0 skipped=0
for f in $(cut -f1 "$T_DIR/examples.tsv" | uniq); do
  W="$T_DIR/w/${f//\//_}"
  mkdir -p "$W/xdg"
  export R="$W/root" F="$FAST/${f//\//_}" XDG_DATA_HOME="$W/xdg"
  mkdir -p "$R" "$F"
  cd "$W" || exit 1
  fixtures "$f"
  dirs "$f"
  while IFS=$'\t' read -r file no cmd; do
    [ "$file" = "$f" ] || continue
    if [[ $cmd =~ (^|[;&|[:space:]])srun[[:space:]] ]] && ! { command -v srun && sinfo; } >/dev/null 2>&1; then
      # srun needs a running Slurm (tests/cli/slurm.sh makes one)
      echo "skipped (srun is not installed, or no Slurm controller answers): $f:$no: $cmd"
      skipped=$((skipped + 1))
      continue
    fi
    if [[ $cmd =~ (^|[;&|[:space:]])mpirun[[:space:]] ]] && ! command -v mpirun >/dev/null; then
      echo "skipped (mpirun is not installed): $f:$no: $cmd"
      skipped=$((skipped + 1))
      continue
    fi
    t0=$(date +%s.%N)
    timeout 120 bash -c "$cmd" </dev/null >"$T_DIR/ex.out" 2>&1
    rc=$?
    echo "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%5.1f s", b - a }')  $f:$no: $cmd"
    ran=$((ran + 1))
    if [ $rc = 0 ]; then ok
    else
      fail "$f:$no exits $rc: $cmd"
      tail -5 "$T_DIR/ex.out" | sed 's/^/  | /' >&2
    fi
  done <"$T_DIR/examples.tsv"
  cd "$T_DIR" || exit 1
  rm -rf "$F"   # the tmpfs holds one file's at a time
done
echo "$ran examples run, $skipped skipped"
finish
