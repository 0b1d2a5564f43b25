/* SPDX-License-Identifier: MIT */
/* The profile's classic figures: sequential 1 MiB and random 4 KiB reads
 * and writes at QD1 and a deep queue, on one pre-filled file. */
#include "workload/profile_int.h"
#include "core/live.h"
#include "analysis/run.h"
#include "analysis/steady.h"
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

/* A block test's once-a-second call (blockio's tick): its rate and I/Os
 * per second so far to the progress line. */
static void classic_tick(void *arg, uint64_t bytes, uint64_t ios, uint64_t elapsed_ns)
{
	struct sm_prof *x = arg;
	double s = elapsed_ns ? (double)elapsed_ns / 1e9 : 1;
	char f[96];

	if (x->plan->live) {   /* the second that ended, as the series' keys name them */
		struct sm_live_line l;
		uint64_t now = sm_prof_elapsed(x);

		sm_live_begin(&l, "run", x->phase);
		sm_live_u64(&l, "t_ns", elapsed_ns);
		sm_live_u64(&l, "duration_ns", elapsed_ns - x->live_ns);
		sm_live_u64(&l, "bytes", bytes - x->live_bytes);
		sm_live_u64(&l, "items", ios - x->live_ios);
		sm_live_u64(&l, "left_ns", x->plan->time_ns > now ? x->plan->time_ns - now : 0);
		sm_live_end(x->plan->live, &l);
		x->live_bytes = bytes;
		x->live_ios = ios;
		x->live_ns = elapsed_ns;
	}
	if (!x->progress)
		return;
	snprintf(f, sizeof(f), "%.0f MiB/s, %.0f IOPS", (double)bytes / s / (1024.0 * 1024.0),
		 (double)ios / s);
	x->progress(NULL, f, 0, 0, x->arg);
}

static void blockio_plan(const struct sm_prof *x, struct sm_blockio_plan *b, const char *path)
{
	sm_blockio_plan_defaults(b);
	if (x->progress || x->plan->live) {
		b->tick = classic_tick;
		b->tick_arg = (void *)x;
	}
	b->path = path;
	b->file_bytes = x->res->file_bytes;
	b->direct = x->res->direct_align > 0;
	b->engine = x->plan->engine;
	b->seed = x->plan->seed;
	b->engine_flags = x->plan->engine_flags;   /* blockio: on uring only */
}

/* --steady: classic test c in direction w (plan b, set up) in rounds of
 * plan->steady_round_ns until the last 5 are steady by SNIA PTS's rule
 * (IOPS for the random tests, bandwidth for the sequential ones) or
 * plan->steady_rounds have run; c->res[w] becomes the window's rounds
 * merged. Returns as sm_blockio_run() for the last round, or -ENOMEM. */
static int classic_steady(struct sm_prof *x, struct sm_blockio_plan *b, struct sm_run_classic *c, int w)
{
	const struct sm_run_plan *p = x->plan;
	struct sm_steady *s = &c->steady[w];
	struct sm_blockio_result *ring, *dst = &c->res[w];
	unsigned win, n;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->on = 1;
	snprintf(s->metric, sizeof(s->metric), "%s", c->random ? "iops" : "bytes_per_s");
	s->round_ns = p->steady_round_ns;
	s->max_rounds = p->steady_rounds < SM_STEADY_MAX_ROUNDS ? p->steady_rounds : SM_STEADY_MAX_ROUNDS;
	sm_steady_rule_pts(&s->rule);
	win = s->rule.window;
	ring = calloc(win, sizeof(*ring));
	if (!ring)
		return -ENOMEM;
	b->duration_ns = p->steady_round_ns;
	for (n = 1; n <= s->max_rounds; n++) {
		struct sm_blockio_result *r = &ring[(n - 1) % win];
		char what[96];
		int reached;

		snprintf(what, sizeof(what), "%s %s, steady round %u/%u", c->label, w ? "write" : "read", n,
			 s->max_rounds);
		sm_prof_tell(x, what);
		rc = sm_blockio_run(b, r);
		reached = sm_steady_add(s, c->random ? sm_blockio_iops(r) : sm_blockio_bytes_per_s(r),
					r->duration_ns);
		if (reached || rc)
			break;
	}
	memset(dst, 0, sizeof(*dst));
	sm_opstat_init(&dst->op);
	for (unsigned k = s->win.first; s->win.n && k < s->win.first + s->win.n; k++) {
		const struct sm_blockio_result *r = &ring[(k - 1) % win];

		sm_opstat_merge(&dst->op, &r->op);
		/* the window's rounds back to back, as their durations add */
		sm_stalls_merge(&dst->stalls, &r->stalls, dst->duration_ns);
		dst->duration_ns += r->duration_ns;
		dst->interrupted |= r->interrupted;
		if (r->error && !dst->error)
			dst->error = r->error;
		if (!dst->engine[0]) {
			memcpy(dst->engine, r->engine, sizeof(dst->engine));
			memcpy(dst->notice, r->notice, sizeof(dst->notice));
			dst->engine_setup = r->engine_setup;
			dst->depth = r->depth;
		}
	}
	free(ring);
	return rc;
}

/* --steady: one warning naming the tests that did not steady. */
static void steady_warning(struct sm_run_result *res)
{
	char names[200] = "";
	unsigned n = 0;
	size_t len = 0;

	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++)
		for (int w = 0; w < 2; w++) {
			const struct sm_run_classic *c = &res->classic[i];

			if (!c->steady[w].on || c->steady[w].reached_at)
				continue;
			if (len < sizeof(names))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s %s", n ? ", " : "",
							c->label, w ? "write" : "read");
			n++;
		}
	if (n == 2 * SM_RUN_NCLASSIC)
		sm_warn(&res->head.warnings, "not_steady", "no block test steadied in %u rounds (SNIA PTS): "
			"their figures are their last 5 rounds', which are not steady", res->plan.steady_rounds);
	else if (n)
		sm_warn(&res->head.warnings, "not_steady", "%u block test%s did not steady in %u rounds (SNIA "
			"PTS) and report %s last 5 rounds: %s", n, n == 1 ? "" : "s", res->plan.steady_rounds,
			n == 1 ? "its" : "their", names);
}

