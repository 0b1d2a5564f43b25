/* SPDX-License-Identifier: MIT */
/* Reading a saved `stormark run` result back (the document of
 * sm_json_run()). */
#include "result/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A classic test's result and its figures as stored (never computed again). */
static int read_blockio(const cJSON *o, struct sm_blockio_result *r,
			struct sm_run_classic_fig *fig, struct sm_steady *st, struct sm_jerr *e)
{
	const cJSON *op = sm_jget_obj(o, "op", e);
	struct sm_precond none;
	int rc = 0;

	if (sm_json_read_steady(o, st, &none, e))   /* "steady" under the test, if any */
		return -EINVAL;

	memset(r, 0, sizeof(*r));
	memset(fig, 0, sizeof(*fig));
	rc |= sm_jget_str(o, "engine", r->engine, sizeof(r->engine), e);
	rc |= sm_jget_uint(o, "depth", &r->depth, e);
	rc |= sm_jget_u64(o, "duration_ns", &r->duration_ns, e);
	rc |= sm_jget_double(o, "bytes_per_s", &fig->bytes_per_s, e);
	rc |= sm_jget_double(o, "iops", &fig->iops, e);
	if (rc || sm_json_read_opstat(op, &r->op, e))
		return -EINVAL;
	if (sm_jget_u64(sm_jget_obj(op, "lat_ns", e), "p99", &fig->p99_ns, e))
		return -EINVAL;
	if (sm_json_read_stalls(o, &r->stalls, e))
		return -EINVAL;
	fig->valid = r->op.lat.count > 0;
	return 0;
}

static int read_frametest(const cJSON *o, struct sm_run_frametest *t, struct sm_jerr *e)
{
	const cJSON *lat = sm_jget_obj(o, "frame_ns", e);
	int rc = 0;

	memset(t, 0, sizeof(*t));
	t->measured = 1;
	rc |= sm_jget_u64(o, "frames", &t->frames, e);
	rc |= sm_jget_u64(o, "bytes", &t->bytes, e);
	rc |= sm_jget_u64(o, "duration_ns", &t->duration_ns, e);
	rc |= sm_jget_double(o, "fps", &t->fps, e);
	rc |= sm_jget_double(o, "bytes_per_s", &t->bytes_per_s, e);
	rc |= sm_jget_bool(o, "direct_io", &t->direct, e);
	rc |= sm_jget_u64(lat, "p50", &t->p50_ns, e);
	rc |= sm_jget_u64(lat, "p99", &t->p99_ns, e);
	rc |= sm_jget_u64(lat, "p99_9", &t->p999_ns, e);
	rc |= sm_jget_u64(lat, "max", &t->max_ns, e);
	if (!rc && cJSON_GetObjectItemCaseSensitive(o, "cliff"))   /* write tests */
		rc |= sm_json_read_cliff(cJSON_GetObjectItemCaseSensitive(o, "cliff"), &t->cliff, e);
	if (rc || sm_json_read_stalls(o, &t->stalls, e))
		return -EINVAL;
	/* kept since the HTML rate chart (docs/run.md); older results have none */
	if (cJSON_GetObjectItemCaseSensitive(o, "series"))
		return sm_json_read_frames_series(cJSON_GetObjectItemCaseSensitive(o, "series"),
						  &t->series, &t->nseries, e);
	return 0;
}

/* An enum member written by name: its index in names[n], or -1 with e set. */
static int by_name(const cJSON *o, const char *key, const char *(*name)(int), int n,
		   struct sm_jerr *e)
{
	char buf[32];

	if (sm_jget_str(o, key, buf, sizeof(buf), e))
		return -1;
	for (int i = 0; i < n; i++)
		if (!strcmp(name(i), buf))
			return i;
	sm_jerr_set(e, "'%s' has an unknown value '%s'", key, buf);
	return -1;
}

static const char *verdict_name(int v) { return sm_verdict_name((enum sm_verdict)v); }
static const char *how_name(int v) { return sm_verdict_how_name((enum sm_verdict_how)v); }
static const char *phase_name(int v) { return sm_run_phase_name((enum sm_run_phase)v); }

