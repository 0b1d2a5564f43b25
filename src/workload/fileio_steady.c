/* SPDX-License-Identifier: MIT */
/* fileio's --steady rounds (SNIA PTS steady state) and --precondition. */
#include "workload/fileio_steady.h"
#include "analysis/fileio.h"
#include "analysis/steady.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/worker.h"
#include "os/os.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *sm_fileio_steady_metric(enum sm_fileio_mode m)
{
	return m == SM_FIO_RNDRD || m == SM_FIO_RNDWR || m == SM_FIO_RNDRW ? "iops" : "bytes_per_s";
}

double sm_fileio_steady_figure(const struct sm_fileio_result *r)
{
	if (!strcmp(sm_fileio_steady_metric(r->cfg.mode), "iops"))
		return r->fig.per_s[0] + r->fig.per_s[1];
	return r->fig.bytes_per_s[3];
}

int sm_fileio_precondition(const struct sm_fileio_cfg *cfg, const int *fds, struct sm_precond *p,
			   char *msg, size_t msglen)
{
	unsigned char *buf = sm_buf_alloc(SM_PRECOND_BLOCK, SM_BUF_ALIGN);
	uint64_t t0 = sm_now_ns(), item = 0;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->on = 1;
	p->block_bytes = SM_PRECOND_BLOCK;
	p->target_bytes = SM_PRECOND_PASSES * cfg->file_size * cfg->num_files;
	if (!buf)
		return -ENOMEM;
	sm_buf_fill(buf, SM_PRECOND_BLOCK, SM_DATA_RANDOM, cfg->seed ^ 0x9c0d);
	for (unsigned pass = 0; pass < SM_PRECOND_PASSES && !rc; pass++) {
		for (unsigned i = 0; i < cfg->num_files && !rc; i++) {
			for (uint64_t off = 0; off < cfg->file_size && !rc; ) {
				uint64_t len = cfg->file_size - off < SM_PRECOND_BLOCK ? cfg->file_size - off
										    : SM_PRECOND_BLOCK;
				ssize_t n;

				if (sm_stopped()) {
					rc = -EINTR;
					break;
				}
				/* unique content per request, so nothing dedupes */
				sm_buf_stamp(buf, (size_t)len, SM_DATA_RANDOM, cfg->seed, item++);
				n = pwrite(fds[i], buf, (size_t)len, (off_t)off);
				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0) {
					rc = n < 0 ? -errno : -EIO;
					snprintf(msg, msglen, "--precondition: cannot write test_file.%u at offset "
						 "%llu: %s", i, (unsigned long long)off, strerror(-rc));
					break;
				}
				off += (uint64_t)n;
				p->bytes += (uint64_t)n;
			}
			/* what the run then reads or overwrites is on the device */
			if (!rc && sm_os_datasync(fds[i]) && errno != EINVAL) {
				rc = -errno;
				snprintf(msg, msglen, "--precondition: cannot flush test_file.%u: %s", i,
					 strerror(-rc));
			}
		}
	}
	p->duration_ns = sm_now_ns() - t0;
	p->bytes_per_s = sm_per_s((double)p->bytes, p->duration_ns);
	free(buf);
	return rc;
}

/* Add round src (run after dst's rounds) to the window result dst. */
static int merge_round(struct sm_fileio_result *dst, const struct sm_fileio_result *src)
{
	uint64_t off = dst->head.duration_ns;

	for (int k = 0; k < 3; k++)
		sm_opstat_merge(&dst->ops[k], &src->ops[k]);
	sm_hist_merge(&dst->events_lat, &src->events_lat);
	dst->events += src->events;
	dst->periodic_fsyncs += src->periodic_fsyncs;
	dst->end_fsyncs += src->end_fsyncs;
	for (unsigned i = 0; i < dst->nthreads && i < src->nthreads; i++) {
		dst->thread_events[i] += src->thread_events[i];
		dst->thread_busy_ns[i] += src->thread_busy_ns[i];
	}
	if (src->nseries) {
		struct sm_fileio_tick *s = realloc(dst->series, (dst->nseries + src->nseries) * sizeof(*s));

		if (!s)
			return -ENOMEM;
		dst->series = s;
		dst->series_cap = dst->nseries + src->nseries;
		for (unsigned i = 0; i < src->nseries; i++) {
			s[dst->nseries] = src->series[i];
			s[dst->nseries++].t_ns += off;
		}
	}
	dst->head.duration_ns += src->head.duration_ns;
	dst->head.interrupted |= src->head.interrupted;
	if (src->failed && !dst->failed) {
		dst->failed = 1;
		memcpy(dst->head.error, src->head.error, sizeof(dst->head.error));
	}
	if (!dst->engine[0])
		memcpy(dst->engine, src->engine, sizeof(dst->engine));
	if (!dst->head.env.engine_setup.reported)
		dst->head.env.engine_setup = src->head.env.engine_setup;
	if (!dst->notice[0])
		memcpy(dst->notice, src->notice, sizeof(dst->notice));
	return 0;
}

