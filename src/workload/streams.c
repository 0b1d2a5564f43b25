/* SPDX-License-Identifier: MIT */
/* The streams search: for each format, frame rate and direction, paced
 * steps of n concurrent streams, doubling then bisection, within the time
 * budget; the test directory and its files. docs/streams.md. */
#include "workload/streams.h"
#include "workload/streams_int.h"
#include "analysis/cliff.h"
#include "analysis/streams.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The run's first error: fmt and its arguments, then ": " and rc's text. */
static int fail(struct sm_streams_search *x, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct sm_streams_search *x, int rc, const char *fmt, ...)
{
	size_t len = sizeof(x->res->head.error), n;
	va_list ap;

	if (!x->res->error)
		x->res->error = rc;
	if (!x->res->head.error[0]) {
		va_start(ap, fmt);
		vsnprintf(x->res->head.error, len, fmt, ap);
		va_end(ap);
		n = strlen(x->res->head.error);
		snprintf(x->res->head.error + n, len - n, ": %s", strerror(-rc));
	}
	return rc;
}

static void path_of(struct sm_streams_search *x, const char *kind, unsigned i)
{
	snprintf(x->paths[i], SM_STREAMS_PATH_LEN, "%s/%s-%03u.stm", x->res->data_dir, kind, i);
	x->pathv[i] = x->paths[i];
}

/* Remove the playback files (stormark's own, created O_EXCL here). */
static void drop_play(struct sm_streams_search *x)
{
	for (unsigned i = 0; i < x->nplay; i++) {
		path_of(x, "play", i);
		unlink(x->paths[i]);
	}
	x->nplay = 0;
	x->play_bytes = 0;
}

/* Write playback file `path` from `from` up to `bytes` (whole 4 KiB
 * blocks of the pattern, at most `chunk` a request): a new file (from 0,
 * created O_EXCL) or one of ours grown. A new file that fails is removed. */
static int write_play(struct sm_streams_search *x, const char *path, uint64_t chunk, uint64_t from,
		      uint64_t bytes, void *buf)
{
	int flags = O_WRONLY | O_CLOEXEC | (x->direct ? O_DIRECT : 0) | (from ? 0 : O_CREAT | O_EXCL);
	int fd = open(path, flags, 0644);
	uint64_t off = from;
	int rc = 0;

	if (fd < 0)
		return fail(x, -errno, from ? "cannot open '%s'" : "cannot create '%s'", path);
	while (off < bytes && !sm_stopped()) {
		size_t len = bytes - off < chunk ? (size_t)(bytes - off) : (size_t)chunk;
		ssize_t w = pwrite(fd, buf, len, (off_t)off);

		if (w != (ssize_t)len) {
			rc = fail(x, w < 0 ? -errno : -ENOSPC, "cannot write '%s'", path);
			break;
		}
		off += len;
	}
	if (!rc && sm_stopped())
		rc = -EINTR;
	if (!rc && fsync(fd))
		rc = fail(x, -errno, "cannot write '%s'", path);
	close(fd);
	if (rc && !from)
		unlink(path);
	return rc;
}

/* Make sure playback files 0..n-1 hold at least `bytes` each. The files
 * are kept from one format to the next (any chunk reads them) and only
 * grown, so each byte is written once. Returns 0, -ENOSPC (no room: the
 * search stops there, not an error), -EINTR or -errno. */
