/* SPDX-License-Identifier: MIT */
/* The output flags every command takes, with one meaning everywhere
 * (docs/options.md): --json[=FILE], --format LAYOUT, -o/--output FILE,
 * --html FILE, --quiet. */
#ifndef SM_ARGS_OUT_OPTS_H
#define SM_ARGS_OUT_OPTS_H

#include <stddef.h>

#include "core/opt.h"
#include "report/render.h"   /* the layouts */

/* Output flags as given, and resolved by sm_out_resolve(). Strings point
 * into argv. */
struct sm_out_opts {
	const char *json;       /* --json: NULL none, "-" or "" stdout, else a file */
	const char *format;     /* --format LAYOUT; NULL: the command's default */
	const char *output;     /* -o/--output FILE; NULL or "-": stdout */
	const char *html;       /* --html FILE: the HTML report besides the report, NULL none */
	int quiet;              /* --quiet: no progress display */
	const char *live;       /* --live FILE: one JSON line an interval as the run goes
				 * ("-": stdout), NULL none (frames, fileio, streams, run) */
	/* filled by sm_out_resolve(): */
	enum sm_layout layout;  /* the report's layout (JSON when --json has no FILE) */
	const char *json_file;  /* JSON written besides the report, NULL: none */
};

/* The --json entry: --json[=FILE]. json_next 1 also takes the FILE from
 * the next argument when sm_out_json_next() accepts it (--json FILE.json,
 * --json -: the form frames and run took before --json[=FILE]). */
#define SM_OUT_JSON_OPT(dest_, json_next) \
	{ .kind = SM_OPT_STRING, .long_name = "json", .arg = SM_OPT_OPTIONAL, .dest = &(dest_), \
	  .dflt = "-", .flags = SM_OPT_EMPTY_OK | ((json_next) ? SM_OPT_NEXT_IF : 0), \
	  .next_ok = sm_out_json_next, .argh = "FILE", \
	  .help = "write the result as JSON to FILE; with no FILE (or -) the JSON is the report " \
		  "(docs/options.md)" }

/* The --live FILE entry (docs/options.md, "Watching a run"). */
#define SM_OUT_LIVE_OPT(dest_) \
	SM_OPT_STR(0, "live", (dest_), "FILE", "while the test runs, write its figures to FILE " \
		   "(a file, a FIFO or - for stdout), one JSON line a second; a metrics report " \
		   "(--format prometheus) in a file is rewritten each second too")

/* The --html FILE entry (docs/report.md). */
#define SM_OUT_HTML_OPT(dest_) \
	SM_OPT_STR(0, "html", (dest_), "FILE", "also write a self-contained HTML report (charts) to FILE")

/* Option-table entries for the five flags, for a table over `o` (a struct
 * sm_out_opts lvalue). short_o is 'o' for -o/--output, or 0 where -o
 * means something else (frametest's out-of-order); json_next as for
 * SM_OUT_JSON_OPT; layouts_help: --format's help, from the command's
 * render table (sm_render_format_help()). */
#define SM_OUT_OPTS(o, short_o, json_next, layouts_help) \
	SM_OUT_JSON_OPT((o).json, json_next), \
	SM_OPT_STR(0, "format", (o).format, "LAYOUT", layouts_help), \
	SM_OPT_STR(short_o, "output", (o).output, "FILE", "write the report to FILE, not stdout"), \
	SM_OUT_HTML_OPT((o).html), \
	SM_OPT_FLAG_SET(0, "quiet", (o).quiet, 1, "no progress display")

/* 1 when arg, the argument after a bare --json, is its FILE in the older
 * separate form of frames and run: "-" or a name ending in ".json". */
int sm_out_json_next(const char *arg);

/*
 * Resolve the flags for a command (cmd, e.g. "stormark time") whose
 * implemented layouts are the bits in `have`, dflt being its default:
 * o->layout and o->json_file. --json with no FILE (or "-") makes JSON the
 * report, as --format json does. Returns 0, or -EINVAL with one line in
 * msg: a name that is no layout, a layout this command does not have (yet),
 * --json with no FILE together with another --format, or --json=FILE
 * with --format json (the JSON would go to two places; -o FILE is the way),
 * --html for a command whose have holds neither SM_OUT_HTML_FILE nor the
 * html layout,
 * or an -o/--output, --json or --html FILE that cannot be written
 * (sm_out_check_path()), so a bad path is refused before any work starts.
 */
int sm_out_resolve(struct sm_out_opts *o, const char *cmd, unsigned have, enum sm_layout dflt,
		   char *msg, size_t len);

/* A file a command names besides its -o, --json=FILE and --html: one it
 * reads (a result, --db, a --mix @FILE, standard input), or another it
 * writes (--db with --save, -x). */
struct sm_out_file {
	const char *what;   /* how the message names it: "the input", "--db", "-x" */
	const char *path;   /* NULL or "-": none (but see is_stdin) */
	int written;        /* the command writes it (two inputs may be one file) */
	int is_stdin;       /* an input read from standard input: the file behind fd 0
			     * is the one compared, path ("-") only names it */
};

/* The files a run creates by name in a directory: those whose path below
 * dir own() accepts ("frame000001.tst", "d00000/frame000001.tst"). */
struct sm_out_area {
	const char *dir;    /* NULL: none */
	int (*own)(const char *rel);
	const char *what;   /* "a frame file the run writes" */
};

/*
 * The one check that no output is an input or another output: o's -o
 * FILE, --json=FILE and --html FILE against each other, and every file
 * the command writes (those, and files[] marked written) against every
 * other of files[] and against area's names. Two paths are one file when
 * both exist with the same st_dev and st_ino (an is_stdin input: the
 * file open as standard input), or when neither exists and
 * their resolved directories and names agree; /dev/null and a FIFO may
 * take two outputs. sm_out_resolve() checks o's own three; a command
 * calls this once its inputs are known, before any work. Returns 0, or
 * -EINVAL with one line in msg naming both.
 */
int sm_out_apart(const struct sm_out_opts *o, const struct sm_out_file *files, unsigned n,
		 const struct sm_out_area *area, char *msg, size_t len);

/*
 * Check, without creating anything, that path can be written as the file of
 * flag (e.g. "--json", "-x"): its directory exists and is a directory, path
 * is not a directory, and the file (or, when it does not exist yet, its
 * directory) is writable, a read-only file system included. "" is refused.
 * Returns 0, or -EINVAL with one line in msg naming the flag, path and why.
 */
int sm_out_check_path(const char *flag, const char *path, char *msg, size_t len);

#endif
