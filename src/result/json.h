/* SPDX-License-Identifier: MIT */
/* JSON building blocks shared by every command's --json output (cJSON).
 * The document layout is in docs/json-schema.md. */
#ifndef SM_RESULT_JSON_H
#define SM_RESULT_JSON_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/result.h"

/* A new document that starts with the common head, written the same way
 * for every command: schema_version, tool, command, argv, started_at,
 * duration_ns, interrupted, environment. The command's writer then adds
 * "params" and its body, and sm_json_doc_finish() the rest of the head.
 * Returns a cJSON object owned by the caller (cJSON_Delete), or NULL. */
cJSON *sm_json_doc_new(const struct sm_result_head *h);

/* Add the end of the common head to doc: "warnings" and "errors" (an array
 * with the error string, empty when there was none). */
void sm_json_doc_finish(cJSON *doc, const struct sm_result_head *h);

/* {"kernel","fs_type","device","mount_point","fs_free_bytes","fs_total_bytes",
 *  "direct_io","engine","mem_total_bytes","mem_available_bytes","cpus"} */
cJSON *sm_json_env(const struct sm_env *env);

/* The environment's "mount" (json_mount.c): {"protocol","kind","subtype",
 * "server","export","options":{NAME: number, word or true, for the options
 * the mount showed}}; sm_json_env() writes it when the protocol is known. */
cJSON *sm_json_mount(const struct sm_mount *m);

/* Latency summary in ns: min, mean, max, stddev, p50, p90, p95, p99, p99_9,
 * p99_99; with_buckets adds "histogram": {"sub_bits", "sum" (exact sum of
 * the values, ns), "m2" (sum of squared deviations, ns^2), "counts":
 * [[low_ns, count], ...]} (non-empty buckets only), enough to restore the
 * histogram exactly (sm_json_read_lat) and to merge runs. */
cJSON *sm_json_lat(const struct sm_hist *h, int with_buckets);

/* {"count","bytes","errors","lat_ns":{...}} */
cJSON *sm_json_opstat(const struct sm_opstat *s, int with_buckets);

/* A write rate's cliff (docs/cliff.md): {"looked", "found", "samples",
 * "interval_ns", "t", "split_ratio", "burst_bytes_per_s",
 * "sustained_bytes_per_s", "ratio", "at_ns", "bytes_at"}; the last five are
 * null unless found, t and split_ratio null unless looked. */
struct sm_cliff;
cJSON *sm_json_cliff(const struct sm_cliff *c);

/* A test's stalls (core/stall.h), added to o when measured: "stalls" (gaps
 * longer than the buffer), "stall_longest_ns", "stall_threshold_ns",
 * "stalls_capped" (the count is a lower bound), "stall_gaps" (gaps of at
 * least SM_STALL_FLOOR_NS) and "stall_list" ([[at_ns, len_ns], ...], the
 * longest first, at most SM_STALL_KEEP); read back by
 * sm_json_read_stalls(). Nothing is added when not measured. */
struct sm_stalls;
void sm_json_add_stalls(cJSON *o, const struct sm_stalls *s);

/* A frames series (cumulative per-second samples, struct sm_frames_snap,
 * n of them) as stored: {"interval_ns": 1 s, and per sample the change
 * since the sample before: "duration_ns", "bytes", "items", "dropped",
 * "open_ns", "io_ns", "close_ns", "frame_ns"} (one array each). frames'
 * top-level "series" and each of run's frame tests (docs/json-schema.md);
 * read back by sm_json_read_frames_series(). */
struct sm_frames_snap;
cJSON *sm_json_frames_series(const struct sm_frames_snap *s, unsigned n);

/* [{"code","message"}, ...] */
cJSON *sm_json_warnings(const struct sm_warnings *w);

/* A uint64 as a JSON number, printed in full (read back exactly below 2^53,
 * which covers bytes and ns of any real run). */
cJSON *sm_json_u64(uint64_t v);
void sm_json_add_u64(cJSON *obj, const char *key, uint64_t v);

/* A double as the shortest JSON number that reads back as the same double
 * (null when not finite), so derived figures do not change when a saved
 * result is rendered again. */
cJSON *sm_json_double(double v);
void sm_json_add_double(cJSON *obj, const char *key, double v);

/* Make every number under o (a parsed document) print as this project's
 * writers print them: whole numbers below 2^63 in full (as sm_json_u64),
 * others in the shortest form (as sm_json_double); cJSON's own printing of
 * a number it parsed can differ in the last digit. They become raw items,
 * which the readers no longer take: for output only. 0 or -ENOMEM. */
int sm_json_renumber(cJSON *o);

/* A deep copy of o, renumbered (sm_json_renumber); NULL when out of memory. */
cJSON *sm_json_dup_saved(const cJSON *o);

/* For a text layout of a saved document: a deep copy of doc whose strings
 * (paths, notes, the command line, the environment) have their control
 * characters escaped as the one-line messages show them (\n, \x1b: core/
 * msg.h's sm_escape_ctl()), so a saved result cannot move the cursor,
 * retitle the terminal or forge a line. *copy is NULL when no string needed
 * it (use doc). 0 or -ENOMEM. */
int sm_json_escaped_copy(const cJSON *doc, cJSON **copy);

/* Print doc to path ("-" for stdout), indented, with a final newline.
 * Returns 0 or -errno. */
int sm_json_write(const cJSON *doc, const char *path);

#endif
