/* SPDX-License-Identifier: MIT */
/* The memory each workload's large buffers and per-thread statistics take,
 * computed from its plan before anything runs, so a command can check it
 * against the memory available (core/memcheck.h) and refuse up front. */
#ifndef SM_WORKLOAD_MEMNEED_H
#define SM_WORKLOAD_MEMNEED_H

#include <stddef.h>
#include <stdint.h>

#include "result/fileio.h"
#include "result/frames.h"
#include "result/run.h"
#include "result/streams.h"

/* Bytes fileio takes for cfg: `prepare` (1) its per-thread write chunk,
 * or (0) a run's per-thread request buffers (--file-block-size x
 * --file-merged-requests x the async backlog) and statistics, and with
 * --verify or --validate its maps of every block (16 bytes each: this
 * run's latest write and the block map). Saturates at UINT64_MAX; what is
 * one line into what (e.g. "fileio's I/O buffers (16.0 GiB x 1 thread x 1
 * request in flight)"). */
uint64_t sm_fileio_mem_need(const struct sm_fileio_cfg *cfg, int prepare, char *what, size_t len);

/* Bytes a frames run of plan takes: a buffer of one frame per slot (-a
 * depth, 1 when synchronous) per thread, and each thread's histograms.
 * Call after sm_frames_check() (a read test's frame size is known then). */
uint64_t sm_frames_mem_need(const struct sm_frames_plan *plan, char *what, size_t len);

/* Bytes the largest test of `stormark run` takes with plan's threads: the
 * frame tests at the largest preset size (the classic tests need less).
 * Paced runs of larger formats are checked one by one as they come. */
uint64_t sm_run_mem_need(const struct sm_run_plan *plan, char *what, size_t len);

/* Bytes a streams search of plan takes at most: the one buffer every
 * stream of a step shares (a chunk of the largest format and rate of the
 * plan; the playback files are written from a buffer of the same size,
 * freed before the step starts) and each of --max-streams streams' own
 * statistics, pacing model and requests; for a frame-sequence capture,
 * the frames' alias buffers too (one frame, a page a request, and each
 * request's page tables over the whole frame); with a
 * mix, its groups' chunks and streams too. Call with plan->formats,
 * rates, capture, depth, max_streams and mix set. */
uint64_t sm_streams_mem_need(const struct sm_streams_plan *plan, char *what, size_t len);

#endif