static int read_cell(const cJSON *o, struct sm_verdict_cell *c, int *basis_seen, struct sm_jerr *e)
{
	int rc = 0, v;

	memset(c, 0, sizeof(*c));
	rc |= sm_jget_double(o, "needed_bytes_per_s", &c->needed, e);
	rc |= sm_jget_double(o, "measured_bytes_per_s", &c->measured, e);
	rc |= sm_jget_double(o, "ratio", &c->ratio, e);
	rc |= sm_jget_bool(o, "near_limit", &c->near_limit, e);
	c->burst_measured = c->measured;
	/* written since the cliff (docs/run.md); older results have neither */
	if (cJSON_GetObjectItemCaseSensitive(o, "cliff")) {
		rc |= sm_jget_bool(o, "cliff", &c->cliff, e);
		rc |= sm_jget_double(o, "burst_measured_bytes_per_s", &c->burst_measured, e);
	}
	/* written since verdicts rest on sustained data (docs/run.md) */
	if (cJSON_GetObjectItemCaseSensitive(o, "basis")) {
		const cJSON *b;

		c->basis_known = 1;
		*basis_seen = 1;
		cJSON_ArrayForEach(b, sm_jget_arr(o, "basis", e)) {
			unsigned bit;

			for (bit = 1; bit <= SM_BASIS_ALL; bit <<= 1)
				if (cJSON_IsString(b) && !strcmp(b->valuestring, sm_verdict_basis_name(bit)))
					break;
			if (bit > SM_BASIS_ALL)
				return sm_jerr_set(e, "'basis' holds an unknown value");
			c->basis |= bit;
		}
		rc |= sm_jget_double(o, "worst_measured_bytes_per_s", &c->worst_measured, e);
		rc |= sm_jget_u64(o, "buffer_ns", &c->buffer_ns, e);
		rc |= sm_jget_u64(o, "stall_ns", &c->stall_ns, e);
	}
	if ((v = by_name(o, "verdict", verdict_name, SM_VERDICT_COUNT, e)) < 0)
		return -EINVAL;
	c->final = (enum sm_verdict)v;
	if ((v = by_name(o, "computed", verdict_name, SM_VERDICT_COUNT, e)) < 0)
		return -EINVAL;
	c->computed = (enum sm_verdict)v;
	if ((v = by_name(o, "how", how_name, 2, e)) < 0)
		return -EINVAL;
	c->how = (enum sm_verdict_how)v;
	/* a paced run's figures: with how = computed too, since a run that
	 * held a cell below the need no longer decides it (docs/run.md); the
	 * outcome is theirs (sm_verdict_paced), so it is not read back */
	if (c->how == SM_HOW_PACED || cJSON_GetObjectItemCaseSensitive(o, "paced")) {
		const cJSON *p = sm_jget_obj(o, "paced", e);

		rc |= sm_jget_u64(p, "scheduled", &c->paced.scheduled, e);
		rc |= sm_jget_u64(p, "done", &c->paced.done, e);
		rc |= sm_jget_u64(p, "dropped", &c->paced.dropped, e);
		rc |= sm_jget_u64(p, "p99_9_sched_ns", &c->paced.p999_sched_ns, e);
		rc |= sm_jget_u64(p, "max_sched_ns", &c->paced.max_sched_ns, e);
		rc |= sm_jget_u64(p, "interval_ns", &c->paced.interval_ns, e);
		rc |= sm_jget_uint(p, "queue", &c->paced.queue, e);
		/* written since the note under the table gives it; an older
		 * result has what it is made of */
		c->paced.length_ns = c->paced.scheduled * c->paced.interval_ns;
		if (p && cJSON_GetObjectItemCaseSensitive(p, "length_ns"))
			rc |= sm_jget_u64(p, "length_ns", &c->paced.length_ns, e);
		c->paced.complete = 1;
	}
	return rc ? -EINVAL : 0;
}

