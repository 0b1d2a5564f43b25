/* SPDX-License-Identifier: MIT */
/* The invariants of a `meta` result (docs/meta.md): every phase's rate is
 * its count over its own span, a complete run's phases count every file,
 * the bytes written and read are the files' and the probes', and the
 * phases fit in the run; an MPI job's merge counts every rank's files
 * (a shared directory's listing every rank's listing of all of them), and
 * its first-done figures come before its last-done ones. */
#include "check/body.h"
#include "result/meta.h"

#include <stdio.h>

#define PK(f) (sm_meta_params_fields[f].key)
#define MK(f) (sm_meta_body_fields[f].key)
#define FK(f) (sm_meta_phase_fields[f].key)
#define OK(f) (sm_opstat_fields[f].key)

/* "meta.ops.PHASE.KEY" into an, for the checker's messages. */
static const char *phase_path(char *an, size_t len, const char *name, const char *key)
{
	snprintf(an, len, "%s.%s.%s.%s", sm_meta_doc_fields[SM_MDOC_META].key, MK(SM_MME_OPS), name,
		 key);
	return an;
}

/* An MPI job's phase o (count n, last-done span d): what every rank had
 * done when the first was done, over the first's span. */
static void ck_first_done(struct sm_check *c, const cJSON *o, const char *name, double n, double d)
{
	double fn, fc, fr;
	char an[96];

	if (!ck_num(o, FK(SM_MPH_FIRST_DONE_NS), &fn) || !ck_num(o, FK(SM_MPH_FIRST_DONE_COUNT), &fc) ||
	    !ck_num(o, FK(SM_MPH_FIRST_DONE_PER_S), &fr))
		return;
	ck_le(c, "meta.first_done", phase_path(an, sizeof(an), name, FK(SM_MPH_FIRST_DONE_NS)), fn,
	      FK(SM_MPH_DURATION), d);
	ck_le(c, "meta.first_done", phase_path(an, sizeof(an), name, FK(SM_MPH_FIRST_DONE_COUNT)), fc,
	      OK(SM_OPF_COUNT), n);
	ck_rate(c, "meta.first_done", phase_path(an, sizeof(an), name, FK(SM_MPH_FIRST_DONE_PER_S)), fr,
		FK(SM_MPH_FIRST_DONE_COUNT), fc, FK(SM_MPH_FIRST_DONE_NS), fn);
}

