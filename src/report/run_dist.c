/* SPDX-License-Identifier: MIT */
/* The MPI note of `stormark run`'s report and the ranks' own best formats:
 * a pure rendering of what rank 0 gathered. */
#include "report/run_dist.h"

#include "analysis/dist.h"
#include "report/run_text.h"

#include <string.h>

/* A rank's two cells: its best capture and playback ("-": no verdicts). */
static void best_cells(const struct sm_run_rank_best *b, char cell[2][64])
{
	for (int d = 0; d < 2; d++)
		snprintf(cell[d], 64, "%s%s%s", !b->reported ? "-" : b->found[d] ? b->format[d] : "none",
			 b->found[d] ? " @ " : "", b->found[d] ? b->fps[d] : "");
}

void sm_run_dist_text(FILE *f, unsigned nranks, const struct sm_run_rank_best *b)
{
	char note[600], cell[2][64];
	int own, hw = 4, cw = 20, pw = 21;

	snprintf(note, sizeof(note), "MPI job of %u ranks, every test started on all of them at once. The "
		 "block and frame figures above are the job's: all ranks' data from the first rank's first I/O "
		 "to the last rank's last, latencies from all ranks' histograms merged. Each verdict cell is "
		 "the worst rank's: a format is real time only when every rank held it with all %u at once "
		 "(%u streams, one per client); a paced run counts only when every rank's did. Each rank's own "
		 "table, judged on its own tests:", nranks, nranks, nranks);
	fputc('\n', f);
	sm_text_wrap(f, note, 78, 0);
	/* the host and capture columns as wide as their widest entry, so a
	 * row fits 80 columns; a host name too long for that stands on a
	 * line of its own above its row */
	for (unsigned i = 0; i < nranks; i++) {
		best_cells(&b[i], cell);
		if ((int)strlen(b[i].host) > hw)
			hw = (int)strlen(b[i].host);
		if ((int)strlen(cell[0]) > cw)
			cw = (int)strlen(cell[0]);
		if ((int)strlen(cell[1]) > pw)
			pw = (int)strlen(cell[1]);
	}
	own = 2 + 5 + 1 + hw + 2 + cw + 2 + pw > 79;
	if (own)
		hw = 4;
	fprintf(f, "  %5s %-*s  %-*s  %s\n", "rank", hw, "host", cw, "its own best capture",
		"its own best playback");
	for (unsigned i = 0; i < nranks; i++) {
		best_cells(&b[i], cell);
		if (own) {
			fprintf(f, "  %5d %s\n", b[i].rank, b[i].host);
			fprintf(f, "  %5s %-*s  %-*s  %s\n", "", hw, "", cw, cell[0], cell[1]);
		} else {
			fprintf(f, "  %5d %-*s  %-*s  %s\n", b[i].rank, hw, b[i].host, cw, cell[0], cell[1]);
		}
		if (b[i].nslow) {
			char line[600];
			int n = snprintf(line, sizeof(line), "rank %d fell behind the others (below %.0f%% of the "
					 "median rank's rate) in:", b[i].rank, SM_DIST_STRAGGLER * 100);

			for (unsigned k = 0; k < b[i].nslow && n > 0 && (size_t)n < sizeof(line); k++)
				n += snprintf(line + n, sizeof(line) - (size_t)n, "%s %s", k ? "," : "", b[i].slow[k]);
			sm_text_wrap(f, line, 78, 8);
		}
	}
}

cJSON *sm_run_dist_json(unsigned nranks, const struct sm_run_rank_best *b)
{
	cJSON *a = cJSON_CreateArray();

	for (unsigned i = 0; a && i < nranks; i++) {
		cJSON *o = cJSON_CreateObject(), *slow;

		if (!o)
			break;
		cJSON_AddNumberToObject(o, "rank", b[i].rank);
		cJSON_AddBoolToObject(o, "verdicts", b[i].reported);
		for (int d = 0; d < 2; d++) {
			const char *key = d ? "best_playback" : "best_capture";

			if (b[i].found[d]) {
				cJSON *x = cJSON_AddObjectToObject(o, key);

				cJSON_AddStringToObject(x, "format", b[i].format[d]);
				cJSON_AddStringToObject(x, "fps", b[i].fps[d]);
			} else {
				cJSON_AddNullToObject(o, key);
			}
		}
		slow = cJSON_AddArrayToObject(o, "behind_in");
		for (unsigned k = 0; slow && k < b[i].nslow; k++)
			cJSON_AddItemToArray(slow, cJSON_CreateString(b[i].slow[k]));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}
