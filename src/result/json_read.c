/* SPDX-License-Identifier: MIT */
/* Reading a saved result back: typed members, the common head (loading
 * and parsing: json_load.c). */
#include "result/json_read.h"

#include "result/field.h"
#include "core/stall.h"
#include "result/cliff.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sm_jerr_set(struct sm_jerr *e, const char *fmt, ...)
{
	va_list ap;

	if (e && !e->msg[0]) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const cJSON *member(const cJSON *obj, const char *key)
{
	return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

int sm_jget_double(const cJSON *obj, const char *key, double *v, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	if (!cJSON_IsNumber(m))
		return sm_jerr_set(e, "'%s' is missing or not a number", key);
	*v = m->valuedouble;
	return 0;
}

int sm_json_count(const cJSON *x, uint64_t *v)
{
	double d;

	if (!cJSON_IsNumber(x))
		return -EINVAL;
	d = x->valuedouble;
	if (!(d >= 0) || d != floor(d) || d >= 18446744073709551616.0)
		return -EINVAL;
	*v = (uint64_t)d;
	return 0;
}

int sm_jget_u64(const cJSON *obj, const char *key, uint64_t *v, struct sm_jerr *e)
{
	double d = 0;

	if (sm_jget_double(obj, key, &d, e))
		return -EINVAL;
	if (d < 0 || d != floor(d) || d >= 18446744073709551616.0)
		return sm_jerr_set(e, "'%s' is not a whole number >= 0", key);
	*v = (uint64_t)d;
	return 0;
}

int sm_jget_int(const cJSON *obj, const char *key, int *v, struct sm_jerr *e)
{
	double d = 0;

	if (sm_jget_double(obj, key, &d, e))
		return -EINVAL;
	if (d != floor(d) || d < -2147483648.0 || d > 2147483647.0)
		return sm_jerr_set(e, "'%s' is not a whole number", key);
	*v = (int)d;
	return 0;
}

int sm_jget_uint(const cJSON *obj, const char *key, unsigned *v, struct sm_jerr *e)
{
	uint64_t u = 0;

	if (sm_jget_u64(obj, key, &u, e))
		return -EINVAL;
	if (u > UINT32_MAX)
		return sm_jerr_set(e, "'%s' is too large", key);
	*v = (unsigned)u;
	return 0;
}

int sm_jget_bool(const cJSON *obj, const char *key, int *v, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	if (!cJSON_IsBool(m))
		return sm_jerr_set(e, "'%s' is missing or not true/false", key);
	*v = cJSON_IsTrue(m);
	return 0;
}

int sm_jget_str(const cJSON *obj, const char *key, char *buf, size_t len, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	if (!cJSON_IsString(m))
		return sm_jerr_set(e, "'%s' is missing or not a string", key);
	if (strlen(m->valuestring) >= len)
		return sm_jerr_set(e, "'%s' is too long", key);
	memcpy(buf, m->valuestring, strlen(m->valuestring) + 1);
	return 0;
}

int sm_jget_strdup(const cJSON *obj, const char *key, char **v, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	*v = NULL;
	if (cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsString(m))
		return sm_jerr_set(e, "'%s' is missing or not a string", key);
	*v = strdup(m->valuestring);
	return *v ? 0 : -ENOMEM;
}

const cJSON *sm_jget_obj(const cJSON *obj, const char *key, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	if (!cJSON_IsObject(m)) {
		sm_jerr_set(e, "'%s' is missing or not an object", key);
		return NULL;
	}
	return m;
}

const cJSON *sm_jget_arr(const cJSON *obj, const char *key, struct sm_jerr *e)
{
	const cJSON *m = member(obj, key);

	if (!cJSON_IsArray(m)) {
		sm_jerr_set(e, "'%s' is missing or not an array", key);
		return NULL;
	}
	return m;
}

int sm_jget_columns(const cJSON *obj, const char *const *keys, unsigned nkeys,
		    const cJSON **out, struct sm_jerr *e)
{
	int n = -1;

	for (unsigned k = 0; k < nkeys; k++) {
		out[k] = sm_jget_arr(obj, keys[k], e);
		if (!out[k])
			return -EINVAL;
		if (n >= 0 && cJSON_GetArraySize(out[k]) != n)
			return sm_jerr_set(e, "the series arrays differ in length");
		n = cJSON_GetArraySize(out[k]);
	}
	return n < 0 ? 0 : n;
}

/* environment.engine_setup: absent (an engine with nothing to report, or
 * a result from before it) or null leave it unreported; an unknown flag
 * name is skipped (a newer stormark's). */
static int read_esetup(const cJSON *o, struct sm_engine_setup *s, struct sm_jerr *e)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, "engine_setup"), *f;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!x || cJSON_IsNull(x))
		return 0;
	if (!cJSON_IsObject(x))
		return sm_jerr_set(e, "'engine_setup' is not an object or null");
	s->reported = 1;
	rc |= sm_jget_uint(x, "rings", &s->rings, e);
	rc |= sm_jget_uint(x, "sq_entries", &s->sq_entries, e);
	if (cJSON_GetObjectItemCaseSensitive(x, "submit_batch"))   /* absent before it */
		rc |= sm_jget_uint(x, "submit_batch", &s->submit_batch, e);
	rc |= sm_jget_bool(x, "registered_buffers", &s->registered_buffers, e);
	rc |= sm_jget_bool(x, "registered_files", &s->registered_files, e);
	rc |= sm_jget_bool(x, "registered_ring_fd", &s->registered_ring_fd, e);
	f = sm_jget_arr(x, "flags", e);
	if (!f)
		return -EINVAL;
	for (const cJSON *n = f->child; n; n = n->next) {
		int bit = cJSON_IsString(n) ? sm_esetup_bit(n->valuestring) : -1;

		if (!cJSON_IsString(n))
			return sm_jerr_set(e, "'engine_setup.flags' holds a non-string");
		if (bit >= 0)
			s->flags |= 1u << bit;
	}
	return rc ? -EINVAL : 0;
}

