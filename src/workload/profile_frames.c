/* SPDX-License-Identifier: MIT */
/* The profile's frame tests: at each main frame size, frames written as
 * fast as they go, then read back; and the frames runs every phase shares. */
#include "workload/profile_int.h"
#include "core/clock.h"
#include "engine/engine.h"
#include "core/fsx.h"
#include "core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const frame_presets[SM_RUN_NSIZES] = { "hd", "2k", "4k" };

void sm_prof_frames_plan(const struct sm_prof *x, struct sm_frames_plan *f, const char *dir,
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
	f->engine_flags = x->plan->engine_flags;   /* frames: on uring only */
	f->seed = x->plan->seed;
	f->update_ns = 0;
	f->quiet = 1;
	f->csv_path = NULL;
	f->live = x->plan->live;   /* --live: each second, under the test's name */
	f->live_command = "run";
	f->live_phase = x->phase;
	f->live_end_ns = x->t0 + x->plan->time_ns;   /* left of the run */
}

/* The frames sampler's once-a-second call while a frame test runs: its
 * rate so far, frames and (paced) drops to the progress line. */
static void frames_tick(const struct sm_frames_snap *last_1s, const struct sm_frames_snap *total,
			void *arg)
{
	const struct sm_prof *x = arg;
	double rate = total->t_ns ? (double)total->bytes * 1e9 / (double)total->t_ns : 0;
	char s[96];

	(void)last_1s;
	if (x->fr->plan.fps > 0)   /* paced: the drops are the news */
		snprintf(s, sizeof(s), "%.0f MiB/s, %llu dropped", rate / (double)MIB,
			 (unsigned long long)total->dropped);
	else
		snprintf(s, sizeof(s), "%.0f MiB/s, %llu frames", rate / (double)MIB,
			 (unsigned long long)total->frames);
	x->progress(NULL, s, 0, 0, x->arg);
}

