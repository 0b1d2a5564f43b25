/* SPDX-License-Identifier: MIT */
/* First and last done, the job's rates, the hosts and the stragglers of a
 * many-host run, computed once for every layout. */
#include "analysis/dist.h"
#include "core/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place); 0 when n is 0. */
static double median(double *v, unsigned n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int hosts(struct sm_dist_result *d)
{
	double *v;
	unsigned nv = 0;

	free(d->host);
	d->nhosts = 0;
	d->host = calloc(d->nranks ? d->nranks : 1, sizeof(*d->host));
	v = calloc(d->nranks ? d->nranks : 1, sizeof(*v));
	if (!d->host || !v) {
		free(v);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];
		struct sm_dist_host *h = NULL;

		for (unsigned j = 0; j < d->nhosts && !h; j++)
			if (!strcmp(d->host[j].host, r->host))
				h = &d->host[j];
		if (!h) {
			h = &d->host[d->nhosts++];
			snprintf(h->host, sizeof(h->host), "%s", r->host);
		}
		h->ranks++;
		if (!r->reported)
			continue;
		h->reported++;
		h->bytes += r->bytes;
		h->items += r->items;
		if (r->done_ns > h->done_ns)
			h->done_ns = r->done_ns;
	}
	for (unsigned j = 0; j < d->nhosts; j++) {
		struct sm_dist_host *h = &d->host[j];

		h->bytes_per_s = sm_per_s((double)h->bytes, h->done_ns);
		if (h->reported)
			v[nv++] = h->bytes_per_s / h->reported;
	}
	if (nv >= 2) {
		double m = median(v, nv);

		for (unsigned j = 0; j < d->nhosts; j++)
			d->host[j].straggler = d->host[j].reported &&
				d->host[j].bytes_per_s / d->host[j].reported < SM_DIST_STRAGGLER * m;
	}
	free(v);
	return 0;
}

int sm_dist_analyse(struct sm_dist_result *d)
{
	double *v = calloc(d->nranks ? d->nranks : 1, sizeof(*v));
	unsigned nv = 0;

	if (!v)
		return -ENOMEM;
	d->nreported = 0;
	d->first_rank = -1;
	d->first_done_ns = d->last_done_ns = d->bytes = d->min_bytes = 0;
	d->stragglers = 0;
	for (unsigned i = 0; i < d->nranks; i++) {
		struct sm_dist_rank *r = &d->rank[i];

		r->straggler = 0;
		r->bytes_per_s = r->reported ? sm_per_s((double)r->bytes, r->done_ns) : 0;
		if (!r->reported)
			continue;
		/* the first done is a rank that ended its own work; with clocks
		 * started at one barrier, a rank the stonewall stopped may show
		 * a few ms less than the rank that stopped it */
		if (!r->walled && (d->first_rank < 0 || r->done_ns < d->first_done_ns)) {
			d->first_rank = r->rank;
			d->first_done_ns = r->done_ns;
		}
		if (r->done_ns > d->last_done_ns)
			d->last_done_ns = r->done_ns;
		if (!d->nreported || r->bytes < d->min_bytes)
			d->min_bytes = r->bytes;
		d->bytes += r->bytes;
		d->nreported++;
		v[nv++] = r->bytes_per_s;
	}
	for (unsigned i = 0, all_walled = d->first_rank < 0; i < d->nranks && all_walled; i++) {
		const struct sm_dist_rank *r = &d->rank[i];

		if (r->reported && (d->first_rank < 0 || r->done_ns < d->first_done_ns)) {
			d->first_rank = r->rank;   /* all were stopped: the earliest */
			d->first_done_ns = r->done_ns;
		}
	}
	d->bytes_per_s = sm_per_s((double)d->bytes, d->last_done_ns);
	d->stonewall_bytes_per_s = d->first_done_ns ?
		(double)d->min_bytes * d->nreported * 1e9 / (double)d->first_done_ns : 0;
	d->median_bytes_per_s = median(v, nv);
	for (unsigned i = 0; i < d->nranks && nv >= 2; i++) {
		struct sm_dist_rank *r = &d->rank[i];

		r->straggler = r->reported && r->bytes_per_s < SM_DIST_STRAGGLER * d->median_bytes_per_s;
		d->stragglers += (unsigned)r->straggler;
	}
	free(v);
	return hosts(d);
}
