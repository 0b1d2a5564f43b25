/* SPDX-License-Identifier: MIT */
/* `stormark streams` JSON body: params and the "streams" cells with every
 * step and each stream's figures (docs/json-schema.md). */
#include "report/streams.h"
#include "analysis/verdict.h"
#include "result/json.h"

static cJSON *stream_json(const struct sm_stream_fig *s)
{
	cJSON *o = cJSON_CreateObject();

	sm_json_add_u64(o, "scheduled", s->scheduled);
	sm_json_add_u64(o, "done", s->done);
	sm_json_add_u64(o, "dropped", s->dropped);
	sm_json_add_u64(o, "longest_drop_run", s->longest_run);
	sm_json_add_u64(o, "bytes", s->bytes);
	sm_json_add_u64(o, "p99_9_sched_ns", s->p999_sched_ns);
	sm_json_add_u64(o, "max_sched_ns", s->max_sched_ns);
	sm_json_add_u64(o, "max_queue", s->max_queue);
	sm_json_add_u64(o, "startup_ns", s->startup_ns);
	cJSON_AddNumberToObject(o, "error", s->error);
	return o;
}

static cJSON *step_json(const struct sm_streams_step *s)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

	cJSON_AddNumberToObject(o, "streams", s->n);
	cJSON_AddBoolToObject(o, "held", s->held);
	cJSON_AddBoolToObject(o, "complete", s->complete);
	sm_json_add_u64(o, "duration_ns", s->duration_ns);
	sm_json_add_u64(o, "schedule_ns", s->schedule_ns);
	sm_json_add_u64(o, "bytes", s->bytes);
	sm_json_add_double(o, "bytes_per_s", s->bytes_per_s);
	sm_json_add_double(o, "delivered_bytes_per_s", s->delivered_bytes_per_s);
	sm_json_add_u64(o, "dropped", s->dropped);
	sm_json_add_u64(o, "worst_p99_9_sched_ns", s->worst_p999_ns);
	for (unsigned i = 0; i < s->n; i++)
		cJSON_AddItemToArray(a, stream_json(&s->streams[i]));
	cJSON_AddItemToObject(o, "per_stream", a);
	return o;
}

/* Capture: the sustained confirmation and its cliff (absent when none ran
 * and none was due: playback, no answer). */
static void confirm_json(cJSON *o, const struct sm_streams_cell *c)
{
	cJSON *k;

	if (c->confirm == SM_CONFIRM_NONE)
		return;
	k = cJSON_CreateObject();
	cJSON_AddStringToObject(k, "state", sm_streams_confirm_name(c->confirm));
	cJSON_AddNumberToObject(k, "streams", c->confirm_n);
	sm_json_add_u64(k, "duration_ns", c->confirm_ns);
	cJSON_AddBoolToObject(k, "held", c->confirm_held);
	sm_json_add_u64(k, "dropped", c->confirm_dropped);
	sm_json_add_double(k, "delivered_bytes_per_s", c->confirm_bytes_per_s);
	cJSON_AddNumberToObject(k, "headroom_before", c->headroom_burst);
	cJSON_AddBoolToObject(k, "lowered", c->lowered);
	cJSON_AddStringToObject(k, "note", c->confirm_note);
	cJSON_AddItemToObject(o, "confirmation", k);
	cJSON_AddItemToObject(o, "cliff", sm_json_cliff(&c->cliff));
}

static cJSON *cell_json(const struct sm_streams_cell *c)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "format", c->format);
	cJSON_AddStringToObject(o, "codec", c->codec);
	cJSON_AddStringToObject(o, "kind", sm_streams_kind_name(c->sequence));
	cJSON_AddStringToObject(o, "fps", c->fps_name);
	cJSON_AddStringToObject(o, "direction", sm_direction_name(c->dir));
	sm_json_add_double(o, "frame_bytes", c->frame_bytes);
	sm_json_add_u64(o, "chunk_bytes", c->chunk_bytes);
	sm_json_add_double(o, "rate_bytes_per_s", c->rate);
	sm_json_add_double(o, "moved_bytes_per_s", c->moved_rate);
	sm_json_add_u64(o, "interval_ns", c->interval_ns);
	/* a cell not measured has no answer: null, its reason beside it */
	if (c->measured) {
		cJSON_AddNumberToObject(o, "max_streams", c->max_raw);
		cJSON_AddNumberToObject(o, "max_streams_headroom", c->max_headroom);
	} else {
		cJSON_AddNullToObject(o, "max_streams");
		cJSON_AddNullToObject(o, "max_streams_headroom");
		cJSON_AddStringToObject(o, "not_measured", c->note);
	}
	cJSON_AddNumberToObject(o, "first_failed", c->first_fail);
	cJSON_AddBoolToObject(o, "at_cap", c->at_cap);
	cJSON_AddBoolToObject(o, "searched", c->searched);
	cJSON_AddStringToObject(o, "note", c->note);
	if (c->measured) {
		sm_json_add_double(o, "aggregate_bytes_per_s", c->agg_bytes_per_s);
		sm_json_add_double(o, "sustained_bytes_per_s", c->sustained_bytes_per_s);
	} else {
		cJSON_AddNullToObject(o, "aggregate_bytes_per_s");
		cJSON_AddNullToObject(o, "sustained_bytes_per_s");
	}
	confirm_json(o, c);
	for (unsigned k = 0; k < c->nsteps; k++)
		cJSON_AddItemToArray(a, step_json(&c->steps[k]));
	cJSON_AddItemToObject(o, "steps", a);
	return o;
}

void sm_json_streams(cJSON *doc, const struct sm_streams_result *res)
{
	cJSON *p = cJSON_CreateObject(), *a = cJSON_CreateArray();

	cJSON_AddStringToObject(p, "dir", res->plan.dir ? res->plan.dir : "");
	sm_json_add_u64(p, "time_ns", res->time_ns);
	sm_json_add_u64(p, "step_ns", res->step_ns);
	cJSON_AddNumberToObject(p, "max_streams", res->max_streams);
	cJSON_AddNumberToObject(p, "queue", res->queue);
	cJSON_AddNumberToObject(p, "prebuffer", res->prebuffer);
	cJSON_AddNumberToObject(p, "depth", res->depth);
	cJSON_AddNumberToObject(p, "headroom_pct", SM_VERDICT_HEADROOM_PCT);
	cJSON_AddItemToObject(doc, "params", p);
	for (unsigned i = 0; i < res->ncells; i++)
		cJSON_AddItemToArray(a, cell_json(&res->cells[i]));
	cJSON_AddItemToObject(doc, "streams", a);
	sm_json_doc_finish(doc, &res->head);
}
