/* SPDX-License-Identifier: MIT */
/* The layouts' names and each command's render table: which reporter
 * prints which layout of its result. */
#include "report/render.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "analysis/fileio.h"
#include "analysis/frames.h"
#include "analysis/meta.h"
#include "analysis/run.h"
#include "analysis/time.h"
#include "report/csv.h"
#include "report/fileio.h"
#include "report/frametest.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/meta.h"
#include "report/openmetrics.h"
#include "report/run_text.h"
#include "report/streams.h"
#include "report/sysbench.h"
#include "report/timeit.h"
#include "report/verify.h"
#include "result/json.h"
#include "result/json_read.h"
#include "core/compiler.h"

static const char *const names[] = {
	[SM_LAYOUT_FRAMETEST] = "frametest", [SM_LAYOUT_SYSBENCH] = "sysbench",
	[SM_LAYOUT_TIMEIT] = "timeit", [SM_LAYOUT_TEXT] = "text", [SM_LAYOUT_CSV] = "csv",
	[SM_LAYOUT_MARKDOWN] = "markdown", [SM_LAYOUT_JSON] = "json", [SM_LAYOUT_HTML] = "html",
	[SM_LAYOUT_OPENMETRICS] = "openmetrics", [SM_LAYOUT_PROMETHEUS] = "prometheus",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

enum sm_layout sm_layout_find(const char *name)
{
	for (unsigned i = 1; name && i < NNAMES; i++)
		if (!strcmp(name, names[i]))
			return (enum sm_layout)i;
	return 0;
}

const char *sm_layout_name(enum sm_layout l)
{
	return (unsigned)l < NNAMES && names[l] ? names[l] : "?";
}

const struct sm_render *sm_render_find(const char *command)
{
	static const struct sm_render *const all[] = {
		&sm_render_time, &sm_render_run, &sm_render_frames, &sm_render_fileio, &sm_render_streams,
		&sm_render_meta,
	};

	for (unsigned i = 0; command && i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->command, command))
			return all[i];
	return NULL;
}

const struct sm_render *sm_render_command(const char *command)
{
	if (command && !strcmp(command, sm_render_compare.command))
		return &sm_render_compare;
	return sm_render_find(command);
}

const char *sm_render_format_help(const struct sm_render *r, char *buf, size_t len)
{
	const struct sm_layout_row *row;
	unsigned total = 0, k = 0;
	size_t n;

	for (row = r->rows; row->layout; row++)
		total += !(row->flags & SM_ROW_SAVED);
	n = (size_t)snprintf(buf, len, "report layout: ");
	for (row = r->rows; row->layout && n < len; row++) {
		if (row->flags & SM_ROW_SAVED)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s%s", k == 0 ? "" : k + 1 == total ? " or " : ", ",
				      sm_layout_name(row->layout), row->layout == r->dflt ? " (default)" : "",
				      row->help ? " " : "", row->help ? row->help : "");
		k++;
	}
	return buf;
}

const struct sm_layout_row *sm_render_row(const struct sm_render *r, enum sm_layout l)
{
	for (const struct sm_layout_row *row = r->rows; row->layout; row++)
		if (row->layout == l)
			return row;
	return NULL;
}

/* The rate chart's mark of a document: the write rate's cliff, when its
 * top-level "cliff" (docs/cliff.md) found one; else none. */
static void doc_mark(const cJSON *doc, struct sm_html_mark *m)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "cliff");
	struct sm_cliff cl;
	struct sm_jerr e = { { 0 } };

	memset(m, 0, sizeof(*m));
	if (cJSON_IsObject(c) && !sm_json_read_cliff(c, &cl, &e))
		sm_html_cliff_mark(m, &cl);
}

/* A many-host job's "mpi" object (docs/mpi.md) into d, its figures
 * derived as the live job did. Returns 1, 0 when doc has none, or -errno
 * (e says why); release d either way (sm_dist_result_release). */
