/* SPDX-License-Identifier: MIT */
/* `stormark run` as JSON: the shared parts plus everything under "run"
 * (layout in docs/run.md). */
#include "report/run_text.h"
#include "report/steady.h"
#include "analysis/verdict.h"
#include "result/json.h"

static cJSON *blockio_json(const struct sm_blockio_result *r, const struct sm_run_classic_fig *fig,
			   const struct sm_steady *st)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "engine", r->engine);
	sm_json_add_double(o, "depth", r->depth);
	sm_json_add_u64(o, "duration_ns", r->duration_ns);
	sm_json_add_double(o, "bytes_per_s", fig->bytes_per_s);
	sm_json_add_double(o, "iops", fig->iops);
	cJSON_AddItemToObject(o, "op", sm_json_opstat(&r->op, 1));
	sm_json_add_stalls(o, &r->stalls);
	if (st->on)   /* --steady: the figures above are the window's */
		cJSON_AddItemToObject(o, "steady", sm_steady_json(st));
	return o;
}

static cJSON *frametest_json(const struct sm_run_frametest *t, int write)
{
	cJSON *o = cJSON_CreateObject(), *lat;

	sm_json_add_u64(o, "frames", t->frames);
	sm_json_add_u64(o, "bytes", t->bytes);
	sm_json_add_u64(o, "duration_ns", t->duration_ns);
	sm_json_add_double(o, "fps", t->fps);
	sm_json_add_double(o, "bytes_per_s", t->bytes_per_s);
	cJSON_AddBoolToObject(o, "direct_io", t->direct);
	lat = cJSON_AddObjectToObject(o, "frame_ns");
	sm_json_add_u64(lat, "p50", t->p50_ns);
	sm_json_add_u64(lat, "p99", t->p99_ns);
	sm_json_add_u64(lat, "p99_9", t->p999_ns);
	sm_json_add_u64(lat, "max", t->max_ns);
	if (write)
		cJSON_AddItemToObject(o, "cliff", sm_json_cliff(&t->cliff));
	sm_json_add_stalls(o, &t->stalls);
	if (t->nseries)   /* none in a result read from a JSON saved before it was kept */
		cJSON_AddItemToObject(o, "series", sm_json_frames_series(t->series, t->nseries));
	return o;
}

static cJSON *cell_json(const struct sm_verdict_cell *c, const struct sm_fps *rate)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "fps", rate->name);
	sm_json_add_double(o, "fps_value", sm_fps_value(rate));
	sm_json_add_double(o, "needed_bytes_per_s", c->needed);
	sm_json_add_double(o, "measured_bytes_per_s", c->measured);
	sm_json_add_double(o, "ratio", c->ratio);
	cJSON_AddStringToObject(o, "verdict", sm_verdict_name(c->final));
	cJSON_AddStringToObject(o, "computed", sm_verdict_name(c->computed));
	cJSON_AddStringToObject(o, "how", sm_verdict_how_name(c->how));
	cJSON_AddBoolToObject(o, "near_limit", c->near_limit);
	sm_json_add_double(o, "burst_measured_bytes_per_s", c->burst_measured);
	cJSON_AddBoolToObject(o, "cliff", c->cliff);
	if (c->basis_known) {   /* what the computed verdict lacks (docs/run.md) */
		cJSON *b = cJSON_AddArrayToObject(o, "basis");

		for (unsigned bit = 1; bit <= SM_BASIS_ALL; bit <<= 1)
			if (c->basis & bit)
				cJSON_AddItemToArray(b, cJSON_CreateString(sm_verdict_basis_name(bit)));
		sm_json_add_double(o, "worst_measured_bytes_per_s", c->worst_measured);
		sm_json_add_u64(o, "buffer_ns", c->buffer_ns);
		sm_json_add_u64(o, "stall_ns", c->stall_ns);
	}
	if (sm_verdict_cell_outcome(c) >= 0) {
		cJSON *p = cJSON_AddObjectToObject(o, "paced");

		cJSON_AddStringToObject(p, "outcome", sm_paced_outcome_name(
			(enum sm_verdict)sm_verdict_cell_outcome(c)));
		sm_json_add_u64(p, "length_ns", c->paced.length_ns);
		sm_json_add_u64(p, "scheduled", c->paced.scheduled);
		sm_json_add_u64(p, "done", c->paced.done);
		sm_json_add_u64(p, "dropped", c->paced.dropped);
		sm_json_add_u64(p, "p99_9_sched_ns", c->paced.p999_sched_ns);
		sm_json_add_u64(p, "max_sched_ns", c->paced.max_sched_ns);
		sm_json_add_u64(p, "interval_ns", c->paced.interval_ns);
		sm_json_add_double(p, "queue", c->paced.queue);
	}
	return o;
}

