/* SPDX-License-Identifier: MIT */
/* stormark run's storage profile: phases in a time budget, the verdict
 * table, and paced confirmation of near-limit verdicts. */
#include "workload/profile.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/worker.h"
#include "analysis/paced.h"
#include "analysis/run.h"
#include "workload/frames.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1ull << 20)
#define GIB (1ull << 30)

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

static const char *const frame_presets[SM_RUN_NSIZES] = { "hd", "2k", "4k" };

void sm_run_plan_defaults(struct sm_run_plan *p)
{
	static const char *const rates[] = { "24", "25", "30", "50", "60" };

	memset(p, 0, sizeof(*p));
	p->dir = ".";
	p->time_ns = 60 * SM_NS_PER_S;
	p->threads = 4;
	p->queue = 8;
	p->prebuffer = 5;
	p->confirm = 1;
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		p->rates[p->nrates++] = sm_fps_find(rates[i]);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -errno : 0;
}

int sm_rm_tree(const char *path)
{
	int rc = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	if (rc > 0 || (rc < 0 && errno == ENOENT))
		return rc > 0 ? -rc : 0;
	return rc < 0 ? -errno : 0;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Context of one profile run. */
struct prof {
	const struct sm_run_plan *plan;
	struct sm_run_result *res;
	sm_run_progress_fn progress;
	void *arg;
	uint64_t t0;
	struct sm_frames_result *fr;     /* scratch result, reused */
};

static uint64_t elapsed(const struct prof *x)
{
	return sm_now_ns() - x->t0;
}

static void tell(struct prof *x, const char *what)
{
	if (x->progress)
		x->progress(what, elapsed(x), x->plan->time_ns, x->arg);
}

static int fail(struct prof *x, int rc, const char *fmt, const char *subject)
{
	x->res->error = rc;
	snprintf(x->res->head.error, sizeof(x->res->head.error), fmt, subject, strerror(-rc));
	return rc;
}

/* ---- classic figures ------------------------------------------------------ */

static void blockio_plan(const struct prof *x, struct sm_blockio_plan *b, const char *path)
{
	sm_blockio_plan_defaults(b);
	b->path = path;
	b->file_bytes = x->res->file_bytes;
	b->direct = x->res->direct_align > 0;
	b->engine = x->plan->engine;
	b->seed = x->plan->seed;
}

static int run_classic(struct prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_blockio_plan b;
	struct sm_blockio_result *fill;
	char path[PATH_MAX + 16];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/block.dat", res->data_dir);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(x, -errno, "cannot create '%s': %s", path);
	close(fd);

	/* Fill the file once, so reads find allocated blocks (reading a hole or
	 * an unwritten extent returns zeros without touching the disk) and
	 * writes measure overwrites. */
	fill = calloc(1, sizeof(*fill));
	if (!fill)
		return fail(x, -ENOMEM, "cannot allocate the block test '%s': %s", path);
	tell(x, "writing the block test file");
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
		return fail(x, rc, "cannot write the block test file '%s': %s", path);
	if (res->file_bytes < MIB)
		return fail(x, -EIO, "the block test file '%s' could not be filled: %s", path);

	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		struct sm_run_classic *c = &res->classic[i];

		snprintf(c->label, sizeof(c->label), "%s", classic_tests[i].label);
		c->block = classic_tests[i].block;
		c->depth = classic_tests[i].depth;
		c->random = classic_tests[i].random;
		for (int w = 0; w < 2; w++) {
			char what[64];

			snprintf(what, sizeof(what), "%s %s", c->label, w ? "write" : "read");
			tell(x, what);
			blockio_plan(x, &b, path);
			b.block = c->block;
			b.depth = c->depth;
			b.random = c->random;
			b.write = w;
			b.duration_ns = res->classic_ns;
			rc = sm_blockio_run(&b, &c->res[w]);
			c->measured[w] = rc == 0 || rc == -EINTR;
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
				return fail(x, rc, "block test on '%s' failed: %s", path);
		}
	}
	unlink(path);
	return 0;
}

