/* SPDX-License-Identifier: MIT */
/* The checker's two entry points (check.h): a document's invariants and a
 * layout's text against its document, each dispatched by command to the
 * body's checks (body.h). Nothing in check/ calls back into this file. */
#include "check/check.h"
#include "check/body.h"

#include <stdio.h>
#include <string.h>

unsigned sm_check_doc(const cJSON *doc, struct sm_check *c)
{
	unsigned before = c->n + c->dropped;
	const char *cmd = ck_str(doc, "command");
	const cJSON *r;

	if (!cmd)
		return 0;
	ck_head(doc, c);
	if (!strcmp(cmd, "frames"))
		ck_frames(doc, c);
	else if (!strcmp(cmd, "fileio"))
		ck_fileio(doc, c);
	else if (!strcmp(cmd, "time"))
		ck_time(doc, c);
	else if (!strcmp(cmd, "run")) {
		ck_run(doc, c);
		ck_run_meta(doc, c);
	}
	else if (!strcmp(cmd, "streams"))
		ck_streams(doc, c);
	else if (!strcmp(cmd, "meta"))
		ck_meta(doc, c);
	if (cJSON_IsObject(ck_at(doc, "mpi")))
		ck_mpi(doc, c);
	/* every rank's own document is a result of its own */
	cJSON_ArrayForEach(r, ck_at(doc, "mpi.ranks")) {
		const cJSON *res = ck_at(r, "result");
		char was[sizeof(c->prefix)];
		double rank = -1;

		if (!cJSON_IsObject(res) || !ck_str(res, "command") || ck_at(res, "mpi"))
			continue;
		memcpy(was, c->prefix, sizeof(was));
		ck_num(r, "rank", &rank);
		snprintf(c->prefix, sizeof(c->prefix), "%srank %g's own result: ", was, rank);
		sm_check_doc(res, c);
		memcpy(c->prefix, was, sizeof(was));
	}
	return c->n + c->dropped - before;
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
		ck_lay_mpi(&L);
	return c->n + c->dropped - before;
}
