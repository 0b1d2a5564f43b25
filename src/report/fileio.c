/* SPDX-License-Identifier: MIT */
/* Native text and JSON renderings of a fileio result. */
#include "report/fileio.h"
#include "core/clock.h"
#include "report/cliff.h"
#include "report/stall.h"
#include "report/steady.h"
#include "report/streams.h"
#include "report/verify.h"
#include "result/json.h"
#include "core/units.h"

#include <math.h>
#include <string.h>


/* A time in its column; the mean as it is (rounded by sm_fmt_ns, as the
 * markdown and CSV layouts give it), not cut to whole ns first. */
static void lat_cell(FILE *f, double ns)
{
	char b[32];

	fprintf(f, " %10s", sm_fmt_ns(b, sizeof(b), ns));
}

/* A row of the first table: count and rates. */
static void op_row(FILE *f, const char *name, uint64_t count, double per_s, double bytes_per_s)
{
	fprintf(f, "  %-6s %10llu %11.1f %9.2f\n", name, (unsigned long long)count, per_s,
		bytes_per_s / 1048576.0);
}

/* A row of the second table: the latency figures. */
static void lat_row(FILE *f, const char *name, const struct sm_hist *h)
{
	fprintf(f, "  %-6s", name);
	if (!h->count) {
		fprintf(f, "  (no timed operations)\n");
		return;
	}
	lat_cell(f, sm_hist_mean(h));
	lat_cell(f, (double)sm_hist_percentile(h, 50));
	lat_cell(f, (double)sm_hist_percentile(h, 95));
	lat_cell(f, (double)sm_hist_percentile(h, 99));
	lat_cell(f, (double)sm_hist_percentile(h, 99.9));
	lat_cell(f, (double)h->max);
	fputc('\n', f);
}

/* The width of the text layout: it fits an 80-column terminal; a line
 * of words wraps under the column after its label ("files:    "). */
#define LINE(f, ...) sm_streams_wrapf(f, 10, __VA_ARGS__)