static int doc_dist(const cJSON *doc, struct sm_dist_result *d, struct sm_jerr *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "mpi");
	int rc;

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	rc = sm_dist_from_json(o, d, e);
	if (!rc && sm_dist_analyse(d))
		rc = -ENOMEM;
	return rc ? rc : 1;
}

/* OpenMetrics, every command's: from the document (SM_ROW_DOC). */
static int openmetrics(FILE *f, SM_UNUSED const void *res, const cJSON *doc, struct sm_jerr *e)
{
	if (!doc)
		return sm_jerr_set(e, "the OpenMetrics layout needs the result's document");
	return sm_metrics(f, doc, SM_METRICS_OPENMETRICS);
}

/* The Prometheus text format, the same families (SM_ROW_DOC). */
static int prometheus(FILE *f, SM_UNUSED const void *res, const cJSON *doc, struct sm_jerr *e)
{
	if (!doc)
		return sm_jerr_set(e, "the Prometheus layout needs the result's document");
	return sm_metrics(f, doc, SM_METRICS_PROMETHEUS);
}

/* Both metrics layouts of every command. */
#define OPENMETRICS_ROW { .layout = SM_LAYOUT_OPENMETRICS, .render = openmetrics, .flags = SM_ROW_DOC }, \
	{ .layout = SM_LAYOUT_PROMETHEUS, .render = prometheus, .flags = SM_ROW_DOC, \
	  .help = "(docs/openmetrics.md)" }

/* ---- time ----------------------------------------------------------- */

static int time_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	int rc = sm_time_from_json(doc, res, e);

	if (!rc)
		sm_time_analyse(res);   /* each figure's statistics, as the live run derived them */
	return rc;
}

static void time_release(void *res)
{
	sm_time_result_release(res);
}

static const struct sm_result_head *time_head(const void *res)
{
	return &((const struct sm_time_result *)res)->head;
}

static cJSON *time_json(const void *res)
{
	return sm_time_json(res);
}

static int time_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_time_print_text(f, res);
	return 0;
}

static int time_timeit(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_time_print_timeit(f, res);
	return 0;
}

static int time_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_time_print_csv(f, res);
	return 0;
}

static int time_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_time(f, res);
	return 0;
}

static int time_html(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_html_time(f, res);
	return 0;
}

static const struct sm_layout_row time_rows[] = {
	{ .layout = SM_LAYOUT_TEXT, .render = time_text },
	{ .layout = SM_LAYOUT_TIMEIT, .render = time_timeit },
	{ .layout = SM_LAYOUT_CSV, .render = time_csv },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = time_md },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = time_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_time = {
	.command = "time", .dflt = SM_LAYOUT_TEXT, .rows = time_rows, .size = sizeof(struct sm_time_result),
	.read = time_read, .release = time_release, .head = time_head, .json = time_json,
};

/* ---- run ------------------------------------------------------------ */

static int run_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	int rc = sm_run_from_json(doc, res, e);

	if (!rc)   /* what the reporters print beyond the measurements, as the live run derived it */
		sm_run_analyse(res);
	return rc;
}

static void run_release(void *res)
{
	sm_run_from_json_release(res);
}

static const struct sm_result_head *run_head(const void *res)
{
	return &((const struct sm_run_result *)res)->head;
}

static cJSON *run_json(const void *res)
{
	cJSON *d = sm_json_doc_new(&((const struct sm_run_result *)res)->head);

	if (d)
		sm_json_run(d, res);
	return d;
}

static int run_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_run_text(f, res, 0);
	return 0;
}

static int run_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_run(f, res);
	return 0;
}

static int run_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_run(f, res);
	return 0;
}

static int run_html(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_html_run(f, res);
	return 0;
}

static const struct sm_layout_row run_rows[] = {
	{ .layout = SM_LAYOUT_TEXT, .render = run_text },
	{ .layout = SM_LAYOUT_CSV, .render = run_csv },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = run_md },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = run_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_run = {
	.command = "run", .dflt = SM_LAYOUT_TEXT, .rows = run_rows, .size = sizeof(struct sm_run_result),
	.read = run_read, .release = run_release, .head = run_head, .json = run_json,
};

