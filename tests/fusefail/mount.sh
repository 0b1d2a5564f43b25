# SPDX-License-Identifier: MIT
# Helpers for the fault tests (tests/cli/faults_*.sh): mount the failing
# FUSE file system (tests/fusefail/fusefail.c, built as $SM_FUSEFAIL) over a
# backing directory, and a small tmpfs for a full disk. Source it after
# tests/lib.sh; it sets the EXIT trap (unmount everything, then t_cleanup).
#
#   ff_require                  skip (77) with the reason unless FUSE works here
#   ff_mount BACKING MNT OPTS   mount fusefail (OPTS: --fail-read=N, ...)
#   ff_umount MNT               unmount it and wait for its process
#   tmpfs_mount DIR SIZE        mount a tmpfs of SIZE (e.g. 8m) at DIR
#
# A mount point is a file system's root: frames, fileio and run refuse it as
# their directory unless given --force, as the fault tests do.

FF_MOUNTS=""        # "mnt:pid" pairs still mounted
TMPFS_MOUNTS=""

ff_cleanup() {
	local e
	for e in $FF_MOUNTS; do ff_umount "${e%%:*}"; done
	for e in $TMPFS_MOUNTS; do umount "$e" 2>/dev/null || umount -l "$e" 2>/dev/null; done
	t_cleanup
}
trap ff_cleanup EXIT

ff_require() {
	[ -n "${SM_FUSEFAIL:-}" ] && [ -x "$SM_FUSEFAIL" ] ||
		skip "tests/fusefail was not built (libfuse3-dev missing: run scripts/deps.sh)"
	[ -c /dev/fuse ] || skip "no /dev/fuse here"
	command -v fusermount3 >/dev/null || skip "fusermount3 missing (Debian package fuse3)"
	mkdir -p "$T_DIR/ff-probe-b" "$T_DIR/ff-probe-m"
	ff_mount "$T_DIR/ff-probe-b" "$T_DIR/ff-probe-m" || skip "cannot mount a FUSE file system here: $(cat "$T_DIR/ff.err")"
	ff_umount "$T_DIR/ff-probe-m"
}

# ff_mount BACKING MNT [fusefail options]: returns 1 when the mount did not
# appear within 5 s (the reason in $T_DIR/ff.err).
ff_mount() {
	local b=$1 m=$2 pid i
	shift 2
	mkdir -p "$b" "$m"
	"$SM_FUSEFAIL" -f "$@" "$b" "$m" 2>"$T_DIR/ff.err" &
	pid=$!
	for i in $(seq 50); do
		if mountpoint -q "$m"; then
			FF_MOUNTS="$FF_MOUNTS $m:$pid"
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 1
}

ff_umount() {
	local m=$1 e pid="" rest="" i
	for e in $FF_MOUNTS; do
		if [ "${e%%:*}" = "$m" ]; then pid=${e##*:}; else rest="$rest $e"; fi
	done
	FF_MOUNTS=$rest
	# a process that just died on the mount may hold it for a moment
	for i in $(seq 20); do
		fusermount3 -u "$m" 2>/dev/null && break
		sleep 0.1
	done
	mountpoint -q "$m" && fusermount3 -uz "$m" 2>/dev/null
	[ -n "$pid" ] && wait "$pid" 2>/dev/null
	return 0
}

tmpfs_mount() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null || return 1
	TMPFS_MOUNTS="$TMPFS_MOUNTS $1"
}
