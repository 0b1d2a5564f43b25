/* SPDX-License-Identifier: MIT */
/* Reading a saved result back (cJSON): the common head and the shared
 * parts; each command's body has its own reader (json_read_time.c,
 * json_read_run.c, json_read_fileio.c, json_read_frames.c,
 * json_read_streams.c). A reader restores exactly what the writer wrote, so a
 * reporter given the restored result prints what the live run printed. */
#ifndef SM_RESULT_JSON_READ_H
#define SM_RESULT_JSON_READ_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "result/fileio.h"
#include "result/frames.h"
#include "result/meta.h"
#include "result/result.h"
#include "result/run.h"
#include "result/streams.h"
#include "result/timefig.h"

/* Where a reader reports its first failure: a one-line reason (room for
 * a memory refusal that names a cgroup's directory). */
struct sm_jerr {
	char msg[1024];
};

/* Record the first failure in e (later ones are dropped); returns -EINVAL. */
int sm_jerr_set(struct sm_jerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The largest result read: a day-long run's JSON is tens of MiB; more is
 * something else (a device, /dev/zero on stdin), not read to the end. */
#define SM_JSON_MAX_BYTES (256 << 20)

/* What a JSON text takes once parsed, counted from the text alone
 * (sm_json_shape_of): cJSON holds every value in a node of its own (64
 * bytes, 80 on the heap) and every key and string in an allocation of
 * its own, so a text of small numbers ("0,") takes 40 times its size. */
struct sm_json_shape {
	uint64_t text_bytes;        /* the text's length */
	uint64_t values;            /* its values: objects, arrays, strings, numbers... */
	uint64_t tree_bytes;        /* the heap its cJSON tree takes */
	uint64_t out_bytes;         /* the most it takes printed again, formatted
				     * (sm_json_write) */
};

/* Count text[0..len) into *s (no allocation, one pass). */
void sm_json_shape_of(const char *text, size_t len, struct sm_json_shape *s);

/* The memory reading a result of shape s takes at once beyond its text:
 * the tree, the command's result read from it (a quarter of the tree at
 * most), and with rewrite a second tree and its printed text (report
 * --format json builds the document again from the result). */
uint64_t sm_json_read_need(const struct sm_json_shape *s, int rewrite);

/*
 * Load and parse path ("-" for stdin) and check that it is a stormark
 * result this build can read: one JSON document (only white space after
 * it), an object with schema_version at most SM_SCHEMA_VERSION and a
 * "command". A device, socket or directory is refused before it is opened
 * (stdin: unless it is a terminal); the memory the parse needs
 * (sm_json_read_need(), rewrite as there) is checked against the memory
 * available (core/memcheck.h) before the parse, and so is each step of
 * reading a pipe. Returns 0 with *doc (caller-owned, cJSON_Delete), or
 * -errno / -EINVAL with the reason in e (not JSON, truncated, trailing
 * text, a newer schema, not a stormark result, a device; -EFBIG past
 * SM_JSON_MAX_BYTES; -ENOMEM with the need and the limit).
 */
int sm_json_load(const char *path, int rewrite, cJSON **doc, struct sm_jerr *e);

/* The same checks on text already in memory (NUL-terminated), name being
 * what the messages call it (a path); the memory check counts the tree
 * and the result (rewrite 0). Returns as sm_json_load(). */
int sm_json_parse_text(const char *text, const char *name, cJSON **doc, struct sm_jerr *e);

/*
 * Read doc, a loaded result, through its command's reader (the one
 * `stormark report` renders from: time, run, fileio, frames, streams,
 * and the "mpi" object of a many-host job) and throw the result away, so
 * that a command using the document's figures another way (compare,
 * history) takes only what report takes. Returns 0, -EINVAL with the
 * reason in e (a missing or malformed member, an unknown command),
 * or -ENOMEM.
 */
int sm_json_read_result(const cJSON *doc, struct sm_jerr *e);

/* The environment's "mount" object (sm_json_mount()) into *m. Returns 0,
 * or -EINVAL with e set (a missing or mistyped member). */
int sm_json_read_mount(const cJSON *o, struct sm_mount *m, struct sm_jerr *e);

/* A count: x is a whole number from 0 to below 2^64, stored in *v. Returns
 * 0, or -EINVAL (nothing stored) for anything else, which a cast to
 * uint64_t would make undefined (1e300, -1) or silently cut (2.5). */
int sm_json_count(const cJSON *x, uint64_t *v);

/* Typed members of obj: each returns 0, or -EINVAL with "'key' is missing
 * or not a ..." in e. A NULL obj is reported as missing too. */
int sm_jget_u64(const cJSON *obj, const char *key, uint64_t *v, struct sm_jerr *e);
int sm_jget_int(const cJSON *obj, const char *key, int *v, struct sm_jerr *e);
int sm_jget_uint(const cJSON *obj, const char *key, unsigned *v, struct sm_jerr *e);
int sm_jget_double(const cJSON *obj, const char *key, double *v, struct sm_jerr *e);
int sm_jget_bool(const cJSON *obj, const char *key, int *v, struct sm_jerr *e);
/* A string copied into buf (len bytes); -EINVAL also when it does not fit. */
int sm_jget_str(const cJSON *obj, const char *key, char *buf, size_t len, struct sm_jerr *e);
/* A string duplicated (caller frees) into *v; NULL for JSON null. */
int sm_jget_strdup(const cJSON *obj, const char *key, char **v, struct sm_jerr *e);
/* The object or array member key, or NULL with e set. */
const cJSON *sm_jget_obj(const cJSON *obj, const char *key, struct sm_jerr *e);
const cJSON *sm_jget_arr(const cJSON *obj, const char *key, struct sm_jerr *e);

/* A cliff object (sm_json_cliff()) into *c: the rates and times only when
 * "found", t and split_ratio only when "looked". Returns 0, or -EINVAL with
 * e set. */
struct sm_cliff;
int sm_json_read_cliff(const cJSON *o, struct sm_cliff *c, struct sm_jerr *e);

/* A test's stalls (sm_json_add_stalls()) from o into *s: zeroed, measured
 * 0, when o has no "stall_longest_ns" (a result saved before stalls were
 * looked for). Returns 0, or -EINVAL with e set (a list out of order, a
 * gap under the floor, more than SM_STALL_KEEP). */
struct sm_stalls;
int sm_json_read_stalls(const cJSON *o, struct sm_stalls *s, struct sm_jerr *e);

/* The "verify" object of doc, if any, into *st and *run_id (both zeroed
 * when doc has none). Returns 0, or -EINVAL with the reason in e. */
int sm_json_read_verify(const cJSON *doc, struct sm_verify_stats *st, uint64_t *run_id, struct sm_jerr *e);

/* The arrays keys[0..nkeys) of obj (a series stored column by column)
 * into out[]; they must all have one length. Returns that length, or
 * -EINVAL with e set when one is missing or the lengths differ. */
int sm_jget_columns(const cJSON *obj, const char *const *keys, unsigned nkeys,
		    const cJSON **out, struct sm_jerr *e);

/* The head (command, version, argv, started_at, duration_ns, interrupted,
 * environment, warnings, errors) into h; h owns its argv afterwards
 * (sm_result_head_release). Returns 0 or -EINVAL/-ENOMEM with e set. */
int sm_json_read_head(const cJSON *doc, struct sm_result_head *h, struct sm_jerr *e);

/* The environment object as sm_json_env() wrote it. */
int sm_json_read_env(const cJSON *o, struct sm_env *env, struct sm_jerr *e);

/* A latency object with its "histogram" (sm_json_lat with buckets) back into
 * h, exactly: buckets, count, min, max, sum, m2. */
int sm_json_read_lat(const cJSON *o, struct sm_hist *h, struct sm_jerr *e);

/* An operation object (sm_json_opstat with buckets) into s. */
int sm_json_read_opstat(const cJSON *o, struct sm_opstat *s, struct sm_jerr *e);

/* A `time` document into r (r->owned: release with sm_time_result_release). */
int sm_time_from_json(const cJSON *doc, struct sm_time_result *r, struct sm_jerr *e);

/* A `meta` document into r (release with sm_meta_from_json_release: the
 * head's argv). The phases absent from the document did not run (ran 0).
 * Returns 0, or -EINVAL/-ENOMEM with e set. */
int sm_meta_from_json(const cJSON *doc, struct sm_meta_result *r, struct sm_jerr *e);
void sm_meta_from_json_release(struct sm_meta_result *r);

/* A `run` document into res (release with sm_run_from_json_release). The
 * plan's strings point into res; formats and rates into the built-in
 * tables. */
int sm_run_from_json(const cJSON *doc, struct sm_run_result *res, struct sm_jerr *e);
void sm_run_from_json_release(struct sm_run_result *res);

/* A `fileio run` document into r (release with sm_fileio_from_json_release:
 * the reader allocates cfg.dir, the per-thread arrays and the series). */
/* The "steady" and "precondition" objects of doc into *s and *p (zero,
 * with on = 0, when absent). Returns 0, or -EINVAL with e set. */
int sm_json_read_steady(const cJSON *doc, struct sm_steady *s, struct sm_precond *p, struct sm_jerr *e);

int sm_fileio_from_json(const cJSON *doc, struct sm_fileio_result *r, struct sm_jerr *e);
void sm_fileio_from_json_release(struct sm_fileio_result *r);

/* A frames series as sm_json_frames_series() wrote it (se: the "series"
 * object) back into cumulative samples: *series (n of them, caller frees;
 * NULL for none) and *nseries. Returns 0, or -EINVAL/-ENOMEM with e set
 * (and nothing allocated). */
int sm_json_read_frames_series(const cJSON *se, struct sm_frames_snap **series, unsigned *nseries,
			       struct sm_jerr *e);

/* A `frames` document into r (release with sm_frames_from_json_release: the
 * reader allocates the plan's strings and the series). */
int sm_frames_from_json(const cJSON *doc, struct sm_frames_result *r, struct sm_jerr *e);
void sm_frames_from_json_release(struct sm_frames_result *r);

/* A `streams` document into res (release with sm_streams_from_json_release:
 * the reader allocates plan.dir, the cells, their steps and each step's
 * streams; the plan's format and rate tables are not restored, the
 * reporters read the cells). Returns 0, or -EINVAL/-ENOMEM with e set. */
int sm_streams_from_json(const cJSON *doc, struct sm_streams_result *res, struct sm_jerr *e);
void sm_streams_from_json_release(struct sm_streams_result *res);

#endif
