/* SPDX-License-Identifier: MIT */
/* An MPI job's document against its --mpi-rank-detail file (docs/mpi.md):
 * a line per rank, each rank once, and the job's bytes the sum of the
 * ranks' own. The caller reads the file a line at a time; this keeps only
 * sums and one bit a rank. */
#include "check/check.h"
#include "check/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A rank's data moved, as its row of the rank table counts it (frames:
 * totals.bytes; fileio: read and written; meta: every phase's). */
static double line_bytes(const cJSON *doc)
{
	const char *cmd = ck_str(doc, "command");
	const cJSON *op;
	double b = 0, v;

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "frames"))
		return ck_num(doc, "totals.bytes", &v) ? v : 0;
	if (!strcmp(cmd, "fileio")) {
		if (ck_num(doc, "ops.read.bytes", &v))
			b += v;
		if (ck_num(doc, "ops.write.bytes", &v))
			b += v;
		return b;
	}
	cJSON_ArrayForEach(op, ck_at(doc, "meta.ops"))
		if (ck_num(op, "bytes", &v))
			b += v;
	return b;
}

int sm_check_detail_start(struct sm_check_detail *a, const cJSON *job)
{
	double n = 0;

	memset(a, 0, sizeof(*a));
	if (!ck_num(job, "mpi.ranks_total", &n) || n < 1 || n > 1e7)
		return -1;
	a->ranks = (unsigned)n;
	a->seen = calloc((a->ranks + 7) / 8, 1);
	return a->seen ? 0 : -1;
}

void sm_check_detail_line(struct sm_check_detail *a, const cJSON *line, struct sm_check *c)
{
	double r = -1;

	a->lines++;
	if (!ck_num(line, "mpi_rank.rank", &r) || r < 0 || r >= a->ranks || r != (unsigned)r) {
		sm_check_fail(c, "mpi.detail", "line %u of the detail file names no rank of the job's %u",
			      a->lines, a->ranks);
		return;
	}
	if (a->seen[(unsigned)r / 8] & (1u << ((unsigned)r % 8)))
		sm_check_fail(c, "mpi.detail", "rank %u has a second line (line %u)", (unsigned)r, a->lines);
	a->seen[(unsigned)r / 8] |= (unsigned char)(1u << ((unsigned)r % 8));
	if (ck_str(line, "command")) {
		a->results++;
		a->bytes += line_bytes(line);
	}
}

void sm_check_detail_end(struct sm_check_detail *a, const cJSON *job, struct sm_check *c)
{
	double v;

	ck_eq(c, "mpi.detail", "the detail file's lines", a->lines, "mpi.ranks_total", a->ranks);
	if (ck_num(job, "mpi.ranks_reported", &v))
		ck_eq(c, "mpi.detail", "mpi.ranks_reported", v, "the detail file's results", a->results);
	if (ck_num(job, "mpi.bytes", &v))
		ck_eq(c, "mpi.detail", "mpi.bytes", v, "the detail file's results' bytes", a->bytes);
	free(a->seen);
	a->seen = NULL;
}
