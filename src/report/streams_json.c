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

/* A group's (or the whole mix's) figures in a step, into o. */
static void group_fig_json(cJSON *o, const struct sm_streams_group_fig *g)
{
	cJSON_AddBoolToObject(o, "held", g->held);
	cJSON_AddNumberToObject(o, "streams_held", g->streams_held);
	sm_json_add_u64(o, "scheduled", g->scheduled);
	sm_json_add_u64(o, "done", g->done);
	sm_json_add_u64(o, "dropped", g->dropped);
	sm_json_add_u64(o, "bytes", g->bytes);
	sm_json_add_double(o, "bytes_per_s", g->bytes_per_s);
	sm_json_add_u64(o, "p99_9_sched_ns", g->worst_p999_ns);
	sm_json_add_u64(o, "max_sched_ns", g->max_sched_ns);
}

/* A step's mix: each group's figures, all of them, each stream's. */
static cJSON *step_mix_json(const struct sm_streams_step *s, unsigned ngroups)
{
	cJSON *o = cJSON_CreateObject(), *g = cJSON_CreateArray(), *a = cJSON_CreateArray();

	group_fig_json(o, &s->mix_total);
	for (unsigned k = 0; s->mix_groups && k < ngroups; k++) {
		cJSON *x = cJSON_CreateObject();

		group_fig_json(x, &s->mix_groups[k]);
		cJSON_AddItemToArray(g, x);
	}
	cJSON_AddItemToObject(o, "groups", g);
	for (unsigned i = 0; i < s->nmix; i++)
		cJSON_AddItemToArray(a, stream_json(&s->mix_streams[i]));
	cJSON_AddItemToObject(o, "per_stream", a);
	return o;
}

static cJSON *step_json(const struct sm_streams_step *s, unsigned ngroups)
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
	if (s->cpu_ns)   /* the tool's own CPU in the step (absent when not measured) */
		sm_json_add_u64(o, "cpu_ns", s->cpu_ns);
	sm_json_add_stalls(o, &s->stalls);
	for (unsigned i = 0; i < s->n; i++)
		cJSON_AddItemToArray(a, stream_json(&s->streams[i]));
	cJSON_AddItemToObject(o, "per_stream", a);
	if (s->nmix)
		cJSON_AddItemToObject(o, "mix", step_mix_json(s, ngroups));
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

static cJSON *cell_json(const struct sm_streams_cell *c, const struct sm_streams_mix *mix)
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
	if (mix->ngroups)
		sm_json_add_double(o, "beside_mix_bytes_per_s", c->base_rate);
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
	if (c->measured && c->trials_known) {   /* the boundary's trials (docs/streams.md) */
		cJSON *t = cJSON_AddObjectToObject(o, "trials");

		cJSON_AddNumberToObject(o, "max_streams_high", c->max_high);
		sm_json_add_u64(t, "held_at_answer", c->raw_held);
		sm_json_add_u64(t, "at_answer", c->raw_trials);
		sm_json_add_u64(t, "held_at_failed", c->fail_held);
		sm_json_add_u64(t, "at_failed", c->fail_trials);
	}
	if (c->measured && (c->bounded || c->rechecks)) {   /* docs/streams.md, "Consistent answers" */
		cJSON *k = cJSON_AddObjectToObject(o, "consistency");

		sm_json_add_u64(k, "rechecks", c->rechecks);
		cJSON_AddBoolToObject(k, "bounded", c->bounded);
		cJSON_AddNumberToObject(k, "own_max_streams", c->own_raw);
		if (c->bounded) {
			cJSON_AddStringToObject(k, "bound_fps", c->bound_fps);
			cJSON_AddNumberToObject(k, "bound_streams", c->bound_n);
		}
	}
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
		cJSON_AddItemToArray(a, step_json(&c->steps[k], mix->ngroups));
	cJSON_AddItemToObject(o, "steps", a);
	return o;
}

/* Bytes per whole second from the common start. */
static cJSON *series_json(const uint64_t *sec, unsigned n)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

	sm_json_add_u64(o, "interval_ns", 1000000000ull);
	for (unsigned i = 0; sec && i < n; i++)
		cJSON_AddItemToArray(a, sm_json_u64(sec[i]));
	cJSON_AddItemToObject(o, "bytes", a);
	return o;
}

