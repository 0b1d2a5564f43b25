/* SPDX-License-Identifier: MIT */
/* Frame-sequence and streaming workload: one file per frame (or frames at
 * consecutive offsets of one file), threads, asynchronous depth, and paced
 * capture/playback with dropped frames (model in docs/pacing.md). */
#ifndef SM_WORKLOAD_FRAMES_H
#define SM_WORKLOAD_FRAMES_H

#include <stdint.h>

#include "result/frames.h"

/* Set every field to stormark's defaults (frametest's where it has one). */
void sm_frames_plan_defaults(struct sm_frames_plan *p);
/* Progress callback, called about every plan.update_ns from the thread that
 * called sm_frames_run() (never from a worker). */
typedef void (*sm_frames_progress_fn)(const struct sm_frames_snap *last_1s,
				      const struct sm_frames_snap *total, void *arg);

/*
 * Check the plan against the file system (paths, existing files that are
 * not stormark's, frames present for a read test) before anything is
 * created. Returns 0, or -errno with a one-line reason in msg:
 * -EINVAL/-ENOTDIR/-EISDIR for a usage problem (exit 2), -ENOENT/-ENODATA
 * for missing or short frames (exit 1), -EEXIST for a file stormark did
 * not create.
 */
int sm_frames_check(struct sm_frames_plan *plan, char *msg, unsigned msglen);

/*
 * Run the plan (call sm_frames_check() first). Fills *res (caller-owned,
 * released with sm_frames_result_release()), keeping the command, argv and
 * started_at the caller put in res->head (sm_result_head_begin()). Returns 0 when every frame was
 * moved, -EINTR when a signal stopped it (res holds the partial result),
 * or another -errno with res->head.error set (res still holds what was
 * measured).
 */
int sm_frames_run(const struct sm_frames_plan *plan, struct sm_frames_result *res,
		  sm_frames_progress_fn progress, void *arg);

/*
 * --verify: read every frame of the plan back once and check its 4 KiB
 * blocks' trailers (frames_verify.c); counts, problems and the pass's bytes
 * and time go to st. A write test (plan->verify_run set) expects its own
 * run in every block of the frames it wrote (plan->verify_written); a read
 * test expects each frame to be whole from one write and every frame from
 * the newest run seen. Returns 0 (problems are in st, not errors), -EINTR
 * when stopped by a signal, or -errno when a frame cannot be read.
 */
int sm_frames_verify_pass(const struct sm_frames_plan *plan, struct sm_verify_stats *st);

/* --verify, read test: refuse frames that carry no trailer at all (the
 * first block of the first, middle and last frame), before the test.
 * Returns 0, -ENOMEDIUM with msg (a usage problem), or -ENOMEM. */
int sm_frames_verify_ready(const struct sm_frames_plan *plan, char *msg, unsigned msglen);

/* The directory id of the stormark frames in dir (the first frame file
 * found there whose header is valid) into *id. Returns 1, 0 when dir holds
 * none, or -errno when it cannot be read. Reads headers only, writes
 * nothing. */
int sm_frames_find_dir_id(const char *dir, uint64_t *id);

#endif
