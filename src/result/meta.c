/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s result: the phases' names, clearing it, its JSON
 * document (docs/meta.md, docs/json-schema.md). */
#include "result/meta.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "result/json.h"

static const char *const phase_names[SM_META_NPHASES] = {
	[SM_META_CREATE] = "create", [SM_META_STAT] = "stat", [SM_META_PROBE] = "probe",
	[SM_META_LIST] = "list", [SM_META_DELETE] = "delete",
};

#define R struct sm_meta_result
#define PH struct sm_meta_phase_fig
#define OPT SM_FF_OPTIONAL
const struct sm_field sm_meta_doc_fields[SM_MDOC_N] = {
	[SM_MDOC_META] = SM_FIELD_X("meta", SM_FT_OBJ, "", 0),
};
const struct sm_field sm_meta_params_fields[SM_MPA_N] = {
	[SM_MPA_DIR] = SM_FIELD("dir", SM_FT_STR, "", R, dir, 0),
	[SM_MPA_FILES] = SM_FIELD("files", SM_FT_U64, "", R, plan.files, 0),
	[SM_MPA_THREADS] = SM_FIELD("threads", SM_FT_UINT, "", R, plan.threads, 0),
	[SM_MPA_SIZE] = SM_FIELD("size_bytes", SM_FT_U64, "bytes", R, plan.size, 0),
	[SM_MPA_PROBE] = SM_FIELD_X("probe_bytes", SM_FT_U64, "bytes", 0),
	[SM_MPA_WARM] = SM_FIELD("warm", SM_FT_BOOL, "", R, plan.warm, OPT),
};
const struct sm_field sm_meta_body_fields[SM_MME_N] = {
	[SM_MME_DATA_DIR] = SM_FIELD("data_dir", SM_FT_STR, "", R, data_dir, 0),
	[SM_MME_CREATED] = SM_FIELD("created", SM_FT_U64, "", R, created, 0),
	[SM_MME_CLEANED] = SM_FIELD("cleaned", SM_FT_BOOL, "", R, cleaned, 0),
	[SM_MME_RANKS] = SM_FIELD("ranks", SM_FT_UINT, "", R, ranks, OPT),
	[SM_MME_SHARED] = SM_FIELD("shared", SM_FT_BOOL, "", R, shared, OPT),
	[SM_MME_SET_FILES] = SM_FIELD("set_files", SM_FT_U64, "", R, set_files, OPT),
	[SM_MME_OPS] = SM_FIELD_X("ops", SM_FT_OBJ, "", 0),
};
const struct sm_field sm_meta_phase_fields[SM_MPH_N] = {
	[SM_MPH_DURATION] = SM_FIELD("duration_ns", SM_FT_U64, "ns", PH, duration_ns, 0),
	[SM_MPH_PER_S] = SM_FIELD("per_s", SM_FT_DOUBLE, "1/s", PH, per_s, 0),
	[SM_MPH_CACHES] = SM_FIELD_X("caches", SM_FT_STR, "", OPT),
	[SM_MPH_DONE_AT] = SM_FIELD("done_at_ns", SM_FT_LAT, "ns", PH, done_at, OPT),
	[SM_MPH_FIRST_DONE_NS] = SM_FIELD("first_done_ns", SM_FT_U64, "ns", PH, first_done_ns, OPT),
	[SM_MPH_FIRST_DONE_COUNT] = SM_FIELD("first_done_count", SM_FT_U64, "", PH,
					     first_done_count, OPT),
	[SM_MPH_FIRST_DONE_PER_S] = SM_FIELD("first_done_per_s", SM_FT_DOUBLE, "1/s", PH,
					     first_done_per_s, OPT),
};
#undef R
#undef PH
#undef OPT

const char *sm_meta_phase_name(enum sm_meta_phase p)
{
	return (unsigned)p < SM_META_NPHASES ? phase_names[p] : "?";
}

