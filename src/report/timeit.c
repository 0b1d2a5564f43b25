/* SPDX-License-Identifier: MIT */
/* Renderings of a `stormark time` result: native text, timeit, CSV, JSON. */
#include "report/timeit.h"
#include "report/streams.h"
#include "result/json.h"
#include "core/units.h"

#include <math.h>
#include <string.h>

char *sm_fmt_timeit_duration(char *buf, size_t len, double ns)
{
	uint64_t ms = (uint64_t)llround(ns / 1e6);

	snprintf(buf, len, "%llu:%02llu:%02llu.%03llu",
		 (unsigned long long)(ms / 3600000), (unsigned long long)(ms / 60000 % 60),
		 (unsigned long long)(ms / 1000 % 60), (unsigned long long)(ms % 1000));
	return buf;
}

char *sm_tf_format(char *buf, size_t len, enum sm_tf f, double v)
{
	char tmp[48];

	switch (sm_tf_desc[f].unit) {
	case SM_TFU_NS:
		return sm_fmt_ns(buf, len, v);
	case SM_TFU_PCT:
		snprintf(buf, len, "%.1f %%", v);
		return buf;
	case SM_TFU_BYTES:
		return sm_fmt_bytes(buf, len, v);
	case SM_TFU_BPS:
		snprintf(buf, len, "%s/s", sm_fmt_bytes(tmp, sizeof(tmp), v));
		return buf;
	case SM_TFU_MS:
		snprintf(buf, len, "%.0f ms", v);
		return buf;
	case SM_TFU_COUNT:
	default:
		snprintf(buf, len, v == floor(v) ? "%.0f" : "%.1f", v);
		return buf;
	}
}

const char *sm_time_missing_reason(const struct sm_time_result *r, enum sm_tf f)
{
	if (f == SM_TF_SYSCALLS)
		return r->syscalls_why;
	if (f == SM_TF_FLUSH_CALLS)
		return r->flush_why[0] ? r->flush_why : r->syscalls_why;
	if (sm_tf_desc[f].system_wide)
		return r->disk_why;
	if (f == SM_TF_MAX_RSS_BYTES)
		return r->rss_why;
	if (f == SM_TF_READ_BYTES_PER_CALL || f == SM_TF_WRITE_BYTES_PER_CALL)
		return "no such calls";
	return "/proc/PID/io of a process could not be read";
}

static void print_cmdline(FILE *f, const struct sm_time_result *r)
{
	for (int i = 0; i < r->cmd_argc; i++)
		fprintf(f, "%s%s", i ? " " : "", r->cmd_argv[i]);
}

/* The heading before the system-wide device figures; 0 when there are
 * none (the reason is printed instead and the listing ends). */
static int disk_heading(FILE *f, const struct sm_time_result *r)
{
	if (!r->disk_ok) {
		sm_streams_wrapf(f, 2, "system-wide device figures: not available (%s)", r->disk_why);
		return 0;
	}
	sm_streams_wrapf(f, 2, "system-wide, device %s (%u:%u), all processes, not only this command:",
			 r->disk.name, r->disk.major, r->disk.minor);
	return 1;
}

static void print_one(FILE *f, const struct sm_time_result *r, const struct sm_time_run *run)
{
	char buf[64];

	for (int i = 0; i < SM_TF_COUNT; i++) {
		if (i == SM_TF_DISK_READ_IOS && !disk_heading(f, r))
			break;
		if (run->missing & SM_TF_BIT(i)) {
			sm_streams_wrapf(f, 29, "  %-26s n/a (%s)", sm_tf_desc[i].label,
					 sm_time_missing_reason(r, i));
			if (i == SM_TF_SYSCALLS && !(run->missing & SM_TF_BIT(SM_TF_READ_CALLS)))
				fprintf(f, "  %-26s %.0f (read and write family only)\n",
					"system calls (counted)",
					run->v[SM_TF_READ_CALLS] + run->v[SM_TF_WRITE_CALLS]);
			continue;
		}
		sm_tf_format(buf, sizeof(buf), i, run->v[i]);
		if (sm_tf_desc[i].unit == SM_TFU_BYTES && run->v[i] >= 1024)
			fprintf(f, "  %-26s %-14s (%.0f bytes)\n", sm_tf_desc[i].label, buf, run->v[i]);
		else
			fprintf(f, "  %-26s %s\n", sm_tf_desc[i].label, buf);
	}
}

