/* SPDX-License-Identifier: MIT */
/* The profile's classic figures: sequential 1 MiB and random 4 KiB reads
 * and writes at QD1 and a deep queue, on one pre-filled file. */
#include "workload/profile_int.h"
#include "analysis/run.h"
#include "core/clock.h"
#include "workload/blockio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *label;
	uint64_t block;
	unsigned depth;
	int random;
} classic_tests[SM_RUN_NCLASSIC] = {
	{ "seq 1 MiB QD8", MIB, 8, 0 },
	{ "seq 1 MiB QD1", MIB, 1, 0 },
	{ "rand 4 KiB QD32", 4096, 32, 1 },
	{ "rand 4 KiB QD1", 4096, 1, 1 },
};

static void blockio_plan(const struct sm_prof *x, struct sm_blockio_plan *b, const char *path)
{
	sm_blockio_plan_defaults(b);
	b->path = path;
	b->file_bytes = x->res->file_bytes;
	b->direct = x->res->direct_align > 0;
	b->engine = x->plan->engine;
	b->seed = x->plan->seed;
}

int sm_prof_classic(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_blockio_plan b;
	struct sm_blockio_result *fill;
	char path[PATH_MAX + 16];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/block.dat", res->data_dir);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return sm_prof_fail(x, -errno, "cannot create '%s': %s", path);
	close(fd);

	/* Fill the file once, so reads find allocated blocks (reading a hole or
	 * an unwritten extent returns zeros without touching the disk) and
	 * writes measure overwrites. */
	fill = calloc(1, sizeof(*fill));
	if (!fill)
		return sm_prof_fail(x, -ENOMEM, "cannot allocate the block test '%s': %s", path);
	sm_prof_tell(x, "writing the block test file");
	blockio_plan(x, &b, path);
	b.write = 1;
	b.depth = 8;
	b.max_ios = res->file_bytes / MIB;
	/* on slow storage the fill would eat the budget: stop it at 8% and
	 * test what was written */
	b.duration_ns = x->plan->time_ns / 12 > SM_NS_PER_S ? x->plan->time_ns / 12 : SM_NS_PER_S;
	rc = sm_blockio_run(&b, fill);
	if (!res->notice[0] && fill->notice[0])
		snprintf(res->notice, sizeof(res->notice), "%s", fill->notice);
	if (rc == 0 && fill->op.bytes < res->file_bytes) {
		res->file_bytes = fill->op.bytes / MIB * MIB;
		if (res->file_bytes < 64 * MIB)
			sm_warn(&res->head.warnings, "small_working_set",
				"the storage wrote only %llu MiB in the time to fill the block test "
				"file: block tests run on that", (unsigned long long)(res->file_bytes >> 20));
	}
	free(fill);
	if (rc == -EINTR)
		return rc;
	if (rc)
		return sm_prof_fail(x, rc, "cannot write the block test file '%s': %s", path);
	if (res->file_bytes < MIB)
		return sm_prof_fail(x, -EIO, "the block test file '%s' could not be filled: %s",
				    path);

	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		struct sm_run_classic *c = &res->classic[i];

		snprintf(c->label, sizeof(c->label), "%s", classic_tests[i].label);
		c->block = classic_tests[i].block;
		c->depth = classic_tests[i].depth;
		c->random = classic_tests[i].random;
		for (int w = 0; w < 2; w++) {
			char what[64];

			snprintf(what, sizeof(what), "%s %s", c->label, w ? "write" : "read");
			sm_prof_tell(x, what);
			blockio_plan(x, &b, path);
			b.block = c->block;
			b.depth = c->depth;
			b.random = c->random;
			b.write = w;
			b.duration_ns = res->classic_ns;
			rc = sm_blockio_run(&b, &c->res[w]);
			c->measured[w] = rc == 0 || rc == -EINTR;
			sm_run_classic_figures(c, w);
			if (c->res[w].engine[0] && c->depth > 1) {
				snprintf(res->block_engine, sizeof(res->block_engine), "%s",
					 c->res[w].engine);
				memcpy(res->head.env.engine, res->block_engine,
				       sizeof(res->head.env.engine));
			}
			if (!res->notice[0] && c->res[w].notice[0])
				snprintf(res->notice, sizeof(res->notice), "%s", c->res[w].notice);
			if (rc == -EINTR)
				return rc;
			if (rc)
				return sm_prof_fail(x, rc, "block test on '%s' failed: %s", path);
		}
	}
	unlink(path);
	return 0;
}

