/* SPDX-License-Identifier: MIT */
/* The --steady and --precondition parts of the reports. */
#include "report/steady.h"
#include "core/units.h"
#include "report/streams.h"
#include "result/json.h"

#include <stdarg.h>
#include <string.h>

/* A round figure in the report's unit: IOPS, or MiB/s. */
static const char *fig(char *b, size_t len, const struct sm_steady *s, double v)
{
	if (!strcmp(s->metric, "iops"))
		snprintf(b, len, "%.1f IOPS", v);
	else
		snprintf(b, len, "%.2f MiB/s", v / 1048576.0);
	return b;
}

static double pct_of(double v, double avg)
{
	return avg > 0 ? 100.0 * v / avg : 0;
}

/* A line of the text layout, wrapped at word ends to 79 columns (its
 * continuation lines indented by 2). */
static void text_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_line(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sm_streams_wrapf(f, 2, "%s", buf);
}

/* A markdown item: one line, as markdown joins it anyway. */
static void md_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void md_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static void precond_text(FILE *f, const struct sm_precond *p, const char *lead)
{
	char a[32], b[32];

	/* the text wrapped at 79 columns; markdown's item on one line */
	(*lead ? md_line : text_line)(f, "%sprecondition: %s of %s written sequentially in %llu KiB "
		"requests (twice the set) in %.1f s (%.2f MiB/s)%s", lead, sm_fmt_bytes(a, sizeof(a), (double)p->bytes),
		sm_fmt_bytes(b, sizeof(b), (double)p->target_bytes),
		(unsigned long long)(p->block_bytes / 1024), (double)p->duration_ns / 1e9,
		p->bytes_per_s / 1048576.0, p->bytes < p->target_bytes ? " (stopped early)" : "");
}

void sm_steady_brief(char *buf, size_t len, const struct sm_steady *s)
{
	const struct sm_steady_window *w = &s->win;
	char a[32];

	buf[0] = '\0';
	if (!s->on)
		return;
	if (s->reached_at)
		snprintf(buf, len, "steady at round %u (rounds %u-%u: %s, range %.1f%%, excursion %.1f%%)",
			 s->reached_at, w->first, w->first + w->n - 1, fig(a, sizeof(a), s, w->avg),
			 pct_of(w->range, w->avg), pct_of(w->excursion, w->avg));
	else
		snprintf(buf, len, "NOT steady in %u round%s (the last %u: %s, range %.1f%%, excursion %.1f%%)",
			 s->nrounds, s->nrounds == 1 ? "" : "s", w->n, fig(a, sizeof(a), s, w->avg),
			 pct_of(w->range, w->avg), pct_of(w->excursion, w->avg));
}

void sm_precond_text(FILE *f, const struct sm_precond *p, int md)
{
	if (p->on)
		precond_text(f, p, md ? "- " : "");
}

void sm_steady_text(FILE *f, const struct sm_steady *s, const struct sm_precond *p, int md)
{
	const struct sm_steady_window *w = &s->win;
	const char *lead = md ? "- " : "";
	char a[32], b[32], c[32], d[96];
	void (*line)(FILE *, const char *, ...) = md ? md_line : text_line;

	if (!s->on && !p->on)
		return;
	fprintf(f, md ? "\n## Steady state\n\n" : "\n");
	if (p->on)
		precond_text(f, p, lead);
	if (!s->on)
		return;
	if (s->reached_at)
		snprintf(d, sizeof(d), "reached at round %u (rounds of %.0f s, at most %u)", s->reached_at,
			 (double)s->round_ns / 1e9, s->max_rounds);
	else
		snprintf(d, sizeof(d), "NOT reached in %u round%s of %.0f s (at most %u)", s->nrounds,
			 s->nrounds == 1 ? "" : "s", (double)s->round_ns / 1e9, s->max_rounds);
	line(f, "%ssteady state (SNIA PTS: the last %u rounds' %s within %.0f%% of their average, "
	     "their best-fit line's excursion within %.0f%%): %s", lead, s->rule.window,
	     !strcmp(s->metric, "iops") ? "IOPS" : "bandwidth", s->rule.range_limit * 100,
	     s->rule.excursion_limit * 100, d);
	if (w->n)
		line(f, "%sthe figures %s cover rounds %u-%u%s: average %s, range %s (%.1f%%), "
			"best-fit excursion %s (%.1f%%)", lead, md ? "above" : "of this report",
			w->first, w->first + w->n - 1, s->reached_at ? "" : ", which are not steady",
			fig(a, sizeof(a), s, w->avg), fig(b, sizeof(b), s, w->range),
			pct_of(w->range, w->avg), fig(c, sizeof(c), s, w->excursion),
			pct_of(w->excursion, w->avg));
	fprintf(f, "%srounds (%s):", lead, !strcmp(s->metric, "iops") ? "IOPS" : "MiB/s");
	for (unsigned i = 0; i < s->nrounds; i++) {
		if (i && i % (md ? 10 : 6) == 0)   /* text: six of up to 10 columns a line */
			fprintf(f, md ? "\n ": "\n   ");
		if (!strcmp(s->metric, "iops"))
			fprintf(f, " %.1f", s->figure[i]);
		else
			fprintf(f, " %.2f", s->figure[i] / 1048576.0);
	}
	fputc('\n', f);
}

