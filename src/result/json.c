/* SPDX-License-Identifier: MIT */
/* Shared JSON building blocks. */
#include "result/json.h"

#include "result/field.h"
#include "core/stall.h"
#include "result/cliff.h"
#include "result/frames.h"
#include "core/clock.h"
#include "core/msg.h"
#include "core/outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *sm_json_u64(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return cJSON_CreateRaw(buf);
}

void sm_json_add_u64(cJSON *obj, const char *key, uint64_t v)
{
	cJSON_AddItemToObject(obj, key, sm_json_u64(v));
}

cJSON *sm_json_double(double v)
{
	char buf[32];

	if (!isfinite(v))
		return cJSON_CreateNull();
	/* the shortest form that reads back as the same double: cJSON's own
	 * printing accepts a near miss, which would change figures derived
	 * from the numbers when a saved result is rendered again */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return cJSON_CreateRaw(buf);
}

void sm_json_add_double(cJSON *obj, const char *key, double v)
{
	cJSON_AddItemToObject(obj, key, sm_json_double(v));
}

int sm_json_renumber(cJSON *o)
{
	for (cJSON *c = o->child, *next; c; c = next) {
		next = c->next;
		if (cJSON_IsNumber(c)) {
			double v = c->valuedouble;
			cJSON *n = v >= 0 && v < 9223372036854775808.0 && v == floor(v)
					   ? sm_json_u64((uint64_t)v) : sm_json_double(v);

			/* in an object the replacement takes the key over */
			if (!n || !(cJSON_IsObject(o) ? cJSON_ReplaceItemInObjectCaseSensitive(o, c->string, n)
						      : cJSON_ReplaceItemViaPointer(o, c, n))) {
				cJSON_Delete(n);
				return -ENOMEM;
			}
		} else if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && sm_json_renumber(c)) {
			return -ENOMEM;
		}
	}
	return 0;
}

cJSON *sm_json_dup_saved(const cJSON *o)
{
	cJSON *d = cJSON_Duplicate(o, 1);

	if (d && sm_json_renumber(d)) {
		cJSON_Delete(d);
		return NULL;
	}
	return d;
}

static int has_ctl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* Does any string under o hold a control character? */
static int any_ctl(const cJSON *o)
{
	for (const cJSON *c = o; c; c = c->next) {
		if (cJSON_IsString(c) && c->valuestring && has_ctl(c->valuestring))
			return 1;
		if (c->child && any_ctl(c->child))
			return 1;
	}
	return 0;
}

/* Escape every string under o in place. 0 or -ENOMEM. */
static int escape_strings(cJSON *o)
{
	for (cJSON *c = o; c; c = c->next) {
		if (cJSON_IsString(c) && c->valuestring && has_ctl(c->valuestring)) {
			size_t len = 4 * strlen(c->valuestring) + 1;   /* \xHH at most per byte */
			char *e = malloc(len);

			if (!e)
				return -ENOMEM;
			(void)sm_escape_ctl(e, len, c->valuestring);   /* len always suffices */
			free(c->valuestring);
			c->valuestring = e;
		}
		if (c->child && escape_strings(c->child))
			return -ENOMEM;
	}
	return 0;
}

int sm_json_escaped_copy(const cJSON *doc, cJSON **copy)
{
	*copy = NULL;
	if (!doc || !any_ctl(doc->child))
		return 0;
	*copy = cJSON_Duplicate(doc, 1);
	if (*copy && !escape_strings((*copy)->child))
		return 0;
	cJSON_Delete(*copy);
	*copy = NULL;
	return -ENOMEM;
}