/* ---- frames --------------------------------------------------------- */

/* The verification block's names: the frame's path (the plan's -d
 * layout). */
static void frame_name(unsigned file, char *buf, size_t len, const void *arg)
{
	if (sm_frames_path(arg, file, buf, (unsigned)len))
		snprintf(buf, len, "frame %u", file);
}

/* The verification block of a frames result (--verify): its figures and
 * the frames' paths as names. */
static void frames_verify_view(const struct sm_frames_result *res, struct sm_verify_view *v)
{
	memset(v, 0, sizeof(*v));
	v->option = "--verify";
	v->run_id = res->plan.verify_run;
	v->block = SM_VERIFY_FRAME_BLOCK;
	v->threads = res->plan.threads;
	v->duration_ns = res->head.duration_ns;
	v->st = &res->verify;
	v->name = frame_name;
	v->name_arg = &res->plan;
}

static int frames_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	int rc = sm_frames_from_json(doc, res, e);

	if (!rc)
		sm_frames_analyse(res);   /* rates, as the live run derived them */
	return rc;
}

static void frames_release(void *res)
{
	sm_frames_from_json_release(res);
}

static const struct sm_result_head *frames_head(const void *res)
{
	return &((const struct sm_frames_result *)res)->head;
}

static cJSON *frames_json(const void *res)
{
	cJSON *d = sm_json_doc_new(&((const struct sm_frames_result *)res)->head);

	if (d)
		sm_json_frames(d, res);
	return d;
}

/* --verify's object, after a job's "mpi" (where the live run put it). */
static void frames_json_tail(cJSON *doc, const void *res)
{
	const struct sm_frames_result *r = res;
	struct sm_verify_view vv;

	if (!r->plan.verify)
		return;
	frames_verify_view(r, &vv);
	cJSON_AddItemToObject(doc, "verify", sm_verify_json(&vv));
}

static const struct sm_cliff *frames_cliff(const void *res)
{
	return &((const struct sm_frames_result *)res)->cliff;
}

static const struct sm_stalls *frames_stalls(const void *res)
{
	return &((const struct sm_frames_result *)res)->stalls;
}

/* frametest's lines in its order, then stormark's: paced figures, the
 * verdict, --verify (last: scripts read frametest's by position). */
static int frames_ft(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_frames_result *r = res;
	struct sm_verify_view vv;

	sm_report_frametest_all(f, r);
	if (r->plan.verify) {
		frames_verify_view(r, &vv);
		sm_verify_text(f, &vv);
	}
	return 0;
}

static int frames_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_frames(f, res);   /* the verdict and --verify counts included */
	return 0;
}

static int frames_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_frames(f, res);
	return 0;
}

static int frames_html(FILE *f, const void *res, const cJSON *doc, struct sm_jerr *e)
{
	struct sm_html_mark m;
	struct sm_dist_result d;
	int rc;

	doc_mark(doc, &m);
	rc = doc_dist(doc, &d, e);
	if (rc >= 0)
		sm_html_frames(f, res, &m, rc ? &d : NULL);
	sm_dist_result_release(&d);
	return rc < 0 ? rc : 0;
}

/* With the JSON on stdout, a paced run's verdict line goes to stderr. */
static void frames_verdict_note(FILE *f, const void *res)
{
	const struct sm_frames_result *r = res;

	if (r->video_format[0])
		(void)sm_report_paced_verdict(f, r);
}

