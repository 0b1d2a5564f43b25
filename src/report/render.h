/* SPDX-License-Identifier: MIT */
/* One result, many layouts: each command's render table names its
 * layouts once, with the reporter of each, and its result model (how a
 * saved document is read back, written, released). The emit step
 * (cmd/emit.c) renders a live result and `stormark report` a saved one
 * through the same rows, so the two print the same. A new layout of a
 * command (OpenMetrics) is one row; a new command, one table. */
#ifndef SM_REPORT_RENDER_H
#define SM_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

struct cJSON;
struct sm_cliff;
struct sm_stalls;
struct sm_jerr;
struct sm_result_head;

/* Report layouts, by the name --format takes. */
enum sm_layout {
	SM_LAYOUT_FRAMETEST = 1, SM_LAYOUT_SYSBENCH, SM_LAYOUT_TIMEIT, SM_LAYOUT_TEXT,
	SM_LAYOUT_CSV, SM_LAYOUT_MARKDOWN, SM_LAYOUT_JSON, SM_LAYOUT_HTML, SM_LAYOUT_OPENMETRICS,
	SM_LAYOUT_PROMETHEUS,
};
#define SM_LAYOUT_BIT(l) (1u << (l))
/* In sm_out_resolve()'s have (args/out_opts.h): the command writes --html
 * FILE (the HTML layout bit says so too, for `report`). */
#define SM_OUT_HTML_FILE (1u << 30)

/* The layout of that name, or 0 when it is not a layout name. */
enum sm_layout sm_layout_find(const char *name);

/* A layout's name ("frametest", "json"), "?" for none. */
const char *sm_layout_name(enum sm_layout l);

/* Render res (a command's result, live or read back from doc) in one
 * layout to f. doc is the saved document res was read from, NULL for a
 * live result. Returns 0, or -EINVAL/-ENOMEM with the reason in e (a part
 * of doc that cannot be read). */
typedef int (*sm_render_fn)(FILE *f, const void *res, const struct cJSON *doc, struct sm_jerr *e);

/* One layout of a command. */
struct sm_layout_row {
	enum sm_layout layout;
	/* The report once the run is over; NULL for json: the document itself. */
	sm_render_fn render;
	/* A saved document only: what the live run printed before and while
	 * it ran (sysbench's banner and interval lines); NULL: nothing. */
	sm_render_fn replay;
	/* A notice on stderr beside this layout (frames' verdict beside its
	 * JSON, fileio's async note beside sysbench's layout); NULL: none. */
	void (*note)(FILE *f, const void *res);
	unsigned flags;   /* SM_ROW_* */
	/* What --format's help says after the layout's name ("(docs/...)");
	 * NULL: nothing (sm_render_format_help()). */
	const char *help;
};

/* The layout needs a saved document: `report` renders it from the file, a
 * live command offers it as a file of its own (--html FILE), rendered from
 * its document read back, so both give the same bytes. */
#define SM_ROW_SAVED (1u << 0)
/* An MPI job's host and rank table follows the report. */
#define SM_ROW_TABLE (1u << 1)
/* The layout does not show a cliff: stormark's notice on stderr says it. */
#define SM_ROW_CLIFF (1u << 2)
/* The result's warnings go to stderr beside this layout. */
#define SM_ROW_WARN (1u << 3)
/* The layout is rendered from the document alone (OpenMetrics,
 * Prometheus): a live
 * run builds its document and reads it back as `report` reads a file, so
 * both print the same bytes. */
#define SM_ROW_DOC (1u << 4)

/* A command's render table: its layouts and its result model. */
struct sm_render {
	const char *command;        /* as the document's "command" names it */
	enum sm_layout dflt;        /* what the command prints without --format */
	const struct sm_layout_row *rows;   /* ends with a row of layout 0 */
	size_t size;                /* of the result */
	/* The saved document into a zeroed result, its figures derived as the
	 * live run derived them; release frees what it allocated (also after
	 * a failed read). read, release and head are NULL for a table with no
	 * result model of its own (compare): it renders a live result only,
	 * and --html FILE from that result itself. */
	int (*read)(const struct cJSON *doc, void *res, struct sm_jerr *e);
	void (*release)(void *res);
	const struct sm_result_head *(*head)(const void *res);
	/* The document of res (caller frees), NULL without memory; json_tail
	 * adds what follows an MPI job's "mpi" object (NULL: nothing). */
	struct cJSON *(*json)(const void *res);
	void (*json_tail)(struct cJSON *doc, const void *res);
	const struct sm_cliff *(*cliff)(const void *res);   /* NULL: none */
	const struct sm_stalls *(*stalls)(const void *res); /* NULL: none */
	/* 1: a saved job's host and rank table follows the rows that have one
	 * (SM_ROW_TABLE). run and streams also print parts no reader takes
	 * back yet (each rank's best formats, the streams' spread), so their
	 * saved reports leave the table out, as before. */
	int saved_table;
};

extern const struct sm_render sm_render_time, sm_render_run, sm_render_frames, sm_render_fileio,
	sm_render_streams, sm_render_meta;
/* compare's (report/compare_render.c): no saved document of its own, so
 * not one sm_render_find() gives `report`. */
extern const struct sm_render sm_render_compare;

/* The render table of command ("frames"), or NULL. */
const struct sm_render *sm_render_find(const char *command);

/* The layouts of r as sm_out_resolve() takes them (SM_LAYOUT_BIT()s): all
 * of them for `report` (saved 1), else those of a live result, plus
 * SM_OUT_HTML_FILE for --html FILE when r has a layout that needs a saved
 * document (SM_ROW_SAVED). */
unsigned sm_render_layouts(const struct sm_render *r, int saved);

/* The render table of command as its --format takes it: sm_render_find()'s,
 * or compare's (whose results `report` does not read); NULL for none. */
const struct sm_render *sm_render_command(const char *command);

/* --format's help for r, from its rows: "report layout: " and the layouts
 * a live command prints (not the SM_ROW_SAVED ones), in the rows' order,
 * the default one marked, each with its row's help ("text (default), csv,
 * markdown, json, openmetrics or prometheus (docs/openmetrics.md)"), into
 * buf (cut to len). Returns buf. */
const char *sm_render_format_help(const struct sm_render *r, char *buf, size_t len);

/* r's row of layout l, or NULL. */
const struct sm_layout_row *sm_render_row(const struct sm_render *r, enum sm_layout l);

#endif
