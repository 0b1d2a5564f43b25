/* SPDX-License-Identifier: MIT */
/* stormark fileio's command line: one core/opt table with sysbench
 * 1.0.20's option names, forms and defaults, and stormark's additions; the
 * help is printed from it. */
#include "args/fileio_opts.h"
#include "args/save.h"
#include "core/msg.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/opt.h"
#include "core/units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 1024
#define MAX_BACKLOG 1024

const char *sm_fileio_msg_prog(const struct sm_fileio_opts *o)
{
	return o->sb ? "stormark" : o->prog;
}

int sm_fileio_bad(const struct sm_fileio_opts *o, const char *fmt, ...)
{
	char msg[SM_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sm_usage_error(sm_fileio_msg_prog(o), o->sb ? "sysbench fileio help" : "stormark help fileio",
			      "%s", msg);
}

static int parse_flags(const char *s, unsigned *out)
{
	char buf[128], *save = NULL, *tok;

	*out = 0;
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "sync"))
			*out |= SM_FIO_FLAG_SYNC;
		else if (!strcmp(tok, "dsync"))
			*out |= SM_FIO_FLAG_DSYNC;
		else if (!strcmp(tok, "direct"))
			*out |= SM_FIO_FLAG_DIRECT;
		else
			return -EINVAL;
	}
	return 0;
}

/* A number >= 0 with an optional fraction ("99.9"), nothing else. */
static int parse_pct(const char *s, double *out)
{
	char *end;

	if (!*s || strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	return errno || *end || !isfinite(*out) ? -EINVAL : 0;
}

static int parse_pcts(const char *s, struct sm_pct_list *p)
{
	char buf[128], *save = NULL, *tok;

	p->n = 0;
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (parse_pct(tok, &v) || v > 100 || p->n == SM_FIO_MAX_PCT)
			return -EINVAL;
		if (v == 0) {
			if (p->n || strtok_r(NULL, ",", &save))
				return -EINVAL;   /* 0 disables: alone only */
			return 0;
		}
		p->p[p->n++] = v;
	}
	return p->n ? 0 : -EINVAL;
}

const char *sm_fileio_depr_new(const char *old)
{
	return !strcmp(old, "num-threads") ? "threads" : !strcmp(old, "max-requests") ? "events"
	       : !strcmp(old, "max-time") ? "time" : "rate";
}

static const struct sm_opt_choice io_modes[] = {
	{ "sync", SM_FIO_IO_SYNC }, { "async", SM_FIO_IO_ASYNC }, { "mmap", SM_FIO_IO_MMAP }, { NULL, 0 },
};
static const struct sm_opt_choice fsync_modes[] = {
	{ "fsync", 0 }, { "fdatasync", 1 }, { NULL, 0 },
};
static const struct sm_opt_choice data_modes[] = {
	{ "random", SM_DATA_RANDOM }, { "zero", SM_DATA_ZERO }, { NULL, 0 },
};

_Static_assert(sizeof(enum sm_fileio_io) == sizeof(int), "io_mode is set as an int");
_Static_assert(sizeof(enum sm_data_mode) == sizeof(int), "data is set as an int");

static int mode_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	enum sm_fileio_mode m = sm_fileio_mode_parse(arg);

	if (m == SM_FIO_NONE) {
		snprintf(exp, len, "seqwr, seqrewr, seqrd, rndrd, rndwr or rndrw");
		return -EINVAL;
	}
	*(enum sm_fileio_mode *)opt->dest = m;
	return 0;
}

static int flags_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	if (parse_flags(arg, opt->dest)) {
		snprintf(exp, len, "a comma-separated list of sync, dsync and direct");
		return -EINVAL;
	}
	return 0;
}

static int pct_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	if (parse_pcts(arg, opt->dest)) {
		snprintf(exp, len, "percentiles in (0, 100] separated by commas, or 0 to disable");
		return -EINVAL;
	}
	return 0;
}

/* --rand-seed: 0 means from the clock. */
static int seed_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct sm_fileio_opts *o = opt->dest;

	if (sm_parse_u64(arg, &o->cfg.seed)) {
		snprintf(exp, len, "a non-negative integer (0: from the clock)");
		return -EINVAL;
	}
	o->seed_given = o->cfg.seed != 0;
	return 0;
}

