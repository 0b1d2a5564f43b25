/* SPDX-License-Identifier: MIT */
/* Reading a saved `stormark frames` result back (the document of
 * sm_json_frames()). */
#include "result/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_plan(const cJSON *p, struct sm_frames_result *r, struct sm_jerr *e)
{
	struct sm_frames_plan *pl = &r->plan;
	const cJSON *log = cJSON_GetObjectItemCaseSensitive(p, "csv");
	char test[16], order[16], data[16], *path, *engine, *csv = NULL;
	int rc = 0;

	rc |= sm_jget_str(p, "test", test, sizeof(test), e);
	rc |= sm_jget_bool(p, "stream", &pl->stream, e);
	rc |= sm_jget_strdup(p, "path", &path, e);
	pl->path = path;
	rc |= sm_jget_u64(p, "frame_bytes", &pl->frame_bytes, e);
	rc |= sm_jget_u64(p, "frames", &pl->nframes, e);
	rc |= sm_jget_uint(p, "threads", &pl->threads, e);
	rc |= sm_jget_uint(p, "depth", &pl->depth, e);
	rc |= sm_jget_bool(p, "out_of_order", &pl->out_of_order, e);
	rc |= sm_jget_double(p, "fps", &pl->fps, e);
	rc |= sm_jget_uint(p, "queue", &pl->queue, e);
	rc |= sm_jget_uint(p, "prebuffer", &pl->prebuffer, e);
	rc |= sm_jget_str(p, "order", order, sizeof(order), e);
	rc |= sm_jget_u64(p, "loop", &pl->loop, e);
	rc |= sm_jget_uint(p, "ios_per_frame", &pl->ios_per_frame, e);
	rc |= sm_jget_uint(p, "files_per_dir", &pl->files_per_dir, e);
	rc |= sm_jget_uint(p, "crop_pct", &pl->crop_pct, e);
	rc |= sm_jget_strdup(p, "engine", &engine, e);
	pl->engine = engine;
	rc |= sm_jget_bool(p, "direct", &pl->direct, e);
	rc |= sm_jget_str(p, "data", data, sizeof(data), e);
	rc |= sm_jget_u64(p, "seed", &pl->seed, e);
	rc |= sm_jget_u64(p, "time_limit_ns", &pl->time_limit_ns, e);
	rc |= sm_jget_u64(p, "hist_window_ns", &pl->hist_window_ns, e);
	rc |= sm_jget_str(p, "frametest_params", r->test_params, sizeof(r->test_params), e);
	rc |= sm_jget_str(p, "video_format", r->video_format, sizeof(r->video_format), e);
	rc |= sm_jget_bool(p, "video_capture", &r->video_capture, e);
	if (!cJSON_IsNull(log))
		rc |= sm_jget_strdup(p, "csv", &csv, e);
	pl->csv_path = csv;
	if (rc)
		return -EINVAL;
	pl->kind = !strcmp(test, "write") ? SM_FRAMES_WRITE : !strcmp(test, "empty") ?
		   SM_FRAMES_EMPTY : SM_FRAMES_READ;
	pl->order = !strcmp(order, "reverse") ? SM_ORDER_REVERSE : !strcmp(order, "random") ?
		    SM_ORDER_RANDOM : SM_ORDER_FORWARD;
	pl->data = !strcmp(data, "zero") ? SM_DATA_ZERO : SM_DATA_RANDOM;
	return 0;
}

int sm_json_read_frames_series(const cJSON *se, struct sm_frames_snap **series, unsigned *nseries,
			       struct sm_jerr *e)
{
	const char *const *keys = sm_frames_series_keys;
	const cJSON *a[SM_FRAMES_SERIES_KEYS], *it[SM_FRAMES_SERIES_KEYS];
	struct sm_frames_snap *out;
	int n = sm_jget_columns(se, keys, SM_FRAMES_SERIES_KEYS, a, e);