int sm_json_read_env(const cJSON *o, struct sm_env *env, struct sm_jerr *e)
{
	int rc = 0;

	memset(env, 0, sizeof(*env));
	if (!o)
		return sm_jerr_set(e, "'environment' is missing or not an object");
	rc |= sm_jget_str(o, "kernel", env->kernel, sizeof(env->kernel), e);
	rc |= sm_jget_str(o, "fs_type", env->fs.fs_type, sizeof(env->fs.fs_type), e);
	rc |= sm_jget_str(o, "device", env->fs.device, sizeof(env->fs.device), e);
	rc |= sm_jget_str(o, "mount_point", env->fs.mount_point, sizeof(env->fs.mount_point), e);
	if (cJSON_GetObjectItemCaseSensitive(o, "mount"))   /* saved before it: none */
		rc |= sm_json_read_mount(sm_jget_obj(o, "mount", e), &env->fs.mount, e);
	rc |= sm_jget_u64(o, "fs_free_bytes", &env->fs.free_bytes, e);
	rc |= sm_jget_u64(o, "fs_total_bytes", &env->fs.total_bytes, e);
	rc |= sm_jget_bool(o, "direct_io", &env->direct_io, e);
	rc |= sm_jget_str(o, "engine", env->engine, sizeof(env->engine), e);
	rc |= read_esetup(o, &env->engine_setup, e);
	rc |= sm_jget_u64(o, "mem_total_bytes", &env->mem_total_bytes, e);
	rc |= sm_jget_u64(o, "mem_available_bytes", &env->mem_available_bytes, e);
	rc |= sm_jget_uint(o, "cpus", &env->cpus, e);
	/* results saved before the CPU was recorded have neither */
	if (cJSON_GetObjectItemCaseSensitive(o, "arch"))
		rc |= sm_jget_str(o, "arch", env->arch, sizeof(env->arch), e);
	if (cJSON_GetObjectItemCaseSensitive(o, "cpu_model"))
		rc |= sm_jget_str(o, "cpu_model", env->cpu_model, sizeof(env->cpu_model), e);
	/* a result saved before the host was recorded has none */
	if (cJSON_GetObjectItemCaseSensitive(o, "host"))
		rc |= sm_jget_str(o, "host", env->host, sizeof(env->host), e);
	return rc ? -EINVAL : 0;
}

