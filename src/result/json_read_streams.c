/* SPDX-License-Identifier: MIT */
/* Reading a `stormark streams` document back: params and every cell with
 * its steps and each stream's figures, as report/streams_json.c wrote them. */
#include "result/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_stream(const cJSON *o, struct sm_stream_fig *s, struct sm_jerr *e)
{
	if (!cJSON_IsObject(o))
		return sm_jerr_set(e, "a per_stream entry is not an object");
	/* startup_ns came later: a result without it has 0 */
	if (cJSON_GetObjectItemCaseSensitive(o, "startup_ns") &&
	    sm_jget_u64(o, "startup_ns", &s->startup_ns, e))
		return -EINVAL;
	return sm_jget_u64(o, "scheduled", &s->scheduled, e) || sm_jget_u64(o, "done", &s->done, e) ||
	       sm_jget_u64(o, "dropped", &s->dropped, e) ||
	       sm_jget_u64(o, "longest_drop_run", &s->longest_run, e) ||
	       sm_jget_u64(o, "bytes", &s->bytes, e) ||
	       sm_jget_u64(o, "p99_9_sched_ns", &s->p999_sched_ns, e) ||
	       sm_jget_u64(o, "max_sched_ns", &s->max_sched_ns, e) ||
	       sm_jget_u64(o, "max_queue", &s->max_queue, e) || sm_jget_int(o, "error", &s->error, e)
	       ? -EINVAL : 0;
}

/* A group's (or the whole mix's) figures, as group_fig_json wrote them. */
static int read_group_fig(const cJSON *o, struct sm_streams_group_fig *g, struct sm_jerr *e)
{
	return sm_jget_bool(o, "held", &g->held, e) || sm_jget_uint(o, "streams_held", &g->streams_held, e) ||
	       sm_jget_u64(o, "scheduled", &g->scheduled, e) || sm_jget_u64(o, "done", &g->done, e) ||
	       sm_jget_u64(o, "dropped", &g->dropped, e) || sm_jget_u64(o, "bytes", &g->bytes, e) ||
	       sm_jget_double(o, "bytes_per_s", &g->bytes_per_s, e) ||
	       sm_jget_u64(o, "p99_9_sched_ns", &g->worst_p999_ns, e) ||
	       sm_jget_u64(o, "max_sched_ns", &g->max_sched_ns, e) ? -EINVAL : 0;
}

/* A step's mix (absent without one): its figures, its groups', its
 * streams'. ngroups: the mix's. */
static int read_step_mix(const cJSON *o, struct sm_streams_step *s, unsigned ngroups, struct sm_jerr *e)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "mix"), *g, *a, *x;
	unsigned k = 0;

	if (!m)
		return 0;
	if (!cJSON_IsObject(m) || read_group_fig(m, &s->mix_total, e) || !(g = sm_jget_arr(m, "groups", e)) ||
	    !(a = sm_jget_arr(m, "per_stream", e)))
		return sm_jerr_set(e, "a step's 'mix' is not one");
	if ((unsigned)cJSON_GetArraySize(g) != ngroups)
		return sm_jerr_set(e, "a step's mix has %d groups, the mix %u", cJSON_GetArraySize(g), ngroups);
	if (cJSON_GetArraySize(a) > SM_STREAMS_MAX)
		return sm_jerr_set(e, "a step's mix lists %d streams", cJSON_GetArraySize(a));
	s->nmix = (unsigned)cJSON_GetArraySize(a);
	s->mix_streams = calloc(s->nmix ? s->nmix : 1, sizeof(*s->mix_streams));
	s->mix_groups = calloc(ngroups ? ngroups : 1, sizeof(*s->mix_groups));
	if (!s->mix_streams || !s->mix_groups)
		return -ENOMEM;
	cJSON_ArrayForEach(x, g)
		if (read_group_fig(x, &s->mix_groups[k++], e))
			return -EINVAL;
	k = 0;
	cJSON_ArrayForEach(x, a)
		if (read_stream(x, &s->mix_streams[k++], e))
			return -EINVAL;
	return 0;
}

