/* SPDX-License-Identifier: MIT */
/* stormark run (and `stormark` alone): profile the storage holding a
 * directory and say which video formats it can capture and play in real
 * time. Options here; the phases are workload/profile*.c, the report
 * report/run_text.c. */
#include "cmd/cmd.h"
#include "mpi/job.h"
#include "mpi/job_run.h"
#include "args/fps_opt.h"
#include "args/uring_opts.h"
#include "cmd/emit.h"
#include "args/out_opts.h"
#include "cmd/live_out.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/fsx.h"
#include "engine/engine.h"
#include "core/opt.h"
#include "core/worker.h"
#include "args/save.h"
#include "report/run_text.h"
#include "workload/memneed.h"
#include "workload/profile.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "stormark run"
#define HINT "stormark help run"

static void usage(FILE *f, const struct sm_opt *opts)
{
	fputs("usage: stormark run [DIR] [options]\n"
	      "       stormark [DIR] [options]\n"
	      "\n"
	      "Profile the storage that holds DIR (default: the current directory): classic\n"
	      "block figures, frame-sequence tests, and which video formats it can capture\n"
	      "(write) and play back (read) in real time. Test data goes in a temporary\n"
	      "directory DIR/.stormark-run-XXXXXX, removed at the end, also on Ctrl-C.\n"
	      "\n"
	      "Options:\n", f);
	sm_opt_usage(f, opts, 0);
	fputs("\nThe output flags mean the same in every command (docs/options.md); with\n"
	      "another layout than text, the text report goes to stderr as the run goes.\n"
	      "Under mpirun or srun every rank profiles DIR/rank.N, each test starting on all\n"
	      "at once; rank 0 reports the merged figures, a verdict table in which each cell\n"
	      "is the worst rank's, and the per-host and per-rank table (docs/mpi.md).\n"
	      "Exit status: 0 done, 1 the run failed, 2 usage error, 130 interrupted.\n", f);
}

static const char *const default_formats[] = {
	"dpx-sd-pal", "v210-hd", "dpx-hd", "exr-half-hd", "dpx-2k-dci", "dpx-2k",
	"exr-half-2k", "v210-uhd", "dpx-uhd", "exr-half-uhd", "dpx-4k-dci", "dpx-4k",
	"exr-half-rgba-4k", "dpx-8k-uhd",
};

struct run_opts {
	struct sm_run_plan plan;
	struct sm_out_opts out;     /* --json, --format, -o, --quiet */
	struct sm_save_opts save;   /* --save KEY, --db PATH */
	int classic_only;
	int no_confirm, confirm_all;   /* seen: they cannot go together */
	int formats_set, fps_set;      /* --video-formats/--formats, --fps seen */
	int dir_given;
	int force;                  /* --force: the directory may be a file system's root */
	struct sm_uring_opts uring; /* --sqpoll, --iopoll: the tests on uring */
	int steady_round_set, steady_rounds_set;
	int help;
	struct sm_format *formats;  /* owned */
	unsigned nformats;
};

/* Fill o->formats from a comma-separated list (or "all"). Returns 0, or
 * -ENOENT with the unknown name copied into bad. */
/* One name of --video-formats into o->formats. */
static int take_format(const char *name, void *arg)
{
	struct run_opts *o = arg;

	if (o->nformats == sm_format_count() + 1 || sm_format_find(name, &o->formats[o->nformats]))
		return -ENOENT;
	o->nformats++;
	return 0;
}

/* Fill o->formats from a comma-separated list (or "all"). Returns 0, or
 * -ENOENT with the unknown name copied into bad. */
static int parse_formats(struct run_opts *o, const char *list, char *bad, size_t badlen)
{
	unsigned cap = sm_format_count() + 1;
	int rc;

	free(o->formats);
	o->nformats = 0;
	o->formats = calloc(cap, sizeof(*o->formats));
	if (!o->formats)
		return -ENOMEM;
	if (!strcmp(list, "all")) {
		while (o->nformats < cap && sm_format_at(o->nformats, &o->formats[o->nformats]) == 0)
			o->nformats++;
		return 0;
	}
	rc = sm_opt_each(list, take_format, o, bad, badlen);
	return rc == -ENODATA ? -ENOENT : rc;
}

