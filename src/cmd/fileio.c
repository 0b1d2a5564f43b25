/* SPDX-License-Identifier: MIT */
/* stormark fileio: a drop-in for `sysbench fileio` (prepare, run, cleanup
 * with sysbench 1.0.20's options, defaults and report), plus --file-dir,
 * random data, io_uring, per-operation statistics and JSON. Also the
 * `sysbench` program name, which provides the fileio test only. */
#include "cmd/cmd.h"
#include "mpi/job.h"
#include "analysis/fileio.h"
#include "analysis/share.h"
#include "cmd/emit.h"
#include "args/fileio_opts.h"
#include "args/sysbench_args.h"
#include "cmd/live_out.h"
#include "cmd/fileio_check.h"
#include "core/clock.h"
#include "core/compiler.h"
#include "core/fsx.h"
#include "core/pace.h"
#include "core/units.h"
#include "core/worker.h"
#include "report/steady.h"
#include "report/sysbench.h"
#include "workload/fileio.h"
#include "workload/memneed.h"
#include "engine/nfs.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* No text report: --verbosity below 3, or the JSON is the report. */
static int quiet(const struct sm_fileio_opts *o)
{
	return o->verbosity < 3 || o->out.layout == SM_LAYOUT_JSON;
}

/* The report is in sysbench's layout, on stdout: sysbench's own lines too. */
static int sb_layout(const struct sm_fileio_opts *o)
{
	return o->out.layout == SM_LAYOUT_SYSBENCH;
}

/* Under the sysbench name: its own command line was read first (sb). */
static const struct sm_sb_args *sysbench_name(const struct sm_fileio_opts *o)
{
	return o->sb;
}

/* The banner, unless sysbench's command line reading printed it. */
static void banner(const struct sm_fileio_opts *o)
{
	if (!o->sb || !o->sb->banner_done)
		sm_sb_banner(stdout);
}

/* A sysbench log line at a level (0 FATAL, 2 WARNING, 4 INFO, 5 DEBUG):
 * on stdout, shown up to --verbosity, as sysbench shows it; only when the
 * report is sysbench's layout on stdout. */
