/* SPDX-License-Identifier: MIT */
/* Stalls: the times a running test completed nothing at all, found by a
 * sampler that reads the workers' completion count at a fine period, and
 * counted against the buffer a verdict assumes (docs/methodology.md,
 * "Stalls"). */
#ifndef SM_CORE_STALL_H
#define SM_CORE_STALL_H

#include <stdint.h>

/* The detector's period: a stall's length is known to within it. */
#define SM_STALL_PERIOD_NS 10000000ull         /* 10 ms */
/* Gaps shorter than this are not kept (the shortest buffer of run's
 * verdict table, 8 frames at 120 fps, is 67 ms). */
#define SM_STALL_FLOOR_NS 50000000ull          /* 50 ms */
/* The longest gaps kept, longest first. */
#define SM_STALL_KEEP 16
/* A test without a rate (and so without a buffer of its own) counts the
 * gaps longer than twice its median request time, and at least this: a
 * gap its own requests do not explain. */
#define SM_STALL_UNPACED_MIN_NS 100000000ull   /* 100 ms */

struct sm_stall {
	uint64_t at_ns;    /* when the gap began: the last completion before it
			    * (to within the period), since the test's start */
	uint64_t len_ns;   /* how long nothing completed, a lower bound to
			    * within the period */
};

/*
 * A test's stalls. Invariants: kept[] is sorted longest first, every entry
 * at least SM_STALL_FLOOR_NS, nkept <= SM_STALL_KEEP and nkept <= gaps;
 * longest_ns is kept[0].len_ns when nkept > 0 (it may be under the floor
 * otherwise); count is the gaps longer than threshold_ns, at least (an
 * exact count while nkept < SM_STALL_KEEP or kept[nkept - 1] is under the
 * threshold; count_capped says when it is only a lower bound).
 */
struct sm_stalls {
	int measured;              /* the detector ran over the test */
	uint64_t period_ns;        /* SM_STALL_PERIOD_NS */
	uint64_t longest_ns;       /* the longest time with no completion, after the
				    * first one and up to the test's end */
	uint64_t gaps;             /* gaps of at least SM_STALL_FLOOR_NS */
	uint64_t threshold_ns;     /* the buffer the test's verdict assumes */
	uint64_t count;            /* gaps longer than threshold_ns */
	int count_capped;          /* count is a lower bound (every kept gap is past
				    * the threshold and more were found) */
	unsigned nkept;
	struct sm_stall kept[SM_STALL_KEEP];
};

/* The sampler's state: fed the workers' total completions at each period. */
struct sm_stall_det {
	struct sm_stalls out;
	uint64_t last_count;
	uint64_t quiet_since;      /* the sample that last saw the count change */
	uint64_t cur;              /* the current gap's length so far */
	int started;               /* a completion has been seen */
};

/* Start a detector (time 0 is the test's start). */
void sm_stall_det_init(struct sm_stall_det *d);

/* A sample at t_ns (increasing) of the count of completed requests. The gap
 * before the first completion is not a stall (it is the first request's
 * own time). O(SM_STALL_KEEP) at most, no allocation. */
void sm_stall_det_feed(struct sm_stall_det *d, uint64_t t_ns, uint64_t count);

/* The test ended at end_ns: a gap still open then counts up to it. Fills
 * *out (count and threshold left 0: sm_stalls_count() sets them). */
void sm_stall_det_end(struct sm_stall_det *d, uint64_t end_ns, struct sm_stalls *out);

/* Move every kept gap d ns earlier (the test's clock starts later than the
 * sampler's), none before 0. */
void sm_stalls_shift(struct sm_stalls *s, uint64_t d);

/* Count the gaps longer than threshold_ns into s->count (and
 * count_capped), and keep the threshold. */
void sm_stalls_count(struct sm_stalls *s, uint64_t threshold_ns);

/* Record one gap of len_ns at at_ns (the detector's and a reader's way in). */
void sm_stalls_add(struct sm_stalls *s, uint64_t at_ns, uint64_t len_ns);

/* Add src's gaps to dst, each at_ns + offset_ns (src's test began that long
 * after dst's): the longest of both, every gap counted, the longest kept.
 * dst is measured when either is. Count and threshold are left to
 * sm_stalls_count(). */
void sm_stalls_merge(struct sm_stalls *dst, const struct sm_stalls *src, uint64_t offset_ns);

#endif