/* --format: sysbench, text (also by its old name 'stormark'), json. */
static int format_cb(const struct sm_opt *opt, const char *arg, SM_UNUSED char *exp, SM_UNUSED size_t len)
{
	*(const char **)opt->dest = !strcmp(arg, "stormark") ? "text" : arg;
	return 0;
}

/* sysbench options stormark does not have. */
static int unsupported_cb(SM_UNUSED const struct sm_opt *opt, SM_UNUSED const char *arg,
		SM_UNUSED char *exp, SM_UNUSED size_t len)
{
	return -ENOTSUP;
}

/* The deprecated names, in the order of the table's entries for them. */
static const char *const depr_names[] = { "num-threads", "max-requests", "max-time", "tx-rate" };

/* The table over o, copied into t (room for cap entries); returns the
 * number of entries. */
/* sysbench 1.0.20's own options, its deprecated aliases and those it takes
 * that stormark ignores, into t; returns how many. */
static unsigned sysbench_part(struct sm_fileio_opts *o, struct sm_opt *t)
{
	struct sm_fileio_cfg *c = &o->cfg;
	const struct sm_opt tab[] = {
		SM_OPT_HEAD("sysbench 1.0.20 fileio options (same defaults):"),
		SM_OPT_UINT_RANGE(0, "file-num", c->num_files, 1, 1000000, "N", "number of files to create [128]"),
		SM_OPT_SIZE_RANGE(0, "file-block-size", c->block_size, 1, 1, 1ULL << 30, "N",
				  "block size to use in all IO operations [16384]"),
		SM_OPT_SIZE_RANGE(0, "file-total-size", c->total_size, 1, 1, 0, "SIZE",
				  "total size of files to create [2G]"),
		SM_OPT_CALL(0, "file-test-mode", SM_OPT_REQUIRED, mode_cb, &c->mode, "STRING",
			    "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}"),
		SM_OPT_CHOOSE(0, "file-io-mode", c->io_mode, io_modes, "STRING",
			      "file operations mode {sync,async,mmap} [sync] "
			      "(async runs on io_uring; no libaio needed)"),
		SM_OPT_UINT_RANGE(0, "file-async-backlog", c->async_backlog, 1, MAX_BACKLOG, "N",
				  "requests in flight per thread in async mode [128]"),
		SM_OPT_CALL(0, "file-extra-flags", SM_OPT_REQUIRED, flags_cb, &c->extra_flags, "[LIST,...]",
			    "additional open flags {sync,dsync,direct} []"),
		SM_OPT_UINT_RANGE(0, "file-fsync-freq", c->fsync_freq, 0, UINT32_MAX, "N",
				  "do fsync() after this number of requests (0 - don't use fsync()) [100]"),
		SM_OPT_BOOL_OPT(0, "file-fsync-all", c->fsync_all, "do fsync() after each write operation [off]"),
		SM_OPT_BOOL_OPT(0, "file-fsync-end", c->fsync_end, "do fsync() at the end of test [on]"),
		SM_OPT_CHOOSE(0, "file-fsync-mode", c->fsync_data, fsync_modes, "STRING",
			      "which method to use for synchronization {fsync, fdatasync} [fsync]"),
		SM_OPT_UINT_RANGE(0, "file-merged-requests", c->merged, 0, 1u << 20, "N",
				  "merge at most this number of IO requests if possible (0 - don't merge) [0]"),
		SM_OPT_DOUBLE_RANGE(0, "file-rw-ratio", c->rw_ratio, 0, INFINITY, "N",
				    "reads/writes ratio for combined test [1.5]"),
		SM_OPT_HEAD("general options:"),
		SM_OPT_UINT_RANGE(0, "threads", c->threads, 1, MAX_THREADS, "N", "number of threads to use [1]"),
		SM_OPT_UINT_RANGE(0, "events", c->max_events, 0, 0, "N", "limit for total number of events [0]"),
		SM_OPT_DURATION_RANGE(0, "time", c->time_ns, SM_NS_PER_S, 0, 0, "N",
				      "limit for total execution time in seconds [10]"),
		SM_OPT_DOUBLE_RANGE(0, "rate", c->rate, 0, INFINITY, "N",
				    "average transactions rate. 0 for unlimited rate [0]"),
		SM_OPT_DURATION_RANGE(0, "report-interval", c->report_interval_ns, SM_NS_PER_S, 0, 0, "N",
				      "periodically report intermediate statistics with a specified "
				      "interval in seconds. 0 disables intermediate reports [0]"),
		SM_OPT_BOOL_OPT(0, "histogram", o->histogram, "print latency histogram in report [off]"),
		SM_OPT_CALL(0, "percentile", SM_OPT_REQUIRED, pct_cb, &o->pct, "N",
			    "percentile to calculate in latency statistics (1-100), "
			    "a list separated by commas; 0 disables [95]"),
		SM_OPT_CALL(0, "rand-seed", SM_OPT_REQUIRED, seed_cb, o, "N",
			    "seed for random number generator. 0 uses the clock [0]"),
		SM_OPT_BOOL_OPT(0, "validate", c->validate, "perform validation checks where possible [off]"),
		SM_OPT_UINT_RANGE(0, "verbosity", o->verbosity, 0, 5, "N",
				  "verbosity level {5 - debug, 0 - only critical messages} [3]"),
		{ .kind = SM_OPT_BOOL, .long_name = "help", .arg = SM_OPT_OPTIONAL, .dest = &o->help,
		  .argh = "on|off", .help = "print help and exit" },
		{ .kind = SM_OPT_BOOL, .long_name = "version", .arg = SM_OPT_OPTIONAL, .dest = &o->version,
		  .argh = "on|off", .help = "print version and exit" },
		SM_OPT_HEAD("deprecated aliases (a warning names the new option):"),
		SM_OPT_UINT_RANGE(0, "num-threads", c->threads, 1, MAX_THREADS, "N", "--threads"),
		SM_OPT_UINT_RANGE(0, "max-requests", c->max_events, 0, 0, "N", "--events"),
		SM_OPT_DURATION_RANGE(0, "max-time", c->time_ns, SM_NS_PER_S, 0, 0, "N", "--time"),
		SM_OPT_DOUBLE_RANGE(0, "tx-rate", c->rate, 0, INFINITY, "N", "--rate"),
		SM_OPT_HEAD("accepted and ignored:"),
		SM_OPT_STR(0, "forced-shutdown", o->ignored, "V", "ignored"),
		SM_OPT_STR(0, "thread-stack-size", o->ignored, "SIZE", "ignored"),
		SM_OPT_STR(0, "rand-type", o->ignored, "V", "ignored"),
		SM_OPT_STR(0, "rand-spec-iter", o->ignored, "N", "ignored"),
		SM_OPT_STR(0, "rand-spec-pct", o->ignored, "N", "ignored"),
		SM_OPT_STR(0, "rand-spec-res", o->ignored, "N", "ignored"),
		SM_OPT_STR(0, "rand-pareto-h", o->ignored, "N", "ignored"),
		SM_OPT_STR(0, "rand-zipfian-exp", o->ignored, "N", "ignored"),
		SM_OPT_BOOL_OPT(0, "debug", o->ignored_bool, "ignored"),
		SM_OPT_CALL(0, "report-checkpoints", SM_OPT_REQUIRED, unsupported_cb, o, "LIST", NULL),
		SM_OPT_CALL(0, "config-file", SM_OPT_REQUIRED, unsupported_cb, o, "FILE", NULL),
	};

	memcpy(t, tab, sizeof(tab));
	return sizeof(tab) / sizeof(tab[0]);
}

