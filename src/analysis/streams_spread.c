/* SPDX-License-Identifier: MIT */
/* How an MPI job's streams were spread over ranks and hosts at each answer
 * and at the first failure (docs/mpi.md): counts, nothing averaged. */
#include "analysis/streams_spread.h"
#include "analysis/streams.h"

#include <errno.h>
#include <stdlib.h>

/* The step of cell c with n streams (the last one run), or NULL. */
static const struct sm_streams_step *step_of(const struct sm_streams_cell *c, unsigned n)
{
	for (unsigned k = c->nsteps; n && k-- > 0;)
		if (c->steps[k].n == n && c->steps[k].streams)
			return &c->steps[k];
	return NULL;
}

int sm_streams_spread(struct sm_streams_result *res)
{
	unsigned w = res->ranks + res->nhosts;

	free(res->share);
	res->share = NULL;
	if (res->ranks < 2 || !res->rank_host || !res->ncells)
		return 0;
	res->share = calloc((size_t)res->ncells * w, sizeof(*res->share));
	if (!res->share)
		return -ENOMEM;
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];
		const struct sm_streams_step *ok = step_of(c, c->max_raw), *bad = step_of(c, c->first_fail);
		struct sm_streams_share *row = &res->share[(size_t)i * w];

		for (unsigned s = 0; ok && s < ok->n; s++) {
			unsigned r = s % res->ranks;

			row[r].at_n++;
			row[res->ranks + res->rank_host[r]].at_n++;
		}
		for (unsigned s = 0; bad && s < bad->n; s++) {
			unsigned r = s % res->ranks, h = res->ranks + res->rank_host[r];
			int held = sm_stream_holds(&bad->streams[s], c->interval_ns, res->queue);

			row[r].at_fail++;
			row[h].at_fail++;
			row[r].held_at_fail += held;
			row[h].held_at_fail += held;
		}
	}
	return 0;
}

const struct sm_streams_share *sm_streams_share_of(const struct sm_streams_result *res, unsigned cell,
						   unsigned j)
{
	if (!res->share || cell >= res->ncells || j >= res->ranks + res->nhosts)
		return NULL;
	return &res->share[(size_t)cell * (res->ranks + res->nhosts) + j];
}
