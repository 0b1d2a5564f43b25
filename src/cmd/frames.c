/* SPDX-License-Identifier: MIT */
/* stormark frames: runs and reports frame-sequence and streaming tests and
 * the paced check of one video format; the command line (frametest's, also
 * when run as `frametest`, plus long options) is parsed in frames_opts.c. */
#include "cmd/cmd.h"
#include "mpi/job.h"
#include "args/frames_opts.h"
#include "cmd/emit.h"
#include "engine/engine.h"
#include "args/out_opts.h"
#include "cmd/live_out.h"
#include "core/worker.h"
#include "report/formats.h"
#include "report/frametest.h"
#include "report/frames_csv.h"
#include "workload/frames_log.h"
#include "report/verify.h"
#include "analysis/paced.h"
#include "analysis/verdict.h"
#include "workload/frames.h"
#include "workload/memneed.h"
#include "core/pace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void progress(const struct sm_frames_snap *last, const struct sm_frames_snap *total, void *arg)
{
	sm_progress_frames(stderr, last, total, *(uint64_t *)arg);
}

/* The frames of one rank's plan (a loop covers its first -l). */
static uint64_t distinct_frames(const struct sm_frames_plan *p)
{
	return p->loop && p->loop < p->nframes ? p->loop : p->nframes;
}

/* --mpi-files=shared (docs/mpi.md): rank r's frames in DIR itself are
 * numbered from r x N, N its distinct frames. A read without -n counts
 * the set first (*split: shared_split() after the check). Returns 0 or an
 * exit code (said on stderr). */
static int shared_plan(struct sm_frames_opts *o, struct sm_job *job, int *split)
{
	if (!job->shared || o->plan.stream)
		return 0;   /* a stream file is FILE.rank.N either way */
	if (o->plan.files_per_dir)
		return sm_usage_error(o->prog, o->hint, "-d does not go with --mpi-files=shared (docs/mpi.md)");
	if (o->plan.kind == SM_FRAMES_READ && !o->plan.nframes) {
		*split = 1;
		return 0;
	}
	if (sm_job_first(job, distinct_frames(&o->plan), 1ULL << 52, &o->plan.first))
		return sm_usage_error(o->prog, o->hint, "--mpi-files=shared: %d ranks x %llu frames is too many",
				      job->size, (unsigned long long)distinct_frames(&o->plan));
	return 0;
}

/* A read of a whole shared set: sm_frames_check() counted its frames from
 * frame000000.tst; each rank reads an equal share (the rest, fewer than
 * the ranks, is left out). Returns 0 or an exit code. */
static int shared_split(struct sm_frames_opts *o, struct sm_job *job)
{
	uint64_t total = o->plan.nframes;

	if (total < (uint64_t)job->size) {
		sm_prog_error(o->prog, "'%s' holds %llu frames: fewer than the %d ranks of --mpi-files=shared",
			      o->plan.path, (unsigned long long)total, job->size);
		return SM_EXIT_FAIL;
	}
	o->plan.nframes = total / (uint64_t)job->size;
	(void)sm_job_first(job, distinct_frames(&o->plan), UINT64_MAX, &o->plan.first);
	return 0;
}

/* Exit code for a failed check/run error. */
static int check_exit(int rc)
{
	if (rc == -EINTR)
		return SM_EXIT_INTERRUPTED;
	return rc == -ENOENT || rc == -ENODATA || rc == -EEXIST ? SM_EXIT_FAIL : SM_EXIT_USAGE;
}

/* A paced run that could not end in reasonable time, refused before
 * anything is created (docs/options.md, "Limits"): a rate below
 * SM_RATE_MIN, or a schedule over SM_PACED_MAX_S without --time. */
