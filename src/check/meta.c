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

/* An MPI job's phase o (count n, last-done span d): what every rank had
 * done when the first was done, over the first's span. */
static void ck_first_done(struct sm_check *c, const cJSON *o, const char *name, double n, double d)
{
	double fn, fc, fr;
	char an[64];

	if (!ck_num(o, "first_done_ns", &fn) || !ck_num(o, "first_done_count", &fc) ||
	    !ck_num(o, "first_done_per_s", &fr))
		return;
	snprintf(an, sizeof(an), "meta.ops.%s.first_done_ns", name);
	ck_le(c, "meta.first_done", an, fn, "duration_ns", d);
	snprintf(an, sizeof(an), "meta.ops.%s.first_done_count", name);
	ck_le(c, "meta.first_done", an, fc, "count", n);
	snprintf(an, sizeof(an), "meta.ops.%s.first_done_per_s", name);
	ck_rate(c, "meta.first_done", an, fr, "first_done_count", fc, "first_done_ns", fn);
}

void ck_meta(const cJSON *doc, struct sm_check *c)
{
	const cJSON *ops = ck_at(doc, "meta.ops");
	double files = 0, size = 0, probe = 0, dur = 0, spans = 0, created, ranks = 0, set = 0;
	int interrupted = 0, complete, cleaned, shared = 0;

	if (!cJSON_IsObject(ops))
		return;
	ck_num(doc, "meta.ranks", &ranks);   /* an MPI job's merge */
	ck_bool(doc, "meta.shared", &shared);
	if (shared)
		ck_num(doc, "meta.set_files", &set);
	ck_num(doc, "params.files", &files);
	ck_num(doc, "params.size_bytes", &size);
	ck_num(doc, "params.probe_bytes", &probe);
	ck_bool(doc, "interrupted", &interrupted);
	complete = !interrupted && cJSON_GetArraySize(ck_at(doc, "errors")) == 0;
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const char *name = sm_meta_phase_name((enum sm_meta_phase)p);
		const cJSON *o = ck_at(ops, name);
		double n, err, d, r, bytes;
		char an[64];

		if (!o) {
			/* a complete run ran every phase, the probe exactly when the files have bytes */
			if (complete && (p != SM_META_PROBE || size > 0)) {
				snprintf(an, sizeof(an), "meta.ops.%s present", name);
				ck_eq(c, "meta.count", an, 0, "1 (a complete run)", 1);
			}
			continue;
		}
		double all = files * (ranks ? ranks : 1);   /* the job's files */

		if (!ck_num(o, "count", &n) || !ck_num(o, "errors", &err) ||
		    !ck_num(o, "duration_ns", &d))
			continue;
		spans += d;
		if (p == SM_META_LIST && shared)   /* each rank lists every rank's files */
			all = set * (ranks ? ranks : 1);
		if (ranks)
			ck_first_done(c, o, name, n, d);
		if (ck_num(o, "per_s", &r)) {
			snprintf(an, sizeof(an), "meta.ops.%s.per_s", name);
			ck_rate(c, "meta.rate", an, r, "count", n, "duration_ns", d);
		}
		if (complete) {
			snprintf(an, sizeof(an), "meta.ops.%s.count", name);
			ck_eq(c, "meta.count", an, n, ranks ? "the job's files" : "params.files", all);
			if (p == SM_META_PROBE)   /* nothing to probe at size 0 */
				ck_le(c, "meta.count", "1 (the probe ran)", 1, "params.size_bytes", size);
		} else {
			snprintf(an, sizeof(an), "meta.ops.%s.count", name);
			ck_le(c, "meta.count", an, n, ranks ? "the job's files" : "params.files", all);
		}
		snprintf(an, sizeof(an), "meta.ops.%s.bytes", name);
		if (!ck_num(o, "bytes", &bytes))
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
	if (!ranks && ck_num(doc, "duration_ns", &dur))
		ck_le(c, "meta.span", "the phases' duration_ns together", spans, "duration_ns", dur);
	if (complete && ck_num(doc, "meta.created", &created))
		ck_eq(c, "meta.count", "meta.created", created, ranks ? "the job's files" : "params.files",
		      files * (ranks ? ranks : 1));
	if (complete && ck_bool(doc, "meta.cleaned", &cleaned))
		ck_eq(c, "meta.count", "meta.cleaned", cleaned, "1 (a complete run removed its files)", 1);
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
