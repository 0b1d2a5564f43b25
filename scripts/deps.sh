#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages stormark needs to build, test and benchmark.
# Does nothing when they are all present. Usage: scripts/deps.sh [--bench]
# [--cross] [--list]; --cross adds the ARM cross toolchains, qemu-user and
# the arm64 and armhf -dev packages (make test-aarch64, make test-armhf); --list prints the packages, one a line, and installs nothing
# (tests/cli/deps.sh checks that every library the build links comes from
# one of them).
set -eu
pkgs="build-essential cmake pkg-config liburing-dev libcjson-dev libsqlite3-dev
      libcmocka-dev time python3 jq python3-jsonschema libxxhash-dev"
# SQLite's static archive (SM_STATIC_DEPS) needs zlib (-lz), which
# libsqlite3-dev does not pull in.
pkgs="$pkgs zlib1g-dev"
# Peers that the tests compare against (GNU time, sysbench; python3 and jq
# read the JSON in the end-to-end tests, python3-jsonschema checks it against
# docs/stormark.schema.json) and that benchmarks use.
pkgs="$pkgs sysbench"
# clang and its runtime build the libFuzzer targets (fuzz/, tests/cli/fuzz.sh).
pkgs="$pkgs clang libclang-rt-dev"
# The fault tests mount a failing FUSE file system (tests/fusefail).
pkgs="$pkgs libfuse3-dev fuse3"
# The completion test drives bash-completion's functions too; the man page
# test reads the page with groff and man (tests/cli/completion.sh, manpage.sh).
pkgs="$pkgs bash-completion groff-base man-db"
# Many-host runs build on OpenMPI (src/mpi/); tests/cli/mpi*.sh launch it,
# and the two-host test uses ip(8) for its network namespaces.
pkgs="$pkgs libopenmpi-dev openmpi-bin iproute2"
# tests/cli/slurm.sh runs the MPI mode under a one-node Slurm (slurmctld,
# slurmd, srun with its pmix plugin); munge is Slurm's usual authentication.
pkgs="$pkgs slurm-wlm munge"
# The HTML report tests render every command's page in headless Chromium
# (tests/cli/html_*.sh).
pkgs="$pkgs chromium"
# The OpenMetrics test parses every --format openmetrics output with
# Prometheus' own parser (tests/cli/openmetrics.sh).
pkgs="$pkgs python3-prometheus-client"
# The real consumers of --format prometheus: node_exporter's textfile
# collector, promtool and a Prometheus server (tests/cli/prometheus_clients.sh).
pkgs="$pkgs prometheus-node-exporter prometheus"
# tests/cli/share_smb.sh serves a guest share with Samba's smbd on loopback
# and mounts it through smbnetfs, an SMB client over FUSE (docs/shares.md).
pkgs="$pkgs samba smbnetfs"
# The libnfs engine (--nfs, optional at build time) builds on libnfs; its
# test serves a scratch directory with nfs-ganesha's VFS backend inside a
# network namespace of its own, where rpcbind runs for NFSv3; nfs-ls and
# nfs-cp (libnfs-utils) let a person look at such a server by hand.
pkgs="$pkgs libnfs-dev libnfs-utils nfs-ganesha nfs-ganesha-vfs rpcbind"
list=0
cross=0
for a in "$@"; do
  case $a in
    --bench) pkgs="$pkgs fio hyperfine" ;;
    --cross)
      # Debian's cross compilers, qemu-user-static (with its binfmt rules,
      # scripts/binfmt.sh) and the libraries the build links, for each
      # ARM architecture (multiarch: the host's packages stay as they are)
      cross=1
      pkgs="$pkgs gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user-static"
      for a in arm64 armhf; do
        for p in libcjson-dev liburing-dev libsqlite3-dev libxxhash-dev zlib1g-dev libcmocka-dev; do
          pkgs="$pkgs $p:$a"
        done
      done ;;
    --list) list=1 ;;
    *) echo "deps.sh: unknown option '$a' (usage: scripts/deps.sh [--bench] [--cross] [--list])" >&2; exit 2 ;;
  esac
done
if [ "$list" = 1 ]; then
  # shellcheck disable=SC2086
  printf '%s\n' $pkgs
  exit 0
fi

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "deps.sh: missing packages:$missing; run as root or install them with apt-get" >&2
  exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if [ "$cross" = 1 ]; then
  for a in arm64 armhf; do
    dpkg --print-foreign-architectures | grep -qx "$a" || dpkg --add-architecture "$a"
  done
fi
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
