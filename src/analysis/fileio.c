/* SPDX-License-Identifier: MIT */
/* fileio's derived figures: per-second rates and thread fairness. */
#include "analysis/fileio.h"
#include "analysis/cliff.h"
#include "core/clock.h"
#include "core/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean and population standard deviation of v[0..n) x scale (0, 0 when
 * n is 0), as sysbench's "Threads fairness" section computes them. */
static void mean_sd(const uint64_t *v, unsigned n, double scale, double *mean, double *sd)
{
	double s = 0, q = 0;

	*mean = *sd = 0;
	if (!n || !v)
		return;
	for (unsigned i = 0; i < n; i++)
		s += (double)v[i] * scale;
	*mean = s / n;
	for (unsigned i = 0; i < n; i++) {
		double d = (double)v[i] * scale - *mean;

		q += d * d;
	}
	*sd = sqrt(q / n);
}

void sm_fileio_analyse(struct sm_fileio_result *r)
{
	struct sm_fileio_figures *f = &r->fig;
	/* the operations that completed: a failed one (the write that met a
	 * full disk) is no read or write done, so a run that failed at its
	 * first does not print a rate beside zero events */
	const uint64_t count[4] = { r->ops[0].count - r->ops[0].errors, r->ops[1].count - r->ops[1].errors,
				    r->ops[2].count - r->ops[2].errors, r->events };
	const uint64_t bytes[4] = { r->ops[0].bytes, r->ops[1].bytes, r->ops[2].bytes,
				    r->ops[0].bytes + r->ops[1].bytes };

	memset(f, 0, sizeof(*f));
	f->secs = (double)r->head.duration_ns / 1e9;
	for (int i = 0; i < 4; i++) {
		f->per_s[i] = sm_per_s((double)count[i], r->head.duration_ns);
		f->bytes_per_s[i] = sm_per_s((double)bytes[i], r->head.duration_ns);
	}
	mean_sd(r->thread_events, r->nthreads, 1.0, &f->thread_events_mean, &f->thread_events_sd);
	mean_sd(r->thread_busy_ns, r->nthreads, 1e-9, &f->thread_busy_mean_s, &f->thread_busy_sd_s);
	if (r->stalls.measured)
		sm_stalls_count(&r->stalls, sm_fileio_stall_threshold(r));
}

uint64_t sm_fileio_stall_threshold(const struct sm_fileio_result *r)
{
	uint64_t t = 0;

	/* a gap the run's own requests explain: twice the median time of its
	 * slowest kind (an fsync can take far longer than a read) */
	for (int i = 0; i < 3; i++)
		if (r->ops[i].lat.count && 2 * sm_hist_percentile(&r->ops[i].lat, 50) > t)
			t = 2 * sm_hist_percentile(&r->ops[i].lat, 50);
	return t > SM_STALL_UNPACED_MIN_NS ? t : SM_STALL_UNPACED_MIN_NS;
}

int sm_fileio_steady_warning(struct sm_fileio_result *r)
{
	const struct sm_steady *s = &r->steady;
	unsigned before = r->head.warnings.count;

	if (!s->on || s->reached_at || r->failed || !s->nrounds)
		return 0;
	if (r->head.interrupted)
		sm_warn(&r->head.warnings, "not_steady", "interrupted after %u round%s, before steady state "
			"(SNIA PTS): the figures are the last %u round%s', which are not steady", s->nrounds,
			s->nrounds == 1 ? "" : "s", s->win.n, s->win.n == 1 ? "" : "s");
	else
		sm_warn(&r->head.warnings, "not_steady", "steady state (SNIA PTS) was not reached in %u rounds: "
			"the figures are the last %u rounds', which are not steady (range %.1f%%, excursion "
			"%.1f%% of their average; limits %.0f%% and %.0f%%)", s->nrounds, s->win.n,
			s->win.avg > 0 ? 100 * s->win.range / s->win.avg : 0,
			s->win.avg > 0 ? 100 * s->win.excursion / s->win.avg : 0,
			100 * s->rule.range_limit, 100 * s->rule.excursion_limit);
	return r->head.warnings.count > before;
}

void sm_fileio_plan_warnings(const struct sm_fileio_cfg *cfg, const struct sm_env *env, struct sm_warnings *w)
{
	uint64_t total = cfg->file_size * cfg->num_files;
	char a[32], b[32];

	/* stormark's own NFS client (--nfs) has no page cache on the path, and
	 * this host's free RAM says nothing of the server's */
	if (!env->direct_io && env->mem_available_bytes && total <= env->mem_available_bytes &&
	    env->fs.mount.kind != SM_MOUNT_CLIENT)
		sm_warn(w, "page_cache",
			"buffered I/O on a %s file set that fits in free RAM (%s): this measures the "
			"page cache, not the storage; use --file-extra-flags=direct or a larger set",
			sm_fmt_bytes(a, sizeof(a), (double)total),
			sm_fmt_bytes(b, sizeof(b), (double)env->mem_available_bytes));
	if (cfg->time_ns && cfg->time_ns < 5 * SM_NS_PER_S && !cfg->max_events)
		sm_warn(w, "short_run", "a run under 5 s mostly measures caches and ramp-up");
}

struct sm_fileio_tick_rates sm_fileio_tick_rates(const struct sm_fileio_tick *t)
{
	struct sm_fileio_tick_rates rt = {
		.read_bytes_per_s = sm_per_s((double)t->read_bytes, t->interval_ns),
		.write_bytes_per_s = sm_per_s((double)t->write_bytes, t->interval_ns),
		.fsyncs_per_s = sm_per_s((double)t->fsyncs, t->interval_ns),
		.ops_per_s = sm_per_s((double)(t->reads + t->writes + t->fsyncs), t->interval_ns),
	};

	return rt;
}

void sm_fileio_cliff(struct sm_fileio_result *r)
{
	double *rate = calloc(r->nwsec ? r->nwsec : 1, sizeof(*rate));

	memset(&r->cliff, 0, sizeof(r->cliff));
	if (!rate)
		return;
	for (unsigned i = 0; i < r->nwsec; i++)
		rate[i] = (double)r->wsec[i];   /* bytes in one second */
	sm_cliff_find(rate, r->nwsec, SM_NS_PER_S, &r->cliff);
	free(rate);
}
