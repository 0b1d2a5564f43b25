/* SPDX-License-Identifier: MIT */
/* stormark meta: the metadata work of an image sequence (create, stat,
 * header probe, list, delete of N files named like frames), phase by
 * phase as mdtest runs them. Options here; the phases are
 * workload/meta.c, the rates analysis/meta.c, the layouts report/meta.c
 * and its render table. docs/meta.md. */
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "args/out_opts.h"
#include "args/save.h"
#include "analysis/meta.h"
#include "core/compiler.h"
#include "core/opt.h"
#include "core/worker.h"
#include "mpi/job.h"
#include "mpi/job_meta.h"
#include "engine/nfs.h"
#include "workload/meta.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "stormark meta"
#define HINT "stormark meta --help"
#define MAX_SIZE (1ull << 30)

struct meta_opts {
	struct sm_meta_plan plan;
	uint64_t files;
	int force, help, shared_dir;
	struct sm_out_opts out;
	struct sm_save_opts save;
};

static void usage(FILE *f, const struct sm_opt *opts)
{
	fprintf(f,
		"usage: stormark meta [options] [DIR]\n\n"
		"The metadata work of an image sequence, phase by phase as mdtest runs\n"
		"them: in a directory of its own made in DIR (default .), FILES files\n"
		"named like frames (frame000000.tst...) are created (SIZE bytes written\n"
		"into each), stat'ed, probed (opened and their first 4 KiB read, as an\n"
		"application scanning a sequence's headers; not at size 0), listed (the\n"
		"whole directory read) and deleted. Per phase: count, errors, ops/s and\n"
		"the latency's p50, p99, p99.9 and max. The run removes what it created,\n"
		"and only that. Under mpirun each rank works in DIR/rank.N (with\n"
		"--shared-dir all in one directory), every phase starting on all at once.\n"
		"With --nfs URL the directory is made on an NFS server, reached through\n"
		"libnfs with no kernel mount and no client cache (the server's figures).\n\n");
	sm_opt_usage(f, opts, 0);
	fprintf(f, "\nThe output flags mean the same in every command: docs/options.md.\n"
		"See docs/meta.md (each phase beside mdtest's and IO500's).\n");
}