/* --precondition: PTS's workload-independent preconditioning of the block
 * test file: sequential 128 KiB writes of twice its size, 8 in flight. */
static int classic_precondition(struct sm_prof *x, const char *path)
{
	struct sm_run_result *res = x->res;
	struct sm_precond *pc = &res->precond;
	struct sm_blockio_plan b;
	struct sm_blockio_result *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	memset(pc, 0, sizeof(*pc));
	pc->on = 1;
	pc->block_bytes = 128 * 1024;
	pc->target_bytes = 2 * (res->file_bytes / pc->block_bytes * pc->block_bytes);
	sm_prof_tell(x, "preconditioning: the block test file written twice in 128 KiB");
	blockio_plan(x, &b, path);
	b.write = 1;
	b.block = pc->block_bytes;
	b.depth = 8;
	b.max_ios = pc->target_bytes / pc->block_bytes;
	b.duration_ns = 7 * 24 * 3600 * SM_NS_PER_S;   /* max_ios ends it */
	rc = sm_blockio_run(&b, r);
	pc->bytes = r->op.bytes;
	pc->duration_ns = r->duration_ns;
	pc->bytes_per_s = sm_blockio_bytes_per_s(r);
	free(r);
	return rc;
}

int sm_prof_classic(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_blockio_plan b;
	struct sm_blockio_result *fill;
	const struct sm_run_hooks *h = x->plan->hooks;   /* an MPI job: every test starts together */
	char path[PATH_MAX + 16];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/block.dat", res->data_dir);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return sm_prof_fail(x, -errno, "cannot create '%s'", path);
	close(fd);

	/* Fill the file once, so reads find allocated blocks (reading a hole or
	 * an unwritten extent returns zeros without touching the disk) and
	 * writes measure overwrites. */
	fill = calloc(1, sizeof(*fill));
	if (!fill)
		return sm_prof_fail(x, -ENOMEM, "cannot allocate the block test '%s'", path);
	sm_prof_tell(x, "writing the block test file");
	if (h && (rc = h->begin(h->arg, "writing the block test file"))) {
		free(fill);
		return rc;
	}
	blockio_plan(x, &b, path);
	b.write = 1;
	b.depth = 8;
	b.max_ios = res->file_bytes / MIB;
	/* on slow storage the fill would eat the budget: stop it at 8% and
	 * test what was written */
	b.duration_ns = x->plan->time_ns / 12 > SM_NS_PER_S ? x->plan->time_ns / 12 : SM_NS_PER_S;
	rc = sm_blockio_run(&b, fill);
	if (!res->notice[0] && fill->notice[0]) {
		snprintf(res->notice, sizeof(res->notice), "%s", fill->notice);
		sm_warn(&res->head.warnings, "engine_fallback", "%s", fill->notice);
	}
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
		return sm_prof_fail(x, rc, "cannot write the block test file '%s'", path);
	if (res->file_bytes < MIB)
		return sm_prof_fail(x, -EIO, "the block test file '%s' could not be filled",
				    path);
	if (x->plan->precondition) {
		uint64_t t = sm_now_ns();

		rc = classic_precondition(x, path);
		res->steady_ns += sm_now_ns() - t;
		if (rc == -EINTR)
			return rc;
		if (rc)
			return sm_prof_fail(x, rc, "cannot precondition the block test file '%s'", path);
	}

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
			if (h && (rc = h->begin(h->arg, what)))
				return rc;
			blockio_plan(x, &b, path);
			b.block = c->block;
			b.depth = c->depth;
			b.random = c->random;
			b.write = w;
			b.duration_ns = res->classic_ns;
			if (x->plan->steady) {
				uint64_t t = sm_now_ns();

				rc = classic_steady(x, &b, c, w);
				t = sm_now_ns() - t;   /* beyond the test's share of the budget */
				res->steady_ns += t > res->classic_ns ? t - res->classic_ns : 0;
				if (rc == -ENOMEM)
					return sm_prof_fail(x, rc, "cannot run the block test '%s' in rounds",
							    c->label);
			} else {
				rc = sm_blockio_run(&b, &c->res[w]);
				/* --live: the test's last, partial second */
				if (x->plan->live && c->res[w].duration_ns > x->live_ns)
					classic_tick(x, c->res[w].op.bytes, c->res[w].op.count,
						     c->res[w].duration_ns);
			}
			if (h)
				h->classic(h->arg, i, w, &c->res[w]);
			c->measured[w] = rc == 0 || rc == -EINTR;
			sm_run_classic_figures(c, w);
			if (c->res[w].engine[0] && c->depth > 1) {
				snprintf(res->block_engine, sizeof(res->block_engine), "%s",
					 c->res[w].engine);
				memcpy(res->head.env.engine, res->block_engine,
				       sizeof(res->head.env.engine));
				res->head.env.engine_setup = c->res[w].engine_setup;
			}
			if (!res->notice[0] && c->res[w].notice[0]) {
				snprintf(res->notice, sizeof(res->notice), "%s", c->res[w].notice);
				sm_warn(&res->head.warnings, "engine_fallback", "%s", c->res[w].notice);
			}
			if (rc == -EINTR)
				return rc;
			if (rc)
				return sm_prof_fail(x, rc, "block test on '%s' failed", path);
		}
	}
	steady_warning(res);
	unlink(path);
	return 0;
}

