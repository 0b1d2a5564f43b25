#!/bin/bash
# SPDX-License-Identifier: MIT
# A real SMB share on loopback (docs/shares.md): Samba's smbd serves a
# guest share of a scratch directory on 127.0.0.1 at an unprivileged port,
# smbnetfs (an SMB client over FUSE) mounts the network in $T_DIR, and
# frames writes and reads through it. stormark must name the mount
# (environment.mount: fuse, smbnetfs, the server and the share), warn that
# direct I/O on a FUSE daemon may not reach the server and that the figures
# are one client's, and show the share in its markdown and HTML reports.
# smbd and smbnetfs are stopped by their pids (smbd in a process group of
# its own, as it makes without --no-process-group: at exit it signals its
# group, which must not be this script's).
. "$SM_SOURCE_DIR/tests/lib.sh"

command -v smbd >/dev/null || [ -x /usr/sbin/smbd ] ||
  skip "smbd missing (Debian package samba: run scripts/deps.sh)"
SMBD=$(command -v smbd || echo /usr/sbin/smbd)
command -v smbnetfs >/dev/null || skip "smbnetfs missing (Debian package smbnetfs: run scripts/deps.sh)"
[ -c /dev/fuse ] || skip "no /dev/fuse here"
command -v fusermount >/dev/null || skip "fusermount missing (smbnetfs is a FUSE 2 program)"

S="$T_DIR/smb"            # smbd's configuration, state and log
EXPORT="$T_DIR/export"    # what the share serves
MNT="$T_DIR/mnt"          # smbnetfs' mount: MNT/HOST:PORT/SHARE/...
H="$T_DIR/home"           # smbnetfs' and libsmbclient's ~/.smb
mkdir -p "$S/run" "$EXPORT" "$MNT" "$H/.smb"
SMBD_PID=""
FS_PID=""

share_cleanup() {
  if [ -n "$FS_PID" ]; then
    fusermount -u "$MNT" 2>/dev/null || fusermount -uz "$MNT" 2>/dev/null
    kill "$FS_PID" 2>/dev/null
    wait "$FS_PID" 2>/dev/null
  fi
  if [ -n "$SMBD_PID" ]; then
    kill "$SMBD_PID" 2>/dev/null
    wait "$SMBD_PID" 2>/dev/null
  fi
  t_cleanup
}
trap share_cleanup EXIT

# a port no one listens on (bound and let go: a race of microseconds)
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$S/smb.conf" <<EOF
[global]
  server role = standalone server
  smb ports = $PORT
  interfaces = 127.0.0.1
  bind interfaces only = yes
  disable netbios = yes
  map to guest = Bad User
  pid directory = $S/run
  lock directory = $S/run
  state directory = $S/run
  cache directory = $S/run
  private dir = $S/run
  ncalrpc dir = $S/run/ncalrpc
  log file = $S/smbd.log
  passdb backend = tdbsam:$S/run/passdb.tdb
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
[stormark]
  path = $EXPORT
  guest ok = yes
  guest only = yes
  read only = no
  force user = $(id -un)
EOF
"$SMBD" --foreground --configfile="$S/smb.conf" >"$S/smbd.out" 2>&1 &
SMBD_PID=$!
up=0
for _ in $(seq 100); do
  kill -0 "$SMBD_PID" 2>/dev/null || break
  if "$PY" -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$PORT" 2>/dev/null; then
    up=1
    break
  fi
  sleep 0.1
done
[ "$up" = 1 ] || skip "smbd did not listen on 127.0.0.1:$PORT: $(tail -3 "$S/smbd.out" "$S/smbd.log" 2>/dev/null | tr '\n' ' ')"

# smbnetfs asks no browser (there is none) and needs no password for a guest
echo "smb_query_browsers false" >"$H/.smb/smbnetfs.conf"
HOME="$H" smbnetfs "$MNT" -f -o "config=$H/.smb/smbnetfs.conf" >"$S/smbnetfs.out" 2>&1 &
FS_PID=$!
for _ in $(seq 50); do
  mountpoint -q "$MNT" && break
  kill -0 "$FS_PID" 2>/dev/null || break
  sleep 0.1
