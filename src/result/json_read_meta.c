/* SPDX-License-Identifier: MIT */
/* Reading a saved `stormark meta` result back (the document of
 * sm_meta_json()). */
#include "result/json_read.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static int read_phase(const cJSON *o, const char *name, struct sm_meta_phase_fig *f, int ranks,
		      struct sm_jerr *e)
{
	int rc;

	rc = sm_json_read_opstat(o, &f->op, e);
	rc |= sm_jget_u64(o, "duration_ns", &f->duration_ns, e);
	rc |= sm_jget_double(o, "per_s", &f->per_s, e);
	if (rc)
		return -EINVAL;
	if (!isfinite(f->per_s) || f->per_s < 0)
		return sm_jerr_set(e, "meta.ops.%s.per_s is not a rate >= 0", name);
	if (f->op.lat.count != f->op.count - f->op.errors || f->op.errors > f->op.count)
		return sm_jerr_set(e, "meta.ops.%s: its latency histogram does not count its "
				   "operations less its errors", name);
	if (cJSON_GetObjectItemCaseSensitive(o, "caches")) {   /* since cold metadata */
		char c[16];

		if (sm_jget_str(o, "caches", c, sizeof(c), e))
			return -EINVAL;
		if (!strcmp(c, "dropped"))
			f->caches = SM_META_CACHES_DROPPED;
		else if (!strcmp(c, "warm"))
			f->caches = SM_META_CACHES_WARM;
		else
			return sm_jerr_set(e, "meta.ops.%s.caches is neither dropped nor warm", name);
	}
	f->first_done_ns = f->duration_ns;
	if (cJSON_GetObjectItemCaseSensitive(o, "done_at_ns")) {   /* a run with peers */
		if (sm_json_read_lat(sm_jget_obj(o, "done_at_ns", e), &f->done_at, e) ||
		    sm_jget_u64(o, "first_done_ns", &f->first_done_ns, e))
			return -EINVAL;
		if (f->first_done_ns > f->duration_ns)
			return sm_jerr_set(e, "meta.ops.%s.first_done_ns is past its duration_ns", name);
	}
	if (ranks) {   /* a job's merge: derived again by sm_meta_analyse() */
		if (sm_jget_u64(o, "first_done_count", &f->first_done_count, e) ||
		    sm_jget_double(o, "first_done_per_s", &f->first_done_per_s, e))
			return -EINVAL;
	}
	f->ran = 1;
	return 0;
}

int sm_meta_from_json(const cJSON *doc, struct sm_meta_result *r, struct sm_jerr *e)
{
	const cJSON *params, *m, *ops;
	uint64_t threads;
	int rc;

	memset(r, 0, sizeof(*r));
	sm_meta_result_init(r);
	rc = sm_json_read_head(doc, &r->head, e);
	if (rc)
		return rc;
	params = sm_jget_obj(doc, "params", e);
	m = sm_jget_obj(doc, "meta", e);
	ops = m ? sm_jget_obj(m, "ops", e) : NULL;
	if (!params || !m || !ops)
		return -EINVAL;
	rc |= sm_jget_str(params, "dir", r->dir, sizeof(r->dir), e);
	rc |= sm_jget_u64(params, "files", &r->plan.files, e);
	rc |= sm_jget_u64(params, "threads", &threads, e);
	rc |= sm_jget_u64(params, "size_bytes", &r->plan.size, e);
	rc |= sm_jget_str(m, "data_dir", r->data_dir, sizeof(r->data_dir), e);
	rc |= sm_jget_u64(m, "created", &r->created, e);
	rc |= sm_jget_bool(m, "cleaned", &r->cleaned, e);
	if (cJSON_GetObjectItemCaseSensitive(params, "warm"))
		rc |= sm_jget_bool(params, "warm", &r->plan.warm, e);
	if (rc)
		return -EINVAL;
	if (threads < 1 || threads > 4096)
		return sm_jerr_set(e, "params.threads is not from 1 to 4096");
	r->plan.threads = (unsigned)threads;
	r->plan.dir = r->dir;
	if (cJSON_GetObjectItemCaseSensitive(m, "ranks")) {   /* an MPI job's merge */
		uint64_t ranks;

		if (sm_jget_u64(m, "ranks", &ranks, e))
			return -EINVAL;
		if (ranks < 1 || ranks > 1u << 20)
			return sm_jerr_set(e, "meta.ranks is not from 1 to 1048576");
		r->ranks = (unsigned)ranks;
	}
	if (cJSON_GetObjectItemCaseSensitive(m, "shared") && sm_jget_bool(m, "shared", &r->shared, e))
		return -EINVAL;
	if (r->shared && sm_jget_u64(m, "set_files", &r->set_files, e))
		return -EINVAL;
	for (int k = 0; k < SM_META_NPHASES; k++) {
		const char *name = sm_meta_phase_name((enum sm_meta_phase)k);
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(ops, name);

		if (!o)
			continue;   /* the phase did not run */
		if (!cJSON_IsObject(o))
			return sm_jerr_set(e, "meta.ops.%s is not an object", name);
		rc = read_phase(o, name, &r->ph[k], r->ranks != 0, e);
		if (rc)
			return rc;
	}
	return 0;
}

void sm_meta_from_json_release(struct sm_meta_result *r)
{
	sm_result_head_release(&r->head);
}
