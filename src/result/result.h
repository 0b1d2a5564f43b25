/* SPDX-License-Identifier: MIT */
/* The parts of a result that every command shares: the common head
 * (command, argv, start time, duration, environment, warnings, errors,
 * interrupted), per operation statistics. Command-specific results embed
 * these; reporters are pure functions of them. See docs/json-schema.md. */
#ifndef SM_RESULT_RESULT_H
#define SM_RESULT_RESULT_H

#include <stdarg.h>
#include <stdint.h>

#include "core/engsetup.h"
#include "core/fsx.h"
#include "core/hist.h"
#include "result/field.h"

#define SM_SCHEMA_VERSION 1

/* Where and how a run was measured. */
struct sm_env {
	char kernel[128];
	struct sm_fs_info fs;
	int direct_io;             /* 1 when data I/O bypassed the page cache */
	char engine[16];           /* engine actually used */
	struct sm_engine_setup engine_setup;  /* what it was granted (uring), merged
					       * over its instances; the workload fills it */
	uint64_t mem_total_bytes;
	uint64_t mem_available_bytes;
	unsigned cpus;
	char arch[32];             /* uname -m ("x86_64"); "" when a result saved
				    * before it has none */
	char cpu_model[128];       /* /proc/cpuinfo's model (core/fsx.h); "" when
				    * unknown or saved before */
	char host[256];            /* the host name (gethostname); "" when a
				    * result saved before it has none */
};

/* Fill env for a run on the file system holding path. */
void sm_env_collect(struct sm_env *env, const char *path);

/* Count, bytes, errors and latency of one kind of operation. Invariant:
 * lat.count == count - errors (failed operations are not timed). */
struct sm_opstat {
	uint64_t count;
	uint64_t bytes;
	uint64_t errors;
	struct sm_hist lat;        /* from issue to completion, ns */
};

/* An operation object's fields (result/field.h), base struct sm_opstat:
 * "count", "bytes", "errors", "lat_ns" (json.c). */
enum sm_opstat_f { SM_OPF_COUNT, SM_OPF_BYTES, SM_OPF_ERRORS, SM_OPF_LAT, SM_OPF_N };
extern const struct sm_field sm_opstat_fields[SM_OPF_N];

void sm_opstat_init(struct sm_opstat *s);
void sm_opstat_merge(struct sm_opstat *dst, const struct sm_opstat *src);

/* Methodology warnings: a short machine code and a sentence. */
#define SM_MAX_WARNINGS 16
struct sm_warning {
	char code[32];
	char message[240];
};
struct sm_warnings {
	unsigned count;
	struct sm_warning item[SM_MAX_WARNINGS];
};

/* Add a warning (ignored past SM_MAX_WARNINGS, or when code is present). */
void sm_warn(struct sm_warnings *w, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The head every command's result starts with; the JSON writer writes it the
 * same way for every command (sm_json_doc_new, sm_json_doc_finish). Who fills
 * what: the command fills command, argv and started_at with
 * sm_result_head_begin() before the run starts; the workload fills
 * duration_ns, env, warnings, error and interrupted. A result read back from
 * JSON owns its argv (argv_owned), released by sm_result_head_release().
 * The frames and run workloads keep command, version, argv and started_at
 * when they clear a result.
 */
struct sm_result_head {
	char command[16];          /* "frames", "fileio", "time", "run" */
	char version[32];          /* stormark's version that measured it */
	int argc;
	char **argv;               /* stormark's own arguments, as given */
	int argv_owned;            /* 1: argv and its strings were allocated here */
	char started_at[32];       /* ISO 8601 UTC, wall clock when the run started */
	uint64_t duration_ns;      /* the command's measured span (see each body) */
	struct sm_env env;
	struct sm_warnings warnings;
	char error[512];           /* what stopped or failed the run, "" if nothing */
	int interrupted;           /* 1: stopped by a signal; figures are partial */
};

/* The fields of every document's head (result/field.h), base struct
 * sm_result_head: what sm_json_doc_new() and sm_json_doc_finish() write
 * and sm_json_read_head() reads, and the optional objects some bodies add
 * at the top (verify, cliff, steady, precondition, mpi). */
enum sm_head_f {
	SM_HD_SCHEMA_VERSION, SM_HD_TOOL, SM_HD_COMMAND, SM_HD_ARGV, SM_HD_STARTED_AT,
	SM_HD_DURATION, SM_HD_INTERRUPTED, SM_HD_ENVIRONMENT, SM_HD_PARAMS, SM_HD_WARNINGS,
	SM_HD_ERRORS, SM_HD_VERIFY, SM_HD_CLIFF, SM_HD_STEADY, SM_HD_PRECONDITION, SM_HD_MPI,
	SM_HD_N
};
extern const struct sm_field sm_head_fields[SM_HD_N];

/* Fill h's command, version, argv (not copied: it must outlive h) and started_at
 * (now); zero the rest. Never fails. */
void sm_result_head_begin(struct sm_result_head *h, const char *command, int argc, char **argv);

/* Copy what the command filled (command, version, argv, started_at) from
 * src into dst, a head just cleared: how a workload that clears its result
 * keeps them. Never fails. */
void sm_result_head_keep(struct sm_result_head *dst, const struct sm_result_head *src);

/* Free what h owns (argv read from JSON); h stays valid with argc 0. */
void sm_result_head_release(struct sm_result_head *h);

#endif
