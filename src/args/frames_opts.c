/* SPDX-License-Identifier: MIT */
/* Option parsing of `stormark frames` / `frametest`: one option table (the
 * help is printed from it), resolution into a plan, and the "Test
 * parameters" line. */
#include "args/frames_opts.h"
#include "args/save.h"

#include "core/msg.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/fsx.h"
#include "core/units.h"
#include "engine/engine.h"
#include "core/formats.h"
#include "core/opt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 1024
#define MAX_DEPTH 1024
#define LIST_CODE 2   /* --list-formats stops the parse with this */

/* Values stored through an int: the enums of the plan must be int-sized. */
_Static_assert(sizeof(enum sm_frames_kind) == sizeof(int), "kind is set as an int");
_Static_assert(sizeof(enum sm_frames_order) == sizeof(int), "order is set as an int");
_Static_assert(sizeof(enum sm_data_mode) == sizeof(int), "data is set as an int");

const char sm_frames_ft_usage[] =
	"usage: frametest [options] path\n"
	"Options:\n";

static const char sm_frames_ft_usage_tail[] =
	"Sizes are in KiB (1024 bytes), MB in the report is 2^20 bytes. stormark's\n"
	"long options (--json FILE, --buffered, --engine NAME, --quiet, --verify,\n"
	"--video-format NAME, --output FILE, --force, ...) work here too: see\n"
	"'stormark help frames'.\n";

const char sm_frames_long_usage[] =
	"\nPaced check of one video format: --video-format NAME --fps RATE\n"
	"--capture|--play exits 0 when the format holds in real time, 1 when it\n"
	"does not (docs/pacing.md). The old spelling --format NAME still works when\n"
	"NAME is a video format, with a notice. Output flags: docs/options.md.\n";

static const struct sm_opt_choice data_modes[] = {
	{ "random", SM_DATA_RANDOM }, { "zero", SM_DATA_ZERO }, { NULL, 0 },
};

/* Print a usage error (fmt and its arguments); returns SM_EXIT_USAGE. */
static int bad(struct sm_frames_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct sm_frames_opts *o, const char *fmt, ...)
{
	char msg[SM_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sm_usage_error(o->prog, o->hint, "%s", msg);
}

/* -w and -z: KiB, or a preset name; -w also makes it a write test. */
static int size_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct sm_frames_opts *o = opt->dest;
	uint64_t v = sm_ft_preset_kib(arg);

	if ((!v && sm_parse_u64(arg, &v)) || v == 0 || v > SM_FRAMES_MAX_FRAME_BYTES / 1024) {
		snprintf(exp, len, "a frame size in KiB from 1 to %llu, or a preset (sd, hd, 2k, 4k, ...)",
			 SM_FRAMES_MAX_FRAME_BYTES / 1024);
		return -EINVAL;
	}
	if (opt->short_name == 'z') {
		o->z_kib = v;
	} else {
		o->w_kib = v;
		o->plan.kind = SM_FRAMES_WRITE;
	}
	return 0;
}

/* --video-format NAME, and --format, which takes a report layout, or a
 * video format name in its old spelling (with a notice). */
static int format_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct sm_frames_opts *o = opt->dest;
	struct sm_format f;
	int old = !strcmp(opt->long_name, "format");

	if (old && sm_layout_find(arg)) {
		o->out.format = arg;
		return 0;
	}
	if (sm_format_find(arg, &f)) {
		snprintf(exp, len, "%s", old ? "a report layout (frametest, csv, markdown, json, openmetrics or prometheus) or a "
			 "video format name (see --list-formats)" : "a video format name (see --list-formats)");
		return -EINVAL;
	}
	o->format = arg;
	if (old)
		o->notice = "--format NAME is now --video-format NAME (--format takes a report layout)";
	return 0;
}

/* The one option table: frametest's short options (each also with a long
 * name), then those of stormark frames alone. Copied into t (room for
 * cap entries) over o. Returns the number of entries. */
