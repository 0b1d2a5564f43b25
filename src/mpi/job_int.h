/* SPDX-License-Identifier: MIT */
/* Inside the MPI job (job.c, job_run.c, job_streams.c): its state, and
 * what the commands' kinds share. */
#ifndef SM_MPI_JOB_INT_H
#define SM_MPI_JOB_INT_H

#include <stdint.h>
#include <stdio.h>

#include "mpi/comm.h"
#include "mpi/job.h"
#include "result/dist.h"
#include "workload/meta.h"
#include "workload/streams.h"

/* sm_stop_signal's value when the stonewall stopped this rank. */
#define SM_STOP_WALL 1000

struct cJSON;
struct sm_job_run;

/* An MPI job's state (j->st); the null job has none. */
struct sm_job_state {
	struct sm_mpi_proc me;
	uint64_t wait_ns;           /* --mpi-wait: the bounded waits */
	int begun;                  /* passed the start barrier */
	int gathered;               /* sent (or, rank 0, merged) its result */
	int walled;                 /* this rank was stopped by the stonewall */
	int timed_out;              /* a bounded wait gave up: MPI cannot end cleanly */
	uint64_t t0_ns;             /* the start barrier's exit */
	uint64_t done_ns;           /* from t0 to the end of this rank's run */
	char path[4096], csv[4096]; /* this rank's directory (file), its -x file */
	char made[4096];            /* the directory mpi_place() created, "" none */
	struct sm_dist_result res;  /* rank 0, once gathered */
	struct cJSON **docs;        /* rank 0 of run and streams: each rank's own result
				     * document (frames, fileio and meta keep none:
				     * merged as they come) */
	const char *detail;         /* --mpi-rank-detail: FILE (argv's), or NULL */
	int detail_lost;            /* rank 0: its file could not be written */
	const char *hists;          /* rank 0: "reduced" or "documents" (the JSON's
				     * "histograms"), NULL for run and streams */
	const struct sm_job_kind *kind;   /* what was merged: its text and JSON */
	struct sm_job_run *run;     /* `run`'s hooks and what they keep (job_run.c) */
	struct sm_streams_peers peers;   /* `streams`'s transport (job_streams.c) */
	struct sm_meta_peers meta_peers; /* `meta`'s (job_merge.c) */
};

/* One command's part in the job: its merge, run by rank 0 (the other
 * ranks send and return), and what it adds to rank 0's report. */
struct sm_job_kind {
	/* Returns -1 (rank 0: report res), or this rank's exit code. */
	int (*merge)(struct sm_job *j, void *res, int *rc);
	void (*text)(struct sm_job *j, FILE *f, const void *res);
	void (*json)(struct sm_job *j, struct cJSON *doc, const void *res);
};

/*
 * doc (consumed; NULL when nothing was measured) to rank 0 with this
 * rank's part ("mpi_rank": failed, error, its done_ns). There st->docs[r]
 * is each rank's document and st->res.rank[r] its host, failure and
 * done_ns; the caller fills reported, bytes and items, then
 * sm_dist_analyse(). Returns 1 on the other ranks, 0 on rank 0, or an exit
 * code on failure (said on stderr).
 */
int sm_job_collect(struct sm_job *j, struct cJSON *doc, int failed, const char *error);

/* The parts of sm_job_collect() (job_merge.c), for a rank that failed
 * after the start (job.c's end): add this rank's "mpi_rank" block to doc;
 * send doc to rank 0, which fills st->docs and st->res.rank (0 or an exit
 * code); rank 0's figures once merged (0, or an exit code said on
 * stderr). */
void sm_job_add_rank(struct sm_job *j, struct cJSON *doc, int failed, const char *error);
int sm_job_gather(struct sm_job *j, struct cJSON *doc);
int sm_job_analyse(struct sm_job *j);

/* The host and rank table (text to f, when f) or the "mpi" object added to
 * doc (when doc): rank 0, once merged. */
void sm_job_table(struct sm_job *j, FILE *f, struct cJSON *doc);

/* A rank's row of the rank table as a fixed-size record (job_rows.c),
 * gathered by the MPI library: 360 bytes a rank. */
#define SM_JOB_ROW_MAGIC 0x524f5753u   /* a record that came */
struct sm_job_row {
	uint64_t done_ns, bytes, items;
	uint32_t magic;
	int32_t failed, walled, pad;
	char host[64];
	char error[256];
};

/* This rank's record: its span and stonewall from the job, the rest as
 * given. */
void sm_job_row_fill(struct sm_job *j, struct sm_job_row *me, uint64_t bytes, uint64_t items, int failed,
		     const char *error);

/* Rank 0: st->res.rank (nranks of them) from every rank's record in all;
 * a rank whose record did not come gets "no result within" and is not
 * reported. */
void sm_job_row_take(struct sm_job *j, struct sm_job_row *all);

/* Rank 0: st->res emptied for the job's ranks, st->res.rank allocated
 * (zeroed) and, when all is given, *all the records to gather them into.
 * 0, or -ENOMEM with nothing kept. */
int sm_job_res_begin(struct sm_job *j, struct sm_job_row **all);

/*
 * Every rank's row (bytes, items, failed, error; its span and host from
 * the job) to rank 0 as a fixed-size record, by MPI_Igather; there
 * st->res.rank is filled (the caller then analyses). Returns 1 on the
 * other ranks, 0 on rank 0, or an exit code (said on stderr).
 */
int sm_job_rows(struct sm_job *j, uint64_t bytes, uint64_t items, int failed, const char *error);

/* Free what `run`'s hooks kept (job_run.c; nothing when there is none). */
void sm_job_run_release(struct sm_job *j);

#endif
