/* SPDX-License-Identifier: MIT */
/* Figures of `stormark time` runs: the table, filling a run, statistics
 * and the hints a reader needs next to the numbers. */
#include "result/timefig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/clock.h"

const struct sm_tf_desc sm_tf_desc[SM_TF_COUNT] = {
	[SM_TF_WALL_NS] = { "wall_ns", "wall time", SM_TFU_NS, 0 },
	[SM_TF_USER_NS] = { "user_ns", "user CPU", SM_TFU_NS, 0 },
	[SM_TF_SYS_NS] = { "sys_ns", "system CPU", SM_TFU_NS, 0 },
	[SM_TF_CPU_PCT] = { "cpu_pct", "CPU", SM_TFU_PCT, 0 },
	[SM_TF_MAX_RSS_BYTES] = { "max_rss_bytes", "max RSS", SM_TFU_BYTES, 0 },
	[SM_TF_MINOR_FAULTS] = { "minor_faults", "minor page faults", SM_TFU_COUNT, 0 },
	[SM_TF_MAJOR_FAULTS] = { "major_faults", "major page faults", SM_TFU_COUNT, 0 },
	[SM_TF_VOL_CTXSW] = { "voluntary_ctxsw", "voluntary ctx switches", SM_TFU_COUNT, 0 },
	[SM_TF_INVOL_CTXSW] = { "involuntary_ctxsw", "involuntary ctx switches", SM_TFU_COUNT, 0 },
	[SM_TF_SYSCALLS] = { "syscalls", "system calls (all)", SM_TFU_COUNT, 0 },
	[SM_TF_FLUSH_CALLS] = { "flush_calls", "flush calls (fsync...)", SM_TFU_COUNT, 0 },
	[SM_TF_READ_CALLS] = { "read_calls", "read calls", SM_TFU_COUNT, 0 },
	[SM_TF_WRITE_CALLS] = { "write_calls", "write calls", SM_TFU_COUNT, 0 },
	[SM_TF_READ_BYTES] = { "read_bytes", "bytes read (logical)", SM_TFU_BYTES, 0 },
	[SM_TF_WRITE_BYTES] = { "write_bytes", "bytes written (logical)", SM_TFU_BYTES, 0 },
	[SM_TF_READ_BYTES_PER_CALL] = { "read_bytes_per_call", "mean bytes per read call",
					SM_TFU_BYTES, 0 },
	[SM_TF_WRITE_BYTES_PER_CALL] = { "write_bytes_per_call", "mean bytes per write call",
					 SM_TFU_BYTES, 0 },
	[SM_TF_STORAGE_READ_BYTES] = { "storage_read_bytes", "storage bytes read",
				       SM_TFU_BYTES, 0 },
	[SM_TF_STORAGE_WRITE_BYTES] = { "storage_write_bytes", "storage bytes written",
					SM_TFU_BYTES, 0 },
	[SM_TF_CANCELLED_WRITE_BYTES] = { "cancelled_write_bytes", "cancelled writes",
					  SM_TFU_BYTES, 0 },
	[SM_TF_STORAGE_READ_BPS] = { "storage_read_bytes_per_s", "storage read rate",
				     SM_TFU_BPS, 0 },
	[SM_TF_STORAGE_WRITE_BPS] = { "storage_write_bytes_per_s", "storage write rate",
				      SM_TFU_BPS, 0 },
	[SM_TF_PROCESSES] = { "processes", "processes reaped", SM_TFU_COUNT, 0 },
	[SM_TF_DISK_READ_IOS] = { "disk_read_ios", "device reads", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_READ_BYTES] = { "disk_read_bytes", "device bytes read", SM_TFU_BYTES, 1 },
	[SM_TF_DISK_WRITE_IOS] = { "disk_write_ios", "device writes", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_WRITE_BYTES] = { "disk_write_bytes", "device bytes written",
				     SM_TFU_BYTES, 1 },
	[SM_TF_DISK_FLUSHES] = { "disk_flushes", "device flushes", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_BUSY_MS] = { "disk_busy_ms", "device busy time", SM_TFU_MS, 1 },
};

int sm_tf_find(const char *key)
{
	for (int i = 0; i < SM_TF_COUNT; i++)
		if (!strcmp(sm_tf_desc[i].key, key))
			return i;
	return -1;
}

