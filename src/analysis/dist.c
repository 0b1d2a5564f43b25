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

/* The rows listed when the job has more ranks than d->list_max: in quotas
 * of a quarter of it, the first failed or silent ranks, the slowest
 * stragglers, the slowest and the fastest reported ranks. */
static const struct sm_dist_result *by_rate_d;

static int cmp_rate(const void *a, const void *b)
{
	const struct sm_dist_rank *x = &by_rate_d->rank[*(const unsigned *)a];
	const struct sm_dist_rank *y = &by_rate_d->rank[*(const unsigned *)b];

	if (x->bytes_per_s != y->bytes_per_s)
		return x->bytes_per_s < y->bytes_per_s ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int pick(struct sm_dist_result *d)
{
	unsigned max = d->list_max ? d->list_max : SM_DIST_LIST_MAX, q = max / 4 ? max / 4 : 1, n = 0, k;
	unsigned *idx;

	d->nfailed = d->nsilent = d->nlisted = 0;
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];

		d->nfailed += (unsigned)(r->failed != 0);
		d->nsilent += (unsigned)(!r->reported && !r->failed);
		d->rank[i].listed = d->nranks <= max;
	}
	if (d->nranks <= max) {
		d->nlisted = d->nranks;
		return 0;
	}
	idx = calloc(d->nranks, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	k = 0;
	for (unsigned i = 0; i < d->nranks && k < q; i++)
		if (d->rank[i].failed || !d->rank[i].reported) {
			d->rank[i].listed = 1;
			k++;
		}
	for (unsigned i = 0; i < d->nranks; i++)
		if (d->rank[i].reported && !d->rank[i].failed)
			idx[n++] = i;
	by_rate_d = d;   /* analysis runs on one thread: rank 0's, or report's */
	qsort(idx, n, sizeof(*idx), cmp_rate);
	k = 0;
	for (unsigned i = 0; i < n && k < q; i++)
		if (d->rank[idx[i]].straggler && !d->rank[idx[i]].listed) {
			d->rank[idx[i]].listed = 1;
			k++;
		}
	k = 0;
	for (unsigned i = 0; i < n && k < q; i++)
		if (!d->rank[idx[i]].listed) {
			d->rank[idx[i]].listed = 1;
			k++;
		}
	k = 0;
	for (unsigned i = n; i-- > 0 && k < q;)
		if (!d->rank[idx[i]].listed) {
			d->rank[idx[i]].listed = 1;
			k++;
		}
	free(idx);
	for (unsigned i = 0; i < d->nranks; i++)
		d->nlisted += (unsigned)d->rank[i].listed;
	return 0;
}

int sm_dist_analyse(struct sm_dist_result *d)
{
	double *v;
	unsigned nv = 0;

	if (d->saved_selection) {
		/* a saved selection: its rows as saved, the job's figures read */
		for (unsigned i = 0; i < d->nranks; i++) {
			struct sm_dist_rank *r = &d->rank[i];

			r->bytes_per_s = r->reported ? sm_per_s((double)r->bytes, r->done_ns) : 0;
			r->listed = 1;
		}
		d->nlisted = d->nranks;
		return 0;
	}
	v = calloc(d->nranks ? d->nranks : 1, sizeof(*v));
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
	return pick(d) ? -ENOMEM : hosts(d);
}