/* frametest's own options (its short letters, long names added), into t;
 * returns how many. */
static unsigned frametest_part(struct sm_frames_opts *o, struct sm_opt *t)
{
	struct sm_frames_plan *p = &o->plan;
	const struct sm_opt tab[] = {
		SM_OPT_CALL('w', "write", SM_OPT_REQUIRED, size_cb, o, "size",
			    "write test with 'size' KiB frames, or a preset: sd hd 2k 4k "
			    "(stormark adds fullhd uhd 4kdci 8k ...: see 'stormark help frames')"),
		SM_OPT_FLAG_SET('e', "empty", p->kind, SM_FRAMES_EMPTY,
				"write test with empty frames (create/open/close only)"),
		SM_OPT_FLAG_SET('r', "read", p->kind, SM_FRAMES_READ,
				"read test of frames written earlier (default)"),
		SM_OPT_FLAG_SET('s', "stream", p->stream, 1,
				"streaming test to or from one file (path is then a file)"),
		SM_OPT_UINT_RANGE('n', "frames", p->nframes, 1, UINT32_MAX * 16ULL, "num",
				  "number of frames to read or write (default 1800; a read test "
				  "without -n: every frame present)"),
		SM_OPT_UINT_RANGE('a', "async", p->depth, 1, MAX_DEPTH, "num",
				  "asynchronous I/O, 'num' frames in flight per thread "
				  "(default: synchronous)"),
		SM_OPT_UINT_RANGE('t', "threads", p->threads, 1, MAX_THREADS, "num", "'num' threads at one time (default 1)"),
		SM_OPT_FLAG_SET('o', "out-of-order", p->out_of_order, 1, "handle completed I/Os out of order (no effect on sync I/O)"),
		SM_OPT_DOUBLE_RANGE('f', "fps", p->fps, 0, 100000, "rate",
				    "limit the speed to 'rate' frames per second (default: as "
				    "fast as possible)"),
		SM_OPT_UINT_RANGE('q', "queue", p->queue, 1, 4096, "num",
				  "at most 'num' queued buffers before a frame is dropped "
				  "(default 8, or -b if larger)"),
		SM_OPT_UINT_RANGE('b', "prebuffer", p->prebuffer, 1, 4096, "num",
				  "pre-buffer 'num' frames before playback starts (default 5)"),
		SM_OPT_FLAG_SET('v', "reverse", p->order, SM_ORDER_REVERSE, "access files in reverse order"),
		SM_OPT_FLAG_SET('m', "random", p->order, SM_ORDER_RANDOM, "access files in a random order"),
		SM_OPT_UINT_RANGE('l', "loop", p->loop, 0, UINT32_MAX * 16ULL, "num",
				  "number of frames to loop over (default 0: no loop)"),
		SM_OPT_UINT_RANGE('i', "ios", p->ios_per_frame, 1, 1024, "num", "I/Os per frame (default 1; also in async mode)"),
		SM_OPT_CALL('z', "size", SM_OPT_REQUIRED, size_cb, o, "size",
			    "custom frame size in KiB for a read or write test (default: "
			    "-w's; a read test: the size of the frames present)"),
		SM_OPT_UINT_RANGE('d', "dirs", p->files_per_dir, 1, UINT32_MAX, "num",
				  "use directories, 'num' files per directory (default: none)"),
		SM_OPT_DURATION_RANGE('p', "pause", p->pause_ns, SM_NS_PER_S, 0, 0, "secs",
				      "pause 'secs' before the test starts (default 0)"),
		SM_OPT_UINT_RANGE('c', "crop", p->crop_pct, 1, 100, "perc",
				  p->frametest_frames ? "crop: read the middle 'perc'% of each frame (default 100; "
							"ignored in write tests)"
						      : "crop: read the middle 'perc'% of each frame of a "
							"read test (default 100)"),
		SM_OPT_DURATION_RANGE('u', "update", p->update_ns, SM_NS_PER_S, 1, 0, "secs",
				      "display update interval in seconds, on a terminal (default 1)"),
		SM_OPT_DURATION_RANGE('h', "hist-window", p->hist_window_ns, SM_NS_PER_S, 1, 0, "secs",
				      "histogram of the last 'secs' only (default: all)"),
		SM_OPT_STR('x', "csv", p->csv_path, "file",
			   "export per-frame timing to 'file' (comma separated; the name is used as given, "
			   "no '.csv' appended)"),
	};

	memcpy(t, tab, sizeof(tab));
	return sizeof(tab) / sizeof(tab[0]);
}

