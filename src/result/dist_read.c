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
	return 0;
}
