/* SPDX-License-Identifier: MIT */
/* sysbench-fileio workload: the six test modes, their request stream
 * (shared sequential cursor, rndrw ratio, periodic fsyncs counted as
 * sysbench counts them), file preparation and cleanup. It never prints. */
#ifndef SM_WORKLOAD_FILEIO_H
#define SM_WORKLOAD_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/verify.h"
#include "result/fileio.h"

/* Path of test file i under cfg->dir into buf. */
void sm_fileio_path(const struct sm_fileio_cfg *cfg, unsigned i, char *buf, size_t len);

/* ---- --nfs (fileio_nfs.c): the files on an NFS server through libnfs -----
 * Each returns -errno with msg saying what happened. prepare creates every
 * test_file.N exclusively (-EEXIST: one was there, or a set is prepared
 * already) and lists them in test_file.owner; on failure it removes what
 * it made. open checks the files against that list and binds them for the
 * nfs engine: *fds are indices into them (close unbinds and frees).
 * cleanup removes the listed files and the list, or nothing (-EPERM) when
 * one of them is not the file prepare made; it returns how many it
 * removed (0: no list there). */
int sm_fileio_nfs_prepare(const struct sm_fileio_cfg *cfg, uint64_t *written, char *msg, size_t len);
int sm_fileio_nfs_open(const struct sm_fileio_cfg *cfg, int **fds_out, char *msg, size_t len);
void sm_fileio_nfs_close(int *fds);
int sm_fileio_nfs_cleanup(const struct sm_fileio_cfg *cfg, char *msg, size_t len);
/* The environment of a --nfs run: fs_type "nfs", the mount {protocol nfs,
 * kind client, server, export, vers 3, proto tcp} in place of the local
 * directory's (which holds none of the files). */
struct sm_env;
void sm_fileio_nfs_env(const char *url, struct sm_env *env);
/* url with /sub added to its path (before any ?ARGS) into out: 0, or
 * -ENAMETOOLONG. */
int sm_fileio_nfs_sub_url(const char *url, const char *sub, char *out, size_t len);
/* Make the directory sub in url's directory on the server (an MPI rank's
 * rank.N; one already there is used: the exclusive creates in it keep the
 * ownership rules). 0, or -errno with msg set. */
int sm_fileio_nfs_mkdir(const char *url, const char *sub, char *msg, size_t len);
/* Remove the directory sub in url's directory if it is empty; a failure
 * (anything left in it) leaves it, as an MPI job does with DIR/rank.N. */
void sm_fileio_nfs_rmdir(const char *url, const char *sub);

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

/* ---- --validate and --verify blocks (fileio_verify.c) ------------------- */

/* Blocks carry a core/verify trailer when either is on; the block is the
 * I/O block (--file-block-size). */
static inline int sm_fileio_sealing(const struct sm_fileio_cfg *cfg)
{
	return cfg->validate || cfg->verify;
}

/* ---- block maps (fileio_vmap.c): test_file.N.verify ---------------------
 * For each block of a file, the write it should hold, as the --verify
 * prepare or the sealing runs that wrote the file left it: a word per
 * block, (k << SM_VMAP_SEQ_BITS) | seq, k naming runs[k - 1] of the map's
 * run table and seq the write's sequence number (0: prepare's), or 0 when
 * not known. A map is trusted only when whole (a run that dies while
 * updating it leaves it marked) and its checksum holds. */
#define SM_VMAP_SEQ_BITS 48
#define SM_VMAP_SEQ_MASK ((UINT64_C(1) << SM_VMAP_SEQ_BITS) - 1)
#define SM_VMAP_MAX_RUNS 65535u

struct sm_fileio_vmap {
	uint64_t set;              /* the file's set */
	uint64_t *runs;            /* [nruns] run ids (malloc'd; the caller frees) */
	unsigned nruns;            /* 0: no map */
};