cJSON *sm_steady_json(const struct sm_steady *s)
{
	const struct sm_steady_window *w = &s->win;
	cJSON *o = cJSON_CreateObject(), *x, *a;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "metric", s->metric);
	sm_json_add_u64(o, "round_ns", s->round_ns);
	sm_json_add_double(o, "max_rounds", s->max_rounds);
	x = cJSON_AddObjectToObject(o, "rule");
	sm_json_add_double(x, "window_rounds", s->rule.window);
	sm_json_add_double(x, "range_limit", s->rule.range_limit);
	sm_json_add_double(x, "excursion_limit", s->rule.excursion_limit);
	a = cJSON_AddArrayToObject(o, "rounds");
	for (unsigned i = 0; i < s->nrounds; i++) {
		cJSON *r = cJSON_CreateObject();

		sm_json_add_double(r, "figure", s->figure[i]);
		sm_json_add_u64(r, "duration_ns", s->duration_ns[i]);
		cJSON_AddItemToArray(a, r);
	}
	cJSON_AddBoolToObject(o, "reached", s->reached_at != 0);
	if (s->reached_at)
		sm_json_add_double(o, "reached_at_round", s->reached_at);
	else
		cJSON_AddNullToObject(o, "reached_at_round");
	x = cJSON_AddObjectToObject(o, "window");
	sm_json_add_double(x, "first_round", w->first);
	sm_json_add_double(x, "rounds", w->n);
	sm_json_add_double(x, "avg", w->avg);
	sm_json_add_double(x, "min", w->min);
	sm_json_add_double(x, "max", w->max);
	sm_json_add_double(x, "range", w->range);
	sm_json_add_double(x, "slope", w->slope);
	sm_json_add_double(x, "excursion", w->excursion);
	cJSON_AddBoolToObject(x, "range_ok", w->range_ok);
	cJSON_AddBoolToObject(x, "excursion_ok", w->excursion_ok);
	cJSON_AddBoolToObject(x, "steady", w->steady);
	return o;
}

cJSON *sm_precond_json(const struct sm_precond *p)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	sm_json_add_u64(o, "block_bytes", p->block_bytes);
	sm_json_add_u64(o, "target_bytes", p->target_bytes);
	sm_json_add_u64(o, "bytes", p->bytes);
	sm_json_add_u64(o, "duration_ns", p->duration_ns);
	sm_json_add_double(o, "bytes_per_s", p->bytes_per_s);
	return o;
}

void sm_steady_round_line(FILE *f, unsigned n, const struct sm_steady *s)
{
	const struct sm_steady_window *w = &s->win;
	double y = s->figure[n - 1];

	if (!strcmp(s->metric, "iops"))
		fprintf(f, "stormark: steady round %u/%u: %.1f IOPS", n, s->max_rounds, y);
	else
		fprintf(f, "stormark: steady round %u/%u: %.2f MiB/s", n, s->max_rounds, y / 1048576.0);
	if (w->n == s->rule.window)
		fprintf(f, "; last %u: range %.1f%%, excursion %.1f%% of the average%s", w->n,
			w->avg > 0 ? 100 * w->range / w->avg : 0, w->avg > 0 ? 100 * w->excursion / w->avg : 0,
			s->reached_at == n ? ": steady" : "");
	fputc('\n', f);
}
