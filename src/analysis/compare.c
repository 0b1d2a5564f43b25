/* SPDX-License-Identifier: MIT */
/* The comparison of saved results: each command's figures read from its
 * JSON as stored (compare_figs.c), gathered per side, and compared by
 * mean, ratio and Welch's t-test; parameters and environment checked. */
#include "analysis/compare.h"
#include "core/msg.h"
#include "result/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sides ---- */

/* The parameters that decide what a command's figures mean (they must
 * match to compare), and those worth a note when they differ. */
static const char *const must_frames[] = { "test", "frame_bytes", "fps", "stream", NULL };
static const char *const must_fileio[] = { "test_mode", "block_size_bytes", NULL };
static const char *const must_run[] = { "formats", "fps", NULL };
static const char *const must_meta[] = { "files", "size_bytes", NULL };
static const char *const must_none[] = { NULL };
static const char *const note_frames[] = {
	"threads", "depth", "engine", "direct", "frames", "queue", "order", "out_of_order",
	"ios_per_frame", "files_per_dir", "data", "time_limit_ns", NULL };
static const char *const note_fileio[] = {
	"io_mode", "threads", "file_num", "total_size_bytes", "request_size_bytes", "rw_ratio",
	"fsync_freq", "fsync_all", "fsync_mode", "extra_flags", "async_backlog", "rate_per_s",
	"time_limit_ns", "event_limit", "data", NULL };
static const char *const note_run[] = { "time_ns", "threads", "queue", "direct", "engine",
					 "confirm", NULL };
static const char *const note_meta[] = { "threads", "dir", NULL };
static const char *const note_time[] = { "command", "shell", "prepare", "warmup", NULL };

static const char *const *must_list(const char *cmd)
{
	return !strcmp(cmd, "frames") ? must_frames : !strcmp(cmd, "fileio") ? must_fileio
	       : !strcmp(cmd, "run") ? must_run : !strcmp(cmd, "meta") ? must_meta : must_none;
}

static const char *const *note_list(const char *cmd)
{
	return !strcmp(cmd, "frames") ? note_frames : !strcmp(cmd, "fileio") ? note_fileio
	       : !strcmp(cmd, "run") ? note_run : !strcmp(cmd, "meta") ? note_meta : note_time;
}

/* The value of params' key as short JSON text into buf ("absent"). */
static const char *pval(const cJSON *params, const char *key, char *buf, size_t len)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(params, key);
	char *t = x ? cJSON_PrintUnformatted(x) : NULL;

	snprintf(buf, len, "%s", t ? t : "absent");
	if (strlen(buf) > 60)
		snprintf(buf + 56, len - 56, "...");
	free(t);
	return buf;
}

/* The first key of list whose value differs between p and q, or NULL. */
static const char *first_diff(const cJSON *p, const cJSON *q, const char *const *list)
{
	for (; *list; list++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(p, *list);
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(q, *list);

		if (!x != !y || (x && !cJSON_Compare(x, y, 1)))
			return *list;
	}
	return NULL;
}

static void read_env(const cJSON *doc, struct sm_cmp_env *env)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const char *s;
	double v;

	memset(env, 0, sizeof(*env));
	if (!cJSON_IsObject(e))
		return;
	env->known = 1;
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "kernel"))))
		sm_escape_ctl(env->kernel, sizeof(env->kernel), s);   /* shown in the notes */
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "fs_type"))))
		sm_escape_ctl(env->fs_type, sizeof(env->fs_type), s);   /* shown in the notes */
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "device"))))
		sm_escape_ctl(env->device, sizeof(env->device), s);   /* shown in the notes */
	if ((s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "engine"))))
		sm_escape_ctl(env->engine, sizeof(env->engine), s);   /* shown in the notes */
	env->direct_io = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "direct_io"));
	if (!sm_jget_double(e, "cpus", &v, NULL))
		env->cpus = (unsigned)v;
	if (!sm_jget_double(e, "mem_total_bytes", &v, NULL))
		env->mem_total_bytes = (uint64_t)v;
}

static int side_grow(struct sm_cmp_side *s, unsigned more)
{
	if (s->nruns + more > s->cap) {
		unsigned cap = s->cap ? s->cap : 8;
		void *p;

		while (cap < s->nruns + more)
			cap *= 2;
		p = realloc(s->runs, cap * sizeof(*s->runs));
		if (!p)
			return -ENOMEM;
		s->runs = p;
		s->cap = cap;
	}
	return 0;
}