int sm_json_read_lat(const cJSON *o, struct sm_hist *h, struct sm_jerr *e)
{
	const cJSON *hist = sm_jget_obj(o, "histogram", e), *counts, *pair;
	double m2 = 0;
	unsigned bits = 0;
	int rc = 0;

	sm_hist_init(h);
	if (!hist)
		return -EINVAL;
	counts = sm_jget_arr(hist, "counts", e);
	rc |= sm_jget_uint(hist, "sub_bits", &bits, e);
	rc |= sm_jget_u64(hist, "sum", &h->sum, e);
	rc |= sm_jget_double(hist, "m2", &m2, e);
	if (rc || !counts)
		return -EINVAL;
	if (bits != SM_HIST_SUB_BITS)
		return sm_jerr_set(e, "a histogram has %u sub-bucket bits; this stormark uses %d",
				   bits, SM_HIST_SUB_BITS);
	cJSON_ArrayForEach(pair, counts) {
		uint64_t lo, n;
		unsigned i;

		if (cJSON_GetArraySize(pair) != 2 || sm_json_count(cJSON_GetArrayItem(pair, 0), &lo) ||
		    sm_json_count(cJSON_GetArrayItem(pair, 1), &n) || n < 1)
			return sm_jerr_set(e, "a histogram bucket is not [low_ns, count]");
		i = sm_hist_index(lo);
		if (sm_hist_bucket_low(i) != lo)
			return sm_jerr_set(e, "a histogram bucket starts at %llu ns, not a bucket "
					   "boundary", (unsigned long long)lo);
		h->buckets[i] += n;
		h->count += n;
	}
	if (h->count) {
		rc |= sm_jget_u64(o, "min", &h->min, e);
		rc |= sm_jget_u64(o, "max", &h->max, e);
		sm_hist_set_m2(h, m2);
	}
	return rc ? -EINVAL : 0;
}

int sm_json_read_opstat(const cJSON *o, struct sm_opstat *s, struct sm_jerr *e)
{
	int rc = 0;

	sm_opstat_init(s);
	if (!o)
		return sm_jerr_set(e, "an operation object is missing");
	for (unsigned i = 0; i < SM_OPF_N; i++)
		rc |= sm_field_get(o, &sm_opstat_fields[i], s, e);
	return rc ? -EINVAL : 0;
}

static int read_warnings(const cJSON *a, struct sm_warnings *w, struct sm_jerr *e)
{
	const cJSON *it;

	memset(w, 0, sizeof(*w));
	if (!a)
		return -EINVAL;
	cJSON_ArrayForEach(it, a) {
		if (w->count >= SM_MAX_WARNINGS)
			return sm_jerr_set(e, "more than %d warnings", SM_MAX_WARNINGS);
		if (sm_jget_str(it, "code", w->item[w->count].code, sizeof(w->item[0].code), e) ||
		    sm_jget_str(it, "message", w->item[w->count].message,
				sizeof(w->item[0].message), e))
			return -EINVAL;
		w->count++;
	}
	return 0;
}

int sm_json_read_head(const cJSON *doc, struct sm_result_head *h, struct sm_jerr *e)
{
	const struct sm_field *H = sm_head_fields;
	const cJSON *argv = sm_jget_arr(doc, H[SM_HD_ARGV].key, e), *errs, *it;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	rc |= sm_field_get(doc, &H[SM_HD_COMMAND], h, e);
	rc |= sm_jget_str(sm_jget_obj(doc, H[SM_HD_TOOL].key, e), "version", h->version,
			  sizeof(h->version), e);
	rc |= sm_field_get(doc, &H[SM_HD_STARTED_AT], h, e);
	rc |= sm_field_get(doc, &H[SM_HD_DURATION], h, e);
	rc |= sm_field_get(doc, &H[SM_HD_INTERRUPTED], h, e);
	rc |= sm_json_read_env(sm_jget_obj(doc, H[SM_HD_ENVIRONMENT].key, e), &h->env, e);
	rc |= read_warnings(sm_jget_arr(doc, H[SM_HD_WARNINGS].key, e), &h->warnings, e);
	errs = sm_jget_arr(doc, H[SM_HD_ERRORS].key, e);
	if (rc || !argv || !errs)
		return -EINVAL;
	it = cJSON_GetArrayItem(errs, 0);
	if (it && (!cJSON_IsString(it) || strlen(it->valuestring) >= sizeof(h->error)))
		return sm_jerr_set(e, "'%s' holds something other than a short string",
				   H[SM_HD_ERRORS].key);
	if (it)
		memcpy(h->error, it->valuestring, strlen(it->valuestring) + 1);
	h->argv = calloc((size_t)cJSON_GetArraySize(argv) + 1, sizeof(char *));
	if (!h->argv)
		return -ENOMEM;
	h->argv_owned = 1;
	cJSON_ArrayForEach(it, argv) {
		if (!cJSON_IsString(it))
			return sm_jerr_set(e, "'%s' holds something other than strings", H[SM_HD_ARGV].key);
		h->argv[h->argc] = strdup(it->valuestring);
		if (!h->argv[h->argc])
			return -ENOMEM;
		h->argc++;
	}
	return 0;
}

