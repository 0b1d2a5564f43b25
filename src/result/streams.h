/* SPDX-License-Identifier: MIT */
/* The result of `stormark streams`: for each stream format, frame rate and
 * direction, the paced steps of the search (N concurrent streams, each
 * stream's figures) and the largest N held. Data only; filled by
 * workload/streams*.c, judged by analysis/streams.c. docs/streams.md. */
#ifndef SM_RESULT_STREAMS_H
#define SM_RESULT_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/stall.h"

#include "core/formats.h"
#include "core/sformats.h"
#include "result/cliff.h"
#include "result/result.h"
#include "result/verdict.h"

/* Most concurrent streams one step may run (--max-streams at most this). */
#define SM_STREAMS_MAX 1024

/* What one stream of a step did (one client, its own pacing model). */
struct sm_stream_fig {
	uint64_t scheduled;         /* frames the step meant to move */
	uint64_t done;              /* frames moved */
	uint64_t dropped;           /* capture: dropped; playback: late or skipped */
	uint64_t longest_run;       /* longest run of consecutive drops */
	uint64_t bytes;             /* bytes moved */
	uint64_t p999_sched_ns;     /* p99.9 frame time from schedule (docs/pacing.md);
				     * playback: of the frames after the first
				     * `queue` (those are the start-up, startup_ns) */
	uint64_t max_sched_ns;
	uint64_t max_queue;         /* most buffers in use */
	uint64_t startup_ns;        /* playback: from the common start to frame 0
				     * shown (the pre-buffer read); capture: 0 */
	int error;                  /* -errno of a failed transfer, 0 */
};

/* A group's figures in one step (analysis: sm_streams_mix_judge). */
struct sm_streams_group_fig {
	int held;                   /* every stream of the group held */
	unsigned streams_held;      /* how many of them did */
	uint64_t scheduled, done;   /* frames, all its streams */
	uint64_t dropped;
	uint64_t bytes;
	uint64_t worst_p999_ns;     /* the largest stream p99.9 from schedule */
	uint64_t max_sched_ns;      /* the worst frame time from schedule */
	double bytes_per_s;         /* bytes / the group's schedule span: the rate moved */
};

/* One paced run of n streams started at once, and with a mix (docs/streams.md,
 * "Mixes") the mix's streams beside them, started with them. */
struct sm_streams_step {
	unsigned n;
	int held;                   /* analysis: every stream held, the mix's too
				     * (sm_streams_step_judge, sm_streams_mix_judge) */
	int complete;               /* 1: ran to its end (not stopped, no error) */
	uint64_t duration_ns;       /* from the common start to the last completion */
	uint64_t schedule_ns;       /* the schedule's span: frames x interval */
	uint64_t bytes;             /* all n streams, and with a mix the mix's streams
				     * of the same direction (they share the storage's
				     * capacity in that direction: the headroom rule's) */
	double bytes_per_s;         /* analysis: bytes / schedule span */
	double delivered_bytes_per_s;   /* analysis: bytes / duration (what the
				     * storage delivered; at saturation, its limit) */
	uint64_t dropped;           /* analysis: all n streams */
	uint64_t worst_p999_ns;     /* analysis: the largest stream p99.9 */
	/* Times no frame of the step completed (core/stall.h), counted
	 * against the shortest buffer of its streams (queue x interval);
	 * measured 0 in a result saved before they were looked for. */
	struct sm_stalls stalls;
	uint64_t cpu_ns;            /* the tool's own CPU while the step ran: this
				     * process's user + system time, every thread and
				     * io_uring's workers (the kernel's copies are
				     * here; an MPI job: every rank's); 0 when not
				     * measured (saved before) */
	struct sm_stream_fig *streams;   /* n of them */
	/* A mix's streams in this step (0 and NULL without a mix): group by
	 * group in the mix's order, stream i of the step being mix stream i
	 * for i < nmix and streams[i - nmix] after (the order an MPI job
	 * spreads them in: stream i on rank i mod P). */
	unsigned nmix;
	struct sm_stream_fig *mix_streams;
	/* analysis (sm_streams_mix_judge): per group of the mix (the mix's
	 * ngroups), and all of the mix together */
	struct sm_streams_group_fig *mix_groups;
	struct sm_streams_group_fig mix_total;
};

