/* SPDX-License-Identifier: MIT */
/* Counters of the whole disk under a path: /proc/diskstats, or the disk's
 * own sysfs stat file (one line, read again with one pread). */
#include "core/diskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[got] = '\0';
	return (int)got;
}

static int dev_of(const char *sysdir, struct sm_diskdev *out)
{
	char path[512], buf[64];
	const char *base;
	char real[512];
	unsigned ma, mi;

	snprintf(path, sizeof(path), "%s/dev", sysdir);
	if (read_small(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -ENODEV;
	/* the device's name is the last part of the link's target (or of the
	 * path, for a partition's parent "X/.."): one readlink, not the
	 * realpath walk of every component */
	{
		ssize_t k;
		size_t sl = strlen(sysdir);

		if (sl > 3 && !strcmp(sysdir + sl - 3, "/..")) {
			if (!realpath(sysdir, real))
				return -errno;
		} else if ((k = readlink(sysdir, real, sizeof(real) - 1)) > 0) {
			real[k] = '\0';
		} else if (!realpath(sysdir, real)) {
			return -errno;
		}
	}
	base = strrchr(real, '/');
	snprintf(out->name, sizeof(out->name), "%s", base ? base + 1 : real);
	out->major = ma;
	out->minor = mi;
	return 0;
}

int sm_diskdev_resolve(unsigned maj, unsigned min, struct sm_diskdev *out)
{
	char dir[128], part[160], parent[192];
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (maj == 0)
		return -ENODEV;   /* anonymous device: tmpfs, overlay, btrfs subvolume */
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", maj, min);
	if (stat(dir, &st))
		return errno == ENOENT ? -ENODEV : -errno;
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (!access(part, F_OK)) {
		snprintf(parent, sizeof(parent), "%s/..", dir);
		return dev_of(parent, out);
	}
	return dev_of(dir, out);
}

/* Fields of a device's counters, from reads on (the 14th of a
 * /proc/diskstats line, the 1st of the sysfs stat file): reads, merged,
 * sectors, ms, writes, merged, sectors, ms, in flight, io ms, weighted ms,
 * then discards x4 (4.18+), flushes x2 (5.5+). Takes n of them (at least
 * 11) into out. */
static void fill(const unsigned long long *f, int n, struct sm_diskstat *out)
{
	out->rd_ios = f[0];
	out->rd_bytes = f[2] * 512;
	out->wr_ios = f[4];
	out->wr_bytes = f[6] * 512;
	out->io_ticks_ms = f[9];
	out->flush_ios = n >= 16 ? f[15] : 0;
}

/* Up to 17 numbers from s into f; returns how many. */
static int numbers(const char *s, unsigned long long *f)
{
	int n = 0;
	char *end;

	while (n < 17) {
		unsigned long long v;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			break;
		v = strtoull(s, &end, 10);
		if (end == s)
			break;
		f[n++] = v;
		s = end;
	}
	return n;
}

int sm_diskstat_parse(const char *text, const struct sm_diskdev *dev,
		      struct sm_diskstat *out)
{
	const char *line = text;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		char *end;
		unsigned long long f[17];
		int n;

		/* the device's numbers first: the other lines' 20 fields are
		 * never converted */
		if (strtoul(line, &end, 10) != dev->major || end == line ||
		    strtoul(end, &end, 10) != dev->minor) {
			line = strchr(line, '\n');
			if (line)
				line++;
			continue;
		}
		/* then the name, then the counters */
		while (*end == ' ' || *end == '\t')
			end++;
		while (*end && *end != ' ' && *end != '\t' && *end != '\n')
			end++;
		n = numbers(end, f);
		if (n >= 11) {
			fill(f, n, out);
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENODEV;
}

int sm_diskstat_parse_stat(const char *text, struct sm_diskstat *out)
{
	unsigned long long f[17];
	int n = numbers(text, f);

	memset(out, 0, sizeof(*out));
	if (n < 11)
		return -EINVAL;
	fill(f, n, out);
	return 0;
}

int sm_diskstat_open(const struct sm_diskdev *dev)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", dev->major, dev->minor);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sm_diskstat_pread(int fd, struct sm_diskstat *out)
{
	char buf[512];
	ssize_t n;

	do {
		n = pread(fd, buf, sizeof(buf) - 1, 0);   /* sysfs makes it anew at offset 0 */
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return sm_diskstat_parse_stat(buf, out);
}

int sm_diskstat_read(const struct sm_diskdev *dev, struct sm_diskstat *out)
{
	char line[512];
	FILE *f = fopen("/proc/diskstats", "re");
	int rc = -ENODEV;

	/* line by line: no large buffer to fault in on every run */
	if (!f)
		return -errno;
	while (rc && fgets(line, sizeof(line), f))
		rc = sm_diskstat_parse(line, dev, out);
	fclose(f);
	return rc;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void sm_diskstat_delta(const struct sm_diskstat *a, const struct sm_diskstat *b,
		       struct sm_diskstat *d)
{
	d->rd_ios = sub(a->rd_ios, b->rd_ios);
	d->rd_bytes = sub(a->rd_bytes, b->rd_bytes);
	d->wr_ios = sub(a->wr_ios, b->wr_ios);
	d->wr_bytes = sub(a->wr_bytes, b->wr_bytes);
	d->flush_ios = sub(a->flush_ios, b->flush_ios);
	d->io_ticks_ms = sub(a->io_ticks_ms, b->io_ticks_ms);
}