/* --engine: uring, psync or null. */
static int engine_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	if (!sm_engine_find(arg) || (sm_engine_caps_of(arg) & SM_ENGINE_MAPPED)) {
		snprintf(exp, len, "uring, psync or null");
		return -EINVAL;
	}
	*(const char **)opt->dest = arg;
	return 0;
}

/* --video-formats (or --formats) LIST. */
static int formats_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	char bad[128];
	int rc = parse_formats(opt->dest, arg, bad, sizeof(bad));

	if (rc == -ENOMEM)
		snprintf(exp, len, "a shorter list (out of memory)");
	else if (rc)
		snprintf(exp, len, "comma-separated video format names or 'all' ('%s' is none: "
			 "see docs/formats.md)", bad);
	return rc ? -EINVAL : 0;
}

/* --fps LIST. */
static int fps_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct sm_run_plan *p = opt->dest;

	return sm_fps_opt(arg, p->rates, SM_RUN_MAXRATES, &p->nrates, exp, len);
}

/* Options that cannot go together, whatever their order: the two confirm
 * choices, and --classic-only (no verdict table) with the options of the
 * verdict table. Returns 0 or SM_EXIT_USAGE after one line. */
static int check_conflicts(const struct run_opts *o)
{
	const char *vt = o->formats_set ? "--video-formats" : o->fps_set ? "--fps"
			 : o->confirm_all ? "--confirm-all" : NULL;

	if ((o->steady_round_set || o->steady_rounds_set) && !o->plan.steady)
		return sm_usage_error(PROG, HINT, "--steady-round and --steady-rounds need --steady");
	if (o->plan.precondition && (sm_engine_caps_of(o->plan.engine) & SM_ENGINE_NO_IO))
		return sm_usage_error(PROG, HINT, "--precondition cannot be combined with --engine null: "
				      "the null engine writes nothing, so nothing would be preconditioned");
	if (o->no_confirm && o->confirm_all)
		return sm_usage_error(PROG, HINT, "--no-confirm cannot be combined with --confirm-all");
	if (o->classic_only && vt)
		return sm_usage_error(PROG, HINT, "--classic-only cannot be combined with %s: it makes no "
				      "verdict table", vt);
	return 0;
}

/* Parse argv into o (--help: print the usage). Returns 0, 1 after --help,
 * or SM_EXIT_USAGE. */
