/* SPDX-License-Identifier: MIT */
/* The metrics of each command's result document, and of a run under way
 * (--live): which figure goes to which family with which labels
 * (docs/openmetrics.md). The families and the writing are openmetrics.c. */
#include "report/openmetrics.h"
#include "report/openmetrics_int.h"
#include "result/field.h"
#include "result/fileio.h"
#include "result/meta.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sm_om_frames(struct om *m, const cJSON *doc)
{
	const cJSON *p = sm_om_at(doc, "params"), *t = sm_om_at(doc, "totals"), *fr = sm_om_at(doc, "frames");
	const cJSON *frame = sm_om_at(sm_om_at(doc, "ops"), "frame");
	const char *dir = sm_om_str(p, "test"), *fmt = sm_om_nstr(p, "video_format");

	PUT(m, F_FR_BPS, t, "bytes_per_s", 1, "direction", dir, "format", fmt, NULL);
	/* the frame rate the report prints ("Overall frame rate", the JSON's
	 * windows.overall): in a paced run the schedule's, not the I/O's;
	 * a result without it (none saved so far) gives the I/O's */
	if (sm_om_at(sm_om_at(sm_om_at(fr, "windows"), "overall"), "frames_per_s"))
		PUT(m, F_FR_FPS, sm_om_at(sm_om_at(fr, "windows"), "overall"), "frames_per_s", 1, "direction", dir, "format",
		    fmt, NULL);
	else
		PUT(m, F_FR_FPS, t, "items_per_s", 1, "direction", dir, "format", fmt, NULL);
	PUT(m, F_FR_BYTES, t, "bytes", 1, "direction", dir, "format", fmt, NULL);
	sm_om_quantiles(m, F_FR_FT, sm_om_at(frame, "lat_ns"), sm_om_numv(frame, "count"), "direction", dir, "format", fmt, NULL, NULL);
	PUT(m, F_FR_FT_MEAN, sm_om_at(frame, "lat_ns"), "mean", NS, "direction", dir, "format", fmt, NULL);
	PUT(m, F_FR_SCHED, fr, "scheduled", 1, "direction", dir, "format", fmt, NULL);
	PUT(m, F_FR_MOVED, fr, "transferred", 1, "direction", dir, "format", fmt, NULL);
	PUT(m, F_FR_DROPPED, fr, "dropped", 1, "direction", dir, "format", fmt, NULL);
	sm_om_cliff(m, sm_om_at(doc, "cliff"), "direction", dir, "format", fmt, NULL, NULL, NULL, NULL);
}

void sm_om_fileio(struct om *m, const cJSON *doc)
{
	static const struct { int key; const char *op; } rates[] = {
		{ SM_FB_READS_PER_S, "read" }, { SM_FB_WRITES_PER_S, "write" },
		{ SM_FB_FSYNCS_PER_S, "fsync" }, { SM_FB_EVENTS_PER_S, "all" },
	};
	const struct sm_field *B = sm_fileio_body_fields;
	const char *mode = sm_om_str(sm_om_at(doc, sm_head_fields[SM_HD_PARAMS].key),
				     sm_fileio_params_fields[SM_FPA_TEST_MODE].key);
	const cJSON *fi = sm_om_at(doc, sm_fileio_doc_fields[SM_FDOC_FILEIO].key), *op;

	PUT(m, F_FI_BPS, sm_om_at(doc, "totals"), "bytes_per_s", 1, "mode", mode, NULL);
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		PUT(m, F_FI_OPS, fi, B[rates[i].key].key, 1, "mode", mode, "op", rates[i].op, NULL);
	cJSON_ArrayForEach(op, sm_om_at(doc, "ops")) {
		if (!op->string)
			continue;
		PUT(m, F_FI_BYTES, op, "bytes", 1, "mode", mode, "op", op->string, NULL);
		PUT(m, F_FI_ERRS, op, "errors", 1, "mode", mode, "op", op->string, NULL);
		sm_om_quantiles(m, F_FI_LAT, sm_om_at(op, "lat_ns"), sm_om_numv(op, "count"), "mode", mode, "op", op->string, NULL, NULL);
		PUT(m, F_FI_LAT_MEAN, sm_om_at(op, "lat_ns"), "mean", NS, "mode", mode, "op", op->string, NULL);
	}
	sm_om_quantiles(m, F_FI_EVLAT, sm_om_at(fi, B[SM_FB_EVENT_LAT].key),
			sm_om_numv(fi, B[SM_FB_EVENTS].key), "mode", mode, NULL, NULL, NULL, NULL);
	sm_om_cliff(m, sm_om_at(doc, "cliff"), "mode", mode, NULL, NULL, NULL, NULL, NULL, NULL);
	sm_om_steady(m, sm_om_at(doc, "steady"), "mode", mode, NULL, NULL);
}