void sm_fileio_text(FILE *f, const struct sm_fileio_result *r)
{
	const struct sm_fileio_cfg *cfg = &r->cfg;
	const struct sm_pct_list *pct = &r->pct;
	const struct sm_env *env = &r->head.env;
	const struct sm_warnings *w = &r->head.warnings;
	char a[32], b[32], c[32], a_long[256];
	const struct sm_fileio_figures *g = &r->fig;
	int noted;

	sm_streams_wrapf(f, 17, "stormark fileio: %s, %u thread%s, %s I/O (engine %s%s%s), %s",
		sm_fileio_mode_name(cfg->mode), cfg->threads, cfg->threads == 1 ? "" : "s",
		cfg->io_mode == SM_FIO_IO_ASYNC ? "async" : cfg->io_mode == SM_FIO_IO_MMAP ? "mmap" : "sync",
		r->engine, cfg->io_mode == SM_FIO_IO_ASYNC ? ", depth " : "",
		cfg->io_mode == SM_FIO_IO_ASYNC ? (snprintf(c, sizeof(c), "%u", cfg->async_backlog), c) : "",
		env->direct_io ? "direct" : "buffered (page cache)");
	LINE(f, "files:    %u x %s = %s in '%s' (%s on %s)", cfg->num_files,
		sm_fmt_bytes(a, sizeof(a), (double)cfg->file_size),
		sm_fmt_bytes(b, sizeof(b), (double)(cfg->file_size * cfg->num_files)), cfg->dir,
		env->fs.fs_type[0] ? env->fs.fs_type : "?", env->fs.device[0] ? env->fs.device : "?");
	if (sm_mount_is_share(&env->fs.mount)) {
		sm_mount_describe(&env->fs.mount, a_long, sizeof(a_long));
		sm_streams_wrapf(f, 10, "share:    %s", a_long);
	}
	if (cfg->mode == SM_FIO_RNDRW)
		snprintf(c, sizeof(c), ", read/write ratio %.2f", cfg->rw_ratio);
	else
		c[0] = 0;
	LINE(f, "requests: %s blocks%s, seed %llu%s", sm_fmt_bytes(a, sizeof(a), (double)cfg->block_size),
	     cfg->merged ? " (merged in sequential modes)" : "", (unsigned long long)cfg->seed, c);
	if (cfg->fsync_all)
		LINE(f, "flush:    %s after every write", cfg->fsync_data ? "fdatasync" : "fsync");
	else
		LINE(f, "flush:    %s every %u requests%s%s", cfg->fsync_data ? "fdatasync" : "fsync",
			cfg->fsync_freq, cfg->fsync_freq ? "" : " (off)",
			cfg->fsync_end ? ", and of every file at the end" : "");
	LINE(f, "duration: %.3f s, %llu events (%.1f/s)%s", g->secs, (unsigned long long)r->events,
		g->per_s[3], r->failed ? ", FAILED (partial)" : r->head.interrupted ? ", INTERRUPTED" : "");
	/* two tables, so each fits 80 columns: counts and rates, then latency */
	fprintf(f, "\n  %-6s %10s %11s %9s\n", "op", "count", "per s", "MiB/s");
	for (int i = 0; i < 3; i++)
		op_row(f, sm_fileio_op_names[i], r->ops[i].count, g->per_s[i], g->bytes_per_s[i]);
	op_row(f, "event", r->events, g->per_s[3], g->bytes_per_s[3]);
	fprintf(f, "\n  %-6s %10s %10s %10s %10s %10s %10s\n", "op", "mean", "p50", "p95", "p99", "p99.9", "max");
	for (int i = 0; i < 3; i++)
		lat_row(f, sm_fileio_op_names[i], &r->ops[i].lat);
	lat_row(f, "event", &r->events_lat);
	LINE(f, "latency:  read/write/fsync: issue to completion; event: its thread's time on it, as "
	     "sysbench's");
	if (pct->n) {
		char list[1024];
		size_t n = 0;

		list[0] = 0;
		for (unsigned i = 0; i < pct->n && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, " p%g=%s", pct->p[i],
					      sm_fmt_ns(a, sizeof(a),
							(double)sm_hist_percentile(&r->events_lat, pct->p[i])));
		fputc('\n', f);
		sm_streams_wrapf(f, 2, "event latency percentiles:%s", list);
	}
	if (r->nthreads > 1)
		LINE(f, "threads:  %.1f events each on average, stddev %.1f", g->thread_events_mean,
			g->thread_events_sd);
	sm_steady_text(f, &r->steady, &r->precond, 0);
	if (sm_fileio_mode_writes(cfg->mode) && !r->steady.on)
		LINE(f, "cliff:    %s", sm_report_cliff_words(a_long, sizeof(a_long), &r->cliff));
	if (r->stalls.measured)
		LINE(f, "stalls:   %s", sm_report_stall_words(a_long, sizeof(a_long), &r->stalls));
	/* a run since the fallback became a warning carries it there too */
	noted = !r->notice[0];
	for (unsigned i = 0; i < w->count && !noted; i++)
		noted = !strcmp(w->item[i].message, r->notice);
	if (!noted)
		LINE(f, "note:     %s", r->notice);
	for (unsigned i = 0; i < w->count; i++)
		LINE(f, "warning:  %s", w->item[i].message);
}

static void file_name(unsigned file, char *buf, size_t len, const void *arg)
{
	const char *dir = arg;

	/* as sm_fileio_path() names them: relative in the current directory */
	if (!dir || !strcmp(dir, "."))
		snprintf(buf, len, "test_file.%u", file);
	else
		snprintf(buf, len, "%s/test_file.%u", dir, file);
}

static void verify_view(const struct sm_fileio_result *r, struct sm_verify_view *v)
{
	memset(v, 0, sizeof(*v));
	v->option = r->cfg.verify ? "--verify" : "--validate";
	v->run_id = r->verify_run;
	v->block = r->cfg.block_size;
	v->threads = r->cfg.threads;
	v->duration_ns = r->head.duration_ns;
	v->st = &r->verify;
	v->name = file_name;
	v->name_arg = r->cfg.dir;
}

