#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The device's limit at every queue depth: stormark fileio (async) beside
# fio's t/io_uring, the fastest submitter there is, and beside fio's
# io_uring tuned and default, on 4 KiB direct random reads and writes at
# QD 1 8 32 128 256 with one thread and two, and the null engine's CPU per
# I/O (stormark's own cost). The runs and the table are bench-sweep.sh's
# (its environment applies: STORMARK, DIR, SIZE, DURATION, PAIRS); this
# script fixes the grid and needs T_IO_URING. Targets (bench/README.md,
# "limit"): stormark / t/io_uring IOPS >= 0.97 and CPU per I/O <= 1.1x at
# each read point, median of the rotating rounds, on a quiet machine.
#
#   T_IO_URING=/path/to/fio/t/io_uring bench/bench-limit.sh   (about 40 min)
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${T_IO_URING:-}" ] || [ ! -x "$T_IO_URING" ]; then
	cat >&2 <<'HOW'
bench-limit: set T_IO_URING to fio's t/io_uring program. It is not in
Debian's fio package; build it from fio's source (fio's Makefile has a
target for it), for example from Debian's source package:
    mkdir fio-src && cd fio-src
    apt-get source fio            (needs a deb-src line for the archive)
    cd fio-*/ && ./configure --disable-native && make t/io_uring
or from a clone of https://github.com/axboe/fio with the same two commands.
Then: T_IO_URING=$PWD/t/io_uring bench/bench-limit.sh
HOW
	exit 1
fi
export T_IO_URING
# t/io_uring prints the IOPS of each whole second: a run of D seconds
# gives D - 1 of them, so runs here last 4 s
export DURATION=${DURATION:-4}
export QDS=${QDS:-1 8 32 128 256}
export POINTS=${POINTS:-rr-* rw-* null}
exec "$here/bench-sweep.sh"