#define FRAMES_NOTES (SM_ROW_CLIFF | SM_ROW_WARN)
static const struct sm_layout_row frames_rows[] = {
	{ .layout = SM_LAYOUT_FRAMETEST, .render = frames_ft, .flags = FRAMES_NOTES | SM_ROW_TABLE },
	{ .layout = SM_LAYOUT_CSV, .render = frames_csv, .flags = FRAMES_NOTES },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = frames_md, .flags = FRAMES_NOTES },
	{ .layout = SM_LAYOUT_JSON, .note = frames_verdict_note, .flags = FRAMES_NOTES },
	{ .layout = SM_LAYOUT_HTML, .render = frames_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_frames = {
	.command = "frames", .dflt = SM_LAYOUT_FRAMETEST, .rows = frames_rows,
	.size = sizeof(struct sm_frames_result), .read = frames_read, .release = frames_release,
	.head = frames_head, .json = frames_json, .json_tail = frames_json_tail, .cliff = frames_cliff,
	.stalls = frames_stalls,
	.saved_table = 1,
};

/* ---- fileio --------------------------------------------------------- */

static int fileio_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	int rc = sm_fileio_from_json(doc, res, e);

	if (!rc)
		sm_fileio_analyse(res);   /* rates and fairness, as the live run derived them */
	return rc;
}

static void fileio_release(void *res)
{
	sm_fileio_from_json_release(res);
}

static const struct sm_result_head *fileio_head(const void *res)
{
	return &((const struct sm_fileio_result *)res)->head;
}

static cJSON *fileio_json(const void *res)
{
	return sm_fileio_json(res);
}

static const struct sm_stalls *fileio_stalls(const void *res)
{
	return &((const struct sm_fileio_result *)res)->stalls;
}

static const struct sm_cliff *fileio_cliff(const void *res)
{
	return &((const struct sm_fileio_result *)res)->cliff;
}

/* The interval lines as the run printed them, when --report-interval
 * asked for them (the series is there every second anyway): not the
 * partial last one, which the series has and the run (as sysbench) does
 * not print. */
static void fileio_ticks(FILE *f, const struct sm_fileio_result *r)
{
	for (unsigned i = 0; r->cfg.report_interval_ns && i < r->nseries; i++)
		if (!sm_fileio_tick_partial(r, i))
			sm_sb_tick(f, &r->series[i], &r->pct);
}

/* sysbench's lines before and while it runs. */
static int fileio_sb_replay(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_fileio_result *r = res;

	sm_sb_banner(f);
	sm_sb_run_head(f, &r->cfg, r->seed_given, r->cfg.seed);
	sm_sb_run_started(f);
	fileio_ticks(f, r);
	return 0;
}

static int fileio_ticks_replay(FILE *f, const void *res, SM_UNUSED const cJSON *doc,
		SM_UNUSED struct sm_jerr *e)
{
	fileio_ticks(f, res);
	return 0;
}

/* After every text layout, as the run printed it: --verify always,
 * --validate when it found something. */
static void fileio_verify(FILE *f, const struct sm_fileio_result *r)
{
	if (r->cfg.verify || r->verify.problems)
		sm_fileio_verify_text(f, r);
}

static int fileio_sb(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_fileio_result *r = res;

	if (r->histogram)
		sm_sb_histogram(f, &r->events_lat);
	sm_sb_report(f, r, &r->pct);
	fileio_verify(f, r);
	return 0;
}

static int fileio_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_fileio_text(f, res);
	fileio_verify(f, res);
	return 0;
}

static int fileio_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_fileio(f, res);
	fileio_verify(f, res);
	return 0;
}

static int fileio_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_fileio(f, res);
	fileio_verify(f, res);
	return 0;
}

static int fileio_html(FILE *f, const void *res, const cJSON *doc, struct sm_jerr *e)
{
	struct sm_html_mark m;
	struct sm_dist_result d;
	int rc;

	doc_mark(doc, &m);
	rc = doc_dist(doc, &d, e);
	if (rc >= 0)
		sm_html_fileio(f, res, &m, rc ? &d : NULL);
	sm_dist_result_release(&d);
	return rc < 0 ? rc : 0;
}

/* Beside sysbench's layout, on stderr: what its Latency means in async mode. */
static void fileio_sb_note(FILE *f, const void *res)
{
	const struct sm_fileio_result *r = res;

	sm_sb_async_note(f, r, &r->pct);
}

