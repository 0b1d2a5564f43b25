/* SPDX-License-Identifier: MIT */
/* The HTML report of a fileio result (html.h). */
#include "report/html.h"
#include "analysis/fileio.h"
#include "report/html_page.h"
#include "core/units.h"

#include <stdlib.h>

#define MIB (1024.0 * 1024.0)

static void params(FILE *f, const struct sm_fileio_result *r)
{
	const struct sm_fileio_cfg *c = &r->cfg;
	char a[32], b[32];

	sm_html_section(f, "parameters", "Parameters");
	sm_html_kv_begin(f, NULL);
	sm_html_kv(f, "test", "%s (%s)", sm_fileio_mode_name(c->mode), sm_fileio_mode_desc(c->mode));
	sm_html_kv(f, "files", "%u x %s in %s", c->num_files, sm_fmt_bytes(a, sizeof(a), (double)c->file_size),
		   c->dir ? c->dir : "?");
	sm_html_kv(f, "block size", "%s", sm_fmt_bytes(b, sizeof(b), (double)c->block_size));
	sm_html_kv(f, "threads", "%u", c->threads);
	sm_html_kv(f, "I/O mode", "%s%s, engine %s", c->io_mode == SM_FIO_IO_ASYNC ? "async" :
		   c->io_mode == SM_FIO_IO_MMAP ? "mmap" : "sync", c->extra_flags & SM_FIO_FLAG_DIRECT ?
		   ", O_DIRECT" : "", r->engine[0] ? r->engine : "?");
	sm_html_kv(f, "fsync", "%s", c->fsync_all ? "after every write" : c->fsync_freq ?
		   "periodic" : c->fsync_end ? "at the end" : "none");
	if (c->rate > 0)
		sm_html_kv(f, "rate", "%g events/s", c->rate);
	sm_html_kv(f, "seed", "%llu", (unsigned long long)c->seed);
	sm_html_kv_end(f);
	sm_html_section_end(f);
}

static void ops_table(FILE *f, const struct sm_fileio_result *r)
{
	char a[32];

	sm_html_section(f, "summary", "Operations");
	fputs("<table id=\"ops\"><tr><th>op</th><th>count</th><th>per s</th><th>MiB/s</th><th>mean</th>"
	      "<th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	for (int i = 0; i < 4; i++) {
		const struct sm_hist *h = i < 3 ? &r->ops[i].lat : &r->events_lat;
		const double v[] = { sm_hist_mean(h), (double)sm_hist_percentile(h, 50),
				     (double)sm_hist_percentile(h, 99), (double)sm_hist_percentile(h, 99.9),
				     (double)h->max };

		fprintf(f, "<tr><td>%s</td><td>%llu</td><td>%.1f</td><td>%.2f</td>",
			i < 3 ? sm_fileio_op_names[i] : "event",
			(unsigned long long)(i < 3 ? r->ops[i].count : r->events), r->fig.per_s[i],
			r->fig.bytes_per_s[i] / MIB);
		for (int k = 0; k < 5; k++)
			fprintf(f, "<td>%s</td>", h->count ? sm_fmt_ns(a, sizeof(a), v[k]) : "-");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	sm_html_note(f, "muted", "%.3f s; read/write/fsync: each request from issue to completion; event: "
		     "its thread's time on it, as sysbench counts it.", r->fig.secs);
	sm_html_section_end(f);
}

static void rates(FILE *f, const struct sm_fileio_result *r, const struct sm_html_mark *mark)
{
	size_t n = r->nseries;
	double *x = calloc(n ? n : 1, sizeof(double)), *rd = calloc(n ? n : 1, sizeof(double)),
	       *wr = calloc(n ? n : 1, sizeof(double)), *ops = calloc(n ? n : 1, sizeof(double)),
	       *lat = calloc(n ? n : 1, sizeof(double));
	struct sm_html_xy c = { 0 };

	sm_html_section(f, "rates", "Rate over the run");
	if (!x || !rd || !wr || !ops || !lat) {
		sm_html_note(f, "err", "out of memory: the rate charts are left out");
		goto out;
	}
	if (!n)
		sm_html_note(f, "muted", "This result has no interval series (a run shorter than a second, "
			     "or saved by an older stormark).");
	for (size_t i = 0; i < n; i++) {
		const struct sm_fileio_tick *t = &r->series[i];
		struct sm_fileio_tick_rates rt = sm_fileio_tick_rates(t);

		x[i] = (double)t->t_ns / 1e9;
		rd[i] = rt.read_bytes_per_s / MIB;
		wr[i] = rt.write_bytes_per_s / MIB;
		ops[i] = rt.ops_per_s;
		lat[i] = (double)t->lat_pct_ns / 1e6;
	}
	c.n = n;
	c.x = x;
	c.xlabel = "time since the start (s)";
	if (mark && mark->set) {
		c.mark_x = mark->t_s;
		c.mark_label = mark->label;
	}
	c.id = "chart-throughput";
	c.title = "Throughput per interval";
	c.ylabel = "MiB/s";
	c.nlines = 2;
	c.y[0] = rd;
	c.name[0] = "read MiB/s";
	c.y[1] = wr;
	c.name[1] = "write MiB/s";
	sm_html_chart_xy(f, &c);
	c.id = "chart-iops";
	c.title = "Requests per second per interval (read + write + fsync)";
	c.ylabel = "requests/s";
	c.nlines = 1;
	c.y[0] = ops;
	c.name[0] = "requests/s";
	sm_html_chart_xy(f, &c);
	if (n && r->pct.n) {
		char title[96];

		snprintf(title, sizeof(title), "Event time p%g per interval", r->pct.p[0]);
		c.id = "chart-interval-latency";
		c.title = title;
		c.ylabel = "ms";
		c.y[0] = lat;
		c.name[0] = "ms";
		sm_html_chart_xy(f, &c);
	}
out:
	sm_html_section_end(f);
	free(x);
	free(rd);
	free(wr);
	free(ops);
	free(lat);
}

void sm_html_fileio(FILE *f, const struct sm_fileio_result *r, const struct sm_html_mark *mark,
		    const struct sm_dist_result *dist)
{
	static const char *const ids[4] = { "chart-lat-read", "chart-lat-write", "chart-lat-fsync",
					    "chart-lat-event" };
	static const char *const titles[4] = { "Read requests", "Write requests", "fsync calls",
					       "Events (as sysbench counts them)" };
	char subject[300];

	snprintf(subject, sizeof(subject), "%s, %u thread%s", sm_fileio_mode_name(r->cfg.mode),
		 r->cfg.threads, r->cfg.threads == 1 ? "" : "s");
	sm_html_begin(f, &r->head, subject);
	params(f, r);
	ops_table(f, r);
	rates(f, r, mark);
	sm_html_section(f, "latency", "Latency");
	for (int i = 0; i < 4; i++) {
		const struct sm_hist *h = i < 3 ? &r->ops[i].lat : &r->events_lat;

		/* an operation the test does not make has no chart */
		if (h->count || i == 3)
			sm_html_chart_hist(f, ids[i], titles[i], h);
	}
	sm_html_section_end(f);
	if (dist)
		sm_html_dist(f, dist);
	sm_html_end(f);
}