static int check_limits(const struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;

	if (p->fps > 0 && p->fps < SM_RATE_MIN)
		return sm_usage_error(o->prog, o->hint, "-f %g is below the lowest paced rate, %g frames per "
				      "second (one every %g s)", p->fps, SM_RATE_MIN, 1 / SM_RATE_MIN);
	if (p->fps > 0 && !p->time_limit_ns && (double)p->nframes / p->fps > SM_PACED_MAX_S)
		return sm_usage_error(o->prog, o->hint, "%llu frames at -f %g take %.0f days; the longest "
				      "paced run is %.0f days (--time SECS ends a run sooner)",
				      (unsigned long long)p->nframes, p->fps,
				      (double)p->nframes / p->fps / 86400, SM_PACED_MAX_S / 86400);
	return 0;
}

/* Everything that can be refused before anything is created: the target,
 * this rank's part of an MPI job (its directory, its share of a shared
 * set), the plan against what is there, the engine's options, memory and
 * limits, --verify. Returns 0, or the exit code after one line. */
static int check(struct sm_frames_opts *o, struct sm_job *job)
{
	char msg[SM_MSG_MAX], what[160];
	struct sm_engine_need need = { 0 };
	int rc, split = 0;

	if (o->plan.kind != SM_FRAMES_READ && !o->plan.stream && !o->force && sm_root_refusal(o->plan.path))
		return sm_usage_error(o->prog, o->hint, "%s", sm_root_refusal(o->plan.path));
	/* an MPI job: each rank in DIR/rank.N, or its frames in DIR (docs/mpi.md) */
	rc = shared_plan(o, job, &split);
	if (rc)
		return rc;
	o->plan.path = sm_job_place(job, o->plan.path, !o->plan.stream, o->plan.kind != SM_FRAMES_READ);
	o->plan.csv_path = sm_job_log(job, o->plan.csv_path);
	o->plan.quiet |= !sm_job_reports(job);
	rc = sm_frames_check(&o->plan, msg, sizeof(msg));
	if (!rc && split) {   /* a read of the whole shared set: each rank its share */
		rc = shared_split(o, job);
		if (rc)
			return rc;
		rc = sm_frames_check(&o->plan, msg, sizeof(msg));
	}
	if (rc) {
		sm_prog_error(o->prog, "%s", msg);
		return check_exit(rc);
	}
	rc = sm_frames_opts_validate(o);   /* after the check: a read test's frame size is known */
	if (rc)
		return rc;
	need.name = o->plan.engine;
	need.caps = o->plan.depth ? SM_ENGINE_ASYNC : 0;
	rc = sm_uring_opts_check(o->prog, &o->uring, sm_engine_caps(&need) & SM_ENGINE_POLLING,
				 "-a N or --engine uring",
				 o->plan.direct, "leave out --buffered", o->plan.path);
	if (rc)
		return rc;
	o->plan.engine_flags = sm_uring_opts_flags(&o->uring);
	/* a shared set: the ranks agree on its directory id at the start */
	if (job->shared && !o->plan.stream && o->plan.kind != SM_FRAMES_READ &&
	    sm_frames_find_dir_id(o->plan.path, &o->plan.dir_id) <= 0)
		o->plan.dir_id = 0;
	rc = sm_check_memory(o->prog, sm_frames_mem_need(&o->plan, what, sizeof(what)), what);
	if (!rc)
		rc = check_limits(o);
	if (rc)
		return rc;
	if (o->plan.verify) {
		rc = sm_frames_verify_ready(&o->plan, msg, sizeof(msg));
		if (rc) {
			sm_prog_error(o->prog, "%s", rc == -ENOMEDIUM ? msg : strerror(-rc));
			return rc == -ENOMEDIUM ? SM_EXIT_USAGE : SM_EXIT_FAIL;
		}
	}
	sm_frames_opts_params(o);
	return 0;
}

/* What the run's end needs of the command. */
struct ending {
	const struct sm_frames_opts *o;
	int csv_err;               /* -x FILE: the write that failed (-errno), 0 */
};

/* How the run ended, after the report: interrupted, failed, a damaged
 * frame, a paced run that does not hold; and a log cut by a failed write
 * while the run failed for another reason. */