static int read_step(const cJSON *o, struct sm_streams_step *s, unsigned ngroups, struct sm_jerr *e)
{
	const cJSON *a, *x;
	unsigned k = 0;

	if (!cJSON_IsObject(o))
		return sm_jerr_set(e, "a step is not an object");
	if (sm_jget_uint(o, "streams", &s->n, e) || sm_jget_bool(o, "held", &s->held, e) ||
	    sm_jget_bool(o, "complete", &s->complete, e) ||
	    sm_jget_u64(o, "duration_ns", &s->duration_ns, e) ||
	    sm_jget_u64(o, "schedule_ns", &s->schedule_ns, e) || sm_jget_u64(o, "bytes", &s->bytes, e) ||
	    sm_jget_double(o, "bytes_per_s", &s->bytes_per_s, e) ||
	    sm_jget_double(o, "delivered_bytes_per_s", &s->delivered_bytes_per_s, e) ||
	    sm_jget_u64(o, "dropped", &s->dropped, e) ||
	    sm_jget_u64(o, "worst_p99_9_sched_ns", &s->worst_p999_ns, e) ||
	    !(a = sm_jget_arr(o, "per_stream", e)))
		return -EINVAL;
	if (cJSON_GetObjectItemCaseSensitive(o, "cpu_ns") && sm_jget_u64(o, "cpu_ns", &s->cpu_ns, e))
		return -EINVAL;   /* (absent in results saved before it was measured) */
	if (sm_json_read_stalls(o, &s->stalls, e))
		return -EINVAL;
	if (s->n > SM_STREAMS_MAX || (unsigned)cJSON_GetArraySize(a) != s->n)
		return sm_jerr_set(e, "a step of %u streams lists %d of them", s->n, cJSON_GetArraySize(a));
	s->streams = calloc(s->n ? s->n : 1, sizeof(*s->streams));
	if (!s->streams)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a)
		if (read_stream(x, &s->streams[k++], e))
			return -EINVAL;
	return read_step_mix(o, s, ngroups, e);
}

/* The capture confirmation and its cliff; absent in older results and
 * where none was due (confirm stays SM_CONFIRM_NONE). */
static int read_confirm(const cJSON *o, struct sm_streams_cell *c, struct sm_jerr *e)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "confirmation");
	char state[16];

	if (!k)
		return 0;
	if (!cJSON_IsObject(k))
		return sm_jerr_set(e, "'confirmation' is not an object");
	if (sm_jget_str(k, "state", state, sizeof(state), e) ||
	    sm_jget_uint(k, "streams", &c->confirm_n, e) ||
	    sm_jget_u64(k, "duration_ns", &c->confirm_ns, e) ||
	    sm_jget_bool(k, "held", &c->confirm_held, e) ||
	    sm_jget_u64(k, "dropped", &c->confirm_dropped, e) ||
	    sm_jget_double(k, "delivered_bytes_per_s", &c->confirm_bytes_per_s, e) ||
	    sm_jget_uint(k, "headroom_before", &c->headroom_burst, e) ||
	    sm_jget_bool(k, "lowered", &c->lowered, e) ||
	    sm_jget_str(k, "note", c->confirm_note, sizeof(c->confirm_note), e) ||
	    sm_json_read_cliff(cJSON_GetObjectItemCaseSensitive(o, "cliff"), &c->cliff, e))
		return -EINVAL;
	for (c->confirm = SM_CONFIRM_RAN; c->confirm <= SM_CONFIRM_FAILED; c->confirm++)
		if (!strcmp(state, sm_streams_confirm_name(c->confirm)))
			return 0;
	return sm_jerr_set(e, "unknown confirmation state '%s'", state);
	return 0;
}

/* The answer's figures, null in a cell that was not measured. */
static int read_answer(const cJSON *o, struct sm_streams_cell *c, struct sm_jerr *e)
{
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "max_streams")))
		return 0;
	c->measured = 1;
	if (sm_jget_uint(o, "max_streams", &c->max_raw, e) ||
	    sm_jget_uint(o, "max_streams_headroom", &c->max_headroom, e) ||
	    sm_jget_double(o, "aggregate_bytes_per_s", &c->agg_bytes_per_s, e) ||
	    sm_jget_double(o, "sustained_bytes_per_s", &c->sustained_bytes_per_s, e))
		return -EINVAL;
	c->max_high = c->max_raw;
	if (cJSON_GetObjectItemCaseSensitive(o, "trials")) {   /* since the boundary's trials */
		const cJSON *t = sm_jget_obj(o, "trials", e);

		if (!t || sm_jget_uint(o, "max_streams_high", &c->max_high, e) ||
		    sm_jget_uint(t, "held_at_answer", &c->raw_held, e) ||
		    sm_jget_uint(t, "at_answer", &c->raw_trials, e) ||
		    sm_jget_uint(t, "held_at_failed", &c->fail_held, e) ||
		    sm_jget_uint(t, "at_failed", &c->fail_trials, e))
			return -EINVAL;
		if (c->raw_held > c->raw_trials || c->fail_held > c->fail_trials ||
		    c->max_high < c->max_raw)
			return sm_jerr_set(e, "a cell's trials hold more than they ran");
		c->trials_known = 1;
	} else {   /* one step each */
		c->raw_held = c->raw_trials = c->max_raw > 0;
	}
	c->own_raw = c->max_raw;
	if (cJSON_GetObjectItemCaseSensitive(o, "consistency")) {   /* docs/streams.md */
		const cJSON *k = sm_jget_obj(o, "consistency", e);

		if (!k || sm_jget_uint(k, "rechecks", &c->rechecks, e) ||
		    sm_jget_bool(k, "bounded", &c->bounded, e) ||
		    sm_jget_uint(k, "own_max_streams", &c->own_raw, e))
			return -EINVAL;
		if (c->bounded && (sm_jget_str(k, "bound_fps", c->bound_fps, sizeof(c->bound_fps), e) ||
				   sm_jget_uint(k, "bound_streams", &c->bound_n, e)))
			return -EINVAL;
		if (c->bounded ? c->bound_n != c->max_raw || c->own_raw <= c->max_raw
			       : c->own_raw != c->max_raw)
			return sm_jerr_set(e, "a cell's consistency does not match its answer");
	}
	return 0;
}

