/* SPDX-License-Identifier: MIT */
/* Many-host runs: one job out of the ranks mpirun or srun started, every
 * wait bounded, rank 0 merging the ranks' results exactly (docs/mpi.md). */
#include "mpi/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/fileio.h"
#include "analysis/frames.h"
#include "core/msg.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/worker.h"
#include "report/dist.h"
#include "report/fileio.h"
#include "report/frametest.h"
#include "result/json.h"
#include "result/json_read.h"

#define WAIT_DEFAULT_S 60

static struct sm_cmd_dist g_mpi;
struct sm_cmd_dist *sm_mpi;

/* The command a job runs: frames, fileio, run, or NULL for the others. */
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
	    !strcmp(argv[1], "streams"))
		return argv[1];
	return NULL;
}

int sm_cmd_dist_start(int *argc, char **argv)
{
	const char *cmd = job_command(*argc, argv), *wait = NULL, *files = NULL;
	int stone = 0, j = 1, rc;
	double secs = WAIT_DEFAULT_S;

	for (int i = 1; i < *argc && cmd; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[j++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--stonewall"))
			stone = 1;
		else if (!strncmp(argv[i], "--mpi-wait=", 11))
			wait = argv[i] + 11;
		else if (!strncmp(argv[i], "--mpi-files=", 12))
			files = argv[i] + 12;
		else
			argv[j++] = argv[i];
	}
	if (cmd) {
		argv[j] = NULL;
		*argc = j;
	}
	if (wait) {
		char *end;

		secs = strtod(wait, &end);
		if (end == wait || *end || !(secs >= 1 && secs <= 86400))
			return sm_usage_error("stormark", "stormark --help",
					      "--mpi-wait=%s: give whole or decimal seconds from 1 to 86400", wait);
	}
	if (files && strcmp(files, "own") && strcmp(files, "shared"))
		return sm_usage_error("stormark", "stormark --help",
				      "--mpi-files=%s: give own (DIR/rank.N) or shared (DIR itself)", files);
	g_mpi.launcher = sm_mpi_launched();
	if (!g_mpi.launcher || !cmd) {
		if (stone || wait || files)
			return sm_usage_error("stormark", "stormark --help", "%s takes effect only when mpirun "
					      "or srun starts frames, fileio, run or streams (docs/mpi.md)",
					      stone ? "--stonewall" : wait ? "--mpi-wait" : "--mpi-files");
		return 0;
	}
	if (!strcmp(cmd, "run") && stone)
		return sm_usage_error("stormark", "stormark --help", "--stonewall is not for 'run': each of its "
				      "tests runs its whole time on every rank (docs/mpi.md)");
	if ((!strcmp(cmd, "run") || !strcmp(cmd, "streams")) && files && !strcmp(files, "shared"))
		return sm_usage_error("stormark", "stormark --help", "--mpi-files=shared is for frames and "
				      "fileio: each rank of '%s' works in DIR/rank.N (docs/mpi.md)", cmd);
	if (!sm_mpi_built())
		return sm_usage_error("stormark", "stormark --help", "started by %s, but this stormark is "
				      "built without MPI (stormark --version; docs/mpi.md)", g_mpi.launcher);
	rc = sm_mpi_init(&g_mpi.me);
	if (rc) {
		sm_error("mpi: cannot start MPI under %s: %s", g_mpi.launcher,
			 rc == -ENOTSUP ? "the library gives no thread support" : "MPI_Init failed");
		return SM_EXIT_FAIL;
	}
	g_mpi.stonewall = stone;
	g_mpi.shared = files && !strcmp(files, "shared");
	g_mpi.wait_ns = (uint64_t)(secs * 1e9);
	sm_mpi = &g_mpi;
	if (g_mpi.me.rank && !freopen("/dev/null", "w", stdout))
		return SM_EXIT_FAIL;
	return 0;
}

const char *sm_cmd_dist_path(const char *path, int is_dir, int mkdir_it)
{
	if (!sm_mpi || (is_dir && sm_mpi->shared))
		return path;
	snprintf(sm_mpi->path, sizeof(sm_mpi->path), "%s%srank.%d", path, is_dir ? "/" : ".",
		 sm_mpi->me.rank);
	if (is_dir && mkdir_it)
		(void)mkdir(sm_mpi->path, 0777);   /* an error is the command's own to report */
	return sm_mpi->path;
}

int sm_cmd_dist_first(uint64_t per_rank, uint64_t max, uint64_t *first)
{
	*first = 0;
	if (!sm_mpi || !sm_mpi->shared)
		return 0;
	if (per_rank && (uint64_t)sm_mpi->me.size > max / per_rank)
		return -EOVERFLOW;
	*first = per_rank * (uint64_t)sm_mpi->me.rank;
	return 0;
}

const char *sm_cmd_dist_csv(const char *path)
{
	if (!sm_mpi || !path)
		return path;
	snprintf(sm_mpi->csv, sizeof(sm_mpi->csv), "%s.rank.%d", path, sm_mpi->me.rank);
	return sm_mpi->csv;
}

/* The stonewall listener's call: stop this rank's run as a signal would. */
static void on_wall(void)
{
	atomic_store(&sm_stop_signal, SM_STOP_WALL);
}

int sm_cmd_dist_begin(void)
{
	int failed = 0, rc;

	if (!sm_mpi)
		return 0;
	/* the start barrier is a vote: a rank that failed its checks says so
	 * in sm_cmd_dist_finish(), and no rank starts */
	rc = sm_mpi_max(0, &failed, sm_now_ns() + sm_mpi->wait_ns);
	sm_mpi->begun = 1;
	sm_mpi->timed_out |= rc != 0;
	if (rc || failed) {
		sm_mpi->gathered = 1;   /* nothing to gather: nobody ran */
		if (!sm_mpi->me.rank)
			sm_error("mpi: %s; nothing was run", rc == -ETIMEDOUT ?
				 "a rank did not reach the start within --mpi-wait" :
				 rc ? "the start barrier failed" : "a rank could not start (its message is above)");
		return SM_EXIT_FAIL;
	}
	if (sm_mpi->shared) {
		/* a shared frame set: one directory id for every rank's frames,
		 * that of the frames there (any rank's find), else a new one */
		uint64_t v[2] = { sm_mpi->found_id, sm_hash64(sm_now_ns(), (uint64_t)sm_mpi->me.rank) | 1 }, id[2];

		rc = sm_mpi_max_u64(v, id, 2, sm_now_ns() + sm_mpi->wait_ns);
		if (rc) {
			sm_mpi->timed_out = 1;
			sm_mpi->gathered = 1;
			if (!sm_mpi->me.rank)
				sm_error("mpi: the ranks could not agree on the shared set's directory id: %s",
					 rc == -ETIMEDOUT ? "a rank did not answer within --mpi-wait" : strerror(-rc));
			return SM_EXIT_FAIL;
		}
		sm_mpi->dir_id = id[0] ? id[0] : id[1];
	}
	sm_mpi->t0_ns = sm_now_ns();
	if (sm_mpi->stonewall && sm_mpi_wall_arm(on_wall) == -EAGAIN)
		sm_error("mpi: rank %d: cannot start the stonewall listener; this rank runs to its end",
			 sm_mpi->me.rank);
	return 0;
}

void sm_cmd_dist_after(int *rc, int *interrupted)
{
	if (!sm_mpi || !sm_mpi->begun)
		return;
	sm_mpi->done_ns = sm_now_ns() - sm_mpi->t0_ns;
	if (atomic_load(&sm_stop_signal) == SM_STOP_WALL) {
		/* the wall fell: a planned end, not an interruption */
		sm_mpi->walled = 1;
		atomic_store(&sm_stop_signal, 0);
		*interrupted = 0;
		if (*rc == -EINTR)
			*rc = 0;
	}
	if (sm_mpi->stonewall && sm_mpi_wall_done(sm_now_ns() + sm_mpi->wait_ns) && (sm_mpi->timed_out = 1))
		sm_error("mpi: rank %d: the stonewall notices did not settle within --mpi-wait", sm_mpi->me.rank);
}

/* This rank's part of the job as the others see it: "mpi_rank" in its
 * result document (doc may be a bare object when nothing was measured). */
static void add_rank(cJSON *doc, int failed, const char *error)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "mpi_rank");

	if (!o)
		return;
	cJSON_AddNumberToObject(o, "rank", sm_mpi->me.rank);
	cJSON_AddStringToObject(o, "host", sm_mpi->me.host);
	sm_json_add_u64(o, "done_ns", sm_mpi->done_ns);
	cJSON_AddBoolToObject(o, "failed", failed);
	cJSON_AddStringToObject(o, "error", error ? error : "");
	cJSON_AddBoolToObject(o, "walled", sm_mpi->walled);
}

