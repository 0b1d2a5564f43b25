/* SPDX-License-Identifier: MIT */
/* Reporters of a frames result: frametest's text layout, JSON, and the
 * live progress line. */
#ifndef SM_REPORT_FRAMETEST_H
#define SM_REPORT_FRAMETEST_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/frames.h"

/* frametest's report, section for section and line for line (docs/frames.md),
 * nothing of stormark's own in it; params is the "Test parameters" string in
 * frametest's attached form. */
void sm_report_frametest(FILE *f, const struct sm_frames_result *r, const char *params);

/* A paced run's (-f) own lines, printed after frametest's whole block
 * (after "Writing log file..." too) so that scripts reading frametest's
 * lines by position still find them: frames dropped, frame time from
 * schedule, lateness (playback), buffers used. Nothing when not paced. */
void sm_report_frametest_paced(FILE *f, const struct sm_frames_result *r);

/* The frames part of the JSON document ("params", "totals", "ops", "series",
 * "frames") and the end of the head ("warnings", "errors") added to doc, a
 * document from sm_json_doc_new(&r->head). */
void sm_json_frames(cJSON *doc, const struct sm_frames_result *r);

/* The paced verdict line of --video-format ("\ndpx-2k capture at 24 fps:
 * realtime (...)"), from r->video_format and the paced summary of r.
 * Returns the verdict (enum sm_verdict), or -1 when undecided. */
int sm_report_paced_verdict(FILE *f, const struct sm_frames_result *r);

/* The whole frametest layout as a live run prints it on stdout: the
 * report, "Writing log file..." with -x, the paced lines, the verdict
 * line with a video format. */
void sm_report_frametest_all(FILE *f, const struct sm_frames_result *r);

/* One progress line ("\r..." without newline) for a terminal. */
void sm_progress_frames(FILE *f, const struct sm_frames_snap *last_1s,
			const struct sm_frames_snap *total, uint64_t nframes);

#endif