/* A verdict as the number of F_RUN_V (its legend is the family's help):
 * the better the verdict, the larger, so a drop is a fall of the value;
 * -1 for a word this table does not know. */
static int verdict_code(const char *v)
{
	static const char *const words[] = { "not-realtime", "unconfirmed", "marginal", "realtime" };

	for (int i = 0; v && i < (int)(sizeof(words) / sizeof(words[0])); i++)
		if (!strcmp(v, words[i]))
			return i;
	return -1;
}

static void run_verdicts(struct om *m, const cJSON *v)
{
	static const char *const sides[] = { "capture", "playback" };
	const char *fmt = sm_om_str(v, "format");

	for (unsigned s = 0; s < 2; s++) {
		const cJSON *cell;

		cJSON_ArrayForEach(cell, sm_om_at(v, sides[s])) {
			const char *fps = sm_om_str(cell, "fps"), *verdict = sm_om_str(cell, "verdict");
			const char *dir = sm_om_direction(sides[s]);

			int code = verdict_code(verdict);

			PUT(m, F_RUN_V_RATIO, cell, "ratio", 1, "format", fmt, "direction", dir, "fps", fps, NULL);
			if (code >= 0)
				sm_om_sample(m, F_RUN_V, code, "format", fmt, "direction", dir, "fps", fps, NULL);
			PUT(m, F_RUN_V_NEED, cell, "needed_bytes_per_s", 1, "format", fmt, "direction", dir,
			    "fps", fps, NULL);
			PUT(m, F_RUN_V_MEAS, cell, "measured_bytes_per_s", 1, "format", fmt, "direction", dir,
			    "fps", fps, NULL);
		}
	}
}

/* meta's phases, as meta.ops and run.meta name them */
#define PHASE(i) sm_meta_phase_name((enum sm_meta_phase)(i))

void sm_om_run(struct om *m, const cJSON *doc)
{
	static const char *const dirs[] = { "write", "read" };
	const cJSON *r = sm_om_at(doc, "run"), *x;

	cJSON_ArrayForEach(x, sm_om_at(r, "classic")) {
		const char *test = sm_om_str(x, "test");

		for (unsigned d = 0; d < 2; d++) {
			const cJSON *s = sm_om_at(x, dirs[d]);

			PUT(m, F_RUN_BLK_BPS, s, "bytes_per_s", 1, "test", test, "direction", dirs[d], NULL);
			PUT(m, F_RUN_BLK_IOPS, s, "iops", 1, "test", test, "direction", dirs[d], NULL);
			sm_om_quantiles(m, F_RUN_BLK_LAT, sm_om_at(sm_om_at(s, "op"), "lat_ns"), sm_om_numv(sm_om_at(s, "op"), "count"), "test", test, "direction", dirs[d],
				  NULL, NULL);
			sm_om_steady(m, sm_om_at(s, "steady"), "test", test, "direction", dirs[d]);
		}
	}
	cJSON_ArrayForEach(x, sm_om_at(r, "frames")) {
		const char *preset = sm_om_str(x, "preset");
		char threads[24] = "";
		double th;

		if (sm_om_num(x, "threads", &th))
			snprintf(threads, sizeof(threads), "%.0f", th);
		for (unsigned d = 0; d < 2; d++) {
			const cJSON *s = sm_om_at(x, dirs[d]);

			PUT(m, F_RUN_FR_BPS, s, "bytes_per_s", 1, "preset", preset, "threads", threads,
			    "direction", dirs[d], NULL);
			PUT(m, F_RUN_FR_FPS, s, "fps", 1, "preset", preset, "threads", threads,
			    "direction", dirs[d], NULL);
			sm_om_quantiles(m, F_RUN_FR_FT, sm_om_at(s, "frame_ns"), sm_om_numv(s, "frames"), "preset", preset, "threads", threads,
				  "direction", dirs[d]);
			sm_om_cliff(m, sm_om_at(s, "cliff"), "preset", preset, "threads", threads, "direction", dirs[d], NULL, NULL);
		}
	}
	cJSON_ArrayForEach(x, sm_om_at(r, "verdicts"))
		run_verdicts(m, x);
	x = sm_om_at(r, "meta");
	for (unsigned i = 0; x && i < SM_META_NPHASES; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_per_s", PHASE(i));
		PUT(m, F_RUN_META_OPS, x, key, 1, "phase", PHASE(i), NULL);
	}
	PUT(m, F_RUN_META_SEQ, x, "sequence_list_ns", NS, "phase", "list", NULL);
	PUT(m, F_RUN_META_SEQ, x, "sequence_probe_ns", NS, "phase", "probe", NULL);
}

