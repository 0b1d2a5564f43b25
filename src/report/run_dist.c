/* SPDX-License-Identifier: MIT */
/* The MPI note of `stormark run`'s report and the ranks' own best formats:
 * a pure rendering of what rank 0 gathered. */
#include "report/run_dist.h"

#include "report/run_text.h"

void sm_run_dist_text(FILE *f, unsigned nranks, const struct sm_run_rank_best *b)
{
	char note[600];

	snprintf(note, sizeof(note), "MPI job of %u ranks, every test started on all of them at once. The "
		 "block and frame figures above are the job's: all ranks' data from the first rank's first I/O "
		 "to the last rank's last, latencies from all ranks' histograms merged. Each verdict cell is the worst rank's: a format "
		 "is real time only when every rank held it with all %u at once (%u streams, one per client); "
		 "a paced run counts only when every rank's did.", nranks, nranks, nranks);
	fputc('\n', f);
	sm_text_wrap(f, note, 78, 0);
	fprintf(f, "  %5s %-18s  %-28s  %s\n", "rank", "host", "its own best capture", "its own best playback");
	for (unsigned i = 0; i < nranks; i++) {
		char cell[2][64];

		for (int d = 0; d < 2; d++)
			snprintf(cell[d], sizeof(cell[d]), "%s%s%s", !b[i].reported ? "-" : b[i].found[d] ?
				 b[i].format[d] : "none", b[i].found[d] ? " @ " : "", b[i].found[d] ? b[i].fps[d] : "");
		fprintf(f, "  %5d %-18s  %-28s  %s\n", b[i].rank, b[i].host, cell[0], cell[1]);
	}
}