static int parse(int argc, char **argv, struct run_opts *o)
{
	char fhelp[256];   /* --format's help, from the render table */
	struct sm_opt opts[] = {
		SM_OPT_DURATION_RANGE(0, "time", o->plan.time_ns, SM_NS_PER_S, SM_NS_PER_S,
				      24 * 3600 * SM_NS_PER_S, "SECS",
				      "about how long the whole run takes (default 60); a quarter "
				      "is the sustained 2K write, long enough to look for a cliff "
				      "from 36 s"),
		SM_OPT_CALL(0, "engine", SM_OPT_REQUIRED, engine_cb, &o->plan.engine, "NAME",
			    "uring, psync or null (default: uring for queued block "
			    "tests, psync for frame tests)"),
		SM_URING_OPTS(o->uring),
		SM_OPT_CALL(0, "video-formats", SM_OPT_REQUIRED, formats_cb, o, "LIST",
			    "verdict rows: comma-separated video format names, or "
			    "'all' (default: a selection from SD to 8K; docs/formats.md)"),
		SM_OPT_CALL(0, "formats", SM_OPT_REQUIRED, formats_cb, o, "LIST",
			    "the old spelling of --video-formats LIST"),
		SM_OPT_CALL(0, "fps", SM_OPT_REQUIRED, fps_cb, &o->plan, "LIST",
			    "frame rates of the verdict table (default 24,25,30,50,60)"),
		{ .kind = SM_OPT_FLAG, .long_name = "no-confirm", .dest = &o->plan.confirm, .ival = 0,
		  .seen = &o->no_confirm, .help = "do not check near-limit verdicts with paced runs" },
		{ .kind = SM_OPT_FLAG, .long_name = "confirm-all", .dest = &o->plan.confirm, .ival = 2,
		  .seen = &o->confirm_all, .help = "check every verdict with a paced run, as time allows" },
		SM_OPT_FLAG_SET(0, "classic-only", o->classic_only, 1, "only the block tests (for comparing with fio)"),
		SM_OPT_FLAG_SET(0, "steady", o->plan.steady, 1,
				"run each classic test in rounds until the last 5 are steady by "
				"SNIA PTS's rule (range within 20%, best-fit line within 10% of "
				"their average; IOPS for random, bandwidth for sequential tests) "
				"and report those 5 rounds; adds 8 tests x 5 to --steady-rounds "
				"rounds to the run (docs/run.md)"),
		{ .kind = SM_OPT_DURATION, .long_name = "steady-round", .arg = SM_OPT_REQUIRED,
		  .dest = &o->plan.steady_round_ns, .unit = SM_NS_PER_S, .min = SM_NS_PER_S,
		  .max = 86400 * SM_NS_PER_S, .argh = "SECS", .seen = &o->steady_round_set,
		  .help = "length of one --steady round (default 60)" },
		{ .kind = SM_OPT_UINT, .long_name = "steady-rounds", .arg = SM_OPT_REQUIRED,
		  .dest = &o->plan.steady_rounds, .size = sizeof(o->plan.steady_rounds), .min = 5,
		  .max = SM_STEADY_MAX_ROUNDS, .argh = "N", .seen = &o->steady_rounds_set,
		  .help = "--steady gives up after N rounds of a test, reporting its last 5 "
			  "with a warning (default 25)" },
		SM_OPT_FLAG_SET(0, "precondition", o->plan.precondition, 1,
				"before the classic tests, write the block test file twice in "
				"128 KiB sequential requests (SNIA PTS's preconditioning); costs "
				"about 2 x its size / the write rate (2 GiB at 200 MiB/s: 20 s)"),
		SM_OPT_FLAG_SET(0, "keep", o->plan.keep, 1, "keep the test data (its path is printed)"),
		SM_OPT_FLAG_SET(0, "force", o->force, 1,
				"let the directory be a file system's root (a mount point, or /)"),
		SM_OPT_HEAD("\nOutput:"),
		SM_OUT_OPTS(o->out, 'o', 1, sm_render_format_help(&sm_render_run, fhelp, sizeof(fhelp))),
		SM_OUT_LIVE_OPT(o->out.live),
		SM_SAVE_OPTS(o->save),
		SM_OPT_HELP('h', "help", o->help, "this help"),
		SM_OPT_LIST_OPTIONS(o->help),
		SM_OPT_END,
	};
	char msg[SM_MSG_MAX];
	int first, rc;

	memset(o, 0, sizeof(*o));
	sm_run_plan_defaults(&o->plan);
	for (struct sm_opt *t = opts; t->kind != SM_OPT_GROUP || t->help; t++)
		if (t->cb == formats_cb)
			t->seen = &o->formats_set;
		else if (t->cb == fps_cb)
			t->seen = &o->fps_set;
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &first, usage);
	if (rc >= 0)
		return rc == SM_EXIT_OK ? 1 : rc;   /* 1: done, exit 0 */
	rc = sm_out_resolve(&o->out, PROG, sm_render_layouts(&sm_render_run, 0), sm_render_run.dflt, msg,
			    sizeof(msg));
	if (!rc)
		rc = sm_save_check(&o->save, msg, sizeof(msg));
	if (!rc)
		rc = sm_save_apart(&o->save, &o->out, NULL, 0, NULL, msg, sizeof(msg));
	if (rc)
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (first < argc) {
		o->plan.dir = argv[first++];
		o->dir_given = 1;
	}
	if (first < argc)
		return sm_usage_error(PROG, HINT, "one directory at most, not also '%s'", argv[first]);
	if (o->dir_given && sm_path_problem(o->plan.dir))
		return sm_usage_error(PROG, HINT, "directory '%s' %s", o->plan.dir, sm_path_problem(o->plan.dir));
	rc = check_conflicts(o);
	if (rc)
		return rc;
	if (!o->formats) {
		unsigned n = sizeof(default_formats) / sizeof(default_formats[0]);

		o->formats = calloc(n, sizeof(*o->formats));
		if (!o->formats)
			return sm_usage_error(PROG, NULL, "out of memory");
		for (unsigned i = 0; i < n; i++)
			if (sm_format_find(default_formats[i], &o->formats[o->nformats]) == 0)
				o->nformats++;
	}
	o->plan.formats = o->formats;
	o->plan.nformats = o->nformats;
	return 0;
}

int cmd_run_parse_only(int argc, char **argv)
{
	struct run_opts o;
	int rc = parse(argc, argv, &o);

	free(o.formats);
	return rc == 1 ? SM_EXIT_OK : rc;
}

