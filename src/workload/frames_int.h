/* SPDX-License-Identifier: MIT */
/* Internals of the frames workload shared by its files (frames.c runs a
 * test; frames_setup.c, frames_worker.c, frames_slot.c, frames_layout.c and
 * frames_sample.c hold its parts). Not for use outside workload/frames*. */
#ifndef SM_WORKLOAD_FRAMES_INT_H
#define SM_WORKLOAD_FRAMES_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/pace.h"
#include "core/series.h"
#include "core/worker.h"
#include "engine/engine.h"
#include "workload/frames.h"
#include "workload/pump.h"

enum { FS_NEW = 0, FS_OURS = 1, FS_CLAIMED = 2 };

enum slot_state { SLOT_FREE = 0, SLOT_OPEN, SLOT_XFER, SLOT_CLOSE, SLOT_DONE };

/* One frame in flight in a worker. */
struct slot {
	struct sm_io io;
	enum slot_state state;
	unsigned index;            /* in the worker's slot array (= buf_index) */
	uint64_t seq, frame, sched;
	int fd;
	unsigned chunk;
	int err;                   /* -errno of the first failure, 0 if none */
	int claimed;               /* this slot issued the frame's O_EXCL create */
	int waiting;               /* another slot's create of this frame was under
				    * way when this one opened it (frames_slot.c) */
	uint64_t bytes;
	uint64_t t_begin, t_end, open_ns, io_ns, close_ns;
	void *buf;
	char path[PATH_MAX];
};

/* The live counters each worker publishes in its core/series slot (read
 * by the sampler for the per-second series and progress), and with -h its
 * frame-time histogram (HIST_FRAME). */
enum { C_FRAMES, C_BYTES, C_OPEN_NS, C_IO_NS, C_CLOSE_NS, C_FRAME_NS, NCOUNTERS };
#define HIST_FRAME 0

struct shared;
struct sm_frames_ring;

/* One worker thread's state; only its thread touches it while the test
 * runs (its series slot is read by the sampler, through core/series). */
struct worker {
	_Alignas(64) struct shared *sh;   /* workers on cache lines of their own */
	unsigned id;
	struct sm_engine eng;
	int eng_ok;
	struct sm_pump pump;       /* every engine call of the worker */
	struct slot *slots;
	unsigned nslots;
	unsigned *order;           /* in-order retirement: slot indices by seq */
	unsigned order_head, order_len;
	int stream_fd;
	struct sm_opstat *open, *io, *close, *frame;
	struct sm_hist *sched_lat;
	struct sm_framemap *map;   /* this worker's frames, per column of the schedule */
	uint64_t fastest, slowest, t_last;
	uint64_t t_first;          /* the issue of its first request, 0 before one */
	void *sink;                /* this worker's writer of plan.sink, or NULL */
	struct sm_series_slot *live;   /* this worker's slot of shared.live */
	struct sm_verify_stats vs;     /* --verify: this worker's blocks sealed */
	uint64_t claim_next, claim_end;  /* unpaced: sequence numbers taken, not yet begun */
};

/* What every worker of one test shares. The plan and sizes are fixed
 * before the threads start; mu guards pace, error and error_msg. */
struct shared {
	const struct sm_frames_plan *plan;
	uint64_t total;            /* frames in the schedule */
	uint64_t distinct;         /* distinct frame files (loop) */
	uint64_t region_off, region_len, chunk_len;
	int open_flags;            /* reads; writes: create_flags or reuse_flags */
	int create_flags;          /* a frame not there before: O_CREAT|O_EXCL */
	int reuse_flags;           /* a frame that passed the ownership check,
				    * or one this run created (no O_CREAT) */
	/* Writes: per distinct frame, FS_NEW (not there), FS_CLAIMED (its
	 * O_EXCL create is in flight) or FS_OURS (checked before the run, or
	 * created by it). */
	_Atomic unsigned char *fstate;
	uint64_t dir_id;           /* the directory id in every frame's header */
	dev_t stream_dev;          /* -s write: the file claimed before the run */
	ino_t stream_ino;
	int *dir_fds;              /* -d: PATH/dNNNNN, opened O_NOFOLLOW; frames open at them */
	uint64_t ndirs;            /* entries of dir_fds opened (closed by sm_frames_run) */
	uint64_t run_seed;
	struct sm_start start;
	/* Unpaced: sequence numbers a worker takes at once. 1, so frames go
	 * out in order across threads; 64 with the null engine, whose tens of
	 * millions of claims a second would otherwise pass next's cache line
	 * between cores on every one (two threads ran 1.1x one; a real
	 * engine's frame costs thousands of times such a transfer). */
	unsigned claim_batch;
	/* unpaced: the next sequence number, on a cache line of its own:
	 * every claim writes it, and the flags below are read as often */
	_Alignas(64) _Atomic uint64_t next;
	_Alignas(64) _Atomic int abort;
	_Atomic unsigned finished;
	_Atomic int sink_err;      /* first failed write of plan.sink, -errno */
	char prefix[PATH_MAX];     /* "PATH/frame": frame names are prefix + digits + ".tst" */
	size_t prefix_len;
	pthread_mutex_t mu;        /* pacing, error, finish signalling */
	pthread_cond_t cv;
	int paced;
	struct sm_pace pace;
	struct sm_hist *early, *late;
	struct sm_series *live;    /* every worker's live counters */
	int windowed;              /* -h: workers record frame times in their
				    * slot and the sampler keeps the window's start */
	struct sm_frames_ring *ring;
	int error;
	char error_msg[512];
	struct worker *workers;
};