	*series = NULL;
	*nseries = 0;
	if (n < 0)
		return n;
	out = calloc((size_t)n + 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	/* walked in step, not by index: an index walks the list from its head
	 * (a day-long series would take minutes) */
	for (unsigned k = 0; k < SM_FRAMES_SERIES_KEYS; k++)
		it[k] = a[k]->child;
	for (int i = 0; i < n; i++) {
		struct sm_frames_snap *s = &out[i];
		uint64_t *v[SM_FRAMES_SERIES_KEYS] = { &s->t_ns, &s->bytes, &s->frames, &s->dropped, &s->open_ns,
				   &s->io_ns, &s->close_ns, &s->frame_ns };

		if (i)
			*s = out[i - 1];
		for (unsigned k = 0; k < SM_FRAMES_SERIES_KEYS; k++) {
			uint64_t d;

			if (sm_json_count(it[k], &d)) {
				free(out);
				return sm_jerr_set(e, "'series.%s' holds something other than counts",
						   keys[k]);
			}
			*v[k] += d;   /* deltas back to running sums */
			it[k] = it[k]->next;
		}
	}
	*series = out;
	*nseries = (unsigned)n;
	return 0;
}

/* frames.per_frame into r->frame_map; a document without it (written
 * before it existed) leaves the map empty. */
static int read_per_frame(const cJSON *fr, struct sm_frames_result *r, struct sm_jerr *e)
{
	const char *const *keys = sm_frames_map_keys;
	const cJSON *pf = cJSON_GetObjectItemCaseSensitive(fr, "per_frame"), *a[SM_FRAMES_MAP_KEYS];
	int paced = pf && cJSON_GetObjectItemCaseSensitive(pf, "sched_frames") != NULL;
	uint64_t w;
	int n;

	sm_framemap_init(&r->frame_map);
	if (!pf)
		return 0;
	if (sm_jget_u64(pf, "frames_per_column", &w, e))
		return -EINVAL;
	if (!w || (w & (w - 1)))
		return sm_jerr_set(e, "'frames.per_frame.frames_per_column' is not a power of two");
	n = sm_jget_columns(pf, keys, paced ? SM_FRAMES_MAP_KEYS : SM_FRAMES_MAP_KEYS_UNPACED, a, e);
	if (n < 0)
		return n;
	if (n > SM_FRAMEMAP_COLS)
		return sm_jerr_set(e, "'frames.per_frame' has more than %d columns", SM_FRAMEMAP_COLS);
	r->frame_map.width = w;
	r->frame_map.ncols = (unsigned)n;
	for (int i = 0; i < n; i++) {
		struct sm_framemap_col *c = &r->frame_map.col[i];
		uint64_t *v[] = { &c->frames, &c->dropped, &c->min_ns, &c->max_ns, &c->sum_ns,
				  &c->sched_frames, &c->sched_min_ns, &c->sched_max_ns,
				  &c->sched_sum_ns };

		for (unsigned k = 0; k < (paced ? SM_FRAMES_MAP_KEYS : SM_FRAMES_MAP_KEYS_UNPACED); k++)
			if (sm_json_count(cJSON_GetArrayItem(a[k], i), v[k]))
				return sm_jerr_set(e, "'frames.per_frame.%s' holds something other "
						   "than counts", keys[k]);
	}
	return 0;
}

static int read_opt_lat(const cJSON *o, const char *key, struct sm_hist *h, struct sm_jerr *e)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, key);

	sm_hist_init(h);
	return l ? sm_json_read_lat(l, h, e) : 0;
}

