/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compiler.h"
#include "result/run.h"

static char scratch[PATH_MAX];
static pid_t owner;   /* the process that made it: a forked child leaves it */
static int first_err;

static int rm_one(const char *path, SM_UNUSED const struct stat *st, int flag, SM_UNUSED struct FTW *ftw)
{
	int rc = flag == FTW_DP ? rmdir(path) : unlink(path);

	if (rc && errno != ENOENT && !first_err) {
		first_err = -errno;
		fprintf(stderr, "cannot remove '%s': %s\n", path, strerror(errno));
	}
	return 0;
}

int t_rm_rf(const char *path)
{
	first_err = 0;
	/* depth first (a directory after its entries), physical (a link is
	 * removed, never followed), on this file system only */
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) && errno != ENOENT)
		return -errno;
	return first_err;
}

static void at_exit(void)
{
	if (getpid() == owner)
		t_scratch_remove();
}

const char *t_scratch(const char *name)
{
	const char *base = getenv("SM_BUILD_DIR");

	snprintf(scratch, sizeof(scratch), "%s/unit-%s-XXXXXX", base && *base ? base : ".", name);
	if (!mkdtemp(scratch)) {
		fprintf(stderr, "%s: cannot create a scratch directory in '%s': %s\n", name,
			base && *base ? base : ".", strerror(errno));
		exit(1);
	}
	owner = getpid();
	atexit(at_exit);
	return scratch;
}

/* This program's scratch directory, made on first use. */
static const char *root(void)
{
	if (!scratch[0] || owner != getpid())
		t_scratch(program_invocation_short_name);
	return scratch;
}

/* "ROOT/NAME-XXXXXX" into buf, or exit 1. */
static void template(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s-XXXXXX", root(), name);

	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "%s: the scratch path under '%s' is too long\n", name, scratch);
		exit(1);
	}
}

char *t_tmpdir(char *buf, size_t len, const char *name)
{
	template(buf, len, name);
	if (!mkdtemp(buf)) {
		fprintf(stderr, "%s: cannot create '%s': %s\n", name, buf, strerror(errno));
		exit(1);
	}
	return buf;
}

int t_tmpfile(char *buf, size_t len, const char *name)
{
	int fd;

	template(buf, len, name);
	fd = mkstemp(buf);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot create '%s': %s\n", name, buf, strerror(errno));
		exit(1);
	}
	return fd;
}

int t_scratch_remove(void)
{
	int rc;

	if (!scratch[0])
		return 0;
	rc = t_rm_rf(scratch);
	if (!rc)
		scratch[0] = '\0';
	return rc;
}

void t_skip(const char *fmt, ...)
{
	va_list ap;

	printf("skipped: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(T_SKIP);
}

void t_run_steady(struct sm_run_frametest *t, double bytes_per_s, unsigned long long frame_bytes,
		  unsigned secs)
{
	struct sm_frames_snap *s = calloc(secs, sizeof(*s));
	double frames = bytes_per_s / (double)frame_bytes;

	if (!s) {
		fprintf(stderr, "t_run_steady: out of memory\n");
		exit(1);
	}
	for (unsigned i = 0; i < secs; i++) {
		s[i].t_ns = (i + 1) * 1000000000ull;
		s[i].frames = (uint64_t)(frames * (i + 1) + 0.5);
		s[i].bytes = (uint64_t)(bytes_per_s * (i + 1));
	}
	free(t->series);
	t->series = s;
	t->nseries = secs;
	memset(&t->stalls, 0, sizeof(t->stalls));
	t->stalls.measured = 1;
	t->stalls.period_ns = SM_STALL_PERIOD_NS;
	t->stalls.threshold_ns = SM_STALL_UNPACED_MIN_NS;
}