static void steady_init(struct sm_steady *s, const struct sm_fileio_cfg *cfg,
			const struct sm_fileio_steady_plan *sp)
{
	memset(s, 0, sizeof(*s));
	s->on = 1;
	snprintf(s->metric, sizeof(s->metric), "%s", sm_fileio_steady_metric(cfg->mode));
	s->round_ns = sp->round_ns;
	s->max_rounds = sp->max_rounds < SM_STEADY_MAX_ROUNDS ? sp->max_rounds : SM_STEADY_MAX_ROUNDS;
	sm_steady_rule_pts(&s->rule);
}

/* The rounds; the ring holds the last rule.window of them. */
static int rounds(const struct sm_fileio_cfg *rcfg, const int *fds, double pct, sm_fileio_tick_fn tick,
		  void *tick_arg, sm_fileio_round_fn round, void *round_arg, struct sm_fileio_result *r,
		  struct sm_fileio_result *ring)
{
	struct sm_steady *s = &r->steady;
	unsigned w = s->rule.window, used = 0, n;
	int rc = 0;

	for (n = 1; n <= s->max_rounds; n++) {
		struct sm_fileio_result *x = &ring[(n - 1) % w];
		int reached;

		if (used > (n - 1) % w)
			sm_fileio_result_release(x);
		else
			used++;
		if (sm_fileio_result_init(x, rcfg)) {
			sm_fileio_result_release(x);
			snprintf(r->head.error, sizeof(r->head.error), "out of memory");
			return -ENOMEM;
		}
		x->cfg = *rcfg;
		rc = sm_fileio_run(rcfg, fds, pct, tick, tick_arg, x);
		if (rc && !x->failed) {
			memcpy(r->head.error, x->head.error, sizeof(r->head.error));
			break;
		}
		reached = sm_steady_add(s, sm_fileio_steady_figure(x), x->head.duration_ns);
		if (round)
			round(n, s, round_arg);
		if (reached || rc || x->head.interrupted)
			break;
	}
	if (!s->nrounds)
		return rc;
	/* the window's rounds, oldest first */
	for (unsigned k = s->nrounds - s->win.n + 1; k <= s->nrounds; k++) {
		int mr = merge_round(r, &ring[(k - 1) % w]);

		if (mr) {
			snprintf(r->head.error, sizeof(r->head.error), "out of memory");
			return mr;
		}
	}
	return rc;
}

int sm_fileio_steady_run(const struct sm_fileio_cfg *cfg, const int *fds,
			 const struct sm_fileio_steady_plan *sp, double pct, sm_fileio_tick_fn tick,
			 void *tick_arg, sm_fileio_round_fn round, void *round_arg,
			 struct sm_fileio_result *r)
{
	struct sm_fileio_cfg rcfg = *cfg;
	struct sm_fileio_result *ring = NULL;
	int rc;

	if (sp->precondition) {
		rc = sm_fileio_precondition(cfg, fds, &r->precond, r->head.error, sizeof(r->head.error));
		if (rc == -EINTR) {
			r->head.interrupted = 1;
			r->head.error[0] = '\0';
			return 0;
		}
		if (rc) {
			if (rc == -ENOMEM)
				snprintf(r->head.error, sizeof(r->head.error), "out of memory");
			r->failed = 1;
			return rc;
		}
	}
	if (!sp->steady)
		return sm_fileio_run(cfg, fds, pct, tick, tick_arg, r);
	steady_init(&r->steady, cfg, sp);
	rcfg.time_ns = sp->round_ns;
	rcfg.max_events = 0;
	ring = calloc(r->steady.rule.window, sizeof(*ring));
	if (!ring) {
		snprintf(r->head.error, sizeof(r->head.error), "out of memory");
		return -ENOMEM;
	}
	/* the window's series is rebuilt from its rounds' */
	r->nseries = 0;
	r->head.duration_ns = 0;
	rc = rounds(&rcfg, fds, pct, tick, tick_arg, round, round_arg, r, ring);
	for (unsigned i = 0; i < r->steady.rule.window; i++)
		sm_fileio_result_release(&ring[i]);
	free(ring);
	sm_fileio_analyse(r);
	if (!rc && r->failed)
		rc = -EIO;
	return rc;
}
