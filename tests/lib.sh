# SPDX-License-Identifier: MIT
# Shared helpers for the end-to-end tests in tests/cli/. Source it:
#   . "$SM_SOURCE_DIR/tests/lib.sh"
# CTest sets STORMARK (the binary), SM_BUILD_DIR and SM_SOURCE_DIR.
set -u
: "${STORMARK:?run through ctest, or set STORMARK to the stormark binary}"
SM_BUILD_DIR=${SM_BUILD_DIR:-$(dirname "$STORMARK")}
T_FAILS=0
T_PASSES=0

# A scratch directory under the build tree (on the real disk, so O_DIRECT
# works; /tmp may be tmpfs), removed when the script exits.
T_DIR=$(mktemp -d "$SM_BUILD_DIR/test-XXXXXX") ||
  { echo "FAIL: cannot make a scratch directory under '$SM_BUILD_DIR'" >&2; exit 1; }
# At exit: the results the test left are checked (below); a violation makes
# the test fail, otherwise its exit status stays what it was.
t_cleanup() {
  local bad=0
  t_stall_stop 2>/dev/null
  t_cgroup_release 2>/dev/null
  t_check_dir || bad=1
  rm -rf "$T_DIR"
  [ "$bad" = 0 ] || exit 1
}
trap t_cleanup EXIT

# Debian's python (its jsonschema and other modules); a python3 earlier on
# PATH may lack them.
PY=$(command -v /usr/bin/python3 || command -v python3)