/* "sequence" or "file" (absent in results from before frame sequences:
 * a file). */
static int read_kind(const cJSON *o, int *sequence, struct sm_jerr *e)
{
	char kind[16];

	*sequence = 0;
	if (!cJSON_GetObjectItemCaseSensitive(o, "kind"))
		return 0;
	if (sm_jget_str(o, "kind", kind, sizeof(kind), e))
		return -EINVAL;
	if (!strcmp(kind, sm_streams_kind_name(1)))
		*sequence = 1;
	else if (strcmp(kind, sm_streams_kind_name(0)))
		return sm_jerr_set(e, "unknown kind '%s'", kind);
	return 0;
}

static int read_dir(const cJSON *o, enum sm_direction *d, struct sm_jerr *e)
{
	char dir[16];

	if (sm_jget_str(o, "direction", dir, sizeof(dir), e))
		return -EINVAL;
	if (!strcmp(dir, sm_direction_name(SM_DIR_CAPTURE)))
		*d = SM_DIR_CAPTURE;
	else if (!strcmp(dir, sm_direction_name(SM_DIR_PLAYBACK)))
		*d = SM_DIR_PLAYBACK;
	else
		return sm_jerr_set(e, "unknown direction '%s'", dir);
	return 0;
}

static int read_cell(const cJSON *o, struct sm_streams_cell *c, unsigned ngroups, struct sm_jerr *e)
{
	const cJSON *a, *x;
	unsigned k = 0;
	int n;

	if (!cJSON_IsObject(o))
		return sm_jerr_set(e, "a 'streams' entry is not an object");
	if (sm_jget_str(o, "format", c->format, sizeof(c->format), e) ||
	    sm_jget_str(o, "codec", c->codec, sizeof(c->codec), e) ||
	    sm_jget_str(o, "fps", c->fps_name, sizeof(c->fps_name), e) ||
	    read_dir(o, &c->dir, e) || read_kind(o, &c->sequence, e) ||
	    sm_jget_double(o, "frame_bytes", &c->frame_bytes, e) ||
	    sm_jget_u64(o, "chunk_bytes", &c->chunk_bytes, e) ||
	    sm_jget_double(o, "rate_bytes_per_s", &c->rate, e) ||
	    sm_jget_u64(o, "interval_ns", &c->interval_ns, e) ||
	    read_answer(o, c, e) ||
	    sm_jget_uint(o, "first_failed", &c->first_fail, e) || sm_jget_bool(o, "at_cap", &c->at_cap, e) ||
	    sm_jget_bool(o, "searched", &c->searched, e) ||
	    sm_jget_str(o, "note", c->note, sizeof(c->note), e) ||
	    read_confirm(o, c, e) ||
	    !(a = sm_jget_arr(o, "steps", e)))
		return -EINVAL;
	c->fps = strtod(c->fps_name, NULL);
	if (!cJSON_GetObjectItemCaseSensitive(o, "trials"))   /* saved before them: one step each */
		c->fail_trials = c->first_fail > 0;
	if (cJSON_GetObjectItemCaseSensitive(o, "beside_mix_bytes_per_s") &&
	    sm_jget_double(o, "beside_mix_bytes_per_s", &c->base_rate, e))
		return -EINVAL;
	/* written since frames move by a byte schedule; before, every frame
	 * was its chunk */
	c->moved_rate = c->interval_ns ? (double)c->chunk_bytes * 1e9 / (double)c->interval_ns : 0;
	if (cJSON_GetObjectItemCaseSensitive(o, "moved_bytes_per_s") &&
	    sm_jget_double(o, "moved_bytes_per_s", &c->moved_rate, e))
		return -EINVAL;
	n = cJSON_GetArraySize(a);
	c->steps = calloc(n ? (unsigned)n : 1, sizeof(*c->steps));
	if (!c->steps)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a) {
		int rc = read_step(x, &c->steps[k], ngroups, e);

		c->nsteps = ++k;   /* what read_step() allocated is released too */
		if (rc)
			return rc;
	}
	/* a result saved before "not measured" wrote 0 for a cell no
	 * complete step judged: it was not measured either (a heavier
	 * format's cap aside) */
	if (c->measured && !c->at_cap) {
		c->measured = 0;
		for (unsigned i = 0; i < c->nsteps; i++)
			c->measured |= c->steps[i].complete;
	}
	return 0;
}

