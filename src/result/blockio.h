/* SPDX-License-Identifier: MIT */
/* The plan and result of one block I/O test (a classic figure). */
#ifndef SM_RESULT_BLOCKIO_H
#define SM_RESULT_BLOCKIO_H

#include <stdint.h>

#include "core/buf.h"
#include "core/stall.h"
#include "result/result.h"

struct sm_engine_ops;

struct sm_blockio_plan {
	const char *path;          /* an existing file, at least file_bytes long */
	uint64_t file_bytes;       /* working set: offsets stay below this */
	uint64_t block;            /* bytes per I/O (a multiple of 4096 with direct) */
	int write;                 /* 1: write, 0: read */
	int random;                /* 1: uniform random block offsets, 0: sequential */
	unsigned depth;            /* I/Os in flight, >= 1 */
	uint64_t duration_ns;      /* stop issuing after this */
	uint64_t max_ios;          /* 0: no limit; else stop after this many */
	int direct;                /* 1: O_DIRECT */
	const char *engine;        /* NULL: uring when depth > 1, else psync */
	unsigned engine_flags;     /* SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL (engine/engine.h) */
	const struct sm_engine_ops *ops;  /* tests: use this table, bypassing engine */
	enum sm_data_mode data;    /* what writes carry */
	uint64_t seed;             /* offsets and data; 0: from the clock */
	/* Progress (NULL: none): called from the completion loop, on a batch
	 * at least a second after the last call, with the bytes and I/Os done
	 * and the time since the first submission; it must not block. */
	void (*tick)(void *arg, uint64_t bytes, uint64_t ios, uint64_t elapsed_ns);
	void *tick_arg;
};

struct sm_blockio_result {
	struct sm_opstat op;       /* the reads or the writes */
	uint64_t duration_ns;      /* first submission to last completion */
	char engine[16];           /* engine actually used */
	unsigned depth;            /* depth actually reachable (1 with a sync engine) */
	char notice[160];          /* engine fallback notice, or "" */
	struct sm_engine_setup engine_setup;  /* what the engine was granted */
	int interrupted;           /* sm_stopped() ended it */
	int error;                 /* first failed I/O (-errno), or 0 */
	/* the gaps between one batch of completions and the next (the
	 * longest time nothing completed, core/stall.h), at_ns from the first
	 * submission; count and threshold are set by the analysis
	 * (sm_run_classic_figures) */
	struct sm_stalls stalls;
};

/* Bytes/s and I/Os per second of a result (0 when it has no duration). */
double sm_blockio_bytes_per_s(const struct sm_blockio_result *res);
double sm_blockio_iops(const struct sm_blockio_result *res);

#endif
