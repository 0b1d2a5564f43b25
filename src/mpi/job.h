/* SPDX-License-Identifier: MIT */
/* A command started by mpirun or srun runs as one job (docs/mpi.md): each
 * rank in DIR/rank.N, the run started at a barrier and timed from it, rank 0
 * merging every rank's result and printing it with the per-host and
 * per-rank table. The hooks the commands call; all are no-ops (sm_mpi is
 * NULL) outside such a job. */
#ifndef SM_MPI_JOB_H
#define SM_MPI_JOB_H

#include <stdint.h>
#include <stdio.h>

#include "mpi/comm.h"
#include "result/dist.h"

/* sm_stop_signal's value when the stonewall stopped this rank. */
#define SM_STOP_WALL 1000

struct cJSON;

struct sm_cmd_dist {
	struct sm_mpi_proc me;
	const char *launcher;       /* "mpirun", "srun", ... */
	int stonewall;              /* --stonewall */
	int shared;                 /* --mpi-files=shared: every rank in DIR itself */
	uint64_t found_id;          /* shared frames, write: the directory id of the
				     * frames this rank found in DIR (0: none) */
	uint64_t dir_id;            /* shared: the id the ranks agreed on at the start */
	uint64_t wait_ns;           /* --mpi-wait: the bounded waits */
	int begun;                  /* passed the start barrier */
	int gathered;               /* sent (or, rank 0, merged) its result */
	int walled;                 /* this rank was stopped by the stonewall */
	int timed_out;              /* a bounded wait gave up: MPI cannot end cleanly */
	uint64_t t0_ns;             /* the start barrier's exit */
	uint64_t done_ns;           /* from t0 to the end of this rank's run */
	char path[4096], csv[4096]; /* this rank's directory (file), its -x file */
	struct sm_dist_result res;  /* rank 0, once gathered */
	struct cJSON **docs;        /* rank 0: each rank's own result document */
};

/* The job this process is a rank of; NULL outside one. */
extern struct sm_cmd_dist *sm_mpi;

/*
 * From main(), before the command: take --stonewall and --mpi-wait=SECS
 * out of argv (before a "--"); when the environment says mpirun or srun
 * started this process and the command is frames, fileio, run or streams (or the
 * frametest/sysbench names), start MPI and set sm_mpi; the other ranks'
 * stdout goes to /dev/null. Returns 0 to go on, or an exit code (a usage
 * error: the flags outside a job, `streams` or `run --stonewall` in a
 * job, a build without MPI).
 */
int sm_cmd_dist_start(int *argc, char **argv);

/* From main(), with the command's exit code: a rank that failed before the
 * start barrier tells the others (they stop there), one that failed after
 * it without reporting sends its failure to rank 0; then MPI ends. Returns
 * the process's exit code (rank 0: also 1 when another rank failed). */
int sm_cmd_dist_finish(int code);

/* This rank's place for path: DIR/rank.N for a directory (made when mkdir
 * is 1), FILE.rank.N for a file; path itself outside a job, and a
 * directory itself with --mpi-files=shared. */
const char *sm_cmd_dist_path(const char *path, int is_dir, int mkdir_it);

/* --mpi-files=shared: the number of this rank's first item (frame, test
 * file) in the shared set, rank x per_rank, into *first; 0 otherwise.
 * Returns 0, or -EOVERFLOW when the ranks' items would pass max. */
int sm_cmd_dist_first(uint64_t per_rank, uint64_t max, uint64_t *first);
/* The -x CSV file of this rank: FILE.rank.N (path itself outside a job). */
const char *sm_cmd_dist_csv(const char *path);

/* Right before the run: the start barrier (bounded), then the stonewall
 * listener. Returns 0, or an exit code (a rank failed before the start;
 * rank 0 says so). With --mpi-files=shared the ranks first agree on
 * sm_mpi->dir_id (the largest found_id, else a new id). */
int sm_cmd_dist_begin(void);

/* Right after the run: this rank's span from the barrier; a rank the
 * stonewall stopped is not "interrupted" (*rc -EINTR becomes 0). */
void sm_cmd_dist_after(int *rc, int *interrupted);

/*
 * Every rank's result to rank 0 and, there, merged exactly into res (its
 * duration becomes the last done, the figures re-derived) with the rank
 * table in sm_mpi->res. Returns 1 on the other ranks (they report nothing
 * more), 0 on rank 0 (report res as usual, then sm_cmd_dist_report), or an
 * exit code > 1 on failure (said on stderr).
 */
struct sm_frames_result;
struct sm_fileio_result;
int sm_cmd_dist_frames(struct sm_frames_result *res);
int sm_cmd_dist_fileio(struct sm_fileio_result *res);

/*
 * A command with its own merge (run: mpi/job_run.c; streams:
 * mpi/job_streams.c): doc (consumed; NULL
 * when nothing was measured) to rank 0 with this rank's part ("mpi_rank":
 * failed, error, sm_mpi->done_ns). There sm_mpi->docs[r] is each rank's
 * document and sm_mpi->res.rank[r] its host, failure and done_ns; the
 * caller fills reported, bytes and items, then sm_dist_analyse(). Returns
 * 1 on the other ranks, 0 on rank 0, or an exit code > 1 on failure.
 */
int sm_cmd_dist_collect(struct cJSON *doc, int failed, const char *error);

/* Rank 0, after the usual report: the host and rank table (text to f,
 * when f) or the "mpi" object added to doc (when doc). */
void sm_cmd_dist_report(FILE *f, struct cJSON *doc);

#endif