done
mountpoint -q "$MNT" || { FS_PID=""; skip "smbnetfs could not mount here: $(tr '\n' ' ' <"$S/smbnetfs.out")"; }

# libsmbclient takes the port from the host's name in the path
D="$MNT/127.0.0.1:$PORT/stormark/frames"
mkdir "$D" || { fail "cannot make a directory through the share"; finish; }
check "the directory made through the share is in the export" test -d "$EXPORT/frames"

"$STORMARK" frames -w 64 -n 8 --json="$T_DIR/w.json" "$D" >"$T_DIR/o" 2>"$T_DIR/e"
check "write: exit 0" test $? = 0
check "write: every frame went through the share" \
  test "$(find "$EXPORT/frames" -name 'frame*' -size 64k | wc -l)" = 8
check "write: fs_type fuse.smbnetfs" test "$(json "$T_DIR/w.json" "d['environment']['fs_type']")" = fuse.smbnetfs
check "write: the mount: fuse, smbnetfs, the server and the share" \
  test "$(json "$T_DIR/w.json" "[d['environment']['mount'][k] for k in ('protocol', 'kind', 'subtype', 'server', 'export')]")" = \
  "['fuse', 'fuse', 'smbnetfs', '127.0.0.1:$PORT', 'stormark']"
check "write: direct I/O on the FUSE share, warned" \
  grep -qx "stormark frames: warning: direct I/O on fuse.smbnetfs without direct_io in its mount: the FUSE daemon may answer O_DIRECT from a cache of its own, so reads can be faster than its link" "$T_DIR/e"
check "write: one client's figures, warned" \
  grep -q "^stormark frames: warning: one client's figures on fuse.smbnetfs, capped by its one FUSE daemon" "$T_DIR/e"
check "write: both warnings in the JSON" \
  test "$(json "$T_DIR/w.json" "[w['code'] for w in d['warnings'] if w['code'].startswith('share_')]")" = \
  "['share_direct_io', 'share_one_client']"
check "write: the mount conforms to the schema" "$PY" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$T_DIR/w.json" "$SM_SOURCE_DIR/docs/stormark.schema.json"

"$STORMARK" frames -r -n 8 --json="$T_DIR/r.json" "$D" >"$T_DIR/o" 2>"$T_DIR/e"
check "read: exit 0" test $? = 0
check "read: the same warnings" \
  test "$(grep -c "^stormark frames: warning: .*fuse.smbnetfs" "$T_DIR/e")" = 2
check "read: read the 8 frames" test "$(json "$T_DIR/r.json" "d['ops']['frame']['count']")" = 8

"$STORMARK" report --format markdown "$T_DIR/w.json" >"$T_DIR/md" 2>/dev/null
check "markdown: the share's line" grep -qx -- "- share: fuse.smbnetfs, server 127.0.0.1:$PORT, share stormark" "$T_DIR/md"
"$STORMARK" report --html "$T_DIR/w.html" "$T_DIR/w.json" >/dev/null 2>&1
check "html: the share's line" grep -q "share</td><td>fuse.smbnetfs, server 127.0.0.1:$PORT, share stormark" "$T_DIR/w.html"
# streams reuses its names step after step: each step's files must be
# closed before they are removed (an SMB server refuses to remove an open
# file), or the next step's exclusive create finds the last one's
"$STORMARK" streams --time 12 --step 2 --max-streams 4 --trials 1 \
  --video-format prores-proxy-hd --json="$T_DIR/s.json" "$D" >"$T_DIR/o" 2>"$T_DIR/e"
check "streams: exit 0" test $? = 0
check "streams: no step failed" sh -c '! grep -q "cannot\|File exists" "$1"' sh "$T_DIR/e"
check "streams: more than one stream held in both directions" \
  test "$(json "$T_DIR/s.json" "[c['max_streams'] > 1 for c in d['streams']]")" = "[True, True]"
check "streams: nothing left in the export" \
  test -z "$(find "$EXPORT/frames" -name '.stormark-streams-*')"
finish
