/* SPDX-License-Identifier: MIT */
/* The streams search: a mix run alone, then for each format, frame rate
 * and direction paced steps of n concurrent streams (beside the mix when
 * there is one), doubling then bisection, within the time budget; its
 * files are workload/streams_files.c's. docs/streams.md. */
#include "workload/streams.h"
#include "workload/streams_int.h"
#include "workload/streams_mix.h"
#include "analysis/cliff.h"
#include "analysis/streams.h"
#include "core/clock.h"
#include "core/live.h"
#include "core/msg.h"
#include "core/worker.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sm_streams_fail(struct sm_streams_search *x, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!x->res->error)
		x->res->error = rc;
	if (!x->res->head.error[0]) {
		va_start(ap, fmt);
		sm_msg_verrno(x->res->head.error, sizeof(x->res->head.error), rc, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static int add_step(struct sm_streams_cell *c, struct sm_streams_step *st)
{
	struct sm_streams_step *s = realloc(c->steps, (c->nsteps + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	c->steps = s;
	c->steps[c->nsteps++] = *st;
	return 0;
}

/* Frames per stream of a step of len_ns at fps: the whole step, and at
 * least what playback shows after its pre-buffer. */
static uint64_t frames_for(const struct sm_streams_plan *p, uint64_t len_ns, double fps)
{
	uint64_t frames = (uint64_t)ceil((double)len_ns / 1e9 * fps);

	return frames < (uint64_t)p->prebuffer + 1 ? p->prebuffer + 1 : frames;
}

/* The groups of a step of len_ns: the mix's (when there is one), then n
 * streams of cell c (c NULL or n 0: none). Returns how many. */
static unsigned step_groups(struct sm_streams_search *x, const struct sm_streams_cell *c, unsigned n,
			    uint64_t len_ns, struct sm_streams_order_group *og)
{
	const struct sm_streams_mix *m = &x->res->mix;
	unsigned ng = 0;

	for (unsigned k = 0; k < m->ngroups; k++, ng++) {
		const struct sm_streams_group *g = &m->groups[k];

		memset(&og[ng], 0, sizeof(og[ng]));
		snprintf(og[ng].format, sizeof(og[ng].format), "%s", g->format);
		og[ng].g = (struct sm_streams_group_plan){
			.n = g->count, .dir = g->dir, .sequence = g->sequence, .chunk_bytes = g->chunk_bytes,
			.frame_bytes = g->frame_bytes, .fps = g->fps,
			.frames = frames_for(x->plan, len_ns, g->fps),
		};
	}
	if (c && n) {
		memset(&og[ng], 0, sizeof(og[ng]));
		snprintf(og[ng].format, sizeof(og[ng].format), "%s", c->format);
		og[ng].g = (struct sm_streams_group_plan){
			.n = n, .dir = c->dir, .sequence = c->sequence, .chunk_bytes = c->chunk_bytes,
			.frame_bytes = c->frame_bytes, .fps = c->fps,
			.frames = frames_for(x->plan, len_ns, c->fps),
		};
		ng++;
	}
	return ng;
}

/* Split a step's streams, group by group with the mix's first, into the
 * mix's (nmix) and the searched ones; st->bytes becomes theirs. Returns 0
 * or -ENOMEM. */
static int split_mix(struct sm_streams_step *st, unsigned nmix)
{
	struct sm_stream_fig *all = st->streams;
	unsigned n = st->n > nmix ? st->n - nmix : 0;

	if (!all)
		return 0;
	st->nmix = st->n - n;
	st->n = n;
	if (st->nmix) {
		st->mix_streams = malloc(st->nmix * sizeof(*all));
		st->streams = malloc((n ? n : 1) * sizeof(*all));
		if (!st->mix_streams || !st->streams) {
			free(st->mix_streams);
			free(st->streams);
			st->mix_streams = NULL;
			st->streams = all;
			st->n += st->nmix;
			st->nmix = 0;
			return -ENOMEM;
		}
		memcpy(st->mix_streams, all, st->nmix * sizeof(*all));
		memcpy(st->streams, all + st->nmix, n * sizeof(*all));
		free(all);
	}
	st->bytes = 0;
	for (unsigned i = 0; i < n; i++)
		st->bytes += st->streams[i].bytes;
	return 0;
}

/*
 * Run the groups og[0..ng) as one step (spread over the ranks in an MPI
 * job) into *st, split into the mix's streams and the rest (not judged);
 * gsec: per
 * group per-second bytes (ng x nsec) or NULL. On a fault the search stops
 * there: res->error and head.error are set, *note (when not NULL) says in
 * which step. Returns 0, -EINTR, -ENOSPC (playback: no room for the
 * files; nothing ran) or -errno (st->streams NULL then).
 */
static int run_groups(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
		      uint64_t *gsec, unsigned nsec, struct sm_streams_step *st, char *err, size_t elen)
{
	char notice[256];
	int rc;

	if (x->plan->peers)
		rc = sm_streams_mpi_step(x, og, ng, gsec, nsec, st, notice, sizeof(notice), err, elen);
	else
		rc = sm_streams_local_step(x, og, ng, gsec, nsec, st, notice, sizeof(notice), err, elen);
	if (notice[0] && !x->engine_noted) {
		sm_warn(&x->res->head.warnings, "engine_fallback", "%s", notice);
		x->engine_noted = 1;
	}
	/* no room for the playback files: nothing ran (a write that found
	 * the file system full ran, and is a fault) */
	if (rc == -ENOSPC && !st->streams && !x->res->error)
		return rc;
	if (rc && rc != -EINTR) {
		/* a fault is not an answer: the step is not judged, the search
		 * stops there (exit 1, the report of what was measured) */
		sm_streams_step_release(st);
		if (!x->res->error)
			x->res->error = rc;
		snprintf(x->res->head.error, sizeof(x->res->head.error), "%s", err);
		return rc;
	}
	if (!st->streams)   /* stopped before it ran (a playback file's write) */
		return rc ? rc : -EINTR;
	if (split_mix(st, x->res->mix.nstreams)) {
		sm_streams_step_release(st);
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a step");
	}
	return rc;
}

/* The head of a --live line of the step under way. */
static void live_head(const struct sm_streams_search *x, struct sm_live_line *l, const char *phase)
{
	const struct sm_streams_cell *c = x->live_cell;
	uint64_t now = sm_now_ns();

	sm_live_begin(l, "streams", phase);
	sm_live_str(l, "step", x->live_kind ? x->live_kind : "step");
	if (c) {
		sm_live_str(l, "format", c->format);
		sm_live_str(l, "fps", c->fps_name);
		sm_live_str(l, "direction", sm_direction_name(c->dir));
	}
	sm_live_u64(l, "streams", x->live_n);
	sm_live_u64(l, "left_ns", x->deadline > now ? x->deadline - now : 0);
}

void sm_streams_live_second(struct sm_streams_search *x, uint64_t bytes, uint64_t dropped,
			    uint64_t elapsed_ns)
{
	struct sm_live_line l;

	if (!x->plan->live)
		return;
	live_head(x, &l, "second");
	sm_live_u64(&l, "t_ns", elapsed_ns);
	sm_live_u64(&l, "duration_ns", elapsed_ns - x->live_ns);
	sm_live_u64(&l, "bytes", bytes - x->live_bytes);
	sm_live_u64(&l, "dropped", dropped - x->live_dropped);
	sm_live_end(x->plan->live, &l);
	x->live_bytes = bytes;
	x->live_dropped = dropped;
	x->live_ns = elapsed_ns;
}

void sm_streams_live_step(struct sm_streams_search *x, const struct sm_streams_step *st)
{
	struct sm_live_line l;

	if (!x->plan->live)
		return;
	live_head(x, &l, "step end");
	sm_live_str(&l, "held", st->held ? "yes" : "no");
	sm_live_u64(&l, "duration_ns", st->duration_ns);
	sm_live_u64(&l, "bytes", st->bytes);
	sm_live_num(&l, "bytes_per_s", st->bytes_per_s);
	sm_live_u64(&l, "dropped", st->dropped);
	sm_live_u64(&l, "worst_p99_9_sched_ns", st->worst_p999_ns);
	sm_live_u64(&l, "stalls", st->stalls.count);
	sm_live_u64(&l, "stall_longest_ns", st->stalls.longest_ns);
	sm_live_end(x->plan->live, &l);
}

/* One step of n streams for cell c, beside the mix when there is one;
 * *alone: run it into that, not into c's steps (the confirmation); sec:
 * the per-second bytes of c's direction, the mix's streams of that
 * direction included (or NULL). Returns 0, -EINTR, -ENOSPC (playback: no
 * room for the files; nothing ran) or -errno. */
static int one_step(struct sm_streams_search *x, struct sm_streams_cell *c, unsigned n, uint64_t len_ns,
		    struct sm_streams_step *alone, uint64_t *sec, unsigned nsec)
{
	const struct sm_streams_plan *p = x->plan;
	struct sm_streams_order_group og[SM_STREAMS_STEP_GROUPS];
	unsigned ng = step_groups(x, c, n, len_ns, og);
	struct sm_streams_step st;
	uint64_t *gsec = NULL;
	char err[600];
	int rc;

	memset(&st, 0, sizeof(st));
	x->live_cell = c;
	x->live_n = n;
	x->live_bytes = x->live_dropped = x->live_ns = 0;
	if (alone)
		x->live_kind = "sustained";
	if (sec) {
		gsec = calloc((size_t)ng * nsec, sizeof(*gsec));
		if (!gsec)
			return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the confirmation");
	}
	rc = run_groups(x, og, ng, gsec, gsec ? nsec : 0, &st, err, sizeof(err));
	for (unsigned k = 0; gsec && k < ng; k++)
		if (og[k].g.dir == c->dir)
			for (unsigned i = 0; i < nsec; i++)
				sec[i] += gsec[(size_t)k * nsec + i];
	free(gsec);
	if (rc == -ENOSPC && !x->res->error)
		return rc;
	if (rc && rc != -EINTR) {
		if (alone) {
			c->confirm = SM_CONFIRM_FAILED;
			c->confirm_n = n;
			c->headroom_burst = c->max_headroom;
			snprintf(c->confirm_note, sizeof(c->confirm_note),
				 "not checked: the sustained step of %u stream%s stopped at an error: %s",
				 n, n == 1 ? "" : "s", x->res->head.error);
		} else {
			snprintf(c->note, sizeof(c->note), "stopped at an error in the step of %u "
				 "stream%s: %s", n, n == 1 ? "" : "s", x->res->head.error);
		}
		return rc;
	}
	if (rc && !st.streams)
		return rc;
	/* the n streams judged, then (beside a mix) the mix's again with its
	 * bytes of c's direction added */
	sm_streams_step_judge(&st, c->interval_ns, p->queue);
	sm_streams_live_step(x, &st);
	if (x->res->mix.ngroups &&
	    sm_streams_mix_judge(&st, x->res->mix.groups, x->res->mix.ngroups, p->queue, (int)c->dir)) {
		sm_streams_step_release(&st);
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a step");
	}
	if (alone) {
		*alone = st;
		return rc;
	}
	if (add_step(c, &st)) {
		sm_streams_step_release(&st);
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a step");
	}
	return rc;
}

/* What the next step of n streams is expected to take: the step, and the
 * setup (playback files, frames) the last step of this cell took beyond
 * its own length, scaled to n streams. So a deadline check counts what
 * the step costs, not its schedule alone (docs/streams.md, "Budget"). */
static uint64_t step_cost(const struct sm_streams_plan *p, uint64_t last_wall, unsigned last_n,
			  unsigned n)
{
	uint64_t setup = last_wall > p->step_ns ? last_wall - p->step_ns : 0;

	if (!last_n)
		return p->step_ns;
	return p->step_ns + (uint64_t)((double)setup * (double)n / (double)last_n);
}

/* The next trial of cell c's boundary (sm_streams_next_trial on its steps
 * so far), or 0 when it has them all (or the next is past the cap). */
static unsigned next_trial(struct sm_streams_cell *c, const struct sm_streams_plan *p)
{
	struct sm_streams_trials tr;
	unsigned n;

	sm_streams_cell_finish(c, p->max_streams);
	tr.lo = c->max_raw;
	tr.first_fail = c->first_fail;
	tr.high = c->max_high;
	tr.lo_held = c->raw_held;
	tr.lo_trials = c->raw_trials;
	tr.fail_held = c->fail_held;
	tr.fail_trials = c->fail_trials;
	n = sm_streams_next_trial(&tr, p->trials);
	return n <= p->max_streams ? n : 0;
}

/* The search of one cell within its deadline: its share of what was left
 * of --time (share ns from its start), less `reserve` kept for its
 * sustained confirmation. */
static int search_cell(struct sm_streams_search *x, struct sm_streams_cell *c, uint64_t deadline,
		       uint64_t share, uint64_t reserve, unsigned guess)
{
	const struct sm_streams_plan *p = x->plan;
	unsigned lo = 0, hi = 0, n = 0, last_n = 0;
	uint64_t last_wall = 0, t, cost;
	int rc = 0, trial = 0;

	for (;;) {
		char what[160];

		/* the search, then its boundary repeated: the step at the
		 * answer and the one that failed above it, --trials times each
		 * (docs/streams.md, "Trials") */
		if (!trial && !(n = sm_streams_next(lo, hi, p->max_streams, c->nsteps > 0, guess)))
			trial = 1;
		if (trial && !(n = next_trial(c, p)))
			break;
		if (sm_stopped())
			return -EINTR;
		if (sm_now_ns() + (cost = step_cost(p, last_wall, last_n, n)) > deadline) {
			/* this cell's share, not --time, ran out: say which, and
			 * how much of --time the whole search had used */
			char kept[64] = "";

			if (reserve)
				snprintf(kept, sizeof(kept), ", %.0f s more kept for its sustained check",
					 (double)reserve / 1e9);
			snprintf(c->note, sizeof(c->note),
				 "%s the step of %u stream%s: its %.0f s would end past this cell's "
				 "share of --time (%.1f s%s); %.0f of %.0f s used in all",
				 trial ? "the trials stopped before another" : "stopped before", n,
				 n == 1 ? "" : "s", (double)cost / 1e9, (double)(share - reserve) / 1e9, kept,
				 (double)(sm_now_ns() - x->t_start) / 1e9, (double)p->time_ns / 1e9);
			return 0;
		}
		snprintf(what, sizeof(what), "%s %s fps %s: %u stream%s, a %.0f s %s", c->format,
			 c->fps_name, sm_direction_name(c->dir), n, n == 1 ? "" : "s",
			 (double)p->step_ns / 1e9, trial ? "trial" : "step");
		if (x->progress)
			x->progress(what, NULL, sm_now_ns() - x->t_start, p->time_ns, x->arg);
		t = sm_now_ns();
		x->live_kind = trial ? "trial" : "step";
		rc = one_step(x, c, n, p->step_ns, NULL, NULL, 0);
		last_wall = sm_now_ns() - t;
		last_n = n;
		if (rc == -ENOSPC && !x->res->error) {
			snprintf(c->note, sizeof(c->note), "no room for the %s of %u playback streams%s",
				 c->sequence ? "frames" : "files", n, x->res->mix.ngroups ? " beside the mix" : "");
			return 0;
		}
		if (rc)
			return rc;
		if (!trial)
			sm_streams_update(n, c->steps[c->nsteps - 1].held, &lo, &hi);
	}
	c->searched = 1;
	return 0;
}

/* The sustained confirmation's length: 16 s, or 3 steps when longer,
 * so that sm_cliff_find has twice its 8 whole seconds (docs/streams.md). */
static uint64_t confirm_len(const struct sm_streams_plan *p)
{
	uint64_t l = 16 * 1000000000ull;

	return 3 * p->step_ns > l ? 3 * p->step_ns : l;
}

/* The least a shortened confirmation may run: the rule's 8 whole seconds
 * and two for the start and the end. */
#define CONFIRM_MIN_NS (((uint64_t)SM_CLIFF_MIN_SAMPLES + 2) * 1000000000ull)

/* Capture cell c searched: run max_headroom streams for the confirmation
 * length (or what is left of the cell's share, down to CONFIRM_MIN_NS),
 * look for a cliff in its write rate and judge the answer again. */
static int confirm_cell(struct sm_streams_search *x, struct sm_streams_cell *c, uint64_t deadline)
{
	uint64_t now = sm_now_ns(), len = confirm_len(x->plan), *sec;
	double rate[1024];
	struct sm_streams_step st = { 0 };
	struct sm_cliff cl;
	unsigned nsec, whole;
	int rc;

	if (c->dir != SM_DIR_CAPTURE || !c->max_headroom || !c->nsteps)
		return 0;
	if (now + len > deadline)
		len = deadline > now ? (deadline - now) / 1000000000ull * 1000000000ull : 0;
	if (len < CONFIRM_MIN_NS) {
		c->confirm = SM_CONFIRM_NO_TIME;
		c->confirm_n = c->max_headroom;
		c->headroom_burst = c->max_headroom;
		snprintf(c->confirm_note, sizeof(c->confirm_note),
			 "could not be checked for a cliff: the --time budget left %.0f s for the "
			 "sustained step of %u stream%s, %.0f s needed (at least %.0f)",
			 (double)len / 1e9, c->max_headroom, c->max_headroom == 1 ? "" : "s",
			 (double)confirm_len(x->plan) / 1e9, (double)CONFIRM_MIN_NS / 1e9);
		return 0;
	}
	if (len > 1000 * 1000000000ull)
		len = 1000 * 1000000000ull;
	nsec = (unsigned)(len / 1000000000ull) + 2;
	sec = calloc(nsec, sizeof(*sec));
	if (!sec)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the confirmation");
	if (x->progress) {
		char what[160];

		snprintf(what, sizeof(what), "%s %s fps capture: %u streams sustained for %.0f s",
			 c->format, c->fps_name, c->max_headroom, (double)len / 1e9);
		x->progress(what, NULL, sm_now_ns() - x->t_start, x->plan->time_ns, x->arg);
	}
	rc = one_step(x, c, c->max_headroom, len, &st, sec, nsec);
	if (!rc) {
		/* the whole seconds of the schedule: the last, partial one and
		 * the drain after it are not a rate */
		whole = (unsigned)(st.schedule_ns / 1000000000ull);
		if (whole > nsec)
			whole = nsec;
		for (unsigned i = 0; i < whole; i++)
			rate[i] = (double)sec[i];
		sm_cliff_find(rate, whole, 1000000000ull, &cl);
		sm_streams_confirm_judge(c, &st, len, &cl);
	}
	if (rc == -ENOSPC && !x->res->error) {
		c->confirm = SM_CONFIRM_NO_ROOM;
		c->confirm_n = c->max_headroom;
		c->headroom_burst = c->max_headroom;
		snprintf(c->confirm_note, sizeof(c->confirm_note),
			 "could not be checked for a cliff: no room for the mix's playback files of a "
			 "%.0f s step", (double)len / 1e9);
		rc = 0;
	}
	sm_streams_step_release(&st);
	free(sec);
	return rc;
}

/* Fill cell c's format figures; 0, or -ENOENT when f is not defined at r. */
static int cell_init(struct sm_streams_cell *c, const struct sm_sformat *f, const struct sm_fps *r,
		     enum sm_direction dir)
{
	memset(c, 0, sizeof(*c));
	c->chunk_bytes = sm_sformat_chunk(f, r);
	if (!c->chunk_bytes)
		return -ENOENT;
	snprintf(c->format, sizeof(c->format), "%s", f->name);
	snprintf(c->codec, sizeof(c->codec), "%s", f->codec);
	snprintf(c->fps_name, sizeof(c->fps_name), "%s", r->name);
	c->fps = sm_fps_value(r);
	c->dir = dir;
	c->sequence = sm_sformat_is_sequence(f);
	c->frame_bytes = sm_sformat_frame_bytes(f, r);
	c->rate = sm_sformat_rate(f, r);
	c->moved_rate = sm_sformat_moved_rate(f, r);
	c->interval_ns = (uint64_t)llround(1e9 / c->fps);
	return 0;
}

/* The cells, in the order they run: per rate and direction, formats from
 * the heaviest (so that, with auto_formats, a format held at the cap
 * settles every lighter one). */
static int make_cells(struct sm_streams_search *x)
{
	const struct sm_streams_plan *p = x->plan;
	struct sm_streams_result *res = x->res;
	unsigned max = p->nformats * p->nrates * 2;
	unsigned *order;

	res->cells = calloc(max ? max : 1, sizeof(*res->cells));
	order = calloc(p->nformats ? p->nformats : 1, sizeof(*order));
	if (!res->cells || !order) {
		free(order);
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the cells");
	}
	for (unsigned r = 0; r < p->nrates; r++) {
		const struct sm_fps *fr = p->rates[r];

		for (unsigned i = 0; i < p->nformats; i++)
			order[i] = i;
		if (p->auto_formats)   /* heaviest first */
			for (unsigned i = 1; i < p->nformats; i++)
				for (unsigned j = i; j > 0 &&
				     sm_sformat_rate(&p->formats[order[j - 1]], fr) <
				     sm_sformat_rate(&p->formats[order[j]], fr); j--) {
					unsigned t = order[j];

					order[j] = order[j - 1];
					order[j - 1] = t;
				}
		for (int d = 0; d < 2; d++) {
			enum sm_direction dir = d == 0 ? SM_DIR_CAPTURE : SM_DIR_PLAYBACK;

			if ((dir == SM_DIR_CAPTURE && !p->capture) || (dir == SM_DIR_PLAYBACK && !p->playback))
				continue;
			for (unsigned i = 0; i < p->nformats; i++)
				if (!cell_init(&res->cells[res->ncells], &p->formats[order[i]], fr, dir)) {
					res->cells[res->ncells].base_rate =
						sm_streams_mix_rate(&res->mix, (int)dir);
					res->ncells++;
				}
		}
	}
	free(order);
	return 0;
}

/* Copy the plan's mix into the result (its groups: the result's own). */
static int copy_mix(struct sm_streams_search *x)
{
	const struct sm_streams_mix *m = x->plan->mix;
	struct sm_streams_mix *r = &x->res->mix;

	if (!m || !m->ngroups)
		return 0;
	snprintf(r->spec, sizeof(r->spec), "%s", m->spec);
	r->groups = malloc(m->ngroups * sizeof(*r->groups));
	if (!r->groups)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the mix");
	memcpy(r->groups, m->groups, m->ngroups * sizeof(*r->groups));
	r->ngroups = m->ngroups;
	r->nstreams = m->nstreams;
	r->needed = m->needed;
	return 0;
}

/* The mix alone: one step of --step seconds of all its streams, each
 * group's bytes per second kept for its rate over time. Returns 0 (also
 * when there was no room: not measured, the note says why), -EINTR or
 * -errno (a fault: the note says so). */
static int run_mix(struct sm_streams_search *x)
{
	struct sm_streams_mix *m = &x->res->mix;
	struct sm_streams_order_group og[SM_STREAMS_STEP_GROUPS];
	unsigned ng = step_groups(x, NULL, 0, x->plan->step_ns, og);
	char err[600];
	int rc;

	m->nsec = (unsigned)(x->plan->step_ns / 1000000000ull) + 2;
	m->sec_bytes = calloc((size_t)(m->ngroups + 1) * m->nsec, sizeof(*m->sec_bytes));
	if (!m->sec_bytes)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the mix");
	if (x->progress) {
		char what[160];

		snprintf(what, sizeof(what), "the mix: %u stream%s in %u group%s for %.0f s",
			 m->nstreams, m->nstreams == 1 ? "" : "s", m->ngroups,
			 m->ngroups == 1 ? "" : "s", (double)x->plan->step_ns / 1e9);
		x->progress(what, NULL, sm_now_ns() - x->t_start, x->plan->time_ns, x->arg);
	}
	rc = run_groups(x, og, ng, m->sec_bytes, m->nsec, &m->step, err, sizeof(err));
	if (rc == -ENOSPC && !x->res->error) {
		snprintf(m->note, sizeof(m->note), "no room for the mix's playback files");
		return 0;
	}
	if (rc && rc != -EINTR) {
		snprintf(m->note, sizeof(m->note), "stopped at an error: %s", x->res->head.error);
		return rc;
	}
	if (!m->step.streams)
		return rc;
	if (sm_streams_mix_judge(&m->step, m->groups, m->ngroups, x->plan->queue, -1))
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the mix");
	for (unsigned k = 0; k < m->ngroups; k++)   /* all groups, second by second */
		for (unsigned i = 0; i < m->nsec; i++)
			m->sec_bytes[(size_t)m->ngroups * m->nsec + i] += m->sec_bytes[(size_t)k * m->nsec + i];
	m->ran = m->step.complete;
	m->held = m->ran && m->step.held;
	if (!m->ran)
		snprintf(m->note, sizeof(m->note), "the step was interrupted");
	return rc;
}

/* Two cells of one format, kind and direction at different rates: answers
 * that may contradict each other, and time kept to settle them. */
static int rates_to_settle(const struct sm_streams_result *res)
{
	for (unsigned i = 0; i < res->ncells; i++)
		for (unsigned j = i + 1; j < res->ncells; j++)
			if (res->cells[i].dir == res->cells[j].dir &&
			    res->cells[i].sequence == res->cells[j].sequence &&
			    res->cells[i].fps != res->cells[j].fps &&
			    !strcmp(res->cells[i].format, res->cells[j].format))
				return 1;
	return 0;
}

/*
 * Answers that contradict each other: more streams of a format at a higher
 * rate than a lower rate held, where the lower one failed right above its
 * answer. The higher rate's step at the count the lower one failed at runs
 * again, up to --trials times, until one fails; if every one held (or no
 * time was left to run one), its answer is bounded by the lower rate's and
 * says so (docs/streams.md, "Consistent answers"). Cells are settled from
 * the lowest rate up, so each bound is final.
 */
static int settle_cells(struct sm_streams_search *x)
{
	const struct sm_streams_plan *p = x->plan;
	struct sm_streams_result *res = x->res;
	unsigned *order = malloc((res->ncells ? res->ncells : 1) * sizeof(*order));
	int rc = 0;

	if (!order)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the search");
	for (unsigned k = 0; k < res->ncells; k++) {   /* by rate, lowest first */
		unsigned at = k;

		while (at > 0 && res->cells[order[at - 1]].fps > res->cells[k].fps) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = k;
	}
	for (unsigned k = 0; !rc && k < res->ncells; k++) {
		struct sm_streams_cell *c = &res->cells[order[k]];
		int i = sm_streams_lower_bound(res->cells, res->ncells, order[k]);
		unsigned m;

		if (i < 0)
			continue;
		m = res->cells[i].max_raw + 1;
		for (unsigned t = 0; t < p->trials; t++) {
			char what[160];

			if (sm_stopped()) {
				rc = -EINTR;
				break;
			}
			if (sm_now_ns() + p->step_ns > x->deadline)
				break;
			snprintf(what, sizeof(what), "%s %s fps %s: %u stream%s again, as %s fps failed them",
				 c->format, c->fps_name, sm_direction_name(c->dir), m, m == 1 ? "" : "s",
				 res->cells[i].fps_name);
			if (x->progress)
				x->progress(what, NULL, sm_now_ns() - x->t_start, p->time_ns, x->arg);
			x->live_kind = "recheck";
			rc = one_step(x, c, m, p->step_ns, NULL, NULL, 0);
			if (rc == -ENOSPC && !res->error) {
				rc = 0;
				break;
			}
			if (rc)
				break;
			c->rechecks++;
			if (!c->steps[c->nsteps - 1].held)
				break;
		}
		sm_streams_cell_finish(c, p->max_streams);
		if (rc)
			break;
		if ((i = sm_streams_lower_bound(res->cells, res->ncells, order[k])) >= 0) {
			c->bounded = 1;
			c->bound_n = res->cells[i].max_raw;
			snprintf(c->bound_fps, sizeof(c->bound_fps), "%s", res->cells[i].fps_name);
			sm_streams_cell_finish(c, p->max_streams);
		}
	}
	free(order);
	return rc;
}

int sm_streams_run(const struct sm_streams_plan *plan, struct sm_streams_result *res,
		   sm_streams_progress_fn progress, void *arg)
{
	struct sm_streams_search x = { .plan = plan, .res = res, .progress = progress, .arg = arg };
	uint64_t settle = 0;
	int rc;

	res->plan = *plan;
	res->time_ns = plan->time_ns;
	res->step_ns = plan->step_ns;
	res->max_streams = plan->max_streams;
	res->trials = plan->trials;
	res->queue = plan->queue;
	res->prebuffer = plan->prebuffer;
	res->depth = plan->depth;
	x.t_start = sm_now_ns();
	x.deadline = x.t_start + plan->time_ns;
	rc = copy_mix(&x);
	if (!rc)
		rc = sm_streams_setup_dir(&x);
	if (!rc)
		rc = make_cells(&x);
	if (!rc && res->mix.ngroups)
		rc = run_mix(&x);
	/* a tenth of --time (at most --trials steps) kept to settle answers
	 * that contradict each other */
	if (!rc && rates_to_settle(res))
		settle = plan->trials * plan->step_ns < plan->time_ns / 10 ? plan->trials * plan->step_ns
									  : plan->time_ns / 10;
	/* beside a mix that does not hold on its own, no stream more fits:
	 * nothing to search */
	for (unsigned i = 0; !rc && res->mix.ngroups && !res->mix.held && i < res->ncells; i++)
		snprintf(res->cells[i].note, sizeof(res->cells[i].note), "not run: the mix %s",
			 res->mix.ran ? "does not hold on its own" : "could not be measured on its own");
	for (unsigned i = 0; !rc && (!res->mix.ngroups || res->mix.held) && i < res->ncells; i++) {
		struct sm_streams_cell *c = &res->cells[i];
		uint64_t now = sm_now_ns(), left = x.deadline > now + settle ? x.deadline - settle - now : 0;
		int skip = 0;

		/* auto: a heavier format of the same rate and direction held
		 * at the cap, so this one would too */
		for (unsigned k = 0; plan->auto_formats && k < i; k++) {
			const struct sm_streams_cell *h = &res->cells[k];

			if (h->dir == c->dir && h->fps == c->fps && h->at_cap && h->rate >= c->rate)
				skip = 1;
		}
		if (skip) {
			snprintf(c->note, sizeof(c->note),
				 "skipped: a heavier format held %u streams (the cap)", plan->max_streams);
			c->max_raw = plan->max_streams;
			c->at_cap = 1;
			c->searched = 1;   /* settled by the heavier format */
			c->measured = 1;
			c->max_headroom = sm_streams_headroom_beside(c->max_raw, 0, c->rate, c->base_rate);
			continue;
		}
		/* start from what the storage delivered for an earlier format
		 * in this direction (docs/streams.md) */
		double sus = 0;

		for (unsigned k = 0; k < i; k++)
			if (res->cells[k].dir == c->dir && res->cells[k].sustained_bytes_per_s > sus)
				sus = res->cells[k].sustained_bytes_per_s;
		/* capture: the search leaves the confirmation its time when
		 * the cell's share holds it and at least one step */
		uint64_t share = left / (res->ncells - i), reserve = 0;

		if (c->dir == SM_DIR_CAPTURE && share >= confirm_len(plan) + plan->step_ns)
			reserve = confirm_len(plan);
		rc = search_cell(&x, c, now + share - reserve, share, reserve,
				 sm_streams_guess(sus - c->base_rate, c->rate, plan->max_streams));
		sm_streams_cell_finish(c, plan->max_streams);
		c->trials_known = 1;
		if (c->at_cap && c->note[0] == '\0')
			c->searched = 1;
		/* steps ran, but none of one stream failed and none held: no
		 * answer, not "0" */
		if (!c->measured && !c->note[0] && c->nsteps)
			snprintf(c->note, sizeof(c->note), "no step held and none of one stream ran");
		if (!rc)
			rc = confirm_cell(&x, c, now + share);
	}
	if (!rc && (!res->mix.ngroups || res->mix.held))
		rc = settle_cells(&x);
	if (rc == -EINTR || sm_stopped()) {
		rc = -EINTR;
		res->head.interrupted = 1;
	}
	/* the cells the search did not come to are not measured: say why */
	for (unsigned i = 0; rc && i < res->ncells; i++)
		if (!res->cells[i].measured && !res->cells[i].note[0])
			snprintf(res->cells[i].note, sizeof(res->cells[i].note), "not run: %s",
				 rc == -EINTR ? "the search was interrupted before it"
					      : "the search stopped at an error before it");
	if (plan->peers)
		sm_streams_mpi_end(&x);
	res->head.duration_ns = sm_now_ns() - x.t_start;
	sm_streams_teardown(&x);
	return rc;
}
