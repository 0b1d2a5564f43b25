/* SPDX-License-Identifier: MIT */
/* A history key's headline figures over its runs (trend.h). */
#include "analysis/trend.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const frames_heads[] = {
	"totals.items_per_s", "totals.bytes_per_s", "ops.frame.p99", "frames.dropped", NULL,
};
static const char *const fileio_heads[] = {
	"totals.bytes_per_s", "fileio.iops", "fileio.event.p99", NULL,
};
static const char *const time_heads[] = { "time.wall_ns", "time.user_ns", "time.sys_ns", NULL };

static int has(const struct sm_trend *t, const char *name)
{
	for (unsigned i = 0; i < t->nfigs; i++)
		if (!strcmp(t->fig[i].name, name))
			return 1;
	return 0;
}

/* Figure name over the runs into t's next slot, when a run measured it. */
static int add(struct sm_trend *t, const char *name, const struct sm_cmp_run *runs, unsigned n)
{
	struct sm_trend_fig *g = &t->fig[t->nfigs];
	double sum = 0, m2 = 0;

	if (t->nfigs >= SM_TREND_MAXFIGS || has(t, name))
		return 0;
	memset(g, 0, sizeof(*g));
	for (unsigned i = 0; i < n; i++) {
		const struct sm_cmp_fig *f = sm_cmp_find(&runs[i], name);

		if (!f || f->unit == SM_CU_VERDICT)
			continue;
		if (!g->v) {
			g->v = malloc((n ? n : 1) * sizeof(*g->v));
			if (!g->v)
				return -ENOMEM;
			for (unsigned k = 0; k < n; k++)
				g->v[k] = NAN;
			snprintf(g->name, sizeof(g->name), "%s", f->name);
			snprintf(g->label, sizeof(g->label), "%s", f->label);
			g->unit = f->unit;
			g->better = f->better;
		}
		g->v[i] = f->v;
		g->n++;
		sum += f->v;
	}
	if (!g->n)
		return 0;
	g->mean = sum / g->n;
	for (unsigned i = 0; i < n; i++)
		if (!isnan(g->v[i]))
			m2 += (g->v[i] - g->mean) * (g->v[i] - g->mean);
	g->sd = g->n > 1 ? sqrt(m2 / (g->n - 1)) : 0;
	t->nfigs++;
	return 0;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

int sm_trend_compute(const char *command, const struct sm_cmp_run *runs, unsigned n,
		     struct sm_trend *t)
{
	const char *const *heads = !strcmp(command, "frames") ? frames_heads
				   : !strcmp(command, "fileio") ? fileio_heads
				   : !strcmp(command, "time") ? time_heads : NULL;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->command, sizeof(t->command), "%s", command);
	t->nruns = n;
	for (unsigned i = 0; heads && heads[i] && !rc; i++)
		rc = add(t, heads[i], runs, n);
	if (!strcmp(command, "run"))
		for (unsigned r = 0; r < n && !rc; r++)
			for (unsigned k = 0; k < runs[r].n && !rc; k++)
				if (ends_with(runs[r].fig[k].name, ".bytes_per_s") &&
				    strncmp(runs[r].fig[k].name, "cliff.", 6))
					rc = add(t, runs[r].fig[k].name, runs, n);
	return rc;
}

void sm_trend_release(struct sm_trend *t)
{
	for (unsigned i = 0; i < SM_TREND_MAXFIGS; i++) {
		free(t->fig[i].v);
		t->fig[i].v = NULL;
	}
	t->nfigs = 0;
}

unsigned sm_trend_halves(unsigned n)
{
	return n / 2;
}
