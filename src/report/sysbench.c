/* SPDX-License-Identifier: MIT */
/* sysbench 1.0.20 fileio layout (see docs/fileio.md for the differences
 * that remain: the banner names stormark). */
#include "report/sysbench.h"
#include "analysis/fileio.h"
#include "report/steady.h"
#include "core/units.h"
#include "core/clock.h"

#include <math.h>
#include <string.h>

void sm_sb_banner(FILE *f)
{
	/* Scripts read the version from the first line ("sysbench 1.0.20 ("):
	 * keep that, and say in the parentheses who is speaking. */
	fprintf(f, "sysbench 1.0.20 (stormark %s fileio drop-in)\n\n", SM_VERSION);
}

char *sm_sb_size(char *buf, size_t len, double v)
{
	return sm_fmt_size_g5(buf, len, v);
}

static void extra_flags(FILE *f, unsigned fl)
{
	fprintf(f, "Extra file open flags: %s%s%s%s\n", fl ? "" : "(none)",
		fl & SM_FIO_FLAG_SYNC ? "sync " : "", fl & SM_FIO_FLAG_DSYNC ? "dsync " : "",
		fl & SM_FIO_FLAG_DIRECT ? "directio" : "");
}

void sm_sb_prepare_head(FILE *f, const struct sm_fileio_cfg *cfg)
{
	fprintf(f, "%u files, %ldKb each, %ldMb total\n", cfg->num_files,
		(long)(cfg->file_size / 1024), (long)(cfg->file_size * cfg->num_files / (1024 * 1024)));
	fprintf(f, "Creating files for the test...\n");
	extra_flags(f, cfg->extra_flags);
}

void sm_sb_prepare_file(FILE *f, enum sm_fileio_fstate st, unsigned i)
{
	static const char *const what[] = {
		[SM_FIO_CREATE] = "Creating file",
		[SM_FIO_EXTEND] = "Extending existing file",
		[SM_FIO_REUSE] = "Reusing existing file",
	};

	fprintf(f, "%s test_file.%u\n", what[st], i);
}

void sm_sb_prepare_done(FILE *f, uint64_t written, uint64_t ns)
{
	double s = (double)ns / 1e9;

	if (written)
		fprintf(f, "%llu bytes written in %.2f seconds (%.2f MiB/sec).\n",
			(unsigned long long)written, s, (double)written / 1048576.0 / (s > 0 ? s : 1e-9));
	else
		fprintf(f, "No bytes written.\n");
}

static const char *io_desc(enum sm_fileio_io m)
{
	return m == SM_FIO_IO_ASYNC ? "asynchronous" : m == SM_FIO_IO_MMAP ? "fast mmaped"
									      : "synchronous";
}

void sm_sb_run_head(FILE *f, const struct sm_fileio_cfg *cfg, int seed_given,
		    uint64_t seed_shown)
{
	char a[32];
	int rnd = cfg->mode >= SM_FIO_RNDRD;

	fprintf(f, "Running the test with following options:\n");
	fprintf(f, "Number of threads: %u\n", cfg->threads);
	if (cfg->rate > 0)
		fprintf(f, "Target transaction rate: %.0f/sec\n", cfg->rate);
	if (cfg->report_interval_ns)
		fprintf(f, "Report intermediate results every %llu second(s)\n",
			(unsigned long long)(cfg->report_interval_ns / SM_NS_PER_S));
	if (cfg->validate)
		fprintf(f, "Validation checks: on.\n\n");
	if (seed_given)
		fprintf(f, "Initializing random number generator from seed (%llu).\n",
			(unsigned long long)seed_shown);
	else
		fprintf(f, "Initializing random number generator from current time\n");
	fprintf(f, "\n\n");
	extra_flags(f, cfg->extra_flags);
	fprintf(f, "%u files, %sB each\n", cfg->num_files,
		sm_sb_size(a, sizeof(a), (double)cfg->file_size));
	fprintf(f, "%sB total file size\n",
		sm_sb_size(a, sizeof(a), (double)(cfg->file_size * cfg->num_files)));
	fprintf(f, "Block size %sB\n", sm_sb_size(a, sizeof(a), (double)cfg->block_size));
	if (cfg->merged > 0)
		fprintf(f, "Merging requests up to %sB for sequential IO.\n",
			sm_sb_size(a, sizeof(a), (double)sm_fileio_request_size(cfg)));
	if (rnd) {
		fprintf(f, "Number of IO requests: %llu\n", (unsigned long long)cfg->max_events);
		fprintf(f, "Read/Write ratio for combined random IO test: %2.2f\n", cfg->rw_ratio);
	}
	if (cfg->fsync_freq > 0 && !cfg->fsync_all)
		fprintf(f, "Periodic FSYNC enabled, calling fsync() each %u requests.\n",
			cfg->fsync_freq);
	if (cfg->fsync_end && !cfg->fsync_all)
		fprintf(f, "Calling fsync() at the end of test, Enabled.\n");
	if (cfg->fsync_all)
		fprintf(f, "Calling fsync() after each write operation.\n");
	fprintf(f, "Using %s I/O mode\n", io_desc(cfg->io_mode));
	if (cfg->validate)
		fprintf(f, "Using checksums validation.\n");
	fprintf(f, "Doing %s test\n", sm_fileio_mode_desc(cfg->mode));
}