static int use_colour(FILE *out)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(fileno(out)) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

/* What the run prints as it goes: the text layout, to stdout, or to
 * stderr beside another layout. */
struct live {
	struct run_opts *o;
	FILE *out;
	int colour;
	int printed;                /* the phases printed so far (SM_PHASE_*) */
	struct sm_progress pc;
};

/* Everything that can be refused before the history and -o are opened:
 * the directory (o->plan.dir becomes this rank's, in full: *abs_dir,
 * caller frees), the engine's options, the memory and space it needs.
 * Returns 0, or the exit code after one line. */
static int check(struct run_opts *o, struct sm_job *job, char **abs_dir)
{
	char what[160], msg[600];
	int rc = sm_is_dir(o->plan.dir);

	if (rc <= 0)
		return sm_usage_error(PROG, HINT, "'%s' is not a directory%s", o->plan.dir,
				      rc == 0 ? " (it does not exist)" : "");
	if (!o->force && sm_root_refusal(o->plan.dir))
		return sm_usage_error(PROG, HINT, "%s", sm_root_refusal(o->plan.dir));
	if (sm_job_merges(job) && (o->plan.steady || o->plan.precondition))   /* rounds are not merged */
		return sm_usage_error(PROG, HINT, "--%s cannot be used under %s: each rank's rounds would "
				      "end at different times (docs/mpi.md)", o->plan.steady ? "steady" :
				      "precondition", job->launcher);
	/* an MPI job: each rank in DIR/rank.N (docs/mpi.md) */
	o->plan.dir = sm_job_place(job, o->plan.dir, 1, 1);
	if (!sm_job_reports(job))   /* rank 0 reports and saves the job */
		memset(&o->save, 0, sizeof(o->save));
	rc = sm_dir_check_writable(o->plan.dir);   /* the test directory goes there */
	if (rc)
		return sm_usage_error(PROG, HINT, "cannot write in '%s': %s", o->plan.dir, strerror(-rc));
	/* the queued block tests run on uring unless --engine says otherwise;
	 * run's I/O is direct wherever the file system takes it */
	rc = sm_uring_opts_check(PROG, &o->uring,
				 sm_engine_caps(&(struct sm_engine_need){ .name = o->plan.engine,
						      .caps = SM_ENGINE_ASYNC }) & SM_ENGINE_POLLING,
				 "--engine uring (or no --engine)", 1, "", o->plan.dir);
	if (rc)
		return rc;
	o->plan.engine_flags = sm_uring_opts_flags(&o->uring);
	/* say which directory in full (a bare 'stormark' profiles '.') */
	*abs_dir = realpath(o->plan.dir, NULL);
	if (*abs_dir)
		o->plan.dir = *abs_dir;
	rc = sm_check_memory(PROG, sm_run_mem_need(&o->plan, what, sizeof(what)), what);
	if (!rc && sm_run_space_check(o->plan.dir, msg, sizeof(msg))) {
		fprintf(stderr, "%s: %s\n", PROG, msg);
		rc = SM_EXIT_USAGE;
	}
	return rc;
}

/* The profile's phases; alone, each part of the text as it is ready (a
 * job's is merged at the end). Returns the outcome (0 or -errno), or 1
 * when the profile could not begin (said, and the job told). */
static int phases(struct live *lv, struct sm_job *job, struct sm_run_result *res)
{
	int alone = !sm_job_merges(job), rc;

	sm_job_run_hooks(job, &lv->o->plan, res);   /* every test starts at a barrier */
	rc = sm_run_begin(&lv->o->plan, res);
	if (rc) {
		sm_error("%s", res->head.error);
		sm_job_run_stop(job, res);   /* the others hear it at their first test */
		return 1;
	}
	if (alone) {
		sm_run_text_header(lv->out, res);
		sm_out_flush(lv->out);
	}
	rc = sm_run_classic(res, sm_progress_run, &lv->pc);
	sm_progress_clear(&lv->pc);
	if (!rc && alone) {
		sm_run_text_classic(lv->out, res);
		sm_out_flush(lv->out);
		lv->printed = SM_PHASE_FRAMES;
	}
	if (!rc && !lv->o->classic_only) {
		rc = sm_run_frames(res, sm_progress_run, &lv->pc);
		sm_progress_clear(&lv->pc);
	}
	if (!rc && !lv->o->classic_only) {
		if (alone) {
			sm_run_text_frames(lv->out, res);
			sm_out_flush(lv->out);
			lv->printed = SM_PHASE_VERDICTS;
		}
		rc = sm_run_verdicts(res, sm_progress_run, &lv->pc);
		sm_progress_clear(&lv->pc);
	}
	sm_run_end(res);
	return rc;
}

