/* SPDX-License-Identifier: MIT */
/* The history's cells and headlines, from a saved result's figures. */
#include "report/history.h"

#include <cjson/cJSON.h>
#include <math.h>
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

char *sm_history_plain(char *buf, size_t len, double v, int decimals)
{
	size_t n;

	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	n = (size_t)snprintf(buf, len, "%.*f", decimals, v);
	if (n >= len || !strchr(buf, '.'))
		return buf;
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
	return buf;
}

const char *sm_history_csv_unit(enum sm_cmp_unit u)
{
	switch (u) {
	case SM_CU_NS:
	case SM_CU_MS:
		return "ms";
	case SM_CU_BPS:
		return "MiB/s";
	case SM_CU_RATE:
		return "/s";
	case SM_CU_BYTES:
		return "bytes";
	case SM_CU_PCT:
		return "%";
	default:
		return "";
	}
}

char *sm_history_csv_num(char *buf, size_t len, enum sm_cmp_unit u, double v)
{
	switch (u) {
	case SM_CU_NS:   /* to ms, to the ns */
		return sm_history_plain(buf, len, v / 1e6, 6);
	case SM_CU_BPS:
		return sm_history_plain(buf, len, v / 1048576.0, 3);
	case SM_CU_MS:
	case SM_CU_RATE:
	case SM_CU_PCT:
		return sm_history_plain(buf, len, v, 3);
	default:         /* counts and bytes: as they are */
		return sm_history_plain(buf, len, v, 3);
	}
}

const char *sm_history_csv_cell(char *buf, size_t len, const struct sm_cmp_run *run,
				const char *name)
{
	const struct sm_cmp_fig *f = run ? sm_cmp_find(run, name) : NULL;

	if (!f)
		return "";
	if (f->unit == SM_CU_VERDICT)
		return f->verdict;
	return sm_history_csv_num(buf, len, f->unit, f->v);
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
		/* reads and writes: an fsync is no I/O of the IOPS figure */
		const struct sm_cmp_fig *io = sm_cmp_find(&runs[0], "fileio.iops");

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
