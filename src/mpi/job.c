/* SPDX-License-Identifier: MIT */
/* The job a command runs as: the null job alone; under mpirun or srun one
 * job out of the ranks, every wait bounded, rank 0 merging the ranks'
 * results exactly (docs/mpi.md). */
#include "mpi/job.h"
#include "mpi/job_int.h"
#include "mpi/job_meta.h"
#include "mpi/launch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/fileio.h"
#include "analysis/frames.h"
#include "analysis/meta.h"
#include "core/compiler.h"
#include "core/msg.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/fsx.h"
#include "core/outfile.h"
#include "core/worker.h"
#include "report/dist.h"
#include "report/fileio.h"
#include "report/frametest.h"
#include "result/json.h"
#include "result/json_read.h"

#define WAIT_DEFAULT_S 60

static const struct sm_job_ops null_ops, mpi_ops;

/* The command a job runs: frames, fileio, run, streams, meta, or NULL for the others. */
static const char *job_command(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/');

	prog = prog ? prog + 1 : argv[0];
	if (!strcmp(prog, "frametest"))
		return "frames";
	if (!strcmp(prog, "sysbench"))
		return "fileio";
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version") ||
			  !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")))
		return NULL;   /* each rank answers alone, without MPI */
	if (argc < 2 || argv[1][0] == '-' || argv[1][0] == '/' || argv[1][0] == '.')
		return "run";
	if (!strcmp(argv[1], "frames") || !strcmp(argv[1], "fileio") || !strcmp(argv[1], "run") ||
	    !strcmp(argv[1], "streams") || !strcmp(argv[1], "meta"))
		return argv[1];
	return NULL;
}

/* The null job: a single process, whose hooks leave everything as it is. */
static const char *null_place(SM_UNUSED struct sm_job *j, const char *path, SM_UNUSED int is_dir,
		SM_UNUSED int mkdir_it)
{
	return path;
}

static void null_unplace(SM_UNUSED struct sm_job *j)
{
}

static const char *null_log(SM_UNUSED struct sm_job *j, const char *path)
{
	return path;
}

static int null_first(SM_UNUSED struct sm_job *j, SM_UNUSED uint64_t per_rank,
		SM_UNUSED uint64_t max, uint64_t *first)
{
	*first = 0;
	return 0;
}

static int null_begin(SM_UNUSED struct sm_job *j, SM_UNUSED uint64_t *set_id)
{
	return 0;
}

static void null_after(SM_UNUSED struct sm_job *j, SM_UNUSED int *rc, SM_UNUSED int *interrupted)
{
}

static int null_merge(SM_UNUSED struct sm_job *j, SM_UNUSED const struct sm_job_kind *k,
		SM_UNUSED void *res, SM_UNUSED int *rc)
{
	return -1;   /* report res as it is */
}

static void null_text(SM_UNUSED struct sm_job *j, SM_UNUSED FILE *f, SM_UNUSED const void *res)
{
}

static void null_json(SM_UNUSED struct sm_job *j, SM_UNUSED cJSON *doc, SM_UNUSED const void *res)
{
}

static int null_finish(SM_UNUSED struct sm_job *j, int code)
{
	return code;
}

static const struct sm_job_ops null_ops = {
	null_place, null_unplace, null_log, null_first, null_begin, null_after, null_merge, null_text, null_json, null_finish,
};

void sm_job_alone(struct sm_job *j)
{
	memset(j, 0, sizeof(*j));
	j->ops = &null_ops;
	j->size = 1;
}

/* The job's own options, taken out of a command line. */
struct job_opts {
	const char *wait, *files, *detail;   /* --mpi-wait, --mpi-files, --mpi-rank-detail */
	int stone;                            /* --stonewall */
	double secs;                          /* --mpi-wait's value */
};

/* Take the job's options out of argv (the command's stay, in order, and
 * everything after "--"; none is taken without a command) and check their
 * values. Returns 0, or an exit code after a message. */
