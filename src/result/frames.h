/* SPDX-License-Identifier: MIT */
/* The result of a frames run: the plan as resolved, the per-second series
 * and every figure a reporter prints. Data only; filled by workload/frames. */
#ifndef SM_RESULT_FRAMES_H
#define SM_RESULT_FRAMES_H

#include <stdint.h>

#include "core/buf.h"
#include "core/hist.h"
#include "result/result.h"

enum sm_frames_kind {
	SM_FRAMES_WRITE = 0,   /* -w: create and write frames */
	SM_FRAMES_READ,        /* -r: read frames written earlier */
	SM_FRAMES_EMPTY,       /* -e: create/open/close only, no data */
};

enum sm_frames_order {
	SM_ORDER_FORWARD = 0,
	SM_ORDER_REVERSE,      /* -v */
	SM_ORDER_RANDOM,       /* -m: a permutation, O(1) memory */
};

/* frametest's histogram: 65 character columns on a log axis with ticks at
 * 0.1 .2 .5 1 2 5 10 20 50 100 200 500 1000 ms, 4 or 5 columns apart as in
 * frametest's axis (column 0: < 0.1 ms, column 64: >= 1 s). */
#define SM_FT_COLUMNS 65
#define SM_FT_TICKS 13
extern const unsigned sm_ft_tick_col[SM_FT_TICKS];
extern const double sm_ft_tick_ms[SM_FT_TICKS];

/* What to run; filled by the command from its options. */
struct sm_frames_plan {
	enum sm_frames_kind kind;
	int stream;                 /* -s: one file, frame k at offset k * size */
	const char *path;           /* directory (sequence) or file (stream) */
	uint64_t frame_bytes;       /* one frame; 0 with EMPTY; READ: 0 = detect */
	uint64_t nframes;           /* -n; READ: 0 = every frame present */
	unsigned threads;           /* -t, >= 1 */
	unsigned depth;             /* -a: frames in flight per thread; 0 = sync */
	int out_of_order;           /* -o: retire frames as they complete */
	double fps;                 /* -f: 0 = as fast as possible */
	unsigned queue;             /* -q: buffers (see docs/pacing.md) */
	unsigned prebuffer;         /* -b */
	enum sm_frames_order order;
	uint64_t loop;              /* -l: loop over the first N frames; 0 = off */
	unsigned ios_per_frame;     /* -i, >= 1 */
	unsigned files_per_dir;     /* -d: 0 = all frames in path */
	uint64_t pause_ns;          /* -p */
	unsigned crop_pct;          /* -c: 1..100; 100 = whole frame */
	uint64_t update_ns;         /* -u: live progress interval (0 = none) */
	uint64_t hist_window_ns;    /* -h: histogram over the last N ns; 0 = all */
	const char *csv_path;       /* -x: per-frame records, NULL = none */
	const char *engine;         /* NULL: psync when depth == 0, else uring */
	int direct;                 /* 1: O_DIRECT (falls back with a warning) */
	enum sm_data_mode data;
	uint64_t seed;              /* data stream and random order; 0 = clock */
	uint64_t time_limit_ns;     /* stop issuing frames after this; 0 = none */
	int quiet;                  /* no live progress even on a terminal */
};

/* Cumulative counters of a run at one instant (all threads summed). */
struct sm_frames_snap {
	uint64_t t_ns;              /* since the start of the timed run */
	uint64_t frames, bytes, dropped;
	uint64_t open_ns, io_ns, close_ns, frame_ns;   /* sums over frames */
	uint64_t ft_cols[SM_FT_COLUMNS];               /* frametest histogram */
};

/* Everything a reporter needs; filled by sm_frames_run(). */
struct sm_frames_result {
	struct sm_result_head head;  /* duration_ns: timed part, first issue to last
				      * completion; error: "cannot write '/x/frame000012.tst': ..." */
	struct sm_frames_plan plan;  /* as resolved (sizes, engine, direct) */
	uint64_t frames_scheduled;   /* frames the test meant to move */
	uint64_t frames_done;        /* transferred */
	uint64_t frames_dropped;     /* paced: dropped (capture) or late (playback) */
	uint64_t longest_drop_run;   /* paced: longest run of consecutive drops */
	uint64_t bytes;
	uint64_t max_queue;          /* paced: most buffers in use at once */
	struct sm_opstat open, io, close, frame;   /* frame = open + io + close */
	struct sm_hist sched_lat;    /* paced: completion - scheduled time, ns */
	struct sm_hist early;        /* paced playback: due - completion when early */
	struct sm_hist late;         /* paced playback: completion - due when late */
	uint64_t fastest_ns, slowest_ns;
	struct sm_frames_snap *series;   /* one per second, then the final one */
	unsigned nseries;
	int error;                   /* first -errno that stopped the run, or 0 */
};

/* Release what a result owns (the series). */
void sm_frames_result_release(struct sm_frames_result *res);

/* *out = a - b, counter by counter (t_ns too). */
void sm_frames_snap_diff(const struct sm_frames_snap *a, const struct sm_frames_snap *b,
			 struct sm_frames_snap *out);

/* The window of the last `secs` seconds from the series: *out = end - start
 * (t_ns holds the window length). Returns 0, or -ENODATA when the run was
 * shorter than that (out then covers the whole run). */
int sm_frames_window(const struct sm_frames_result *res, unsigned secs,
		     struct sm_frames_snap *out);

/* The frametest histogram column of a frame time. */
unsigned sm_ft_column(uint64_t ns);

#endif