/* The sustained confirmation of a capture cell's answer. */
enum sm_streams_confirm {
	SM_CONFIRM_NONE = 0,        /* playback, no answer to confirm, or an older result */
	SM_CONFIRM_RAN,             /* ran: cliff, confirm_* are its figures */
	SM_CONFIRM_NO_TIME,         /* the --time budget left too little: not checked */
	SM_CONFIRM_FAILED,          /* a read or write of it failed: not checked
				     * (confirm_note says which) */
	SM_CONFIRM_NO_ROOM,         /* beside a mix: no room for the mix's playback
				     * files of so long a step: not checked */
};

/* A format at a frame rate in one direction: the search and its answer. */
struct sm_streams_cell {
	char format[40];            /* "prores-hq-uhd", "dpx-2k" */
	char codec[48];             /* "Apple ProRes 422 HQ", "DPX 10-bit RGB" */
	int sequence;               /* 1: a frame-sequence format, each stream a
				     * directory of one file per frame */
	char fps_name[16];          /* "25", "29.97" */
	double fps;
	enum sm_direction dir;
	double frame_bytes;         /* the vendor's figure for one frame */
	uint64_t chunk_bytes;       /* the most moved in one frame interval (4 KiB
				     * multiple): frames move by a byte schedule
				     * (core/sformats.h, sm_sformat_offset) */
	double rate;                /* published bytes/s a stream needs */
	double moved_rate;          /* bytes/s that schedule moves in the long run:
				     * rate, or one 4 KiB block a frame for a frame
				     * under 4 KiB (an older result: chunk x fps,
				     * each frame rounded up) */
	uint64_t interval_ns;       /* 1 / fps */
	double base_rate;           /* searched alongside a mix: the published
				     * bytes/s of the mix's streams of this direction,
				     * which every step carries besides the n (the
				     * headroom rule's demand is base + n x rate);
				     * 0 without a mix */
	int measured;               /* analysis (sm_streams_cell_finish): a step was
				     * judged, or a heavier format settled it at the
				     * cap; 0: not measured (a fault, the budget, no
				     * room, a stop before it: note says why), and
				     * max_raw, max_headroom, agg and sustained are
				     * no figure (null in the JSON), not 0 */
	unsigned max_raw;           /* largest n held in every trial, every n below it
				     * too (0: not even one) */
	/* analysis (sm_streams_trials over the complete steps): each step of
	 * the boundary is repeated (--trials): how many trials held at
	 * max_raw and at first_fail, and max_high, the largest n held in any
	 * trial: above max_raw when the answer moved between trials (a range,
	 * "2-3"). */
	unsigned raw_held, raw_trials;
	unsigned fail_held, fail_trials;
	unsigned max_high;
	int trials_known;           /* the search ran trials (0 in a result saved
				     * before them: the fields above are then one
				     * step each, and not written) */
	/* Consistent answers (docs/streams.md): a lower rate of the same
	 * format and direction held fewer streams and failed right above
	 * them, and this cell's own steps at that count held again when they
	 * were run again (rechecks of them): its answer is bounded by the
	 * lower rate's, bound_n at bound_fps. own_raw is the answer of its own
	 * trials (max_raw when not bounded). */
	int bounded;
	unsigned bound_n, own_raw, rechecks;
	char bound_fps[16];
	unsigned max_headroom;      /* largest n with 20% headroom (run's rule) */
	unsigned first_fail;        /* smallest n that failed, 0: none failed */
	int at_cap;                 /* held at --max-streams: the answer is "at least",
				     * and so is max_headroom unless lowered */
	int searched;               /* 1: the search ended (not stopped by the
				     * budget, a signal or an error) */
	char note[600];             /* why it did not finish, or "" */
	double agg_bytes_per_s;     /* aggregate rate of the step at max_raw */
	double sustained_bytes_per_s;   /* the most the storage delivered in a
				     * step: at max_raw, or at first_fail (then at
				     * most first_fail x rate): the headroom
				     * rule's measure */
	unsigned nsteps;
	struct sm_streams_step *steps;   /* in the order they ran */
	/* Capture: the sustained confirmation step of max_headroom streams
	 * run after the search (docs/streams.md), and the cliff looked for in
	 * its per-second aggregate write rate. */
	enum sm_streams_confirm confirm;
	unsigned confirm_n;         /* streams in it */
	uint64_t confirm_ns;        /* its length */
	int confirm_held;           /* it held (no drop, within the queue) */
	uint64_t confirm_dropped;   /* frames it dropped, all streams */
	double confirm_bytes_per_s; /* what it delivered: bytes / duration */
	unsigned headroom_burst;    /* max_headroom before it (the 5 s steps' answer) */
	int lowered;                /* it lowered max_headroom (the '!' of the table) */
	struct sm_cliff cliff;      /* looked = 0 unless it ran long enough */
	char confirm_note[240];     /* why the answer fell, why it was not run, or "" */
};

