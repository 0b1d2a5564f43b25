/* SPDX-License-Identifier: MIT */
/* The result of a fileio (sysbench-style) run: the resolved plan, totals
 * per operation, event latency, the interval series and the prepare
 * outcome. Data only, plus the names of the test modes. */
#ifndef SM_RESULT_FILEIO_H
#define SM_RESULT_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/hist.h"
#include "core/stall.h"
#include "core/verify.h"
#include "result/cliff.h"
#include "result/result.h"
#include "result/steady.h"

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
 * check_plan() in cmd/fileio.c: num_files >= 1, file_size = total_size / num_files
 * >= 1, block_size >= 1, threads >= 1. */
struct sm_live;   /* core/live.h */

struct sm_fileio_cfg {
	struct sm_live *live;      /* --live: each second's series entry as a line,
				    * NULL: none */
	const char *dir;           /* where test_file.N live */
	const char *nfs;           /* --nfs nfs://SERVER/PATH: the files are there,
				    * through libnfs (workload/fileio_nfs.c); NULL: dir */
	unsigned num_files;
	uint64_t total_size;
	uint64_t file_size;
	uint64_t block_size;
	enum sm_fileio_mode mode;
	enum sm_fileio_io io_mode;
	unsigned async_backlog;    /* queue depth per thread in async mode */
	unsigned engine_flags;     /* async mode: SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL
				    * (engine/engine.h), --sqpoll/--iopoll */
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
	int validate;              /* sysbench's --validate: check blocks that carry a trailer */
	int verify;                /* --verify: every block must carry one (docs/verify.md) */
	enum sm_data_mode data;    /* what prepare writes */
	unsigned first_file;       /* the N of file 0's name test_file.N (its seal
				    * and block trailers too); 0 but on a shared
				    * MPI set (docs/mpi.md) */
	int ownership;             /* stormark's name: only files carrying their
				    * ownership seal (core/seal.h) are rewritten or
				    * removed; 0 under the sysbench name (sysbench's
				    * rules). Prepare seals what it writes under
				    * both. */
};

/* Fill cfg with sysbench 1.0.20's defaults (dir "."). */
void sm_fileio_cfg_defaults(struct sm_fileio_cfg *cfg);

/* Size of one request in the sequential modes (block * merged). */
uint64_t sm_fileio_request_size(const struct sm_fileio_cfg *cfg);

/* 1 when the mode writes (seqwr, seqrewr, rndwr, rndrw). */
int sm_fileio_mode_writes(enum sm_fileio_mode m);

struct sm_fileio_result;
struct sm_fileio_tick;

/* 1 when series tick i of r is the run's last, partial interval (it ends
 * off the whole intervals since the start; sysbench prints no line for
 * it), else 0. The last tick of a run that went to its time limit, when
 * the limit is a whole number of intervals, is not partial: it covers
 * the last interval, whose line sysbench prints as the run ends. */
int sm_fileio_tick_partial(const struct sm_fileio_result *r, unsigned i);

/* The same for a tick t of a run of cfg (last: it is the run's last
 * tick): 1 when it is a whole interval, whose line is printed. */
int sm_fileio_tick_whole(const struct sm_fileio_cfg *cfg, const struct sm_fileio_tick *t, int last);

/* Name of a test mode ("rndrw") and sysbench's description ("random r/w"). */
const char *sm_fileio_mode_name(enum sm_fileio_mode m);
const char *sm_fileio_mode_desc(enum sm_fileio_mode m);
/* Parse a test mode name; returns SM_FIO_NONE when unknown. */
enum sm_fileio_mode sm_fileio_mode_parse(const char *s);

/* ---- results ------------------------------------------------------------ */

/* Percentiles asked for with --percentile (empty: disabled). */
#define SM_FIO_MAX_PCT 8
struct sm_pct_list {
	unsigned n;
	double p[SM_FIO_MAX_PCT];
};

/* One --report-interval tick: counts over the interval, event latency. */
struct sm_fileio_tick {
	uint64_t t_ns;             /* since the start */
	uint64_t interval_ns;
	uint64_t reads, writes, fsyncs, events;
	uint64_t read_bytes, write_bytes;
	uint64_t lat_pct_ns;       /* the requested percentile of the interval's event times */
	uint64_t lat_max_ns;       /* the largest event time of the interval (bucket precision) */
};

