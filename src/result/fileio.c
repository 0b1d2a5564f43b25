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

const char *const sm_fileio_op_names[3] = { "read", "write", "fsync" };

const char *const sm_fileio_series_keys[SM_FILEIO_SERIES_KEYS] = {
	"t_ns", "duration_ns", "read_bytes", "write_bytes", "reads", "writes",
	"fsyncs", "items", "lat_pct_ns", "lat_max_ns",
};
