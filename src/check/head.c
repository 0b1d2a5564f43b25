/* SPDX-License-Identifier: MIT */
/* The checks every result gets, whatever its command: its latency objects
 * and operation entries, its totals' rates and its `verify` object. */
#include "check/body.h"
#include "core/hist.h"
#include "result/json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- latency objects ---- */

static const struct { const char *key; double p; } pcts[] = {
	{ "p50", 50 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 }, { "p99_9", 99.9 },
	{ "p99_99", 99.99 },
};

static void ck_lat(const cJSON *o, const char *name, struct sm_check *c)
{
	struct sm_hist *h;
	struct sm_jerr e = { { 0 } };
	char an[160], bn[160];
	double v, prev = -1, lo = 0, hi = 0;
	unsigned first = SM_HIST_BUCKETS, last = 0;

	if (!cJSON_IsObject(ck_at(o, "histogram")))
		return;
	h = malloc(sizeof(*h));
	if (!h)
		return;
	/* what the reader restores is what the reporters print from */
	if (sm_json_read_lat(o, h, &e)) {
		free(h);
		return;
	}
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		if (first == SM_HIST_BUCKETS)
			first = i;
		last = i;
		lo += (double)h->buckets[i] * (double)sm_hist_bucket_low(i);
		hi += (double)h->buckets[i] * (double)sm_hist_bucket_high(i);
	}
	if (h->count) {
		/* min in the first bucket, max in the last, the exact sum
		 * between the buckets' bounds */
		snprintf(an, sizeof(an), "%s.min", name);
		snprintf(bn, sizeof(bn), "the low bound of its first bucket");
		ck_le(c, "lat.histogram", bn, (double)sm_hist_bucket_low(first), an, (double)h->min);
		snprintf(bn, sizeof(bn), "the high bound of its first bucket");
		ck_le(c, "lat.histogram", an, (double)h->min, bn, (double)sm_hist_bucket_high(first));
		snprintf(an, sizeof(an), "%s.max", name);
		snprintf(bn, sizeof(bn), "the low bound of its last bucket");
		ck_le(c, "lat.histogram", bn, (double)sm_hist_bucket_low(last), an, (double)h->max);
		snprintf(bn, sizeof(bn), "the high bound of its last bucket");
		ck_le(c, "lat.histogram", an, (double)h->max, bn, (double)sm_hist_bucket_high(last));
		snprintf(an, sizeof(an), "%s.histogram.sum", name);
		ck_le(c, "lat.histogram", "the buckets' low bounds times their counts", lo, an,
		      (double)h->sum * (1 + 1e-12));
		ck_le(c, "lat.histogram", an, (double)h->sum * (1 - 1e-12),
		      "the buckets' high bounds times their counts", hi);
		if (ck_num(o, "mean", &v)) {
			snprintf(an, sizeof(an), "%s.mean", name);
			ck_near(c, "lat.figures", an, v, "histogram.sum / its count", sm_hist_mean(h),
				1e-12);
		}
		if (ck_num(o, "stddev", &v)) {
			snprintf(an, sizeof(an), "%s.stddev", name);
			ck_near(c, "lat.figures", an, v, "the stddev of its histogram.m2",
				sm_hist_stddev(h), 1e-6);
		}
	}
	for (unsigned i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		if (!ck_num(o, pcts[i].key, &v))
			continue;
		snprintf(an, sizeof(an), "%s.%s", name, pcts[i].key);
		snprintf(bn, sizeof(bn), "its histogram's p%g", pcts[i].p);
		ck_eq(c, "lat.figures", an, v, bn, (double)sm_hist_percentile(h, pcts[i].p));
		if (h->count && prev >= 0) {
			snprintf(bn, sizeof(bn), "%s.%s", name, pcts[i - 1].key);
			ck_le(c, "lat.order", bn, prev, an, v);
		}
		prev = v;
	}
	if (h->count && prev >= 0) {
		snprintf(an, sizeof(an), "%s.p99_99", name);
		snprintf(bn, sizeof(bn), "%s.max", name);
		ck_le(c, "lat.order", an, prev, bn, (double)h->max);
	}
	free(h);
}

/* o is an operation entry: {"count", "bytes", "errors", "lat_ns"}. */
static void ck_op(const cJSON *o, const char *name, struct sm_check *c)
{
	const cJSON *counts = ck_at(o, "lat_ns.histogram.counts"), *pair;
	double count, errors, n = 0;
	char an[160];

	if (!ck_num(o, "count", &count) || !ck_num(o, "errors", &errors) || !cJSON_IsArray(counts))
		return;
	cJSON_ArrayForEach(pair, counts) {
		const cJSON *k = cJSON_GetArrayItem(pair, 1);

		if (cJSON_IsNumber(k))
			n += k->valuedouble;
	}
	snprintf(an, sizeof(an), "%s.lat_ns histogram's counts", name);
	ck_eq(c, "ops.timed", an, n, "its count less its errors", count - errors);
}