/* meta: each phase that ran (a phase that did not is absent). */
void sm_om_meta(struct om *m, const cJSON *doc)
{
	const struct sm_field *F = sm_meta_phase_fields, *O = sm_opstat_fields;
	const cJSON *ops = sm_om_at(sm_om_at(doc, sm_meta_doc_fields[SM_MDOC_META].key),
				    sm_meta_body_fields[SM_MME_OPS].key);

	for (unsigned i = 0; i < SM_META_NPHASES; i++) {
		const cJSON *p = sm_om_at(ops, PHASE(i));
		const cJSON *lat = sm_om_at(p, O[SM_OPF_LAT].key);
		const char *ph = PHASE(i);

		if (!p)
			continue;
		PUT(m, F_META_OPS, p, F[SM_MPH_PER_S].key, 1, "phase", ph, NULL);
		PUT(m, F_META_COUNT, p, O[SM_OPF_COUNT].key, 1, "phase", ph, NULL);
		PUT(m, F_META_ERRS, p, O[SM_OPF_ERRORS].key, 1, "phase", ph, NULL);
		PUT(m, F_META_DUR, p, F[SM_MPH_DURATION].key, NS, "phase", ph, NULL);
		sm_om_quantiles(m, F_META_LAT, lat, sm_om_numv(p, O[SM_OPF_COUNT].key), "phase", ph, NULL,
				NULL, NULL, NULL);
		PUT(m, F_META_LAT_MEAN, lat, "mean", NS, "phase", ph, NULL);
	}
}

void sm_om_streams(struct om *m, const cJSON *doc)
{
	const cJSON *c, *g, *mix = sm_om_at(doc, "mix");

	cJSON_ArrayForEach(c, sm_om_at(doc, "streams")) {
		const char *fmt = sm_om_str(c, "format"), *fps = sm_om_str(c, "fps"), *kind = sm_om_str(c, "kind");
		const char *dir = sm_om_direction(sm_om_str(c, "direction"));

#define CELL "format", fmt, "fps", fps, "direction", dir, "kind", kind
		PUT(m, F_ST_MAX, c, "max_streams", 1, CELL, NULL);
		PUT(m, F_ST_HEAD, c, "max_streams_headroom", 1, CELL, NULL);
		PUT(m, F_ST_HIGH, c, "max_streams_high", 1, CELL, NULL);
		if (sm_om_at(c, "max_streams") && !cJSON_IsNull(sm_om_at(c, "max_streams")))
			PUT(m, F_ST_AT_CAP, c, "at_cap", 1, CELL, NULL);
		PUT(m, F_ST_TRIALS, sm_om_at(c, "trials"), "at_answer", 1, CELL, "step", "answer", NULL);
		PUT(m, F_ST_TRIALS_HELD, sm_om_at(c, "trials"), "held_at_answer", 1, CELL, "step", "answer", NULL);
		PUT(m, F_ST_TRIALS, sm_om_at(c, "trials"), "at_failed", 1, CELL, "step", "failed", NULL);
		PUT(m, F_ST_TRIALS_HELD, sm_om_at(c, "trials"), "held_at_failed", 1, CELL, "step", "failed", NULL);
		PUT(m, F_ST_RATE, c, "rate_bytes_per_s", 1, CELL, NULL);
		PUT(m, F_ST_SUST, c, "sustained_bytes_per_s", 1, CELL, NULL);
		PUT(m, F_ST_AGG, c, "aggregate_bytes_per_s", 1, CELL, NULL);
		sm_om_cliff(m, sm_om_at(c, "cliff"), CELL);
#undef CELL
	}
	if (!mix)
		return;
	PUT(m, F_ST_MIX_HELD, mix, "held", 1, "mix", sm_om_str(mix, "spec"), NULL);
	PUT(m, F_ST_MIX_BPS, sm_om_at(mix, "total"), "bytes_per_s", 1, "mix", sm_om_str(mix, "spec"), NULL);
	PUT(m, F_ST_MIX_DROP, sm_om_at(mix, "total"), "dropped", 1, "mix", sm_om_str(mix, "spec"), NULL);
	cJSON_ArrayForEach(g, sm_om_at(mix, "groups"))
		PUT(m, F_ST_MIXG_HELD, g, "held", 1, "mix", sm_om_str(mix, "spec"), "group", sm_om_str(g, "group"),
		    "format", sm_om_str(g, "format"), "fps", sm_om_str(g, "fps"), "direction", sm_om_direction(sm_om_str(g, "direction")),
		    NULL);
}