#define HD struct sm_result_head
#define OPT SM_FF_OPTIONAL
const struct sm_field sm_head_fields[SM_HD_N] = {
	[SM_HD_SCHEMA_VERSION] = SM_FIELD_X("schema_version", SM_FT_U64, "", 0),
	[SM_HD_TOOL] = SM_FIELD_X("tool", SM_FT_OBJ, "", 0),
	[SM_HD_COMMAND] = SM_FIELD("command", SM_FT_STR, "", HD, command, 0),
	[SM_HD_ARGV] = SM_FIELD_X("argv", SM_FT_ARR, "", 0),
	[SM_HD_STARTED_AT] = SM_FIELD("started_at", SM_FT_STR, "", HD, started_at, 0),
	[SM_HD_DURATION] = SM_FIELD("duration_ns", SM_FT_U64, "ns", HD, duration_ns, 0),
	[SM_HD_INTERRUPTED] = SM_FIELD("interrupted", SM_FT_BOOL, "", HD, interrupted, 0),
	[SM_HD_ENVIRONMENT] = SM_FIELD_X("environment", SM_FT_OBJ, "", 0),
	[SM_HD_PARAMS] = SM_FIELD_X("params", SM_FT_OBJ, "", 0),
	[SM_HD_WARNINGS] = SM_FIELD_X("warnings", SM_FT_ARR, "", 0),
	[SM_HD_ERRORS] = SM_FIELD_X("errors", SM_FT_ARR, "", 0),
	[SM_HD_VERIFY] = SM_FIELD_X("verify", SM_FT_OBJ, "", OPT),
	[SM_HD_CLIFF] = SM_FIELD_X("cliff", SM_FT_OBJ, "", OPT),
	[SM_HD_STEADY] = SM_FIELD_X("steady", SM_FT_OBJ, "", OPT),
	[SM_HD_PRECONDITION] = SM_FIELD_X("precondition", SM_FT_OBJ, "", OPT),
	[SM_HD_MPI] = SM_FIELD_X("mpi", SM_FT_OBJ, "", OPT),
};
#undef HD
#undef OPT

cJSON *sm_json_doc_new(const struct sm_result_head *h)
{
	const struct sm_field *H = sm_head_fields;
	cJSON *doc = cJSON_CreateObject(), *tool, *args;

	if (!doc)
		return NULL;
	cJSON_AddNumberToObject(doc, H[SM_HD_SCHEMA_VERSION].key, SM_SCHEMA_VERSION);
	tool = cJSON_AddObjectToObject(doc, H[SM_HD_TOOL].key);
	cJSON_AddStringToObject(tool, "name", "stormark");
	cJSON_AddStringToObject(tool, "version", h->version);
	sm_field_put(doc, &H[SM_HD_COMMAND], h);
	args = cJSON_AddArrayToObject(doc, H[SM_HD_ARGV].key);
	for (int i = 0; i < h->argc; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(h->argv[i]));
	sm_field_put(doc, &H[SM_HD_STARTED_AT], h);
	sm_field_put(doc, &H[SM_HD_DURATION], h);
	sm_field_put(doc, &H[SM_HD_INTERRUPTED], h);
	cJSON_AddItemToObject(doc, H[SM_HD_ENVIRONMENT].key, sm_json_env(&h->env));
	return doc;
}

void sm_json_doc_finish(cJSON *doc, const struct sm_result_head *h)
{
	cJSON *errs;

	cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_WARNINGS].key, sm_json_warnings(&h->warnings));
	errs = cJSON_AddArrayToObject(doc, sm_head_fields[SM_HD_ERRORS].key);
	if (h->error[0])
		cJSON_AddItemToArray(errs, cJSON_CreateString(h->error));
}

/* environment.engine_setup, for an engine that reports it (uring). */
static cJSON *json_esetup(const struct sm_engine_setup *s)
{
	cJSON *o = cJSON_CreateObject(), *flags;

	cJSON_AddNumberToObject(o, "rings", s->rings);
	flags = cJSON_AddArrayToObject(o, "flags");
	for (unsigned b = 0; sm_esetup_name(b); b++)
		if (s->flags & (1u << b))
			cJSON_AddItemToArray(flags, cJSON_CreateString(sm_esetup_name(b)));
	cJSON_AddNumberToObject(o, "sq_entries", s->sq_entries);
	if (s->submit_batch)
		cJSON_AddNumberToObject(o, "submit_batch", s->submit_batch);
	cJSON_AddBoolToObject(o, "registered_buffers", s->registered_buffers);
	cJSON_AddBoolToObject(o, "registered_files", s->registered_files);
	cJSON_AddBoolToObject(o, "registered_ring_fd", s->registered_ring_fd);
	return o;
}

