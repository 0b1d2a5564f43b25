/* SPDX-License-Identifier: MIT */
/* The lines of the per-frame CSV log (-x FILE; docs/frames.md lists the
 * columns): pure formatting, no file. The writer that streams them to the
 * file while a test runs is workload/frames_log.c. */
#ifndef SM_REPORT_FRAMES_CSV_H
#define SM_REPORT_FRAMES_CSV_H

#include <limits.h>
#include <stddef.h>

#include "result/frames.h"

/* The header line, with its line break. */
extern const char sm_frames_csv_header[];

/* The longest line sm_frames_csv_line() writes: a quoted path and a dozen
 * numbers. */
#define SM_FRAMES_CSV_LINE_MAX (2 * PATH_MAX + 512)

/* The line of record r, with its line break, into buf (len bytes, as
 * snprintf: cut and terminated when it does not fit). Returns snprintf's
 * count (the length the whole line has). */
int sm_frames_csv_line(char *buf, size_t len, const struct sm_frame_record *r);

#endif
