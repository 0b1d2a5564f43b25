/* SPDX-License-Identifier: MIT */
/* The analysis of `stormark time`'s runs: each figure's statistics over
 * the runs, and the hints a reader needs next to the numbers. */
#include "analysis/time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double sm_median(double *vals, unsigned n)
{
	if (!n)
		return 0;
	qsort(vals, n, sizeof(*vals), cmp_double);
	return n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
}

double sm_trimmed_mean(double *vals, unsigned n)
{
	unsigned cut = n / 10;
	double sum = 0;

	if (!n)
		return 0;
	qsort(vals, n, sizeof(*vals), cmp_double);
	for (unsigned i = cut; i < n - cut; i++)
		sum += vals[i];
	return sum / (double)(n - 2 * cut);
}

double sm_tf_trimmed(const struct sm_time_run *runs, size_t stride, unsigned n, enum sm_tf f, int *ok)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), m;
	unsigned k = 0;

	*ok = 0;
	if (!v)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		const struct sm_time_run *r = (const void *)((const char *)runs + i * stride);

		if (!(r->missing & SM_TF_BIT(f)))
			v[k++] = r->v[f];
	}
	*ok = k > 0;
	m = sm_trimmed_mean(v, k);
	free(v);
	return m;
}

/* Values of f over the runs that measured it, into a new array (caller
 * frees); *m gets their number. */
static double *collect(const struct sm_time_run *runs, unsigned n, enum sm_tf f, unsigned *m)
{
	double *vals = malloc((n ? n : 1) * sizeof(*vals));

	*m = 0;
	if (!vals)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		if (!(runs[i].missing & SM_TF_BIT(f)))
			vals[(*m)++] = runs[i].v[f];
	return vals;
}

void sm_tf_stats(const struct sm_time_run *runs, unsigned n, enum sm_tf f,
		 struct sm_tf_stat *out)
{
	unsigned m;
	double *vals = collect(runs, n, f, &m), sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	if (!vals)
		return;
	if (!m)
		goto out;
	out->n = m;
	out->min = out->max = vals[0];
	for (unsigned i = 0; i < m; i++) {
		sum += vals[i];
		if (vals[i] < out->min)
			out->min = vals[i];
		if (vals[i] > out->max)
			out->max = vals[i];
	}
	out->mean = sum / m;
	for (unsigned i = 0; i < m; i++)
		sq += (vals[i] - out->mean) * (vals[i] - out->mean);
	out->stddev = m > 1 ? sqrt(sq / (m - 1)) : 0;
	out->median = sm_median(vals, m);
out:
	free(vals);
}

#define MIB (1024.0 * 1024.0)

static void hint_io(const struct sm_time_run *runs, unsigned n, struct sm_warnings *w)
{
	struct sm_tf_stat rc, wc, rb, wb, srb, swb, fl, dfl, dwb;
	double written;
	const char *where;
	char dev[128];

	sm_tf_stats(runs, n, SM_TF_READ_CALLS, &rc);
	sm_tf_stats(runs, n, SM_TF_WRITE_CALLS, &wc);
	sm_tf_stats(runs, n, SM_TF_READ_BYTES, &rb);
	sm_tf_stats(runs, n, SM_TF_WRITE_BYTES, &wb);
	sm_tf_stats(runs, n, SM_TF_STORAGE_READ_BYTES, &srb);
	sm_tf_stats(runs, n, SM_TF_STORAGE_WRITE_BYTES, &swb);
	sm_tf_stats(runs, n, SM_TF_FLUSH_CALLS, &fl);
	sm_tf_stats(runs, n, SM_TF_DISK_FLUSHES, &dfl);
	sm_tf_stats(runs, n, SM_TF_DISK_WRITE_BYTES, &dwb);
	if (!rc.n)
		return;   /* no I/O figures at all */

	/* small calls only matter when there are many of them */
	if (rc.mean >= 1000 && rb.mean / rc.mean < 4096)
		sm_warn(w, "call_bound_read",
			"reads average %.0f bytes per call (under 4 KiB): the run is bound by "
			"system calls, not by storage", rb.mean / rc.mean);
	if (wc.mean >= 1000 && wb.mean / wc.mean < 4096)
		sm_warn(w, "call_bound_write",
			"writes average %.0f bytes per call (under 4 KiB): the run is bound by "
			"system calls, not by storage", wb.mean / wc.mean);
	if (rb.mean >= MIB && srb.mean < 0.1 * rb.mean)
		sm_warn(w, "served_from_cache",
			"storage bytes read (%.1f MiB) are far below logical bytes read "
			"(%.1f MiB): reads came from the page cache (or from pipes and devices "
			"such as /dev/zero), not from storage",
			srb.mean / MIB, rb.mean / MIB);
	if ((wb.mean >= MIB || swb.mean >= MIB) && wb.mean + swb.mean >= rb.mean) {
		/* Where the data may wait. The device taking (system-wide) at
		 * least 90% of the bytes written during the run is what direct
		 * I/O (dd oflag=direct) does: the page cache is then not to
		 * blame, only the device's write cache. Buffered writes not
		 * written back leave the device's count far below. Without
		 * device figures both are possible. */
		written = wb.mean > swb.mean ? wb.mean : swb.mean;
		if (dwb.n && dwb.mean >= 0.9 * written) {
			snprintf(dev, sizeof(dev), "the device took %.1f MiB of writes during the run (system-wide), "
				 "as direct I/O does", dwb.mean / MIB);
			where = "; the data may still be in the device's write cache";
		} else if (dwb.n) {
			snprintf(dev, sizeof(dev), "the device took %.1f MiB of writes during the run (system-wide)",
				 dwb.mean / MIB);
			where = "; the data may still be in the page cache, or in the device's write cache";
		} else {
			dev[0] = '\0';
			where = ": buffered writes may still be in the page cache, and any write (direct I/O "
				"too) in the device's write cache";
		}
		if (fl.n && fl.max == 0)
			sm_warn(w, "not_flushed",
				"the command wrote %.1f MiB and made no fsync/fdatasync/sync call%s%s%s",
				written / MIB, dev[0] ? "; " : "", dev, where);
		else if (!fl.n && dfl.n && dfl.max == 0)
			sm_warn(w, "not_flushed",
				"the command wrote %.1f MiB and the device saw no flush (system-wide)%s%s%s",
				written / MIB, dev[0] ? "; " : "", dev, where);
	}
}

