/* SPDX-License-Identifier: MIT */
/* Two sets of saved results compared figure by figure: the figures each
 * result holds (read as stored, never computed again), their means, the
 * ratio B/A and, for repeated runs, Welch's t-test; and the parameters and
 * environment that make the two incomparable or worth a note. */
#ifndef SM_ANALYSIS_COMPARE_H
#define SM_ANALYSIS_COMPARE_H

#include <stdint.h>
#include <cjson/cJSON.h>

#include "analysis/welch.h"
#include "result/timefig.h"

/* How a figure is measured (the renderer picks the format from it). */
enum sm_cmp_unit {
	SM_CU_NS,        /* a time, ns */
	SM_CU_BPS,       /* bytes per second */
	SM_CU_RATE,      /* events (frames, operations) per second */
	SM_CU_COUNT,     /* a count */
	SM_CU_BYTES,     /* bytes */
	SM_CU_PCT,       /* percent */
	SM_CU_MS,        /* a time, ms */
	SM_CU_VERDICT,   /* a verdict cell: text, no number */
};

/* One figure of one run. */
struct sm_cmp_fig {
	char name[96];          /* stable key: "totals.bytes_per_s", "ops.write.p99" */
	char label[96];         /* for people: "write p99" */
	enum sm_cmp_unit unit;
	int better;             /* +1 higher is better, -1 lower is, 0 neither */
	double v;
	char verdict[16];       /* SM_CU_VERDICT: realtime, marginal, not-realtime */
};

/* The figures of one run (a time document holds one per measured run). */
struct sm_cmp_run {
	struct sm_cmp_fig *fig;
	unsigned n, cap;
	char bad[96];           /* while reading: the name of a figure refused for
				 * its value (sm_cmp_doc_figures), else "" */
};

/* Where one side was measured, from its first result. */
struct sm_cmp_env {
	int known;              /* 0: no result carried it (time runs saved by schema 1) */
	char kernel[128], fs_type[32], device[128], engine[16];
	int direct_io;
	unsigned cpus;
	uint64_t mem_total_bytes;
};

/* One side of a comparison: one saved JSON file or one history key. */
struct sm_cmp_side {
	char name[160];         /* the file or key as given */
	char command[16];       /* "" until a result is added */
	unsigned ndocs;         /* results added */
	unsigned interrupted;   /* of them, stopped by a signal */
	struct sm_cmp_run *runs;
	unsigned nruns, cap;
	cJSON *params;          /* a copy of the first result's params, or NULL */
	struct sm_cmp_env env;
};

/*
 * Add the result doc (a loaded stormark JSON) to s: its command, params
 * and environment (from the first), and, with figures set, its runs' figures.
 * A second result of another command, or whose parameters that decide
 * what the figures mean differ from the first's, is refused: returns
 * -EINVAL with one line in why. Returns 0, -ENOMEM, or -EINVAL (a
 * document this reader cannot take, with why).
 */
int sm_cmp_side_add_doc(struct sm_cmp_side *s, const cJSON *doc, int figures, char *why,
			size_t len);

/* Add one `time` run's figures (a history row; missing figures are left
 * out). Sets the command to time. Returns 0 or -ENOMEM. */
int sm_cmp_side_add_time_run(struct sm_cmp_side *s, const struct sm_time_run *r);

/* The figures of one `time` run into r (compare_figs.c): 0 or -ENOMEM. */
struct sm_time_run;
int sm_cmp_time_figs(struct sm_cmp_run *r, const struct sm_time_run *t);

/* The figures of doc into runs[0..*n) (new array; sm_cmp_runs_free).
 * Returns 0, -ENOMEM, or -EINVAL with why. */
int sm_cmp_doc_figures(const cJSON *doc, struct sm_cmp_run **runs, unsigned *n, char *why,
		       size_t len);
void sm_cmp_runs_free(struct sm_cmp_run *runs, unsigned n);

/* The figure named name in run, or NULL. */
const struct sm_cmp_fig *sm_cmp_find(const struct sm_cmp_run *run, const char *name);

/* Free what s holds (s itself is the caller's). */
void sm_cmp_side_release(struct sm_cmp_side *s);

/* One figure compared. */
struct sm_cmp_row {
	char name[96], label[96];
	enum sm_cmp_unit unit;
	int better;
	unsigned na, nb;            /* runs of each side that have it (0: absent) */
	double mean_a, mean_b;      /* over those runs */
	double sd_a, sd_b;          /* sample standard deviations (0 for one run) */
	double ratio;               /* mean_b / mean_a; NAN when a side lacks it or mean_a is 0 */
	int tested;                 /* Welch's test ran: both sides have 2+ runs */
	struct sm_welch w;          /* when tested (w.p NAN: no spread, see sm_welch) */
	int significant;            /* tested and w.p < alpha */
	int change;                 /* significant: +1 better, -1 worse (by better); else 0 */
	char verdict_a[16], verdict_b[16];   /* SM_CU_VERDICT: the runs' verdict,
					      * "mixed" when they differ, "" absent */
};

#define SM_CMP_MAX_NOTES 24

/* The comparison of two sides. */
struct sm_cmp {
	char command[16];
	double alpha;
	unsigned nruns_a, nruns_b, ndocs_a, ndocs_b;
	struct sm_cmp_row *rows;
	unsigned nrows;
	char notes[SM_CMP_MAX_NOTES][200];   /* differing environment and parameters */
	unsigned nnotes;
};

/*
 * Compare a (the baseline) with b at significance level alpha (0.05 is
 * the usual). Refuses, with -EINVAL and one line in why: sides of different
 * commands, a side with no runs, and parameters that decide what the
 * figures mean (frames: test, frame_bytes, fps, stream; fileio: test_mode,
 * block_size_bytes; run: formats, fps) differing between a and b. Other
 * parameters and the environment (kernel, file system, device, direct vs
 * buffered I/O, engine, CPUs, memory) that differ become notes. Returns 0
 * (release c with sm_cmp_release), -ENOMEM or -EINVAL.
 */
int sm_cmp_compute(const struct sm_cmp_side *a, const struct sm_cmp_side *b, double alpha,
		   struct sm_cmp *c, char *why, size_t len);
void sm_cmp_release(struct sm_cmp *c);

#endif