/* stormark's long options and the output flags, the end of the table,
 * into t; returns how many. */
static unsigned stormark_part(struct sm_frames_opts *o, struct sm_opt *t)
{
	struct sm_frames_plan *p = &o->plan;
	const struct sm_opt tab[] = {
		SM_OPT_HEAD("\nstormark frames also takes:"),
		SM_OPT_FLAG_SET(0, "force", o->force, 1,
				"write tests into a file system's root (a mount point, or /) too"),
		SM_OPT_STR(0, "engine", p->engine, "NAME", "psync (default), uring (default with -a), null"),
		SM_OPT_FLAG_SET(0, "buffered", p->direct, 0, "use the page cache (default: direct I/O)"),
		SM_URING_OPTS(o->uring),
		SM_OPT_CHOOSE(0, "data", p->data, data_modes, "MODE", "random (default, incompressible) or zero"),
		SM_OPT_UINT_RANGE(0, "seed", p->seed, 1, 0, "N", "data and random-order seed"),
		SM_OPT_DURATION_RANGE(0, "time", p->time_limit_ns, SM_NS_PER_S, 1, 0, "SECS", "stop after SECS"),
		SM_OPT_FLAG_SET(0, "verify", p->verify, 1, "trailers with an XXH3 checksum on every 4 KiB "
				"written; after the test, read every frame back and check "
				"it (docs/verify.md)"),
		SM_OPT_CALL(0, "video-format", SM_OPT_REQUIRED, format_cb, o, "NAME",
			    "paced check of one video format (with --fps, --capture|--play)"),
		SM_OPT_FLAG_SET(0, "capture", o->capture, 1, "the paced check writes (a camera)"),
		SM_OPT_FLAG_SET(0, "play", o->play, 1, "the paced check reads (playback)"),
		{ .kind = SM_OPT_FLAG, .long_name = "list-formats", .dest = &o->help, .ival = LIST_CODE,
		  .flags = SM_OPT_STOP, .help = "the built-in video formats and frametest presets" },
		SM_OPT_HEAD("\nOutput (the same in every command, docs/options.md):"),
		SM_SAVE_OPTS(o->save),
		SM_OUT_JSON_OPT(o->json, 1),
		SM_OPT_CALL(0, "format", SM_OPT_REQUIRED, format_cb, o, "LAYOUT",
			    sm_render_format_help(&sm_render_frames, o->format_help, sizeof(o->format_help))),
		SM_OPT_STR(0, "output", o->out.output, "FILE", "write the report to FILE, not stdout"),
		SM_OUT_HTML_OPT(o->out.html),
		SM_OUT_LIVE_OPT(o->out.live),
		SM_OPT_FLAG_SET(0, "quiet", p->quiet, 1, "no progress line"),
		SM_OPT_HELP(0, "help", o->help, "this help"),
		SM_OPT_LIST_OPTIONS(o->help),
		SM_OPT_END,
	};

	memcpy(t, tab, sizeof(tab));
	return sizeof(tab) / sizeof(tab[0]);
}

