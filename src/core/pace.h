/* SPDX-License-Identifier: MIT */
/* Paced frame schedules: the capture model (frames arrive at a rate into a
 * FIFO of q buffers; a frame arriving to a full FIFO is dropped) and the
 * playback model (a ring of q buffers read ahead of the display; display
 * starts after b frames; a frame not complete at its due time is dropped).
 * The model is documented in docs/pacing.md. Pure logic on the times it is
 * given, so it is unit-tested with made-up clocks; callers lock around it. */
#ifndef SM_PACE_H
#define SM_PACE_H

#include <stdint.h>

#include "core/framemap.h"
#include "core/hist.h"

enum sm_pace_kind { SM_PACE_CAPTURE, SM_PACE_PLAYBACK };

/* The lowest paced rate accepted (frames -f, fileio --rate), per second:
 * one frame or event every 100 s. Slower than that a run shows nothing for
 * minutes and looks hung; no storage figure needs it. */
#define SM_RATE_MIN 0.01
/* The longest schedule a paced run may have without --time: 30 days
 * (frames at -f F for -n N take N / F seconds). */
#define SM_PACED_MAX_S (30.0 * 24 * 3600)

/* What a claim returned. */
enum sm_pace_claim {
	SM_PACE_GO = 0,     /* *seq is the frame to transfer now, *sched its time */
	SM_PACE_WAIT,       /* nothing to do before *wake_ns (or a completion) */
	SM_PACE_DONE,       /* every frame has been handed out or dropped */
};

/* Playback buffer: holds frame seq from its claim until it is displayed
 * (if complete by its due time) or completes late. */
struct sm_pace_buf {
	uint64_t seq;
	uint64_t t_done;
	int used;
	int done;
};

struct sm_pace {
	enum sm_pace_kind kind;
	uint64_t total;             /* frames in the schedule */
	uint64_t t0;                /* capture: arrival of frame 0 */
	double interval_ns;         /* 1e9 / fps */
	unsigned q;                 /* buffers */
	unsigned b;                 /* playback: pre-buffer */
	struct sm_hist *early;      /* playback lateness: early frames except the
				     * b pre-buffered ones (on time by
				     * construction), and late frames; */
	struct sm_hist *late;
	struct sm_framemap *drops;  /* NULL, or where each dropped frame is marked
				     * (set after sm_pace_init; written under the
				     * caller's lock, as the rest of the pace) */

	/* capture */
	uint64_t next_arrival;      /* first frame whose arrival is not processed */
	uint64_t *fifo;             /* q waiting frames, oldest at fifo_head */
	unsigned fifo_head, fifo_len;

	/* playback */
	struct sm_pace_buf *bufs;   /* q buffers */
	uint64_t next_issue;        /* next frame to hand out */
	uint64_t next_display;      /* next frame the display will show */
	uint64_t completed;
	int started;
	uint64_t t_start;           /* due time of frame 0 */

	/* results */
	uint64_t dropped;           /* capture: never written; playback: late or skipped */
	uint64_t skipped;           /* playback: due before it could be read: never read */
	uint64_t shown_prebuffer;   /* playback: pre-buffered frames shown (not in early) */
	uint64_t run, longest_run;  /* consecutive drops, in frame order */
	uint64_t max_queue;         /* most frames waiting (capture) / buffers used (playback) */
};

/* Set up a schedule of total frames at fps with q buffers (and b pre-buffer
 * frames for playback). Returns 0, -EINVAL for fps <= 0 or q == 0, or
 * -ENOMEM. t0 is set by sm_pace_start(). */
int sm_pace_init(struct sm_pace *p, enum sm_pace_kind kind, uint64_t total, double fps,
		 unsigned q, unsigned b, struct sm_hist *early, struct sm_hist *late);
void sm_pace_release(struct sm_pace *p);

/* The clock starts: frame 0 arrives (capture) at t0. */
void sm_pace_start(struct sm_pace *p, uint64_t t0);

/*
 * A worker is free at time now. GO: transfer frame *seq; *sched is its
 * arrival (capture) or 0 until the display has started (playback; the due
 * time is known later, see sm_pace_due()). WAIT: call again at *wake_ns or
 * after a completion. DONE: nothing left.
 * Capture drops frames that arrive to a full FIFO as time passes; playback
 * skips (drops) frames whose due time passed before a buffer was free.
 */
enum sm_pace_claim sm_pace_claim(struct sm_pace *p, uint64_t now, uint64_t *seq,
				 uint64_t *sched, uint64_t *wake_ns);

/*
 * Frame seq finished at t_done (call in any order, under the caller's lock).
 * Playback: may start the display (after b completions). Returns 1 if the
 * frame missed its due time (dropped), else 0 (also while not yet known).
 */
int sm_pace_complete(struct sm_pace *p, uint64_t seq, uint64_t t_done);

/* Playback: due time of frame seq once the display has started, else 0. */
uint64_t sm_pace_due(const struct sm_pace *p, uint64_t seq);

/* End of the run (every claimed frame has completed): judge the frames the
 * display has not reached yet. Frames never claimed (a stopped run) are not
 * counted. */
void sm_pace_finish(struct sm_pace *p);

#endif
