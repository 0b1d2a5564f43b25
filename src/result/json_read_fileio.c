/* SPDX-License-Identifier: MIT */
/* Reading a saved `stormark fileio run` result back (the document of
 * sm_fileio_json()). */
#include "result/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_cfg(const cJSON *p, struct sm_fileio_result *r, struct sm_jerr *e)
{
	const struct sm_field *P = sm_fileio_params_fields;
	struct sm_fileio_cfg *c = &r->cfg;
	const cJSON *fl = sm_jget_arr(p, P[SM_FPA_EXTRA_FLAGS].key, e);
	const cJSON *pc = sm_jget_arr(p, P[SM_FPA_PERCENTILES].key, e);
	const cJSON *it;
	char mode[16], io[16], fsm[16], data[16], *dir;
	int rc = 0;

	rc |= sm_jget_strdup(p, P[SM_FPA_DIR].key, &dir, e);
	c->dir = dir;
	rc |= sm_jget_str(p, P[SM_FPA_TEST_MODE].key, mode, sizeof(mode), e);
	rc |= sm_jget_str(p, P[SM_FPA_IO_MODE].key, io, sizeof(io), e);
	for (int k = SM_FPA_THREADS; k <= SM_FPA_BLOCK_SIZE; k++)
		rc |= sm_field_get(p, &P[k], r, e);
	rc |= sm_field_get(p, &P[SM_FPA_ASYNC_BACKLOG], r, e);
	rc |= sm_field_get(p, &P[SM_FPA_FSYNC_FREQ], r, e);
	rc |= sm_field_get(p, &P[SM_FPA_FSYNC_ALL], r, e);
	rc |= sm_field_get(p, &P[SM_FPA_FSYNC_END], r, e);
	rc |= sm_jget_str(p, P[SM_FPA_FSYNC_MODE].key, fsm, sizeof(fsm), e);
	for (int k = SM_FPA_MERGED; k <= SM_FPA_VERIFY; k++)   /* verify: written only when on */
		rc |= sm_field_get(p, &P[k], r, e);
	rc |= sm_jget_str(p, P[SM_FPA_DATA].key, data, sizeof(data), e);
	if (rc || !fl || !pc)
		return -EINVAL;
	c->mode = sm_fileio_mode_parse(mode);
	if (c->mode == SM_FIO_NONE)
		return sm_jerr_set(e, "'%s' has an unknown value '%s'", P[SM_FPA_TEST_MODE].key, mode);
	if (!strcmp(io, "sync"))
		c->io_mode = SM_FIO_IO_SYNC;
	else if (!strcmp(io, "async"))
		c->io_mode = SM_FIO_IO_ASYNC;
	else if (!strcmp(io, "mmap"))
		c->io_mode = SM_FIO_IO_MMAP;
	else
		return sm_jerr_set(e, "'%s' has an unknown value '%s'", P[SM_FPA_IO_MODE].key, io);
	c->fsync_data = !strcmp(fsm, "fdatasync");
	c->data = !strcmp(data, "zero") ? SM_DATA_ZERO : SM_DATA_RANDOM;
	cJSON_ArrayForEach(it, fl) {
		const char *v = cJSON_IsString(it) ? it->valuestring : "";

		if (!strcmp(v, "sync"))
			c->extra_flags |= SM_FIO_FLAG_SYNC;
		else if (!strcmp(v, "dsync"))
			c->extra_flags |= SM_FIO_FLAG_DSYNC;
		else if (!strcmp(v, "direct"))
			c->extra_flags |= SM_FIO_FLAG_DIRECT;
		else
			return sm_jerr_set(e, "'%s' holds an unknown flag", P[SM_FPA_EXTRA_FLAGS].key);
	}
	cJSON_ArrayForEach(it, pc) {
		if (!cJSON_IsNumber(it) || r->pct.n >= SM_FIO_MAX_PCT)
			return sm_jerr_set(e, "'%s' is not a short list of numbers",
					   P[SM_FPA_PERCENTILES].key);
		r->pct.p[r->pct.n++] = it->valuedouble;
	}
	return 0;
}

static int read_series(const cJSON *se, struct sm_fileio_result *r, struct sm_jerr *e)
{
	const char *const *keys = sm_fileio_series_keys;
	const cJSON *a[SM_FILEIO_SERIES_KEYS], *it[SM_FILEIO_SERIES_KEYS];
	int n = sm_jget_columns(se, keys, SM_FILEIO_SERIES_KEYS, a, e);

	if (n < 0)
		return n;
	r->series = calloc((size_t)n + 1, sizeof(*r->series));
	if (!r->series)
		return -ENOMEM;
	r->series_cap = (unsigned)n + 1;
	/* walked in step, not by index (an index walks the list from its
	 * head: a day-long series would take minutes) */
	for (unsigned k = 0; k < SM_FILEIO_SERIES_KEYS; k++)
		it[k] = a[k]->child;
	for (int i = 0; i < n; i++) {
		struct sm_fileio_tick *t = &r->series[i];
		uint64_t *v[] = {
			&t->t_ns, &t->interval_ns, &t->read_bytes, &t->write_bytes, &t->reads,
			&t->writes, &t->fsyncs, &t->events, &t->lat_pct_ns, &t->lat_max_ns,
		};

		for (unsigned k = 0; k < SM_FILEIO_SERIES_KEYS; k++) {
			if (sm_json_count(it[k], v[k]))
				return sm_jerr_set(e, "'series.%s' holds something other than counts",
						   keys[k]);
			it[k] = it[k]->next;
		}
		/* the per-interval rates divide by it: a tick of no length is
		 * a broken file, not an infinite rate */
		if (!t->interval_ns)
			return sm_jerr_set(e, "'series.duration_ns' holds a 0 (an interval of no length)");
	}
	r->nseries = (unsigned)n;
	return 0;
}