# json FILE EXPR: print the python expression EXPR of d, FILE's document
# (json r.json "d['totals']['bytes']").
json() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# ---- the result checker ------------------------------------------------
# Every JSON result a test leaves under $T_DIR is checked when the test ends
# (stormark report --check: a result's invariants, and each of its text
# layouts against it, docs/report.md); a violation fails the test. Known
# contradictions waiting for their fix are listed in tests/check_known.tsv.
# A test that writes a result it broke on purpose names it: t_check_skip FILE
# (or a directory: every file under it, e.g. a fuzzer's new inputs).
T_CHECK_SKIP=()
T_CHECK_KNOWN=${T_CHECK_KNOWN:-${SM_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}/tests/check_known.tsv}
t_check_skip() { T_CHECK_SKIP+=("$@"); }
# t_check_filter: the lines of `report --check` on stdin that no known
# exception covers, on stdout.
t_check_filter() {
  awk -F'\t' -v known="$T_CHECK_KNOWN" '
    BEGIN { while ((getline l < known) > 0) { if (l ~ /^#/ || l == "") continue
              split(l, f, "\t"); n++; id[n] = f[1]; re[n] = f[2] } }
    { split($0, p, ": "); t = p[2]
      for (i = 1; i <= n; i++) if (t == id[i] && $0 ~ re[i]) next
      print }'
}
# t_check_results FILE...: check FILEs that are stormark results (others,
# and results that cannot be rendered, are left alone: their own tests
# judge them); print what is not known and return 1 when anything is.
t_check_results() {
  local out f rc=0
  out=
  [ "$#" -gt 0 ] && out=$("$STORMARK" report --check "$@" 2>/dev/null | t_check_filter)
  if [ -n "$out" ]; then
    echo "FAIL: the result checker (stormark report --check) found:" >&2
    printf '%s\n' "$out" | head -40 | sed 's/^/  | /' >&2
    rc=1
  fi
  # SM_CHECK_LOG=FILE: append the check's time (T SECONDS SCRIPT FILES,
  # from T_CHECK_T0, the sweep's start), then each file's exit status of
  # the check, its name and what the check printed (indented)
  if [ -n "${SM_CHECK_LOG:-}" ]; then
    echo "T $(awk -v a="${T_CHECK_T0:-$EPOCHREALTIME}" -v b="$EPOCHREALTIME" \
      'BEGIN { printf "%.3f", b - a }') $0 $#" >>"$SM_CHECK_LOG"
    for f in "$@"; do
      out=$("$STORMARK" report --check "$f" 2>&1)
      echo "$? $0 $f" >>"$SM_CHECK_LOG"
      [ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/    /' >>"$SM_CHECK_LOG"
    done
  fi
  return "$rc"
}
# t_check_dir: every result under $T_DIR (not named by t_check_skip): a
# *.json file, or a file of another name that begins as a stormark result
# does ('{', then "schema_version": a --json - or --format json kept as
# out, j.out, ...). Only a file's first bytes are read (bash's read, no
# process per file), and none past report's 256 MiB.
t_check_dir() {
  local f s h files=() T_CHECK_T0=$EPOCHREALTIME
  [ -d "$T_DIR" ] && [ -x "${STORMARK:-}" ] || return 0
  while IFS= read -r -d '' f; do
    for s in "${T_CHECK_SKIP[@]}"; do
      [ "$f" -ef "$s" ] && continue 2
      [[ -d $s && $f == "${s%/}"/* ]] && continue 2
    done
    if [[ $f != *.json ]]; then
      h=
      IFS= read -r -d '' -N 32 h <"$f" 2>/dev/null
      [[ $h == '{'*'"schema_version"'* ]] || continue
    fi
    files+=("$f")
  done < <(find "$T_DIR" -type f -size -262145k -print0 2>/dev/null)
  t_check_results "${files[@]}"
}

ok()   { T_PASSES=$((T_PASSES + 1)); }
fail() { T_FAILS=$((T_FAILS + 1)); echo "FAIL: $*" >&2; }

# check DESC CMD...: the command must succeed.
check() { local d=$1; shift; if "$@"; then ok; else fail "$d"; fi; }

# expect_rc RC DESC CMD...: run CMD (stdout+stderr to $T_DIR/out), expect RC.
expect_rc() {
  local want=$1 d=$2; shift 2
  "$@" >"$T_DIR/out" 2>&1; local got=$?
  if [ "$got" = "$want" ]; then ok; else fail "$d: exit $got, wanted $want"; sed 's/^/  | /' "$T_DIR/out" | head -20 >&2; fi
}

# expect_rc_says RC PATTERNS DESC ARGS...: as expect_rc, and $T_DIR/out
# holds every line of PATTERNS (each an extended regex); RC may be a
# regex too ("1|2"). For a failing MPI job: mpirun, aborting the job on a
# rank's failure, now and then drops what the ranks wrote just before
# (seen in CI), so the run is tried up to 3 times for the lines.
says_all() {
  local p
  while IFS= read -r p; do
    [ -z "$p" ] || grep -Eq -- "$p" "$T_DIR/out" || return 1
  done <<<"$1"
}
expect_rc_says() {
  local want=$1 pats=$2 d=$3 got try; shift 3
  for try in 1 2 3; do
    "$@" >"$T_DIR/out" 2>&1; got=$?
    [[ "$got" =~ ^($want)$ ]] || break
    says_all "$pats" && break
  done
  if ! [[ "$got" =~ ^($want)$ ]]; then fail "$d: exit $got, wanted $want"; sed 's/^/  | /' "$T_DIR/out" | head -20 >&2
  elif ! says_all "$pats"; then fail "$d: not every line said (3 tries): $pats"; sed 's/^/  | /' "$T_DIR/out" | head -20 >&2
  else ok; fi
}

# expect_usage DESC ARGS...: exit 2 with exactly one line on stderr, nothing on stdout.
expect_usage() {
  local d=$1; shift
  "$@" >"$T_DIR/usage.out" 2>"$T_DIR/usage.err"; local got=$?
  local lines; lines=$(wc -l <"$T_DIR/usage.err")
  if [ "$got" = 2 ] && [ "$lines" = 1 ] && [ ! -s "$T_DIR/usage.out" ]; then ok
  else fail "$d: exit $got, $lines stderr line(s)"; head -5 "$T_DIR/usage.err" >&2; fi
}

# Float comparison helpers (awk): approx A B REL -> true when |A-B| <= REL*|B|
approx() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= r * m) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# Print the summary line CTest logs and exit with the right code.
# t_mpi_job: skip (77) unless this stormark has MPI and mpirun is here;
# under a sanitizer OpenMPI's own leaks are not reported; MPI=(...) starts
# ranks on this machine whatever its core count (tests add -np N).
t_mpi_job() {
  if [ "${SM_HAVE_MPI:-1}" = 0 ] || ! "$STORMARK" --version | head -1 | grep -q ' mpi[ )]'; then
    skip "built without MPI (tests/cli/mpi.sh checks the refusal)"
  fi
  command -v mpirun >/dev/null || skip "mpirun is not installed (scripts/deps.sh installs openmpi-bin)"
  if [ "${SM_SANITIZER:-none}" != none ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  fi
  MPI=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca rmaps_base_oversubscribe 1)
}

# flip_byte FILE OFFSET: invert every bit of FILE's byte at OFFSET in
# place, so the byte surely changes (writing a fixed one leaves it as it was
# when the data already held that byte, once in 256 on random data).
flip_byte() {
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  # shellcheck disable=SC2059
  printf "\\$(printf %03o $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

finish() {
  echo "$T_PASSES passed, $T_FAILS failed"
  [ "$T_FAILS" = 0 ]; exit $?
}

# skip REASON: exit 77 (CTest SKIP_RETURN_CODE) with the reason.
skip() { echo "SKIP: $*"; exit 77; }

# What this machine lets stormark do, for checks that hold only where it
# can (an emulated ARM build under qemu-user has neither, make
# test-aarch64; a container's seccomp profile may refuse io_uring):
# io_uring usable (its --version says so)
t_uring_usable() { "$STORMARK" --version 2>/dev/null | grep -q "this kernel: usable"; }
# the platform layer this build has: CMake's SM_OS in the build's cache,
# linux or posix (`make test-posix`, docs/platforms.md)
t_os() { sed -n 's/^SM_OS:STRING=//p' "$SM_BUILD_DIR/CMakeCache.txt" 2>/dev/null; }
# direct I/O: O_DIRECT on Linux; the plain-POSIX implementation asks for it
# with F_NOCACHE, which Linux lacks, so a posix build here has none (frames
# and streams fall back to buffered I/O with a warning, fileio refuses)
t_direct_io() { [ "$(t_os)" != posix ]; }
# t_frames_need_direct_io: for a test whose checks of a clean stderr need
# direct I/O. Where there is none every frames run warns that it falls back
# to buffered I/O: that fallback is checked once, then the test skips.
t_frames_need_direct_io() {
  t_direct_io && return 0
  mkdir -p "$T_DIR/nodirect"
  expect_rc 0 "no direct I/O: frames runs" "$SM_BUILD_DIR/frametest" -w 4 -n 2 -t 1 "$T_DIR/nodirect"
  check "no direct I/O: the fallback is said" grep -q 'refuses direct I/O.*using buffered I/O' "$T_DIR/out"
  [ "$T_FAILS" = 0 ] || finish
  skip "no direct I/O in this build ($(t_os)): every run warns of its buffered fallback"
}
# time follows the whole process tree (PR_SET_CHILD_SUBREAPER: without it
# the result warns tree_unfollowed)
t_tree_followed() { ! "$STORMARK" time -n 1 --json -- true 2>/dev/null | grep -q '"tree_unfollowed"'; }

# t_fault_fs: what a fault test (tests/cli/faults_*.sh) starts with: the
# failing FUSE file system's helpers (tests/fusefail/mount.sh: ff_mount,
# ff_umount, tmpfs_mount; its EXIT trap unmounts, then cleans up), the
# test skipped (77) unless FUSE works here; B, a backing directory holding
# the user's file keep.txt ("not stormark's"), and M, the path to mount on.
t_fault_fs() {
  . "${SM_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}/tests/fusefail/mount.sh"
  ff_require
  B="$T_DIR/back"
  M="$T_DIR/mnt"
  mkdir -p "$B"
  echo "not stormark's" >"$B/keep.txt"
}

# ---- cgroup-v1 blkio throttle (ground truth for accuracy tests) ----------
T_CGROUP=""
# t_cgroup_throttle KIND BYTES_PER_SEC DIR: make a blkio cgroup that limits
# KIND (read|write) on the device holding DIR. Sets T_CGROUP, or returns 1.
t_cgroup_throttle() {
  local kind=$1 bps=$2 dir=$3 root=/sys/fs/cgroup/blkio devno
  [ -w "$root" ] || return 1
  devno=$(t_disk_devno "$dir") || return 1
  T_CGROUP="$root/stormark-test-$$-$RANDOM"
  mkdir "$T_CGROUP" 2>/dev/null || { T_CGROUP=""; return 1; }
  echo "$devno $bps" >"$T_CGROUP/blkio.throttle.${kind}_bps_device" 2>/dev/null || { t_cgroup_release; return 1; }
  return 0
}
# t_cgroup_throttle_also KIND BYTES_PER_SEC DIR: the cgroup t_cgroup_throttle
# made limits KIND (read|write) too, or returns 1.
t_cgroup_throttle_also() {
  local devno
  [ -n "$T_CGROUP" ] || return 1
  devno=$(t_disk_devno "$3") || return 1
  echo "$devno $2" >"$T_CGROUP/blkio.throttle.${1}_bps_device" 2>/dev/null
}
# t_stall_start DIR RATE STALL_S EVERY_S: the stall injector. The cgroup
# t_cgroup_throttle made throttles reads and writes of the disk under DIR to
# RATE bytes/s, except for STALL_S seconds out of every EVERY_S, when both
# drop to a trickle (4096 B/s): cgroup v1 holds queued requests until the
# limit changes, so nothing completes for the whole stall
# (docs/methodology.md). The loop runs in the background until
# t_stall_stop (called at exit too) kills it by its pid.
T_STALL_PID=""
t_stall_start() {
  local devno
  [ -n "$T_CGROUP" ] || return 1
  devno=$(t_disk_devno "$1") || return 1
  echo "$devno $2" >"$T_CGROUP/blkio.throttle.read_bps_device" || return 1
  echo "$devno $2" >"$T_CGROUP/blkio.throttle.write_bps_device" || return 1
  ( trap 'exit 0' TERM
    while :; do
      sleep "$(awk -v a="$4" -v b="$3" 'BEGIN { print a - b }')"
      echo "$devno 4096" >"$T_CGROUP/blkio.throttle.read_bps_device"
      echo "$devno 4096" >"$T_CGROUP/blkio.throttle.write_bps_device"
      sleep "$3"
      echo "$devno $2" >"$T_CGROUP/blkio.throttle.read_bps_device"
      echo "$devno $2" >"$T_CGROUP/blkio.throttle.write_bps_device"
    done ) &
  T_STALL_PID=$!
}
t_stall_stop() {
  [ -n "$T_STALL_PID" ] || return 0
  kill "$T_STALL_PID" 2>/dev/null; wait "$T_STALL_PID" 2>/dev/null
  T_STALL_PID=""
}
# t_cgroup_exec CMD...: run CMD inside $T_CGROUP.
t_cgroup_exec() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$T_CGROUP" "$@"; }
t_cgroup_release() { [ -n "$T_CGROUP" ] && rmdir "$T_CGROUP" 2>/dev/null; T_CGROUP=""; }
# The whole-disk MAJ:MIN under the file system holding DIR (throttles apply
# to whole disks, not partitions).
t_disk_devno() {
  local src name pk
  src=$(df --output=source "$1" | tail -1)
  [ -b "$src" ] || return 1
  name=$(basename "$(readlink -f "$src")")
  pk=$(lsblk -no PKNAME "/dev/$name" 2>/dev/null | head -1)
  [ -n "$pk" ] && name=$pk
  cat "/sys/class/block/$name/dev"
}