/*
 * Send doc (consumed) to rank 0. There, sm_mpi->docs[r] is each rank's
 * document (NULL when none came) and sm_mpi->res.rank[r] what its
 * "mpi_rank" says. Returns 0, or an exit code (said on stderr).
 */
static int gather_docs(cJSON *doc)
{
	struct sm_dist_result *d = &sm_mpi->res;
	char *text = doc ? cJSON_PrintUnformatted(doc) : NULL, **out = NULL;
	size_t *len = NULL;
	unsigned n = (unsigned)sm_mpi->me.size;
	int rc;

	sm_mpi->gathered = 1;
	if (!text) {
		cJSON_Delete(doc);
		text = strdup("{}");   /* rank 0 still hears from this rank */
		doc = NULL;
		if (!text)
			return SM_EXIT_FAIL;
	}
	rc = sm_mpi_gather(text, strlen(text), sm_now_ns() + sm_mpi->wait_ns + sm_mpi->done_ns, &out, &len);
	free(text);
	if (sm_mpi->me.rank || rc) {
		cJSON_Delete(doc);
		sm_mpi->timed_out |= rc != 0;
		if (rc)
			sm_error("mpi: rank %d: cannot hand the result to rank 0: %s", sm_mpi->me.rank,
				 rc == -ETIMEDOUT ? "rank 0 did not take it within --mpi-wait" : strerror(-rc));
		return rc ? SM_EXIT_FAIL : 0;
	}
	memset(d, 0, sizeof(*d));
	d->nranks = n;
	d->stonewall = sm_mpi->stonewall;
	d->rank = calloc(n, sizeof(*d->rank));
	sm_mpi->docs = calloc(n, sizeof(*sm_mpi->docs));
	if (!d->rank || !sm_mpi->docs) {
		for (unsigned r = 0; r < n; r++)
			free(out[r]);
		free(out);
		free(len);
		cJSON_Delete(doc);
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	for (unsigned r = 0; r < n; r++) {
		struct sm_dist_rank *k = &d->rank[r];

		if (!out[r])
			sm_mpi->timed_out = 1;
		/* rank 0's own too: read back as the others' are (a u64 is
		 * written as a raw number that only a parse makes a number) */
		cJSON *x = out[r] ? cJSON_Parse(out[r]) : NULL;
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "mpi_rank");
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, "host");
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(m, "error");

		k->rank = (int)r;
		snprintf(k->host, sizeof(k->host), "%s", sm_mpi->me.hosts[r]);
		free(out[r]);
		if (!m) {
			snprintf(k->error, sizeof(k->error), "no result within %.0f s of rank 0's end (the rank "
				 "died, hung or could not send)", (double)(sm_mpi->wait_ns + sm_mpi->done_ns) / 1e9);
			cJSON_Delete(x);
			continue;
		}
		if (cJSON_IsString(h))
			snprintf(k->host, sizeof(k->host), "%s", h->valuestring);
		snprintf(k->error, sizeof(k->error), "%s", cJSON_IsString(e) ? e->valuestring : "");
		k->failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "failed"));
		k->walled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "walled"));
		(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(m, "done_ns"), &k->done_ns);
		cJSON_DeleteItemFromObjectCaseSensitive(x, "mpi_rank");
		/* "reported" once its result is merged */
		sm_mpi->docs[r] = x;
	}
	cJSON_Delete(doc);
	free(out);
	free(len);
	return 0;
}