cJSON *sm_json_env(const struct sm_env *env)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kernel", env->kernel);
	cJSON_AddStringToObject(o, "fs_type", env->fs.fs_type);
	cJSON_AddStringToObject(o, "device", env->fs.device);
	cJSON_AddStringToObject(o, "mount_point", env->fs.mount_point);
	if (env->fs.mount.protocol[0])   /* absent in results saved before it */
		cJSON_AddItemToObject(o, "mount", sm_json_mount(&env->fs.mount));
	sm_json_add_u64(o, "fs_free_bytes", env->fs.free_bytes);
	sm_json_add_u64(o, "fs_total_bytes", env->fs.total_bytes);
	cJSON_AddBoolToObject(o, "direct_io", env->direct_io);
	cJSON_AddStringToObject(o, "engine", env->engine);
	if (env->engine_setup.reported)   /* absent for psync, mmap, null */
		cJSON_AddItemToObject(o, "engine_setup", json_esetup(&env->engine_setup));
	sm_json_add_u64(o, "mem_total_bytes", env->mem_total_bytes);
	sm_json_add_u64(o, "mem_available_bytes", env->mem_available_bytes);
	cJSON_AddNumberToObject(o, "cpus", env->cpus);
	if (env->arch[0])   /* absent in a result saved before it, written back so */
		cJSON_AddStringToObject(o, "arch", env->arch);
	if (env->cpu_model[0])
		cJSON_AddStringToObject(o, "cpu_model", env->cpu_model);
	if (env->host[0])   /* a result saved before it had none: written back without */
		cJSON_AddStringToObject(o, "host", env->host);
	return o;
}

cJSON *sm_json_lat(const struct sm_hist *h, int with_buckets)
{
	static const struct { const char *key; double p; } pct[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 },
		{ "p99_9", 99.9 }, { "p99_99", 99.99 },
	};
	cJSON *o = cJSON_CreateObject();

	sm_json_add_u64(o, "min", h->count ? h->min : 0);
	sm_json_add_double(o, "mean", sm_hist_mean(h));
	sm_json_add_u64(o, "max", h->max);
	sm_json_add_double(o, "stddev", sm_hist_stddev(h));
	for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		sm_json_add_u64(o, pct[i].key, sm_hist_percentile(h, pct[i].p));
	if (with_buckets) {
		cJSON *hist = cJSON_AddObjectToObject(o, "histogram");
		cJSON *counts;

		cJSON_AddNumberToObject(hist, "sub_bits", SM_HIST_SUB_BITS);
		sm_json_add_u64(hist, "sum", h->sum);
		sm_json_add_double(hist, "m2", sm_hist_m2(h));
		counts = cJSON_AddArrayToObject(hist, "counts");
		for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
			cJSON *pair;

			if (!h->buckets[i])
				continue;
			pair = cJSON_CreateArray();
			cJSON_AddItemToArray(pair, sm_json_u64(sm_hist_bucket_low(i)));
			cJSON_AddItemToArray(pair, sm_json_u64(h->buckets[i]));
			cJSON_AddItemToArray(counts, pair);
		}
	}
	return o;
}

const struct sm_field sm_opstat_fields[SM_OPF_N] = {
	[SM_OPF_COUNT] = SM_FIELD("count", SM_FT_U64, "", struct sm_opstat, count, 0),
	[SM_OPF_BYTES] = SM_FIELD("bytes", SM_FT_U64, "bytes", struct sm_opstat, bytes, 0),
	[SM_OPF_ERRORS] = SM_FIELD("errors", SM_FT_U64, "", struct sm_opstat, errors, 0),
	[SM_OPF_LAT] = SM_FIELD("lat_ns", SM_FT_LAT, "ns", struct sm_opstat, lat, 0),
};

cJSON *sm_json_opstat(const struct sm_opstat *s, int with_buckets)
{
	const struct sm_field *F = sm_opstat_fields;
	cJSON *o = cJSON_CreateObject();

	sm_field_put(o, &F[SM_OPF_COUNT], s);
	sm_field_put(o, &F[SM_OPF_BYTES], s);
	sm_field_put(o, &F[SM_OPF_ERRORS], s);
	cJSON_AddItemToObject(o, F[SM_OPF_LAT].key, sm_json_lat(&s->lat, with_buckets));
	return o;
}

