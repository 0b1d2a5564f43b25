/* SPDX-License-Identifier: MIT */
/* frametest's histogram axis and the mapping of frame times onto it. */
#include "report/frametest_axis.h"

#include <math.h>
#include <string.h>

const double sm_ft_tick_ms[SM_FT_TICKS] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
const unsigned sm_ft_tick_col[SM_FT_TICKS] = { 0, 5, 11, 16, 21, 27, 32, 37, 43, 48, 53, 59, 64 };

unsigned sm_ft_column(uint64_t ns)
{
	double ms = (double)ns / 1e6;

	if (ms < sm_ft_tick_ms[0])
		return 0;
	for (unsigned j = 0; j + 1 < SM_FT_TICKS; j++) {
		double lo = sm_ft_tick_ms[j], hi = sm_ft_tick_ms[j + 1];
		unsigned c0 = sm_ft_tick_col[j], c1 = sm_ft_tick_col[j + 1];

		if (ms >= hi)
			continue;
		/* Columns c0+1 .. c1 split [lo, hi) evenly on a log scale (a
		 * tick's column holds the values just below it), except that
		 * the last column is only for >= 1 s. */
		if (c1 == SM_FT_COLUMNS - 1)
			c1--;
		return c0 + 1 + (unsigned)((double)(c1 - c0) * log(ms / lo) / log(hi / lo));
	}
	return SM_FT_COLUMNS - 1;
}

void sm_ft_columns(const struct sm_hist *h, uint64_t cols[SM_FT_COLUMNS])
{
	memset(cols, 0, SM_FT_COLUMNS * sizeof(cols[0]));
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->buckets[i])
			continue;
		lo = sm_hist_bucket_low(i);
		hi = sm_hist_bucket_high(i);
		cols[sm_ft_column(lo + (hi - lo) / 2)] += h->buckets[i];
	}
}