/* ---- frame tests ---------------------------------------------------------- */

static void frames_plan(const struct prof *x, struct sm_frames_plan *f, const char *dir,
			enum sm_frames_kind kind, uint64_t frame_bytes)
{
	sm_frames_plan_defaults(f);
	f->kind = kind;
	f->path = dir;
	f->frame_bytes = frame_bytes;
	f->threads = x->plan->threads;
	f->depth = 0;
	f->direct = x->res->direct_align > 0;
	f->engine = x->plan->engine;
	f->seed = x->plan->seed;
	f->update_ns = 0;
	f->quiet = 1;
	f->csv_path = NULL;
}

/* Run a frames plan: check, run, keep the scratch result in x->fr. */
static int frames_go(struct prof *x, struct sm_frames_plan *f)
{
	char msg[512];
	int rc;

	sm_frames_result_release(x->fr);
	memset(x->fr, 0, sizeof(*x->fr));
	if (f->kind == SM_FRAMES_WRITE) {
		rc = sm_mkdir_p(f->path);
		if (rc)
			return fail(x, rc, "cannot create '%s': %s", f->path);
	}
	/* the null engine writes nothing, so a read test has no files to find */
	rc = f->engine && !strcmp(f->engine, "null") && f->kind == SM_FRAMES_READ
		     ? 0 : sm_frames_check(f, msg, sizeof(msg));
	if (rc) {
		x->res->error = rc;
		snprintf(x->res->head.error, sizeof(x->res->head.error), "%s", msg);
		return rc;
	}
	rc = sm_frames_run(f, x->fr, NULL, NULL);
	if (x->fr->plan.engine && !x->res->frames_engine[0])
		snprintf(x->res->frames_engine, sizeof(x->res->frames_engine), "%s",
			 x->fr->head.env.engine[0] ? x->fr->head.env.engine : x->fr->plan.engine);
	for (unsigned i = 0; i < x->fr->head.warnings.count; i++)
		sm_warn(&x->res->head.warnings, x->fr->head.warnings.item[i].code, "%s",
			x->fr->head.warnings.item[i].message);
	if (rc && rc != -EINTR) {
		x->res->error = rc;
		snprintf(x->res->head.error, sizeof(x->res->head.error), "%s", x->fr->head.error);
	}
	return rc;
}

static void take_frametest(const struct sm_frames_result *fr, struct sm_run_frametest *t)
{
	const struct sm_hist *h = &fr->frame.lat;

	t->measured = fr->frames_done > 0;
	t->frames = fr->frames_done;
	t->bytes = fr->bytes;
	t->duration_ns = fr->head.duration_ns;
	t->fps = fr->head.duration_ns ? (double)fr->frames_done * 1e9 / (double)fr->head.duration_ns : 0;
	t->bytes_per_s = fr->head.duration_ns ? (double)fr->bytes * 1e9 / (double)fr->head.duration_ns : 0;
	t->p50_ns = sm_hist_percentile(h, 50);
	t->p99_ns = sm_hist_percentile(h, 99);
	t->p999_ns = sm_hist_percentile(h, 99.9);
	t->max_ns = h->count ? h->max : 0;
	t->direct = fr->plan.direct;
}

