/* SPDX-License-Identifier: MIT */
/* frametest's histogram axis: 65 character columns on a log scale of frame
 * times, and a frame-time histogram mapped onto them. */
#ifndef SM_REPORT_FRAMETEST_AXIS_H
#define SM_REPORT_FRAMETEST_AXIS_H

#include <stdint.h>

#include "core/hist.h"

/* Ticks at 0.1 .2 .5 1 2 5 10 20 50 100 200 500 1000 ms, 4 or 5 columns
 * apart as in frametest's axis (column 0: < 0.1 ms, column 64: >= 1 s). */
#define SM_FT_COLUMNS 65
#define SM_FT_TICKS 13
extern const unsigned sm_ft_tick_col[SM_FT_TICKS];
extern const double sm_ft_tick_ms[SM_FT_TICKS];

/* The column of a frame time in ns. */
unsigned sm_ft_column(uint64_t ns);

/* Frame counts per column from a histogram of frame times: each bucket
 * goes to the column of its midpoint (buckets are under 0.8% wide, so only
 * values within that of a column's edge can land one column off). */
void sm_ft_columns(const struct sm_hist *h, uint64_t cols[SM_FT_COLUMNS]);

#endif