static void ck_lats(const cJSON *o, const char *name, struct sm_check *c)
{
	const cJSON *it;
	char sub[200];
	int i = 0;

	if (cJSON_IsObject(o)) {
		if (cJSON_IsObject(ck_at(o, "histogram")) && ck_at(o, "p50")) {
			ck_lat(o, name, c);
			return;
		}
		if (cJSON_IsObject(ck_at(o, "lat_ns")) && ck_at(o, "count"))
			ck_op(o, name, c);
	}
	if (!cJSON_IsObject(o) && !cJSON_IsArray(o))
		return;
	cJSON_ArrayForEach(it, o) {
		if (cJSON_IsObject(o)) {
			if (!strcmp(it->string, "mpi"))
				continue;   /* the ranks' documents are checked as documents */
			snprintf(sub, sizeof(sub), "%s%s%s", name, *name ? "." : "", it->string);
		} else {
			snprintf(sub, sizeof(sub), "%s[%d]", name, i++);
		}
		ck_lats(it, sub, c);
	}
}

/* ---- verify (fileio, frames) ---- */

static void ck_verify(const cJSON *doc, struct sm_check *c)
{
	const cJSON *v = ck_at(doc, "verify");
	double blk, sealed, checked, seal_ns, check_ns, share, r, dur, threads = 1, pb, pn, whole;

	if (!cJSON_IsObject(v))
		return;
	/* the whole is the run's threads' time and the read-back pass's, whose
	 * checking is in check_ns too (docs/json-schema.md) */
	if (ck_num(v, "hash_share", &share)) {
		ck_le(c, "verify.share", "verify.hash_share", share, "the whole (1)", 1);
		if (!ck_num(v, "pass_ns", &pn))
			pn = 0;
		if (ck_num(v, "seal_ns", &seal_ns) && ck_num(v, "check_ns", &check_ns) &&
		    ck_num(doc, "duration_ns", &dur) &&
		    (ck_num(doc, "params.threads", &threads) || 1) &&
		    (whole = dur * (threads > 0 ? threads : 1) + pn) > 0)
			ck_near(c, "verify.share", "verify.hash_share", share,
				"(seal_ns + check_ns) / (duration_ns x params.threads + pass_ns)",
				(seal_ns + check_ns) / whole, 1e-9);
	}
	if (ck_num(v, "block_bytes", &blk)) {
		if (ck_num(v, "blocks_sealed", &sealed) && ck_num(v, "seal_ns", &seal_ns) &&
		    ck_num(v, "seal_bytes_per_s", &r))
			ck_rate(c, "verify.rate", "verify.seal_bytes_per_s", r,
				"blocks_sealed x block_bytes", sealed * blk, "seal_ns", seal_ns);
		if (ck_num(v, "blocks_checked", &checked) && ck_num(v, "check_ns", &check_ns) &&
		    ck_num(v, "check_bytes_per_s", &r))
			ck_rate(c, "verify.rate", "verify.check_bytes_per_s", r,
				"blocks_checked x block_bytes", checked * blk, "check_ns", check_ns);
	}
	if (ck_num(v, "pass_bytes", &pb) && ck_num(v, "pass_ns", &pn) &&
	    ck_num(v, "pass_bytes_per_s", &r))
		ck_rate(c, "verify.rate", "verify.pass_bytes_per_s", r, "verify.pass_bytes", pb,
			"verify.pass_ns", pn);
}

/* ---- the head ---- */

/* totals' rates over duration_ns, and totals.items_per_s's frames or events. */
static void ck_totals(const cJSON *doc, struct sm_check *c)
{
	double dur, n, r;

	if (!ck_num(doc, "duration_ns", &dur))
		return;
	if (ck_num(doc, "totals.items", &n) && ck_num(doc, "totals.items_per_s", &r))
		ck_rate(c, "totals.rate", "totals.items_per_s", r, "totals.items", n, "duration_ns",
			dur);
	if (ck_num(doc, "totals.bytes", &n) && ck_num(doc, "totals.bytes_per_s", &r))
		ck_rate(c, "totals.rate", "totals.bytes_per_s", r, "totals.bytes", n, "duration_ns",
			dur);
}

void ck_head(const cJSON *doc, struct sm_check *c)
{
	ck_lats(doc, "", c);
	ck_totals(doc, c);
	ck_verify(doc, c);
}