static int ensure_play(struct sm_streams_search *x, unsigned n, uint64_t chunk, uint64_t bytes)
{
	uint64_t size = bytes > x->play_bytes ? bytes : x->play_bytes;
	double need = (double)(n > x->nplay ? n - x->nplay : 0) * (double)size +
		      (double)x->nplay * (double)(size - x->play_bytes);
	struct sm_fs_info fs;
	void *buf;
	int rc = 0;

	if (n <= x->nplay && bytes <= x->play_bytes)
		return 0;
	if (!sm_fs_info(x->res->data_dir, &fs) && fs.free_bytes && need > 0.9 * (double)fs.free_bytes)
		return -ENOSPC;
	buf = sm_buf_alloc(chunk, 4096);
	if (!buf)
		return fail(x, -ENOMEM, "out of memory for %s", "a playback file");
	sm_buf_fill(buf, chunk, SM_DATA_RANDOM, 0x504c4159ull);
	for (unsigned i = 0; i < x->nplay && size > x->play_bytes && !rc; i++) {
		path_of(x, "play", i);
		rc = write_play(x, x->paths[i], chunk, x->play_bytes, size, buf);
	}
	if (!rc)
		x->play_bytes = size;
	for (unsigned i = x->nplay; i < n && !rc; i++) {
		path_of(x, "play", i);
		rc = write_play(x, x->paths[i], chunk, 0, size, buf);
		if (!rc)
			x->nplay = i + 1;
	}
	free(buf);
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

int sm_streams_prepare(struct sm_streams_search *x, const struct sm_streams_step_plan *sp)
{
	if (sp->dir != SM_DIR_PLAYBACK || !sp->n)
		return 0;
	return ensure_play(x, sp->n, sp->chunk_bytes, sm_streams_step_bytes(sp));
}

int sm_streams_local_step(struct sm_streams_search *x, const struct sm_streams_step_plan *sp,
			  struct sm_streams_step *st, char *notice, size_t nlen, char *err, size_t elen)
{
	struct sm_streams_step_plan mine = *sp;
	int rc;

	memset(st, 0, sizeof(*st));
	notice[0] = err[0] = '\0';
	rc = sm_streams_prepare(x, sp);
	if (rc) {
		snprintf(err, elen, "%s", x->res->head.error);
		return rc;
	}
	for (unsigned i = 0; i < sp->n; i++)
		path_of(x, sp->dir == SM_DIR_PLAYBACK ? "play" : "cap", i);
	mine.paths = x->pathv;
	rc = sm_streams_step_run(&mine, st, notice, nlen, err, elen);
	if (sp->dir == SM_DIR_CAPTURE)   /* created O_EXCL by the step: ours */
		for (unsigned i = 0; i < st->created; i++)
			unlink(x->paths[i]);
	st->created = 0;
	for (unsigned i = 0; st->streams && i < st->n; i++) {
		x->res->rank_bytes += st->streams[i].bytes;
		x->res->rank_frames += st->streams[i].done;
	}
	return rc;
}

/* One step of n streams for cell c (spread over the ranks in an MPI job);
 * *alone: run it into that, not into c's steps (the confirmation); sec:
 * its per-second bytes (or NULL). Returns 0, -EINTR, -ENOSPC (playback:
 * no room for the files; nothing ran) or -errno. */
static int one_step(struct sm_streams_search *x, struct sm_streams_cell *c, unsigned n, uint64_t frames,
		    struct sm_streams_step *alone, uint64_t *sec, unsigned nsec)
{
	const struct sm_streams_plan *p = x->plan;
	struct sm_streams_step_plan sp = {
		.paths = x->pathv, .n = n, .dir = c->dir, .chunk_bytes = c->chunk_bytes,
		.frame_bytes = c->frame_bytes, .fps = c->fps, .frames = frames, .queue = p->queue, .prebuffer = p->prebuffer,
		.depth = p->depth, .engine = p->engine, .direct = x->direct,
		.engine_flags = p->engine_flags, .esetup = &x->res->head.env.engine_setup,
		.sec_bytes = sec, .nsec = nsec,
	};
	struct sm_streams_step st;
	char notice[256], err[600];
	int rc;

	if (p->peers)
		rc = sm_streams_mpi_step(x, &sp, &st, notice, sizeof(notice), err, sizeof(err));
	else
		rc = sm_streams_local_step(x, &sp, &st, notice, sizeof(notice), err, sizeof(err));
	if (rc == -ENOSPC && c->dir == SM_DIR_PLAYBACK && !x->res->error) {
		free(st.streams);
		return rc;
	}
	if (notice[0] && !x->engine_noted) {
		sm_warn(&x->res->head.warnings, "engine_fallback", "%s", notice);
		x->engine_noted = 1;
	}
	if (rc && rc != -EINTR) {
		/* a fault is not an answer: the step is not judged, the search
		 * stops there (exit 1, the report of what was measured) */
		free(st.streams);
		if (!x->res->error)
			x->res->error = rc;
		snprintf(x->res->head.error, sizeof(x->res->head.error), "%s", err);
		if (alone) {
			c->confirm = SM_CONFIRM_FAILED;
			c->confirm_n = n;
			c->headroom_burst = c->max_headroom;
			snprintf(c->confirm_note, sizeof(c->confirm_note),
				 "not checked: the sustained step of %u stream%s stopped at an error: %s",
				 n, n == 1 ? "" : "s", err);
		} else {
			snprintf(c->note, sizeof(c->note), "stopped at an error in the step of %u "
				 "stream%s: %s", n, n == 1 ? "" : "s", err);
		}
		return rc;
	}
	if (!st.streams)   /* stopped before it ran (a playback file's write) */
		return rc ? rc : -EINTR;
	sm_streams_step_judge(&st, c->interval_ns, p->queue);
	if (alone) {
		*alone = st;
		return rc;
	}
	if (add_step(c, &st)) {
		free(st.streams);
		return fail(x, -ENOMEM, "out of memory for %s", "a step");
	}
	return rc;
}

/* The search of one cell within its deadline: its share of what was left
 * of --time (share ns from its start), less `reserve` kept for its
 * sustained confirmation. */
static int search_cell(struct sm_streams_search *x, struct sm_streams_cell *c, uint64_t deadline,
		       uint64_t share, uint64_t reserve, unsigned guess)
{
	const struct sm_streams_plan *p = x->plan;
	uint64_t frames = (uint64_t)ceil((double)p->step_ns / 1e9 * c->fps);
	unsigned lo = 0, hi = 0, n;
	int rc = 0;

	if (frames < (uint64_t)p->prebuffer + 1)
		frames = p->prebuffer + 1;
	while ((n = sm_streams_next(lo, hi, p->max_streams, c->nsteps > 0, guess))) {
		char what[160];

		if (sm_stopped())
			return -EINTR;
		if (sm_now_ns() + p->step_ns > deadline) {
			/* this cell's share, not --time, ran out: say which, and
			 * how much of --time the whole search had used */
			char kept[64] = "";

			if (reserve)
				snprintf(kept, sizeof(kept), ", %.0f s more kept for its sustained check",
					 (double)reserve / 1e9);
			snprintf(c->note, sizeof(c->note),
				 "stopped before the step of %u stream%s: its %.0f s would end past this "
				 "cell's share of --time (%.1f s%s); %.0f of %.0f s used in all", n,
				 n == 1 ? "" : "s", (double)p->step_ns / 1e9,
				 (double)(share - reserve) / 1e9, kept,
				 (double)(sm_now_ns() - x->t_start) / 1e9, (double)p->time_ns / 1e9);
			return 0;
		}
		snprintf(what, sizeof(what), "%s %s fps %s: %u stream%s", c->format, c->fps_name,
			 sm_direction_name(c->dir), n, n == 1 ? "" : "s");
		if (x->progress)
			x->progress(what, sm_now_ns() - x->t_start, p->time_ns, x->arg);
		rc = one_step(x, c, n, frames, NULL, NULL, 0);
		if (rc == -ENOSPC && c->dir == SM_DIR_PLAYBACK && !x->res->error) {
			snprintf(c->note, sizeof(c->note),
				 "no room for the files of %u playback streams", n);
			return 0;
		}
		if (rc)
			return rc;
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
	uint64_t now = sm_now_ns(), len = confirm_len(x->plan), frames, *sec;
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
	frames = (uint64_t)ceil((double)len / 1e9 * c->fps);
	nsec = (unsigned)(len / 1000000000ull) + 2;
	sec = calloc(nsec, sizeof(*sec));
	if (!sec)
		return fail(x, -ENOMEM, "out of memory for %s", "the confirmation");
	if (x->progress) {
		char what[160];

		snprintf(what, sizeof(what), "%s %s fps capture: %u streams sustained", c->format,
			 c->fps_name, c->max_headroom);
		x->progress(what, sm_now_ns() - x->t_start, x->plan->time_ns, x->arg);
	}
	rc = one_step(x, c, c->max_headroom, frames, &st, sec, nsec);
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
	free(st.streams);
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
		return fail(x, -ENOMEM, "out of memory for %s", "the cells");
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
				if (!cell_init(&res->cells[res->ncells], &p->formats[order[i]], fr, dir))
					res->ncells++;
		}
	}
	free(order);
	return 0;
}

