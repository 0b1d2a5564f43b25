/* SPDX-License-Identifier: MIT */
/* The ranks of a `run` job that fell behind in a test: the rank table's
 * straggler rule (analysis/dist.h) applied test by test. */
#include "analysis/run_dist.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/dist.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void sm_run_dist_slow(struct sm_run_rank_best *b, unsigned nranks, const double *rate,
		      const char (*name)[24])
{
	double *v = calloc(nranks ? nranks : 1, sizeof(*v));

	if (!v)
		return;
	for (unsigned t = 0; t < SM_RUN_DIST_TESTS; t++) {
		unsigned n = 0;
		double med;

		for (unsigned r = 0; r < nranks; r++)
			if (rate[r * SM_RUN_DIST_TESTS + t] > 0)
				v[n++] = rate[r * SM_RUN_DIST_TESTS + t];
		if (n < 2)
			continue;
		qsort(v, n, sizeof(*v), cmp_double);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		for (unsigned r = 0; r < nranks; r++) {
			double x = rate[r * SM_RUN_DIST_TESTS + t];

			if (x > 0 && x < SM_DIST_STRAGGLER * med && b[r].nslow < SM_RUN_DIST_TESTS)
				snprintf(b[r].slow[b[r].nslow++], sizeof(b[r].slow[0]), "%s", name[t]);
		}
	}
	free(v);
}