int sm_cmp_side_add_doc(struct sm_cmp_side *s, const cJSON *doc, int figures, char *why,
			size_t len)
{
	const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "command"));
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(doc, "params");
	struct sm_cmp_run *runs = NULL;
	unsigned n = 0;
	int rc;

	if (!cmd || strlen(cmd) >= sizeof(s->command)) {
		snprintf(why, len, "'command' is missing or not a command name");
		return -EINVAL;
	}
	if (s->command[0] && strcmp(s->command, cmd)) {
		snprintf(why, len, "it holds runs of %s and of %s", s->command, cmd);
		return -EINVAL;
	}
	if (s->params && params) {
		const char *k = first_diff(s->params, params, must_list(cmd));
		char x[64], y[64];

		if (k) {
			snprintf(why, len, "its runs differ in %s (%s and %s): they are not repeats of one test",
				 k, pval(s->params, k, x, sizeof(x)), pval(params, k, y, sizeof(y)));
			return -EINVAL;
		}
	}
	if (figures) {
		rc = sm_cmp_doc_figures(doc, &runs, &n, why, len);
		if (rc)
			return rc;
		if (side_grow(s, n)) {
			sm_cmp_runs_free(runs, n);
			snprintf(why, len, "out of memory");
			return -ENOMEM;
		}
		memcpy(s->runs + s->nruns, runs, n * sizeof(*runs));
		s->nruns += n;
		free(runs);   /* the figure arrays now belong to s */
	}
	snprintf(s->command, sizeof(s->command), "%s", cmd);
	if (!s->params && params) {
		s->params = cJSON_Duplicate(params, 1);
		if (!s->params) {
			snprintf(why, len, "out of memory");
			return -ENOMEM;
		}
	}
	if (!s->env.known)
		read_env(doc, &s->env);
	s->interrupted += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "interrupted"));
	s->ndocs++;
	return 0;
}

int sm_cmp_side_add_time_run(struct sm_cmp_side *s, const struct sm_time_run *r)
{
	int rc = side_grow(s, 1);

	if (rc)
		return rc;
	memset(&s->runs[s->nruns], 0, sizeof(s->runs[0]));
	rc = sm_cmp_time_figs(&s->runs[s->nruns], r);
	s->nruns++;   /* freed with the side even when incomplete */
	snprintf(s->command, sizeof(s->command), "time");
	return rc;
}

void sm_cmp_side_release(struct sm_cmp_side *s)
{
	sm_cmp_runs_free(s->runs, s->nruns);
	cJSON_Delete(s->params);
	s->runs = NULL;
	s->params = NULL;
	s->nruns = s->cap = 0;
}

/* ---- the comparison ---- */

static void note(struct sm_cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct sm_cmp *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nnotes >= SM_CMP_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), fmt, ap);
	va_end(ap);
}

static void env_notes(struct sm_cmp *c, const struct sm_cmp_env *a, const struct sm_cmp_env *b)
{
	char x[32], y[32];

	if (!a->known || !b->known) {
		if (a->known != b->known)
			note(c, "%s: not stored for %s%s", "environment", a->known ? "B" : "A",
			     " (saved by an older stormark)");
		return;
	}
	if (strcmp(a->kernel, b->kernel))
		note(c, "%s differs: %s vs %s", "kernel", a->kernel, b->kernel);
	if (strcmp(a->fs_type, b->fs_type))
		note(c, "%s differs: %s vs %s", "file system", a->fs_type, b->fs_type);
	if (strcmp(a->device, b->device))
		note(c, "%s differs: %s vs %s", "device", a->device, b->device);
	if (a->direct_io != b->direct_io)
		note(c, "%s differs: %s vs %s", "I/O", a->direct_io ? "direct" : "buffered",
		     b->direct_io ? "direct" : "buffered");
	if (strcmp(a->engine, b->engine))
		note(c, "%s differs: %s vs %s", "engine", a->engine, b->engine);
	if (a->cpus != b->cpus) {
		snprintf(x, sizeof(x), "%u", a->cpus);
		snprintf(y, sizeof(y), "%u", b->cpus);
		note(c, "%s differs: %s vs %s", "CPUs", x, y);
	}
	if (a->mem_total_bytes != b->mem_total_bytes) {
		snprintf(x, sizeof(x), "%llu", (unsigned long long)a->mem_total_bytes);
		snprintf(y, sizeof(y), "%llu", (unsigned long long)b->mem_total_bytes);
		note(c, "%s differs: %s vs %s bytes", "memory", x, y);
	}
}

/* Mean and sample standard deviation of name over s's runs; *n runs had it;
 * verdict: the runs' common verdict, or "mixed". */
static void side_stat(const struct sm_cmp_side *s, const char *name, unsigned *n, double *mean,
		      double *sd, char *verdict, size_t vlen)
{
	double sum = 0, m2 = 0;

	*n = 0;
	*mean = *sd = 0;
	verdict[0] = '\0';
	for (unsigned i = 0; i < s->nruns; i++) {
		const struct sm_cmp_fig *f = sm_cmp_find(&s->runs[i], name);

		if (!f)
			continue;
		(*n)++;
		sum += f->v;
		if (f->unit == SM_CU_VERDICT) {
			if (!verdict[0])
				snprintf(verdict, vlen, "%s", f->verdict);
			else if (strcmp(verdict, f->verdict))
				snprintf(verdict, vlen, "mixed");
		}
	}
	if (!*n)
		return;
	*mean = sum / *n;
	for (unsigned i = 0; i < s->nruns; i++) {
		const struct sm_cmp_fig *f = sm_cmp_find(&s->runs[i], name);

		if (f)
			m2 += (f->v - *mean) * (f->v - *mean);
	}
	*sd = *n > 1 ? sqrt(m2 / (*n - 1)) : 0;
}

