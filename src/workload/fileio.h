/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: the six test modes, their request stream
 * (shared sequential cursor, rndrw ratio, periodic fsyncs counted as
 * sysbench counts them), file preparation and cleanup. It never prints. */
#ifndef SM_WORKLOAD_FILEIO_H
#define SM_WORKLOAD_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "result/fileio.h"

/* Path of test file i under cfg->dir into buf. */
void sm_fileio_path(const struct sm_fileio_cfg *cfg, unsigned i, char *buf, size_t len);

/* ---- the request stream ---------------------------------------------- */

/* One event as the generator hands it out. */
struct sm_fileio_req {
	int op;                    /* SM_OP_READ, SM_OP_WRITE, SM_OP_FSYNC */
	unsigned file;
	uint64_t off;
	uint64_t len;
	uint64_t event;            /* 0-based event number (schedule under --rate) */
};

/*
 * The shared request generator. It reproduces sysbench's rules exactly:
 * random offsets are uniform block-aligned over the whole set; sequential
 * modes share one cursor that wraps; rndrw issues a read while (reads+1) /
 * (writes+1) < ratio; after every fsync_freq requests with a write since
 * the last series, the next num_files events are fsyncs of every file.
 * Everything is counted globally and the offset of request n is
 * sm_hash64(seed, n), so one seed gives one sequence whatever the threads.
 */
struct sm_fileio_gen;

/* Allocate a generator for cfg and `slots` concurrent requests (threads x
 * depth, used by --validate to keep two requests off the same block).
 * Returns NULL when out of memory. */
struct sm_fileio_gen *sm_fileio_gen_new(const struct sm_fileio_cfg *cfg, unsigned slots);
void sm_fileio_gen_free(struct sm_fileio_gen *g);

/* Take up to max events into out[]; slot_base..slot_base+max-1 name the
 * caller's slots (validate only). Returns the count, 0 when the event limit
 * is reached. Thread-safe (one short critical section per call). */
unsigned sm_fileio_gen_next(struct sm_fileio_gen *g, struct sm_fileio_req *out, unsigned max,
			    const unsigned *slots);

/* Release a validate slot when its request completed (no-op otherwise). */
void sm_fileio_gen_release(struct sm_fileio_gen *g, unsigned slot);

/* ---- validation blocks -------------------------------------------------- */

#define SM_FIO_TRAILER 24u          /* magic, checksum, file<<48|offset */

/* Write the trailer of every block_size chunk of buf (data for file `file`
 * at offset off); random payload first when `refill` (seed picks it). */
void sm_fileio_seal(void *buf, uint64_t len, uint64_t block_size, unsigned file, uint64_t off,
		    int refill, uint64_t seed);

/* Check every block of buf read from (file, off). Returns 0, or -EILSEQ
 * with *bad_off set to the file offset of the first bad block. */
int sm_fileio_verify(const void *buf, uint64_t len, uint64_t block_size, unsigned file, uint64_t off,
		     uint64_t *bad_off);

/* Look at the existing files and decide, for each, create/extend/reuse.
 * Allocates p's arrays (sm_fileio_prep_release frees). Returns 0 or -errno
 * with p->err_file naming the file: -ELOOP for a symbolic link (never
 * followed), -EEXIST for anything else that is not a regular file. */
int sm_fileio_prep_scan(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p);
void sm_fileio_prep_release(struct sm_fileio_prep *p);

/* Write the files with cfg->threads threads, fsync each. On failure
 * returns -errno with p->err/err_file set; every file left incomplete is
 * removed (or cut back to its old size) so that no half-written file
 * passes for prepared. */
int sm_fileio_prepare(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p);

/* Remove test_file.0 .. N-1 (only those). Returns how many were removed,
 * -ELOOP with *bad set (nothing removed) when one of them is a symbolic
 * link, or -errno for the first failure other than ENOENT. */
int sm_fileio_cleanup(const struct sm_fileio_cfg *cfg, unsigned *bad);

/* Open the files for a run, check their sizes (seqwr recreates them).
 * On failure returns -errno with msg holding sysbench's FATAL text. */
int sm_fileio_open(const struct sm_fileio_cfg *cfg, int **fds_out, char *msg, size_t msglen,
		   int *missing);
void sm_fileio_close(const struct sm_fileio_cfg *cfg, int *fds);

/* Initialise / free a result (allocates the per-thread arrays). */
int sm_fileio_result_init(struct sm_fileio_result *r, const struct sm_fileio_cfg *cfg);
void sm_fileio_result_release(struct sm_fileio_result *r);

/*
 * Run the test on files opened by sm_fileio_open(). Calls tick (from a
 * helper thread) every report interval when one is set; pct is the
 * percentile reported in ticks. Stops at the time or event limit, or when
 * a signal sets the stop flag (r->head.interrupted). Returns 0, or -errno with
 * r->head.error set when the run could not start or an I/O failed (r->failed).
 */
int sm_fileio_run(const struct sm_fileio_cfg *cfg, const int *fds, double pct,
		  sm_fileio_tick_fn tick, void *tick_arg, struct sm_fileio_result *r);

#endif
