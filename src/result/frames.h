/* SPDX-License-Identifier: MIT */
/* The result of a frames run: the plan as resolved, the per-second series
 * and every figure a reporter prints. Data only; filled by workload/frames
 * (the derived figures, fig, by analysis/frames). */
#ifndef SM_RESULT_FRAMES_H
#define SM_RESULT_FRAMES_H

#include <stdint.h>

#include "core/buf.h"
#include "core/framemap.h"
#include "core/hist.h"
#include "core/stall.h"
#include "core/verify.h"
#include "result/cliff.h"
#include "result/result.h"

struct sm_live;   /* core/live.h */

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

/* One frame as a per-frame log (the -x CSV) sees it; times in ns. Filled
 * by the worker that moved the frame, valid during the record() call. */
struct sm_frame_record {
	uint64_t frame;             /* frame index (file number, or stream offset / size) */
	uint64_t seq;               /* transfer number in the schedule */
	unsigned thread;
	const char *path;
	uint64_t start_ns;          /* its first request's issue, since the start */
	uint64_t open_ns, io_ns, close_ns, frame_ns;
	uint64_t bytes;
	int have_sched;             /* paced: sched_ns is set */
	uint64_t sched_ns;          /* from schedule, as res->sched_lat */
	int have_lateness;          /* paced playback once the display started: */
	int64_t lateness_ns;        /*   completion - due (< 0: early) */
	int late;                   /* playback: missed its due time */
	int err;                    /* -errno that ended the frame, or 0 */
};

/*
 * Where per-frame records go while a test runs (the command wires one, such
 * as workload/frames_log.c's, into plan.sink). Records are streamed, never
 * kept. Each worker opens its own writer, so record() needs no locking.
 */
struct sm_frames_sink {
	const char *name;           /* for messages: the file's path */
	/* A writer for worker `thread`; NULL when out of memory. */
	void *(*open)(struct sm_frames_sink *sink, unsigned thread);
	/* One record, in the worker's hot path (the writer buffers). */
	void (*record)(void *writer, const struct sm_frame_record *r);
	/* Flush and free the writer. Returns 0 or the -errno of its first
	 * failed write (the run then fails). */
	int (*close)(void *writer);
	void *ctx;                  /* the sink's own state */
};

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
	const char *csv_path;       /* -x: per-frame CSV file, NULL = none */
	struct sm_frames_sink *sink;   /* per-frame records (the command wires the
				     * -x file to it), NULL = none */
	const char *engine;         /* NULL: psync when depth == 0, else uring */
	unsigned engine_flags;      /* uring: SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL
				     * (engine/engine.h), --sqpoll/--iopoll */
	int direct;                 /* 1: O_DIRECT (falls back with a warning) */
	enum sm_data_mode data;
	uint64_t seed;              /* data stream and random order; 0 = clock */
	uint64_t time_limit_ns;     /* stop issuing frames after this; 0 = none */
	int quiet;                  /* no live progress even on a terminal */
	struct sm_live *live;       /* --live: each second's series entry as a line
				     * (core/live.h), NULL: none */
	const char *live_command;   /* its "command" and "phase" ("frames", "write") */
	const char *live_phase;
	uint64_t live_end_ns;       /* its "left_ns" counts to this sm_now_ns() (a
				     * run's end); 0: to time_limit_ns */
	int verify;                 /* --verify: trailers on every 4 KiB of a frame
				     * written, a read-back pass (docs/verify.md) */
	uint64_t verify_run;        /* --verify, write test: the run id in the trailers */
	unsigned char *verify_written;  /* --verify, write test: [frame] set to 1 when
				     * the frame was written (owned by the caller) */
	int frametest_frames;       /* run as `frametest`: an existing regular file of
				     * exactly the frame size may be overwritten */
	uint64_t first;             /* sequence: the number of frame 0 in its file name
				     * and header (frame k is frame<first+k>.tst); 0
				     * but on a shared MPI set (docs/mpi.md) */
	uint64_t dir_id;            /* write, sequence: the directory id every frame
				     * must carry (the ranks of a shared MPI set agree
				     * on it); 0: that of the frames found, or new */
};

/* Cumulative counters of a run at one instant (all threads summed). */
struct sm_frames_snap {
	uint64_t t_ns;              /* since the start of the timed run */
	uint64_t frames, bytes, dropped;
	uint64_t open_ns, io_ns, close_ns, frame_ns;   /* sums over frames */
};

/* Rates and per-frame means of a stretch of a run (a window, a
 * per-second sample, the live line), from sm_frames_snap_rates()
 * (analysis/frames.h); rates are 0 when the stretch has no length, means 0
 * when it has no frames. */
struct sm_frames_rates {
	double frames_per_s;
	double bytes_per_s;
	double open_mean_ns, io_mean_ns, close_mean_ns;   /* per frame */
	double wall_per_frame_ns;   /* t_ns / frames: frametest's "Frame" column */
};

/* Figures derived from a result's counts, computed once by
 * sm_frames_analyse() (analysis/frames.h) when a run ends and after a saved
 * result is read back; the reporters print these. Rates are 0 when the
 * run (or the frame) has no duration. */
