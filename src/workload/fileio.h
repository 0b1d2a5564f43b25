/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: the six test modes, their request stream
 * (shared sequential cursor, rndrw ratio, periodic fsyncs counted as
 * sysbench counts them), file preparation and cleanup. It never prints. */
#ifndef SM_WORKLOAD_FILEIO_H
#define SM_WORKLOAD_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/hist.h"
#include "report/result.h"

enum sm_fileio_mode {
	SM_FIO_NONE = -1,
	SM_FIO_SEQWR = 0,
	SM_FIO_SEQREWR,
	SM_FIO_SEQRD,
	SM_FIO_RNDRD,
	SM_FIO_RNDWR,
	SM_FIO_RNDRW,
};

enum sm_fileio_io {
	SM_FIO_IO_SYNC = 0,
	SM_FIO_IO_ASYNC,
	SM_FIO_IO_MMAP,
};

/* --file-extra-flags bits */
#define SM_FIO_FLAG_SYNC   1u
#define SM_FIO_FLAG_DSYNC  2u
#define SM_FIO_FLAG_DIRECT 4u

/* The resolved plan of a prepare, run or cleanup. Invariants after
 * sm_fileio_cfg_check(): num_files >= 1, file_size = total_size / num_files
 * >= 1, block_size >= 1, threads >= 1. */
struct sm_fileio_cfg {
	const char *dir;           /* where test_file.N live */
	unsigned num_files;
	uint64_t total_size;
	uint64_t file_size;
	uint64_t block_size;
	enum sm_fileio_mode mode;
	enum sm_fileio_io io_mode;
	unsigned async_backlog;    /* queue depth per thread in async mode */
	unsigned extra_flags;      /* SM_FIO_FLAG_* */
	unsigned fsync_freq;       /* 0: no periodic fsync */
	int fsync_all;             /* fsync after every write (turns freq/end off) */
	int fsync_end;
	int fsync_data;            /* fdatasync instead of fsync */
	unsigned merged;           /* sequential modes: blocks per request (0 = 1) */
	double rw_ratio;
	unsigned threads;
	uint64_t time_ns;          /* 0: no time limit */
	uint64_t max_events;       /* 0: no event limit */
	double rate;               /* events per second, 0: unlimited */
	uint64_t report_interval_ns;
	uint64_t seed;             /* never 0 once resolved */
	int validate;
	enum sm_data_mode data;    /* what prepare writes */
};

/* Fill cfg with sysbench 1.0.20's defaults (dir "."). */
void sm_fileio_cfg_defaults(struct sm_fileio_cfg *cfg);

/* Size of one request in the sequential modes (block * merged). */
uint64_t sm_fileio_request_size(const struct sm_fileio_cfg *cfg);

/* 1 when the mode writes (seqwr, seqrewr, rndwr, rndrw). */
int sm_fileio_mode_writes(enum sm_fileio_mode m);

/* Name of a test mode ("rndrw") and sysbench's description ("random r/w"). */
const char *sm_fileio_mode_name(enum sm_fileio_mode m);
const char *sm_fileio_mode_desc(enum sm_fileio_mode m);
/* Parse a test mode name; returns SM_FIO_NONE when unknown. */
enum sm_fileio_mode sm_fileio_mode_parse(const char *s);

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

/* ---- results ------------------------------------------------------------ */

/* One --report-interval tick: counts over the interval, event latency. */
struct sm_fileio_tick {
	uint64_t t_ns;             /* since the start */
	uint64_t interval_ns;
	uint64_t reads, writes, fsyncs, events;
	uint64_t read_bytes, write_bytes;
	uint64_t lat_pct_ns;       /* the requested percentile of event latency */
	uint64_t lat_max_ns;
};

typedef void (*sm_fileio_tick_fn)(const struct sm_fileio_tick *tick, void *arg);

struct sm_fileio_result {
	struct sm_opstat ops[3];   /* 0 read, 1 write, 2 fsync (periodic + end + all) */
	struct sm_hist events_lat; /* per event, issue to completion */
	uint64_t events;
	uint64_t periodic_fsyncs, end_fsyncs;
	uint64_t duration_ns;
	unsigned nthreads;
	uint64_t *thread_events;   /* [nthreads] */
	uint64_t *thread_busy_ns;  /* [nthreads] summed event latency */
	struct sm_fileio_tick *series;
	unsigned nseries, series_cap;
	char engine[16];
	char notice[200];          /* engine fallback, if any */
	int interrupted;           /* stopped by a signal */
	int failed;                /* I/O error or validation failure */
	char error[400];
};

/* Prepare outcome for the sysbench lines ("Reusing existing file ..."). */
enum sm_fileio_fstate { SM_FIO_CREATE, SM_FIO_EXTEND, SM_FIO_REUSE };

struct sm_fileio_prep {
	enum sm_fileio_fstate *state;  /* [num_files], set by sm_fileio_prep_scan */
	uint64_t *old_size;            /* [num_files] */
	unsigned char *existed;        /* [num_files]: 1 when the file was there */
	uint64_t written;
	uint64_t duration_ns;
	int err;                       /* -errno of the first failure, else 0 */
	int err_file;                  /* the file it happened on */
	int err_removed;               /* 1: that file was removed, 2: cut back */
	int disk_full;                 /* err was -ENOSPC (or -EDQUOT) */
};

/* Look at the existing files and decide, for each, create/extend/reuse.
 * Allocates p's arrays (sm_fileio_prep_release frees). Returns 0 or -errno. */
int sm_fileio_prep_scan(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p);
void sm_fileio_prep_release(struct sm_fileio_prep *p);

/* Write the files with cfg->threads threads, fsync each. On failure
 * returns -errno with p->err/err_file set; every file left incomplete is
 * removed (or cut back to its old size) so that no half-written file
 * passes for prepared. */
int sm_fileio_prepare(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p);

/* Remove test_file.0 .. N-1 (only those). Returns how many were removed,
 * or -errno for the first failure other than ENOENT. */
int sm_fileio_cleanup(const struct sm_fileio_cfg *cfg);

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
 * a signal sets the stop flag (r->interrupted). Returns 0, or -errno with
 * r->error set when the run could not start or an I/O failed (r->failed).
 */
int sm_fileio_run(const struct sm_fileio_cfg *cfg, const int *fds, double pct,
		  sm_fileio_tick_fn tick, void *tick_arg, struct sm_fileio_result *r);

#endif
