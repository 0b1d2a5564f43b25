/* SPDX-License-Identifier: MIT */
/* Internals shared by report/openmetrics.c (the families, the writing of
 * samples, the reading of the document, the page) and
 * report/openmetrics_cmds.c (each command's samples). Not for use outside
 * report/openmetrics*. */
#ifndef SM_REPORT_OPENMETRICS_INT_H
#define SM_REPORT_OPENMETRICS_INT_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* The families, in the order they are printed. */
enum fam {
	F_RESULT, F_STARTED, F_DURATION, F_INTERRUPTED, F_WARNINGS, F_ERRORS,
	F_MPI_RANKS, F_MPI_BPS, F_MPI_STRAGGLERS,
	F_CLIFF_FOUND, F_CLIFF_BURST, F_CLIFF_SUST, F_STEADY_REACHED, F_STEADY_ROUNDS,
	F_FR_BPS, F_FR_FPS, F_FR_BYTES, F_FR_FT, F_FR_FT_MEAN, F_FR_SCHED, F_FR_MOVED, F_FR_DROPPED,
	F_FI_BPS, F_FI_OPS, F_FI_BYTES, F_FI_ERRS, F_FI_LAT, F_FI_LAT_MEAN, F_FI_EVLAT,
	F_RUN_BLK_BPS, F_RUN_BLK_IOPS, F_RUN_BLK_LAT,
	F_RUN_FR_BPS, F_RUN_FR_FPS, F_RUN_FR_FT,
	F_RUN_V_RATIO, F_RUN_V, F_RUN_V_NEED, F_RUN_V_MEAS,
	F_ST_MAX, F_ST_HEAD, F_ST_HIGH, F_ST_AT_CAP, F_ST_TRIALS, F_ST_TRIALS_HELD, F_ST_RATE, F_ST_SUST, F_ST_AGG,
	F_ST_MIX_HELD, F_ST_MIX_BPS, F_ST_MIX_DROP, F_ST_MIXG_HELD,
	F_TIME_RUNS, F_TIME_WALL, F_TIME_USER, F_TIME_SYS, F_TIME_CPU, F_TIME_RSS,
	F_TIME_RD, F_TIME_WR, F_TIME_SRD, F_TIME_SWR, F_TIME_SCWR, F_TIME_DRD, F_TIME_DWR,
	F_TIME_SYSCALLS, F_TIME_CALLS, F_TIME_FAULTS, F_TIME_CTXSW, F_TIME_DISK_IOS, F_TIME_PROCS,
	F_META_OPS, F_META_COUNT, F_META_ERRS, F_META_DUR, F_META_LAT, F_META_LAT_MEAN,
	F_RUN_META_OPS, F_RUN_META_SEQ,
	F_LIVE, F_LIVE_UPDATED, F_LIVE_ELAPSED, F_LIVE_LEFT, F_LIVE_STALL_LONGEST, F_LIVE_STALL_GAPS, F_LIVE_FIG,
	NFAM
};

/* The samples of each family, collected before any is printed: a family's
 * samples are printed together, as both formats require. */
struct om {
	FILE *mem[NFAM];
	char *buf[NFAM];
	size_t len[NFAM];
	const char *common[5][2];   /* command, key, host, dir, device (value NULL: absent) */
	int oom;
};

/* The sample of o.key over scale (a unit's conversion), when the document has the figure. */
#define PUT(m, fam, o, key, scale, ...)                                              \
	do {                                                                         \
		double v_;                                                           \
		if (sm_om_num((o), (key), &v_))                                            \
			sm_om_sample((m), (fam), v_ / (scale), __VA_ARGS__);               \
	} while (0)

#define NS 1e9

/* One sample of family fam with its labels: pairs of name and value
 * ending with NULL (a NULL value leaves its label out). */
void sm_om_sample(struct om *m, enum fam fam, double v, ...);
/* One sample with the n labels of kv. */
void sm_om_sample_kv(struct om *m, enum fam fam, double v, const char *const (*kv)[2], unsigned n);

/* The document's values: o.key (NULL when absent); its number in *v
 * (0: absent or not a number); its string (or "", nstr: NULL); its number
 * or NAN. */
const cJSON *sm_om_at(const cJSON *o, const char *key);
int sm_om_num(const cJSON *o, const char *key, double *v);
const char *sm_om_str(const cJSON *o, const char *key);
const char *sm_om_nstr(const cJSON *o, const char *key);
double sm_om_numv(const cJSON *o, const char *key);

/* A latency object's quantiles as a summary, a direction's label, a
 * cliff's and a steady state's samples (openmetrics.c says more). */
void sm_om_quantiles(struct om *m, enum fam fam, const cJSON *lat, double count, const char *k1, const char *v1,
		      const char *k2, const char *v2, const char *k3, const char *v3);
const char *sm_om_direction(const char *d);
void sm_om_cliff(struct om *m, const cJSON *c, const char *k1, const char *v1, const char *k2, const char *v2,
		  const char *k3, const char *v3, const char *k4, const char *v4);
void sm_om_steady(struct om *m, const cJSON *st, const char *k1, const char *v1, const char *k2, const char *v2);

/* The samples of each command's document, and of a run under way. */
void sm_om_frames(struct om *m, const cJSON *doc);
void sm_om_fileio(struct om *m, const cJSON *doc);
void sm_om_run(struct om *m, const cJSON *doc);
void sm_om_meta(struct om *m, const cJSON *doc);
void sm_om_streams(struct om *m, const cJSON *doc);
void sm_om_time_cmd(struct om *m, const cJSON *doc);
void sm_om_live(struct om *m, const cJSON *doc);

#endif