struct sm_frames_figures {
	double secs;                 /* head.duration_ns in seconds */
	double frames_per_s;         /* frames_done over the run */
	double bytes_per_s;          /* bytes over the run */
	double frame_bytes;          /* bytes / frames_done (whole bytes), 0 without frames */
	double fastest_bytes_per_s;  /* frame_bytes moved in fastest_ns */
	double slowest_bytes_per_s;  /* frame_bytes moved in slowest_ns */
	double paced_bytes_per_s;    /* paced_fps x frame_bytes */
	/* The run's one overall figure: the averaged table's "Overall:" row,
	 * the "Overall frame rate" line and the JSON's windows.overall. Over
	 * the run's I/O (frames_done, bytes and duration_ns), or in a paced
	 * run over the schedule (paced_frames, paced_frames x frame_bytes and
	 * schedule_ns: docs/pacing.md); open, I/O and close are the means per
	 * frame of every transferred frame (the series' last sample). */
	struct sm_frames_snap overall;
	struct sm_frames_rates overall_rates;   /* of overall; frames_per_s and
						 * bytes_per_s are exactly the line's */
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
	struct sm_verify_stats verify;   /* --verify: sealing by the workers, then
				      * the read-back pass (the command runs it) */
	struct sm_opstat open, io, close, frame;   /* frame = open + io + close */
	/* Paced: frame time from schedule, the user's view (docs/pacing.md),
	 * of every transferred frame. Capture: completion - arrival. Playback:
	 * completion - the time its buffer is free by the schedule, which is
	 * due - queue x interval (when frame seq - queue is shown), or the
	 * start for the first queue frames; never negative. Recorded by the
	 * workload per frame. */
	struct sm_hist sched_lat;
	/* Paced playback: lateness (completion - due) of the frames the
	 * display judged, split by sign: early holds due - completion of the
	 * frames shown early (not the pre-buffered ones, on time by
	 * construction), late holds completion - due of the late ones. */
	struct sm_hist early;
	struct sm_hist late;
	/* Paced: the rate the schedule achieved, over the schedule's span, not
	 * over the I/O (docs/pacing.md): capture, frames written per second
	 * from frame 0's arrival to the end of the last arrived frame's
	 * interval; playback, frames shown per second from the display's start
	 * to the end of the last judged frame's interval. */
	uint64_t paced_frames;       /* capture: written; playback: shown on time */
	uint64_t schedule_ns;        /* the span: frames judged x interval */
	double paced_fps;            /* paced_frames / schedule_ns, per second */
	/* Frame times (file times) over the -h window: the last
	 * plan.hist_window_ns of the run, or all of it without -h. frametest's
	 * histogram is drawn from it. */
	struct sm_hist frame_window;
	uint64_t frame_window_ns;    /* the span it really covers (samples are
				      * whole seconds apart; the run may be shorter) */
	uint64_t fastest_ns, slowest_ns;
	/* Every transferred frame's time (and, paced, its time from schedule)
	 * and every dropped frame, per column of consecutive transfer numbers
	 * (core/framemap.h): the HTML report's per-frame chart. Filled by the
	 * workers and the schedule; ncols 0 in a result read from a JSON
	 * written before it existed. */
	struct sm_framemap frame_map;
	struct sm_frames_snap *series;   /* one per second, then the final one */
	unsigned nseries;
	int error;                   /* first -errno that stopped the run, or 0 */
	/* What the text shows of the command line; filled by the command. */
	char test_params[512];       /* frametest's "Test parameters" string */
	char video_format[40];       /* --video-format NAME, "" when none */
	int video_capture;           /* its verdict is for capture (else playback) */
	int log_cut;                 /* -x FILE could not be written whole (the live
				      * run's own: not in the JSON) */
	struct sm_frames_figures fig;    /* derived: sm_frames_analyse() */
	/* Times no frame completed (core/stall.h): gaps found by the
	 * sampler, counted against the buffer by sm_frames_analyse()
	 * (paced: queue x interval; unpaced: twice the median frame time,
	 * at least SM_STALL_UNPACED_MIN_NS). measured 0 in a result saved
	 * before stalls were looked for. */
	struct sm_stalls stalls;
	struct sm_cliff cliff;       /* write tests: a fall of the write rate over the
				      * series, derived by sm_frames_analyse()
				      * (docs/cliff.md); zero for reads */
};

/* Release what a result owns (the series). */
void sm_frames_result_release(struct sm_frames_result *res);

/* *out = a - b, counter by counter (t_ns too). */
void sm_frames_snap_diff(const struct sm_frames_snap *a, const struct sm_frames_snap *b,
			 struct sm_frames_snap *out);

/* The arrays of the JSON's frames "series" (one per field of a sample, as
 * deltas: duration, bytes, items, dropped, open, io, close, frame time)
 * and of "frames.per_frame" (the frame map's columns; the sched_* four in
 * paced runs only): the one spelling their writers and their reader
 * (result/json_read_frames.c) use. */
#define SM_FRAMES_SERIES_KEYS 8
extern const char *const sm_frames_series_keys[SM_FRAMES_SERIES_KEYS];
#define SM_FRAMES_MAP_KEYS 9
#define SM_FRAMES_MAP_KEYS_UNPACED 5
extern const char *const sm_frames_map_keys[SM_FRAMES_MAP_KEYS];

/* Name of frame file k under plan->path into buf (with the -d directory):
 * frame<plan->first + k>.tst; a stream's file is plan->path. Returns 0, or
 * -ENAMETOOLONG when it does not fit in len. */
int sm_frames_path(const struct sm_frames_plan *plan, uint64_t k, char *buf, unsigned len);

/* The window of the last `secs` seconds from the series: *out = end - start
 * (t_ns holds the window length). Returns 0, or -ENODATA when the run was
 * shorter than that (out then covers the whole run). */
int sm_frames_window(const struct sm_frames_result *res, unsigned secs,
		     struct sm_frames_snap *out);

#endif
