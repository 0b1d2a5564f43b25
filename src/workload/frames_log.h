/* SPDX-License-Identifier: MIT */
/* The per-frame log (-x FILE): a record sink that streams one line per
 * frame to the file. The lines are formatted by the caller's functions
 * (the command passes report/frames_csv.h's): this file only writes. */
#ifndef SM_WORKLOAD_FRAMES_LOG_H
#define SM_WORKLOAD_FRAMES_LOG_H

#include "core/outfile.h"
#include "result/frames.h"

#include <stdatomic.h>
#include <stddef.h>

/* How the log's lines are spelled. */
struct sm_frames_log_format {
	const char *header;   /* written first, as is */
	size_t line_max;      /* the longest line line() writes */
	/* the line of r into buf (len bytes, as snprintf; returns its count) */
	int (*line)(char *buf, size_t len, const struct sm_frame_record *r);
};

/* The file and the sink writing to it; caller-owned storage. */
struct sm_frames_log {
	struct sm_frames_sink sink;
	struct sm_outfile file;   /* written under a temporary name, renamed when closed */
	int fd;                   /* file.fd while open, else -1 */
	_Atomic int err;   /* -errno of the first failed write of any thread, or 0 */
	const struct sm_frames_log_format *fmt;
	char path[4096];
};

/* Create path (under a temporary name beside it, core/outfile.h) and write
 * fmt's header; c->sink is then ready for plan.sink. fmt must outlive the
 * log. Returns 0, or -errno (nothing to close, nothing left, on failure). */
int sm_frames_log_open(struct sm_frames_log *c, const char *path,
		       const struct sm_frames_log_format *fmt);

/* The first write that failed (-errno), 0 when every row so far was
 * written whole. Any thread; read it after the run to know the file is
 * complete. */
int sm_frames_log_error(struct sm_frames_log *c);

/* Close the file and rename it into place; after a failed write
 * (sm_frames_log_error()) it is removed and what path held stays. Returns
 * 0 or -errno (the failed write's). */
int sm_frames_log_close(struct sm_frames_log *c);

#endif
