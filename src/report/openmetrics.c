/* SPDX-License-Identifier: MIT */
/* A result document as metrics text: OpenMetrics 1.0 or the Prometheus
 * text format 0.0.4, from the one table of families below. Every figure
 * is a gauge in its base unit (seconds, bytes), the unit as the name's
 * suffix, a time's quantiles a summary; the families and labels of
 * docs/openmetrics.md. */
#include "report/openmetrics.h"
#include "report/openmetrics_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct family {
	const char *name, *type, *unit, *help;
};

static const struct family fams[NFAM] = {
	[F_RESULT] = { "stormark_result", "info", NULL, "the result: stormark's version, kernel, file system, mount point, engine" },
	[F_STARTED] = { "stormark_result_started_timestamp_seconds", "gauge", "seconds", "when the run started (Unix time)" },
	[F_DURATION] = { "stormark_result_duration_seconds", "gauge", "seconds", "how long the run took" },
	[F_INTERRUPTED] = { "stormark_result_interrupted", "gauge", NULL, "1 when the run was stopped before its end" },
	[F_WARNINGS] = { "stormark_result_warnings", "gauge", NULL, "the result's warnings" },
	[F_ERRORS] = { "stormark_result_errors", "gauge", NULL, "the result's errors" },
	[F_MPI_RANKS] = { "stormark_mpi_ranks", "gauge", NULL, "an MPI job's ranks: in all, and that reported" },
	[F_MPI_BPS] = { "stormark_mpi_throughput_bytes_per_second", "gauge", "bytes_per_second", "an MPI job's bytes over its span" },
	[F_MPI_STRAGGLERS] = { "stormark_mpi_stragglers", "gauge", NULL, "an MPI job's ranks below the straggler line" },
	[F_CLIFF_FOUND] = { "stormark_cliff_found", "gauge", NULL, "1 when the write rate fell to a lower sustained rate (a cliff), 0 when looked for and not found (docs/cliff.md)" },
	[F_CLIFF_BURST] = { "stormark_cliff_burst_bytes_per_second", "gauge", "bytes_per_second", "the write rate before the cliff" },
	[F_CLIFF_SUST] = { "stormark_cliff_sustained_bytes_per_second", "gauge", "bytes_per_second", "the write rate after the cliff" },
	[F_STEADY_REACHED] = { "stormark_steady_reached", "gauge", NULL, "--steady: 1 when SNIA PTS's steady state was reached, by the figure judged (docs/steady.md)" },
	[F_STEADY_ROUNDS] = { "stormark_steady_rounds", "gauge", NULL, "--steady: the rounds run" },
	[F_FR_BPS] = { "stormark_frames_throughput_bytes_per_second", "gauge", "bytes_per_second", "frames: bytes moved per second" },
	[F_FR_FPS] = { "stormark_frames_rate_frames_per_second", "gauge", "frames_per_second", "frames: frames moved per second" },
	[F_FR_BYTES] = { "stormark_frames_transferred_bytes", "gauge", "bytes", "frames: bytes moved" },
	[F_FR_FT] = { "stormark_frames_frame_time_seconds", "summary", "seconds", "frames: a frame's time, by quantile (0: fastest, 1: slowest)" },
	[F_FR_FT_MEAN] = { "stormark_frames_frame_time_mean_seconds", "gauge", "seconds", "frames: a frame's mean time" },
	[F_FR_SCHED] = { "stormark_frames_scheduled_frames", "gauge", "frames", "frames: frames scheduled" },
	[F_FR_MOVED] = { "stormark_frames_transferred_frames", "gauge", "frames", "frames: frames moved" },
	[F_FR_DROPPED] = { "stormark_frames_dropped_frames", "gauge", "frames", "frames: frames dropped" },
	[F_FI_BPS] = { "stormark_fileio_throughput_bytes_per_second", "gauge", "bytes_per_second", "fileio: bytes read and written per second" },
	[F_FI_OPS] = { "stormark_fileio_ops_per_second", "gauge", "ops_per_second", "fileio: operations per second, by op (all: every event)" },
	[F_FI_BYTES] = { "stormark_fileio_transferred_bytes", "gauge", "bytes", "fileio: bytes moved, by op" },
	[F_FI_ERRS] = { "stormark_fileio_op_errors", "gauge", NULL, "fileio: operations that failed, by op" },
	[F_FI_LAT] = { "stormark_fileio_latency_seconds", "summary", "seconds", "fileio: an operation's latency, by op and quantile" },
	[F_FI_LAT_MEAN] = { "stormark_fileio_latency_mean_seconds", "gauge", "seconds", "fileio: an operation's mean latency, by op" },
	[F_FI_EVLAT] = { "stormark_fileio_event_latency_seconds", "summary", "seconds", "fileio: an event's latency (sysbench's), by quantile" },
	[F_RUN_BLK_BPS] = { "stormark_run_block_throughput_bytes_per_second", "gauge", "bytes_per_second", "run: a block test's bytes per second" },
	[F_RUN_BLK_IOPS] = { "stormark_run_block_ops_per_second", "gauge", "ops_per_second", "run: a block test's operations per second" },
	[F_RUN_BLK_LAT] = { "stormark_run_block_latency_seconds", "summary", "seconds", "run: a block test's latency, by quantile" },
	[F_RUN_FR_BPS] = { "stormark_run_frames_throughput_bytes_per_second", "gauge", "bytes_per_second", "run: a frame test's bytes per second" },
	[F_RUN_FR_FPS] = { "stormark_run_frames_rate_frames_per_second", "gauge", "frames_per_second", "run: a frame test's frames per second" },
	[F_RUN_FR_FT] = { "stormark_run_frames_frame_time_seconds", "summary", "seconds", "run: a frame test's frame time, by quantile" },
	[F_RUN_V_RATIO] = { "stormark_run_verdict_ratio", "gauge", "ratio", "run: a verdict cell's measured over needed bytes per second" },
	[F_RUN_V] = { "stormark_run_verdict", "gauge", NULL, "run: a verdict cell's verdict: 3 realtime, 2 marginal, 1 unconfirmed, 0 not-realtime" },
	[F_RUN_V_NEED] = { "stormark_run_verdict_needed_bytes_per_second", "gauge", "bytes_per_second", "run: what a verdict cell's format needs" },
	[F_RUN_V_MEAS] = { "stormark_run_verdict_measured_bytes_per_second", "gauge", "bytes_per_second", "run: what a verdict cell was judged on" },
	[F_ST_MAX] = { "stormark_streams_max_streams", "gauge", "streams", "streams: the most streams that held" },
	[F_ST_HEAD] = { "stormark_streams_max_headroom_streams", "gauge", "streams", "streams: the most streams that held with the headroom kept" },
	[F_ST_HIGH] = { "stormark_streams_max_high_streams", "gauge", "streams", "streams: the most streams that held in some trial (above max_streams when the answer moved between trials)" },
	[F_ST_AT_CAP] = { "stormark_streams_at_cap", "gauge", NULL, "streams: 1 when the answer is --max-streams, the search's cap (the volume may hold more), else 0" },
	[F_ST_TRIALS] = { "stormark_streams_trials", "gauge", NULL, "streams: the trials run, at the answer (step=answer) and at the first failure (step=failed)" },
	[F_ST_TRIALS_HELD] = { "stormark_streams_held_trials", "gauge", NULL, "streams: the trials that held, by step as stormark_streams_trials" },
	[F_ST_RATE] = { "stormark_streams_stream_rate_bytes_per_second", "gauge", "bytes_per_second", "streams: one stream's rate" },
	[F_ST_SUST] = { "stormark_streams_sustained_bytes_per_second", "gauge", "bytes_per_second", "streams: the rate sustained at the most streams" },
	[F_ST_AGG] = { "stormark_streams_aggregate_bytes_per_second", "gauge", "bytes_per_second", "streams: the streams' rate together at the most streams" },
	[F_ST_MIX_HELD] = { "stormark_streams_mix_held", "gauge", NULL, "streams --mix: 1 when every group held" },
	[F_ST_MIX_BPS] = { "stormark_streams_mix_throughput_bytes_per_second", "gauge", "bytes_per_second", "streams --mix: the mix's bytes per second" },
	[F_ST_MIX_DROP] = { "stormark_streams_mix_dropped_frames", "gauge", "frames", "streams --mix: frames dropped" },
	[F_ST_MIXG_HELD] = { "stormark_streams_mix_group_held", "gauge", NULL, "streams --mix: 1 when a group held" },
	[F_TIME_RUNS] = { "stormark_time_runs", "gauge", NULL, "time: the measured runs" },
	[F_TIME_WALL] = { "stormark_time_wall_seconds", "gauge", "seconds", "time: wall-clock time, by statistic over the runs" },
	[F_TIME_USER] = { "stormark_time_user_seconds", "gauge", "seconds", "time: user CPU time, by statistic" },
	[F_TIME_SYS] = { "stormark_time_sys_seconds", "gauge", "seconds", "time: system CPU time, by statistic" },
	[F_TIME_CPU] = { "stormark_time_cpu_ratio", "gauge", "ratio", "time: CPU time over wall time, by statistic" },
	[F_TIME_RSS] = { "stormark_time_max_rss_bytes", "gauge", "bytes", "time: the largest resident set, by statistic" },
	[F_TIME_RD] = { "stormark_time_read_bytes", "gauge", "bytes", "time: bytes read by system calls, by statistic" },
	[F_TIME_WR] = { "stormark_time_write_bytes", "gauge", "bytes", "time: bytes written by system calls, by statistic" },
	[F_TIME_SRD] = { "stormark_time_storage_read_bytes", "gauge", "bytes", "time: bytes the storage layer read, by statistic" },
	[F_TIME_SWR] = { "stormark_time_storage_write_bytes", "gauge", "bytes", "time: bytes the storage layer wrote, by statistic" },
	[F_TIME_SCWR] = { "stormark_time_storage_cancelled_write_bytes", "gauge", "bytes", "time: bytes written whose write-out was cancelled (the file truncated or removed first), by statistic" },
	[F_TIME_DRD] = { "stormark_time_disk_read_bytes", "gauge", "bytes", "time: bytes the disk read, by statistic" },
	[F_TIME_DWR] = { "stormark_time_disk_write_bytes", "gauge", "bytes", "time: bytes the disk wrote, by statistic" },
	[F_TIME_SYSCALLS] = { "stormark_time_syscalls", "gauge", NULL, "time: system calls made, by statistic" },
	[F_TIME_CALLS] = { "stormark_time_io_calls", "gauge", NULL, "time: I/O system calls, by op (read, write, flush) and statistic" },
	[F_TIME_FAULTS] = { "stormark_time_page_faults", "gauge", NULL, "time: page faults, by kind (minor, major) and statistic" },
	[F_TIME_CTXSW] = { "stormark_time_context_switches", "gauge", NULL, "time: context switches, by kind (voluntary, involuntary) and statistic" },
	[F_TIME_DISK_IOS] = { "stormark_time_disk_ios", "gauge", NULL, "time: the disk's requests, by op (read, write, flush) and statistic" },
	[F_TIME_PROCS] = { "stormark_time_processes", "gauge", NULL, "time: processes the command ran, by statistic" },
	[F_META_OPS] = { "stormark_meta_ops_per_second", "gauge", "ops_per_second", "meta: a phase's operations per second over its span, by phase (create, stat, probe, list, delete)" },
	[F_META_COUNT] = { "stormark_meta_operations", "gauge", NULL, "meta: a phase's operations, by phase" },
	[F_META_ERRS] = { "stormark_meta_op_errors", "gauge", NULL, "meta: a phase's operations that failed, by phase" },
	[F_META_DUR] = { "stormark_meta_phase_duration_seconds", "gauge", "seconds", "meta: a phase's span, by phase" },
	[F_META_LAT] = { "stormark_meta_latency_seconds", "summary", "seconds", "meta: an operation's latency, by phase and quantile" },
	[F_META_LAT_MEAN] = { "stormark_meta_latency_mean_seconds", "gauge", "seconds", "meta: an operation's mean latency, by phase" },
	[F_RUN_META_OPS] = { "stormark_run_meta_ops_per_second", "gauge", "ops_per_second", "run: the metadata line's operations per second, by phase" },
	[F_RUN_META_SEQ] = { "stormark_run_meta_sequence_seconds", "gauge", "seconds", "run: how long listing (list), or stat'ing and probing (probe), a sequence of 100,000 frames takes here" },
	[F_LIVE] = { "stormark_live", "info", NULL, "a run under way (--live): its phase, and the text figures of its last --live line (a streams step's format, direction, step, held)" },
	[F_LIVE_UPDATED] = { "stormark_live_updated_timestamp_seconds", "gauge", "seconds", "when this file was written (Unix time): one older than a few seconds is from a run that stopped" },
	[F_LIVE_ELAPSED] = { "stormark_live_elapsed_seconds", "gauge", "seconds", "the last interval's end since its test (a streams step) started" },
	[F_LIVE_LEFT] = { "stormark_live_left_seconds", "gauge", "seconds", "the time left of --time" },
	[F_LIVE_STALL_LONGEST] = { "stormark_live_stall_longest_seconds", "gauge", "seconds", "the longest stall of the test so far" },
	[F_LIVE_STALL_GAPS] = { "stormark_live_stall_gaps", "gauge", NULL, "the stalls of the test so far" },
	[F_LIVE_FIG] = { "stormark_live_interval", "gauge", NULL, "the last --live line's other figures, by figure: its keys as docs/options.md lists them, a time (KEY_ns) in seconds as KEY_seconds" },
};