/* Rank 0: the job's figures once the results are merged. */
static int analyse_job(void)
{
	if (sm_dist_analyse(&sm_mpi->res)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return 0;
}

/* How rank 0 reads back and merges one command's results. */
struct merge_ops {
	size_t size;   /* of the result */
	int (*read)(const cJSON *doc, void *res, struct sm_jerr *e);
	int (*merge)(void *dst, const void *src);
	void (*release)(void *res);
	void (*counts)(const void *res, uint64_t *bytes, uint64_t *items);   /* the rank table's */
};

/*
 * Send doc (consumed) to rank 0; there, merge every other rank's result
 * into res (rank 0's own, its counts taken before any merge) and fill the
 * rank table. Returns 1 on the other ranks, 0 on rank 0, or an exit code
 * > 1 (said on stderr).
 */
static int merge_job(cJSON *doc, void *res, const struct merge_ops *ops)
{
	void *tmp;
	int rc = gather_docs(doc);

	if (rc || sm_mpi->me.rank)
		return rc ? rc : 1;
	tmp = calloc(1, ops->size);
	if (!tmp) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	for (unsigned r = 0; r < sm_mpi->res.nranks; r++) {
		struct sm_dist_rank *k = &sm_mpi->res.rank[r];
		struct sm_jerr e = { "" };

		if (!sm_mpi->docs[r] || !cJSON_GetObjectItemCaseSensitive(sm_mpi->docs[r], "command"))
			continue;
		if (r && ops->read(sm_mpi->docs[r], tmp, &e)) {
			snprintf(k->error, sizeof(k->error), "its result cannot be read: %s", e.msg);
			continue;
		}
		k->reported = 1;
		ops->counts(r ? tmp : res, &k->bytes, &k->items);
		if (r) {
			rc = ops->merge(res, tmp);
			ops->release(tmp);
			if (rc) {
				free(tmp);
				sm_error("out of memory");
				return SM_EXIT_FAIL;
			}
		}
		memset(tmp, 0, ops->size);
	}
	free(tmp);
	return analyse_job();
}

static int frames_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_frames_from_json(doc, res, e);
}