void sm_fileio_verify_text(FILE *f, const struct sm_fileio_result *r)
{
	struct sm_verify_view v;

	if (!r->verify_run)
		return;
	verify_view(r, &v);
	sm_verify_text(f, &v);
}

static cJSON *params_json(const struct sm_fileio_result *r)
{
	const struct sm_fileio_cfg *cfg = &r->cfg;
	const struct sm_pct_list *pct = &r->pct;
	const struct sm_field *P = sm_fileio_params_fields;
	static const char *const io[] = { "sync", "async", "mmap" };
	cJSON *o = cJSON_CreateObject(), *fl, *pa;

	cJSON_AddStringToObject(o, P[SM_FPA_DIR].key, cfg->dir);
	cJSON_AddStringToObject(o, P[SM_FPA_TEST_MODE].key, sm_fileio_mode_name(cfg->mode));
	cJSON_AddStringToObject(o, P[SM_FPA_IO_MODE].key, io[cfg->io_mode]);
	sm_json_add_double(o, P[SM_FPA_THREADS].key, cfg->threads);
	sm_json_add_double(o, P[SM_FPA_FILE_NUM].key, cfg->num_files);
	sm_field_put(o, &P[SM_FPA_FILE_SIZE], r);
	sm_json_add_u64(o, P[SM_FPA_TOTAL_SIZE].key, cfg->file_size * cfg->num_files);
	sm_field_put(o, &P[SM_FPA_BLOCK_SIZE], r);
	sm_json_add_u64(o, P[SM_FPA_REQUEST_SIZE].key, sm_fileio_request_size(cfg));
	sm_json_add_double(o, P[SM_FPA_ASYNC_BACKLOG].key, cfg->async_backlog);
	fl = cJSON_AddArrayToObject(o, P[SM_FPA_EXTRA_FLAGS].key);
	if (cfg->extra_flags & SM_FIO_FLAG_SYNC)
		cJSON_AddItemToArray(fl, cJSON_CreateString("sync"));
	if (cfg->extra_flags & SM_FIO_FLAG_DSYNC)
		cJSON_AddItemToArray(fl, cJSON_CreateString("dsync"));
	if (cfg->extra_flags & SM_FIO_FLAG_DIRECT)
		cJSON_AddItemToArray(fl, cJSON_CreateString("direct"));
	sm_json_add_double(o, P[SM_FPA_FSYNC_FREQ].key, cfg->fsync_all ? 0 : cfg->fsync_freq);
	sm_field_put(o, &P[SM_FPA_FSYNC_ALL], r);
	cJSON_AddBoolToObject(o, P[SM_FPA_FSYNC_END].key, cfg->fsync_end && !cfg->fsync_all);
	cJSON_AddStringToObject(o, P[SM_FPA_FSYNC_MODE].key, cfg->fsync_data ? "fdatasync" : "fsync");
	sm_json_add_double(o, P[SM_FPA_MERGED].key, cfg->merged);
	for (int k = SM_FPA_RW_RATIO; k <= SM_FPA_VALIDATE; k++)
		sm_field_put(o, &P[k], r);
	if (cfg->verify)   /* only then: results saved before --verify existed read back as written */
		sm_field_put(o, &P[SM_FPA_VERIFY], r);
	cJSON_AddStringToObject(o, P[SM_FPA_DATA].key, cfg->data == SM_DATA_ZERO ? "zero" : "random");
	pa = cJSON_AddArrayToObject(o, P[SM_FPA_PERCENTILES].key);
	for (unsigned i = 0; i < pct->n; i++)
		cJSON_AddItemToArray(pa, sm_json_double(pct->p[i]));
	return o;
}

