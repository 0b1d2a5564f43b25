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
	const struct sm_field *F = sm_meta_phase_fields;
	const char *ck = F[SM_MPH_CACHES].key;
	int rc;

	rc = sm_json_read_opstat(o, &f->op, e);
	rc |= sm_field_get(o, &F[SM_MPH_DURATION], f, e);
	rc |= sm_field_get(o, &F[SM_MPH_PER_S], f, e);
	if (rc)
		return -EINVAL;
	if (!isfinite(f->per_s) || f->per_s < 0)
		return sm_jerr_set(e, "meta.ops.%s.%s is not a rate >= 0", name, F[SM_MPH_PER_S].key);
	if (f->op.lat.count != f->op.count - f->op.errors || f->op.errors > f->op.count)
		return sm_jerr_set(e, "meta.ops.%s: its latency histogram does not count its "
				   "operations less its errors", name);
	if (sm_field_has(o, &F[SM_MPH_CACHES])) {   /* since cold metadata */
		char c[16];

		if (sm_jget_str(o, ck, c, sizeof(c), e))
			return -EINVAL;
		if (!strcmp(c, sm_meta_caches_name(SM_META_CACHES_DROPPED)))
			f->caches = SM_META_CACHES_DROPPED;
		else if (!strcmp(c, sm_meta_caches_name(SM_META_CACHES_WARM)))
			f->caches = SM_META_CACHES_WARM;
		else
			return sm_jerr_set(e, "meta.ops.%s.%s is neither dropped nor warm", name, ck);
	}
	f->first_done_ns = f->duration_ns;
	if (sm_field_has(o, &F[SM_MPH_DONE_AT])) {   /* a run with peers */
		if (sm_field_get(o, &F[SM_MPH_DONE_AT], f, e) ||
		    sm_jget_u64(o, F[SM_MPH_FIRST_DONE_NS].key, &f->first_done_ns, e))
			return -EINVAL;
		if (f->first_done_ns > f->duration_ns)
			return sm_jerr_set(e, "meta.ops.%s.%s is past its %s", name,
					   F[SM_MPH_FIRST_DONE_NS].key, F[SM_MPH_DURATION].key);
	}
	if (ranks) {   /* a job's merge: derived again by sm_meta_analyse() */
		if (sm_jget_u64(o, F[SM_MPH_FIRST_DONE_COUNT].key, &f->first_done_count, e) ||
		    sm_jget_double(o, F[SM_MPH_FIRST_DONE_PER_S].key, &f->first_done_per_s, e))
			return -EINVAL;
	}
	f->ran = 1;
	return 0;
}

int sm_meta_from_json(const cJSON *doc, struct sm_meta_result *r, struct sm_jerr *e)
{
	const struct sm_field *P = sm_meta_params_fields, *M = sm_meta_body_fields;
	const cJSON *params, *m, *ops;
	uint64_t threads;
	int rc;

	memset(r, 0, sizeof(*r));
	sm_meta_result_init(r);
	rc = sm_json_read_head(doc, &r->head, e);
	if (rc)
		return rc;
	params = sm_jget_obj(doc, sm_head_fields[SM_HD_PARAMS].key, e);
	m = sm_jget_obj(doc, sm_meta_doc_fields[SM_MDOC_META].key, e);
	ops = m ? sm_jget_obj(m, M[SM_MME_OPS].key, e) : NULL;
	if (!params || !m || !ops)
		return -EINVAL;
	rc |= sm_field_get(params, &P[SM_MPA_DIR], r, e);
	rc |= sm_field_get(params, &P[SM_MPA_FILES], r, e);
	rc |= sm_jget_u64(params, P[SM_MPA_THREADS].key, &threads, e);
	rc |= sm_field_get(params, &P[SM_MPA_SIZE], r, e);
	rc |= sm_field_get(m, &M[SM_MME_DATA_DIR], r, e);
	rc |= sm_field_get(m, &M[SM_MME_CREATED], r, e);
	rc |= sm_field_get(m, &M[SM_MME_CLEANED], r, e);
	rc |= sm_field_get(params, &P[SM_MPA_WARM], r, e);
	if (rc)
		return -EINVAL;
	if (threads < 1 || threads > 4096)
		return sm_jerr_set(e, "params.%s is not from 1 to 4096", P[SM_MPA_THREADS].key);
	r->plan.threads = (unsigned)threads;
	r->plan.dir = r->dir;
	if (sm_field_has(m, &M[SM_MME_RANKS])) {   /* an MPI job's merge */
		uint64_t ranks;

		if (sm_jget_u64(m, M[SM_MME_RANKS].key, &ranks, e))
			return -EINVAL;
		if (ranks < 1 || ranks > 1u << 20)
			return sm_jerr_set(e, "meta.%s is not from 1 to 1048576", M[SM_MME_RANKS].key);
		r->ranks = (unsigned)ranks;
	}
	if (sm_field_get(m, &M[SM_MME_SHARED], r, e))
		return -EINVAL;
	if (r->shared && sm_jget_u64(m, M[SM_MME_SET_FILES].key, &r->set_files, e))
		return -EINVAL;
	for (int k = 0; k < SM_META_NPHASES; k++) {
		const char *name = sm_meta_phase_name((enum sm_meta_phase)k);
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(ops, name);

		if (!o)
			continue;   /* the phase did not run */
		if (!cJSON_IsObject(o))
			return sm_jerr_set(e, "meta.%s.%s is not an object", M[SM_MME_OPS].key, name);
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