/* v as the shortest decimal that reads back as the same double. */
static void put_value(FILE *f, double v)
{
	char buf[40];

	if (isnan(v)) {
		fputs("NaN", f);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", f);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF), 0 when it is not
 * one. */
static unsigned utf8_len(const unsigned char *s)
{
	unsigned n, cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* A label value escaped as the format asks (backslash, double quote, line
 * feed); a byte that is no UTF-8 (a path's name in another encoding) is
 * U+FFFD, as the format is UTF-8 throughout. */
static void put_label_value(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned n = utf8_len(s);

		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (n)
			fwrite(s, 1, n, f);
		else
			fputs("\xef\xbf\xbd", f);
		s += n ? n : 1;
	}
}

static void put_label(FILE *f, int *n, const char *k, const char *v)
{
	if (!v)
		return;
	fprintf(f, "%s%s=\"", (*n)++ ? "," : "", k);
	put_label_value(f, v);
	fputc('"', f);
}

/* The start of a sample line of family fam, its name ending in suffix
 * ("_sum" and "_count" of a summary, "" else), then the common labels
 * (*n counts the labels put); NULL when out of memory. */
static FILE *sample_start(struct om *m, enum fam fam, const char *suffix, int *n)
{
	FILE *f;

	if (!m->mem[fam] && !m->oom && !(m->mem[fam] = open_memstream(&m->buf[fam], &m->len[fam])))
		m->oom = 1;
	f = m->mem[fam];
	if (!f)
		return NULL;
	fputs(fams[fam].name, f);
	if (!strcmp(fams[fam].type, "info"))
		fputs("_info", f);
	fputs(suffix, f);
	fputc('{', f);
	for (unsigned i = 0; i < sizeof(m->common) / sizeof(m->common[0]); i++)
		put_label(f, n, m->common[i][0], m->common[i][1]);
	return f;
}

/* The end of a sample line: its value. */
static void sample_end(FILE *f, double v)
{
	fputs("} ", f);
	put_value(f, v);
	fputc('\n', f);
}

/* One sample of fam: the common labels, then the pairs of name and value
 * in ap (a NULL value: no such label), ended by a NULL name. */
static void vsample(struct om *m, enum fam fam, const char *suffix, double v, va_list ap)
{
	const char *k;
	int n = 0;
	FILE *f = sample_start(m, fam, suffix, &n);

	if (!f)
		return;
	while ((k = va_arg(ap, const char *))) {
		const char *val = va_arg(ap, const char *);

		put_label(f, &n, k, val);
	}
	sample_end(f, v);
}

void sm_om_sample(struct om *m, enum fam fam, double v, ...)
{
	va_list ap;

	va_start(ap, v);
	vsample(m, fam, "", v, ap);
	va_end(ap);
}

static void sample_sfx(struct om *m, enum fam fam, const char *suffix, double v, ...)
{
	va_list ap;

	va_start(ap, v);
	vsample(m, fam, suffix, v, ap);
	va_end(ap);
}

/* One sample of fam with the common labels, then the n pairs of kv. */
void sm_om_sample_kv(struct om *m, enum fam fam, double v, const char *const (*kv)[2], unsigned n)
{
	int k = 0;
	FILE *f = sample_start(m, fam, "", &k);

	if (!f)
		return;
	for (unsigned i = 0; i < n; i++)
		put_label(f, &k, kv[i][0], kv[i][1]);
	sample_end(f, v);
}

/* ---- reading the document ------------------------------------------- */

const cJSON *sm_om_at(const cJSON *o, const char *key)
{
	return o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* The number o.key into *v: 1, or 0 when it is missing or null. */
int sm_om_num(const cJSON *o, const char *key, double *v)
{
	const cJSON *x = sm_om_at(o, key);

	if (cJSON_IsNumber(x)) {
		*v = x->valuedouble;
		return 1;
	}
	if (cJSON_IsBool(x)) {
		*v = cJSON_IsTrue(x) ? 1 : 0;
		return 1;
	}
	return 0;
}

const char *sm_om_str(const cJSON *o, const char *key)
{
	const cJSON *x = sm_om_at(o, key);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* A non-empty string o.key, or NULL. */
const char *sm_om_nstr(const cJSON *o, const char *key)
{
	const char *s = sm_om_str(o, key);

	return s && *s ? s : NULL;
}

/* The number o.key, NAN when the document does not have it. */
double sm_om_numv(const cJSON *o, const char *key)
{
	double v;

	return sm_om_num(o, key, &v) ? v : NAN;
}

/* The stored quantiles of a latency object (lat_ns, frame_ns), in seconds,
 * as a summary: min and max as quantiles 0 and 1; its _sum and _count
 * from the object's histogram when it has one, else _count alone from
 * count (the operations timed; NAN: not known). */
void sm_om_quantiles(struct om *m, enum fam fam, const cJSON *lat, double count, const char *k1, const char *v1,
		      const char *k2, const char *v2, const char *k3, const char *v3)
{
	static const struct { const char *key, *q; } qs[] = {
		{ "min", "0" }, { "p50", "0.5" }, { "p90", "0.9" }, { "p95", "0.95" }, { "p99", "0.99" },
		{ "p99_9", "0.999" }, { "p99_99", "0.9999" }, { "max", "1" },
	};
	const cJSON *h = sm_om_at(lat, "histogram"), *c;
	double sum, v;
	int any = 0;

	for (unsigned i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		if (!sm_om_num(lat, qs[i].key, &v))
			continue;
		any = 1;
		/* the quantile first: a NULL name ends the pairs */
		sm_om_sample(m, fam, v / NS, "quantile", qs[i].q, k1, v1, k2, v2, k3, v3, NULL);
	}
	if (!any)
		return;
	if (sm_om_num(h, "sum", &sum) && cJSON_IsArray(sm_om_at(h, "counts"))) {
		count = 0;
		cJSON_ArrayForEach(c, sm_om_at(h, "counts"))   /* [value, how many] */
			if (cJSON_IsArray(c) && cJSON_IsNumber(cJSON_GetArrayItem(c, 1)))
				count += cJSON_GetArrayItem(c, 1)->valuedouble;
		sample_sfx(m, fam, "_sum", sum / NS, k1, v1, k2, v2, k3, v3, NULL);
	}
	if (!isnan(count))
		sample_sfx(m, fam, "_count", count, k1, v1, k2, v2, k3, v3, NULL);
}

/* "play" for playback: the direction label's words are read, write,
 * capture and play. */
const char *sm_om_direction(const char *d)
{
	return d && !strcmp(d, "playback") ? "play" : d;
}

/* A write rate's cliff (docs/cliff.md), when it was looked for, with up
 * to four label pairs (a NULL name ends them). */
void sm_om_cliff(struct om *m, const cJSON *c, const char *k1, const char *v1, const char *k2, const char *v2,
		  const char *k3, const char *v3, const char *k4, const char *v4)
{
	double looked;

	if (!sm_om_num(c, "looked", &looked) || !looked)
		return;
	PUT(m, F_CLIFF_FOUND, c, "found", 1, k1, v1, k2, v2, k3, v3, k4, v4, NULL);
	PUT(m, F_CLIFF_BURST, c, "burst_bytes_per_s", 1, k1, v1, k2, v2, k3, v3, k4, v4, NULL);
	PUT(m, F_CLIFF_SUST, c, "sustained_bytes_per_s", 1, k1, v1, k2, v2, k3, v3, k4, v4, NULL);
}

/* --steady's outcome (docs/steady.md), when the run had it. */
void sm_om_steady(struct om *m, const cJSON *st, const char *k1, const char *v1, const char *k2, const char *v2)
{
	const cJSON *rounds = sm_om_at(st, "rounds");

	if (!cJSON_IsObject(st))
		return;
	PUT(m, F_STEADY_REACHED, st, "reached", 1, "metric", sm_om_str(st, "metric"), k1, v1, k2, v2, NULL);
	if (cJSON_IsArray(rounds))
		sm_om_sample(m, F_STEADY_ROUNDS, cJSON_GetArraySize(rounds), "metric", sm_om_str(st, "metric"), k1, v1, k2, v2,
		       NULL);
}

/* ---- the whole document --------------------------------------------- */

/* The --save key of argv (before a "--", after which `time` has the
 * measured command's words), or NULL. */
static const char *save_key(const cJSON *argv)
{
	const cJSON *a;
	int first = 1;

	cJSON_ArrayForEach(a, argv) {
		const char *s = cJSON_IsString(a) ? a->valuestring : "";

		if (first) {   /* the command's name */
			first = 0;
			continue;
		}
		if (!strcmp(s, "--"))
			break;
		if (!strncmp(s, "--save=", 7))
			return s + 7;
		if (!strcmp(s, "--save") && a->next && cJSON_IsString(a->next))
			return a->next->valuestring;
	}
	return NULL;
}

/* "2026-12-02T18:58:56Z" as Unix time: 1, or 0 when it is not that. */
static int utc_seconds(const char *s, double *v)
{
	struct tm tm;
	char z = 0;

	memset(&tm, 0, sizeof(tm));
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			 &tm.tm_min, &tm.tm_sec, &z) != 7 || z != 'Z')
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*v = (double)timegm(&tm);
	return 1;
}

static void head(struct om *m, const cJSON *doc)
{
	const cJSON *env = sm_om_at(doc, "environment"), *mpi = sm_om_at(doc, "mpi");
	double v;

	sm_om_sample(m, F_RESULT, 1, "version", sm_om_str(sm_om_at(doc, "tool"), "version"), "kernel", sm_om_str(env, "kernel"),
	       "fs_type", sm_om_str(env, "fs_type"), "mount_point", sm_om_str(env, "mount_point"), "engine", sm_om_str(env, "engine"), NULL);
	if (utc_seconds(sm_om_str(doc, "started_at"), &v))
		sm_om_sample(m, F_STARTED, v, NULL);
	PUT(m, F_DURATION, doc, "duration_ns", NS, NULL);
	PUT(m, F_INTERRUPTED, doc, "interrupted", 1, NULL);
	sm_om_sample(m, F_WARNINGS, cJSON_GetArraySize(sm_om_at(doc, "warnings")), NULL);
	sm_om_sample(m, F_ERRORS, cJSON_GetArraySize(sm_om_at(doc, "errors")), NULL);
	if (mpi) {
		PUT(m, F_MPI_RANKS, mpi, "ranks_total", 1, "state", "total", NULL);
		PUT(m, F_MPI_RANKS, mpi, "ranks_reported", 1, "state", "reported", NULL);
		PUT(m, F_MPI_BPS, mpi, "bytes_per_s", 1, NULL);
		PUT(m, F_MPI_STRAGGLERS, mpi, "stragglers", 1, NULL);
	}
}

/* The tested directory as the result names it: frames' params.path, the
 * other commands' params.dir; NULL for time (a command, no directory). */
static const char *tested_dir(const cJSON *doc)
{
	const cJSON *p = sm_om_at(doc, "params");

	return sm_om_nstr(p, "dir") ? sm_om_nstr(p, "dir") : sm_om_nstr(p, "path");
}

/* A HELP text as the Prometheus format escapes it (backslash, line feed);
 * OpenMetrics escapes the double quote too. */
static void put_help(FILE *f, const char *s, int om)
{
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && om)
			fputs("\\\"", f);
		else
			fputc(*s, f);
}

/* One family's metadata lines. OpenMetrics: TYPE, UNIT, HELP under the
 * family's name. Prometheus 0.0.4: HELP and TYPE, no UNIT; no info type,
 * so an info family is the gauge NAME_info of value 1. */
static void family_head(FILE *f, const struct family *fm, enum sm_metrics_format fmt)
{
	if (fmt == SM_METRICS_OPENMETRICS) {
		fprintf(f, "# TYPE %s %s\n", fm->name, fm->type);
		if (fm->unit)
			fprintf(f, "# UNIT %s %s\n", fm->name, fm->unit);
		fprintf(f, "# HELP %s ", fm->name);
		put_help(f, fm->help, 1);
		fputc('\n', f);
		return;
	}
	if (!strcmp(fm->type, "info")) {
		fprintf(f, "# HELP %s_info ", fm->name);
		put_help(f, fm->help, 0);
		fprintf(f, "\n# TYPE %s_info gauge\n", fm->name);
		return;
	}
	fprintf(f, "# HELP %s ", fm->name);
	put_help(f, fm->help, 0);
	fprintf(f, "\n# TYPE %s %s\n", fm->name, fm->type);
}

int sm_metrics(FILE *f, const cJSON *doc, enum sm_metrics_format fmt)
{
	struct om m;
	const char *cmd = sm_om_str(doc, "command");
	int rc = 0;

	memset(&m, 0, sizeof(m));
	m.common[0][0] = "command";
	m.common[0][1] = cmd;
	m.common[1][0] = "key";
	m.common[1][1] = save_key(sm_om_at(doc, "argv"));
	m.common[2][0] = "host";
	m.common[2][1] = sm_om_nstr(sm_om_at(doc, "environment"), "host");
	m.common[3][0] = "dir";
	m.common[3][1] = tested_dir(doc);
	m.common[4][0] = "device";
	m.common[4][1] = sm_om_nstr(sm_om_at(doc, "environment"), "device");
	if (sm_om_at(doc, "live"))
		sm_om_live(&m, doc);
	else
		head(&m, doc);
	if (!cmd || sm_om_at(doc, "live"))
		;
	else if (!strcmp(cmd, "frames"))
		sm_om_frames(&m, doc);
	else if (!strcmp(cmd, "fileio"))
		sm_om_fileio(&m, doc);
	else if (!strcmp(cmd, "run"))
		sm_om_run(&m, doc);
	else if (!strcmp(cmd, "streams"))
		sm_om_streams(&m, doc);
	else if (!strcmp(cmd, "time"))
		sm_om_time_cmd(&m, doc);
	else if (!strcmp(cmd, "meta"))
		sm_om_meta(&m, doc);
	/* every family's stream closed before the first byte goes out: a
	 * write that fails leaves errno as it said it (a memory stream's close
	 * may set errno, EBADF under ThreadSanitizer's fileno), for the one
	 * line that says why (sm_out_check_stdout()) */
	for (unsigned i = 0; i < NFAM; i++)
		if (m.mem[i] && fclose(m.mem[i]))
			rc = -ENOMEM;
	for (unsigned i = 0; i < NFAM; i++) {
		if (rc || !m.mem[i] || !m.buf[i])
			continue;
		family_head(f, &fams[i], fmt);
		fwrite(m.buf[i], 1, m.len[i], f);
	}
	for (unsigned i = 0; i < NFAM; i++)
		free(m.buf[i]);
	if (m.oom)
		rc = -ENOMEM;
	if (!rc && fmt == SM_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	return rc;
}

int sm_openmetrics(FILE *f, const cJSON *doc)
{
	return sm_metrics(f, doc, SM_METRICS_OPENMETRICS);
}