static int has_row(const struct sm_cmp *c, const char *name)
{
	for (unsigned i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return 1;
	return 0;
}

static int add_row(struct sm_cmp *c, unsigned *cap, const struct sm_cmp_fig *f,
		   const struct sm_cmp_side *a, const struct sm_cmp_side *b)
{
	struct sm_cmp_row *r;

	if (c->nrows == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 64;
		void *p = realloc(c->rows, ncap * sizeof(*c->rows));

		if (!p)
			return -ENOMEM;
		c->rows = p;
		*cap = ncap;
	}
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", f->name);
	snprintf(r->label, sizeof(r->label), "%s", f->label);
	r->unit = f->unit;
	r->better = f->better;
	side_stat(a, f->name, &r->na, &r->mean_a, &r->sd_a, r->verdict_a, sizeof(r->verdict_a));
	side_stat(b, f->name, &r->nb, &r->mean_b, &r->sd_b, r->verdict_b, sizeof(r->verdict_b));
	r->ratio = r->na && r->nb && r->mean_a != 0 && r->unit != SM_CU_VERDICT
		   ? r->mean_b / r->mean_a : NAN;
	r->w.t = r->w.df = r->w.p = NAN;
	if (r->unit != SM_CU_VERDICT && r->na >= 2 && r->nb >= 2) {
		r->tested = 1;
		if (sm_welch(r->mean_a, r->sd_a * r->sd_a, r->na, r->mean_b, r->sd_b * r->sd_b,
			     r->nb, &r->w))
			r->w.t = r->w.df = r->w.p = NAN;
		r->significant = !isnan(r->w.p) && r->w.p < c->alpha;
		if (r->significant && r->better)
			r->change = (r->mean_b > r->mean_a ? 1 : -1) * r->better;
	}
	return 0;
}

int sm_cmp_compute(const struct sm_cmp_side *a, const struct sm_cmp_side *b, double alpha,
		   struct sm_cmp *c, char *why, size_t len)
{
	const struct sm_cmp_side *sides[2] = { a, b };
	unsigned cap = 0;
	const char *k;
	char x[64], y[64];

	memset(c, 0, sizeof(*c));
	c->alpha = alpha;
	if (strcmp(a->command, b->command)) {
		snprintf(why, len, "A holds %s runs and B %s runs: only runs of one command compare",
			 a->command, b->command);
		return -EINVAL;
	}
	if (!a->nruns || !b->nruns) {
		snprintf(why, len, "%s has no measured runs", a->nruns ? "B" : "A");
		return -EINVAL;
	}
	if (a->params && b->params && (k = first_diff(a->params, b->params, must_list(a->command)))) {
		snprintf(why, len, "A and B differ in %s (%s vs %s): their figures do not compare",
			 k, pval(a->params, k, x, sizeof(x)), pval(b->params, k, y, sizeof(y)));
		return -EINVAL;
	}
	snprintf(c->command, sizeof(c->command), "%s", a->command);
	c->nruns_a = a->nruns;
	c->nruns_b = b->nruns;
	c->ndocs_a = a->ndocs;
	c->ndocs_b = b->ndocs;
	env_notes(c, &a->env, &b->env);
	if (a->params && b->params)
		for (const char *const *l = note_list(a->command); *l; l++)
			if (first_diff(a->params, b->params, (const char *const[]){ *l, NULL }))
				note(c, "parameter %s differs: %s vs %s", *l,
				     pval(a->params, *l, x, sizeof(x)), pval(b->params, *l, y, sizeof(y)));
	for (unsigned s = 0; s < 2; s++)
		if (sides[s]->interrupted) {
			snprintf(x, sizeof(x), "%u", sides[s]->interrupted);
			note(c, "%s: %s of its results were interrupted (partial figures)%s",
			     s ? "B" : "A", x, "");
		}
	for (unsigned s = 0; s < 2; s++)
		for (unsigned i = 0; i < sides[s]->nruns; i++)
			for (unsigned j = 0; j < sides[s]->runs[i].n; j++) {
				const struct sm_cmp_fig *f = &sides[s]->runs[i].fig[j];

				if (!has_row(c, f->name) && add_row(c, &cap, f, a, b)) {
					sm_cmp_release(c);
					snprintf(why, len, "out of memory");
					return -ENOMEM;
				}
			}
	return 0;
}

void sm_cmp_release(struct sm_cmp *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}