int sm_streams_setup_dir(struct sm_streams_search *x)
{
	struct sm_streams_result *res = x->res;
	int align;

	x->paths = calloc(x->plan->max_streams, sizeof(*x->paths));
	x->pathv = calloc(x->plan->max_streams, sizeof(*x->pathv));
	if (!x->paths || !x->pathv)
		return fail(x, -ENOMEM, "out of memory for %s", "the paths");
	sm_env_collect(&res->head.env, x->plan->dir);
	snprintf(res->data_dir, sizeof(res->data_dir), "%s/.stormark-streams-XXXXXX", x->plan->dir);
	if (!mkdtemp(res->data_dir)) {
		int rc = -errno;

		res->data_dir[0] = '\0';
		return fail(x, rc, "cannot create a test directory in '%s'", x->plan->dir);
	}
	x->direct = 0;
	if (x->plan->direct) {
		align = sm_direct_probe(res->data_dir);
		x->direct = align > 0 && align <= 4096;
		if (!x->direct)
			sm_warn(&res->head.warnings, "buffered_io",
				"direct I/O does not work here (%s): playback may be served "
				"from the page cache",
				align > 0 ? "alignment over 4 KiB" : strerror(-align));
	}
	res->head.env.direct_io = x->direct;
	snprintf(res->head.env.engine, sizeof(res->head.env.engine), "%s",
		 x->plan->engine ? x->plan->engine : "uring");
	return 0;
}