void sm_sb_run_started(FILE *f)
{
	fprintf(f, "Initializing worker threads...\n\nThreads started!\n\n");
	fflush(f);
}

void sm_sb_tick(FILE *f, const struct sm_fileio_tick *t, const struct sm_pct_list *pct)
{
	struct sm_fileio_tick_rates rt = sm_fileio_tick_rates(t);

	fprintf(f, "[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s "
		   "latency (ms,%g%%): %4.3f\n",
		(double)t->t_ns / 1e9, rt.read_bytes_per_s / 1048576.0, rt.write_bytes_per_s / 1048576.0,
		rt.fsyncs_per_s, pct->n ? pct->p[0] : 0, (double)t->lat_pct_ns / 1e6);
	fflush(f);
}

/* sysbench's histogram: 1024 buckets, logarithmic from 0.001 to 100000 ms. */
#define SB_HIST_SIZE 1024
#define SB_HIST_MIN 0.001
#define SB_HIST_MAX 100000.0

void sm_sb_histogram(FILE *f, const struct sm_hist *h)
{
	uint64_t sb[SB_HIST_SIZE];
	double deduct = log(SB_HIST_MIN);
	double mult = (SB_HIST_SIZE - 1) / (log(SB_HIST_MAX) - deduct);
	uint64_t maxcnt = 0;

	memset(sb, 0, sizeof(sb));
	for (unsigned i = 0; i < SM_HIST_BUCKETS; i++) {
		double ms;
		long k;

		if (!h->buckets[i])
			continue;
		ms = sm_hist_bucket_mid(i) / 1e6;
		k = ms > 0 ? (long)floor((log(ms) - deduct) * mult + 0.5) : 0;
		if (k < 0)
			k = 0;
		if (k >= SB_HIST_SIZE)
			k = SB_HIST_SIZE - 1;
		sb[k] += h->buckets[i];
	}
	for (unsigned k = 0; k < SB_HIST_SIZE; k++)
		if (sb[k] > maxcnt)
			maxcnt = sb[k];
	fprintf(f, "Latency histogram (values are in milliseconds)\n");
	if (maxcnt) {
		fprintf(f, "       value  ------------- distribution ------------- count\n");
		for (unsigned k = 0; k < SB_HIST_SIZE; k++) {
			int width;

			if (!sb[k])
				continue;
			width = (int)floor((double)sb[k] * 40.0 / (double)maxcnt + 0.5);
			fprintf(f, "%12.3f |%-40.*s %llu\n", exp(k / mult + deduct), width,
				"****************************************", (unsigned long long)sb[k]);
		}
	}
	fprintf(f, " \n");
}

/* "         min:" and the value right-aligned to column 53, as sysbench. */
static void lat_line(FILE *f, const char *label, double v)
{
	fprintf(f, "         %s%*.2f\n", label, 44 - (int)strlen(label), v);
}

void sm_sb_async_note(FILE *f, const struct sm_fileio_result *r, const struct sm_pct_list *pct)
{
	static const char *const name[3] = { "read", "write", "fsync" };
	double p = pct->n ? pct->p[0] : 95;
	const char *sep = "";

	if (r->cfg.io_mode != SM_FIO_IO_ASYNC)
		return;
	fprintf(f, "stormark: note: async I/O: the Latency above is each request's submission, as "
		"sysbench times it; issue to completion, p%g:", p);
	for (int k = 0; k < 3; k++) {
		if (!r->ops[k].count)
			continue;
		fprintf(f, "%s %s %.2f ms", sep, name[k],
			(double)sm_hist_percentile(&r->ops[k].lat, p) / 1e6);
		sep = ",";
	}
	fprintf(f, "\n");
}