static int frames_merge(void *dst, const void *src)
{
	return sm_frames_merge(dst, src);
}

static void frames_release(void *res)
{
	sm_frames_from_json_release(res);
}

static void frames_counts(const void *res, uint64_t *bytes, uint64_t *items)
{
	const struct sm_frames_result *f = res;

	*bytes = f->bytes;
	*items = f->frames_done;
}

int sm_cmd_dist_frames(struct sm_frames_result *res)
{
	static const struct merge_ops ops = { sizeof(struct sm_frames_result), frames_read, frames_merge,
					      frames_release, frames_counts };
	cJSON *doc;
	int rc;

	if (!sm_mpi)
		return 0;
	doc = sm_json_doc_new(&res->head);
	if (doc) {
		sm_json_frames(doc, res);
		add_rank(doc, res->error != 0 || res->head.error[0], res->head.error);
	}
	rc = merge_job(doc, res, &ops);
	if (!rc) {   /* the job's span; the figures again from the merged counts */
		res->head.duration_ns = sm_mpi->res.last_done_ns;
		sm_frames_analyse(res);
	}
	return rc;
}

static int fileio_read(const cJSON *doc, void *res, struct sm_jerr *e)
{
	return sm_fileio_from_json(doc, res, e);
}

static int fileio_merge(void *dst, const void *src)
{
	return sm_fileio_merge(dst, src);
}

static void fileio_release(void *res)
{
	sm_fileio_from_json_release(res);
}