int sm_json_read_stalls(const cJSON *o, struct sm_stalls *s, struct sm_jerr *e)
{
	const cJSON *l, *g;
	uint64_t threshold = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!cJSON_GetObjectItemCaseSensitive(o, "stall_longest_ns"))
		return 0;
	s->period_ns = SM_STALL_PERIOD_NS;
	rc |= sm_jget_u64(o, "stall_longest_ns", &s->longest_ns, e);
	rc |= sm_jget_u64(o, "stall_threshold_ns", &threshold, e);
	rc |= sm_jget_u64(o, "stall_gaps", &s->gaps, e);
	l = rc ? NULL : sm_jget_arr(o, "stall_list", e);
	if (!l)
		return -EINVAL;
	cJSON_ArrayForEach(g, l) {
		const cJSON *a = cJSON_GetArrayItem(g, 0), *b = cJSON_GetArrayItem(g, 1);

		if (!cJSON_IsArray(g) || cJSON_GetArraySize(g) != 2 || !cJSON_IsNumber(a) ||
		    !cJSON_IsNumber(b) || a->valuedouble < 0 ||
		    b->valuedouble < (double)SM_STALL_FLOOR_NS || s->nkept == SM_STALL_KEEP ||
		    (s->nkept && b->valuedouble > (double)s->kept[s->nkept - 1].len_ns))
			return sm_jerr_set(e, "'stall_list' is not a list of [at_ns, len_ns] "
				       "gaps of at least the floor, longest first");
		s->kept[s->nkept].at_ns = (uint64_t)a->valuedouble;
		s->kept[s->nkept].len_ns = (uint64_t)b->valuedouble;
		s->nkept++;
	}
	if (s->nkept > s->gaps)
		return sm_jerr_set(e, "'stall_list' holds more gaps than 'stall_gaps'");
	s->measured = 1;
	sm_stalls_count(s, threshold);
	return 0;
}

int sm_json_read_cliff(const cJSON *o, struct sm_cliff *c, struct sm_jerr *e)
{
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!cJSON_IsObject(o))
		return sm_jerr_set(e, "'cliff' is not an object");
	rc |= sm_jget_bool(o, "looked", &c->looked, e);
	rc |= sm_jget_bool(o, "found", &c->found, e);
	rc |= sm_jget_uint(o, "samples", &c->samples, e);
	rc |= sm_jget_u64(o, "interval_ns", &c->interval_ns, e);
	if (!rc && c->found && !c->looked)
		return sm_jerr_set(e, "'cliff' is found without being looked for");
	if (!rc && c->looked) {
		rc |= sm_jget_double(o, "t", &c->t, e);
		rc |= sm_jget_double(o, "split_ratio", &c->split_ratio, e);
	}
	if (!rc && c->found) {
		rc |= sm_jget_double(o, "burst_bytes_per_s", &c->burst_bytes_per_s, e);
		rc |= sm_jget_double(o, "sustained_bytes_per_s", &c->sustained_bytes_per_s, e);
		rc |= sm_jget_double(o, "ratio", &c->ratio, e);
		rc |= sm_jget_u64(o, "at_ns", &c->at_ns, e);
		rc |= sm_jget_u64(o, "bytes_at", &c->bytes_at, e);
	}
	return rc ? -EINVAL : 0;
}
