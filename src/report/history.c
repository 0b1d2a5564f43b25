/* SPDX-License-Identifier: MIT */
/* The history's cells and headlines, from a saved result's figures. */
#include "report/history.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "report/compare.h"

const char *sm_history_cell(char *buf, size_t len, const struct sm_cmp_run *run, const char *name)
{
	const struct sm_cmp_fig *f = run ? sm_cmp_find(run, name) : NULL;

	if (!f)
		return "-";
	if (f->unit == SM_CU_VERDICT)
		return f->verdict;
	return sm_cmp_fmt(buf, len, f->unit, f->v);
}

void sm_history_headline(const cJSON *doc, const char *command, char *buf, size_t len)
{
	struct sm_cmp_run *runs = NULL;
	unsigned nr = 0;
	char err[256], a[48], b[48];

	snprintf(buf, len, "-");
	if (sm_cmp_doc_figures(doc, &runs, &nr, err, sizeof(err)) || !nr)
		goto out;
	if (!strcmp(command, "frames"))
		snprintf(buf, len, "%s, %s", sm_history_cell(a, sizeof(a), &runs[0], "totals.items_per_s"),
			 sm_history_cell(b, sizeof(b), &runs[0], "totals.bytes_per_s"));
	else if (!strcmp(command, "fileio")) {
		const struct sm_cmp_fig *io = sm_cmp_find(&runs[0], "totals.items_per_s");

		/* IOPS is a rate already: "11253.3 IOPS", not "11253.3/s IOPS" */
		if (io)
			snprintf(b, sizeof(b), "%.1f IOPS", io->v);
		snprintf(buf, len, "%s, %s", sm_history_cell(a, sizeof(a), &runs[0], "totals.bytes_per_s"),
			 io ? b : "-");
	}
	else if (!strcmp(command, "run")) {
		const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(doc, "params"), "dir"));

		snprintf(buf, len, "%s", dir ? dir : "-");
	}
out:
	sm_cmp_runs_free(runs, nr);
}
