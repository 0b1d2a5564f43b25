/* SPDX-License-Identifier: MIT */
/* The per-frame CSV log (-x FILE): a record sink that streams one line per
 * frame to the file (docs/frames.md lists the columns). */
#ifndef SM_REPORT_FRAMES_CSV_H
#define SM_REPORT_FRAMES_CSV_H

#include "core/outfile.h"
#include "result/frames.h"

#include <stdatomic.h>

/* The file and the sink writing to it; caller-owned storage. */
struct sm_frames_csv {
	struct sm_frames_sink sink;
	struct sm_outfile file;   /* written under a temporary name, renamed when closed */
	int fd;                   /* file.fd while open, else -1 */
	_Atomic int err;   /* -errno of the first failed write of any thread, or 0 */
	char path[4096];
};

/* Create path (under a temporary name beside it, core/outfile.h) and write
 * the header; c->sink is then ready for plan.sink. Returns 0, or -errno
 * (nothing to close, nothing left, on failure). */
int sm_frames_csv_open(struct sm_frames_csv *c, const char *path);

/* The first write that failed (-errno), 0 when every row so far was
 * written whole. Any thread; read it after the run to know the file is
 * complete. */
int sm_frames_csv_error(struct sm_frames_csv *c);

/* Close the file and rename it into place; after a failed write
 * (sm_frames_csv_error()) it is removed and what path held stays. Returns
 * 0 or -errno (the failed write's). */
int sm_frames_csv_close(struct sm_frames_csv *c);

#endif