void sm_time_run_fill(struct sm_time_run *run, const struct sm_proc_totals *t,
		      uint64_t wall_ns, uint64_t syscalls, uint64_t flush_calls,
		      const struct sm_diskstat *disk, int wait_status)
{
	double *v = run->v;
	double wall_s = (double)wall_ns / 1e9;

	memset(run, 0, sizeof(*run));
	v[SM_TF_WALL_NS] = (double)wall_ns;
	v[SM_TF_USER_NS] = (double)t->user_ns;
	v[SM_TF_SYS_NS] = (double)t->sys_ns;
	v[SM_TF_CPU_PCT] = wall_ns ? 100.0 * (double)(t->user_ns + t->sys_ns) / (double)wall_ns : 0;
	if (t->maxrss_not_own)
		run->missing |= SM_TF_BIT(SM_TF_MAX_RSS_BYTES);
	else
		v[SM_TF_MAX_RSS_BYTES] = (double)t->maxrss_kib * 1024.0;
	v[SM_TF_MINOR_FAULTS] = (double)t->minflt;
	v[SM_TF_MAJOR_FAULTS] = (double)t->majflt;
	v[SM_TF_VOL_CTXSW] = (double)t->nvcsw;
	v[SM_TF_INVOL_CTXSW] = (double)t->nivcsw;
	if (syscalls == SM_NO_COUNT)
		run->missing |= SM_TF_BIT(SM_TF_SYSCALLS);
	else
		v[SM_TF_SYSCALLS] = (double)syscalls;
	if (flush_calls == SM_NO_COUNT)
		run->missing |= SM_TF_BIT(SM_TF_FLUSH_CALLS);
	else
		v[SM_TF_FLUSH_CALLS] = (double)flush_calls;
	v[SM_TF_PROCESSES] = t->reaped;
	if (t->io_missing) {
		/* a process's io could not be read: the sums would undercount */
		for (int f = SM_TF_READ_CALLS; f <= SM_TF_STORAGE_WRITE_BPS; f++)
			run->missing |= SM_TF_BIT(f);
	} else {
		v[SM_TF_READ_CALLS] = (double)t->syscr;
		v[SM_TF_WRITE_CALLS] = (double)t->syscw;
		v[SM_TF_READ_BYTES] = (double)t->rchar;
		v[SM_TF_WRITE_BYTES] = (double)t->wchar;
		if (t->syscr)
			v[SM_TF_READ_BYTES_PER_CALL] = (double)t->rchar / (double)t->syscr;
		else
			run->missing |= SM_TF_BIT(SM_TF_READ_BYTES_PER_CALL);
		if (t->syscw)
			v[SM_TF_WRITE_BYTES_PER_CALL] = (double)t->wchar / (double)t->syscw;
		else
			run->missing |= SM_TF_BIT(SM_TF_WRITE_BYTES_PER_CALL);
		v[SM_TF_STORAGE_READ_BYTES] = (double)t->read_bytes;
		v[SM_TF_STORAGE_WRITE_BYTES] = (double)t->write_bytes;
		v[SM_TF_CANCELLED_WRITE_BYTES] = (double)t->cancelled_write_bytes;
		if (wall_s > 0) {
			v[SM_TF_STORAGE_READ_BPS] = (double)t->read_bytes / wall_s;
			v[SM_TF_STORAGE_WRITE_BPS] = (double)t->write_bytes / wall_s;
		}
	}
	if (disk) {
		v[SM_TF_DISK_READ_IOS] = (double)disk->rd_ios;
		v[SM_TF_DISK_READ_BYTES] = (double)disk->rd_bytes;
		v[SM_TF_DISK_WRITE_IOS] = (double)disk->wr_ios;
		v[SM_TF_DISK_WRITE_BYTES] = (double)disk->wr_bytes;
		v[SM_TF_DISK_FLUSHES] = (double)disk->flush_ios;
		v[SM_TF_DISK_BUSY_MS] = (double)disk->io_ticks_ms;
	} else {
		for (int f = SM_TF_DISK_READ_IOS; f <= SM_TF_DISK_BUSY_MS; f++)
			run->missing |= SM_TF_BIT(f);
	}
	if (WIFSIGNALED(wait_status)) {
		run->term_signal = WTERMSIG(wait_status);
		run->exit_code = 128 + run->term_signal;
	} else {
		run->exit_code = WEXITSTATUS(wait_status);
	}
}

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
	struct sm_tf_stat rc, wc, rb, wb, srb, swb, fl, dfl;

	sm_tf_stats(runs, n, SM_TF_READ_CALLS, &rc);
	sm_tf_stats(runs, n, SM_TF_WRITE_CALLS, &wc);
	sm_tf_stats(runs, n, SM_TF_READ_BYTES, &rb);
	sm_tf_stats(runs, n, SM_TF_WRITE_BYTES, &wb);
	sm_tf_stats(runs, n, SM_TF_STORAGE_READ_BYTES, &srb);
	sm_tf_stats(runs, n, SM_TF_STORAGE_WRITE_BYTES, &swb);
	sm_tf_stats(runs, n, SM_TF_FLUSH_CALLS, &fl);
	sm_tf_stats(runs, n, SM_TF_DISK_FLUSHES, &dfl);
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
		if (fl.n && fl.max == 0)
			sm_warn(w, "not_flushed",
				"the command wrote %.1f MiB and made no fsync/fdatasync/sync call: "
				"written data may still be in the page cache or the device's cache",
				(wb.mean > swb.mean ? wb.mean : swb.mean) / MIB);
		else if (!fl.n && dfl.n && dfl.max == 0)
			sm_warn(w, "not_flushed",
				"the command wrote %.1f MiB and the device saw no flush "
				"(system-wide): written data may still be in a cache",
				(wb.mean > swb.mean ? wb.mean : swb.mean) / MIB);
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

void sm_time_result_release(struct sm_time_result *r)
{
	if (r->owned) {
		for (int i = 0; i < r->cmd_argc; i++)
			free(r->cmd_argv[i]);
		free(r->cmd_argv);
		free((char *)r->prepare);
		free((struct sm_time_run *)r->runs);
		r->cmd_argv = NULL;
		r->prepare = NULL;
		r->runs = NULL;
		r->cmd_argc = 0;
		r->nruns = 0;
		r->owned = 0;
	}
	sm_result_head_release(&r->head);
}