static int read_u64s(const cJSON *a, uint64_t *out, unsigned n, const char *key, struct sm_jerr *e)
{
	if (!a || cJSON_GetArraySize(a) != (int)n)
		return sm_jerr_set(e, "'%s' is missing or has not one entry per thread", key);
	for (unsigned i = 0; i < n; i++) {
		const cJSON *x = cJSON_GetArrayItem(a, (int)i);

		if (sm_json_count(x, &out[i]))
			return sm_jerr_set(e, "'%s' holds something other than counts", key);
	}
	return 0;
}

int sm_fileio_from_json(const cJSON *doc, struct sm_fileio_result *r, struct sm_jerr *e)
{
	const struct sm_field *B = sm_fileio_body_fields;
	const cJSON *ops, *fio, *te, *se;
	int rc;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 3; i++)
		sm_opstat_init(&r->ops[i]);
	sm_hist_init(&r->events_lat);
	rc = sm_json_read_head(doc, &r->head, e);
	if (!rc)
		rc = read_cfg(sm_jget_obj(doc, sm_head_fields[SM_HD_PARAMS].key, e), r, e);
	if (rc)
		return rc;
	ops = sm_jget_obj(doc, sm_fileio_doc_fields[SM_FDOC_OPS].key, e);
	fio = sm_jget_obj(doc, sm_fileio_doc_fields[SM_FDOC_FILEIO].key, e);
	if (!ops || !fio)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(ops, sm_fileio_op_names[i]);

		if (o && sm_json_read_opstat(o, &r->ops[i], e))
			return -EINVAL;
	}
	rc |= sm_field_get(fio, &B[SM_FB_EVENTS], r, e);
	rc |= sm_field_get(fio, &B[SM_FB_PERIODIC_FSYNCS], r, e);
	rc |= sm_field_get(fio, &B[SM_FB_END_FSYNCS], r, e);
	rc |= sm_field_get(fio, &B[SM_FB_ENGINE_NOTICE], r, e);
	if (rc || sm_field_get(fio, &B[SM_FB_EVENT_LAT], r, e))
		return -EINVAL;
	memcpy(r->engine, r->head.env.engine, sizeof(r->engine));
	r->failed = r->head.error[0] != '\0';
	te = sm_jget_arr(fio, B[SM_FB_THREAD_EVENTS].key, e);
	if (!te)
		return -EINVAL;
	r->nthreads = (unsigned)cJSON_GetArraySize(te);
	r->thread_events = calloc(r->nthreads + 1, sizeof(uint64_t));
	r->thread_busy_ns = calloc(r->nthreads + 1, sizeof(uint64_t));
	if (!r->thread_events || !r->thread_busy_ns)
		return -ENOMEM;
	if (read_u64s(te, r->thread_events, r->nthreads, B[SM_FB_THREAD_EVENTS].key, e) ||
	    read_u64s(sm_field_at(fio, &B[SM_FB_THREAD_BUSY]), r->thread_busy_ns, r->nthreads,
		      B[SM_FB_THREAD_BUSY].key, e))
		return -EINVAL;
	if (sm_json_read_verify(doc, &r->verify, &r->verify_run, e) ||
	    sm_json_read_steady(doc, &r->steady, &r->precond, e))
		return -EINVAL;
	if (sm_field_has(doc, &sm_head_fields[SM_HD_CLIFF]) &&
	    sm_json_read_cliff(sm_field_at(doc, &sm_head_fields[SM_HD_CLIFF]), &r->cliff, e))
		return -EINVAL;
	if (sm_json_read_stalls(doc, &r->stalls, e))
		return -EINVAL;
	se = sm_field_at(doc, &sm_fileio_doc_fields[SM_FDOC_SERIES]);
	return se ? read_series(se, r, e) : 0;
}

void sm_fileio_from_json_release(struct sm_fileio_result *r)
{
	free((char *)r->cfg.dir);
	free(r->thread_events);
	free(r->thread_busy_ns);
	free(r->series);
	r->cfg.dir = NULL;
	r->thread_events = r->thread_busy_ns = NULL;
	r->series = NULL;
	r->nseries = r->nthreads = 0;
	sm_result_head_release(&r->head);
}