/* 1 when rel names a test file: test_file.N */
static int test_file_name(const char *rel)
{
	const char *d = rel + strlen("test_file.");

	if (strncmp(rel, "test_file.", strlen("test_file.")) || !*d)
		return 0;
	return strspn(d, "0123456789") == strlen(d);
}

/* stormark's additions, the end of the table, into t; returns how many. */
static unsigned stormark_part(struct sm_fileio_opts *o, struct sm_opt *t)
{
	struct sm_fileio_cfg *c = &o->cfg;
	const struct sm_opt tab[] = {
		SM_OPT_HEAD("stormark additions:"),
		SM_OPT_STR(0, "file-dir", c->dir, "DIR", "where the test files live [current directory]"),
		SM_OPT_STR(0, "nfs", c->nfs, "URL", "the test files on an NFS server, reached through libnfs "
			   "with no kernel mount: nfs://SERVER/EXPORT[/DIR][?ARGS] (NFSv3; ARGS as libnfs "
			   "takes them: nfsport=, mountport=); sync mode only (docs/engines.md)"),
		SM_OPT_BOOL_OPT(0, "verify", c->verify, "every block written carries a trailer (set, run, "
				"write sequence, file, offset, XXH3 checksum) and every block read "
				"is checked; prepare and run both need it (docs/verify.md) [off]"),
		SM_OPT_FLAG_SET(0, "force", o->force, 1,
				"let the test files' directory be a file system's root (a mount point, or /)"),
		SM_URING_OPTS(o->uring),
		SM_OPT_CHOOSE(0, "file-data", c->data, data_modes, "random|zero",
			      "what prepare writes [random: incompressible]"),
		SM_OPT_FLAG_SET(0, "steady", o->steady.steady, 1,
				"run: repeat the test in rounds until the last 5 are steady by "
				"SNIA PTS's rule (range within 20%, best-fit line within 10% of "
				"their average; IOPS in the random modes, bandwidth in the "
				"sequential ones) and report those 5 rounds (docs/fileio.md)"),
		SM_OPT_DURATION_RANGE(0, "steady-round", o->steady.round_ns, SM_NS_PER_S, SM_NS_PER_S,
				      86400 * SM_NS_PER_S, "SECS", "length of one --steady round [60]"),
		SM_OPT_UINT_RANGE(0, "steady-rounds", o->steady.max_rounds, 5, SM_STEADY_MAX_ROUNDS, "N",
				  "--steady gives up after N rounds, reporting the last 5 "
				  "with a warning [25]; the run takes up to N x --steady-round"),
		SM_OPT_FLAG_SET(0, "precondition", o->steady.precondition, 1,
				"run: before the test, write the whole set twice sequentially in "
				"128 KiB requests (SNIA PTS's preconditioning); this costs about "
				"2 x --file-total-size / the write rate (2 GiB at 200 MiB/s: 20 s) "
				"and rewrites the test files' contents"),
		SM_OPT_CALL(0, "format", SM_OPT_REQUIRED, format_cb, &o->out.format, "LAYOUT",
			    sm_render_format_help(&sm_render_fileio, o->format_help, sizeof(o->format_help))),
		SM_OPT_STR('o', "output", o->out.output, "FILE", "write the report to FILE, not stdout"),
		SM_SAVE_OPTS(o->save),
		SM_OUT_HTML_OPT(o->out.html),
		SM_OUT_LIVE_OPT(o->out.live),
		{ .kind = SM_OPT_STRING, .long_name = "json", .arg = SM_OPT_OPTIONAL, .dest = &o->out.json,
		  .dflt = "-", .flags = SM_OPT_EMPTY_OK, .argh = "FILE",
		  .help = "write the result as JSON to FILE; with no FILE the JSON "
			  "is the report, on stdout (docs/options.md)" },
		SM_OPT_FLAG_SET(0, "quiet", o->out.quiet, 1, "accepted as in every command (fileio shows no "
				"progress line; --report-interval lines are part of the report)"),
		SM_OPT_LIST_OPTIONS(o->list_options),
		SM_OPT_END,
	};

	memcpy(t, tab, sizeof(tab));
	return sizeof(tab) / sizeof(tab[0]);
}

