/* SPDX-License-Identifier: MIT */
/* The rank table's rows as fixed-size records: every rank's row gathered
 * by the MPI library (MPI_Igather), a few hundred bytes a rank whatever
 * its result holds (docs/mpi.md, "What is merged, and how"). */
#include "mpi/job_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dist.h"
#include "core/clock.h"
#include "core/msg.h"

void sm_job_row_fill(struct sm_job *j, struct sm_job_row *me, uint64_t bytes, uint64_t items, int failed,
		     const char *error)
{
	memset(me, 0, sizeof(*me));
	me->magic = SM_JOB_ROW_MAGIC;
	me->done_ns = j->st->done_ns;
	me->bytes = bytes;
	me->items = items;
	me->failed = failed != 0;
	me->walled = j->st->walled;
	snprintf(me->host, sizeof(me->host), "%s", j->st->me.host);
	snprintf(me->error, sizeof(me->error), "%s", error ? error : "");
}

void sm_job_row_take(struct sm_job *j, struct sm_job_row *all)
{
	struct sm_job_state *st = j->st;

	for (unsigned r = 0; r < st->res.nranks; r++) {
		struct sm_dist_rank *k = &st->res.rank[r];
		struct sm_job_row *s = &all[r];

		k->rank = (int)r;
		if (s->magic != SM_JOB_ROW_MAGIC) {
			/* its record never came: a rank that died or hung */
			snprintf(k->host, sizeof(k->host), "%s", st->me.hosts[r]);
			snprintf(k->error, sizeof(k->error), "no result within %.0f s of rank 0's end (the "
				 "rank died, hung or could not send)", (double)(st->wait_ns + st->done_ns) / 1e9);
			k->reported = 0;
			continue;
		}
		s->host[sizeof(s->host) - 1] = s->error[sizeof(s->error) - 1] = '\0';
		snprintf(k->host, sizeof(k->host), "%s", s->host);
		snprintf(k->error, sizeof(k->error), "%s", s->error);
		k->done_ns = s->done_ns;
		k->bytes = s->bytes;
		k->items = s->items;
		k->failed = s->failed != 0;
		k->walled = s->walled != 0;
		k->reported = 1;
	}
}

int sm_job_res_begin(struct sm_job *j, struct sm_job_row **all)
{
	struct sm_dist_result *d = &j->st->res;

	memset(d, 0, sizeof(*d));
	d->nranks = (unsigned)j->size;
	d->stonewall = j->stonewall;
	d->rank = calloc(d->nranks, sizeof(*d->rank));
	if (all)
		*all = calloc(d->nranks, sizeof(**all));
	if (d->rank && (!all || *all))
		return 0;
	free(d->rank);
	d->rank = NULL;
	if (all) {
		free(*all);
		*all = NULL;
	}
	return -ENOMEM;
}

int sm_job_rows(struct sm_job *j, uint64_t bytes, uint64_t items, int failed, const char *error)
{
	struct sm_job_state *st = j->st;
	struct sm_job_row *me = malloc(sizeof(*me)), *all = NULL;
	int rc;

	st->gathered = 1;
	if (!me || (!j->rank && sm_job_res_begin(j, &all))) {
		free(me);
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	sm_job_row_fill(j, me, bytes, items, failed, error);
	rc = sm_mpi_gather_fixed(me, sizeof(*me), all, sm_now_ns() + st->wait_ns + st->done_ns);
	if (rc) {
		/* a rank missing: the library may still use both buffers, which
		 * stay (the job ends with MPI_Abort); the records that came are
		 * marked */
		st->timed_out = 1;
		if (j->rank) {
			sm_error("mpi: rank %d: cannot hand the result to rank 0: %s", j->rank,
				 rc == -ETIMEDOUT ? "rank 0 did not take it within --mpi-wait" : strerror(-rc));
			return SM_EXIT_FAIL;
		}
	} else {
		free(me);
	}
	if (j->rank)
		return 1;
	sm_job_row_take(j, all);
	if (!rc)
		free(all);
	return 0;
}