const char *sm_meta_caches_name(enum sm_meta_caches c)
{
	return c == SM_META_CACHES_DROPPED ? "dropped" : c == SM_META_CACHES_WARM ? "warm" : "";
}

void sm_meta_result_init(struct sm_meta_result *r)
{
	memset(r->ph, 0, sizeof(r->ph));
	for (int p = 0; p < SM_META_NPHASES; p++) {
		sm_opstat_init(&r->ph[p].op);
		sm_hist_init(&r->ph[p].done_at);
	}
	r->data_dir[0] = '\0';
	r->created = 0;
	r->cleaned = 0;
	r->ranks = 0;
	r->shared = 0;
	r->set_files = 0;
}

cJSON *sm_meta_json(const struct sm_meta_result *r)
{
	const struct sm_field *P = sm_meta_params_fields, *M = sm_meta_body_fields;
	const struct sm_field *F = sm_meta_phase_fields;
	cJSON *doc = sm_json_doc_new(&r->head), *p, *m, *ops;

	if (!doc)
		return NULL;
	p = cJSON_AddObjectToObject(doc, sm_head_fields[SM_HD_PARAMS].key);
	cJSON_AddStringToObject(p, P[SM_MPA_DIR].key, r->plan.dir ? r->plan.dir : "");
	sm_field_put(p, &P[SM_MPA_FILES], r);
	sm_field_put(p, &P[SM_MPA_THREADS], r);
	sm_field_put(p, &P[SM_MPA_SIZE], r);
	sm_json_add_u64(p, P[SM_MPA_PROBE].key, SM_META_PROBE_BYTES);
	for (int k = 0; k < SM_META_NPHASES; k++)
		if (r->ph[k].caches) {   /* said since cold metadata (docs/meta.md) */
			sm_field_put(p, &P[SM_MPA_WARM], r);
			break;
		}
	m = cJSON_AddObjectToObject(doc, sm_meta_doc_fields[SM_MDOC_META].key);
	sm_field_put(m, &M[SM_MME_DATA_DIR], r);
	sm_field_put(m, &M[SM_MME_CREATED], r);
	sm_field_put(m, &M[SM_MME_CLEANED], r);
	if (r->ranks)   /* an MPI job's merge */
		sm_field_put(m, &M[SM_MME_RANKS], r);
	if (r->ranks || r->shared)
		sm_field_put(m, &M[SM_MME_SHARED], r);
	if (r->shared)   /* one directory of every rank's files, each listing them all */
		sm_field_put(m, &M[SM_MME_SET_FILES], r);
	ops = cJSON_AddObjectToObject(m, M[SM_MME_OPS].key);
	for (int k = 0; k < SM_META_NPHASES; k++) {
		const struct sm_meta_phase_fig *f = &r->ph[k];
		cJSON *o;

		if (!f->ran)
			continue;
		o = sm_json_opstat(&f->op, 1);
		if (!o)
			break;
		sm_field_put(o, &F[SM_MPH_DURATION], f);
		sm_field_put(o, &F[SM_MPH_PER_S], f);
		if (f->caches)   /* stat, probe, list (docs/meta.md) */
			cJSON_AddStringToObject(o, F[SM_MPH_CACHES].key, sm_meta_caches_name(f->caches));
		if (f->done_at.count) {   /* a run with peers: what the job's merge needs */
			sm_field_put(o, &F[SM_MPH_DONE_AT], f);
			sm_field_put(o, &F[SM_MPH_FIRST_DONE_NS], f);
		}
		if (r->ranks) {
			sm_field_put(o, &F[SM_MPH_FIRST_DONE_COUNT], f);
			sm_field_put(o, &F[SM_MPH_FIRST_DONE_PER_S], f);
		}
		cJSON_AddItemToObject(ops, sm_meta_phase_name((enum sm_meta_phase)k), o);
	}
	sm_json_doc_finish(doc, &r->head);
	return doc;
}