static unsigned table(struct sm_fileio_opts *o, struct sm_opt *t, unsigned cap)
{
	struct sm_opt tab[128];
	unsigned n = sysbench_part(o, tab);

	n += stormark_part(o, tab + n);

	for (unsigned i = 0; i < n; i++) {   /* note the deprecated names used */
		for (unsigned d = 0; d < 4; d++)
			if (tab[i].long_name && !strcmp(tab[i].long_name, depr_names[d]))
				tab[i].seen = &o->depr_seen[d];
		if (tab[i].long_name && !strcmp(tab[i].long_name, "file-fsync-freq"))
			tab[i].seen = &o->fsync_freq_set;
		if (tab[i].long_name && !strcmp(tab[i].long_name, "time"))
			tab[i].seen = &o->time_set;
		/* sysbench's own durations are whole seconds under its name
		 * (a unit is refused there as sysbench refuses it) */
		if (o->sb && tab[i].long_name && (!strcmp(tab[i].long_name, "time") ||
		    !strcmp(tab[i].long_name, "max-time") || !strcmp(tab[i].long_name, "report-interval")))
			tab[i].expected = "a non-negative whole number of seconds";
		if (tab[i].long_name && !strcmp(tab[i].long_name, "steady-round"))
			tab[i].seen = &o->steady_round_set;
		if (tab[i].long_name && !strcmp(tab[i].long_name, "steady-rounds"))
			tab[i].seen = &o->steady_rounds_set;
	}
	if (n > cap)
		n = cap;
	memcpy(t, tab, n * sizeof(*t));
	return n;
}