static int end(struct sm_emit *e, void *arg, int rc)
{
	const struct ending *en = e->arg;
	const struct sm_frames_opts *o = en->o;
	const struct sm_frames_result *res = arg;
	char csv_msg[SM_MSG_MAX] = "";
	int code = SM_EXIT_OK, holds = 1;

	if (o->format) {   /* the verdict line is the report's (or a notice beside JSON) */
		struct sm_paced pc;
		int v;

		sm_paced_from_frames(res, &pc);
		v = sm_verdict_paced(&pc);
		holds = v == SM_VERDICT_REALTIME || v == SM_VERDICT_MARGINAL;
	}
	if (rc == -EINTR) {
		fprintf(stderr, "%s: interrupted: the report covers the frames moved so far\n", o->prog);
		code = SM_EXIT_INTERRUPTED;
	} else if (rc) {
		sm_prog_error(o->prog, "%s", res->head.error);
		code = SM_EXIT_FAIL;
	} else if (res->verify.problems) {
		char path[4096], what[512];

		if (sm_frames_path(&res->plan, res->verify.kept[0].file, path, sizeof(path)))
			snprintf(path, sizeof(path), "frame %u", res->verify.kept[0].file);
		sm_verify_describe(what, sizeof(what), &res->verify.kept[0]);
		fprintf(stderr, "%s: verification failed: %llu problem%s; first '%s' %s\n", o->prog,
			(unsigned long long)res->verify.problems, res->verify.problems > 1 ? "s" : "", path, what);
		code = SM_EXIT_FAIL;
	} else if (!holds) {
		code = SM_EXIT_FAIL;
	}
	if (en->csv_err)   /* the workload's wording (workload/frames.c) */
		snprintf(csv_msg, sizeof(csv_msg), "cannot write '%s': %s (the file is incomplete)",
			 o->plan.csv_path, strerror(-en->csv_err));
	if (en->csv_err && strncmp(res->head.error, csv_msg, sizeof(res->head.error) - 1)) {
		sm_prog_error(o->prog, "%s", csv_msg);
		if (code == SM_EXIT_OK)
			code = SM_EXIT_FAIL;
	}
	return code;
}

/* -x's lines, written by the workload's log (workload/frames_log.h) */
static const struct sm_frames_log_format csv_format = {
	.header = sm_frames_csv_header,
	.line_max = SM_FRAMES_CSV_LINE_MAX,
	.line = sm_frames_csv_line,
};

/* The test itself, with its -x log and --verify's record of the frames
 * written (o->plan.verify_written: the caller frees it); then the
 * read-back pass. Returns the outcome (0 or -errno), or 1 for an exit code
 * already in *code. */
static int test(struct sm_frames_opts *o, struct sm_job *job, struct sm_frames_result *res,
		struct sm_frames_log *csv, int *code)
{
	unsigned char *written;   /* --verify, write test: frames written */
	struct sm_live_out live;
	int rc;

	if (o->plan.csv_path) {
		/* the workload streams its per-frame records into this sink */
		rc = sm_frames_log_open(csv, o->plan.csv_path, &csv_format);
		if (rc) {
			sm_prog_error(o->prog, "cannot write '%s': %s", o->plan.csv_path, strerror(-rc));
			*code = SM_EXIT_FAIL;
			return 1;
		}
		o->plan.sink = &csv->sink;
	}
	if (o->plan.verify && o->plan.kind == SM_FRAMES_WRITE) {
		o->plan.verify_run = sm_verify_new_id();
		written = calloc(distinct_frames(&o->plan) ? distinct_frames(&o->plan) : 1, 1);
		if (!written) {
			sm_error("out of memory");
			*code = SM_EXIT_FAIL;
			return 1;
		}
		o->plan.verify_written = written;
	}
	/* --live: this process's seconds (an MPI job's rank 0, its own) */
	if (o->out.live && sm_job_reports(job)) {
		rc = sm_live_out_open(&live, &o->out, "frames", o->plan.path, res->head.argc, res->head.argv);
		if (rc) {
			sm_prog_error(o->prog, "cannot write --live '%s': %s", o->out.live, strerror(-rc));
			*code = SM_EXIT_FAIL;
			return 1;
		}
		o->plan.live = &live.live;
	}
	*code = sm_job_begin(job, &o->plan.dir_id);   /* an MPI job: the start barrier */
	if (*code) {
		if (o->plan.live)
			sm_live_out_close(&live);
		o->plan.live = NULL;
		return 1;
	}
	rc = sm_frames_run(&o->plan, res, (!o->plan.quiet && isatty(STDERR_FILENO)) ? progress : NULL,
			   &o->plan.nframes);
	if (o->plan.live) {
		sm_live_out_close(&live);
		o->plan.live = res->plan.live = NULL;
	}
	sm_job_after(job, &rc, &res->head.interrupted);
	if (!o->plan.quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc && res->head.error[0] && !res->frames_done && !res->open.count) {
		/* Nothing was measured: only the reason. */
		sm_prog_error(o->prog, "%s", res->head.error);
		*code = SM_EXIT_FAIL;
		return 1;
	}
	if (o->plan.verify && !rc) {
		/* the read-back pass, timed apart from the test */
		rc = sm_frames_verify_pass(&res->plan, &res->verify);
		if (rc && rc != -EINTR)
			snprintf(res->head.error, sizeof(res->head.error), "--verify: cannot read the frames back: %s",
				 strerror(-rc));
	}
	return rc;
}

