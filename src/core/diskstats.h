/* SPDX-License-Identifier: MIT */
/* System-wide device counters from /proc/diskstats for the disk holding a
 * path (a partition is mapped to its whole disk). */
#ifndef SM_DISKSTATS_H
#define SM_DISKSTATS_H

#include <stdint.h>

/* The block device whose counters are read. */
struct sm_diskdev {
	char name[64];                 /* "vda" */
	unsigned major, minor;
};

/* One snapshot of a device's counters (bytes, not sectors). */
struct sm_diskstat {
	uint64_t rd_ios, rd_bytes, wr_ios, wr_bytes;
	uint64_t flush_ios;            /* 0 on kernels before 5.5 */
	uint64_t io_ticks_ms;          /* time the device was busy */
};

/* Resolve the whole disk for device number maj:min (st_dev of a file).
 * Returns 0, or -ENODEV when it is not a block device (tmpfs, overlay,
 * NFS), another -errno when /sys cannot be read. */
int sm_diskdev_resolve(unsigned maj, unsigned min, struct sm_diskdev *out);

/* Read the current counters of dev. Returns 0 or -errno (-ENODEV when the
 * device is not listed). */
int sm_diskstat_read(const struct sm_diskdev *dev, struct sm_diskstat *out);

/* Find dev in the text of /proc/diskstats and parse its line.
 * Returns 0 or -ENODEV. */
int sm_diskstat_parse(const char *text, const struct sm_diskdev *dev,
		      struct sm_diskstat *out);

/* The same counters from the disk's sysfs stat file (its text, without
 * the major, minor and name /proc/diskstats puts first). Returns 0 or
 * -EINVAL. */
int sm_diskstat_parse_stat(const char *text, struct sm_diskstat *out);

/* That file of dev (/sys/dev/block/MAJ:MIN/stat) opened, to take each
 * snapshot with sm_diskstat_pread() (one system call: no open, no walk of
 * every disk's line as /proc/diskstats makes). Returns the descriptor or
 * -errno. */
int sm_diskstat_open(const struct sm_diskdev *dev);
int sm_diskstat_pread(int fd, struct sm_diskstat *out);

/* d = b - a, field by field (counters that went backwards give 0). */
void sm_diskstat_delta(const struct sm_diskstat *a, const struct sm_diskstat *b,
		       struct sm_diskstat *d);

#endif
