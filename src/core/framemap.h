/* SPDX-License-Identifier: MIT */
/* A per-frame series of fixed size: frame times (and, paced, times from
 * schedule and drops) summarised per column of consecutive frames, so a
 * chart of a 200,000-frame run costs the same as one of 500 frames. */
#ifndef SM_CORE_FRAMEMAP_H
#define SM_CORE_FRAMEMAP_H

#include <stdint.h>

/* Columns at most; a map folds pairs of columns (doubling its width) when a
 * frame falls past the last one, so a run of N frames ends with between
 * SM_FRAMEMAP_COLS / 2 and SM_FRAMEMAP_COLS columns once N passes that. */
#define SM_FRAMEMAP_COLS 1024

/* Frames first..first + width - 1 of the schedule (transfer numbers).
 * Invariants: min_ns <= max_ns and sum_ns >= frames x min_ns when frames > 0;
 * sched_* likewise over sched_frames (paced runs only). */
struct sm_framemap_col {
	uint64_t frames;            /* transferred */
	uint64_t dropped;           /* paced: dropped (capture) or late/skipped (playback) */
	uint64_t min_ns, max_ns, sum_ns;            /* frame time (open + I/O + close) */
	uint64_t sched_frames;                      /* paced: frames with a time from schedule */
	uint64_t sched_min_ns, sched_max_ns, sched_sum_ns;
};

/* Invariants: width is a power of two >= 1; ncols <= SM_FRAMEMAP_COLS and
 * every column past ncols is empty. One writer per map (no locking). */
struct sm_framemap {
	uint64_t width;             /* transfer numbers per column */
	unsigned ncols;             /* 1 + the last column that holds anything */
	struct sm_framemap_col col[SM_FRAMEMAP_COLS];
};

/* Empty map of width 1 (m is caller-owned storage). */
void sm_framemap_init(struct sm_framemap *m);

/* Transfer seq took frame_ns; sched_ns (when have_sched) is its time from
 * schedule. O(1) except when the map folds (O(SM_FRAMEMAP_COLS), at most
 * 64 times in a map's life); no allocation. */
void sm_framemap_add(struct sm_framemap *m, uint64_t seq, uint64_t frame_ns, int have_sched,
		     uint64_t sched_ns);

/* Transfer seq was dropped by the schedule. */
void sm_framemap_drop(struct sm_framemap *m, uint64_t seq);

/* Add src into dst, first folding whichever is narrower to the other's
 * width. Never fails. */
void sm_framemap_merge(struct sm_framemap *dst, const struct sm_framemap *src);

/* Fold m until its width is at least width (a power of two). */
void sm_framemap_widen(struct sm_framemap *m, uint64_t width);

#endif