void sm_fileio_usage(FILE *f)
{
	struct sm_fileio_opts scratch;
	struct sm_opt t[80];

	memset(&scratch, 0, sizeof(scratch));
	table(&scratch, t, 80);
	fputs("usage: stormark fileio [options] prepare|run|cleanup|help\n"
	      "       sysbench fileio [options] prepare|run|cleanup|help  (a 'sysbench' link)\n"
	      "\n", f);
	sm_opt_usage(f, t, SM_OPT_USAGE_EQ);
	fputs("\nThe output flags mean the same in every command: docs/options.md.\n", f);
}

void sm_fileio_list_options(FILE *f)
{
	struct sm_fileio_opts scratch;
	struct sm_opt t[80];

	memset(&scratch, 0, sizeof(scratch));
	table(&scratch, t, 80);
	sm_opt_list(f, t, SM_OPT_USAGE_EQ);
}

int sm_fileio_parse(struct sm_fileio_opts *o, int argc, char **argv)
{
	struct sm_out_area area;
	struct sm_opt t[80];
	char msg[SM_MSG_MAX];
	int first, rc;

	sm_fileio_cfg_defaults(&o->cfg);
	o->pct.n = 1;
	o->pct.p[0] = 95;
	o->verbosity = 3;
	o->steady.round_ns = 60 * SM_NS_PER_S;
	o->steady.max_rounds = 25;
	table(o, t, 80);
	rc = sm_opt_parse(t, argc, argv, 0, &first, msg, sizeof(msg));
	if (rc == SM_OPT_LIST_CODE)
		return 0;   /* o->list_options is set */
	if (rc)
		return sm_fileio_bad(o, "%s", msg);
	for (unsigned d = 0; d < 4; d++)
		if (o->depr_seen[d])
			o->deprecated[o->ndeprecated++] = depr_names[d];
	if (o->help || o->version)
		return 0;
	for (int i = first; i < argc; i++) {
		if (o->command)
			return sm_fileio_bad(o, "unexpected argument '%s' after '%s'", argv[i], o->command);
		if (strcmp(argv[i], "prepare") && strcmp(argv[i], "run") && strcmp(argv[i], "cleanup") &&
		    strcmp(argv[i], "help"))
			return sm_fileio_bad(o, "unknown command '%s': prepare, run, cleanup or help", argv[i]);
		o->command = argv[i];
	}
	if (sm_out_resolve(&o->out, sm_fileio_msg_prog(o), sm_render_layouts(&sm_render_fileio, 0), sm_render_fileio.dflt,
			   msg, sizeof(msg)))
		return sm_fileio_bad(o, "%s", msg);
	if (o->save.key && o->command && strcmp(o->command, "run"))
		return sm_fileio_bad(o, "--save stores the result of 'run'; '%s' has none", o->command);
	/* prepare and cleanup print sysbench's lines and have no result to
	 * write as JSON or HTML, or to lay out otherwise */
	if (o->command && strcmp(o->command, "run") && (o->out.json || o->out.html))
		return sm_fileio_bad(o, "--%s writes the result of 'run'; '%s' has none",
				     o->out.html ? "html" : "json", o->command);
	if (o->command && strcmp(o->command, "run") && o->out.live)
		return sm_fileio_bad(o, "--live watches 'run'; '%s' has no test to watch", o->command);
	if (o->command && strcmp(o->command, "run") && o->out.layout != SM_LAYOUT_SYSBENCH)
		return sm_fileio_bad(o, "--format %s lays out the result of 'run'; '%s' prints "
				     "sysbench's lines only", sm_layout_name(o->out.layout), o->command);
	area = (struct sm_out_area){ o->cfg.dir ? o->cfg.dir : ".", test_file_name, "a test file the run uses" };
	if (sm_save_check(&o->save, msg, sizeof(msg)) ||
	    sm_save_apart(&o->save, &o->out, NULL, 0, &area, msg, sizeof(msg)))
		return sm_fileio_bad(o, "%s", msg);
	return 0;
}
