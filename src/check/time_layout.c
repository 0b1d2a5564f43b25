/* SPDX-License-Identifier: MIT */
/* A `time` result's layouts against it: the text and markdown tables (one
 * run's figures, or the statistics over the runs), timeit's fields (the
 * means), the CSV's row per run (docs/time.md). */
#include "check/body.h"
#include "result/timefig.h"

#include <stdio.h>
#include <string.h>

/* One figure's row: its value (one run) or mean, stddev, median, min,
 * max (several) against runs[0] or time.stats. */
static void row(struct ck_lay *L, int f, int md, int one)
{
	static const char *const sk[] = { "mean", "stddev", "median", "min", "max" };
	struct ck_shown s[8];
	char label[64], path[96];
	/* a figure kept in ms is printed "16 ms", read back in ns */
	double scale = sm_tf_desc[f].unit == SM_TFU_MS ? 1e6 : 1;
	int n;

	/* the text's table of several runs names a figure by its brief label */
	snprintf(label, sizeof(label), md ? "%s |" : "%s ", md || one ? sm_tf_desc[f].label : sm_tf_brief(f));
	n = ck_lay_nums(L, NULL, label, 0, s, 8, NULL);
	if (n < 1)
		return;
	if (one) {
		snprintf(path, sizeof(path), "time.runs.0.%s", sm_tf_desc[f].key);
		ck_lay_path(L, label, &s[0], path, scale);
		return;
	}
	for (int k = 0; k < 5 && k < n; k++) {
		char lab[96];

		snprintf(path, sizeof(path), "time.stats.%s.%s", sm_tf_desc[f].key, sk[k]);
		snprintf(lab, sizeof(lab), "%s' %s", label, sk[k]);
		ck_lay_path(L, lab, &s[k], path, scale);
	}
}

static void table(struct ck_lay *L, int md)
{
	int one = cJSON_GetArraySize(ck_at(L->doc, "time.runs")) == 1;

	for (int f = 0; f < SM_TF_COUNT; f++)
		row(L, f, md, one);
}

/* A mean of time.stats (0 when not measured: the field is not printed). */
static double mean(const cJSON *doc, const char *key, int *have)
{
	char path[96];
	double v;

	snprintf(path, sizeof(path), "time.stats.%s.mean", key);
	if (!ck_num(doc, path, &v)) {
		*have = 0;
		return 0;
	}
	return v;
}

/* "H:MM:SS.mmm" (sm_fmt_timeit_duration) at p as a shown figure in ns. */
static int duration(const char *p, struct ck_shown *s)
{
	unsigned h, m, sec, ms;

	while (*p == ' ')
		p++;
	if (sscanf(p, "%u:%u:%u.%3u", &h, &m, &sec, &ms) != 4)
		return 0;
	memset(s, 0, sizeof(*s));
	s->v = ((h * 60.0 + m) * 60.0 + sec) * 1e9 + ms * 1e6;
	s->half = 0.5e6;
	snprintf(s->text, sizeof(s->text), "%u:%02u:%02u.%03u", h, m, sec, ms);
	return 1;
}

static void timeit(struct ck_lay *L)
{
	static const struct { const char *label, *a, *b; } sums[] = {
		{ "System Calls:", "syscalls", NULL },
		{ "Context Switches:", "voluntary_ctxsw", "involuntary_ctxsw" },
		{ "Page Faults:", "minor_faults", "major_faults" },
		{ "Bytes Read:", "read_bytes", NULL },
		{ "Bytes Written:", "write_bytes", NULL },
	};
	struct ck_shown s[4];
	const char *p;
	int have = 1;
	double v;

	if ((p = ck_line(L->text, NULL, "Elapsed Time:")) && duration(p, &s[0])) {
		v = mean(L->doc, "wall_ns", &have);
		if (have)
			ck_lay_val(L, "Elapsed Time:", &s[0], "time.stats.wall_ns.mean", v);
	}
	have = 1;
	if ((p = ck_line(L->text, NULL, "Process Time:")) && duration(p, &s[0])) {
		v = mean(L->doc, "user_ns", &have) + mean(L->doc, "sys_ns", &have);
		if (have)
			ck_lay_val(L, "Process Time:", &s[0], "the means of user_ns and sys_ns", v);
	}
	for (unsigned i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		have = 1;
		v = mean(L->doc, sums[i].a, &have) + (sums[i].b ? mean(L->doc, sums[i].b, &have) : 0);
		/* a figure not measured is left out, never shown as 0 */
		if (ck_lay_nums(L, NULL, sums[i].label, have, s, 4, NULL) >= 1 && have)
			ck_lay_val(L, sums[i].label, &s[0], "the mean(s) of time.stats", v);
	}
}

static void csv(struct ck_lay *L)
{
	const cJSON *r;
	int k = 0;

	cJSON_ArrayForEach(r, ck_at(L->doc, "time.runs")) {
		char key[16];
		const char *keys[1] = { key }, *line;

		snprintf(key, sizeof(key), "%d", ++k);
		line = ck_csv_row(L->text, keys, 1);
		L->c->evaluated++;
		if (!line) {
			sm_check_fail(L->c, "layout.line", "csv has no row for run %d", k);
			continue;
		}
		for (int f = 0; f < SM_TF_COUNT; f++) {
			struct ck_shown s;
			char label[64];
			int got = ck_csv_get(L->text, line, sm_tf_desc[f].key, &s);
			const cJSON *x = ck_at(r, sm_tf_desc[f].key);

			snprintf(label, sizeof(label), "run %d' %s", k, sm_tf_desc[f].key);
			if (got == 1 && cJSON_IsNumber(x)) {
				ck_lay_val(L, label, &s, sm_tf_desc[f].key, x->valuedouble);
			} else if ((got == 0) != cJSON_IsNull(x) && x) {
				L->c->evaluated++;
				sm_check_fail(L->c, L->id, "csv '%s' is %s, the run's figure is %s", label,
					      got == 0 ? "empty" : "a number", cJSON_IsNull(x) ? "null" : "a number");
			}
		}
	}
}

void ck_lay_time(struct ck_lay *L)
{
	if (!strcmp(L->layout, "text"))
		table(L, 0);
	else if (!strcmp(L->layout, "markdown"))
		table(L, 1);
	else if (!strcmp(L->layout, "timeit"))
		timeit(L);
	else if (!strcmp(L->layout, "csv"))
		csv(L);
}