static unsigned table(struct sm_frames_opts *o, struct sm_opt *t, unsigned cap)
{
	struct sm_opt tab[96];
	unsigned n = frametest_part(o, tab);

	n += stormark_part(o, tab + n);

	for (unsigned i = 0; i < n; i++) {
		if (tab[i].short_name == 'w')
			tab[i].seen = &o->w_set;
		else if (tab[i].short_name == 'e')
			tab[i].seen = &o->e_set;
		else if (tab[i].short_name == 'r')
			tab[i].seen = &o->r_set;
		else if (tab[i].short_name == 'v')
			tab[i].seen = &o->v_set;
		else if (tab[i].short_name == 'm')
			tab[i].seen = &o->m_set;
		else if (tab[i].short_name == 'n')
			tab[i].seen = &o->n_set;
		else if (tab[i].short_name == 'q')
			tab[i].seen = &o->q_set;
		else if (tab[i].short_name == 'b')
			tab[i].seen = &o->b_set;
		else if (tab[i].short_name == 'c')
			tab[i].seen = &o->c_set;
		else if (tab[i].short_name == 'f')
			tab[i].flags |= SM_OPT_GT_MIN;   /* a rate above 0 */
	}
	if (n > cap)
		n = cap;
	memcpy(t, tab, n * sizeof(*t));
	return n;
}

void sm_frames_opts_usage(FILE *f, int compat)
{
	struct sm_frames_opts scratch;
	struct sm_opt t[64];

	memset(&scratch, 0, sizeof(scratch));
	scratch.plan.frametest_frames = compat;   /* the help of each name */
	table(&scratch, t, 64);
	if (compat) {
		fputs(sm_frames_ft_usage, f);
		sm_opt_usage(f, t, SM_OPT_SHORT_ONLY);
		fputs(sm_frames_ft_usage_tail, f);
		return;
	}
	fputs("usage: stormark frames [options] path\n\n"
	      "frametest's options (each also with a long name):\n", f);
	sm_opt_usage(f, t, 0);
	fputs(sm_frames_long_usage, f);
}

void sm_frames_opts_list(FILE *f)
{
	struct sm_frames_opts scratch;
	struct sm_opt t[64];

	memset(&scratch, 0, sizeof(scratch));
	table(&scratch, t, 64);
	sm_opt_list(f, t, 0);
}

/* flag, and v right after it when with_value ("-w2048"). */
static void add_param(struct sm_frames_opts *o, const char *flag, unsigned long long v, int with_value)
{
	size_t len = strlen(o->params);
	char item[48];

	if (with_value)
		snprintf(item, sizeof(item), "%s%llu", flag, v);
	else
		snprintf(item, sizeof(item), "%s", flag);
	snprintf(o->params + len, sizeof(o->params) - len, "%s%s", len ? " " : "", item);
}

void sm_frames_opts_params(struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;

	o->params[0] = '\0';
	if (p->kind == SM_FRAMES_WRITE)
		add_param(o, "-w", p->frame_bytes / 1024, 1);
	else if (p->kind == SM_FRAMES_EMPTY)
		add_param(o, "-e", 0, 0);
	else
		add_param(o, "-r", 0, 0);
	if (p->stream)
		add_param(o, "-s", 0, 0);
	if (p->kind == SM_FRAMES_READ && o->z_kib)
		add_param(o, "-z", o->z_kib, 1);
	add_param(o, "-n", p->nframes, 1);
	if (p->depth)
		add_param(o, "-a", p->depth, 1);
	if (p->threads > 1)
		add_param(o, "-t", p->threads, 1);
	if (p->out_of_order)
		add_param(o, "-o", 0, 0);
	if (p->fps > 0) {
		size_t len = strlen(o->params);

		snprintf(o->params + len, sizeof(o->params) - len, " -f%g", p->fps);
		add_param(o, "-q", p->queue, 1);
		add_param(o, "-b", p->prebuffer, 1);
	}
	if (p->order == SM_ORDER_REVERSE)
		add_param(o, "-v", 0, 0);
	if (p->order == SM_ORDER_RANDOM)
		add_param(o, "-m", 0, 0);
	if (p->loop)
		add_param(o, "-l", p->loop, 1);
	if (p->ios_per_frame > 1)
		add_param(o, "-i", p->ios_per_frame, 1);
	if (p->files_per_dir)
		add_param(o, "-d", p->files_per_dir, 1);
	if (p->pause_ns) {
		size_t len = strlen(o->params);

		snprintf(o->params + len, sizeof(o->params) - len, " -p%g", (double)p->pause_ns / 1e9);
	}
	if (p->crop_pct < 100)
		add_param(o, "-c", p->crop_pct, 1);
}