/* The table of several runs: 79 columns, each label in 22 (a long one
 * by its brief form), five figures of up to 10 columns. */
static void print_table(FILE *f, const struct sm_time_result *r)
{
	char a[48], b[48], c[48], d[48], e[48];

	fprintf(f, "  %-22s %10s %10s %10s %10s %10s\n", "figure", "mean", "stddev", "median", "min", "max");
	for (int i = 0; i < SM_TF_COUNT; i++) {
		struct sm_tf_stat s;

		if (i == SM_TF_DISK_READ_IOS && !disk_heading(f, r))
			break;
		s = r->stat[i];
		if (!s.n) {
			sm_streams_wrapf(f, 25, "  %-22s n/a (%s)", sm_tf_brief(i), sm_time_missing_reason(r, i));
			continue;
		}
		fprintf(f, "  %-22s %10s %10s %10s %10s %10s\n", sm_tf_brief(i),
			sm_tf_format(a, sizeof(a), i, s.mean), sm_tf_format(b, sizeof(b), i, s.stddev),
			sm_tf_format(c, sizeof(c), i, s.median), sm_tf_format(d, sizeof(d), i, s.min),
			sm_tf_format(e, sizeof(e), i, s.max));
	}
}

void sm_time_print_text(FILE *f, const struct sm_time_result *r)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < r->nruns; i++)
		failed += r->runs[i].exit_code != 0;
	fprintf(f, "stormark time: ");
	print_cmdline(f, r);
	fprintf(f, "\n%u run%s", r->nruns, r->nruns == 1 ? "" : "s");
	if (r->head.interrupted && r->nruns < r->runs_requested)
		fprintf(f, " of %u (interrupted by a signal)", r->runs_requested);
	if (r->warmup)
		fprintf(f, " after %u warm-up run%s", r->warmup, r->warmup == 1 ? "" : "s");
	if (r->nruns == 1) {
		const struct sm_time_run *run = &r->runs[0];

		if (run->term_signal)
			fprintf(f, "; killed by signal %d (%s)\n", run->term_signal,
				strsignal(run->term_signal));
		else
			fprintf(f, "; exit status %d\n", run->exit_code);
		fprintf(f, "whole process tree:\n");
		print_one(f, r, run);
	} else if (r->nruns) {
		fprintf(f, "; %u with a non-zero exit status\n", failed);
		fprintf(f, "whole process tree, per run:\n");
		print_table(f, r);
	} else {
		fputc('\n', f);
	}
	if (r->head.warnings.count) {
		fprintf(f, "hints:\n");
		for (unsigned i = 0; i < r->head.warnings.count; i++)
			sm_streams_wrapf(f, 4, "  - [%s] %s", r->head.warnings.item[i].code,
					 r->head.warnings.item[i].message);
	}
}

/* Mean of figure f, or -1 when no run measured it. */
static double mean_of(const struct sm_time_result *r, enum sm_tf f)
{
	struct sm_tf_stat s;

	s = r->stat[f];
	return s.n ? s.mean : -1;
}

/* A count field, or nothing when the figure was not measured (v < 0): a
 * script reading timeit's fields finds only numbers; why a field is
 * missing is said after the block. */
static void timeit_count(FILE *f, const char *label, double v)
{
	if (v >= 0)
		fprintf(f, "%-18s%.0f\n", label, v);
}