/* The mix: its groups as planned and, measured, as they ran alone. */
static cJSON *mix_json(const struct sm_streams_mix *m)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray(), *t;

	cJSON_AddStringToObject(o, "spec", m->spec);
	cJSON_AddNumberToObject(o, "streams", m->nstreams);
	cJSON_AddBoolToObject(o, "measured", m->ran);
	cJSON_AddBoolToObject(o, "held", m->held);
	cJSON_AddStringToObject(o, "note", m->note);
	for (unsigned k = 0; k < m->ngroups; k++) {
		const struct sm_streams_group *g = &m->groups[k];
		cJSON *x = cJSON_CreateObject();
		char name[96];

		sm_streams_group_name(g, name, sizeof(name));
		cJSON_AddStringToObject(x, "group", name);
		cJSON_AddStringToObject(x, "format", g->format);
		cJSON_AddStringToObject(x, "codec", g->codec);
		cJSON_AddStringToObject(x, "kind", sm_streams_kind_name(g->sequence));
		cJSON_AddStringToObject(x, "fps", g->fps_name);
		cJSON_AddStringToObject(x, "direction", sm_direction_name(g->dir));
		cJSON_AddNumberToObject(x, "streams", g->count);
		sm_json_add_double(x, "frame_bytes", g->frame_bytes);
		sm_json_add_u64(x, "chunk_bytes", g->chunk_bytes);
		sm_json_add_double(x, "rate_bytes_per_s", g->rate);
		sm_json_add_double(x, "moved_bytes_per_s", g->moved_rate);
		sm_json_add_double(x, "needed_bytes_per_s", g->needed);
		sm_json_add_u64(x, "interval_ns", g->interval_ns);
		if (m->ran && m->step.mix_groups) {
			group_fig_json(x, &m->step.mix_groups[k]);
			cJSON_AddItemToObject(x, "series", series_json(m->sec_bytes + (size_t)k * m->nsec, m->nsec));
		}
		cJSON_AddItemToArray(a, x);
	}
	cJSON_AddItemToObject(o, "groups", a);
	sm_json_add_double(o, "needed_bytes_per_s", m->needed);
	if (m->ran) {
		t = cJSON_CreateObject();
		group_fig_json(t, &m->step.mix_total);
		cJSON_AddItemToObject(t, "series", series_json(m->sec_bytes + (size_t)m->ngroups * m->nsec,
							       m->nsec));
		cJSON_AddItemToObject(o, "total", t);
		/* the step itself: its span and each stream (the figures of the
		 * groups and of all are the ones above) */
		t = cJSON_CreateObject();
		cJSON_AddBoolToObject(t, "complete", m->step.complete);
		sm_json_add_u64(t, "duration_ns", m->step.duration_ns);
		sm_json_add_u64(t, "schedule_ns", m->step.schedule_ns);
		if (m->step.cpu_ns)   /* the tool's own CPU in the step */
			sm_json_add_u64(t, "cpu_ns", m->step.cpu_ns);
		sm_json_add_stalls(t, &m->step.stalls);
		a = cJSON_CreateArray();
		for (unsigned i = 0; i < m->step.nmix; i++)
			cJSON_AddItemToArray(a, stream_json(&m->step.mix_streams[i]));
		cJSON_AddItemToObject(t, "per_stream", a);
		cJSON_AddItemToObject(o, "step", t);
	}
	return o;
}

void sm_json_streams(cJSON *doc, const struct sm_streams_result *res)
{
	cJSON *p = cJSON_CreateObject(), *a = cJSON_CreateArray();

	cJSON_AddStringToObject(p, "dir", res->plan.dir ? res->plan.dir : "");
	sm_json_add_u64(p, "time_ns", res->time_ns);
	sm_json_add_u64(p, "step_ns", res->step_ns);
	cJSON_AddNumberToObject(p, "max_streams", res->max_streams);
	if (res->trials)   /* absent in a result saved before the trials */
		cJSON_AddNumberToObject(p, "trials", res->trials);
	cJSON_AddNumberToObject(p, "queue", res->queue);
	cJSON_AddNumberToObject(p, "prebuffer", res->prebuffer);
	cJSON_AddNumberToObject(p, "depth", res->depth);
	cJSON_AddNumberToObject(p, "headroom_pct", SM_VERDICT_HEADROOM_PCT);
	cJSON_AddItemToObject(doc, "params", p);
	for (unsigned i = 0; i < res->ncells; i++)
		cJSON_AddItemToArray(a, cell_json(&res->cells[i], &res->mix));
	cJSON_AddItemToObject(doc, "streams", a);
	if (res->mix.ngroups)
		cJSON_AddItemToObject(doc, "mix", mix_json(&res->mix));
	sm_json_doc_finish(doc, &res->head);
}
