#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Let this machine run ARCH's programs (aarch64, arm) by name, through
# qemu-user-static: binfmt_misc mounted and Debian's qemu-ARCH rule
# (/usr/lib/binfmt.d/qemu-ARCH.conf) registered, as systemd-binfmt does
# at boot. An emulated build's tests then run its stormark, and the
# frametest and sysbench names beside it, as they run a native one
# (make test-aarch64, make test-armhf). Does nothing when the rule is
# already there. Usage: scripts/binfmt.sh ARCH
set -eu
arch=${1:?usage: scripts/binfmt.sh aarch64|arm}
dir=/proc/sys/fs/binfmt_misc
rule=/usr/lib/binfmt.d/qemu-$arch.conf
[ -e "$dir/qemu-$arch" ] && exit 0
[ -r "$rule" ] || { echo "binfmt.sh: $rule is missing (package qemu-user-static)" >&2; exit 1; }
if [ ! -e "$dir/register" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "binfmt.sh: binfmt_misc is not mounted; as root: mount -t binfmt_misc binfmt_misc $dir" >&2
    exit 1
  fi
  mount -t binfmt_misc binfmt_misc "$dir"
fi
if [ "$(id -u)" != 0 ]; then
  echo "binfmt.sh: qemu-$arch is not registered; as root: scripts/binfmt.sh $arch" >&2
  exit 1
fi
grep -v '^#' "$rule" | grep . >"$dir/register"
[ -e "$dir/qemu-$arch" ]