static void sb_log(const struct sm_fileio_opts *o, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void sb_log(const struct sm_fileio_opts *o, int level, const char *fmt, ...)
{
	va_list ap;

	if (level > o->verbosity || !sb_layout(o))
		return;
	fputs(level == 0 ? "FATAL: " : level == 2 ? "WARNING: " : level == 5 ? "DEBUG: " : "", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	sm_out_flush(stdout);
}

/* SIGINT and SIGTERM stop a run with a report; under the sysbench name an
 * ignored SIGINT (a background job of a script) stays ignored, as sysbench
 * leaves it. SIGINT is blocked meanwhile, so none is taken by the handler
 * in between (a pending one is dropped when ignored again). */
static void install_signals(const struct sm_fileio_opts *o)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	sm_signals_install();
	if (o->sb && o->sb->sigint_ignored)
		signal(SIGINT, SIG_IGN);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int do_cleanup(struct sm_fileio_opts *o)
{
	unsigned bad = 0;
	int rc;

	if (!quiet(o)) {
		banner(o);
		printf("Removing test files...\n");
	}
	install_signals(o);   /* the sysbench name keeps an inherited ignored SIGINT */
	if (o->cfg.nfs) {
		char msg[SM_MSG_MAX];

		rc = sm_fileio_nfs_cleanup(&o->cfg, msg, sizeof(msg));
		if (rc < 0)
			sm_error("%s", msg);
		else if (o->nfs_base)
			sm_fileio_nfs_rmdir(o->nfs_base, o->nfs_sub);
		return rc < 0 ? SM_EXIT_FAIL : SM_EXIT_OK;
	}
	rc = sm_fileio_cleanup(&o->cfg, &bad);
	if (rc == -EINTR) {
		char path[4096];

		sm_fileio_path(&o->cfg, bad, path, sizeof(path));
		sm_error("interrupted: test files from '%s' on were not removed (run cleanup again)", path);
		return SM_EXIT_INTERRUPTED;
	}
	if (rc == -ELOOP || rc == -EPERM) {
		char path[4096];

		sm_fileio_path(&o->cfg, bad, path, sizeof(path));
		sm_error(rc == -ELOOP ? "'%s' is a symbolic link; not removing it"
				      : "'%s' was not prepared by stormark fileio; not removing it (nothing removed)",
			 path);
		return SM_EXIT_FAIL;
	}
	if (rc < 0) {
		sm_error("cannot remove test files in '%s': %s", o->cfg.dir, strerror(-rc));
		return SM_EXIT_FAIL;
	}
	return SM_EXIT_OK;
}

/* sysbench's line for file i, as prepare begins it (one thread). */
static void prep_line(void *arg, unsigned i)
{
	const struct sm_fileio_prep *p = arg;

	sm_sb_prepare_file(stdout, p->state[i], p->first_file + i);
	sm_out_flush(stdout);
}

/* prepare --nfs: sysbench's head and closing lines around the files
 * written on the server (no per-file states: every file is new). */
static int do_prepare_nfs(struct sm_fileio_opts *o)
{
	char msg[SM_MSG_MAX];
	uint64_t written, t0 = sm_now_ns();
	int rc;

	if (!quiet(o)) {
		banner(o);
		sm_sb_prepare_head(stdout, &o->cfg);
		sm_out_flush(stdout);
	}
	install_signals(o);
	rc = o->nfs_base ? sm_fileio_nfs_mkdir(o->nfs_base, o->nfs_sub, msg, sizeof(msg)) : 0;
	if (!rc)
		rc = sm_fileio_nfs_prepare(&o->cfg, &written, msg, sizeof(msg));
	if (rc) {
		sm_error("%s", msg);
		return SM_EXIT_FAIL;
	}
	if (!quiet(o))
		sm_sb_prepare_done(stdout, written, sm_now_ns() - t0);
	return SM_EXIT_OK;
}

static int do_prepare(struct sm_fileio_opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	struct sm_fileio_prep p;
	char path[4096], a[32], b[32];
	int rc, out = SM_EXIT_OK;

	if (cfg->nfs)
		return do_prepare_nfs(o);
	rc = sm_fileio_prep_scan(cfg, &p);

	if (rc == -ELOOP || rc == -EEXIST || rc == -EPERM) {
		sm_fileio_path(cfg, (unsigned)p.err_file, path, sizeof(path));
		sm_error("'%s' is %s; not preparing over it", path,
			 rc == -ELOOP ? "a symbolic link" : rc == -EEXIST ? "not a regular file"
			 : "not a file stormark fileio prepared");
		sm_fileio_prep_release(&p);
		return SM_EXIT_FAIL;
	}
	if (rc) {
		sm_error("cannot examine test files in '%s': %s", cfg->dir, strerror(-rc));
		sm_fileio_prep_release(&p);
		return SM_EXIT_FAIL;
	}
	if (!quiet(o)) {
		banner(o);
		sm_sb_prepare_head(stdout, cfg);
		/* sysbench prints each file's line as it begins the file, so
		 * that a failure comes after the file it stopped in */
		for (unsigned i = 0; i < cfg->num_files && !sysbench_name(o); i++)
			sm_sb_prepare_file(stdout, p.state[i], cfg->first_file + i);
		sm_out_flush(stdout);
	}
	install_signals(o);
	rc = sm_fileio_prepare(cfg, &p, sysbench_name(o) && !quiet(o) ? prep_line : NULL, &p);
	if (rc == -EINTR || p.err == -EINTR) {
		sm_error("interrupted: %llu bytes written; the incomplete files were removed or cut back",
			 (unsigned long long)p.written);
		out = SM_EXIT_INTERRUPTED;
	} else if (rc) {
		sm_fileio_path(cfg, (unsigned)p.err_file, path, sizeof(path));
		if (p.err == -ELOOP)
			sm_error("'%s' is a symbolic link; not preparing over it", path);
		else if (p.err == -EEXIST)
			sm_error("'%s' appeared during the prepare and is not stormark's; not touching it", path);
		else if (p.err == -ENOTSUP)
			sm_error("cannot seal '%s': the file system of '%s' keeps no user extended attributes, "
				 "which stormark fileio marks its files with; run it as 'sysbench' there "
				 "(sysbench's rules)", path, cfg->dir);
		else if (p.err && p.err_in_write && sysbench_name(o) && sb_layout(o)) {
			/* sysbench 1.0.20's line, on stdout; what stormark did
			 * with the file is a note a script can set aside */
			sb_log(o, 0, "Failed to write file! errno = %d (%s)", -p.err, strerror(-p.err));
			if (p.err_removed && o->verbosity >= 1)
				fprintf(stderr, "stormark: note: %s '%s'\n", p.err_removed == 1 ?
					"removed the incomplete file" : "cut back to its previous size", path);
		} else if (p.err)
			sm_error("%s while writing '%s': %s; %llu bytes (%s) of %s written in all%s",
				 p.disk_full ? "disk full" : "write failed", path, strerror(-p.err),
				 (unsigned long long)p.written, sm_fmt_bytes(a, sizeof(a), (double)p.written),
				 sm_fmt_bytes(b, sizeof(b), (double)cfg->file_size * cfg->num_files),
				 p.err_removed == 1 ? "; the incomplete file was removed"
				 : p.err_removed == 2 ? "; the file was cut back to its previous size" : "");
		else
			sm_error("prepare failed: %s", strerror(-rc));
		out = SM_EXIT_FAIL;
	} else if (!quiet(o)) {
		sm_sb_prepare_done(stdout, p.written, p.duration_ns);
		if (cfg->verify)
			printf("Verification: %llu blocks of %llu bytes written with a trailer (set id %llu); "
			       "hashing took %.3f s (%.1f MiB/s)\n", (unsigned long long)p.sealed,
			       (unsigned long long)cfg->block_size, (unsigned long long)p.set_id,
			       (double)p.seal_ns / 1e9,
			       sm_per_s((double)(p.sealed * cfg->block_size), p.seal_ns) / 1048576.0);
	}
	if (!out && p.unsealed_reused && o->verbosity >= 1) {
		sm_fileio_path(cfg, (unsigned)p.first_unsealed, path, sizeof(path));
		fprintf(stderr, "stormark: warning: '%s'%s %s not prepared with --validate and %s reused as "
			"%s: a run with --validate cannot check %s blocks (run cleanup, then prepare "
			"--validate)\n", path, p.unsealed_reused > 1 ? " and other files" : "",
			p.unsealed_reused > 1 ? "were" : "was", p.unsealed_reused > 1 ? "are" : "is",
			p.unsealed_reused > 1 ? "they are" : "it is", p.unsealed_reused > 1 ? "their" : "its");
	}
	sm_fileio_prep_release(&p);
	return out;
}

static void on_tick(const struct sm_fileio_tick *t, void *arg)
{
	const struct sm_fileio_opts *o = arg;

	/* interval lines belong to the sysbench and text layouts; beside
	 * JSON, CSV or markdown on stdout they go to stderr */
	sm_sb_tick(sb_layout(o) || o->out.layout == SM_LAYOUT_TEXT ? stdout : stderr, t, &o->pct);
}

/* --steady: one line per round on stderr, as progress (not with --quiet). */
static void on_round(unsigned n, const struct sm_steady *s, void *arg)
{
	const struct sm_fileio_opts *o = arg;

	if (!o->out.quiet && o->verbosity >= 3)
		sm_steady_round_line(stderr, n, s);
}

/* Before the files are opened: O_DIRECT, the engine's options, what
 * --verify/--validate need. Returns 0, or the exit code after one line. */
static int check_run(struct sm_fileio_opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	char msg[SM_MSG_MAX];
	int rc = sm_fileio_check_direct(o);

	if (rc)
		return rc;
	rc = sm_uring_opts_check(sm_fileio_msg_prog(o), &o->uring, cfg->io_mode == SM_FIO_IO_ASYNC,
				 "--file-io-mode=async", !!(cfg->extra_flags & SM_FIO_FLAG_DIRECT),
				 "add --file-extra-flags=direct", cfg->dir);
	if (rc)
		return rc;
	cfg->engine_flags = sm_uring_opts_flags(&o->uring);
	if (sm_fileio_sealing(cfg)) {
		unsigned depth = cfg->io_mode == SM_FIO_IO_ASYNC ? cfg->async_backlog : 1;

		/* sm_fileio_run() caps the depth at 1024 */
		rc = sm_fileio_verify_ready(cfg, cfg->threads * (depth > 1024 ? 1024 : depth), msg, sizeof(msg));
		if (rc) {
			sm_error("%s", msg);
			return rc == -ENOMEDIUM ? SM_EXIT_USAGE : SM_EXIT_FAIL;
		}
	}
	return 0;
}

/* sysbench's head, then the test files opened into *fds. Returns 0, or
 * the exit code after sysbench's lines and stormark's. */
static int open_files(struct sm_fileio_opts *o, int **fds)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	char msg[SM_MSG_MAX], path[4096];
	uint64_t end;
	int missing = 0, rc;

	if (!quiet(o) && sb_layout(o)) {
		banner(o);
		sm_sb_run_head(stdout, cfg, o->seed_given, cfg->seed);
		sm_out_flush(stdout);
	}
	if (cfg->nfs) {
		rc = sm_fileio_nfs_open(cfg, fds, msg, sizeof(msg));
		if (rc)
			sm_error("%s", msg);
		return rc ? SM_EXIT_FAIL : 0;
	}
	rc = sm_fileio_open(cfg, fds, msg, sizeof(msg), &missing);
	for (unsigned i = 0; i < cfg->num_files && sysbench_name(o); i++) {
		sm_fileio_path(cfg, i, path, sizeof(path));
		sb_log(o, 5, "Opening file: %s", path);
		if (rc && strstr(msg, path))
			break;   /* the one that failed */
	}
	if (rc) {
		/* sysbench's two lines (scripts look for them), then ours; under
		 * the sysbench name, only sysbench's (at its verbosity levels),
		 * except for stormark's own refusals (a symlink: one line on stderr) */
		int sb_fatal = rc != -ELOOP && (sysbench_name(o) || !quiet(o));

		if (sb_fatal) {
			sb_log(o, 0, "%s", msg);
			if (rc == -EFBIG)
				sb_log(o, 2, "Did you run 'prepare' with different --file-total-size or "
				       "--file-num values?");
			else if (!strncmp(msg, "Cannot open file", 16))
				sb_log(o, 2, "Did you forget to run the prepare step?");
		}
		if (sysbench_name(o) && sb_fatal)
			return SM_EXIT_FAIL;
		if (missing)
			sm_error("cannot open test files in '%s': %s (run 'prepare' first)", cfg->dir,
				 strerror(-rc));
		else if (rc == -EFBIG && cfg->verify &&
			 sm_fileio_find_short(cfg, path, sizeof(path), &end))   /* named by where it ends */
			sm_error("verification failed: '%s' is truncated: it ends at offset %llu, its blocks "
				 "end at %llu", path, (unsigned long long)end, (unsigned long long)cfg->file_size);
		else
			sm_error("%s", msg);
		return SM_EXIT_FAIL;
	}
	return 0;
}

/* The result's head, parameters and warnings, before the run. Returns 0
 * or -ENOMEM. */
static int begin_result(struct sm_fileio_opts *o, struct sm_fileio_result *r, int argc, char **argv)
{
	const struct sm_fileio_cfg *cfg = &o->cfg;

	if (sm_fileio_result_init(r, cfg))
		return -ENOMEM;
	sm_result_head_begin(&r->head, "fileio", argc, argv);
	r->cfg = *cfg;
	if (o->steady.steady) {   /* the limits of one round */
		r->cfg.time_ns = o->steady.round_ns;
		r->cfg.max_events = 0;
	}
	r->pct = o->pct;
	r->seed_given = o->seed_given;
	r->histogram = o->histogram;
	sm_env_collect(&r->head.env, cfg->dir);
	if (cfg->nfs)
		sm_fileio_nfs_env(cfg->nfs, &r->head.env);
	r->head.env.direct_io = (cfg->extra_flags & SM_FIO_FLAG_DIRECT) && cfg->io_mode != SM_FIO_IO_MMAP;
	sm_fileio_plan_warnings(cfg, &r->head.env, &r->head.warnings);
	sm_share_warn(&r->head.warnings, &r->head.env.fs.mount, SM_SHARE_DATA, r->head.env.direct_io);
	/* the native, markdown and JSON reports carry the warnings themselves */
	for (unsigned i = 0; i < r->head.warnings.count && (sb_layout(o) || o->out.layout == SM_LAYOUT_CSV) &&
	     !o->out.json_file && o->verbosity >= 2; i++)
		fprintf(stderr, "stormark: warning: %s\n", r->head.warnings.item[i].message);
	if (!sm_fileio_sealing(cfg) && sm_fileio_mode_writes(cfg->mode) && cfg->mode != SM_FIO_SEQWR &&
	    o->verbosity >= 1 && sm_fileio_set_sealed(cfg))
		fprintf(stderr, "stormark: warning: the test files carry --validate/--verify trailers; this run "
			"writes blocks without them, which a later --validate or --verify run reports as "
			"damaged\n");
	return 0;
}

/* sysbench's lines once the run is over: at a failed request or a damaged
 * block its FATAL lines and no report (returns SM_EXIT_FAIL), else why it
 * ended (at --verbosity 4 and up). */
static int sb_closing(struct sm_emit *e, void *res, SM_UNUSED int rc)
{
	const struct sm_fileio_opts *o = e->arg;
	const struct sm_fileio_result *r = res;
	const struct sm_fileio_cfg *cfg = &o->cfg;

	if (sysbench_name(o) && r->failed && cfg->validate && !cfg->verify && r->verify.nkept) {
		/* sysbench stops at a bad block with its FATAL lines and no
		 * report; its "Calculated value / Stored value" line is not
		 * printed: stormark's blocks carry no CRC-32 to show */
		const struct sm_verify_problem *p = &r->verify.kept[0];

		if (p->kind == SM_VK_MISPLACED) {
			sb_log(o, 0, "Offset mismatch in block:");
			sb_log(o, 0, "   Actual offset: %llu    Stored offset: %llu", (unsigned long long)p->off,
			       (unsigned long long)p->found.off);
		} else {
			sb_log(o, 0, "Checksum mismatch in block with offset: %llu", (unsigned long long)p->off);
		}
		sb_log(o, 0, "Validation failed on file %u, block offset %llu, exiting...", p->file,
		       (unsigned long long)p->off);
		return SM_EXIT_FAIL;
	}
	if (sysbench_name(o) && r->failed && r->io_err.set && sb_layout(o)) {
		/* sysbench 1.0.20 stops at a failed request with its FATAL
		 * line on stdout and no report (tests/golden/sysbench-1.0.20/
		 * faults/); in async mode it first says which kind failed, and
		 * then prints errno 0, where stormark gives the real one */
		const struct sm_fileio_ioerr *ie = &r->io_err;
		static const char *const kind[] = { "read", "write", "fsync" };

		if (ie->async && ie->kind < 2)
			sb_log(o, 0, "Asynchronous %s failed!\n", kind[ie->kind]);
		if (ie->kind == 2)
			sb_log(o, 0, "Failed to fsync file! file: %d errno = %d (%s)", ie->fd, ie->err,
			       strerror(ie->err));
		else
			sb_log(o, 0, "Failed to %s file! file: %d pos: %llu errno = %d (%s)", kind[ie->kind],
			       ie->fd, (unsigned long long)ie->off, ie->err, strerror(ie->err));
		return SM_EXIT_FAIL;
	}
	if (!r->failed && !r->head.interrupted) {
		if (cfg->max_events && r->events >= cfg->max_events)
			sb_log(o, 4, "Event limit exceeded, exiting...");
		else if (cfg->time_ns)
			sb_log(o, 4, "Time limit exceeded, exiting...");
	}
	if (!r->failed)
		sb_log(o, 4, "Done.\n");
	return 0;
}

/* How the run ended, after the report: an I/O error, a full disk or a
 * damaged block stops the run, and the one line that names the file
 * follows the report of what ran before it (as frames and run do). */
static int run_end(struct sm_emit *e, void *res, SM_UNUSED int rc)
{
	const struct sm_fileio_opts *o = e->arg;
	const struct sm_fileio_result *r = res;

	if (o->cfg.validate && !o->cfg.verify && r->verify.unchecked && o->verbosity >= 2)
		fprintf(stderr, "stormark: warning: --validate: %llu of %llu blocks read carry no checksum "
			"(written without --validate) and were not checked\n",
			(unsigned long long)r->verify.unchecked,
			(unsigned long long)(r->verify.unchecked + r->verify.checked));
	if (r->failed) {
		sm_out_flush(stdout);
		sm_error("%s", r->head.error);
		return SM_EXIT_FAIL;
	}
	if (r->head.interrupted) {
		sm_error("interrupted: the figures above cover %.2f s", (double)r->head.duration_ns / 1e9);
		return SM_EXIT_INTERRUPTED;
	}
	return SM_EXIT_OK;
}

static int do_run(struct sm_fileio_opts *o, int argc, char **argv, struct sm_emit *e)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	struct sm_fileio_result r;
	struct sm_live_out live;
	int *fds = NULL, rc, out;
	unsigned warned;   /* the warnings before the run */

	out = check_run(o);
	if (!out)
		out = open_files(o, &fds);
	if (out)
		return out;
	if (begin_result(o, &r, argc, argv)) {
		sm_error("out of memory");
		sm_fileio_close(cfg, fds);
		return SM_EXIT_FAIL;
	}
	if (!quiet(o) && sb_layout(o))
		sm_sb_run_started(stdout);
	warned = r.head.warnings.count;
	install_signals(o);
	/* --live: this process's seconds (an MPI job's rank 0, its own) */
	if (o->out.live && sm_job_reports(e->job)) {
		rc = sm_live_out_open(&live, &o->out, "fileio", cfg->dir, argc, argv);
		if (rc) {
			sm_error("cannot write --live '%s': %s", o->out.live, strerror(-rc));
			sm_fileio_close(cfg, fds);
			out = SM_EXIT_FAIL;
			goto done;
		}
		cfg->live = &live.live;
	}
	out = sm_job_begin(e->job, NULL);   /* an MPI job: the start barrier */
	if (out) {
		sm_fileio_close(cfg, fds);
		if (cfg->live)
			sm_live_out_close(&live);
		cfg->live = NULL;
		goto done;
	}
	if (o->steady.steady || o->steady.precondition)
		rc = sm_fileio_steady_run(cfg, fds, &o->steady, o->pct.n ? o->pct.p[0] : 0, on_tick, o,
					  on_round, o, &r);
	else
		rc = sm_fileio_run(cfg, fds, o->pct.n ? o->pct.p[0] : 0, on_tick, o, &r);
	if (cfg->live) {
		sm_live_out_close(&live);
		cfg->live = r.cfg.live = NULL;
	}
	sm_job_after(e->job, &rc, &r.head.interrupted);
	sm_fileio_close(cfg, fds);
	/* the sysbench and CSV layouts carry no warnings: those of the run
	 * (not steady, a block map --verify could not use) go to stderr
	 * whatever --json does, as they change what the figures mean */
	sm_fileio_steady_warning(&r);
	for (unsigned i = warned; i < r.head.warnings.count && (sb_layout(o) || o->out.layout == SM_LAYOUT_JSON ||
							       o->out.layout == SM_LAYOUT_CSV) && o->verbosity >= 2; i++)
		fprintf(stderr, "stormark: warning: %s\n", r.head.warnings.item[i].message);
	snprintf(r.head.env.engine, sizeof(r.head.env.engine), "%s", r.engine);
	if (r.notice[0]) {
		/* a fallback changes what the figures mean: the JSON says so too */
		fprintf(stderr, "stormark: note: %s\n", r.notice);
		sm_warn(&r.head.warnings, "engine_fallback", "%s", r.notice);
	}
	if (rc && !r.failed) {
		/* --verify / --validate cannot check this set: a usage problem */
		sm_error("%s", rc == -ENOMEDIUM || r.head.error[0] ? r.head.error : strerror(-rc));
		out = rc == -ENOMEDIUM ? SM_EXIT_USAGE : SM_EXIT_FAIL;
		goto done;
	}
	e->quiet = quiet(o);
	out = sm_emit(e, &r, rc);   /* rank 0 reports the job's result */
done:
	sm_fileio_result_release(&r);
	return out;
}