/* Parse argv into o. Returns -1 to go on, or the exit code to return. */
static int parse(int argc, char **argv, struct meta_opts *o)
{
	char fhelp[256];   /* --format's help, from the render table */
	struct sm_opt opts[] = {
		SM_OPT_UINT_RANGE('n', "files", o->files, 1, SM_META_MAX_FILES, "FILES",
				  "files of the run (default 10000)"),
		SM_OPT_UINT_RANGE('t', "threads", o->plan.threads, 1, SM_META_MAX_THREADS, "THREADS",
				  "threads, the files split between them (default 1; list: one)"),
		SM_OPT_SIZE_RANGE(0, "size", o->plan.size, 1, 0, MAX_SIZE, "BYTES",
				  "bytes written into each file at create (default 0; K, M, G suffixes)"),
		SM_OPT_FLAG_SET(0, "warm", o->plan.warm, 1,
				"keep the caches: stat, probe and list a second browse's way (default: "
				"the page, dentry and inode caches dropped before each, as root)"),
		SM_OPT_FLAG_SET(0, "force", o->force, 1,
				"let the directory be a file system's root (a mount point, or /)"),
		SM_OPT_FLAG_SET(0, "shared-dir", o->shared_dir, 1,
				"under mpirun: every rank's files in one directory (default DIR/rank.N each)"),
		SM_OPT_STR(0, "nfs", o->plan.nfs, "URL", "the run's directory on an NFS server, reached "
			   "through libnfs (nfs://SERVER/EXPORT[/DIR]; no DIR then; docs/meta.md)"),
		SM_OPT_HEAD("\nOutput:"),
		SM_OUT_OPTS(o->out, 'o', 0, sm_render_format_help(&sm_render_meta, fhelp, sizeof(fhelp))),
		SM_SAVE_OPTS(o->save),
		SM_OPT_HELP('h', "help", o->help, "this help"),
		SM_OPT_LIST_OPTIONS(o->help),
		SM_OPT_END,
	};
	char msg[SM_MSG_MAX];
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->files = 10000;
	o->plan.threads = 1;
	o->plan.dir = ".";
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &first, usage);
	if (rc >= 0)
		return rc;
	if (sm_out_resolve(&o->out, PROG, sm_render_layouts(&sm_render_meta, 0), sm_render_meta.dflt,
			   msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (sm_save_check(&o->save, msg, sizeof(msg)) ||
	    sm_save_apart(&o->save, &o->out, NULL, 0, NULL, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (o->plan.nfs && first < argc)
		return sm_usage_error(PROG, HINT, "--nfs and a directory '%s' do not go together: the "
				      "directory is the URL's, on the server", argv[first]);
	if (first < argc)
		o->plan.dir = argv[first++];
	if (first < argc)
		return sm_usage_error(PROG, HINT, "one directory at most, not also '%s'", argv[first]);
	if (o->plan.nfs) {
		char server[128], path[256];

		if (!sm_nfs_available())
			return sm_usage_error(PROG, HINT, "--nfs: this stormark was built without libnfs "
					      "(install libnfs-dev, then configure again)");
		if (sm_nfs_url_split(o->plan.nfs, server, sizeof(server), path, sizeof(path)))
			return sm_usage_error(PROG, HINT, "--nfs '%s' is not nfs://SERVER/EXPORT[/DIR]",
					      o->plan.nfs);
		o->plan.dir = o->plan.nfs;   /* what the report names */
	} else if (sm_path_problem(o->plan.dir))
		return sm_usage_error(PROG, HINT, "directory '%s' %s", o->plan.dir,
				      sm_path_problem(o->plan.dir));
	if (o->plan.threads > o->files)
		return sm_usage_error(PROG, HINT, "-t %u is more threads than the %llu files of -n",
				      o->plan.threads, (unsigned long long)o->files);
	o->plan.files = o->files;
	return -1;
}

/* How the run ended, said after its report. */
static int end(SM_UNUSED struct sm_emit *e, void *arg, int rc)
{
	const struct sm_meta_result *res = arg;

	sm_out_flush(stdout);   /* the report before what stderr says of it */
	if (rc == -EINTR || res->head.interrupted) {
		sm_error("interrupted: the figures above are partial; %s",
			 res->cleaned ? "the run's files removed" :
			 res->data_dir[0] ? "the run's directory was left" : "no directory was made");
		return SM_EXIT_INTERRUPTED;
	}
	if (rc || res->head.error[0]) {
		/* a failed create ends the measuring there; a failed stat, probe
		 * or list is counted in its phase and the others run */
		int partial = !res->ph[SM_META_DELETE].ran;

		sm_error("%s%s%s", res->head.error[0] ? res->head.error : strerror(-rc),
			 partial ? " (the figures are partial" : "",
			 res->cleaned ? (partial ? "; the run's files removed)" : " (the run's files removed)")
				      : (partial ? ")" : ""));
		return SM_EXIT_FAIL;
	}
	if (!res->cleaned) {
		sm_error("the run's directory '%s' was left", res->data_dir);
		return SM_EXIT_FAIL;
	}
	return SM_EXIT_OK;
}

/* A local DIR: a directory, not a file system's root (without --force),
 * writable. 0, or the exit code after one line on stderr. */
static int check_dir(const struct meta_opts *o)
{
	int rc = sm_is_dir(o->plan.dir);

	if (rc <= 0)
		return sm_usage_error(PROG, HINT, "'%s' is not a directory%s", o->plan.dir,
				      rc == 0 ? " (it does not exist)" : "");
	if (!o->force && sm_root_refusal(o->plan.dir))
		return sm_usage_error(PROG, HINT, "%s", sm_root_refusal(o->plan.dir));
	rc = sm_dir_check_writable(o->plan.dir);
	if (rc)
		return sm_usage_error(PROG, HINT, "cannot write in '%s': %s", o->plan.dir, strerror(-rc));
	return 0;
}

int cmd_meta(int argc, char **argv, struct sm_job *job)
{
	struct meta_opts o;
	struct sm_meta_result *res = NULL;
	struct sm_emit e = { .r = &sm_render_meta, .kind = &sm_job_meta, .prog = PROG, .job = job,
			     .end = end };
	char *abs_dir = NULL;
	int rc, code, shared;

	rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.plan.nfs && (sm_job_merges(job) || o.shared_dir))
		return sm_usage_error(PROG, HINT, "--nfs runs in one process: not under mpirun or srun, "
				      "nor with --shared-dir");
	/* an MPI job: each rank in DIR/rank.N, or all in one directory in DIR */
	shared = o.shared_dir || job->shared;
	if (shared && !sm_job_merges(job))
		return sm_usage_error(PROG, HINT, "--shared-dir takes effect only when mpirun or srun "
				      "starts meta (docs/meta.md)");
	if (sm_job_merges(job) && !shared) {
		rc = sm_is_dir(o.plan.dir);
		if (rc > 0)
			o.plan.dir = sm_job_place(job, o.plan.dir, 1, 1);
	}
	o.plan.peers = sm_job_meta_peers(job, shared);
	o.plan.first = shared ? (uint64_t)job->rank * o.plan.files : 0;
	rc = o.plan.nfs ? 0 : check_dir(&o);
	if (rc)
		return rc;
	code = sm_check_memory(PROG, o.plan.files + (uint64_t)o.plan.threads * (2u << 20) + sizeof(*res),
			       "the run's file table and buffers");
	if (code)
		return code;
	abs_dir = o.plan.nfs ? NULL : realpath(o.plan.dir, NULL);
	if (abs_dir)
		o.plan.dir = abs_dir;
	e.out = &o.out;
	e.save = &o.save;
	code = sm_emit_open(&e);   /* --save: a bad history fails before the run */
	if (code)
		goto out;
	res = calloc(1, sizeof(*res));
	if (!res) {
		sm_error("out of memory");
		code = SM_EXIT_FAIL;
		goto out;
	}
	sm_signals_install();
	signal(SIGPIPE, SIG_IGN);
	sm_result_head_begin(&res->head, "meta", argc, argv);
	code = sm_job_begin(job, NULL);   /* an MPI job: the start barrier */
	if (code)
		goto out;
	rc = sm_meta_run(&o.plan, res);
	sm_job_after(job, &rc, &res->head.interrupted);
	sm_meta_analyse(res);
	code = sm_emit(&e, res, rc);
out:
	sm_emit_close(&e);
	free(res);
	free(abs_dir);
	return code;
}
