/* SPDX-License-Identifier: MIT */
/* fileio's --steady rounds and --precondition: the workload repeated in
 * rounds until SNIA PTS's steady state holds, after an optional sequential
 * fill of twice the set. It never prints. */
#ifndef SM_WORKLOAD_FILEIO_STEADY_H
#define SM_WORKLOAD_FILEIO_STEADY_H

#include "workload/fileio.h"

/* PTS's preconditioning: sequential writes of this size, twice the set. */
#define SM_PRECOND_BLOCK (128u * 1024u)
#define SM_PRECOND_PASSES 2u

struct sm_fileio_steady_plan {
	int steady;                /* --steady: rounds */
	uint64_t round_ns;         /* one round (--steady-round) */
	unsigned max_rounds;       /* --steady-rounds, 5 .. SM_STEADY_MAX_ROUNDS */
	int precondition;          /* --precondition */
};

/* Called after each round (from the calling thread): its 1-based number,
 * its figure, and the steady state so far. */
typedef void (*sm_fileio_round_fn)(unsigned round, const struct sm_steady *s, void *arg);

/* The figure a round of mode m is judged on: "iops" for the random modes
 * (reads and writes per second; fsyncs are not counted), "bytes_per_s" for
 * the sequential ones (bytes read and written per second). */
const char *sm_fileio_steady_metric(enum sm_fileio_mode m);

/* Round r's figure by that metric (r analysed: r->fig). */
double sm_fileio_steady_figure(const struct sm_fileio_result *r);

/*
 * Write every file of the set from its start to its end in SM_PRECOND_BLOCK
 * requests, SM_PRECOND_PASSES times, through the run's descriptors (direct
 * when the run is), with incompressible data that does not repeat; fill *p.
 * Returns 0; -EINTR when a signal stopped it (p->bytes says how far it
 * got); -ENOMEM; or the -errno of a failed write, with msg naming the file.
 */
int sm_fileio_precondition(const struct sm_fileio_cfg *cfg, const int *fds, struct sm_precond *p,
			   char *msg, size_t msglen);

/*
 * Run the test as sm_fileio_run() does, after --precondition when asked
 * and, with sp->steady, in rounds of sp->round_ns (cfg's time and event
 * limits do not apply then) until the last 5 rounds are steady or
 * sp->max_rounds have run. r, initialised by sm_fileio_result_init() for
 * cfg, receives r->precond, r->steady and, for a steady run, the merged
 * counts, latencies and series of the window's rounds (r->steady.win), so
 * every layout reports the window; its series times run on from one round
 * to the next. A signal or a failure ends the rounds with the last one
 * (r->head.interrupted, r->failed). Returns 0 or -errno as sm_fileio_run().
 */
int sm_fileio_steady_run(const struct sm_fileio_cfg *cfg, const int *fds,
			 const struct sm_fileio_steady_plan *sp, double pct, sm_fileio_tick_fn tick,
			 void *tick_arg, sm_fileio_round_fn round, void *round_arg,
			 struct sm_fileio_result *r);

#endif
