/* SPDX-License-Identifier: MIT */
/* A saved many-host result's "mpi" object read back into struct
 * sm_dist_result (the ranks; the job's figures are derived again by
 * analysis/dist.c), so `report` and the HTML page show the rank table. */
#include "result/dist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/json_read.h"

void sm_dist_result_release(struct sm_dist_result *d)
{
	free(d->rank);
	free(d->host);
	memset(d, 0, sizeof(*d));
}

/* A job of more ranks than its JSON lists (ranks_listed below
 * ranks_total; docs/mpi.md, "Scale"): the job's figures, its hosts and
 * each listed row's straggler flag as saved, for they cannot be derived
 * again from the rows. Returns 0 (also for a job that lists every rank:
 * nothing read) or -EINVAL. */
static int read_selection(const cJSON *o, struct sm_dist_result *d, struct sm_jerr *e)
{
	const cJSON *hosts, *x;
	unsigned total = 0, listed = 0, n = 0;

	if (!cJSON_GetObjectItemCaseSensitive(o, "ranks_listed"))
		return 0;   /* written before the selection: every rank */
	if (sm_jget_uint(o, "ranks_total", &total, e) || sm_jget_uint(o, "ranks_listed", &listed, e))
		return -EINVAL;
	if (listed != d->nranks)
		return sm_jerr_set(e, "mpi.ranks_listed is %u, mpi.ranks has %u", listed, d->nranks);
	if (total <= listed)
		return 0;
	d->saved_selection = 1;
	d->saved_total = total;
	hosts = sm_jget_arr(o, "hosts", e);
	if (!hosts || sm_jget_uint(o, "ranks_reported", &d->nreported, e) ||
	    sm_jget_uint(o, "ranks_failed", &d->nfailed, e) || sm_jget_uint(o, "ranks_silent", &d->nsilent, e) ||
	    sm_jget_int(o, "first_done_rank", &d->first_rank, e) || sm_jget_u64(o, "first_done_ns", &d->first_done_ns, e) ||
	    sm_jget_u64(o, "last_done_ns", &d->last_done_ns, e) || sm_jget_u64(o, "bytes", &d->bytes, e) ||
	    sm_jget_u64(o, "min_rank_bytes", &d->min_bytes, e) || sm_jget_double(o, "bytes_per_s", &d->bytes_per_s, e) ||
	    sm_jget_double(o, "stonewall_bytes_per_s", &d->stonewall_bytes_per_s, e) ||
	    sm_jget_double(o, "median_rank_bytes_per_s", &d->median_bytes_per_s, e) ||
	    sm_jget_uint(o, "stragglers", &d->stragglers, e))
		return -EINVAL;
	n = 0;
	cJSON_ArrayForEach(x, sm_jget_arr(o, "ranks", e))
		if (sm_jget_bool(x, "straggler", &d->rank[n++].straggler, e))
			return -EINVAL;
	n = (unsigned)cJSON_GetArraySize(hosts);
	d->host = calloc(n ? n : 1, sizeof(*d->host));
	if (!d->host)
		return sm_jerr_set(e, "out of memory");
	cJSON_ArrayForEach(x, hosts) {
		struct sm_dist_host *h = &d->host[d->nhosts++];

		if (sm_jget_str(x, "host", h->host, sizeof(h->host), e) || sm_jget_uint(x, "ranks", &h->ranks, e) ||
		    sm_jget_uint(x, "ranks_reported", &h->reported, e) || sm_jget_u64(x, "bytes", &h->bytes, e) ||
		    sm_jget_u64(x, "items", &h->items, e) || sm_jget_u64(x, "done_ns", &h->done_ns, e) ||
		    sm_jget_double(x, "bytes_per_s", &h->bytes_per_s, e) ||
		    sm_jget_bool(x, "straggler", &h->straggler, e))
			return -EINVAL;
	}
	return 0;
}

int sm_dist_from_json(const cJSON *o, struct sm_dist_result *d, struct sm_jerr *e)
{
	const cJSON *ranks, *x;
	unsigned n = 0;

	memset(d, 0, sizeof(*d));
	ranks = sm_jget_arr(o, "ranks", e);
	if (!ranks || sm_jget_bool(o, "stonewall", &d->stonewall, e))
		return -EINVAL;
	n = (unsigned)cJSON_GetArraySize(ranks);
	if (!n || n > SM_DIST_MAX_RANKS)
		return sm_jerr_set(e, "mpi.ranks: %u ranks (1 to %u)", n, SM_DIST_MAX_RANKS);
	d->rank = calloc(n, sizeof(*d->rank));
	if (!d->rank)
		return -ENOMEM;
	d->nranks = n;
	n = 0;
	cJSON_ArrayForEach(x, ranks) {
		struct sm_dist_rank *k = &d->rank[n++];

		if (sm_jget_int(x, "rank", &k->rank, e) || sm_jget_str(x, "host", k->host, sizeof(k->host), e) ||
		    sm_jget_bool(x, "reported", &k->reported, e) || sm_jget_bool(x, "failed", &k->failed, e) ||
		    sm_jget_bool(x, "stonewalled", &k->walled, e) || sm_jget_u64(x, "done_ns", &k->done_ns, e) ||
		    sm_jget_u64(x, "bytes", &k->bytes, e) || sm_jget_u64(x, "items", &k->items, e)) {
			sm_dist_result_release(d);
			return -EINVAL;
		}
		if (cJSON_GetObjectItemCaseSensitive(x, "error") &&
		    sm_jget_str(x, "error", k->error, sizeof(k->error), e)) {
			sm_dist_result_release(d);
			return -EINVAL;
		}
	}
	if (!read_selection(o, d, e))
		return 0;
	sm_dist_result_release(d);
	return -EINVAL;
}