static void add_or_null(cJSON *o, const char *key, int have, double v)
{
	if (have)
		sm_json_add_double(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *sm_json_cliff(const struct sm_cliff *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddBoolToObject(o, "looked", c->looked);
	cJSON_AddBoolToObject(o, "found", c->found);
	sm_json_add_u64(o, "samples", c->samples);
	sm_json_add_u64(o, "interval_ns", c->interval_ns);
	add_or_null(o, "t", c->looked, c->t);
	add_or_null(o, "split_ratio", c->looked, c->split_ratio);
	add_or_null(o, "burst_bytes_per_s", c->found, c->burst_bytes_per_s);
	add_or_null(o, "sustained_bytes_per_s", c->found, c->sustained_bytes_per_s);
	add_or_null(o, "ratio", c->found, c->ratio);
	if (c->found) {
		sm_json_add_u64(o, "at_ns", c->at_ns);
		sm_json_add_u64(o, "bytes_at", c->bytes_at);
	} else {
		cJSON_AddNullToObject(o, "at_ns");
		cJSON_AddNullToObject(o, "bytes_at");
	}
	return o;
}

void sm_json_add_stalls(cJSON *o, const struct sm_stalls *s)
{
	cJSON *l;

	if (!s->measured)
		return;
	sm_json_add_u64(o, "stalls", s->count);
	sm_json_add_u64(o, "stall_longest_ns", s->longest_ns);
	sm_json_add_u64(o, "stall_threshold_ns", s->threshold_ns);
	cJSON_AddBoolToObject(o, "stalls_capped", s->count_capped);
	sm_json_add_u64(o, "stall_gaps", s->gaps);
	l = cJSON_AddArrayToObject(o, "stall_list");
	for (unsigned i = 0; i < s->nkept; i++) {
		cJSON *g = cJSON_CreateArray();

		cJSON_AddItemToArray(g, cJSON_CreateNumber((double)s->kept[i].at_ns));
		cJSON_AddItemToArray(g, cJSON_CreateNumber((double)s->kept[i].len_ns));
		cJSON_AddItemToArray(l, g);
	}
}

cJSON *sm_json_frames_series(const struct sm_frames_snap *s, unsigned n)
{
	/* per-sample deltas of the cumulative samples (the last one is the
	 * end of the run, usually less than a second after the one before) */
	static const struct sm_frames_snap zero;
	cJSON *o = cJSON_CreateObject(), *arr[SM_FRAMES_SERIES_KEYS];

	sm_json_add_u64(o, "interval_ns", SM_NS_PER_S);
	for (unsigned k = 0; k < SM_FRAMES_SERIES_KEYS; k++)
		arr[k] = cJSON_AddArrayToObject(o, sm_frames_series_keys[k]);
	for (unsigned i = 0; i < n; i++) {
		const struct sm_frames_snap *a = &s[i], *b = i ? &s[i - 1] : &zero;
		const uint64_t d[8] = {
			a->t_ns - b->t_ns, a->bytes - b->bytes, a->frames - b->frames,
			a->dropped - b->dropped, a->open_ns - b->open_ns, a->io_ns - b->io_ns,
			a->close_ns - b->close_ns, a->frame_ns - b->frame_ns,
		};

		for (unsigned k = 0; k < SM_FRAMES_SERIES_KEYS; k++)
			cJSON_AddItemToArray(arr[k], sm_json_u64(d[k]));
	}
	return o;
}

cJSON *sm_json_warnings(const struct sm_warnings *w)
{
	cJSON *a = cJSON_CreateArray();

	for (unsigned i = 0; i < w->count; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "code", w->item[i].code);
		cJSON_AddStringToObject(o, "message", w->item[i].message);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

int sm_json_write(const cJSON *doc, const char *path)
{
	char *text = cJSON_Print(doc);
	struct sm_outfile of;
	FILE *f = stdout;
	int rc = 0;

	if (!text)
		return -ENOMEM;
	if (strcmp(path, "-") && !(f = sm_outfile_fopen(&of, path, &rc)))
		goto out;
	errno = 0;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		rc = errno ? -errno : -EIO;
	if (f != stdout) {
		rc = sm_outfile_fclose(&of, f, rc);
	} else {
		errno = 0;
		if (!rc && fflush(f) == EOF)
			rc = errno ? -errno : -EIO;
	}
out:
	free(text);
	return rc;
}