static int run_frames(struct prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_frames_plan f;
	char dir[PATH_MAX + 32];
	int rc = 0;

	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		struct sm_run_size *s = &res->sizes[i];
		uint64_t distinct;
		char what[64];

		snprintf(s->preset, sizeof(s->preset), "%s", frame_presets[i]);
		s->frame_bytes = sm_ft_preset_kib(s->preset) * 1024;
		distinct = res->frames_bytes / s->frame_bytes;
		if (distinct < 2 * x->plan->threads)
			distinct = 2 * x->plan->threads;
		snprintf(dir, sizeof(dir), "%s/frames-%s", res->data_dir, s->preset);

		snprintf(what, sizeof(what), "%s frames, write", s->preset);
		tell(x, what);
		frames_plan(x, &f, dir, SM_FRAMES_WRITE, s->frame_bytes);
		f.nframes = 1000000;
		f.loop = distinct;
		f.time_limit_ns = res->frame_ns;
		rc = frames_go(x, &f);
		take_frametest(x->fr, &s->t[SM_DIR_CAPTURE]);
		if (rc)
			return rc;
		if (x->fr->frames_done < distinct)
			distinct = x->fr->frames_done;
		if (!distinct)
			continue;

		snprintf(what, sizeof(what), "%s frames, read", s->preset);
		tell(x, what);
		frames_plan(x, &f, dir, SM_FRAMES_READ, s->frame_bytes);
		f.nframes = 1000000;
		f.loop = distinct;
		f.time_limit_ns = res->frame_ns;
		rc = frames_go(x, &f);
		take_frametest(x->fr, &s->t[SM_DIR_PLAYBACK]);
		if (rc)
			return rc;
		sm_rm_tree(dir);
	}
	return 0;
}

/* ---- verdicts --------------------------------------------------------------- */

/* One paced run for a cell; fills *pc. */
static int paced_run(struct prof *x, const struct sm_run_row *row, const struct sm_fps *rate,
		     int d, struct sm_paced *pc)
{
	struct sm_run_result *res = x->res;
	struct sm_frames_plan f;
	char dir[PATH_MAX + 64];
	double fps = sm_fps_value(rate);
	uint64_t n = (uint64_t)ceil(fps * (double)res->paced_ns / 1e9);
	int rc;

	if (n < 2 * x->plan->queue)
		n = 2 * x->plan->queue;
	snprintf(dir, sizeof(dir), "%s/paced-%s", res->data_dir, row->fmt.name);
	if (d == SM_DIR_PLAYBACK) {
		/* frames to play: written unpaced first */
		frames_plan(x, &f, dir, SM_FRAMES_WRITE, row->fmt.frame_bytes);
		f.nframes = n;
		f.time_limit_ns = 4 * res->paced_ns;
		rc = frames_go(x, &f);
		if (rc)
			goto out;
		if (x->fr->frames_done < n) {
			rc = 0;
			pc->complete = 0;
			goto out;
		}
	}
	frames_plan(x, &f, dir, d == SM_DIR_PLAYBACK ? SM_FRAMES_READ : SM_FRAMES_WRITE,
		    row->fmt.frame_bytes);
	f.nframes = n;
	f.fps = fps;
	f.queue = x->plan->queue;
	f.prebuffer = x->plan->prebuffer;
	f.time_limit_ns = 3 * res->paced_ns;
	rc = frames_go(x, &f);
	if (sm_paced_from_frames(x->fr, pc) == -ERANGE)
		sm_warn(&res->head.warnings, "paced_run_invalid",
			"a paced capture run reported frames completing before they "
			"arrived; its result was not used");
	if (rc)
		pc->complete = 0;
	res->paced_runs++;
out:
	sm_rm_tree(dir);
	return rc;
}