static int take_options(int *argc, char **argv, const char *cmd, struct job_opts *o)
{
	int k = 1;

	memset(o, 0, sizeof(*o));
	o->secs = WAIT_DEFAULT_S;
	for (int i = 1; i < *argc && cmd; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[k++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--stonewall"))
			o->stone = 1;
		else if (!strncmp(argv[i], "--mpi-wait=", 11))
			o->wait = argv[i] + 11;
		else if (!strncmp(argv[i], "--mpi-files=", 12))
			o->files = argv[i] + 12;
		else if (!strncmp(argv[i], "--mpi-rank-detail=", 18))
			o->detail = argv[i] + 18;
		else
			argv[k++] = argv[i];
	}
	if (cmd) {
		argv[k] = NULL;
		*argc = k;
	}
	if (o->wait) {
		char *end;

		o->secs = strtod(o->wait, &end);
		if (end == o->wait || *end || !(o->secs >= 1 && o->secs <= 86400))
			return sm_usage_error("stormark", "stormark --help",
					      "--mpi-wait=%s: give whole or decimal seconds from 1 to 86400", o->wait);
	}
	if (o->files && strcmp(o->files, "own") && strcmp(o->files, "shared"))
		return sm_usage_error("stormark", "stormark --help",
				      "--mpi-files=%s: give own (DIR/rank.N) or shared (DIR itself)", o->files);
	if (o->detail) {
		char dir[4096];
		const char *why = !*o->detail ? "give a file" :
			sm_parent_dir(o->detail, dir, sizeof(dir)) || sm_is_dir(dir) != 1 ?
			"its directory does not exist" : sm_outfile_kind_problem(o->detail);

		if (why)
			return sm_usage_error("stormark", "stormark --help", "--mpi-rank-detail=%s: %s", o->detail, why);
	}
	return 0;
}

/* Whether the options suit command cmd started by launcher (NULL: not
 * under mpirun or srun; then no job option may be given), and whether
 * this stormark can run the job there. Returns 0, or an exit code after a
 * message. */
static int job_suits(const struct job_opts *o, const char *cmd, const char *launcher)
{
	const char *files = o->files, *detail = o->detail;
	int stone = o->stone;

	if (!launcher || !cmd) {
		if (stone || o->wait || files || detail)
			return sm_usage_error("stormark", "stormark --help", "%s takes effect only when mpirun "
					      "or srun starts frames, fileio, run, streams or meta (docs/mpi.md)",
					      stone ? "--stonewall" : o->wait ? "--mpi-wait" : files ? "--mpi-files" :
					      "--mpi-rank-detail");
		return 0;
	}
	if ((!strcmp(cmd, "run") || !strcmp(cmd, "streams")) && detail)
		return sm_usage_error("stormark", "stormark --help", "--mpi-rank-detail is for frames, fileio "
				      "and meta: the JSON of '%s' keeps each rank's own figures (docs/mpi.md)", cmd);
	if (!strcmp(cmd, "run") && stone)
		return sm_usage_error("stormark", "stormark --help", "--stonewall is not for 'run': each of its "
				      "tests runs its whole time on every rank (docs/mpi.md)");
	if ((!strcmp(cmd, "run") || !strcmp(cmd, "streams")) && files && !strcmp(files, "shared"))
		return sm_usage_error("stormark", "stormark --help", "--mpi-files=shared is for frames and "
				      "fileio: each rank of '%s' works in DIR/rank.N (docs/mpi.md)", cmd);
	if (!sm_mpi_built())
		return sm_usage_error("stormark", "stormark --help", "started by %s, but this stormark is "
				      "built without MPI (stormark --version; docs/mpi.md)", launcher);
	if (strcmp(launcher, "mpirun")) {
		/* a Slurm step the library cannot start in: one line, not its
		 * page per rank (docs/mpi.md, "Slurm") */
		char why[400], lib[128];
		const char *procid = getenv("SLURM_PROCID");
		unsigned kinds = sm_mpi_pm_kinds();

		sm_mpi_library(lib, sizeof(lib));
		if (kinds && sm_mpi_pm_check(environ, kinds, lib, why, sizeof(why))) {
			if (!procid || !strcmp(procid, "0"))   /* every rank sees the same */
				sm_error("mpi: %s", why);
			return SM_EXIT_USAGE;
		}
	}
	return 0;
}

int sm_job_start(struct sm_job *j, int *argc, char **argv)
{
	const char *cmd = job_command(*argc, argv), *launcher;
	struct sm_job_state *st;
	struct job_opts o;
	int rc;

	sm_job_alone(j);
	rc = take_options(argc, argv, cmd, &o);
	if (rc)
		return rc;
	launcher = sm_mpi_launched();
	rc = job_suits(&o, cmd, launcher);
	if (rc || !launcher || !cmd)
		return rc;
	st = calloc(1, sizeof(*st));
	if (!st) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	rc = sm_mpi_init(&st->me);
	if (rc) {
		free(st);
		sm_error("mpi: cannot start MPI under %s: %s", launcher,
			 rc == -ENOTSUP ? "the library gives no thread support" :
			 rc == -ELIBACC ? sm_mpi_load_error() : "MPI_Init failed");
		return SM_EXIT_FAIL;
	}
	st->wait_ns = (uint64_t)(o.secs * 1e9);
	st->detail = o.detail;
	j->ops = &mpi_ops;
	j->st = st;
	j->rank = st->me.rank;
	j->size = st->me.size;
	j->launcher = launcher;
	j->stonewall = o.stone;
	j->shared = o.files && !strcmp(o.files, "shared");
	if (j->rank && !freopen("/dev/null", "w", stdout))
		return SM_EXIT_FAIL;
	return 0;
}

static const char *mpi_place(struct sm_job *j, const char *path, int is_dir, int mkdir_it)
{
	if (is_dir && j->shared)
		return path;
	snprintf(j->st->path, sizeof(j->st->path), "%s%srank.%d", path, is_dir ? "/" : ".", j->rank);
	if (is_dir && mkdir_it && !mkdir(j->st->path, 0777))   /* an error is the command's own */
		snprintf(j->st->made, sizeof(j->st->made), "%s", j->st->path);
	return j->st->path;
}

static void mpi_unplace(struct sm_job *j)
{
	if (!j->st || !j->st->made[0])
		return;
	(void)rmdir(j->st->made);   /* it fails, and the directory stays, with anything in it */
	j->st->made[0] = '\0';
}

static const char *mpi_log(struct sm_job *j, const char *path)
{
	if (!path)
		return path;
	snprintf(j->st->csv, sizeof(j->st->csv), "%s.rank.%d", path, j->rank);
	return j->st->csv;
}

static int mpi_first(struct sm_job *j, uint64_t per_rank, uint64_t max, uint64_t *first)
{
	*first = 0;
	if (!j->shared)
		return 0;
	if (per_rank && (uint64_t)j->size > max / per_rank)
		return -EOVERFLOW;
	*first = per_rank * (uint64_t)j->rank;
	return 0;
}

/* The stonewall listener's call: stop this rank's run as a signal would. */
static void on_wall(void)
{
	atomic_store(&sm_stop_signal, SM_STOP_WALL);
}

static int mpi_begin(struct sm_job *j, uint64_t *set_id)
{
	struct sm_job_state *st = j->st;
	int failed = 0, rc;

	/* the start barrier is a vote: a rank that failed its checks says so
	 * in sm_job_finish(), and no rank starts */
	rc = sm_mpi_max(0, &failed, sm_now_ns() + st->wait_ns);
	st->begun = 1;
	st->timed_out |= rc != 0;
	if (rc || failed) {
		st->gathered = 1;   /* nothing to gather: nobody ran */
		if (!j->rank)
			sm_error("mpi: %s; nothing was run", rc == -ETIMEDOUT ?
				 "a rank did not reach the start within --mpi-wait" :
				 rc ? "the start barrier failed" : "a rank could not start (its message is above)");
		return SM_EXIT_FAIL;
	}
	if (j->shared && set_id) {
		/* a shared frame set: one directory id for every rank's frames,
		 * that of the frames there (any rank's find), else a new one */
		uint64_t v[2] = { *set_id, sm_hash64(sm_now_ns(), (uint64_t)j->rank) | 1 }, id[2];

		rc = sm_mpi_max_u64(v, id, 2, sm_now_ns() + st->wait_ns);
		if (rc) {
			st->timed_out = 1;
			st->gathered = 1;
			if (!j->rank)
				sm_error("mpi: the ranks could not agree on the shared set's directory id: %s",
					 rc == -ETIMEDOUT ? "a rank did not answer within --mpi-wait" : strerror(-rc));
			return SM_EXIT_FAIL;
		}
		*set_id = id[0] ? id[0] : id[1];
	}
	st->t0_ns = sm_now_ns();
	if (j->stonewall && sm_mpi_wall_arm(on_wall) == -EAGAIN)
		sm_error("mpi: rank %d: cannot start the stonewall listener; this rank runs to its end", j->rank);
	return 0;
}

static void mpi_after(struct sm_job *j, int *rc, int *interrupted)
{
	struct sm_job_state *st = j->st;

	if (!st->begun)
		return;
	st->done_ns = sm_now_ns() - st->t0_ns;
	if (atomic_load(&sm_stop_signal) == SM_STOP_WALL) {
		/* the wall fell: a planned end, not an interruption */
		st->walled = 1;
		atomic_store(&sm_stop_signal, 0);
		*interrupted = 0;
		if (*rc == -EINTR)
			*rc = 0;
	}
	if (j->stonewall && sm_mpi_wall_done(sm_now_ns() + st->wait_ns) && (st->timed_out = 1))
		sm_error("mpi: rank %d: the stonewall notices did not settle within --mpi-wait", j->rank);
}

static int mpi_merge(struct sm_job *j, const struct sm_job_kind *k, void *res, int *rc)
{
	j->st->kind = k;
	return k->merge(j, res, rc);
}

static void mpi_text(struct sm_job *j, FILE *f, const void *res)
{
	if (!j->rank && j->st->kind)
		j->st->kind->text(j, f, res);
}

static void mpi_json(struct sm_job *j, cJSON *doc, const void *res)
{
	if (!j->rank && j->st->kind)
		j->st->kind->json(j, doc, res);
}

static int mpi_finish(struct sm_job *j, int code)
{
	struct sm_job_state *st = j->st;
	struct sm_dist_result *d = &st->res;
	int vote = 0, worst = 0, lost = 0;

	if (!st->begun) {
		/* failed before the start (or prepare, cleanup, --help, which
		 * start nothing): the others stop there; all learn if one failed */
		if (sm_mpi_max(code ? 1 : 0, &vote, sm_now_ns() + st->wait_ns)) {
			st->timed_out = 1;
			worst = SM_EXIT_FAIL;
		} else if (vote) {
			worst = SM_EXIT_FAIL;
		}
	} else if (!st->gathered) {
		/* failed after the start without a result: rank 0 hears why */
		cJSON *doc = cJSON_CreateObject();
		char why[64];

		snprintf(why, sizeof(why), "failed with exit code %d (its message is on stderr)", code);
		(void)sm_mpi_wall_done(sm_now_ns() + st->wait_ns);
		if (doc)
			sm_job_add_rank(j, doc, 1, why);
		if (!sm_job_gather(j, doc) && !j->rank && sm_job_analyse(j) == 0)
			sm_dist_text(stdout, d);
	}
	if (st->detail_lost)
		worst = SM_EXIT_FAIL;   /* a lost output is a failure, as a lost report is */
	if (!j->rank && d->rank) {
		for (unsigned r = 0; r < d->nranks; r++)
			if (!d->rank[r].reported || d->rank[r].failed) {
				sm_error("mpi: rank %u on %s: %s", r, d->rank[r].host,
					 d->rank[r].error[0] ? d->rank[r].error : "failed");
				worst = SM_EXIT_FAIL;
				lost |= !d->rank[r].reported && !d->rank[r].failed;
			}
	}
	sm_job_run_release(j);
	for (unsigned r = 0; st->docs && r < d->nranks; r++)
		cJSON_Delete(st->docs[r]);
	free(st->docs);
	free(d->rank);
	free(d->host);
	fflush(stdout);
	fflush(stderr);
	/* a rank that died (or never answered) would hang MPI_Finalize on
	 * every other rank: the report is out, the job is torn down */
	sm_mpi_end(&st->me, lost || st->timed_out, code ? code : SM_EXIT_FAIL);
	free(st);
	j->st = NULL;
	return code ? code : worst;
}

static const struct sm_job_ops mpi_ops = {
	mpi_place, mpi_unplace, mpi_log, mpi_first, mpi_begin, mpi_after, mpi_merge, mpi_text, mpi_json, mpi_finish,
};