/* A series written by series_json: its bytes into sec[0..n). */
static int read_series(const cJSON *o, uint64_t *sec, unsigned n, struct sm_jerr *e)
{
	const cJSON *s = sm_jget_obj(o, "series", e), *a, *x;
	unsigned i = 0;

	if (!s || !(a = sm_jget_arr(s, "bytes", e)))
		return -EINVAL;
	if ((unsigned)cJSON_GetArraySize(a) != n)
		return sm_jerr_set(e, "a mix series of %d seconds, not %u", cJSON_GetArraySize(a), n);
	cJSON_ArrayForEach(x, a)
		if (sm_json_count(x, &sec[i++]))
			return sm_jerr_set(e, "a mix series holds a value that is not a count");
	return 0;
}

/* The mix (absent without --mix): its groups and, measured, their figures. */
static int read_mix(const cJSON *doc, struct sm_streams_mix *m, struct sm_jerr *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "mix"), *a, *x, *p, *t, *st;
	int n;

	if (!o)
		return 0;
	if (!cJSON_IsObject(o) || sm_jget_str(o, "spec", m->spec, sizeof(m->spec), e) ||
	    sm_jget_uint(o, "streams", &m->nstreams, e) || sm_jget_bool(o, "measured", &m->ran, e) ||
	    sm_jget_bool(o, "held", &m->held, e) || sm_jget_str(o, "note", m->note, sizeof(m->note), e) ||
	    sm_jget_double(o, "needed_bytes_per_s", &m->needed, e) || !(a = sm_jget_arr(o, "groups", e)))
		return -EINVAL;
	n = cJSON_GetArraySize(a);
	if (n < 1 || n > SM_STREAMS_MAX_GROUPS)
		return sm_jerr_set(e, "a mix of %d groups", n);
	m->groups = calloc((size_t)n, sizeof(*m->groups));
	if (!m->groups)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a) {
		struct sm_streams_group *g = &m->groups[m->ngroups++];

		if (!cJSON_IsObject(x) || sm_jget_str(x, "format", g->format, sizeof(g->format), e) ||
		    sm_jget_str(x, "codec", g->codec, sizeof(g->codec), e) || read_kind(x, &g->sequence, e) ||
		    sm_jget_str(x, "fps", g->fps_name, sizeof(g->fps_name), e) || read_dir(x, &g->dir, e) ||
		    sm_jget_uint(x, "streams", &g->count, e) ||
		    sm_jget_double(x, "frame_bytes", &g->frame_bytes, e) ||
		    sm_jget_u64(x, "chunk_bytes", &g->chunk_bytes, e) ||
		    sm_jget_double(x, "rate_bytes_per_s", &g->rate, e) ||
		    sm_jget_double(x, "moved_bytes_per_s", &g->moved_rate, e) ||
		    sm_jget_double(x, "needed_bytes_per_s", &g->needed, e) ||
		    sm_jget_u64(x, "interval_ns", &g->interval_ns, e))
			return -EINVAL;
		g->fps = strtod(g->fps_name, NULL);
	}
	if (!m->ran)
		return 0;
	if (!(t = sm_jget_obj(o, "total", e)) || !(st = sm_jget_obj(o, "step", e)) ||
	    sm_jget_bool(st, "complete", &m->step.complete, e) ||
	    sm_jget_u64(st, "duration_ns", &m->step.duration_ns, e) ||
	    sm_jget_u64(st, "schedule_ns", &m->step.schedule_ns, e) || !(p = sm_jget_arr(st, "per_stream", e)))
		return -EINVAL;
	if (cJSON_GetObjectItemCaseSensitive(st, "cpu_ns") && sm_jget_u64(st, "cpu_ns", &m->step.cpu_ns, e))
		return -EINVAL;   /* (absent in results saved before it was measured) */
	if (sm_json_read_stalls(st, &m->step.stalls, e))
		return -EINVAL;
	if ((unsigned)cJSON_GetArraySize(p) != m->nstreams)
		return sm_jerr_set(e, "the mix's step lists %d of its %u streams", cJSON_GetArraySize(p),
				   m->nstreams);
	m->step.nmix = m->nstreams;
	m->step.mix_streams = calloc(m->nstreams, sizeof(*m->step.mix_streams));
	m->step.mix_groups = calloc(m->ngroups, sizeof(*m->step.mix_groups));
	if (!m->step.mix_streams || !m->step.mix_groups)
		return -ENOMEM;
	n = 0;
	cJSON_ArrayForEach(x, p)
		if (read_stream(x, &m->step.mix_streams[n++], e))
			return -EINVAL;
	/* the mix alone is the step: its figures the step's */
	if (read_group_fig(t, &m->step.mix_total, e))
		return -EINVAL;
	m->step.held = m->step.mix_total.held;
	m->step.bytes = m->step.mix_total.bytes;
	m->step.dropped = m->step.mix_total.dropped;
	m->step.worst_p999_ns = m->step.mix_total.worst_p999_ns;
	m->nsec = (unsigned)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(t, "series"), "bytes"));
	m->sec_bytes = calloc((size_t)(m->ngroups + 1) * (m->nsec ? m->nsec : 1), sizeof(*m->sec_bytes));
	if (!m->sec_bytes)
		return -ENOMEM;
	if (read_series(t, m->sec_bytes + (size_t)m->ngroups * m->nsec, m->nsec, e))
		return -EINVAL;
	n = 0;
	cJSON_ArrayForEach(x, a) {
		if (read_group_fig(x, &m->step.mix_groups[n], e) ||
		    read_series(x, m->sec_bytes + (size_t)n * m->nsec, m->nsec, e))
			return -EINVAL;
		n++;
	}
	return 0;
}