/* A '#' line of stormark's section wrapped at word ends to 79 columns,
 * each continuation line a '#' line too ("#   ..."), so that none reads
 * as a timeit field. */
static void comment_wrap(FILE *f, const char *text)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		size_t room = first ? 79 : 75, n = strlen(p);

		if (n > room) {
			n = room;
			while (n && p[n] != ' ')
				n--;
			if (!n)   /* one word longer than the line: whole */
				n = strcspn(p, " ");
		}
		fprintf(f, "%s%.*s\n", first ? "" : "#   ", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

void sm_time_print_timeit(FILE *f, const struct sm_time_result *r)
{
	char buf[64];
	struct tm tm;
	double sc, rc, wc;

	localtime_r(&r->exit_time, &tm);
	fprintf(f, "\nVersion Number:   %s (stormark %s)\n", r->head.env.kernel, r->head.version);
	strftime(buf, sizeof(buf), "%-I:%M %P, %A, %B %-d %Y", &tm);
	fprintf(f, "Exit Time:        %s\n", buf);
	fprintf(f, "Elapsed Time:     %s\n",
		sm_fmt_timeit_duration(buf, sizeof(buf), mean_of(r, SM_TF_WALL_NS)));
	fprintf(f, "Process Time:     %s\n",
		sm_fmt_timeit_duration(buf, sizeof(buf),
				       mean_of(r, SM_TF_USER_NS) + mean_of(r, SM_TF_SYS_NS)));
	sc = mean_of(r, SM_TF_SYSCALLS);
	timeit_count(f, "System Calls:", sc);
	timeit_count(f, "Context Switches:",
		     mean_of(r, SM_TF_VOL_CTXSW) + mean_of(r, SM_TF_INVOL_CTXSW));
	timeit_count(f, "Page Faults:", mean_of(r, SM_TF_MINOR_FAULTS) + mean_of(r, SM_TF_MAJOR_FAULTS));
	timeit_count(f, "Bytes Read:", mean_of(r, SM_TF_READ_BYTES));
	timeit_count(f, "Bytes Written:", mean_of(r, SM_TF_WRITE_BYTES));
	/* Bytes Other: Linux has no such count; explained below */

	/* stormark's section: every line starts with '#', so that none reads
	 * as a timeit field */
	fprintf(f, "\n# stormark: not measured, so not shown above:\n");
	if (sc < 0) {
		rc = mean_of(r, SM_TF_READ_CALLS);
		wc = mean_of(r, SM_TF_WRITE_CALLS);
		char why[1024];
		int n = snprintf(why, sizeof(why), "#   System Calls - %s", r->syscalls_why);

		if (rc >= 0 && wc >= 0 && n > 0 && (size_t)n < sizeof(why))
			snprintf(why + n, sizeof(why) - (size_t)n, " (read and write calls: %.0f)", rc + wc);
		comment_wrap(f, why);
	}
	fprintf(f, "#   Bytes Other - Linux keeps no count of I/O bytes other than reads and writes\n");
	if (r->nruns > 1)
		fprintf(f, "# stormark: means of %u runs; figures of the whole process tree\n", r->nruns);
	for (unsigned i = 0; i < r->head.warnings.count; i++) {
		char hint[1024];

		snprintf(hint, sizeof(hint), "# stormark: hint %s - %s", r->head.warnings.item[i].code,
			 r->head.warnings.item[i].message);
		comment_wrap(f, hint);
	}
}

void sm_time_print_csv(FILE *f, const struct sm_time_result *r)
{
	fprintf(f, "run,exit_code,signal");
	for (int i = 0; i < SM_TF_COUNT; i++)
		fprintf(f, ",%s", sm_tf_desc[i].key);
	fputc('\n', f);
	for (unsigned k = 0; k < r->nruns; k++) {
		const struct sm_time_run *run = &r->runs[k];

		fprintf(f, "%u,%d,%d", k + 1, run->exit_code, run->term_signal);
		for (int i = 0; i < SM_TF_COUNT; i++) {
			if (run->missing & SM_TF_BIT(i))
				fputc(',', f);
			else if (run->v[i] == floor(run->v[i]) && fabs(run->v[i]) < 9e15)
				fprintf(f, ",%.0f", run->v[i]);
			else
				fprintf(f, ",%.3f", run->v[i]);
		}
		fputc('\n', f);
	}
}

static cJSON *json_run(const struct sm_time_run *run)
{
	cJSON *o = cJSON_CreateObject();

	sm_json_add_double(o, "exit_code", run->exit_code);
	sm_json_add_double(o, "signal", run->term_signal);
	for (int i = 0; i < SM_TF_COUNT; i++) {
		if (run->missing & SM_TF_BIT(i))
			cJSON_AddNullToObject(o, sm_tf_desc[i].key);
		else
			sm_json_add_double(o, sm_tf_desc[i].key, run->v[i]);
	}
	return o;
}

cJSON *sm_time_json(const struct sm_time_result *r)
{
	cJSON *doc = sm_json_doc_new(&r->head), *t, *a, *stats, *miss, *params;

	if (!doc)
		return NULL;
	params = cJSON_AddObjectToObject(doc, "params");
	a = cJSON_AddArrayToObject(params, "command");
	for (int i = 0; i < r->cmd_argc; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->cmd_argv[i]));
	cJSON_AddBoolToObject(params, "shell", r->shell);
	if (r->prepare)
		cJSON_AddStringToObject(params, "prepare", r->prepare);
	else
		cJSON_AddNullToObject(params, "prepare");
	sm_json_add_double(params, "warmup", r->warmup);
	sm_json_add_double(params, "runs_requested", r->runs_requested);
	t = cJSON_AddObjectToObject(doc, "time");
	if (r->disk_ok) {
		cJSON *d = cJSON_AddObjectToObject(t, "disk");

		cJSON_AddStringToObject(d, "device", r->disk.name);
		sm_json_add_double(d, "major", r->disk.major);
		sm_json_add_double(d, "minor", r->disk.minor);
		cJSON_AddBoolToObject(d, "system_wide", 1);
	} else {
		cJSON_AddNullToObject(t, "disk");
	}
	/* what the text layouts print for figures that were not measured */
	cJSON_AddStringToObject(t, "syscalls_missing_reason", r->syscalls_why);
	cJSON_AddStringToObject(t, "flush_calls_missing_reason", r->flush_why);
	cJSON_AddStringToObject(t, "disk_missing_reason", r->disk_why);
	cJSON_AddStringToObject(t, "max_rss_missing_reason", r->rss_why);
	sm_json_add_double(t, "ended_at_unix_s", (double)r->exit_time);
	a = cJSON_AddArrayToObject(t, "runs");
	for (unsigned k = 0; k < r->nruns; k++)
		cJSON_AddItemToArray(a, json_run(&r->runs[k]));
	stats = cJSON_AddObjectToObject(t, "stats");
	miss = cJSON_AddObjectToObject(t, "missing");
	for (int i = 0; i < SM_TF_COUNT; i++) {
		struct sm_tf_stat s;
		cJSON *o;

		s = r->stat[i];
		if (!s.n) {
			if (r->nruns)
				cJSON_AddStringToObject(miss, sm_tf_desc[i].key, sm_time_missing_reason(r, i));
			continue;
		}
		o = cJSON_AddObjectToObject(stats, sm_tf_desc[i].key);
		sm_json_add_double(o, "n", s.n);
		sm_json_add_double(o, "mean", s.mean);
		sm_json_add_double(o, "stddev", s.stddev);
		sm_json_add_double(o, "median", s.median);
		sm_json_add_double(o, "min", s.min);
		sm_json_add_double(o, "max", s.max);
	}
	sm_json_doc_finish(doc, &r->head);
	return doc;
}