static inline uint64_t round_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* frames.c: record the first error of the test ("cannot WHAT 'PATH': why",
 * extra replacing strerror when given) and ask every worker to stop. */
void sm_frames_fail(struct shared *sh, int err, const char *what, const char *path,
		    const char *extra);

/* frames_layout.c: frame k's path into buf (PATH_MAX), as sm_frames_path()
 * names it; and the frame (file, or offset index in a stream) the seq-th
 * transfer moves. */
void sm_frames_name(const struct shared *sh, uint64_t k, char *buf);
uint64_t sm_frames_frame_of(const struct shared *sh, uint64_t seq);

/* frames_slot.c: start frame seq (scheduled at sched, 0 unpaced) in slot s
 * and return its first request; account a completed request and return the
 * frame's next one, or NULL when the frame is finished; retire finished
 * frames (in start order unless -o). */
struct sm_io *sm_frames_slot_begin(struct worker *w, struct slot *s, uint64_t seq,
				   uint64_t sched);
struct sm_io *sm_frames_slot_step(struct worker *w, struct slot *s);
void sm_frames_retire_ready(struct worker *w, struct slot *s);

/* frames_worker.c: set up worker id (slots, buffers, engine); returns 0 or
 * -errno (-ENOENT: unknown engine), the notice filled on an engine
 * fallback; release what it holds (also after a failed set-up); the
 * thread's body. */
int sm_frames_worker_setup(struct shared *sh, struct worker *w, unsigned id,
			   const struct sm_engine_need *need,
			   char *notice, size_t nlen);
void sm_frames_worker_release(struct worker *w);
void *sm_frames_worker_main(void *arg);

/* frames_check.c: what a write test finds in its directory. reuse (NULL,
 * or one byte per distinct frame) gets 1 for each existing frame it may
 * reopen; dir_id is the directory id of the frames found (have_id). */
struct sm_frames_scan {
	unsigned char *reuse;
	uint64_t dir_id;
	int have_id;
};
/* Check every existing file named like a frame of p (the first distinct):
 * each must be one p may reopen (a stormark frame with the right index and
 * directory id; an empty file for -e; under the frametest name a file of
 * exactly the frame size). Returns 0, or -EEXIST (and others) with msg. */
int sm_frames_scan_existing(const struct sm_frames_plan *p, uint64_t distinct,
			    struct sm_frames_scan *sc, char *msg, unsigned len);
/* -s write: create p->path with O_EXCL, or check that the existing file may
 * be reused (its frame 0 header, or the frametest rule); its device and
 * inode into *dev, *ino so each worker's open can be checked against it;
 * the directory id of an existing stream into *id (*have_id). Returns 0 or
 * -errno with msg (-EEXIST: a file that is not ours). */
int sm_frames_claim_stream(const struct sm_frames_plan *p, uint64_t *id, int *have_id,
			   dev_t *dev, ino_t *ino, char *msg, unsigned len);

/* frames_setup.c: everything before the threads (sizes, I/O plan, pacing,
 * directories, marker); every worker's engine (*nw counts those to
 * release); an existing longer stream cut to this run's length. Each
 * returns 0 or -errno with res->head.error set. */
int sm_frames_prepare(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res);
int sm_frames_setup_workers(struct shared *sh, struct sm_frames_plan *p,
			    struct sm_frames_result *res, unsigned *nw);
int sm_frames_trim_stream(const struct sm_frames_plan *p, uint64_t distinct,
			  struct sm_frames_result *res);

/* frames_sample.c: open the start gate, sample every second (and call
 * progress) until every worker has finished, join them and close the
 * series with the final sample. With -h it also keeps the frame-time
 * histograms the window can start at (a few, whatever the run's length;
 * without memory for them the window is the whole run). */
void sm_frames_sample_until_done(struct shared *sh, const struct sm_frames_plan *p,
				 struct sm_frames_result *res, pthread_t *tids,
				 sm_frames_progress_fn progress, void *arg);
/* Before the workers are set up: the live counters' series (one slot per
 * worker; with -h a frame-time histogram too, and the ring of window
 * starts). Returns 0 or -ENOMEM. */
int sm_frames_live_init(struct shared *sh, const struct sm_frames_plan *p);
/* After merging: res->frame_window and res->frame_window_ns from the
 * kept histograms and res->frame.lat; frees them. */
void sm_frames_window_close(struct shared *sh, struct sm_frames_result *res);

#endif