int cmd_frames(int argc, char **argv, struct sm_job *job)
{
	struct sm_frames_opts o;
	struct sm_frames_result *res = NULL;
	struct sm_frames_log csv = { .fd = -1 };
	struct ending en = { .o = &o };
	struct sm_emit e = { .r = &sm_render_frames, .kind = &sm_job_frames, .out = &o.out, .save = &o.save,
			     .job = job, .end = end, .arg = &en };
	int compat = !strcmp(argv[0], "frametest") || (strrchr(argv[0], '/') &&
		     !strcmp(strrchr(argv[0], '/') + 1, "frametest"));
	int rc, code;

	/* under frametest's name an inherited ignored SIGINT stays ignored,
	 * as frametest leaves it (a background job of a script) */
	if (compat)
		sm_signals_install_keep_int();
	else
		sm_signals_install();
	rc = sm_frames_opts_parse(argc, argv, compat, &o);
	if (rc == SM_FRAMES_OPTS_HELP) {
		sm_frames_opts_usage(stdout, compat);
		return SM_EXIT_OK;
	}
	if (rc == SM_FRAMES_OPTS_OPTIONS) {
		sm_frames_opts_list(stdout);
		return SM_EXIT_OK;
	}
	if (rc == SM_FRAMES_OPTS_LIST) {
		sm_report_video_formats(stdout);
		return SM_EXIT_OK;
	}
	if (rc)
		return rc;
	if (o.notice)
		fprintf(stderr, "%s: notice: %s\n", o.prog, o.notice);
	e.prog = o.prog;
	code = check(&o, job);
	/* the history is opened before the test, so a bad database fails fast */
	if (!code)
		code = sm_emit_open(&e);
	if (!code)
		code = sm_emit_redirect(&e);
	if (!code && !(res = calloc(1, sizeof(*res)))) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
	}
	if (code)
		goto out;
	sm_result_head_begin(&res->head, "frames", argc, argv);
	rc = test(&o, job, res, &csv, &code);
	if (rc == 1)
		goto out;
	snprintf(res->test_params, sizeof(res->test_params), "%s", o.params);
	if (o.format) {
		snprintf(res->video_format, sizeof(res->video_format), "%s", o.format);
		res->video_capture = o.capture;
	}
	en.csv_err = o.plan.csv_path ? sm_frames_log_error(&csv) : 0;
	res->log_cut = en.csv_err != 0;   /* frametest's "Writing log file..." only for a whole log */
	code = sm_emit(&e, res, rc);   /* rank 0 reports the job's result */
out:
	if (csv.fd >= 0 && (rc = sm_frames_log_close(&csv)) && code == SM_EXIT_OK) {
		sm_prog_error(o.prog, "cannot write '%s': %s", o.plan.csv_path, strerror(-rc));
		code = SM_EXIT_FAIL;
	}
	if (res)
		sm_frames_result_release(res);
	free(res);
	free(o.plan.verify_written);
	sm_emit_close(&e);
	return code;
}