static int read_params(const cJSON *p, struct sm_run_result *res, struct sm_jerr *e)
{
	struct sm_run_plan *plan = &res->plan;
	const cJSON *fmts = sm_jget_arr(p, "formats", e), *fps = sm_jget_arr(p, "fps", e), *it;
	struct sm_format *f;
	char *dir, *engine;
	int rc = 0;

	rc |= sm_jget_strdup(p, "dir", &dir, e);
	plan->dir = dir;
	rc |= sm_jget_strdup(p, "engine", &engine, e);
	if (engine && !strcmp(engine, "default")) {
		free(engine);
		engine = NULL;
	}
	plan->engine = engine;
	rc |= sm_jget_u64(p, "time_ns", &plan->time_ns, e);
	rc |= sm_jget_uint(p, "threads", &plan->threads, e);
	rc |= sm_jget_uint(p, "queue", &plan->queue, e);
	rc |= sm_jget_uint(p, "prebuffer", &plan->prebuffer, e);
	rc |= sm_jget_bool(p, "confirm", &plan->confirm, e);
	rc |= sm_jget_bool(p, "keep", &plan->keep, e);
	rc |= sm_jget_u64(p, "block_file_bytes", &res->file_bytes, e);
	rc |= sm_jget_u64(p, "block_file_planned_bytes", &res->file_bytes_planned, e);
	rc |= sm_jget_u64(p, "frames_bytes_per_size", &res->frames_bytes, e);
	rc |= sm_jget_u64(p, "block_test_ns", &res->classic_ns, e);
	rc |= sm_jget_u64(p, "frame_test_ns", &res->frame_ns, e);
	rc |= sm_jget_u64(p, "paced_run_ns", &res->paced_ns, e);
	res->sustain_ns = res->frame_ns;   /* older results: no sustained write */
	if (cJSON_GetObjectItemCaseSensitive(p, "sustained_write_ns"))
		rc |= sm_jget_u64(p, "sustained_write_ns", &res->sustain_ns, e);
	if (cJSON_GetObjectItemCaseSensitive(p, "steady")) {   /* written only when on */
		rc |= sm_jget_bool(p, "steady", &plan->steady, e);
		rc |= sm_jget_u64(p, "steady_round_ns", &plan->steady_round_ns, e);
		rc |= sm_jget_uint(p, "steady_rounds", &plan->steady_rounds, e);
	}
	if (cJSON_GetObjectItemCaseSensitive(p, "precondition"))
		rc |= sm_jget_bool(p, "precondition", &plan->precondition, e);
	if (rc || !fmts || !fps)
		return -EINVAL;
	if (cJSON_GetArraySize(fps) > SM_RUN_MAXRATES)
		return sm_jerr_set(e, "'fps' has more than %d rates", SM_RUN_MAXRATES);
	cJSON_ArrayForEach(it, fps) {
		if (!cJSON_IsString(it) || !(plan->rates[plan->nrates] = sm_fps_find(it->valuestring)))
			return sm_jerr_set(e, "'fps' holds an unknown frame rate");
		plan->nrates++;
	}
	f = calloc((size_t)cJSON_GetArraySize(fmts) + 1, sizeof(*f));
	plan->formats = f;
	res->rows = calloc((size_t)cJSON_GetArraySize(fmts) + 1, sizeof(*res->rows));
	if (!f || !res->rows)
		return -ENOMEM;
	cJSON_ArrayForEach(it, fmts) {
		if (!cJSON_IsString(it) || sm_format_find(it->valuestring, &f[plan->nformats]))
			return sm_jerr_set(e, "'formats' holds an unknown format");
		res->rows[plan->nformats].fmt = f[plan->nformats];
		plan->nformats++;
	}
	res->nrows = plan->nformats;
	return 0;
}