/* Run a frames plan: check, run, keep the scratch result in x->fr. */
int sm_prof_frames_go(struct sm_prof *x, struct sm_frames_plan *f)
{
	char msg[512];
	int rc;

	sm_frames_result_release(x->fr);
	memset(x->fr, 0, sizeof(*x->fr));
	if (f->kind == SM_FRAMES_WRITE) {
		rc = sm_mkdir_p(f->path);
		if (rc)
			return sm_prof_fail(x, rc, "cannot create '%s'", f->path);
	}
	/* the null engine writes nothing, so a read test has no files to find */
	rc = (sm_engine_caps_of(f->engine) & SM_ENGINE_NO_IO) && f->kind == SM_FRAMES_READ
		     ? 0 : sm_frames_check(f, msg, sizeof(msg));
	if (rc) {
		x->res->error = rc;
		snprintf(x->res->head.error, sizeof(x->res->head.error), "%s", msg);
		return rc;
	}
	/* the sampler wakes each second anyway; with a progress line it also
	 * hands over the totals so far (frames.h) */
	if (x->progress)
		f->update_ns = SM_NS_PER_S;
	rc = sm_frames_run(f, x->fr, x->progress ? frames_tick : NULL, x);
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

/* The figures of a frames run (analysed: sm_frames_analyse) into t, with
 * a copy of its series (left out, nseries 0, when out of memory: the
 * chart then says so). */
void sm_run_frametest_from(const struct sm_frames_result *fr, struct sm_run_frametest *t)
{
	const struct sm_hist *h = &fr->frame.lat;

	t->measured = fr->frames_done > 0;
	t->frames = fr->frames_done;
	t->bytes = fr->bytes;
	t->duration_ns = fr->head.duration_ns;
	t->fps = fr->fig.frames_per_s;   /* the frames run's own figures (sm_frames_analyse) */
	t->bytes_per_s = fr->fig.bytes_per_s;
	t->p50_ns = sm_hist_percentile(h, 50);
	t->p99_ns = sm_hist_percentile(h, 99);
	t->p999_ns = sm_hist_percentile(h, 99.9);
	t->max_ns = h->count ? h->max : 0;
	t->direct = fr->plan.direct;
	t->cliff = fr->cliff;   /* derived by the frames run for write tests */
	t->stalls = fr->stalls;
	free(t->series);
	t->series = NULL;
	t->nseries = 0;
	if (fr->nseries && (t->series = malloc(fr->nseries * sizeof(*t->series)))) {
		memcpy(t->series, fr->series, fr->nseries * sizeof(*t->series));
		t->nseries = fr->nseries;
	}
}

/* One unpaced pass over `distinct` frames of size s in dir for the frame
 * time budget: written (capture) or read back (playback); the figures go
 * to s->t[d]. In an MPI job (hooks) every rank comes to the pass's start
 * barrier, also one that skips it (distinct 0). Returns as
 * sm_prof_frames_go(), or -ECANCELED (the job stopped). */
static int frames_pass(struct sm_prof *x, struct sm_run_size *s, const char *dir,
		       enum sm_direction d, uint64_t distinct)
{
	const struct sm_run_hooks *h = x->plan->hooks;
	struct sm_frames_plan f;
	char what[64];
	int rc;
	int sustained = d == SM_DIR_CAPTURE && !strcmp(s->preset, SM_RUN_SUSTAINED_PRESET);

	snprintf(what, sizeof(what), "%s frames, %s", s->preset,
		 sustained ? "sustained write" : d == SM_DIR_CAPTURE ? "write" : "read");
	sm_prof_tell(x, what);
	if (h && (rc = h->begin(h->arg, what)))
		return rc;
	if (!distinct)
		return 0;
	sm_prof_frames_plan(x, &f, dir, d == SM_DIR_CAPTURE ? SM_FRAMES_WRITE : SM_FRAMES_READ,
			    s->frame_bytes);
	f.nframes = 1000000;
	f.loop = distinct;
	/* the 2K write is the run's sustained write: long enough to find a
	 * cliff (docs/run.md) */
	f.time_limit_ns = sustained ? x->res->sustain_ns : x->res->frame_ns;
	rc = sm_prof_frames_go(x, &f);
	sm_run_frametest_from(x->fr, &s->t[d]);
	if (h)
		h->frames(h->arg, (unsigned)(s - x->res->sizes), d, x->fr);
	return rc;
}

int sm_prof_frames(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	char dir[PATH_MAX + 32];
	uint64_t usable = sm_run_usable_space(res->head.env.fs.free_bytes), first_need = 0;
	char skipped[64] = "";
	unsigned nskipped = 0;
	int rc = 0, len = 0;

	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		struct sm_run_size *s = &res->sizes[i];
		uint64_t distinct;

		snprintf(s->preset, sizeof(s->preset), "%s", frame_presets[i]);
		s->frame_bytes = sm_ft_preset_kib(s->preset) * 1024;
		distinct = res->frames_bytes / s->frame_bytes;
		if (distinct < 2 * x->plan->threads)
			distinct = 2 * x->plan->threads;
		snprintf(dir, sizeof(dir), "%s/frames-%s", res->data_dir, s->preset);
		if (distinct * s->frame_bytes > usable) {
			/* the fewest frames a test writes do not fit: skip it
			 * rather than fail halfway with ENOSPC */
			if (!nskipped++)
				first_need = distinct * s->frame_bytes;
			len += snprintf(skipped + len, sizeof(skipped) - len, "%s%s",
					len ? ", " : "", s->preset);
			distinct = 0;
			if (!x->plan->hooks)
				continue;
		}

		rc = frames_pass(x, s, dir, SM_DIR_CAPTURE, distinct);
		if (rc)
			return rc;
		if (distinct && x->fr->frames_done < distinct)
			distinct = x->fr->frames_done;
		if (!distinct && !x->plan->hooks)
			continue;

		rc = frames_pass(x, s, dir, SM_DIR_PLAYBACK, distinct);
		if (rc)
			return rc;
		sm_rm_tree(dir);
	}
	if (nskipped) {
		char a[32], b[32];

		sm_warn(&res->head.warnings, "frame_test_skipped",
			"frame test%s skipped (%s): each writes at least %u frames (2 per thread), "
			"%s at the first skipped size, and %s of the free space may be used",
			nskipped == 1 ? "" : "s", skipped, 2 * x->plan->threads,
			sm_fmt_bytes(a, sizeof(a), (double)first_need),
			sm_fmt_bytes(b, sizeof(b), (double)usable));
	}
	return 0;
}

