/* SPDX-License-Identifier: MIT */
/* The HTML report of a `time` result (html.h). */
#include "report/html.h"
#include "report/html_page.h"
#include "report/timeit.h"

#include <stdlib.h>

#define MIB (1024.0 * 1024.0)

/* The figures the runs table shows, in its order. */
static const enum sm_tf shown[] = {
	SM_TF_WALL_NS, SM_TF_USER_NS, SM_TF_SYS_NS, SM_TF_MAX_RSS_BYTES, SM_TF_READ_BYTES,
	SM_TF_WRITE_BYTES, SM_TF_STORAGE_READ_BYTES, SM_TF_STORAGE_WRITE_BYTES,
};
#define NSHOWN (sizeof(shown) / sizeof(shown[0]))

static void runs_table(FILE *f, const struct sm_time_result *r)
{
	char a[48];

	fputs("<table id=\"runs-table\"><tr><th>run</th><th>exit</th>", f);
	for (unsigned k = 0; k < NSHOWN; k++) {
		fputs("<th>", f);
		sm_html_text(f, sm_tf_desc[shown[k]].label);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < r->nruns; i++) {
		const struct sm_time_run *run = &r->runs[i];

		fprintf(f, "<tr><td>%u</td><td>%d</td>", i + 1, run->exit_code);
		for (unsigned k = 0; k < NSHOWN; k++) {
			enum sm_tf t = shown[k];

			fputs("<td>", f);
			if (run->missing & SM_TF_BIT(t)) {
				fputs("<span title=\"", f);
				sm_html_text(f, sm_time_missing_reason(r, t));
				fputs("\">n/a</span>", f);
			} else {
				sm_html_text(f, sm_tf_format(a, sizeof(a), t, run->v[t]));
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void stats_table(FILE *f, const struct sm_time_result *r)
{
	char a[48];

	fputs("<table id=\"stats-table\"><tr><th>figure</th><th>mean</th><th>stddev</th><th>median</th>"
	      "<th>min</th><th>max</th><th>runs</th></tr>\n", f);
	for (unsigned k = 0; k < NSHOWN; k++) {
		struct sm_tf_stat s;

		s = r->stat[shown[k]];
		fputs("<tr><td>", f);
		sm_html_text(f, sm_tf_desc[shown[k]].label);
		fputs("</td>", f);
		if (!s.n) {
			fputs("<td colspan=\"5\">n/a</td><td>0</td></tr>\n", f);
			continue;
		}
		{
			const double x[] = { s.mean, s.stddev, s.median, s.min, s.max };

			for (int j = 0; j < 5; j++) {
				fputs("<td>", f);
				sm_html_text(f, sm_tf_format(a, sizeof(a), shown[k], x[j]));
				fputs("</td>", f);
			}
		}
		fprintf(f, "<td>%u</td></tr>\n", s.n);
	}
	fputs("</table>\n", f);
}

void sm_html_time(FILE *f, const struct sm_time_result *r)
{
	size_t n = r->nruns;
	double *wall = calloc(n ? n : 1, sizeof(double)), *rd = calloc(n ? n : 1, sizeof(double)),
	       *wr = calloc(n ? n : 1, sizeof(double));
	char **labels = calloc(n ? n : 1, sizeof(char *)), subject[512];
	size_t pos = 0;

	for (int i = 0; i < r->cmd_argc && pos < sizeof(subject) - 1; i++)
		pos += (size_t)snprintf(subject + pos, sizeof(subject) - pos, "%s%s", i ? " " : "",
					r->cmd_argv[i]);
	subject[pos < sizeof(subject) ? pos : sizeof(subject) - 1] = '\0';
	if (!r->cmd_argc)
		snprintf(subject, sizeof(subject), "?");
	sm_html_begin(f, &r->head, subject);
	sm_html_section(f, "parameters", "Parameters");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "timed command", "%s%s", subject, r->shell ? " (through sh -c)" : "");
	if (r->prepare)
		sm_html_kv(f, "prepare", "%s", r->prepare);
	sm_html_kv(f, "runs", "%u measured of %u, %u warm-up", r->nruns, r->runs_requested, r->warmup);
	if (r->disk_ok)
		sm_html_kv(f, "device", "%s (%u:%u), system-wide figures", r->disk.name, r->disk.major,
			   r->disk.minor);
	sm_html_kv_end(f);
	sm_html_section_end(f);
	sm_html_section(f, "runs", "Runs");
	runs_table(f, r);
	if (n > 1)
		stats_table(f, r);
	if (!wall || !rd || !wr || !labels) {
		sm_html_note(f, "err", "out of memory: the charts are left out");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct sm_time_run *run = &r->runs[i];

		wall[i] = run->v[SM_TF_WALL_NS] / 1e9;
		rd[i] = run->missing & SM_TF_BIT(SM_TF_STORAGE_READ_BYTES) ? -1 :
			run->v[SM_TF_STORAGE_READ_BYTES] / MIB;
		wr[i] = run->missing & SM_TF_BIT(SM_TF_STORAGE_WRITE_BYTES) ? -1 :
			run->v[SM_TF_STORAGE_WRITE_BYTES] / MIB;
		labels[i] = malloc(16);
		if (labels[i])
			snprintf(labels[i], 16, "%zu", i + 1);
		else
			goto out;
	}
	{
		const double *vw[1] = { wall }, *vs[2] = { rd, wr };
		const char *nw[1] = { "wall time" }, *ns[2] = { "storage read", "storage write" };

		sm_html_chart_bars(f, "chart-wall", "Wall time per run", "seconds", n,
				   (const char *const *)labels, 1, vw, nw);
		sm_html_chart_bars(f, "chart-storage", "Storage bytes per run (the command's process tree)",
				   "MiB", n, (const char *const *)labels, 2, vs, ns);
	}
out:
	sm_html_section_end(f);
	sm_html_end(f);
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
	free(wall);
	free(rd);
	free(wr);
}
