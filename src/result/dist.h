/* SPDX-License-Identifier: MIT */
/* The host and rank dimension of a many-host (MPI) run: what each rank
 * did, the job's first-done and last-done figures and the stragglers, and
 * the exact merge of the ranks' results into one (result/merge.c). Data
 * only; the figures are computed by analysis/dist.c. See docs/mpi.md. */
#ifndef SM_RESULT_DIST_H
#define SM_RESULT_DIST_H

#include <stdint.h>

#include "result/fileio.h"
#include "result/frames.h"

/* One rank as rank 0 saw it. */
struct sm_dist_rank {
	int rank;
	char host[64];
	int reported;              /* 1: its result reached rank 0 */
	int failed;                /* 1: it reported a failure (error says which) */
	int walled;                /* 1: the stonewall stopped it before its end */
	char error[256];           /* its failure, or why nothing came ("no result
				    * within 60 s") */
	uint64_t done_ns;          /* from the start barrier to its last completion */
	uint64_t bytes;            /* data moved */
	uint64_t items;            /* frames or fileio events */
	double bytes_per_s;        /* derived: bytes / done_ns */
	int straggler;             /* derived: see sm_dist_analyse() */
	int listed;                /* derived: a row of the table and JSON (every
				    * rank up to the list's size; above it, a
				    * selection: sm_dist_analyse()) */
};

/* The ranks of one host. */
struct sm_dist_host {
	char host[64];
	unsigned ranks, reported;
	uint64_t bytes, items;
	uint64_t done_ns;          /* its last rank's */
	double bytes_per_s;        /* bytes / done_ns */
	int straggler;             /* derived: see sm_dist_analyse() */
};

#define SM_DIST_MAX_RANKS 4096

/* The rank rows a job's table and JSON carry at most (docs/mpi.md,
 * "Scale"): every rank up to it, a selection above. */
#define SM_DIST_LIST_MAX 64

struct sm_dist_result {
	unsigned nranks;            /* the job's size */
	unsigned nreported;         /* results merged */
	int stonewall;              /* --stonewall: all stopped when the first finished */
	struct sm_dist_rank *rank;  /* [nranks], caller-owned */
	struct sm_dist_host *host;  /* [nhosts], filled by sm_dist_analyse() */
	unsigned nhosts;
	/* derived (sm_dist_analyse) over the reported ranks */
	int first_rank;             /* the rank that finished its work first (a
				     * rank the stonewall stopped is not one) */
	uint64_t first_done_ns;     /* its done_ns: the stonewall time */
	uint64_t last_done_ns;      /* the last rank's done_ns: the job's span */
	uint64_t bytes;             /* all ranks' bytes */
	uint64_t min_bytes;         /* the least any rank moved */
	double bytes_per_s;         /* bytes / last_done_ns (IOR's bandwidth) */
	double stonewall_bytes_per_s;   /* min_bytes x nreported / first_done_ns:
				     * what every rank sustained until the first
				     * was done (IOR's stonewall "min data") */
	double median_bytes_per_s;  /* of the ranks' rates */
	unsigned stragglers;
	unsigned list_max;          /* rows listed at most; 0: SM_DIST_LIST_MAX */
	unsigned nlisted;           /* derived: the ranks listed */
	unsigned nfailed, nsilent;  /* derived: ranks that failed; that sent nothing */
	/* a saved job's JSON that lists a selection (ranks_listed below
	 * ranks_total): rank[] holds the listed rows only, and the job's
	 * figures and hosts above are read from it, not derived again */
	int saved_selection;
	unsigned saved_total;       /* then: the job's size */
};

/* The job's size: nranks, or a saved selection's ranks_total. */
static inline unsigned sm_dist_size(const struct sm_dist_result *d)
{
	return d->saved_selection ? d->saved_total : d->nranks;
}

/* A saved result's "mpi" object (docs/json-schema.md) into d: the job's
 * size, --stonewall and every rank's row; d's host table and figures are
 * left to sm_dist_analyse() (analysis/dist.h), which derives them as the
 * live job did. Returns 0, -EINVAL (e says why) or -ENOMEM; release d
 * with sm_dist_result_release() (also after a failure). */
struct cJSON;
struct sm_jerr;
int sm_dist_from_json(const struct cJSON *o, struct sm_dist_result *d, struct sm_jerr *e);
void sm_dist_result_release(struct sm_dist_result *d);

/*
 * Add src, another rank's result, into dst (exactly: counts and bytes
 * summed, histograms merged by bucket, extremes kept, series summed
 * interval by interval, per-thread figures of frames lost, fileio's
 * threads appended). head.duration_ns and the derived figures are left for
 * the caller (the job's span; sm_frames_analyse). Returns 0 or -ENOMEM.
 */
int sm_frames_merge(struct sm_frames_result *dst, const struct sm_frames_result *src);
int sm_fileio_merge(struct sm_fileio_result *dst, const struct sm_fileio_result *src);

#endif
