/* SPDX-License-Identifier: MIT */
/* `stormark streams` as an MPI job (docs/mpi.md): the transport the search
 * moves its orders and step figures through, and the rank table of the
 * job once the search is over. */
#include "mpi/job_streams.h"
#include "mpi/job_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/dist.h"
#include "analysis/streams_spread.h"
#include "report/streams_mpi.h"
#include "core/compiler.h"
#include "core/msg.h"
#include "result/json.h"
#include "result/json_read.h"

static int t_bcast(SM_UNUSED void *arg, void *buf, size_t n, uint64_t deadline_ns)
{
	return sm_mpi_bcast(buf, n, deadline_ns);
}

static int t_vote(SM_UNUSED void *arg, int v, int *max, uint64_t deadline_ns)
{
	return sm_mpi_max(v, max, deadline_ns);
}

static int t_gather(SM_UNUSED void *arg, const void *buf, size_t n, uint64_t deadline_ns,
		char ***out, size_t **len)
{
	return sm_mpi_gather(buf, n, deadline_ns, out, len);
}

const struct sm_streams_peers *sm_job_streams_peers(struct sm_job *j)
{
	struct sm_streams_peers *p;

	if (!j->st)
		return NULL;   /* alone: no peers */
	p = &j->st->peers;
	p->rank = (unsigned)j->rank;
	p->ranks = (unsigned)j->size;
	p->wait_ns = j->st->wait_ns;
	p->bcast = t_bcast;
	p->vote = t_vote;
	p->gather = t_gather;
	p->arg = NULL;
	return p;
}

/*
 * Rank 0: the ranks' hosts into res and each answer's spread over them.
 * The rank table's byte-rate stragglers are not flagged for streams: the
 * ranks serve unequal numbers of streams by design (round-robin), so
 * their rates do not compare; which rank's streams failed is the spread's
 * "held at the first failure".
 */
static int spread(struct sm_job *j, struct sm_streams_result *res)
{
	struct sm_dist_result *d = &j->st->res;

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

/* After the search, *rc its outcome: this rank's share (bytes, frames, its
 * span, its failure) to rank 0 as a fixed-size record (sm_job_rows: no
 * document is sent or kept), where it fills the host and rank table
 * (items: the frames the rank's streams moved) and each answer's spread. */
static int share(struct sm_job *j, struct sm_streams_result *res, int rc)
{
	struct sm_job_state *st = j->st;
	int failed = rc && rc != -EINTR, code;

	/* a rank that lost the others cannot end MPI cleanly */
	st->timed_out |= res->rank_lost;
	code = sm_job_rows(j, res->rank_bytes, res->rank_frames, failed, failed ? res->head.error : NULL);
	if (code || j->rank)
		return code ? code : 1;
	if (sm_dist_analyse(&st->res)) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	return spread(j, res);
}

static int streams_job(struct sm_job *j, void *arg, int *rc)
{
	struct sm_streams_result *res = arg;

	if (!share(j, res, *rc))
		return -1;   /* rank 0 reports the job */
	/* the others their own failure only */
	if (*rc && *rc != -EINTR)
		sm_error("rank %d: %s", j->rank, res->head.error[0] ? res->head.error : strerror(-*rc));
	return sm_exit_code(*rc && *rc != -EINTR, *rc == -EINTR);
}

static void streams_text(struct sm_job *j, FILE *f, const void *res)
{
	sm_job_table(j, f, NULL);
	sm_streams_spread_text(f, res);
}

static void streams_json(struct sm_job *j, cJSON *doc, const void *res)
{
	sm_job_table(j, NULL, doc);
	sm_streams_spread_json(doc, res);
}

const struct sm_job_kind sm_job_streams = { streams_job, streams_text, streams_json };