/* Load file i's map into *m and words[0 .. blocks per file). Returns 1, 0
 * when there is none, -EBUSY when a run that did not end left it, -EBADMSG
 * when it is damaged or describes another file or block size, -EPERM when
 * a file that is not a map has its name (left alone), or -errno. */
int sm_fileio_vmap_load(const struct sm_fileio_cfg *cfg, unsigned i, struct sm_fileio_vmap *m,
			uint64_t *words);

/* Mark file i's map as being updated before a run writes the file, so a
 * run that dies leaves it untrusted. 0, -ENOENT (none), -EPERM or -errno. */
int sm_fileio_vmap_begin(const struct sm_fileio_cfg *cfg, unsigned i);

/* Write file i's map: set, and words[] naming runs[0 .. nruns) (renumbered
 * in place to the runs still named), or with words NULL every block as a
 * prepare of run runs[0] wrote it. Written whole, then marked whole.
 * Returns 0, -EPERM (a file that is not a map has its name: left alone),
 * -E2BIG (more than SM_VMAP_MAX_RUNS runs named), or -errno. */
int sm_fileio_vmap_save(const struct sm_fileio_cfg *cfg, unsigned i, uint64_t set, uint64_t *words,
			uint64_t *runs, unsigned nruns);

/* Remove file i's map when it is one. 1 removed, 0 none, -EPERM (something
 * else there, left alone), or -errno. */
int sm_fileio_vmap_remove(const struct sm_fileio_cfg *cfg, unsigned i);

/* What a run needs to check its blocks. Invariant: last[] holds, for each
 * block, 1 + the event number of the latest write of this run that
 * completed there (0: none yet), read and written atomically; prev[] holds
 * the block maps of the files that have one (a word per block, as
 * sm_fileio_vmap_load() gives it), runs[] their run tables. */
struct sm_fileio_vctx {
	const struct sm_fileio_cfg *cfg;
	uint64_t run;              /* this run's id */
	uint64_t *set;             /* [num_files] the set each file belongs to, 0 unknown */
	uint64_t *last;            /* [num_files * blocks per file] */
	uint64_t per_file;         /* blocks per file */
	uint64_t *prev;            /* [num_files * blocks per file], or NULL: no map */
	struct sm_fileio_vmap *maps;   /* [num_files] (nruns 0: that file has none) */
	struct sm_warnings *warn;  /* where a map that cannot be used is said */
};

/*
 * Prepare a run's checks on the opened files: learn each file's set (its
 * block map's, or the one most of its probed blocks carry; seqwr starts
 * new files: they take the run's id), load the block maps, and, for a run
 * that writes, mark them as being updated. A map that cannot be used is a
 * warning in warn (NULL: none). Returns 0; -ENOMEM; or, under --verify,
 * -ENOMEDIUM with msg naming a file that was not prepared with --verify at
 * this block size (a usage problem: exit 2), and -EAGAIN when the set is
 * too small for the requests in flight to stay off each other's blocks.
 */
int sm_fileio_vctx_init(struct sm_fileio_vctx *v, const struct sm_fileio_cfg *cfg, const int *fds,
			unsigned slots, struct sm_warnings *warn, char *msg, size_t msglen);

/* After the run (its writes all completed or abandoned): write each
 * file's block map with this run's writes in it (--verify: also for a file
 * that had none; --validate: only where one was). A map that cannot be
 * written is a warning. */
void sm_fileio_vctx_finish(struct sm_fileio_vctx *v);
void sm_fileio_vctx_release(struct sm_fileio_vctx *v);

/* The checks of sm_fileio_vctx_init() made before anything is printed
 * (files that cannot be opened are left to sm_fileio_open()). Returns 0,
 * -ENOMEDIUM with msg (exit 2), or another -errno with msg. */
int sm_fileio_verify_ready(const struct sm_fileio_cfg *cfg, unsigned slots, char *msg, size_t msglen);