/* Once merged: the rest of the text (a job's all of it), then the job's
 * tables. */
static int rest(struct sm_emit *e, void *res, SM_UNUSED int rc)
{
	struct live *lv = e->arg;

	if (sm_job_merges(e->job))
		sm_run_text_header(lv->out, res);
	sm_run_text_rest(lv->out, res, lv->colour, lv->printed);
	sm_job_text(e->job, lv->out, res);
	return 0;
}

/* How the run ended, said after the text. */
static int end(struct sm_emit *e, void *arg, int rc)
{
	const struct live *lv = e->arg;
	const struct sm_run_result *res = arg;

	if (rc == -EINTR) {
		sm_error("interrupted: the figures above are partial%s",
			 lv->o->plan.keep ? "" : "; test data removed");
		return SM_EXIT_INTERRUPTED;
	}
	if (rc || res->error) {
		sm_error("%s", res->head.error[0] ? res->head.error : strerror(-rc));
		return SM_EXIT_FAIL;
	}
	return SM_EXIT_OK;
}

int cmd_run(int argc, char **argv, struct sm_job *job)
{
	struct sm_run_result *res = NULL;
	struct run_opts o;
	struct live lv = { .o = &o, .out = stdout };
	struct sm_emit e = { .r = &sm_render_run, .kind = &sm_job_run, .prog = PROG, .out = &o.out,
			     .save = &o.save, .job = job, .before = rest, .end = end, .arg = &lv };
	char *abs_dir = NULL;
	struct sm_live_out live;
	int rc, code;

	rc = parse(argc, argv, &o);
	if (rc) {
		free(o.formats);
		return rc == 1 ? SM_EXIT_OK : rc;
	}
	code = check(&o, job, &abs_dir);
	/* the history is opened before the run, so a bad database fails fast;
	 * -o FILE: what goes to stdout goes there */
	if (!code)
		code = sm_emit_open(&e);
	/* --live: this process's seconds (an MPI job's rank 0, its own) */
	if (!code && o.out.live && sm_job_reports(job)) {
		rc = sm_live_out_open(&live, &o.out, "run", o.plan.dir, argc, argv);
		if (rc) {
			sm_error("cannot write --live '%s': %s", o.out.live, strerror(-rc));
			code = SM_EXIT_FAIL;
		} else {
			o.plan.live = &live.live;
		}
	}
	if (!code)
		code = sm_emit_redirect(&e);
	if (!code && !(res = calloc(1, sizeof(*res)))) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
	}
	if (code)
		goto out;
	if (o.out.layout != SM_LAYOUT_TEXT)   /* another layout is the report: text to stderr */
		lv.out = stderr;
	e.printed = o.out.layout == SM_LAYOUT_TEXT;
	/* mpirun gives ranks a pty, not the user's terminal */
	lv.colour = use_colour(lv.out) && !sm_job_merges(job);
	lv.pc.on = !o.out.quiet && isatty(STDERR_FILENO) && sm_job_reports(job);
	lv.printed = SM_PHASE_SETUP;
	sm_signals_install();   /* SIGHUP too: a closed terminal removes the data as Ctrl-C does */
	/* output piped into `head` must not kill the run before it removes its
	 * test data: writes then fail with EPIPE instead */
	signal(SIGPIPE, SIG_IGN);
	sm_result_head_begin(&res->head, "run", argc, argv);
	code = sm_job_begin(job, NULL);   /* an MPI job: the start barrier */
	if (code)
		goto out;
	rc = phases(&lv, job, res);
	if (o.plan.live) {
		sm_live_out_close(&live);
		o.plan.live = res->plan.live = NULL;
	}
	code = rc == 1 ? SM_EXIT_FAIL : sm_emit(&e, res, rc);   /* rank 0 reports the job's result */
out:
	if (o.plan.live) {
		sm_live_out_close(&live);
		o.plan.live = NULL;
	}
	sm_emit_close(&e);
	if (res)
		sm_run_result_release(res);
	free(res);
	free(o.formats);
	free(abs_dir);
	return code;
}
