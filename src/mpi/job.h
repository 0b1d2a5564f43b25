/* SPDX-License-Identifier: MIT */
/* The job a command runs as (docs/mpi.md). Started by mpirun or srun, a
 * process is one rank of an MPI job: it works in DIR/rank.N, its run
 * starts at a barrier and is timed from it, and rank 0 merges every rank's
 * result and prints it with the per-host and per-rank table. Alone, it is
 * the null job, whose hooks leave everything as it is: a command calls the
 * same hooks either way and never asks which job it runs in. */
#ifndef SM_MPI_JOB_H
#define SM_MPI_JOB_H

#include <stdint.h>
#include <stdio.h>

struct cJSON;
struct sm_job;
struct sm_job_state;

/* How one command's result travels to rank 0 and merges there, and what
 * the job adds to its report (job.c, job_run.c, job_streams.c). */
struct sm_job_kind;
extern const struct sm_job_kind sm_job_frames, sm_job_fileio, sm_job_run, sm_job_streams, sm_job_meta;

/* The hooks; the null job's leave everything as it is (job.c). */
struct sm_job_ops {
	const char *(*place)(struct sm_job *j, const char *path, int is_dir, int mkdir_it);
	void (*unplace)(struct sm_job *j);
	const char *(*log)(struct sm_job *j, const char *path);
	int (*first)(struct sm_job *j, uint64_t per_rank, uint64_t max, uint64_t *first);
	int (*begin)(struct sm_job *j, uint64_t *set_id);
	void (*after)(struct sm_job *j, int *rc, int *interrupted);
	int (*merge)(struct sm_job *j, const struct sm_job_kind *k, void *res, int *rc);
	void (*text)(struct sm_job *j, FILE *f, const void *res);
	void (*json)(struct sm_job *j, struct cJSON *doc, const void *res);
	int (*finish)(struct sm_job *j, int code);
};

/* This process's part. Filled by sm_job_start(); read-only to commands. */
struct sm_job {
	const struct sm_job_ops *ops;
	int rank, size;             /* 0 and 1 alone */
	const char *launcher;       /* "mpirun", "srun", ...; NULL alone */
	int stonewall;              /* --stonewall */
	int shared;                 /* --mpi-files=shared: every rank in DIR itself */
	struct sm_job_state *st;    /* the MPI job's own (job_int.h); NULL alone */
};

/*
 * From main(), before the command: take --stonewall, --mpi-wait=SECS and
 * --mpi-files out of argv (before a "--") and make *j the process's job:
 * when the environment says mpirun or srun started this process and the
 * command is frames, fileio, run, streams or meta (or the frametest/sysbench
 * names), start MPI and make it a rank (the other ranks' stdout goes to
 * /dev/null); else the null job. Returns 0 to go on (*j is a job either
 * way), or an exit code (a usage error: the flags outside a job, `run
 * --stonewall` in a job, a build without MPI).
 */
int sm_job_start(struct sm_job *j, int *argc, char **argv);

/* Make *j the null job: a single process (a command that is no job's, or
 * a test). */
void sm_job_alone(struct sm_job *j);

/* From main(), with the command's exit code: a rank that failed before
 * the start barrier tells the others (they stop there), one that failed
 * after it without reporting sends its failure to rank 0; then MPI ends
 * and what the job kept is freed. Returns the process's exit code (rank 0:
 * also 1 when another rank failed); the null job returns code. */
static inline int sm_job_finish(struct sm_job *j, int code)
{
	return j->ops->finish(j, code);
}

/* This rank's place for path: DIR/rank.N for a directory (made when mkdir
 * is 1), FILE.rank.N for a file (a stream file); path itself alone, and a
 * directory itself with --mpi-files=shared. The string lasts as long as
 * the job, until the next call. */
static inline const char *sm_job_place(struct sm_job *j, const char *path, int is_dir, int mkdir_it)
{
	return j->ops->place(j, path, is_dir, mkdir_it);
}

/* The end of a command that leaves nothing in its place: the directory
 * DIR/rank.N that sm_job_place() made (not one that was there) removed
 * when it is empty; one with files in it stays. The null job does
 * nothing. */
static inline void sm_job_unplace(struct sm_job *j)
{
	j->ops->unplace(j);
}

/* This rank's per-I/O log (-x FILE): FILE.rank.N; path itself (or NULL)
 * alone. Kept apart from sm_job_place()'s string. */
static inline const char *sm_job_log(struct sm_job *j, const char *path)
{
	return j->ops->log(j, path);
}

/* --mpi-files=shared: the number of this rank's first item (frame, test
 * file) in the shared set, rank x per_rank, into *first; 0 otherwise.
 * Returns 0, or -EOVERFLOW when the ranks' items would pass max. */
static inline int sm_job_first(struct sm_job *j, uint64_t per_rank, uint64_t max, uint64_t *first)
{
	return j->ops->first(j, per_rank, max, first);
}

/* Right before the run: the start barrier (bounded), then the stonewall
 * listener. With --mpi-files=shared the ranks first agree on *set_id (the
 * largest a rank proposes, else a new one) when set_id is not NULL.
 * Returns 0, or an exit code (a rank failed before the start; rank 0 says
 * so). */
static inline int sm_job_begin(struct sm_job *j, uint64_t *set_id)
{
	return j->ops->begin(j, set_id);
}

/* Right after the run: this rank's span from the barrier; a rank the
 * stonewall stopped is not "interrupted" (*rc -EINTR becomes 0). */
static inline void sm_job_after(struct sm_job *j, int *rc, int *interrupted)
{
	j->ops->after(j, rc, interrupted);
}

/*
 * After the run (rc its outcome, which the kind may settle: run's stop by
 * another rank): every rank's result of kind k to rank 0 and, there,
 * merged exactly into res (its duration becomes the job's, the figures
 * derived again) with the rank table kept for sm_job_text() and
 * sm_job_json(). Returns -1 where res is to be reported (rank 0, and the
 * null job, which leaves res as it is), else the exit code of this rank,
 * which reports nothing (its failure said on stderr).
 */
static inline int sm_job_merge(struct sm_job *j, const struct sm_job_kind *k, void *res, int *rc)
{
	return j->ops->merge(j, k, res, rc);
}

/* Rank 0, after the text report of res: the host and rank table to f
 * (run: what the verdicts mean across the ranks and each rank's best
 * formats first; streams: each answer's spread over the ranks after it). */
static inline void sm_job_text(struct sm_job *j, FILE *f, const void *res)
{
	j->ops->text(j, f, res);
}

/* Rank 0: the job's "mpi" object added to doc, the JSON of res. */
static inline void sm_job_json(struct sm_job *j, struct cJSON *doc, const void *res)
{
	j->ops->json(j, doc, res);
}

/* 1 where the report is printed: rank 0, or alone. */
static inline int sm_job_reports(const struct sm_job *j)
{
	return j->rank == 0;
}

/* 1 in an MPI job (of any size), whose figures are known only once
 * merged at the end: nothing can be reported as it is measured. */
static inline int sm_job_merges(const struct sm_job *j)
{
	return j->st != NULL;
}

#endif