/* Give each block of a write of len bytes at (file, off) its trailer
 * (event: the write's event number). Counts into st. */
void sm_fileio_vseal(const struct sm_fileio_vctx *v, void *buf, unsigned file, uint64_t off, uint64_t len,
		     uint64_t event, struct sm_verify_stats *st);

/* Record that a write completed (after it did, before its block can be
 * handed to another request). */
void sm_fileio_vwritten(struct sm_fileio_vctx *v, unsigned file, uint64_t off, uint64_t len, uint64_t event);

/* Check each block of a read of len bytes at (file, off); problems go to
 * st (--validate: a block no run of this one wrote that has no trailer, in
 * a file whose set is not known because its blocks carry none, is only
 * counted as unchecked; in a file of a known set it is damage). Returns the number of problems found in this
 * read, the first of them in *first when first is not NULL. */
unsigned sm_fileio_vcheck(const struct sm_fileio_vctx *v, const void *buf, unsigned file, uint64_t off,
			  uint64_t len, struct sm_verify_stats *st, struct sm_verify_problem *first);

/* The first test file shorter than cfg->file_size: its path into path and
 * where it ends into *end; returns 1, or 0 when every file that is there
 * is whole. */
int sm_fileio_find_short(const struct sm_fileio_cfg *cfg, char *path, size_t len, uint64_t *end);

/* 1 when test_file.0's first block carries a trailer for cfg's block size
 * (the set was prepared with --validate or --verify), else 0. */
int sm_fileio_set_sealed(const struct sm_fileio_cfg *cfg);

/* Look at the existing files and decide, for each, create/extend/reuse.
 * Allocates p's arrays (sm_fileio_prep_release frees). Returns 0 or -errno
 * with p->err_file naming the file: -ELOOP for a symbolic link (never
* followed), -EEXIST for anything else that is not a regular file, -EPERM
 * (cfg->ownership) for a regular file without this file's ownership seal.
 * With --validate or --verify, a file to reuse whose first block has no
 * trailer is counted in p->unsealed_reused (--validate), or written again
 * (--verify: its state becomes SM_FIO_EXTEND). */
int sm_fileio_prep_scan(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p);
void sm_fileio_prep_release(struct sm_fileio_prep *p);

/* Write the files with cfg->threads threads, fsync each; new files are
 * created with O_EXCL under cfg->ownership, and every file written gets
 * its ownership seal. On failure returns -errno with p->err/err_file set
 * (-EEXIST: a file appeared under a new file's name and was left alone;
 * -ENOTSUP: the file system keeps no seal); every file left incomplete is
 * removed (or cut back to its old size) so that no half-written file
 * passes for prepared. With --validate or --verify every block gets a
 * trailer of set p->set_id (a new id), seq 0; --verify writes the files it
 * extends from their start. With on_file (sysbench's way: its "Creating
 * file test_file.N" line as each file begins) one thread prepares the
 * files in order and on_file(arg, i) is called before file i, reused ones
 * included; NULL: cfg->threads threads. */
int sm_fileio_prepare(const struct sm_fileio_cfg *cfg, struct sm_fileio_prep *p,
		      void (*on_file)(void *arg, unsigned i), void *arg);

/* Remove test_file.0 .. N-1 (only those). Returns how many were removed,
 * -ELOOP with *bad set (nothing removed) when one of them is a symbolic
 * link, -EPERM with *bad set (nothing removed) when cfg->ownership and one
 * is not a regular file with its seal, -EINTR with *bad the first file
 * not removed when a signal asked to stop (checked between files), or
 * -errno for the first failure other than ENOENT. */
int sm_fileio_cleanup(const struct sm_fileio_cfg *cfg, unsigned *bad);

/* Open the files for a run, check their sizes (seqwr recreates them); with
 * cfg->ownership a file without its seal is refused first (-EPERM, msg names
 * it). On failure returns -errno with msg holding sysbench's FATAL text
 * (or stormark's one line). */
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