void ck_meta(const cJSON *doc, struct sm_check *c)
{
	const cJSON *params = ck_at(doc, sm_head_fields[SM_HD_PARAMS].key);
	const cJSON *body = ck_at(doc, sm_meta_doc_fields[SM_MDOC_META].key);
	const cJSON *ops = ck_at(body, MK(SM_MME_OPS));
	double files = 0, size = 0, probe = 0, dur = 0, spans = 0, created, ranks = 0, set = 0;
	int interrupted = 0, complete, cleaned, shared = 0;
	char what[96], an_created[96];

	if (!cJSON_IsObject(ops))
		return;
	ck_num(body, MK(SM_MME_RANKS), &ranks);   /* an MPI job's merge */
	ck_bool(body, MK(SM_MME_SHARED), &shared);
	if (shared)
		ck_num(body, MK(SM_MME_SET_FILES), &set);
	ck_num(params, PK(SM_MPA_FILES), &files);
	ck_num(params, PK(SM_MPA_SIZE), &size);
	ck_num(params, PK(SM_MPA_PROBE), &probe);
	ck_bool(doc, sm_head_fields[SM_HD_INTERRUPTED].key, &interrupted);
	complete = !interrupted && cJSON_GetArraySize(ck_at(doc, sm_head_fields[SM_HD_ERRORS].key)) == 0;
	/* what the counts are held to: "params.files" alone, a job's files */
	if (ranks)
		snprintf(what, sizeof(what), "the job's files");
	else
		snprintf(what, sizeof(what), "%s.%s", sm_head_fields[SM_HD_PARAMS].key,
			 PK(SM_MPA_FILES));
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const char *name = sm_meta_phase_name((enum sm_meta_phase)p);
		const cJSON *o = ck_at(ops, name);
		double n, err, d, r, bytes;
		char an[96], sz[64];

		if (!o) {
			/* a complete run ran every phase, the probe exactly when the files have bytes */
			if (complete && (p != SM_META_PROBE || size > 0)) {
				snprintf(an, sizeof(an), "%s.%s.%s present",
					 sm_meta_doc_fields[SM_MDOC_META].key, MK(SM_MME_OPS), name);
				ck_eq(c, "meta.count", an, 0, "1 (a complete run)", 1);
			}
			continue;
		}
		double all = files * (ranks ? ranks : 1);   /* the job's files */

		if (!ck_num(o, OK(SM_OPF_COUNT), &n) || !ck_num(o, OK(SM_OPF_ERRORS), &err) ||
		    !ck_num(o, FK(SM_MPH_DURATION), &d))
			continue;
		spans += d;
		if (p == SM_META_LIST && shared)   /* each rank lists every rank's files */
			all = set * (ranks ? ranks : 1);
		if (ranks)
			ck_first_done(c, o, name, n, d);
		if (ck_num(o, FK(SM_MPH_PER_S), &r))
			ck_rate(c, "meta.rate", phase_path(an, sizeof(an), name, FK(SM_MPH_PER_S)), r,
				OK(SM_OPF_COUNT), n, FK(SM_MPH_DURATION), d);
		phase_path(an, sizeof(an), name, OK(SM_OPF_COUNT));
		snprintf(sz, sizeof(sz), "%s.%s", sm_head_fields[SM_HD_PARAMS].key, PK(SM_MPA_SIZE));
		if (complete) {
			ck_eq(c, "meta.count", an, n, what, all);
			if (p == SM_META_PROBE)   /* nothing to probe at size 0 */
				ck_le(c, "meta.count", "1 (the probe ran)", 1, sz, size);
		} else {
			ck_le(c, "meta.count", an, n, what, all);
		}
		phase_path(an, sizeof(an), name, OK(SM_OPF_BYTES));
		if (!ck_num(o, OK(SM_OPF_BYTES), &bytes))
			continue;
		if (p == SM_META_CREATE && !err)
			ck_eq(c, "meta.bytes", an, bytes, "count x size_bytes", n * size);
		else if (p == SM_META_PROBE)
			ck_eq(c, "meta.bytes", an, bytes, "(count - errors) x min(size_bytes, probe_bytes)",
			      (n - err) * (size < probe ? size : probe));
		else if (p != SM_META_CREATE)
			ck_eq(c, "meta.bytes", an, bytes, "0 (no data moved)", 0);
	}
	/* (a job's phases are each the longest rank's: their sum may pass any
	 * one rank's span by the skew of the phases' barriers) */
	if (!ranks && ck_num(doc, sm_head_fields[SM_HD_DURATION].key, &dur))
		ck_le(c, "meta.span", "the phases' duration_ns together", spans,
		      sm_head_fields[SM_HD_DURATION].key, dur);
	snprintf(an_created, sizeof(an_created), "%s.%s", sm_meta_doc_fields[SM_MDOC_META].key,
		 MK(SM_MME_CREATED));
	if (complete && ck_num(body, MK(SM_MME_CREATED), &created))
		ck_eq(c, "meta.count", an_created, created, what, files * (ranks ? ranks : 1));
	snprintf(an_created, sizeof(an_created), "%s.%s", sm_meta_doc_fields[SM_MDOC_META].key,
		 MK(SM_MME_CLEANED));
	if (complete && ck_bool(body, MK(SM_MME_CLEANED), &cleaned))
		ck_eq(c, "meta.count", an_created, cleaned, "1 (a complete run removed its files)", 1);
}

/* run's metadata line: the sequence's times are its frames over the rates. */
void ck_run_meta(const cJSON *doc, struct sm_check *c)
{
	const cJSON *m = ck_at(doc, "run.meta");
	double n, list, stat, probe, v;

	if (!cJSON_IsObject(m) || !ck_num(m, "sequence_frames", &n) || !ck_num(m, "list_per_s", &list) ||
	    !ck_num(m, "stat_per_s", &stat) || !ck_num(m, "probe_per_s", &probe) || !(list > 0) ||
	    !(stat > 0) || !(probe > 0))
		return;
	if (ck_num(m, "sequence_list_ns", &v))
		ck_near(c, "run.meta", "run.meta.sequence_list_ns", v,
			"sequence_frames / list_per_s (ns)", n / list * 1e9, 1e-9);
	if (ck_num(m, "sequence_probe_ns", &v))
		ck_near(c, "run.meta", "run.meta.sequence_probe_ns", v,
			"sequence_frames / stat_per_s + sequence_frames / probe_per_s (ns)",
			n / stat * 1e9 + n / probe * 1e9, 1e-9);
}