typedef void (*sm_fileio_tick_fn)(const struct sm_fileio_tick *tick, void *arg);

/* The names of ops[0..2] (read, write, fsync) and the arrays of the JSON's
 * "series", one per field of struct sm_fileio_tick in its order: the one
 * spelling the writer (report/fileio.c) and the reader
 * (result/json_read_fileio.c) use. */
/* The fields of fileio's "fileio" object (result/field.h), base struct
 * sm_fileio_result, in the order they are written; the rates are
 * derived (sm_fileio_analyse), written and not read back. */
enum sm_fileio_body_f {
	SM_FB_EVENTS, SM_FB_EVENTS_PER_S, SM_FB_PERIODIC_FSYNCS, SM_FB_END_FSYNCS,
	SM_FB_READS_PER_S, SM_FB_WRITES_PER_S, SM_FB_FSYNCS_PER_S, SM_FB_EVENT_LAT,
	SM_FB_EVENT_PERCENTILES, SM_FB_THREAD_EVENTS, SM_FB_THREAD_BUSY, SM_FB_ENGINE_NOTICE,
	SM_FB_N
};
/* fileio's "params" (base struct sm_fileio_result), in the order they
 * are written; the counts the writer gives as numbers it derives
 * (threads, file_num, async_backlog, fsync_freq, merged_requests) are
 * read back as unsigned. */
enum sm_fileio_params_f {
	SM_FPA_DIR, SM_FPA_TEST_MODE, SM_FPA_IO_MODE, SM_FPA_THREADS, SM_FPA_FILE_NUM,
	SM_FPA_FILE_SIZE, SM_FPA_TOTAL_SIZE, SM_FPA_BLOCK_SIZE, SM_FPA_REQUEST_SIZE,
	SM_FPA_ASYNC_BACKLOG, SM_FPA_EXTRA_FLAGS, SM_FPA_FSYNC_FREQ, SM_FPA_FSYNC_ALL,
	SM_FPA_FSYNC_END, SM_FPA_FSYNC_MODE, SM_FPA_MERGED, SM_FPA_RW_RATIO, SM_FPA_TIME_LIMIT,
	SM_FPA_EVENT_LIMIT, SM_FPA_RATE, SM_FPA_REPORT_INTERVAL, SM_FPA_RAND_SEED,
	SM_FPA_RAND_SEED_GIVEN, SM_FPA_HISTOGRAM, SM_FPA_VALIDATE, SM_FPA_VERIFY, SM_FPA_DATA,
	SM_FPA_PERCENTILES, SM_FPA_N
};
extern const struct sm_field sm_fileio_params_fields[SM_FPA_N];

/* The document's own objects (its "params" is the head's), and each
 * entry of event_percentiles. */
enum sm_fileio_doc_f { SM_FDOC_TOTALS, SM_FDOC_OPS, SM_FDOC_SERIES, SM_FDOC_FILEIO, SM_FDOC_N };
enum sm_fileio_pct_f { SM_FPC_PERCENTILE, SM_FPC_LAT, SM_FPC_N };
extern const struct sm_field sm_fileio_doc_fields[SM_FDOC_N];
extern const struct sm_field sm_fileio_body_fields[SM_FB_N];
extern const struct sm_field sm_fileio_pct_fields[SM_FPC_N];

extern const char *const sm_fileio_op_names[3];
#define SM_FILEIO_SERIES_KEYS 10
extern const char *const sm_fileio_series_keys[SM_FILEIO_SERIES_KEYS];

/* Figures derived from a result's counts, computed once by
 * sm_fileio_analyse() (analysis/fileio.h) after a run and after a saved
 * result is read back; every layout prints these. Index 0 read, 1 write,
 * 2 fsync, 3 event (bytes: reads and writes). Rates are 0 when the run
 * has no duration. */