static cJSON *params_json(const struct sm_run_result *res)
{
	const struct sm_run_plan *p = &res->plan;
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "dir", p->dir);
	sm_json_add_u64(o, "time_ns", p->time_ns);
	cJSON_AddStringToObject(o, "engine", p->engine ? p->engine : "default");
	sm_json_add_double(o, "threads", p->threads);
	sm_json_add_double(o, "queue", p->queue);
	sm_json_add_double(o, "prebuffer", p->prebuffer);
	cJSON_AddBoolToObject(o, "confirm", p->confirm);
	cJSON_AddBoolToObject(o, "keep", p->keep);
	cJSON_AddBoolToObject(o, "direct", res->direct_align > 0);
	sm_json_add_u64(o, "block_file_bytes", res->file_bytes);
	sm_json_add_u64(o, "block_file_planned_bytes", res->file_bytes_planned);
	sm_json_add_u64(o, "frames_bytes_per_size", res->frames_bytes);
	sm_json_add_u64(o, "block_test_ns", res->classic_ns);
	sm_json_add_u64(o, "frame_test_ns", res->frame_ns);
	sm_json_add_u64(o, "paced_run_ns", res->paced_ns);
	sm_json_add_u64(o, "sustained_write_ns", res->sustain_ns);
	a = cJSON_AddArrayToObject(o, "formats");
	for (unsigned i = 0; i < res->nrows; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(res->rows[i].fmt.name));
	a = cJSON_AddArrayToObject(o, "fps");
	for (unsigned k = 0; k < p->nrates; k++)
		cJSON_AddItemToArray(a, cJSON_CreateString(p->rates[k]->name));
	if (p->steady) {   /* only then: results saved before --steady read back as written */
		cJSON_AddBoolToObject(o, "steady", 1);
		sm_json_add_u64(o, "steady_round_ns", p->steady_round_ns);
		sm_json_add_double(o, "steady_rounds", p->steady_rounds);
	}
	if (p->precondition)
		cJSON_AddBoolToObject(o, "precondition", 1);
	return o;
}

