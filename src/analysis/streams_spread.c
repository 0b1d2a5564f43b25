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

/* The mix run alone: each rank's and host's mix streams, and how many of
 * them held (each judged at its group's interval). */
static int spread_mix(struct sm_streams_result *res)
{
	const struct sm_streams_mix *m = &res->mix;
	unsigned w = res->ranks + res->nhosts, i = 0;

	free(res->mix_share);
	res->mix_share = NULL;
	if (!m->ngroups || !m->ran || !m->step.mix_streams)
		return 0;
	res->mix_share = calloc(w, sizeof(*res->mix_share));
	if (!res->mix_share)
		return -ENOMEM;
	for (unsigned k = 0; k < m->ngroups; k++)
		for (unsigned j = 0; j < m->groups[k].count && i < m->step.nmix; j++, i++) {
			unsigned r = i % res->ranks, h = res->ranks + res->rank_host[r];
			int held = sm_stream_holds(&m->step.mix_streams[i], m->groups[k].interval_ns,
						   res->queue);

			res->mix_share[r].streams++;
			res->mix_share[h].streams++;
			res->mix_share[r].held += (unsigned)held;
			res->mix_share[h].held += (unsigned)held;
		}
	return 0;
}

int sm_streams_spread(struct sm_streams_result *res)
{
	unsigned w = res->ranks + res->nhosts;

	free(res->share);
	res->share = NULL;
	if (res->ranks < 2 || !res->rank_host)
		return 0;
	if (spread_mix(res))
		return -ENOMEM;
	if (!res->ncells)
		return 0;
	res->share = calloc((size_t)res->ncells * w, sizeof(*res->share));
	if (!res->share)
		return -ENOMEM;
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];
		const struct sm_streams_step *ok = step_of(c, c->max_raw), *bad = step_of(c, c->first_fail);
		struct sm_streams_share *row = &res->share[(size_t)i * w];

		/* the searched streams follow the mix's in a step's order */
		for (unsigned s = 0; ok && s < ok->n; s++) {
			unsigned r = (ok->nmix + s) % res->ranks;

			row[r].at_n++;
			row[res->ranks + res->rank_host[r]].at_n++;
		}
		for (unsigned s = 0; bad && s < bad->n; s++) {
			unsigned r = (bad->nmix + s) % res->ranks, h = res->ranks + res->rank_host[r];
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