static void fileio_counts(const void *res, uint64_t *bytes, uint64_t *items)
{
	const struct sm_fileio_result *f = res;

	*bytes = f->ops[0].bytes + f->ops[1].bytes;
	*items = f->events;
}

int sm_cmd_dist_fileio(struct sm_fileio_result *res)
{
	static const struct merge_ops ops = { sizeof(struct sm_fileio_result), fileio_read, fileio_merge,
					      fileio_release, fileio_counts };
	cJSON *doc;
	int rc;

	if (!sm_mpi)
		return 0;
	doc = sm_fileio_json(res);
	if (doc)
		add_rank(doc, res->failed || res->head.error[0], res->head.error);
	rc = merge_job(doc, res, &ops);
	if (!rc) {
		res->head.duration_ns = sm_mpi->res.last_done_ns;
		sm_fileio_analyse(res);
	}
	return rc;
}

int sm_cmd_dist_collect(cJSON *doc, int failed, const char *error)
{
	int rc;

	if (!sm_mpi)
		return 0;
	if (doc)
		add_rank(doc, failed, error);
	rc = gather_docs(doc);
	return rc ? rc : sm_mpi->me.rank ? 1 : 0;
}

void sm_cmd_dist_report(FILE *f, cJSON *doc)
{
	if (!sm_mpi || sm_mpi->me.rank || !sm_mpi->res.rank)
		return;
	if (f)
		sm_dist_text(f, &sm_mpi->res);
	if (doc) {
		cJSON *o = sm_dist_json(&sm_mpi->res, sm_mpi->docs);

		if (o) {
			cJSON_AddStringToObject(o, "files", sm_mpi->shared ? "shared" : "own");
			cJSON_AddItemToObject(doc, "mpi", o);
		}
	}
}

int sm_cmd_dist_finish(int code)
{
	struct sm_dist_result *d;
	int vote = 0, worst = 0, lost = 0;

	if (!sm_mpi)
		return code;
	d = &sm_mpi->res;
	if (!sm_mpi->begun) {
		/* failed before the start (or prepare, cleanup, --help, which
		 * start nothing): the others stop there; all learn if one failed */
		if (sm_mpi_max(code ? 1 : 0, &vote, sm_now_ns() + sm_mpi->wait_ns)) {
			sm_mpi->timed_out = 1;
			worst = SM_EXIT_FAIL;
		} else if (vote) {
			worst = SM_EXIT_FAIL;
		}
	} else if (!sm_mpi->gathered) {
		/* failed after the start without a result: rank 0 hears why */
		cJSON *doc = cJSON_CreateObject();
		char why[64];

		snprintf(why, sizeof(why), "failed with exit code %d (its message is on stderr)", code);
		(void)sm_mpi_wall_done(sm_now_ns() + sm_mpi->wait_ns);
		if (doc)
			add_rank(doc, 1, why);
		if (!gather_docs(doc) && !sm_mpi->me.rank && analyse_job() == 0)
			sm_dist_text(stdout, d);
	}
	if (!sm_mpi->me.rank && d->rank) {
		for (unsigned r = 0; r < d->nranks; r++)
			if (!d->rank[r].reported || d->rank[r].failed) {
				sm_error("mpi: rank %u on %s: %s", r, d->rank[r].host,
					 d->rank[r].error[0] ? d->rank[r].error : "failed");
				worst = SM_EXIT_FAIL;
				lost |= !d->rank[r].reported && !d->rank[r].failed;
			}
	}
	for (unsigned r = 0; sm_mpi->docs && r < d->nranks; r++)
		cJSON_Delete(sm_mpi->docs[r]);
	free(sm_mpi->docs);
	free(d->rank);
	free(d->host);
	fflush(stdout);
	fflush(stderr);
	/* a rank that died (or never answered) would hang MPI_Finalize on
	 * every other rank: the report is out, the job is torn down */
	sm_mpi_end(&sm_mpi->me, lost || sm_mpi->timed_out, code ? code : SM_EXIT_FAIL);
	return code ? code : worst;
}