void sm_json_run(cJSON *doc, const struct sm_run_result *res)
{
	cJSON *run, *a;
	char summary[2048];

	cJSON_AddItemToObject(doc, "params", params_json(res));

	if (res->precond.on)
		cJSON_AddItemToObject(doc, "precondition", sm_precond_json(&res->precond));
	run = cJSON_AddObjectToObject(doc, "run");
	cJSON_AddStringToObject(run, "phase_reached", sm_run_phase_name((enum sm_run_phase)res->reached));
	cJSON_AddStringToObject(run, "test_dir", res->data_dir);
	sm_json_add_double(run, "direct_io_alignment",
				res->direct_align > 0 ? res->direct_align : 0);
	sm_json_add_double(run, "direct_io_errno",
				res->direct_align > 0 ? 0 : -res->direct_align);
	cJSON_AddStringToObject(run, "block_engine", res->block_engine);
	cJSON_AddStringToObject(run, "frames_engine", res->frames_engine);
	cJSON_AddStringToObject(run, "engine_notice", res->notice);
	a = cJSON_AddArrayToObject(run, "classic");
	for (unsigned i = 0; i < SM_RUN_NCLASSIC; i++) {
		const struct sm_run_classic *c = &res->classic[i];
		cJSON *o;

		if (!c->label[0])
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "test", c->label);
		sm_json_add_u64(o, "block_bytes", c->block);
		sm_json_add_double(o, "depth", c->depth);
		cJSON_AddStringToObject(o, "pattern", c->random ? "random" : "sequential");
		if (c->measured[0])
			cJSON_AddItemToObject(o, "read", blockio_json(&c->res[0], &c->fig[0], &c->steady[0]));
		if (c->measured[1])
			cJSON_AddItemToObject(o, "write", blockio_json(&c->res[1], &c->fig[1], &c->steady[1]));
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(run, "frames");
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		const struct sm_run_size *s = &res->sizes[i];
		cJSON *o;

		if (!s->preset[0])
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "preset", s->preset);
		sm_json_add_u64(o, "frame_bytes", s->frame_bytes);
		sm_json_add_double(o, "threads", res->plan.threads);
		if (s->t[SM_DIR_CAPTURE].measured)
			cJSON_AddItemToObject(o, "write", frametest_json(&s->t[SM_DIR_CAPTURE], 1));
		if (s->t[SM_DIR_PLAYBACK].measured)
			cJSON_AddItemToObject(o, "read", frametest_json(&s->t[SM_DIR_PLAYBACK], 0));
		cJSON_AddItemToArray(a, o);
	}
	if (res->meta.measured) {
		const struct sm_run_meta *m = &res->meta;
		cJSON *o = cJSON_AddObjectToObject(run, "meta");

		sm_json_add_u64(o, "files", m->files);
		sm_json_add_u64(o, "size_bytes", m->size_bytes);
		sm_json_add_double(o, "create_per_s", m->create_per_s);
		sm_json_add_double(o, "stat_per_s", m->stat_per_s);
		sm_json_add_double(o, "probe_per_s", m->probe_per_s);
		sm_json_add_double(o, "list_per_s", m->list_per_s);
		sm_json_add_double(o, "delete_per_s", m->delete_per_s);
		sm_json_add_u64(o, "sequence_frames", m->seq_frames);
		sm_json_add_double(o, "sequence_list_ns", m->seq_list_ns);
		sm_json_add_double(o, "sequence_probe_ns", m->seq_probe_ns);
		if (m->caches)   /* docs/meta.md: dropped (root) or warm */
			cJSON_AddStringToObject(o, "caches", sm_meta_caches_name(m->caches));
		if (m->ranks) {   /* an MPI job: the slowest rank's line */
			sm_json_add_u64(o, "rank", m->rank);
			sm_json_add_u64(o, "ranks", m->ranks);
		}
	}
	a = cJSON_AddArrayToObject(run, "verdicts");
	if (res->reached >= SM_PHASE_VERDICTS) {
		for (unsigned r = 0; r < res->nrows; r++) {
			const struct sm_run_row *row = &res->rows[r];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "format", row->fmt.name);
			cJSON_AddStringToObject(o, "family", row->fmt.family->name);
			sm_json_add_double(o, "width", row->fmt.width);
			sm_json_add_double(o, "height", row->fmt.height);
			sm_json_add_u64(o, "frame_bytes", row->fmt.frame_bytes);
			for (int d = 0; d < 2; d++) {
				cJSON *cells = cJSON_AddArrayToObject(
					o, sm_direction_name((enum sm_direction)d));

				for (unsigned k = 0; k < res->plan.nrates; k++)
					cJSON_AddItemToArray(cells, cell_json(&row->cell[d][k],
									      res->plan.rates[k]));
			}
			cJSON_AddItemToArray(a, o);
		}
	}
	sm_json_add_u64(run, "paced_runs", res->paced_runs);
	if (res->mpi_ranks)   /* only then: a run alone reads back as written */
		sm_json_add_u64(run, "mpi_ranks", res->mpi_ranks);
	sm_json_add_u64(run, "near_limit_unconfirmed", res->near_unconfirmed);
	sm_run_summary(res, summary, sizeof(summary));
	cJSON_AddStringToObject(run, "summary", summary);

	sm_json_doc_finish(doc, &res->head);
}