cJSON *sm_fileio_json(const struct sm_fileio_result *r)
{
	const struct sm_fileio_cfg *cfg = &r->cfg;
	const struct sm_pct_list *pct = &r->pct;
	const struct sm_field *B = sm_fileio_body_fields;
	cJSON *doc = sm_json_doc_new(&r->head), *o, *ops, *fio, *a;
	uint64_t bytes = r->ops[0].bytes + r->ops[1].bytes;

	if (!doc)
		return NULL;
	cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_PARAMS].key, params_json(r));
	o = cJSON_AddObjectToObject(doc, sm_fileio_doc_fields[SM_FDOC_TOTALS].key);
	sm_json_add_u64(o, "bytes", bytes);
	sm_json_add_u64(o, "items", r->events);
	sm_json_add_double(o, "items_per_s", r->fig.per_s[3]);
	sm_json_add_double(o, "bytes_per_s", r->fig.bytes_per_s[3]);
	ops = cJSON_AddObjectToObject(doc, sm_fileio_doc_fields[SM_FDOC_OPS].key);
	for (int i = 0; i < 3; i++)
		if (r->ops[i].count)
			cJSON_AddItemToObject(ops, sm_fileio_op_names[i], sm_json_opstat(&r->ops[i], 1));
	if (r->series && r->nseries) {
		const char *const *keys = sm_fileio_series_keys;
		cJSON *se = cJSON_AddObjectToObject(doc, sm_fileio_doc_fields[SM_FDOC_SERIES].key);

		/* the whole intervals' length; a tick's own is its duration_ns */
		sm_json_add_u64(se, "interval_ns", r->cfg.report_interval_ns ? r->cfg.report_interval_ns
									      : SM_NS_PER_S);
		for (unsigned k = 0; k < SM_FILEIO_SERIES_KEYS; k++) {
			a = cJSON_AddArrayToObject(se, keys[k]);
			for (unsigned i = 0; i < r->nseries; i++) {
				const struct sm_fileio_tick *t = &r->series[i];
				const uint64_t v[] = {
					t->t_ns, t->interval_ns, t->read_bytes, t->write_bytes, t->reads,
					t->writes, t->fsyncs, t->events, t->lat_pct_ns, t->lat_max_ns,
				};

				cJSON_AddItemToArray(a, sm_json_u64(v[k]));
			}
		}
	}
	fio = cJSON_AddObjectToObject(doc, sm_fileio_doc_fields[SM_FDOC_FILEIO].key);
	for (int k = SM_FB_EVENTS; k <= SM_FB_EVENT_LAT; k++)
		sm_field_put(fio, &B[k], r);
	a = cJSON_AddArrayToObject(fio, B[SM_FB_EVENT_PERCENTILES].key);
	for (unsigned i = 0; i < pct->n; i++) {
		cJSON *p = cJSON_CreateObject();

		sm_json_add_double(p, sm_fileio_pct_fields[SM_FPC_PERCENTILE].key, pct->p[i]);
		sm_json_add_u64(p, sm_fileio_pct_fields[SM_FPC_LAT].key,
				sm_hist_percentile(&r->events_lat, pct->p[i]));
		cJSON_AddItemToArray(a, p);
	}
	a = cJSON_AddArrayToObject(fio, B[SM_FB_THREAD_EVENTS].key);
	for (unsigned i = 0; i < r->nthreads; i++)
		cJSON_AddItemToArray(a, sm_json_u64(r->thread_events[i]));
	a = cJSON_AddArrayToObject(fio, B[SM_FB_THREAD_BUSY].key);
	for (unsigned i = 0; i < r->nthreads; i++)
		cJSON_AddItemToArray(a, sm_json_u64(r->thread_busy_ns[i]));
	sm_field_put(fio, &B[SM_FB_ENGINE_NOTICE], r);
	if (sm_fileio_mode_writes(cfg->mode) && !r->steady.on)
		cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_CLIFF].key, sm_json_cliff(&r->cliff));
	sm_json_add_stalls(doc, &r->stalls);
	if (r->steady.on)
		cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_STEADY].key, sm_steady_json(&r->steady));
	if (r->precond.on)
		cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_PRECONDITION].key,
				      sm_precond_json(&r->precond));
	if (r->verify_run) {
		struct sm_verify_view v;

		verify_view(r, &v);
		cJSON_AddItemToObject(doc, sm_head_fields[SM_HD_VERIFY].key, sm_verify_json(&v));
	}
	sm_json_doc_finish(doc, &r->head);
	return doc;
}