/* Parse argv into o against the table. Returns as sm_frames_opts_parse(). */
static int parse(int argc, char **argv, struct sm_frames_opts *o, SM_UNUSED int compat)
{
	struct sm_frames_plan *p = &o->plan;
	struct sm_opt t[64];
	char msg[SM_MSG_MAX];
	int first, rc;

	table(o, t, 64);
	/* under the frametest name too: the short options are frametest's, and
	 * stormark's long ones (which frametest never had) are all known */
	rc = sm_opt_parse(t, argc, argv, 0, &first, msg, sizeof(msg));
	if (rc == LIST_CODE)
		return SM_FRAMES_OPTS_LIST;
	if (rc == SM_OPT_LIST_CODE)
		return SM_FRAMES_OPTS_OPTIONS;
	if (rc > 0)
		return SM_FRAMES_OPTS_HELP;
	if (rc)
		return sm_usage_error(o->prog, o->hint, "%s", msg);
	if (first >= argc && !o->format)
		return bad(o, "missing path");
	if (first < argc - 1)
		return bad(o, "one path only, not also '%s'", argv[first + 1]);
	p->path = first < argc ? argv[first] : NULL;
	if (p->path && sm_path_problem(p->path))
		return bad(o, "path '%s' %s", p->path, sm_path_problem(p->path));
	return 0;
}

/* Options that cannot go together, whatever their order: two tests, two
 * orders, or a video format (which sets the test and the frame size) with
 * a test or a size. Returns 0 or SM_EXIT_USAGE after one line. */
static int check_conflicts(struct sm_frames_opts *o)
{
	const char *kind = o->w_set ? "-w" : o->e_set ? "-e" : o->r_set ? "-r" : NULL;
	const char *vf = o->format ? "--video-format" : NULL;

	if (o->w_set + o->e_set + o->r_set > 1)
		return bad(o, "%s cannot be combined with %s: one test at a time (-w, -e or -r)", kind,
			   o->w_set && o->e_set ? "-e" : "-r");
	if (o->capture && o->play)
		return bad(o, "--capture cannot be combined with --play: a paced check writes or reads");
	if (o->plan.stream && o->plan.files_per_dir)
		return bad(o, "-d cannot be combined with -s: a stream test uses one file");
	if (o->v_set && o->m_set)
		return bad(o, "-v cannot be combined with -m: one order at a time (reverse or random)");
	if (vf && kind)
		return bad(o, "%s cannot be combined with %s: the video format sets the test and the frame "
			   "size (--capture writes, --play reads)", vf, kind);
	if (vf && o->z_kib)
		return bad(o, "%s cannot be combined with %s: the video format sets the frame size", vf, "-z");
	return 0;
}

/* Turn parsed options into the plan: test kind, frame size, and --format's
 * paced check (10 s of video unless -n). */
