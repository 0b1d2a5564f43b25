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
	cJSON *doc = sm_json_doc_new(&r->head), *p, *m, *ops;

	if (!doc)
		return NULL;
	p = cJSON_AddObjectToObject(doc, "params");
	cJSON_AddStringToObject(p, "dir", r->plan.dir ? r->plan.dir : "");
	sm_json_add_u64(p, "files", r->plan.files);
	sm_json_add_u64(p, "threads", r->plan.threads);
	sm_json_add_u64(p, "size_bytes", r->plan.size);
	sm_json_add_u64(p, "probe_bytes", SM_META_PROBE_BYTES);
	for (int k = 0; k < SM_META_NPHASES; k++)
		if (r->ph[k].caches) {   /* said since cold metadata (docs/meta.md) */
			cJSON_AddBoolToObject(p, "warm", r->plan.warm);
			break;
		}
	m = cJSON_AddObjectToObject(doc, "meta");
	cJSON_AddStringToObject(m, "data_dir", r->data_dir);
	sm_json_add_u64(m, "created", r->created);
	cJSON_AddBoolToObject(m, "cleaned", r->cleaned);
	if (r->ranks)   /* an MPI job's merge */
		sm_json_add_u64(m, "ranks", r->ranks);
	if (r->ranks || r->shared)
		cJSON_AddBoolToObject(m, "shared", r->shared);
	if (r->shared)   /* one directory of every rank's files, each listing them all */
		sm_json_add_u64(m, "set_files", r->set_files);
	ops = cJSON_AddObjectToObject(m, "ops");
	for (int k = 0; k < SM_META_NPHASES; k++) {
		const struct sm_meta_phase_fig *f = &r->ph[k];
		cJSON *o;

		if (!f->ran)
			continue;
		o = sm_json_opstat(&f->op, 1);
		if (!o)
			break;
		sm_json_add_u64(o, "duration_ns", f->duration_ns);
		sm_json_add_double(o, "per_s", f->per_s);
		if (f->caches)   /* stat, probe, list (docs/meta.md) */
			cJSON_AddStringToObject(o, "caches", sm_meta_caches_name(f->caches));
		if (f->done_at.count) {   /* a run with peers: what the job's merge needs */
			cJSON_AddItemToObject(o, "done_at_ns", sm_json_lat(&f->done_at, 1));
			sm_json_add_u64(o, "first_done_ns", f->first_done_ns);
		}
		if (r->ranks) {
			sm_json_add_u64(o, "first_done_count", f->first_done_count);
			sm_json_add_double(o, "first_done_per_s", f->first_done_per_s);
		}
		cJSON_AddItemToObject(ops, sm_meta_phase_name((enum sm_meta_phase)k), o);
	}
	sm_json_doc_finish(doc, &r->head);
	return doc;
}