void sm_om_time_cmd(struct om *m, const cJSON *doc)
{
	static const struct { const char *key; enum fam fam; double scale; const char *k, *v; } figs[] = {
		{ "wall_ns", F_TIME_WALL, NS, NULL, NULL }, { "user_ns", F_TIME_USER, NS, NULL, NULL }, { "sys_ns", F_TIME_SYS, NS, NULL, NULL },
		{ "cpu_pct", F_TIME_CPU, 100, NULL, NULL }, { "max_rss_bytes", F_TIME_RSS, 1, NULL, NULL },
		{ "read_bytes", F_TIME_RD, 1, NULL, NULL }, { "write_bytes", F_TIME_WR, 1, NULL, NULL },
		{ "storage_read_bytes", F_TIME_SRD, 1, NULL, NULL }, { "storage_write_bytes", F_TIME_SWR, 1, NULL, NULL },
		{ "cancelled_write_bytes", F_TIME_SCWR, 1, NULL, NULL },
		{ "disk_read_bytes", F_TIME_DRD, 1, NULL, NULL }, { "disk_write_bytes", F_TIME_DWR, 1, NULL, NULL },
		{ "syscalls", F_TIME_SYSCALLS, 1, NULL, NULL }, { "processes", F_TIME_PROCS, 1, NULL, NULL },
		{ "read_calls", F_TIME_CALLS, 1, "op", "read" }, { "write_calls", F_TIME_CALLS, 1, "op", "write" },
		{ "flush_calls", F_TIME_CALLS, 1, "op", "flush" },
		{ "minor_faults", F_TIME_FAULTS, 1, "kind", "minor" }, { "major_faults", F_TIME_FAULTS, 1, "kind", "major" },
		{ "voluntary_ctxsw", F_TIME_CTXSW, 1, "kind", "voluntary" },
		{ "involuntary_ctxsw", F_TIME_CTXSW, 1, "kind", "involuntary" },
		{ "disk_read_ios", F_TIME_DISK_IOS, 1, "op", "read" }, { "disk_write_ios", F_TIME_DISK_IOS, 1, "op", "write" },
		{ "disk_flushes", F_TIME_DISK_IOS, 1, "op", "flush" },
	};
	static const char *const stats[] = { "mean", "stddev", "median", "min", "max" };
	const cJSON *t = sm_om_at(doc, "time"), *runs = sm_om_at(t, "runs");

	if (cJSON_IsArray(runs))
		sm_om_sample(m, F_TIME_RUNS, cJSON_GetArraySize(runs), NULL);
	for (unsigned i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		const cJSON *s = sm_om_at(sm_om_at(t, "stats"), figs[i].key);

		for (unsigned k = 0; k < sizeof(stats) / sizeof(stats[0]); k++)
			PUT(m, figs[i].fam, s, stats[k], figs[i].scale, "stat", stats[k], figs[i].k, figs[i].v, NULL);
	}
}

/* ---- a run under way (--live) ------------------------------------------ */

/* A label name as both formats take it: [a-zA-Z_][a-zA-Z0-9_]*. */
static int label_name_ok(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* The document a --live metrics file is rendered from (cmd/live_out.c):
 * "live", the last --live line as it was written, and "live_updated",
 * the Unix time it was. The line's text values label stormark_live_info;
 * its numbers are gauges, a time (KEY_ns) in seconds. */
void sm_om_live(struct om *m, const cJSON *doc)
{
	const cJSON *l = sm_om_at(doc, "live"), *x;
	const char *kv[24][2];
	unsigned n = 0;
	double v;

	if (sm_om_num(doc, "live_updated", &v))
		sm_om_sample(m, F_LIVE_UPDATED, v, NULL);
	cJSON_ArrayForEach(x, l) {
		const char *k = x->string;
		size_t len = strlen(k);

		if (!strcmp(k, "command") || !label_name_ok(k))
			continue;
		if (cJSON_IsString(x)) {
			if (n < sizeof(kv) / sizeof(kv[0])) {
				kv[n][0] = k;
				kv[n][1] = x->valuestring;
				n++;
			}
			continue;
		}
		if (!cJSON_IsNumber(x))
			continue;
		if (!strcmp(k, "t_ns"))
			sm_om_sample(m, F_LIVE_ELAPSED, x->valuedouble / NS, NULL);
		else if (!strcmp(k, "left_ns"))
			sm_om_sample(m, F_LIVE_LEFT, x->valuedouble / NS, NULL);
		else if (!strcmp(k, "stall_longest_ns"))
			sm_om_sample(m, F_LIVE_STALL_LONGEST, x->valuedouble / NS, NULL);
		else if (!strcmp(k, "stall_gaps"))
			sm_om_sample(m, F_LIVE_STALL_GAPS, x->valuedouble, NULL);
		else if (len > 3 && !strcmp(k + len - 3, "_ns")) {
			char fig[96];

			snprintf(fig, sizeof(fig), "%.*s_seconds", (int)(len - 3), k);
			sm_om_sample(m, F_LIVE_FIG, x->valuedouble / NS, "figure", fig, NULL);
		} else
			sm_om_sample(m, F_LIVE_FIG, x->valuedouble, "figure", k, NULL);
	}
	sm_om_sample_kv(m, F_LIVE, 1, kv, n);
}