/* One group of a mix, COUNTxFORMAT@FPS:play|capture (docs/streams.md,
 * "Mixes"): as planned (workload/streams_mix.c parses it; its name,
 * sm_streams_group_name). */
#define SM_STREAMS_MAX_GROUPS 32
struct sm_streams_group {
	char format[40];
	char codec[48];
	char fps_name[16];
	double fps;
	enum sm_direction dir;
	int sequence;               /* one file per frame */
	unsigned count;             /* streams in the group */
	double frame_bytes;         /* as in a cell */
	uint64_t chunk_bytes;
	double rate;                /* published bytes/s of one stream */
	double moved_rate;
	double needed;              /* count x rate: the group's published bytes/s */
	uint64_t interval_ns;
};

/* A mix: its groups and, once run alone, its step (docs/streams.md). */
struct sm_streams_mix {
	char spec[2048];            /* the groups as sm_streams_group_name names them, comma-separated */
	unsigned ngroups;
	struct sm_streams_group *groups;
	unsigned nstreams;          /* all groups' streams */
	double needed;              /* all groups' published bytes/s */
	/* The mix alone: one step of --step seconds of every group's streams
	 * (step.n = 0, step.nmix = nstreams). ran 0: not measured, note says
	 * why (a fault, a stop, no room). */
	int ran;
	char note[600];
	struct sm_streams_step step;
	int held;                   /* analysis: every group held (step.held) */
	/* bytes completed in each whole second from the common start, per
	 * group: sec_bytes[g x nsec + s], then all groups together:
	 * sec_bytes[ngroups x nsec + s] */
	unsigned nsec;
	uint64_t *sec_bytes;
};

/* What to run; filled by the command. */
struct sm_live;   /* core/live.h */

struct sm_streams_plan {
	struct sm_live *live;       /* --live: each second of a step, and each step's
				     * end, as a line (NULL: none) */
	const char *dir;            /* the test directory's parent (DIR) */
	const struct sm_sformat *formats;
	unsigned nformats;
	const struct sm_fps *const *rates;   /* frame rates to try */
	unsigned nrates;
	int capture, playback;      /* directions (both by default) */
	int auto_formats;           /* no --video-format: a set, skipping those
				     * that do not fit once */
	uint64_t time_ns;           /* --time: budget for the whole search */
	uint64_t step_ns;           /* --step: length of one paced step */
	unsigned max_streams;       /* --max-streams: cap of the search */
	unsigned trials;            /* --trials: each step of the boundary (the
				     * answer, and the failure above it) repeated
				     * this many times (default 3) */
	unsigned queue;             /* buffers per stream (frames' -q) */
	unsigned prebuffer;         /* playback pre-buffer (frames' -b) */
	unsigned depth;             /* requests in flight per stream */
	const char *engine;         /* "uring" (default) or "psync" */
	unsigned engine_flags;      /* uring: SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL
				     * (engine/engine.h), --sqpoll/--iopoll */
	int direct;                 /* O_DIRECT (default 1) */
	/* --mix: run the mix alone (with no formats: that is all), then search
	 * every format beside it; NULL without. The command's: its groups
	 * are copied into the result. */
	const struct sm_streams_mix *mix;
	/* An MPI job (docs/mpi.md): the other ranks, or NULL alone. Rank 0
	 * runs the search, spreading each step's streams over the ranks;
	 * the others serve (sm_streams_serve). */
	const struct sm_streams_peers *peers;
};

