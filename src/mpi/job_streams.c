/* SPDX-License-Identifier: MIT */
/* `stormark streams` as an MPI job (docs/mpi.md): the transport the search
 * moves its orders and step figures through, and the rank table of the
 * job once the search is over. */
#include "mpi/job_streams.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/streams_spread.h"
#include "core/msg.h"
#include "result/json.h"
#include "result/json_read.h"

static int t_bcast(void *arg, void *buf, size_t n, uint64_t deadline_ns)
{
	(void)arg;
	return sm_mpi_bcast(buf, n, deadline_ns);
}

static int t_vote(void *arg, int v, int *max, uint64_t deadline_ns)
{
	(void)arg;
	return sm_mpi_max(v, max, deadline_ns);
}

static int t_gather(void *arg, const void *buf, size_t n, uint64_t deadline_ns, char ***out, size_t **len)
{
	(void)arg;
	return sm_mpi_gather(buf, n, deadline_ns, out, len);
}

static struct sm_streams_peers g_peers;

const struct sm_streams_peers *sm_cmd_dist_streams_peers(void)
{
	if (!sm_mpi)
		return NULL;
	g_peers.rank = (unsigned)sm_mpi->me.rank;
	g_peers.ranks = (unsigned)sm_mpi->me.size;
	g_peers.wait_ns = sm_mpi->wait_ns;
	g_peers.bcast = t_bcast;
	g_peers.vote = t_vote;
	g_peers.gather = t_gather;
	g_peers.arg = NULL;
	return &g_peers;
}

/*
 * Rank 0: the ranks' hosts into res and each answer's spread over them.
 * The rank table's byte-rate stragglers are not flagged for streams: the
 * ranks serve unequal numbers of streams by design (round-robin), so
 * their rates do not compare; which rank's streams failed is the spread's
 * "held at the first failure".
 */
static int spread(struct sm_streams_result *res)
{
	struct sm_dist_result *d = &sm_mpi->res;

	for (unsigned r = 0; r < d->nranks; r++)
		d->rank[r].straggler = 0;
	for (unsigned h = 0; h < d->nhosts; h++)
		d->host[h].straggler = 0;
	d->stragglers = 0;
	if (res->ranks < 2 || !d->nhosts)
		return 0;
	res->nhosts = d->nhosts;
	res->hosts = calloc(d->nhosts, sizeof(*res->hosts));
	res->rank_host = calloc(res->ranks, sizeof(*res->rank_host));
	if (!res->hosts || !res->rank_host) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	for (unsigned h = 0; h < d->nhosts; h++)
		snprintf(res->hosts[h], sizeof(res->hosts[h]), "%s", d->host[h].host);
	for (unsigned r = 0; r < res->ranks && r < d->nranks; r++)
		for (unsigned h = 0; h < d->nhosts; h++)
			if (!strcmp(d->rank[r].host, d->host[h].host))
				res->rank_host[r] = h;
	if (sm_streams_spread(res)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return 0;
}

int sm_cmd_dist_streams(struct sm_streams_result *res, int rc)
{
	cJSON *doc;
	int failed = rc && rc != -EINTR, code;

	if (!sm_mpi)
		return 0;
	/* a rank that lost the others cannot end MPI cleanly */
	sm_mpi->timed_out |= res->rank_lost;
	doc = cJSON_CreateObject();
	if (doc) {
		sm_json_add_u64(doc, "rank_bytes", res->rank_bytes);
		sm_json_add_u64(doc, "rank_frames", res->rank_frames);
		cJSON_AddBoolToObject(doc, "interrupted", rc == -EINTR);
	}
	code = sm_cmd_dist_collect(doc, failed, failed ? res->head.error : NULL);
	if (code || sm_mpi->me.rank)
		return code ? code : 1;
	for (unsigned r = 0; r < sm_mpi->res.nranks; r++) {
		struct sm_dist_rank *k = &sm_mpi->res.rank[r];
		const cJSON *d = sm_mpi->docs[r];

		if (!d || !cJSON_GetObjectItemCaseSensitive(d, "rank_bytes"))
			continue;
		k->reported = 1;
		(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(d, "rank_bytes"), &k->bytes);
		(void)sm_json_count(cJSON_GetObjectItemCaseSensitive(d, "rank_frames"), &k->items);
	}
	if (sm_dist_analyse(&sm_mpi->res)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return spread(res);
}