void sm_sb_report(FILE *f, const struct sm_fileio_result *r, const struct sm_pct_list *pct)
{
	const struct sm_fileio_figures *g = &r->fig;
	const struct sm_hist *h = &r->events_lat;

	fprintf(f, "\nFile operations:\n");
	fprintf(f, "    reads/s:                      %4.2f\n", g->per_s[0]);
	fprintf(f, "    writes/s:                     %4.2f\n", g->per_s[1]);
	fprintf(f, "    fsyncs/s:                     %4.2f\n", g->per_s[2]);
	fprintf(f, "\nThroughput:\n");
	fprintf(f, "    read, MiB/s:                  %4.2f\n", g->bytes_per_s[0] / 1048576.0);
	fprintf(f, "    written, MiB/s:               %4.2f\n", g->bytes_per_s[1] / 1048576.0);
	fprintf(f, "\nGeneral statistics:\n");
	fprintf(f, "    total time:                          %.4fs\n", g->secs);
	fprintf(f, "    total number of events:              %llu\n", (unsigned long long)r->events);
	fprintf(f, "\nLatency (ms):\n");
	lat_line(f, "min:", h->count ? (double)h->min / 1e6 : 0);
	lat_line(f, "avg:", sm_hist_mean(h) / 1e6);
	lat_line(f, "max:", (double)h->max / 1e6);
	if (!pct->n)
		fprintf(f, "         percentile stats:               disabled\n");
	for (unsigned i = 0; i < pct->n; i++) {
		char label[48];

		/* "%3dth" as sysbench prints whole numbers; "99.9th" otherwise,
		 * with the value column kept in place */
		if (pct->p[i] == floor(pct->p[i]))
			snprintf(label, sizeof(label), "%3dth percentile:", (int)pct->p[i]);
		else
			snprintf(label, sizeof(label), "%gth percentile:", pct->p[i]);
		fprintf(f, "        %s%*.2f\n", label, 45 - (int)strlen(label),
			(double)sm_hist_percentile(h, pct->p[i]) / 1e6);
	}
	lat_line(f, "sum:", (double)h->sum / 1e6);
	fprintf(f, "\nThreads fairness:\n");
	fprintf(f, "    events (avg/stddev):           %.4f/%3.2f\n", g->thread_events_mean,
		g->thread_events_sd);
	fprintf(f, "    execution time (avg/stddev):   %.4f/%3.2f\n", g->thread_busy_mean_s,
		g->thread_busy_sd_s);
	fprintf(f, "\n");
	/* stormark's name only (the options do not exist under sysbench's):
	 * the report above is the steady window's */
	if (r->steady.on || r->precond.on) {
		sm_steady_text(f, &r->steady, &r->precond, 0);
		fprintf(f, "\n");
	}
}

/* fileio's options as its help lists them: name, value form, text, default. */
static const struct {
	const char *name, *form, *text, *dflt;
} sb_fileio_help[] = {
	{ "file-num", "=N", "number of files to create", "128" },
	{ "file-block-size", "=N", "block size to use in all IO operations", "16384" },
	{ "file-total-size", "=SIZE", "total size of files to create", "2G" },
	{ "file-test-mode", "=STRING", "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}", NULL },
	{ "file-io-mode", "=STRING", "file operations mode {sync,async,mmap}", "sync" },
	{ "file-async-backlog", "=N", "number of asynchronous operatons to queue per thread", "128" },
	{ "file-extra-flags", "=[LIST,...]", "list of additional flags to use to open files "
	  "{sync,dsync,direct}", "" },
	{ "file-fsync-freq", "=N", "do fsync() after this number of requests (0 - don't use fsync())", "100" },
	{ "file-fsync-all", "[=on|off]", "do fsync() after each write operation", "off" },
	{ "file-fsync-end", "[=on|off]", "do fsync() at the end of test", "on" },
	{ "file-fsync-mode", "=STRING", "which method to use for synchronization {fsync, fdatasync}", "fsync" },
	{ "file-merged-requests", "=N", "merge at most this number of IO requests if possible "
	  "(0 - don't merge)", "0" },
	{ "file-rw-ratio", "=N", "reads/writes ratio for combined test", "1.5" },
};

void sm_sb_fileio_options(FILE *f)
{
	size_t n = sizeof(sb_fileio_help) / sizeof(sb_fileio_help[0]), w = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(sb_fileio_help[i].name) + strlen(sb_fileio_help[i].form);

		w = l > w ? l : w;
	}
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "  --%s%-*s%s", sb_fileio_help[i].name,
			(int)(w - strlen(sb_fileio_help[i].name) + 1), sb_fileio_help[i].form,
			sb_fileio_help[i].text);
		if (sb_fileio_help[i].dflt)
			fprintf(f, " [%s]", sb_fileio_help[i].dflt);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}
