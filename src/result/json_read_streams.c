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

static int read_step(const cJSON *o, struct sm_streams_step *s, struct sm_jerr *e)
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
	if (s->n > SM_STREAMS_MAX || (unsigned)cJSON_GetArraySize(a) != s->n)
		return sm_jerr_set(e, "a step of %u streams lists %d of them", s->n, cJSON_GetArraySize(a));
	s->streams = calloc(s->n ? s->n : 1, sizeof(*s->streams));
	if (!s->streams)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a)
		if (read_stream(x, &s->streams[k++], e))
			return -EINVAL;
	return 0;
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
	return sm_jget_uint(o, "max_streams", &c->max_raw, e) ||
	       sm_jget_uint(o, "max_streams_headroom", &c->max_headroom, e) ||
	       sm_jget_double(o, "aggregate_bytes_per_s", &c->agg_bytes_per_s, e) ||
	       sm_jget_double(o, "sustained_bytes_per_s", &c->sustained_bytes_per_s, e) ? -EINVAL : 0;
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

static int read_cell(const cJSON *o, struct sm_streams_cell *c, struct sm_jerr *e)
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
		int rc = read_step(x, &c->steps[k], e);

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
	    sm_jget_uint(p, "queue", &res->queue, e) || sm_jget_uint(p, "prebuffer", &res->prebuffer, e) ||
	    sm_jget_uint(p, "depth", &res->depth, e) || !(a = sm_jget_arr(doc, "streams", e)))
		return -EINVAL;
	res->plan.time_ns = res->time_ns;
	res->plan.step_ns = res->step_ns;
	res->plan.max_streams = res->max_streams;
	res->plan.queue = res->queue;
	res->plan.prebuffer = res->prebuffer;
	res->plan.depth = res->depth;
	n = cJSON_GetArraySize(a);
	res->cells = calloc(n ? (unsigned)n : 1, sizeof(*res->cells));
	if (!res->cells)
		return -ENOMEM;
	cJSON_ArrayForEach(x, a) {
		rc = read_cell(x, &res->cells[res->ncells], e);
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