struct sm_streams_result {
	struct sm_result_head head;
	struct sm_streams_plan plan;     /* as run (formats and rates point into the
				     * command's arrays: not valid after it) */
	uint64_t time_ns, step_ns;       /* copies of plan for the reporters */
	unsigned max_streams, queue, prebuffer, depth;
	unsigned trials;                 /* plan.trials; 0 in a result saved before them */
	char data_dir[4096];             /* the test directory */
	unsigned ncells;
	struct sm_streams_cell *cells;
	struct sm_streams_mix mix;       /* ngroups 0: no mix */
	int error;                       /* first -errno that stopped it, or 0 */
	/* An MPI job: the steps' streams were spread over `ranks` ranks,
	 * stream i of a step on rank i mod ranks (0: alone); this rank's
	 * own share of every step; rank_lost: a rank did not answer within
	 * the job's bounded wait (the job cannot end cleanly). */
	unsigned ranks;
	uint64_t rank_bytes, rank_frames;
	int rank_lost;
	/* Rank 0 of an MPI job, after the search: the ranks' hosts
	 * (rank_host[r] indexes hosts[]) and, per cell, how its streams were
	 * spread: share[cell x (ranks + nhosts) + j], j < ranks a rank, then
	 * the hosts (analysis/streams_spread.c). NULL alone. */
	unsigned nhosts;
	char (*hosts)[64];
	unsigned *rank_host;
	struct sm_streams_share *share;
	/* with a mix: each rank's (j < ranks) and host's (ranks + h) streams
	 * of the mix alone and how many of them held (NULL otherwise) */
	struct sm_streams_mix_share *mix_share;
};

/* One rank's (or host's) part of the mix run alone. */
struct sm_streams_mix_share {
	unsigned streams;           /* mix streams it served */
	unsigned held;              /* of those, the streams that held */
};

/* One rank's (or host's) part of a cell's answer. */
struct sm_streams_share {
	unsigned at_n;              /* streams it served in the step of max_raw
				     * (all held: the step held) */
	unsigned at_fail;           /* streams it served in the step of
				     * first_fail (0: no step failed) */
	unsigned held_at_fail;      /* of those, the streams that held */
};

/* "ran", "no_time", "failed", "no_room" (JSON, csv); "" for SM_CONFIRM_NONE. */
const char *sm_streams_confirm_name(enum sm_streams_confirm s);

/* Free the cells and their steps, and the mix. */
void sm_streams_result_release(struct sm_streams_result *res);

/* Free a step's figures (its streams, the mix's, its group figures). */
void sm_streams_step_release(struct sm_streams_step *st);

/* "sequence" (one file per frame) or "file" (one file per stream): the
 * JSON's and csv's "kind". */
const char *sm_streams_kind_name(int sequence);

/* The group as its mix names it: "2xprores-hq-hd@25:play". */
void sm_streams_group_name(const struct sm_streams_group *g, char *buf, size_t len);

/* The cell of format fmt at rate fps in direction d, or NULL when res has
 * none; the pointer is into res->cells. */
const struct sm_streams_cell *sm_streams_find_cell(const struct sm_streams_result *res, const char *fmt,
						   const char *fps, enum sm_direction d);

/* The distinct formats (rates 0) or frame rates (rates 1) of res's cells,
 * in the cells' order, into out[0..max): pointers into res. Returns how
 * many (at most max). */
unsigned sm_streams_distinct(const struct sm_streams_result *res, int rates, const char **out, unsigned max);

#endif