static int read_verdicts(const cJSON *a, struct sm_run_result *res, struct sm_jerr *e)
{
	const cJSON *it;
	unsigned r = 0;

	cJSON_ArrayForEach(it, a) {
		char name[40];

		if (r >= res->nrows)
			return sm_jerr_set(e, "'verdicts' has more rows than 'formats'");
		if (sm_jget_str(it, "format", name, sizeof(name), e))
			return -EINVAL;
		if (strcmp(name, res->rows[r].fmt.name))
			return sm_jerr_set(e, "verdict row %u is '%s', not '%s'", r, name,
					   res->rows[r].fmt.name);
		for (int d = 0; d < 2; d++) {
			const cJSON *cells = sm_jget_arr(it, sm_direction_name((enum sm_direction)d), e);
			const cJSON *c;
			unsigned k = 0;

			if (!cells)
				return -EINVAL;
			if ((unsigned)cJSON_GetArraySize(cells) != res->plan.nrates)
				return sm_jerr_set(e, "verdict row '%s' has %d cells, not %u", name,
						   cJSON_GetArraySize(cells), res->plan.nrates);
			cJSON_ArrayForEach(c, cells)
				if (read_cell(c, &res->rows[r].cell[d][k++], &res->sustained_basis, e))
					return -EINVAL;
		}
		r++;
	}
	return 0;
}