void sm_streams_teardown(struct sm_streams_search *x)
{
	struct sm_streams_result *res = x->res;

	if (x->paths)
		drop_play(x);
	if (res->data_dir[0] && rmdir(res->data_dir) && errno != ENOENT)
		sm_warn(&res->head.warnings, "data_dir_left",
			"the test directory '%s' was left: it holds a file stormark did not create",
			res->data_dir);
	free(x->paths);
	free(x->pathv);
	x->paths = NULL;
	x->pathv = NULL;
}

int sm_streams_run(const struct sm_streams_plan *plan, struct sm_streams_result *res,
		   sm_streams_progress_fn progress, void *arg)
{
	struct sm_streams_search x = { .plan = plan, .res = res, .progress = progress, .arg = arg };
	int rc;

	res->plan = *plan;
	res->time_ns = plan->time_ns;
	res->step_ns = plan->step_ns;
	res->max_streams = plan->max_streams;
	res->queue = plan->queue;
	res->prebuffer = plan->prebuffer;
	res->depth = plan->depth;
	x.t_start = sm_now_ns();
	x.deadline = x.t_start + plan->time_ns;
	rc = sm_streams_setup_dir(&x);
	if (!rc)
		rc = make_cells(&x);
	for (unsigned i = 0; !rc && i < res->ncells; i++) {
		struct sm_streams_cell *c = &res->cells[i];
		uint64_t now = sm_now_ns(), left = x.deadline > now ? x.deadline - now : 0;
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
			c->max_headroom = sm_streams_headroom(c->max_raw, 0, c->rate);
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
				 sm_streams_guess(sus, c->rate, plan->max_streams));
		sm_streams_cell_finish(c, plan->max_streams);
		if (c->at_cap && c->note[0] == '\0')
			c->searched = 1;
		if (!rc)
			rc = confirm_cell(&x, c, now + share);
	}
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