static int resolve_kind(struct sm_frames_opts *o)
{
	struct sm_frames_plan *p = &o->plan;
	uint64_t kib = o->z_kib ? o->z_kib : o->w_kib;

	if (o->format) {
		struct sm_format fmt;

		if (sm_format_find(o->format, &fmt))
			return bad(o, "unknown video format '%s' (see --list-formats)", o->format);
		if (o->capture == o->play)
			return bad(o, "--video-format needs one of --capture or --play");
		if (!(p->fps > 0))
			return bad(o, "--video-format needs --fps RATE");
		if (!p->path)
			return bad(o, "missing directory");
		p->kind = o->capture ? SM_FRAMES_WRITE : SM_FRAMES_READ;
		p->frame_bytes = fmt.frame_bytes;
		if (!o->n_set)
			p->nframes = (uint64_t)(p->fps * 10 + 0.5);   /* 10 s of video */
		if (p->nframes < p->prebuffer)
			p->nframes = p->prebuffer;
		return 0;
	}
	if (o->capture || o->play)
		return bad(o, "--capture and --play go with --video-format");
	p->frame_bytes = kib * 1024;
	if (p->kind == SM_FRAMES_READ && !o->n_set)
		p->nframes = 0;  /* every frame present */
	return 0;
}

/* Options that cannot apply to the test resolve_kind() chose, under the
 * stormark name (frametest takes them as frametest does: ignored). Returns 0
 * or SM_EXIT_USAGE after one line. */
static int check_applies(struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;
	const char *test = o->w_set ? "-w" : o->e_set ? "-e" : "--capture";
	char msg[256];

	if (p->frametest_frames)
		return 0;
	if (o->c_set && p->kind != SM_FRAMES_READ)
		return bad(o, "-c cannot be combined with %s: crop reads the middle of each frame, %s", test,
			   p->kind == SM_FRAMES_EMPTY ? "and empty frames have no data"
						       : "and a write test writes whole frames");
	if (!(p->fps > 0) && (o->q_set || o->b_set))
		return bad(o, "%s needs -f: %s", o->q_set ? "-q" : "-b", o->q_set
			   ? "the queue holds the frames of a paced test (without -f frames go out "
			     "as fast as the threads allow)"
			   : "the pre-buffer is a paced playback's (without -f no frame waits for a display)");
	if (o->q_set && o->b_set && p->prebuffer > p->queue) {
		snprintf(msg, sizeof(msg), "-b %u cannot be combined with -q %u: the display waits for "
			 "-b frames and only -q buffers can hold them", p->prebuffer, p->queue);
		return bad(o, "%s", msg);
	}
	return 0;
}


/* 1 when rel names a frame file below the test directory: frameN.tst or
 * dN/frameN.tst (result/frames.c names them) */
static int frame_name(const char *rel)
{
	const char *slash = strchr(rel, '/');
	int used = 0;
	unsigned long long k;

	if (slash) {
		if (rel[0] != 'd' || (size_t)(slash - rel) < 2 ||
		    strspn(rel + 1, "0123456789") != (size_t)(slash - rel - 1))
			return 0;
		rel = slash + 1;
	}
	return sscanf(rel, "frame%llu.tst%n", &k, &used) == 1 && used > 0 && rel[used] == '\0' &&
	       rel[5] >= '0' && rel[5] <= '9';
}

/* resolve_kind(), then the paced runs' buffer count (-q, or max(8, -b)),
 * then the output flags. */
static int resolve(struct sm_frames_opts *o)
{
	struct sm_frames_plan *p = &o->plan;
	int rc = check_conflicts(o);
	const struct sm_out_file csv = { "-x", p->csv_path, 1, 0 };
	const struct sm_out_area area = { p->path, frame_name, "a frame file the run writes" };
	char msg[SM_MSG_MAX];

	if (!rc)
		rc = resolve_kind(o);
	if (!rc)
		rc = check_applies(o);
	if (rc)
		return rc;
	if (p->fps > 0 && !p->queue)
		p->queue = p->prebuffer > 8 ? p->prebuffer : 8;
	o->out.json = o->json;
	o->out.quiet = p->quiet;
	if (sm_out_resolve(&o->out, o->prog, sm_render_layouts(&sm_render_frames, 0), sm_render_frames.dflt,
			   msg, sizeof(msg)) ||
	    sm_save_check(&o->save, msg, sizeof(msg)) ||
	    sm_save_apart(&o->save, &o->out, &csv, 1, &area, msg, sizeof(msg)))
		return sm_usage_error(o->prog, o->hint, "%s", msg);
	return 0;
}