int sm_streams_from_json(const cJSON *doc, struct sm_streams_result *res, struct sm_jerr *e)
{
	const cJSON *p, *a, *x;
	char *dir = NULL;
	int n, rc;

	memset(res, 0, sizeof(*res));
	rc = sm_json_read_head(doc, &res->head, e);
	if (rc)
		return rc;
	if (!(p = sm_jget_obj(doc, "params", e)) || sm_jget_strdup(p, "dir", &dir, e))
		return -EINVAL;
	/* the reader's, from here on, whatever fails next:
	 * sm_streams_from_json_release() frees it */
	res->plan.dir = dir;
	if (sm_jget_u64(p, "time_ns", &res->time_ns, e) || sm_jget_u64(p, "step_ns", &res->step_ns, e) ||
	    sm_jget_uint(p, "max_streams", &res->max_streams, e) ||
	    (cJSON_GetObjectItemCaseSensitive(p, "trials") && sm_jget_uint(p, "trials", &res->trials, e)) ||
	    sm_jget_uint(p, "queue", &res->queue, e) || sm_jget_uint(p, "prebuffer", &res->prebuffer, e) ||
	    sm_jget_uint(p, "depth", &res->depth, e) || !(a = sm_jget_arr(doc, "streams", e)))
		return -EINVAL;
	res->plan.time_ns = res->time_ns;
	res->plan.step_ns = res->step_ns;
	res->plan.max_streams = res->max_streams;
	res->plan.trials = res->trials ? res->trials : 1;   /* 0: saved before the trials */
	res->plan.queue = res->queue;
	res->plan.prebuffer = res->prebuffer;
	res->plan.depth = res->depth;
	rc = read_mix(doc, &res->mix, e);
	if (rc)
		return rc;
	n = cJSON_GetArraySize(a);
	res->cells = calloc(n ? (unsigned)n : 1, sizeof(*res->cells));
	if (!res->cells)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a) {
		rc = read_cell(x, &res->cells[res->ncells], res->mix.ngroups, e);
		res->ncells++;
		if (rc)
			return rc;
	}
	return 0;
}

void sm_streams_from_json_release(struct sm_streams_result *res)
{
	free((char *)res->plan.dir);
	res->plan.dir = NULL;
	sm_streams_result_release(res);
}
