/* SPDX-License-Identifier: MIT */
/* The checker's shared parts: recording violations, tolerant readers of a
 * document's figures, comparisons, the latency objects and the `verify`
 * object every command may carry, and the dispatch by command. */
#include "check/check.h"
#include "check/check_int.h"
#include "core/hist.h"
#include "result/json_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct sm_check_inv *sm_check_inv_find(const char *id)
{
	for (unsigned i = 0; i < sm_check_ninv; i++)
		if (!strcmp(sm_check_invs[i].id, id))
			return &sm_check_invs[i];
	return NULL;
}

void sm_check_fail(struct sm_check *c, const char *id, const char *fmt, ...)
{
	const struct sm_check_inv *inv = sm_check_inv_find(id);
	struct sm_check_item *it;
	va_list ap;
	size_t off = 0;

	if (c->n >= SM_CHECK_MAX) {
		c->dropped++;
		return;
	}
	it = &c->item[c->n++];
	it->id = inv ? inv->id : "check.unknown-id";
	off = (size_t)snprintf(it->msg, sizeof(it->msg), "%s%s%s%s", c->prefix, inv ? "" : "(",
			       inv ? "" : id, inv ? "" : ") ");
	if (off >= sizeof(it->msg))
		off = sizeof(it->msg) - 1;
	va_start(ap, fmt);
	vsnprintf(it->msg + off, sizeof(it->msg) - off, fmt, ap);
	va_end(ap);
	/* one line, whatever a document's strings hold */
	for (char *s = it->msg; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* ---- reading ---- */

const cJSON *ck_at(const cJSON *o, const char *path)
{
	char key[96];

	while (o && *path) {
		size_t n = strcspn(path, ".");
		char *end;

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		path += n + (path[n] == '.');
		if (cJSON_IsArray(o) && key[0] >= '0' && key[0] <= '9') {
			unsigned long i = strtoul(key, &end, 10);

			o = *end || i > 1000000 ? NULL : cJSON_GetArrayItem(o, (int)i);
		} else {
			o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
		}
	}
	return o;
}

int ck_num(const cJSON *o, const char *path, double *v)
{
	const cJSON *x = ck_at(o, path);

	if (!cJSON_IsNumber(x))
		return 0;
	*v = x->valuedouble;
	return 1;
}

int ck_bool(const cJSON *o, const char *path, int *v)
{
	const cJSON *x = ck_at(o, path);

	if (!cJSON_IsBool(x))
		return 0;
	*v = cJSON_IsTrue(x);
	return 1;
}

const char *ck_str(const cJSON *o, const char *path)
{
	const cJSON *x = ck_at(o, path);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

int ck_u64(double x, uint64_t *v)
{
	if (!(x >= 0) || x >= 18446744073709551616.0 || x != floor(x))
		return 0;
	*v = (uint64_t)x;
	return 1;
}

int ck_sum(const cJSON *a, double *sum, unsigned *n)
{
	const cJSON *it;

	*sum = 0;
	*n = 0;
	if (!cJSON_IsArray(a))
		return 0;
	cJSON_ArrayForEach(it, a) {
		if (cJSON_IsNumber(it))
			*sum += it->valuedouble;
		(*n)++;
	}
	return 1;
}

/* ---- comparing ---- */

const char *ck_fmt(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
		return buf;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* Count one comparison; on failure record "AN is A, <rel> BN (B)" or, for
 * equality, "AN is A, BN is B". */
static int judge(struct sm_check *c, int ok, const char *id, const char *an, double a,
		 const char *rel, const char *bn, double b)
{
	char x[40], y[40];

	c->evaluated++;
	if (ok)
		return 1;
	if (rel)
		sm_check_fail(c, id, "%s is %s, %s %s (%s)", an, ck_fmt(x, sizeof(x), a), rel, bn,
			      ck_fmt(y, sizeof(y), b));
	else
		sm_check_fail(c, id, "%s is %s, %s is %s", an, ck_fmt(x, sizeof(x), a), bn,
			      ck_fmt(y, sizeof(y), b));
	return 0;
}

int ck_eq(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b)
{
	return judge(c, a == b, id, an, a, NULL, bn, b);
}

int ck_le(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b)
{
	return judge(c, a <= b, id, an, a, "above", bn, b);
}

int ck_near(struct sm_check *c, const char *id, const char *an, double a, const char *bn,
	    double b, double rel)
{
	double d = fabs(a - b), m = fmax(fabs(a), fabs(b));

	return judge(c, d <= rel * m || d <= 1e-9, id, an, a, NULL, bn, b);
}

double ck_per_s(double n, double ns)
{
	double secs = ns / 1e9;

	return secs > 0 ? n / secs : 0;
}

int ck_rate(struct sm_check *c, const char *id, const char *gn, double got, const char *nn,
	    double n, const char *dn, double ns)
{
	char want[200];

	snprintf(want, sizeof(want), "%s / %s", nn, dn);
	return ck_near(c, id, gn, got, want, ck_per_s(n, ns), 1e-9);
}

/* ---- latency objects ---- */

static const struct { const char *key; double p; } pcts[] = {
	{ "p50", 50 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 }, { "p99_9", 99.9 },
	{ "p99_99", 99.99 },
};

void ck_lat(const cJSON *o, const char *name, struct sm_check *c)
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

void ck_lats(const cJSON *o, const char *name, struct sm_check *c)
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

unsigned sm_check_doc(const cJSON *doc, struct sm_check *c)
{
	unsigned before = c->n + c->dropped;
	const char *cmd = ck_str(doc, "command");

	if (!cmd)
		return 0;
	ck_lats(doc, "", c);
	ck_totals(doc, c);
	ck_verify(doc, c);
	if (!strcmp(cmd, "frames"))
		ck_frames(doc, c);
	else if (!strcmp(cmd, "fileio"))
		ck_fileio(doc, c);
	else if (!strcmp(cmd, "time"))
		ck_time(doc, c);
	else if (!strcmp(cmd, "run")) {
		ck_run(doc, c);
		ck_run_meta(doc, c);
	}
	else if (!strcmp(cmd, "streams"))
		ck_streams(doc, c);
	else if (!strcmp(cmd, "meta"))
		ck_meta(doc, c);
	if (cJSON_IsObject(ck_at(doc, "mpi")))
		ck_mpi(doc, c);
	return c->n + c->dropped - before;
}