int sm_run_from_json(const cJSON *doc, struct sm_run_result *res, struct sm_jerr *e)
{
	const cJSON *run, *a, *it;
	int rc, v, errno_v = 0;
	unsigned i;

	memset(res, 0, sizeof(*res));
	rc = sm_json_read_head(doc, &res->head, e);
	if (rc)
		return rc;
	rc = read_params(sm_jget_obj(doc, "params", e), res, e);
	if (rc)
		return rc;
	{
		struct sm_steady none;   /* a run's "steady" is per classic test */

		if (sm_json_read_steady(doc, &none, &res->precond, e))
			return -EINVAL;
	}
	run = sm_jget_obj(doc, "run", e);
	if (!run)
		return -EINVAL;
	if ((v = by_name(run, "phase_reached", phase_name, SM_PHASE_DONE + 1, e)) < 0)
		return -EINVAL;
	res->reached = (enum sm_run_phase)v;
	rc |= sm_jget_str(run, "test_dir", res->data_dir, sizeof(res->data_dir), e);
	rc |= sm_jget_int(run, "direct_io_alignment", &res->direct_align, e);
	rc |= sm_jget_int(run, "direct_io_errno", &errno_v, e);
	rc |= sm_jget_str(run, "block_engine", res->block_engine, sizeof(res->block_engine), e);
	rc |= sm_jget_str(run, "frames_engine", res->frames_engine, sizeof(res->frames_engine), e);
	rc |= sm_jget_str(run, "engine_notice", res->notice, sizeof(res->notice), e);
	rc |= sm_jget_uint(run, "paced_runs", &res->paced_runs, e);
	rc |= sm_jget_uint(run, "near_limit_unconfirmed", &res->near_unconfirmed, e);
	if (cJSON_GetObjectItemCaseSensitive(run, "mpi_ranks"))
		rc |= sm_jget_uint(run, "mpi_ranks", &res->mpi_ranks, e);
	if (rc)
		return -EINVAL;
	if (res->direct_align <= 0)
		res->direct_align = -errno_v;
	if (res->head.error[0])
		res->error = -EIO;   /* the text says what; the code is not kept */
	a = sm_jget_arr(run, "classic", e);
	if (!a || cJSON_GetArraySize(a) > SM_RUN_NCLASSIC)
		return a ? sm_jerr_set(e, "'classic' has more than %d rows", SM_RUN_NCLASSIC) : -EINVAL;
	i = 0;
	cJSON_ArrayForEach(it, a) {
		struct sm_run_classic *c = &res->classic[i++];
		char pattern[16];
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "read");
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "write");

		rc |= sm_jget_str(it, "test", c->label, sizeof(c->label), e);
		rc |= sm_jget_u64(it, "block_bytes", &c->block, e);
		rc |= sm_jget_uint(it, "depth", &c->depth, e);
		rc |= sm_jget_str(it, "pattern", pattern, sizeof(pattern), e);
		if (rc)
			return -EINVAL;
		c->random = !strcmp(pattern, "random");
		if (r && (c->measured[0] = 1, read_blockio(r, &c->res[0], &c->fig[0], &c->steady[0], e)))
			return -EINVAL;
		if (w && (c->measured[1] = 1, read_blockio(w, &c->res[1], &c->fig[1], &c->steady[1], e)))
			return -EINVAL;
	}
	a = sm_jget_arr(run, "frames", e);
	if (!a || cJSON_GetArraySize(a) > SM_RUN_NSIZES)
		return a ? sm_jerr_set(e, "'frames' has more than %d sizes", SM_RUN_NSIZES) : -EINVAL;
	i = 0;
	cJSON_ArrayForEach(it, a) {
		struct sm_run_size *s = &res->sizes[i++];
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(it, "write");
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "read");

		rc |= sm_jget_str(it, "preset", s->preset, sizeof(s->preset), e);
		rc |= sm_jget_u64(it, "frame_bytes", &s->frame_bytes, e);
		if (rc)
			return -EINVAL;
		if (w && read_frametest(w, &s->t[SM_DIR_CAPTURE], e))
			return -EINVAL;
		if (r && read_frametest(r, &s->t[SM_DIR_PLAYBACK], e))
			return -EINVAL;
	}
	if (cJSON_GetObjectItemCaseSensitive(run, "meta")) {   /* absent before it was measured */
		const cJSON *m = sm_jget_obj(run, "meta", e);
		struct sm_run_meta *t = &res->meta;

		rc |= sm_jget_u64(m, "files", &t->files, e);
		rc |= sm_jget_u64(m, "size_bytes", &t->size_bytes, e);
		rc |= sm_jget_double(m, "create_per_s", &t->create_per_s, e);
		rc |= sm_jget_double(m, "stat_per_s", &t->stat_per_s, e);
		rc |= sm_jget_double(m, "probe_per_s", &t->probe_per_s, e);
		rc |= sm_jget_double(m, "list_per_s", &t->list_per_s, e);
		rc |= sm_jget_double(m, "delete_per_s", &t->delete_per_s, e);
		rc |= sm_jget_u64(m, "sequence_frames", &t->seq_frames, e);
		rc |= sm_jget_double(m, "sequence_list_ns", &t->seq_list_ns, e);
		rc |= sm_jget_double(m, "sequence_probe_ns", &t->seq_probe_ns, e);
		if (cJSON_GetObjectItemCaseSensitive(m, "caches")) {   /* since cold metadata */
			char c[16] = "";

			rc |= sm_jget_str(m, "caches", c, sizeof(c), e);
			t->caches = !strcmp(c, "dropped") ? SM_META_CACHES_DROPPED :
				    !strcmp(c, "warm") ? SM_META_CACHES_WARM : SM_META_CACHES_NONE;
			if (!rc && !t->caches)
				return sm_jerr_set(e, "'run.meta.caches' is neither dropped nor warm");
		}
		if (cJSON_GetObjectItemCaseSensitive(m, "ranks")) {   /* an MPI job's */
			uint64_t rk = 0, n = 0;

			rc |= sm_jget_u64(m, "rank", &rk, e);
			rc |= sm_jget_u64(m, "ranks", &n, e);
			if (!rc && (!n || rk >= 1u << 20 || n > 1u << 20))
				return sm_jerr_set(e, "'run.meta' names rank %llu of %llu",
						   (unsigned long long)rk, (unsigned long long)n);
			t->rank = (unsigned)rk;
			t->ranks = (unsigned)n;
		}
		if (rc)
			return -EINVAL;
		if (!(t->seq_list_ns >= 0) || !(t->seq_probe_ns >= 0) || !(t->list_per_s >= 0) ||
		    !(t->stat_per_s >= 0) || !(t->probe_per_s >= 0))
			return sm_jerr_set(e, "'run.meta' holds a negative or undefined figure");
		t->measured = 1;
	}
	a = sm_jget_arr(run, "verdicts", e);
	if (!a)
		return -EINVAL;
	return read_verdicts(a, res, e);
}

void sm_run_from_json_release(struct sm_run_result *res)
{
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			free(res->sizes[i].t[d].series);
			res->sizes[i].t[d].series = NULL;
			res->sizes[i].t[d].nseries = 0;
		}
	free((char *)res->plan.dir);
	free((char *)res->plan.engine);
	free((struct sm_format *)res->plan.formats);
	free(res->rows);
	res->plan.dir = res->plan.engine = NULL;
	res->plan.formats = NULL;
	res->rows = NULL;
	res->nrows = res->plan.nformats = 0;
	sm_result_head_release(&res->head);
}