static int run_confirm(struct prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_run_cand *c = calloc((size_t)res->nrows * SM_RUN_MAXRATES * 2 + 1, sizeof(*c));
	unsigned n, tried = 0;
	int rc = 0;

	if (!c)
		return fail(x, -ENOMEM, "cannot plan paced runs in '%s': %s", res->data_dir);
	n = sm_run_candidates(res, x->plan->confirm > 1, c);
	for (unsigned i = 0; i < n; i++) {
		struct sm_run_row *row = &res->rows[c[i].row];
		struct sm_verdict_cell *cell = &row->cell[c[i].dir][c[i].rate];
		const struct sm_fps *rate = res->plan.rates[c[i].rate];
		uint64_t need = (uint64_t)(sm_fps_value(rate) * (double)res->paced_ns / 1e9 + 16) *
				row->fmt.frame_bytes;
		struct sm_paced pc = { 0 };
		char what[96];

		if (cell->how == SM_HOW_PACED)
			continue;   /* settled by a paced run at another rate */

		/* stop when the budget is spent (a run may overrun it a little;
		 * --confirm-all makes two runs in any case), or the frames would
		 * not fit comfortably */
		if ((tried >= (x->plan->confirm > 1 ? 2u : 0u) &&
		     elapsed(x) + res->paced_ns > x->plan->time_ns + res->paced_ns / 2) ||
		    need > res->head.env.fs.free_bytes / 4 || sm_stopped()) {
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		snprintf(what, sizeof(what), "paced %s of %s at %s fps",
			 sm_direction_name(c[i].dir), row->fmt.name, rate->name);
		tell(x, what);
		tried++;
		rc = paced_run(x, row, rate, c[i].dir, &pc);
		if (rc == -EINTR)
			break;
		if (rc) {
			/* a failed paced run leaves the computed verdict; say why */
			sm_warn(&res->head.warnings, "paced_run_failed", "a paced run failed: %s",
				res->head.error);
			res->error = 0;
			res->head.error[0] = '\0';
			rc = 0;
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		if (!sm_verdict_cell_confirm(cell, &pc)) {
			res->near_unconfirmed += cell->near_limit;
			continue;
		}
		sm_run_propagate(res, &c[i], &pc);
	}
	free(c);
	return rc;
}

/* ---- the run ---------------------------------------------------------------- */

static void size_budget(struct prof *x)
{
	struct sm_run_result *res = x->res;
	double scale = (double)x->plan->time_ns / (60.0 * SM_NS_PER_S);
	uint64_t quarter = res->head.env.fs.free_bytes / 4;

	res->file_bytes = clamp_u64((uint64_t)(scale * GIB) / MIB * MIB, 64 * MIB, GIB);
	res->frames_bytes = clamp_u64((uint64_t)(scale * 2 * GIB) / MIB * MIB, 256 * MIB, 2 * GIB);
	if (quarter && res->file_bytes > quarter)
		res->file_bytes = quarter / MIB * MIB;
	if (quarter && res->frames_bytes > quarter)
		res->frames_bytes = quarter / MIB * MIB;
	/* 8 block tests x 2.5% + 6 frame tests x 4.5% = 47%; the rest, less
	 * the time to fill the block file and set up each test, goes to paced
	 * runs */
	res->classic_ns = clamp_u64((uint64_t)(0.025 * (double)x->plan->time_ns),
				    250 * SM_NS_PER_MS, 60 * SM_NS_PER_S);
	res->frame_ns = clamp_u64((uint64_t)(0.045 * (double)x->plan->time_ns),
				  500 * SM_NS_PER_MS, 90 * SM_NS_PER_S);
	res->paced_ns = clamp_u64((uint64_t)(0.035 * (double)x->plan->time_ns),
				  SM_NS_PER_S, 10 * SM_NS_PER_S);
}

static int setup(struct prof *x)
{
	struct sm_run_result *res = x->res;
	int rc;

	sm_env_collect(&res->head.env, x->plan->dir);
	snprintf(res->data_dir, sizeof(res->data_dir), "%s/.stormark-run-XXXXXX", x->plan->dir);
	if (!mkdtemp(res->data_dir)) {
		rc = -errno;
		res->data_dir[0] = '\0';
		return fail(x, rc, "cannot create a test directory in '%s': %s", x->plan->dir);
	}
	res->direct_align = sm_direct_probe(res->data_dir);
	res->head.env.direct_io = res->direct_align > 0;
	res->head.env.mem_available_bytes = sm_mem_available();
	size_budget(x);
	if (res->direct_align <= 0) {
		sm_warn(&res->head.warnings, "buffered_io",
			"direct I/O does not work here (%s): figures include the page cache",
			strerror(-res->direct_align));
		if (res->frames_bytes < res->head.env.mem_available_bytes)
			sm_warn(&res->head.warnings, "cached_working_set",
				"the working set (%llu MiB) is smaller than the free RAM (%llu MiB): "
				"reads may come from memory",
				(unsigned long long)(res->frames_bytes >> 20),
				(unsigned long long)(res->head.env.mem_available_bytes >> 20));
	}
	if (res->head.env.fs.free_bytes && res->head.env.fs.free_bytes < 1 * GIB)
		sm_warn(&res->head.warnings, "small_working_set",
			"only %llu MiB free: the working set is small",
			(unsigned long long)(res->head.env.fs.free_bytes >> 20));
	return 0;
}

/* Set up the context of one phase. */
static int prof_init(struct prof *x, struct sm_run_result *res, sm_run_progress_fn progress,
		     void *arg)
{
	memset(x, 0, sizeof(*x));
	x->plan = &res->plan;
	x->res = res;
	x->progress = progress;
	x->arg = arg;
	x->t0 = res->t0_ns;
	x->fr = calloc(1, sizeof(*x->fr));
	if (!x->fr)
		return fail(x, -ENOMEM, "cannot allocate a frame result in '%s': %s",
			    res->data_dir);
	return 0;
}

/* End a phase: free the scratch result, turn a signal into -EINTR, derive
 * what the reporters print. */
static int prof_done(struct prof *x, int rc)
{
	sm_frames_result_release(x->fr);
	free(x->fr);
	x->fr = NULL;
	if (rc == -EINTR || sm_stopped()) {
		x->res->head.interrupted = 1;
		rc = -EINTR;
	}
	x->res->head.duration_ns = elapsed(x);
	sm_run_analyse(x->res);
	return rc;
}

int sm_run_begin(const struct sm_run_plan *plan, struct sm_run_result *res)
{
	struct prof x = { .plan = plan, .res = res };
	struct sm_result_head head;
	int rc;

	head = res->head;
	memset(res, 0, sizeof(*res));
	sm_result_head_keep(&res->head, &head);
	res->plan = *plan;
	res->t0_ns = x.t0 = sm_now_ns();
	res->nrows = plan->nformats;
	res->rows = calloc(plan->nformats + 1, sizeof(*res->rows));
	if (!res->rows)
		return fail(&x, -ENOMEM, "cannot allocate the verdict table for '%s': %s",
			    plan->dir);
	for (unsigned i = 0; i < plan->nformats; i++)
		res->rows[i].fmt = plan->formats[i];
	res->reached = SM_PHASE_SETUP;
	rc = setup(&x);
	res->head.duration_ns = elapsed(&x);
	return rc;
}

int sm_run_classic(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_CLASSIC;
	if (!rc)
		rc = run_classic(&x);
	return prof_done(&x, rc);
}

int sm_run_frames(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_FRAMES;
	if (!rc)
		rc = run_frames(&x);
	return prof_done(&x, rc);
}

int sm_run_verdicts(struct sm_run_result *res, sm_run_progress_fn progress, void *arg)
{
	struct prof x;
	int rc = prof_init(&x, res, progress, arg);

	res->reached = SM_PHASE_VERDICTS;
	sm_run_compute_verdicts(res);
	if (rc)
		return prof_done(&x, rc);
	res->reached = SM_PHASE_CONFIRM;
	if (res->plan.confirm && !sm_stopped()) {
		rc = run_confirm(&x);
	} else {
		res->near_unconfirmed = sm_run_count_near(res);
	}
	if (!rc)
		res->reached = SM_PHASE_DONE;
	return prof_done(&x, rc);
}

int sm_run_end(struct sm_run_result *res)
{
	int rc = 0;

	if (res->data_dir[0] && !res->plan.keep) {
		rc = sm_rm_tree(res->data_dir);
		if (rc && !res->error) {
			res->error = rc;
			snprintf(res->head.error, sizeof(res->head.error),
				 "cannot remove the test directory '%s': %s", res->data_dir,
				 strerror(-rc));
		}
	}
	res->head.duration_ns = sm_now_ns() - res->t0_ns;
	sm_run_analyse(res);
	return rc;
}

void sm_run_result_release(struct sm_run_result *res)
{
	free(res->rows);
	res->rows = NULL;
	res->nrows = 0;
}
