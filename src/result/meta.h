/* SPDX-License-Identifier: MIT */
/* The result of `stormark meta`: the metadata work of an image sequence,
 * phase by phase as mdtest runs them (create, stat, probe, list, delete)
 * on N files named like frames. Data only; filled by workload/meta.c, its
 * rates derived by analysis/meta.c. docs/meta.md. */
#ifndef SM_RESULT_META_H
#define SM_RESULT_META_H

#include <stdint.h>

#include "result/field.h"
#include "result/result.h"

/* The phases, in the order they run. */
enum sm_meta_phase {
	SM_META_CREATE, SM_META_STAT, SM_META_PROBE, SM_META_LIST, SM_META_DELETE, SM_META_NPHASES
};

/* The phase's name as the JSON key and the reports give it ("create"). */
const char *sm_meta_phase_name(enum sm_meta_phase p);

/* Bytes the probe reads from the start of each file (at most the file). */
#define SM_META_PROBE_BYTES 4096u

/* What was asked: the command fills it before the run. */
struct sm_meta_plan {
	const char *dir;            /* where the run's own directory is made */
	uint64_t files;             /* -n */
	unsigned threads;           /* -t: the files split between them */
	uint64_t size;              /* --size: bytes written into each file */
	uint64_t first;             /* the number of the run's first file (an MPI
				     * job's shared directory: rank x files), else 0 */
	const struct sm_meta_peers *peers;   /* an MPI job (workload/meta.h); NULL alone */
	int warm;                   /* --warm: keep the caches (default: drop them
				     * before the stat, probe and list phases) */
	const char *nfs;            /* --nfs URL: the run's directory made on that NFS
				     * server through the nfs engine (dir is the URL
				     * then); NULL: dir on a local path */
};

/* What the caches held when a phase began (docs/meta.md). */
enum sm_meta_caches {
	SM_META_CACHES_NONE = 0,    /* create, delete: not a read of what is there */
	SM_META_CACHES_DROPPED,     /* page, dentry and inode caches dropped before it */
	SM_META_CACHES_WARM,        /* kept: --warm, or they could not be dropped */
};
/* "", "dropped", "warm". */
const char *sm_meta_caches_name(enum sm_meta_caches c);

/*
 * One phase. Who fills it: the workload (op, duration_ns, ran), then
 * sm_meta_analyse() (per_s). Invariants: op.lat.count == op.count -
 * op.errors; per_s == op.count / duration_ns (per second), 0 when
 * duration_ns is 0; a phase that did not run has ran 0 and all zero.
 * op.bytes: bytes written (create) or read (probe).
 */
struct sm_meta_phase_fig {
	int ran;                    /* 1: the phase was measured */
	enum sm_meta_caches caches; /* stat, probe, list: dropped or warm */
	struct sm_opstat op;        /* operations, errors, latency of each */
	uint64_t duration_ns;       /* the phase's span: all its threads released
				     * together until the last one is done (an MPI
				     * job: until the last rank is done, last-done) */
	double per_s;               /* op.count per second of duration_ns */
	/* An MPI job (docs/meta.md): each operation's end from the phase's
	 * start (done_at, filled only when the run has peers), the first
	 * rank's span (first_done_ns: this process's own duration_ns until
	 * merged), and what every rank had done by then (first_done_count,
	 * from done_at: whole buckets, within 0.8% of the time) per second of
	 * it (first_done_per_s). The last two 0 alone. */
	struct sm_hist done_at;
	uint64_t first_done_ns;
	uint64_t first_done_count;
	double first_done_per_s;
};

struct sm_meta_result {
	struct sm_result_head head;
	struct sm_meta_plan plan;   /* plan.dir points into dir below when read back */
	char dir[4096];             /* the directory the run was given */
	char data_dir[4096];        /* the run's own directory inside it, removed at the end */
	struct sm_meta_phase_fig ph[SM_META_NPHASES];
	uint64_t created;           /* files created (and removed again) */
	int cleaned;                /* 1: everything the run created was removed */
	unsigned ranks;             /* an MPI job's merge: the ranks merged; 0 alone */
	int shared;                 /* 1: every rank's files in one directory */
	uint64_t set_files;         /* then the files of every rank there (each lists them all) */
};

/* The fields of meta's document (result/field.h), each table indexed by
 * its enum: the document's body (sm_meta_doc_fields; its "params" is
 * the head's, sm_head_fields), "params"
 * (base struct sm_meta_result), "meta" (base struct sm_meta_result) and
 * each phase of "meta.ops" (base struct sm_meta_phase_fig; its count,
 * bytes, errors and lat_ns are sm_opstat_fields'). */
enum sm_meta_doc_f { SM_MDOC_META, SM_MDOC_N };
enum sm_meta_params_f {
	SM_MPA_DIR, SM_MPA_FILES, SM_MPA_THREADS, SM_MPA_SIZE, SM_MPA_PROBE, SM_MPA_WARM, SM_MPA_N
};
enum sm_meta_body_f {
	SM_MME_DATA_DIR, SM_MME_CREATED, SM_MME_CLEANED, SM_MME_RANKS, SM_MME_SHARED,
	SM_MME_SET_FILES, SM_MME_OPS, SM_MME_N
};
enum sm_meta_phase_f {
	SM_MPH_DURATION, SM_MPH_PER_S, SM_MPH_CACHES, SM_MPH_DONE_AT, SM_MPH_FIRST_DONE_NS,
	SM_MPH_FIRST_DONE_COUNT, SM_MPH_FIRST_DONE_PER_S, SM_MPH_N
};
extern const struct sm_field sm_meta_doc_fields[SM_MDOC_N];
extern const struct sm_field sm_meta_params_fields[SM_MPA_N];
extern const struct sm_field sm_meta_body_fields[SM_MME_N];
extern const struct sm_field sm_meta_phase_fields[SM_MPH_N];

/* Clear r (command fields of the head kept by the caller). Never fails. */
void sm_meta_result_init(struct sm_meta_result *r);

/* The document of r: the common head, "params" {"dir", "files", "threads",
 * "size_bytes"} and "meta" {"data_dir", "created", "cleaned", "ops":
 * {phase: {"count", "bytes", "errors", "lat_ns" (with its histogram),
 * "duration_ns", "per_s"}}}, only the phases that ran; with peers each
 * phase's "done_at_ns" (with its histogram) and "first_done_ns", and a
 * job's merge "first_done_count", "first_done_per_s" and meta "ranks",
 * "shared"; a shared directory's "shared" and "set_files" always. Caller frees
 * (cJSON_Delete); NULL without memory. */
struct cJSON;
struct cJSON *sm_meta_json(const struct sm_meta_result *r);

#endif
