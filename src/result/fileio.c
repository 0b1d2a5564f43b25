/* SPDX-License-Identifier: MIT */
/* fileio plan defaults (sysbench 1.0.20's) and the test modes' names. */
#include "result/fileio.h"
#include "core/clock.h"

#include <string.h>

void sm_fileio_cfg_defaults(struct sm_fileio_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dir = ".";
	cfg->num_files = 128;
	cfg->total_size = 2ULL << 30;
	cfg->block_size = 16384;
	cfg->mode = SM_FIO_NONE;
	cfg->io_mode = SM_FIO_IO_SYNC;
	cfg->async_backlog = 128;
	cfg->fsync_freq = 100;
	cfg->fsync_end = 1;
	cfg->rw_ratio = 1.5;
	cfg->threads = 1;
	cfg->time_ns = 10 * SM_NS_PER_S;
	cfg->data = SM_DATA_RANDOM;
}

uint64_t sm_fileio_request_size(const struct sm_fileio_cfg *cfg)
{
	return cfg->merged ? cfg->block_size * cfg->merged : cfg->block_size;
}

int sm_fileio_tick_whole(const struct sm_fileio_cfg *cfg, const struct sm_fileio_tick *t, int last)
{
	uint64_t iv = cfg->report_interval_ns ? cfg->report_interval_ns : SM_NS_PER_S;

	if (t->t_ns % iv == 0)
		return 1;
	/* the run's last tick when the run went to its time limit and the
	 * limit is a whole number of intervals: it covers the last of them
	 * (up to the run's end, its closing fsyncs included) */
	return last && cfg->time_ns && cfg->time_ns % iv == 0 && t->t_ns >= cfg->time_ns &&
	       t->interval_ns <= t->t_ns && t->t_ns - t->interval_ns == cfg->time_ns - iv;
}

int sm_fileio_tick_partial(const struct sm_fileio_result *r, unsigned i)
{
	return !sm_fileio_tick_whole(&r->cfg, &r->series[i], i + 1 == r->nseries);
}

int sm_fileio_mode_writes(enum sm_fileio_mode m)
{
	return m == SM_FIO_SEQWR || m == SM_FIO_SEQREWR || m == SM_FIO_RNDWR || m == SM_FIO_RNDRW;
}

static const char *const mode_names[] = { "seqwr", "seqrewr", "seqrd", "rndrd", "rndwr", "rndrw" };
static const char *const mode_descs[] = {
	"sequential write (creation)", "sequential rewrite", "sequential read",
	"random read", "random write", "random r/w",
};

const char *sm_fileio_mode_name(enum sm_fileio_mode m)
{
	return m >= 0 && m <= SM_FIO_RNDRW ? mode_names[m] : "(none)";
}

const char *sm_fileio_mode_desc(enum sm_fileio_mode m)
{
	return m >= 0 && m <= SM_FIO_RNDRW ? mode_descs[m] : "(unknown)";
}

enum sm_fileio_mode sm_fileio_mode_parse(const char *s)
{
	for (int i = 0; i <= SM_FIO_RNDRW; i++)
		if (!strcmp(s, mode_names[i]))
			return (enum sm_fileio_mode)i;
	return SM_FIO_NONE;
}

