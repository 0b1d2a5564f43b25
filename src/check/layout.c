/* SPDX-License-Identifier: MIT */
/* The text layouts against the document (check.h): the helpers every
 * layout's check uses, the dispatch by command, and the host and rank
 * table an MPI job's text layouts end with. Each layout's own lines are
 * in check_layout_<command>.c. */
#include "check/check_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int ck_lay_nums(struct ck_lay *L, const char *from, const char *label, int must,
		struct ck_shown *s, unsigned max, const char **at)
{
	const char *p = ck_line(L->text, from, label);

	if (at)
		*at = p;
	if (!p) {
		L->c->evaluated += must != 0;
		if (must)
			sm_check_fail(L->c, "layout.line", "%s has no line '%s'", L->layout, label);
		return -1;
	}
	return (int)ck_numbers(p, s, max);
}

void ck_lay_val(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *what,
		double v)
{
	char where[160];

	if (s->absent)
		return;
	snprintf(where, sizeof(where), "%s '%s'", L->layout, label);
	ck_shown_eq(L->c, L->id, where, s, what, v);
}

void ck_lay_path(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *path,
		 double scale)
{
	double v;
	char what[160];

	if (s->absent || !ck_num(L->doc, path, &v))
		return;
	if (scale != 1)
		snprintf(what, sizeof(what), "%s (x %g)", path, scale);
	else
		snprintf(what, sizeof(what), "%s", path);
	ck_lay_val(L, label, s, what, v * scale);
}

void ck_lay_same(struct ck_lay *L, const char *id, const char *an, const struct ck_shown *a,
		 const char *bn, const struct ck_shown *b)
{
	L->c->evaluated++;
	if (a->absent || b->absent)
		return;
	if (fabs(a->v - b->v) > (a->half + b->half) * (1 + 1e-9) + 1e-9 * fabs(a->v))
		sm_check_fail(L->c, id, "%s '%s' shows %s, its '%s' shows %s: one value", L->layout, an,
			      a->text, bn, b->text);
}

/* The MPI job's host and rank table after a text layout (report/dist.c),
 * against the document's "mpi" object. */
static void ck_lay_dist(struct ck_lay *L)
{
	const cJSON *m = ck_at(L->doc, "mpi"), *it;
	struct ck_shown s[8];
	const char *at, *was = L->id;
	int n;

	if (!cJSON_IsObject(m) || ck_lay_nums(L, NULL, "MPI job:", 1, s, 8, &at) < 0)
		return;
	L->id = "mpi.text";
	n = ck_lay_nums(L, at, "first done: rank", 0, s, 8, NULL);
	if (n >= 3) {
		ck_lay_path(L, "first done: rank", &s[0], "mpi.first_done_rank", 1);
		ck_lay_path(L, "first done: ... at", &s[1], "mpi.first_done_ns", 1);
		ck_lay_path(L, "last done at", &s[2], "mpi.last_done_ns", 1);
	}
	if (ck_lay_nums(L, at, "aggregate:", 0, s, 8, NULL) >= 1)
		ck_lay_path(L, "aggregate:", &s[0], "mpi.bytes_per_s", 1);
	if (ck_lay_nums(L, at, "stonewall:", 0, s, 8, NULL) >= 1)
		ck_lay_path(L, "stonewall:", &s[0], "mpi.stonewall_bytes_per_s", 1);
	/* a host's row: ranks, done s, bytes, MiB/s */
	cJSON_ArrayForEach(it, ck_at(m, "hosts")) {
		const char *h = ck_str(it, "host"), *row;
		char label[64];

		if (!h || strlen(h) > 24)
			continue;
		snprintf(label, sizeof(label), "%s ", h);
		row = ck_line(L->text, at, label);
		if (row && ck_numbers(row, s, 8) >= 4) {
			double v;

			snprintf(label, sizeof(label), "host %s", h);
			if (ck_num(it, "ranks", &v))
				ck_lay_val(L, label, &s[0], "its ranks", v);
			if (ck_num(it, "done_ns", &v))
				ck_lay_val(L, label, &s[1], "its done_ns / 1e9", v / 1e9);
			if (ck_num(it, "bytes", &v))
				ck_lay_val(L, label, &s[2], "its bytes", v);
			if (ck_num(it, "bytes_per_s", &v))
				ck_lay_val(L, label, &s[3], "its bytes_per_s / 2^20", v / 1048576.0);
		}
	}
	L->id = was;
}

unsigned sm_check_layout(const cJSON *doc, const char *layout, const char *text,
			 struct sm_check *c)
{
	unsigned before = c->n + c->dropped;
	const char *cmd = ck_str(doc, "command");
	struct ck_lay L = { .doc = doc, .text = text ? text : "", .layout = layout, .c = c };
	char id[32];

	if (!cmd || !layout)
		return 0;
	snprintf(id, sizeof(id), "%s.figures", layout);
	L.id = sm_check_inv_find(id) ? sm_check_inv_find(id)->id : "layout.line";
	if (!strcmp(cmd, "frames"))
		ck_lay_frames(&L);
	else if (!strcmp(cmd, "fileio"))
		ck_lay_fileio(&L);
	else if (!strcmp(cmd, "time"))
		ck_lay_time(&L);
	else if (!strcmp(cmd, "run"))
		ck_lay_run(&L);
	else if (!strcmp(cmd, "streams"))
		ck_lay_streams(&L);
	else if (!strcmp(cmd, "meta"))
		ck_lay_meta(&L);
	/* frames' frametest and fileio's text layouts end with the job's table */
	if ((!strcmp(cmd, "frames") && !strcmp(layout, "frametest")) ||
	    (!strcmp(cmd, "fileio") && strcmp(layout, "csv") && strcmp(layout, "openmetrics") &&
	     strcmp(layout, "prometheus")))
		ck_lay_dist(&L);
	return c->n + c->dropped - before;
}