static const struct sm_layout_row fileio_rows[] = {
	/* sysbench's layout stays sysbench's: a cliff and the async note are
	 * stormark's notices */
	{ .layout = SM_LAYOUT_SYSBENCH, .render = fileio_sb, .replay = fileio_sb_replay,
	  .note = fileio_sb_note, .flags = SM_ROW_TABLE | SM_ROW_CLIFF },
	{ .layout = SM_LAYOUT_TEXT, .render = fileio_text, .replay = fileio_ticks_replay, .flags = SM_ROW_TABLE,
	  .help = "(stormark's; 'stormark' is its old name)" },
	{ .layout = SM_LAYOUT_CSV, .render = fileio_csv },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = fileio_md, .flags = SM_ROW_TABLE },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = fileio_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_fileio = {
	.command = "fileio", .dflt = SM_LAYOUT_SYSBENCH, .rows = fileio_rows,
	.size = sizeof(struct sm_fileio_result), .read = fileio_read, .release = fileio_release,
	.head = fileio_head, .json = fileio_json, .cliff = fileio_cliff,
	.stalls = fileio_stalls, .saved_table = 1,
};

/* ---- streams -------------------------------------------------------- */

static int streams_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_streams_from_json(doc, res, e);
}

static void streams_release(void *res)
{
	sm_streams_from_json_release(res);
}

static const struct sm_result_head *streams_head(const void *res)
{
	return &((const struct sm_streams_result *)res)->head;
}

static cJSON *streams_json(const void *res)
{
	cJSON *d = sm_json_doc_new(&((const struct sm_streams_result *)res)->head);

	if (d)
		sm_json_streams(d, res);
	return d;
}

static int streams_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_streams_text(f, res);
	return 0;
}

static int streams_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_streams(f, res);
	return 0;
}

static int streams_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_streams(f, res);
	return 0;
}

static int streams_html(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_html_streams(f, res);
	return 0;
}

static const struct sm_layout_row streams_rows[] = {
	{ .layout = SM_LAYOUT_TEXT, .render = streams_text, .flags = SM_ROW_TABLE },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = streams_md },
	{ .layout = SM_LAYOUT_CSV, .render = streams_csv },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = streams_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_streams = {
	.command = "streams", .dflt = SM_LAYOUT_TEXT, .rows = streams_rows,
	.size = sizeof(struct sm_streams_result), .read = streams_read, .release = streams_release,
	.head = streams_head, .json = streams_json,
};

/* ---- meta ----------------------------------------------------------- */

static int meta_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	int rc = sm_meta_from_json(doc, res, e);

	if (!rc)
		sm_meta_analyse(res);   /* the rates, as the live run derived them */
	return rc;
}

static void meta_release(void *res)
{
	sm_meta_from_json_release(res);
}

static const struct sm_result_head *meta_head(const void *res)
{
	return &((const struct sm_meta_result *)res)->head;
}

static cJSON *meta_json(const void *res)
{
	return sm_meta_json(res);
}

static int meta_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_meta_text(f, res);
	return 0;
}

static int meta_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_md_meta(f, res);
	return 0;
}

static int meta_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_meta(f, res);
	return 0;
}

static int meta_html(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_html_meta(f, res);
	return 0;
}

static const struct sm_layout_row meta_rows[] = {
	{ .layout = SM_LAYOUT_TEXT, .render = meta_text, .flags = SM_ROW_TABLE },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = meta_md, .flags = SM_ROW_TABLE },
	{ .layout = SM_LAYOUT_CSV, .render = meta_csv },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = meta_html, .flags = SM_ROW_SAVED },
	OPENMETRICS_ROW,
	{ 0 },
};

const struct sm_render sm_render_meta = {
	.command = "meta", .dflt = SM_LAYOUT_TEXT, .rows = meta_rows, .size = sizeof(struct sm_meta_result),
	.read = meta_read, .release = meta_release, .head = meta_head, .json = meta_json,
	.saved_table = 1,
};

unsigned sm_render_layouts(const struct sm_render *r, int saved)
{
	unsigned have = 0;

	for (const struct sm_layout_row *row = r->rows; row->layout; row++)
		have |= saved || !(row->flags & SM_ROW_SAVED) ? SM_LAYOUT_BIT(row->layout) : SM_OUT_HTML_FILE;
	return have;
}