static void hint_runs(const struct sm_time_run *runs, unsigned n, int caches_dropped,
		      struct sm_warnings *w)
{
	double *rest, *dev, med, mad;
	unsigned outliers = 0;

	if (n < 3)
		return;
	rest = malloc(n * sizeof(*rest));
	dev = malloc(n * sizeof(*dev));
	if (!rest || !dev)
		goto out;
	for (unsigned i = 1; i < n; i++)
		rest[i - 1] = runs[i].v[SM_TF_WALL_NS];
	med = sm_median(rest, n - 1);
	if (med > 0 && fabs(runs[0].v[SM_TF_WALL_NS] - med) > 0.5 * med && caches_dropped)
		sm_warn(w, "first_run",
			"the first run took %.3g ms against a median of %.3g ms for the rest, "
			"although every run began with the page cache dropped (--drop-caches): "
			"something else was slow once (consider --warmup)",
			runs[0].v[SM_TF_WALL_NS] / 1e6, med / 1e6);
	else if (med > 0 && fabs(runs[0].v[SM_TF_WALL_NS] - med) > 0.5 * med)
		sm_warn(w, "first_run",
			"the first run took %.3g ms against a median of %.3g ms for the rest "
			"(caches warming?); consider --warmup or --prepare",
			runs[0].v[SM_TF_WALL_NS] / 1e6, med / 1e6);
	if (!(runs[0].missing & SM_TF_BIT(SM_TF_STORAGE_READ_BYTES))) {
		unsigned m = 0;

		for (unsigned i = 1; i < n; i++)
			if (!(runs[i].missing & SM_TF_BIT(SM_TF_STORAGE_READ_BYTES)))
				rest[m++] = runs[i].v[SM_TF_STORAGE_READ_BYTES];
		med = sm_median(rest, m);
		if (m && runs[0].v[SM_TF_STORAGE_READ_BYTES] >= MIB &&
		    runs[0].v[SM_TF_STORAGE_READ_BYTES] > 2 * med)
			sm_warn(w, "first_run_cold",
				"the first run read %.1f MiB from storage, the others a median of "
				"%.1f MiB: it ran with a cold cache", runs[0].v[SM_TF_STORAGE_READ_BYTES] / MIB,
				med / MIB);
	}
	for (unsigned i = 0; i < n; i++)
		rest[i] = runs[i].v[SM_TF_WALL_NS];
	med = sm_median(rest, n);
	for (unsigned i = 0; i < n; i++)
		dev[i] = fabs(runs[i].v[SM_TF_WALL_NS] - med);
	mad = sm_median(dev, n);
	if (n >= 5 && mad > 0) {
		/* modified z-score above 3.5 (Iglewicz and Hoaglin) */
		for (unsigned i = 0; i < n; i++)
			if (0.6745 * fabs(runs[i].v[SM_TF_WALL_NS] - med) / mad > 3.5)
				outliers++;
		if (outliers)
			sm_warn(w, "outliers",
				"%u of %u runs are statistical outliers in wall time: other "
				"activity on the system may have disturbed them", outliers, n);
	}
out:
	free(rest);
	free(dev);
}

void sm_time_hints(const struct sm_time_run *runs, unsigned n, int caches_dropped,
		   struct sm_warnings *w)
{
	if (!n)
		return;
	hint_io(runs, n, w);
	hint_runs(runs, n, caches_dropped, w);
}

void sm_time_analyse(struct sm_time_result *r)
{
	for (unsigned f = 0; f < SM_TF_COUNT; f++)
		sm_tf_stats(r->runs, r->nruns, (enum sm_tf)f, &r->stat[f]);
}