int sm_frames_opts_parse(int argc, char **argv, int compat, struct sm_frames_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->prog = compat ? "frametest" : "stormark frames";
	o->hint = compat ? "frametest --help" : "stormark help frames";
	sm_frames_plan_defaults(&o->plan);
	o->plan.frametest_frames = compat;
	if (compat && argc < 2)
		return SM_FRAMES_OPTS_HELP;   /* as frametest: no arguments, its help */
	rc = parse(argc, argv, o, compat);
	return rc ? rc : resolve(o);
}

int sm_frames_opts_validate(struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;

	if (p->engine && !sm_engine_find(p->engine))
		return bad(o, "unknown engine '%s' (psync, uring, null)", p->engine);
	if (p->engine && (sm_engine_find(p->engine)->caps & SM_ENGINE_MAPPED))
		return bad(o, "--engine %s does not apply to frames: it maps a fixed set of files for their "
			   "whole length (fileio --file-io-mode=mmap), and frames opens a new file per "
			   "frame (psync, uring, null)", p->engine);
	if (!p->frametest_frames && p->ios_per_frame > 1 && p->kind != SM_FRAMES_EMPTY) {
		/* each I/O moves a piece of the frame (of its cropped middle in a
		 * read), in whole direct-I/O blocks, 512 bytes at least */
		uint64_t region = p->frame_bytes * (p->kind == SM_FRAMES_READ && p->crop_pct ? p->crop_pct : 100) / 100;
		uint64_t most = p->direct ? region / 512 : region;
		char a[32], msg[512];

		if (most < 1)
			most = 1;
		if (p->ios_per_frame > most) {
			snprintf(msg, sizeof(msg), "-i %u cannot be combined with frames of %s: %s, so a "
				 "frame splits into at most %llu I/O%s", p->ios_per_frame,
				 sm_fmt_bytes(a, sizeof(a), (double)region), p->direct
				 ? "direct I/O moves whole blocks of 512 bytes or more (--buffered moves any size)"
				 : "an I/O moves at least one byte", (unsigned long long)most, most == 1 ? "" : "s");
			return bad(o, "%s", msg);
		}
	}
	if (p->verify && (p->kind == SM_FRAMES_EMPTY || p->stream))
		return bad(o, "--verify checks the frames of a write or read test of a sequence, not %s",
			   p->stream ? "a stream (-s)" : "empty frames (-e)");
	if (p->verify && p->frame_bytes < SM_VERIFY_MIN_BLOCK)
		return bad(o, "--verify needs frames of at least 128 bytes");
	if (p->verify && (sm_engine_caps_of(p->engine) & SM_ENGINE_NO_IO))
		return bad(o, "--verify cannot check the null engine, which writes nothing");
	if (p->verify && p->nframes > UINT32_MAX)
		return bad(o, "--verify numbers frames in 32 bits: at most 4294967295 frames");
	if (p->kind != SM_FRAMES_READ && !p->stream) {
		int rc = sm_dir_check_writable(p->path);

		/* a missing directory is sm_frames_check()'s to name */
		if (rc && rc != -ENOENT)
			return bad(o, "cannot write in '%s': %s", p->path, strerror(-rc));
	}
	if (p->csv_path && !strcmp(p->csv_path, "-"))
		return bad(o, "-x takes a file name: '-' would be a file named '-' (stdout has the report)");
	if (p->csv_path) {
		char why[SM_MSG_MAX];

		if (sm_out_check_path("-x", p->csv_path, why, sizeof(why)))
			return bad(o, "%s", why);
	}
	return 0;
}