static void print_deprecated(const struct sm_fileio_opts *o)
{
	for (unsigned i = 0; i < o->ndeprecated; i++)
		fprintf(stderr, "WARNING: --%s is deprecated, use --%s instead\n", o->deprecated[i],
			sm_fileio_depr_new(o->deprecated[i]));
}

static int fileio_main(const char *prog, int argc, char **argv, const struct sm_sb_args *sb,
		       struct sm_job *job)
{
	struct sm_fileio_opts o;
	struct sm_emit e = { .r = &sm_render_fileio, .kind = &sm_job_fileio, .out = &o.out, .save = &o.save,
			     .job = job, .before = sb_closing, .end = run_end, .arg = &o };
	int rc;

	memset(&o, 0, sizeof(o));
	o.prog = prog;
	o.sb = sb;
	rc = sm_fileio_parse(&o, argc, argv);
	if (rc)
		return rc;
	/* under its own name stormark touches only the files it sealed;
	 * under sysbench's, sysbench's rules (docs/fileio.md) */
	o.cfg.ownership = strcmp(prog, "sysbench") != 0;
	if (o.list_options) {
		sm_fileio_list_options(stdout);
		return SM_EXIT_OK;
	}
	if (o.version) {
		printf(!strcmp(prog, "sysbench") ? "sysbench 1.0.20 (stormark %s fileio drop-in)\n"
						  : "stormark %s\n", SM_VERSION);
		return SM_EXIT_OK;
	}
	if (o.help || (o.command && !strcmp(o.command, "help"))) {
		sm_fileio_usage(stdout);
		return SM_EXIT_OK;
	}
	if (!o.command)
		return sm_fileio_bad(&o, "missing command: prepare, run or cleanup");
	/* sysbench warns before it checks; stormark's name checks first, so a
	 * refused command line is its one error line */
	if (!strcmp(prog, "sysbench"))
		print_deprecated(&o);
	rc = sm_fileio_check_plan(&o);
	if (rc)
		return rc;
	if (strcmp(prog, "sysbench"))
		print_deprecated(&o);
	if (!o.force && !o.cfg.nfs && sm_root_refusal(o.cfg.dir))
		return sm_fileio_bad(&o, "%s", sm_root_refusal(o.cfg.dir));
	/* an MPI job: each rank on DIR/rank.N, or with --mpi-files=shared on
	 * test_file.(r x N) .. in DIR (docs/mpi.md) */
	if (!o.cfg.nfs)
		o.cfg.dir = sm_job_place(job, o.cfg.dir, 1, !strcmp(o.command, "prepare"));
	else if (job->launcher) {   /* each rank its own rank.N on the server */
		if (job->shared)
			return sm_fileio_bad(&o, "--nfs cannot be combined with --mpi-files=shared: the ranks "
					     "would share one list of the files they made (docs/mpi.md)");
		snprintf(o.nfs_sub, sizeof(o.nfs_sub), "rank.%d", job->rank);
		if (sm_fileio_nfs_sub_url(o.cfg.nfs, o.nfs_sub, o.nfs_url, sizeof(o.nfs_url)))
			return sm_fileio_bad(&o, "--nfs '%s' is too long", o.cfg.nfs);
		o.nfs_base = o.cfg.nfs;
		o.cfg.nfs = o.nfs_url;
	}
	{
		uint64_t first;

		if (sm_job_first(job, o.cfg.num_files, UINT_MAX, &first))
			return sm_fileio_bad(&o, "--mpi-files=shared: %d ranks x %u files is too many",
					     job->size, o.cfg.num_files);
		o.cfg.first_file = (unsigned)first;
	}
	if (sm_job_merges(job) && (o.steady.steady || o.steady.precondition))   /* rounds are not merged */
		return sm_fileio_bad(&o, "--steady and --precondition are not supported under %s (docs/mpi.md)",
				     job->launcher);
	if (strcmp(o.command, "cleanup")) {
		/* before -o creates its file and prepare its test files */
		char what[160];
		uint64_t need = sm_fileio_mem_need(&o.cfg, !strcmp(o.command, "prepare"), what,
						   sizeof(what));

		rc = sm_check_memory(sm_fileio_msg_prog(&o), need, what);
		if (rc)
			return rc;
	}
	e.prog = sm_fileio_msg_prog(&o);
	rc = sm_emit_redirect(&e);   /* -o FILE: the report goes there */
	if (rc)
		return rc;
	if (!strcmp(o.command, "cleanup"))
		return do_cleanup(&o);
	if (!strcmp(o.command, "prepare")) {
		rc = sm_fileio_check_direct(&o);
		return rc ? rc : do_prepare(&o);
	}
	/* the history is opened before the run, so a bad database fails fast */
	rc = sm_emit_open(&e);
	if (rc)
		return rc;
	rc = do_run(&o, argc, argv, &e);
	sm_emit_close(&e);
	return rc;
}

/* `stormark fileio ...`: see sm_fileio_usage(); returns the exit code. */
int cmd_fileio(int argc, char **argv, struct sm_job *job)
{
	return fileio_main("stormark fileio", argc, argv, NULL, job);
}

/* The `sysbench` program name: `sysbench [options] fileio [options]
 * command` read as sysbench 1.0.20 reads it (args/sysbench_args.c), then
 * run as fileio. Returns the exit code. */
int cmd_sysbench(int argc, char **argv, struct sm_job *job)
{
	static struct sm_sb_args sb;
	int rc = sm_sb_args(argc, argv, &sb);

	if (rc >= 0)
		return rc;
	return fileio_main("sysbench", sb.argc, sb.argv, &sb, job);
}