int sm_frames_from_json(const cJSON *doc, struct sm_frames_result *r, struct sm_jerr *e)
{
	const cJSON *ops, *fr, *tot, *frame, *io, *hist, *paced, *late;
	int rc;

	memset(r, 0, sizeof(*r));
	sm_opstat_init(&r->open);
	sm_opstat_init(&r->io);
	sm_opstat_init(&r->close);
	sm_opstat_init(&r->frame);
	sm_hist_init(&r->sched_lat);
	sm_hist_init(&r->early);
	sm_hist_init(&r->late);
	sm_hist_init(&r->frame_window);
	rc = sm_json_read_head(doc, &r->head, e);
	if (!rc)
		rc = read_plan(sm_jget_obj(doc, "params", e), r, e);
	if (rc)
		return rc;
	ops = sm_jget_obj(doc, "ops", e);
	fr = sm_jget_obj(doc, "frames", e);
	tot = sm_jget_obj(doc, "totals", e);
	if (!ops || !fr || !tot)
		return -EINVAL;
	frame = sm_jget_obj(ops, "frame", e);
	io = cJSON_GetObjectItemCaseSensitive(ops, r->plan.kind == SM_FRAMES_READ ? "read" : "write");
	if (sm_json_read_opstat(sm_jget_obj(ops, "open", e), &r->open, e) ||
	    sm_json_read_opstat(sm_jget_obj(ops, "close", e), &r->close, e) ||
	    sm_json_read_opstat(frame, &r->frame, e) ||
	    (io && sm_json_read_opstat(io, &r->io, e)) ||
	    read_opt_lat(frame, "sched_lat_ns", &r->sched_lat, e))
		return -EINVAL;
	rc |= sm_jget_u64(tot, "bytes", &r->bytes, e);
	rc |= sm_jget_u64(tot, "items", &r->frames_done, e);
	rc |= sm_jget_u64(fr, "scheduled", &r->frames_scheduled, e);
	rc |= sm_jget_u64(fr, "dropped", &r->frames_dropped, e);
	rc |= sm_jget_u64(fr, "longest_drop_run", &r->longest_drop_run, e);
	rc |= sm_jget_u64(fr, "max_buffers_used", &r->max_queue, e);
	rc |= sm_jget_u64(fr, "fastest_ns", &r->fastest_ns, e);
	rc |= sm_jget_u64(fr, "slowest_ns", &r->slowest_ns, e);
	hist = sm_jget_obj(fr, "histogram", e);
	rc |= sm_jget_u64(hist, "covered_ns", &r->frame_window_ns, e);
	if (rc || !hist || sm_json_read_lat(sm_jget_obj(hist, "frame_ns", e), &r->frame_window, e))
		return -EINVAL;
	paced = cJSON_GetObjectItemCaseSensitive(fr, "paced");
	if (paced) {
		rc |= sm_jget_u64(paced, "frames", &r->paced_frames, e);
		rc |= sm_jget_u64(paced, "schedule_ns", &r->schedule_ns, e);
		rc |= sm_jget_double(paced, "frames_per_s", &r->paced_fps, e);
	}
	late = cJSON_GetObjectItemCaseSensitive(fr, "lateness_ns");
	if (rc || (late && (read_opt_lat(late, "early", &r->early, e) ||
			    read_opt_lat(late, "late", &r->late, e))) || read_per_frame(fr, r, e))
		return -EINVAL;
	if (r->head.error[0])
		r->error = -EIO;   /* the text says what; the code is not kept */
	if (sm_json_read_verify(doc, &r->verify, &r->plan.verify_run, e))
		return -EINVAL;
	r->plan.verify = cJSON_GetObjectItemCaseSensitive(doc, "verify") != NULL;
	if (sm_json_read_stalls(doc, &r->stalls, e))
		return -EINVAL;
	return sm_json_read_frames_series(sm_jget_obj(doc, "series", e), &r->series, &r->nseries, e);
}

void sm_frames_from_json_release(struct sm_frames_result *r)
{
	free((char *)r->plan.path);
	free((char *)r->plan.engine);
	free((char *)r->plan.csv_path);
	free(r->series);
	r->plan.path = r->plan.engine = r->plan.csv_path = NULL;
	r->series = NULL;
	r->nseries = 0;
	sm_result_head_release(&r->head);
}