struct sm_fileio_figures {
	double secs;               /* head.duration_ns in seconds */
	double per_s[4];
	double bytes_per_s[4];
	double thread_events_mean, thread_events_sd;   /* over threads (sysbench's
							* population stddev) */
	double thread_busy_mean_s, thread_busy_sd_s;   /* "execution time" per thread */
};

/* The first failed request of a run (an I/O error or a full disk), as
 * sysbench's FATAL line names it: "Failed to write file! file: FD pos: OFF
 * errno = E (...)". */
struct sm_fileio_ioerr {
	int set;           /* 1 when the run stopped on a failed request */
	int kind;          /* 0 read, 1 write, 2 fsync or fdatasync (as ops[]) */
	int fd;            /* the descriptor the request went through */
	unsigned file;     /* test_file.N */
	uint64_t off;      /* read or write: its offset */
	int err;           /* errno; 0 for a short transfer without one */
	int async;         /* --file-io-mode=async */
};

struct sm_fileio_result {
	struct sm_result_head head; /* duration_ns: start to the last completion;
				     * error: the I/O error or validation failure */
	/* The plan as resolved and what the text layouts show of the command
	 * line; filled by the command before the run (cfg.dir is borrowed, or
	 * owned when read back from JSON: sm_fileio_from_json_release()). */
	struct sm_fileio_cfg cfg;
	struct sm_pct_list pct;    /* --percentile */
	int seed_given;            /* --rand-seed was given (sysbench's head says so) */
	int histogram;             /* --histogram: the latency histogram is shown */
	struct sm_opstat ops[3];   /* 0 read, 1 write, 2 fsync (periodic + end + all);
				    * lat: each request from issue to completion */
	struct sm_hist events_lat; /* each event's time as sysbench 1.0.20 counts it:
				    * the time its thread spent executing it (with
				    * fsync-all, the write and its fsync; async: its
				    * submission, plus the wait for a free slot when
				    * it filled the queue) */
	uint64_t events;
	uint64_t periodic_fsyncs, end_fsyncs;
	unsigned nthreads;
	uint64_t *thread_events;   /* [nthreads] */
	uint64_t *thread_busy_ns;  /* [nthreads] the sum of each thread's event times */
	struct sm_fileio_tick *series;
	unsigned nseries, series_cap;
	/* Write modes: bytes written in each whole second of the run (sampled
	 * by the reporter thread, which runs for them even without
	 * --report-interval), and the cliff found in them (docs/cliff.md),
	 * filled when the run ends; a result read back has the cliff, not the
	 * seconds. */
	uint64_t *wsec;
	unsigned nwsec, wsec_cap;
	struct sm_cliff cliff;
	/* Times no request completed (core/stall.h): found by the reporter
	 * thread every 10 ms, counted against twice the slowest kind's median
	 * request time, at least SM_STALL_UNPACED_MIN_NS, by
	 * sm_fileio_analyse(); measured 0 with --steady and in a result saved
	 * before. */
	struct sm_stalls stalls;
	char engine[16];
	char notice[200];          /* engine fallback, if any */
	int failed;                /* I/O error or validation failure (head.error says which) */
	struct sm_fileio_ioerr io_err;  /* the failed request, when that is what stopped it */
	uint64_t verify_run;       /* --validate/--verify: this run's id (0 otherwise) */
	struct sm_verify_stats verify;  /* --validate/--verify: merged once the workers are joined */
	struct sm_fileio_figures fig;  /* derived: sm_fileio_analyse() */
	/* --steady (steady.on): the rounds; the counts above are then the
	 * window's (steady.win) and head.duration_ns the sum of its rounds.
	 * --precondition (precond.on): the fill before the run. Filled by
	 * sm_fileio_steady_run(); zero otherwise. */
	struct sm_steady steady;
	struct sm_precond precond;
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
	int err_in_write;              /* err came from a write (not open, seal, fsync) */
	uint64_t set_id;               /* --validate/--verify: the id in every block written */
	uint64_t sealed, seal_ns;      /* blocks given a trailer, time spent hashing them */
	unsigned unsealed_reused;      /* reused files whose first block has no trailer */
	int first_unsealed;            /* the first of them, -1 if none */
	unsigned first_file;           /* cfg's first_file: state[i] is test_file.(first_file + i) */
};

#endif