#define R struct sm_fileio_result
const struct sm_field sm_fileio_doc_fields[SM_FDOC_N] = {
	[SM_FDOC_TOTALS] = SM_FIELD_X("totals", SM_FT_OBJ, "", 0),
	[SM_FDOC_OPS] = SM_FIELD_X("ops", SM_FT_OBJ, "", 0),
	[SM_FDOC_SERIES] = SM_FIELD_X("series", SM_FT_OBJ, "", SM_FF_OPTIONAL),
	[SM_FDOC_FILEIO] = SM_FIELD_X("fileio", SM_FT_OBJ, "", 0),
};
const struct sm_field sm_fileio_body_fields[SM_FB_N] = {
	[SM_FB_EVENTS] = SM_FIELD("events", SM_FT_U64, "", R, events, 0),
	[SM_FB_EVENTS_PER_S] = SM_FIELD("events_per_s", SM_FT_DOUBLE, "1/s", R, fig.per_s[3], 0),
	[SM_FB_PERIODIC_FSYNCS] = SM_FIELD("periodic_fsyncs", SM_FT_U64, "", R, periodic_fsyncs, 0),
	[SM_FB_END_FSYNCS] = SM_FIELD("end_fsyncs", SM_FT_U64, "", R, end_fsyncs, 0),
	[SM_FB_READS_PER_S] = SM_FIELD("reads_per_s", SM_FT_DOUBLE, "1/s", R, fig.per_s[0], 0),
	[SM_FB_WRITES_PER_S] = SM_FIELD("writes_per_s", SM_FT_DOUBLE, "1/s", R, fig.per_s[1], 0),
	[SM_FB_FSYNCS_PER_S] = SM_FIELD("fsyncs_per_s", SM_FT_DOUBLE, "1/s", R, fig.per_s[2], 0),
	[SM_FB_EVENT_LAT] = SM_FIELD("event_lat_ns", SM_FT_LAT, "ns", R, events_lat, 0),
	[SM_FB_EVENT_PERCENTILES] = SM_FIELD_X("event_percentiles", SM_FT_ARR, "", 0),
	[SM_FB_THREAD_EVENTS] = SM_FIELD_X("thread_events", SM_FT_ARR, "", 0),
	[SM_FB_THREAD_BUSY] = SM_FIELD_X("thread_busy_ns", SM_FT_ARR, "ns", 0),
	[SM_FB_ENGINE_NOTICE] = SM_FIELD("engine_notice", SM_FT_STR, "", R, notice, 0),
};
const struct sm_field sm_fileio_params_fields[SM_FPA_N] = {
	[SM_FPA_DIR] = SM_FIELD_X("dir", SM_FT_STR, "", 0),
	[SM_FPA_TEST_MODE] = SM_FIELD_X("test_mode", SM_FT_STR, "", 0),
	[SM_FPA_IO_MODE] = SM_FIELD_X("io_mode", SM_FT_STR, "", 0),
	[SM_FPA_THREADS] = SM_FIELD("threads", SM_FT_UINT, "", R, cfg.threads, 0),
	[SM_FPA_FILE_NUM] = SM_FIELD("file_num", SM_FT_UINT, "", R, cfg.num_files, 0),
	[SM_FPA_FILE_SIZE] = SM_FIELD("file_size_bytes", SM_FT_U64, "bytes", R, cfg.file_size, 0),
	[SM_FPA_TOTAL_SIZE] = SM_FIELD("total_size_bytes", SM_FT_U64, "bytes", R, cfg.total_size, 0),
	[SM_FPA_BLOCK_SIZE] = SM_FIELD("block_size_bytes", SM_FT_U64, "bytes", R, cfg.block_size, 0),
	[SM_FPA_REQUEST_SIZE] = SM_FIELD_X("request_size_bytes", SM_FT_U64, "bytes", 0),
	[SM_FPA_ASYNC_BACKLOG] = SM_FIELD("async_backlog", SM_FT_UINT, "", R, cfg.async_backlog, 0),
	[SM_FPA_EXTRA_FLAGS] = SM_FIELD_X("extra_flags", SM_FT_ARR, "", 0),
	[SM_FPA_FSYNC_FREQ] = SM_FIELD("fsync_freq", SM_FT_UINT, "", R, cfg.fsync_freq, 0),
	[SM_FPA_FSYNC_ALL] = SM_FIELD("fsync_all", SM_FT_BOOL, "", R, cfg.fsync_all, 0),
	[SM_FPA_FSYNC_END] = SM_FIELD("fsync_end", SM_FT_BOOL, "", R, cfg.fsync_end, 0),
	[SM_FPA_FSYNC_MODE] = SM_FIELD_X("fsync_mode", SM_FT_STR, "", 0),
	[SM_FPA_MERGED] = SM_FIELD("merged_requests", SM_FT_UINT, "", R, cfg.merged, 0),
	[SM_FPA_RW_RATIO] = SM_FIELD("rw_ratio", SM_FT_DOUBLE, "", R, cfg.rw_ratio, 0),
	[SM_FPA_TIME_LIMIT] = SM_FIELD("time_limit_ns", SM_FT_U64, "ns", R, cfg.time_ns, 0),
	[SM_FPA_EVENT_LIMIT] = SM_FIELD("event_limit", SM_FT_U64, "", R, cfg.max_events, 0),
	[SM_FPA_RATE] = SM_FIELD("rate_per_s", SM_FT_DOUBLE, "1/s", R, cfg.rate, 0),
	[SM_FPA_REPORT_INTERVAL] = SM_FIELD("report_interval_ns", SM_FT_U64, "ns", R,
					    cfg.report_interval_ns, 0),
	[SM_FPA_RAND_SEED] = SM_FIELD("rand_seed", SM_FT_U64, "", R, cfg.seed, 0),
	[SM_FPA_RAND_SEED_GIVEN] = SM_FIELD("rand_seed_given", SM_FT_BOOL, "", R, seed_given, 0),
	[SM_FPA_HISTOGRAM] = SM_FIELD("histogram", SM_FT_BOOL, "", R, histogram, 0),
	[SM_FPA_VALIDATE] = SM_FIELD("validate", SM_FT_BOOL, "", R, cfg.validate, 0),
	[SM_FPA_VERIFY] = SM_FIELD("verify", SM_FT_BOOL, "", R, cfg.verify, SM_FF_OPTIONAL),
	[SM_FPA_DATA] = SM_FIELD_X("data", SM_FT_STR, "", 0),
	[SM_FPA_PERCENTILES] = SM_FIELD_X("percentiles", SM_FT_ARR, "%", 0),
};
const struct sm_field sm_fileio_pct_fields[SM_FPC_N] = {
	[SM_FPC_PERCENTILE] = SM_FIELD_X("percentile", SM_FT_DOUBLE, "%", 0),
	[SM_FPC_LAT] = SM_FIELD_X("lat_ns", SM_FT_U64, "ns", 0),
};
#undef R

const char *const sm_fileio_op_names[3] = { "read", "write", "fsync" };

const char *const sm_fileio_series_keys[SM_FILEIO_SERIES_KEYS] = {
	"t_ns", "duration_ns", "read_bytes", "write_bytes", "reads", "writes",
	"fsyncs", "items", "lat_pct_ns", "lat_max_ns",
};
