/* SPDX-License-Identifier: MIT */
/* What each workload's buffers and statistics take, from its plan. The
 * buffer sizes follow what the workloads allocate (fileio_run.c
 * worker_init, fileio.c prep_worker, frames_worker.c) with sm_buf_alloc()'s
 * rounding; a change there belongs here too. */
#include "workload/memneed.h"
#include "core/buf.h"
#include "core/formats.h"
#include "core/hist.h"
#include "core/memcheck.h"
#include "core/sformats.h"
#include "core/units.h"
#include "workload/fileio.h"

#include <stdio.h>
#include <string.h>

/* Histograms a worker keeps (a live one per operation kind, its own
 * totals): a bound, not a count, as they are small next to the buffers. */
#define HISTS_PER_THREAD 8

/* What sm_buf_alloc(len) takes: from SM_HUGE_PAGE / 4 up, whole huge pages. */
static uint64_t buf_bytes(uint64_t len)
{
	if (len >= SM_HUGE_PAGE / 4)
		return len > UINT64_MAX - SM_HUGE_PAGE ? UINT64_MAX
						       : (len + SM_HUGE_PAGE - 1) / SM_HUGE_PAGE * SM_HUGE_PAGE;
	return (len + SM_BUF_ALIGN - 1) / SM_BUF_ALIGN * SM_BUF_ALIGN;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t stats_bytes(unsigned threads)
{
	return sm_mem_mul(threads, HISTS_PER_THREAD * sizeof(struct sm_hist));
}

uint64_t sm_fileio_mem_need(const struct sm_fileio_cfg *cfg, int prepare, char *what, size_t len)
{
	unsigned threads = cfg->threads ? cfg->threads : 1;
	char a[32];
	uint64_t per;

	if (prepare) {
		uint64_t chunk = cfg->block_size ? cfg->block_size : 1;

		/* prepare writes about 1 MiB per call in whole blocks, one
		 * chunk per thread, and never more threads than files */
		if (chunk < (1u << 20))
			chunk *= (1u << 20) / chunk;
		if (threads > cfg->num_files && cfg->num_files)
			threads = cfg->num_files;
		per = buf_bytes(chunk);
		snprintf(what, len, "fileio prepare's write buffers (%s x %u thread%s)",
			 sm_fmt_bytes(a, sizeof(a), (double)chunk), threads, threads == 1 ? "" : "s");
		return sm_mem_mul(per, threads);
	} else {
		uint64_t req = sm_fileio_request_size(cfg);
		unsigned depth = cfg->io_mode == SM_FIO_IO_ASYNC ? cfg->async_backlog : 1;

		if (depth > 1024)
			depth = 1024;   /* as fileio_run.c caps it */
		if (!depth)
			depth = 1;
		per = buf_bytes(sm_mem_mul((req + SM_BUF_ALIGN - 1) / SM_BUF_ALIGN * SM_BUF_ALIGN, depth));
		uint64_t need = add_sat(sm_mem_mul(per, threads), stats_bytes(threads));
		int n = snprintf(what, len, "fileio's I/O buffers (%s x %u thread%s x %u request%s in flight)",
				 sm_fmt_bytes(a, sizeof(a), (double)req), threads, threads == 1 ? "" : "s",
				 depth, depth == 1 ? "" : "s");

		if (sm_fileio_sealing(cfg) && cfg->block_size) {
			/* fileio_verify.c: this run's latest write and the block
			 * map of each block (8 bytes each), a file's new map while
			 * it is written, the run table */
			uint64_t per_file = cfg->file_size / cfg->block_size;
			uint64_t blocks = sm_mem_mul(per_file, cfg->num_files);

			need = add_sat(need, add_sat(sm_mem_mul(blocks, 16),
						     add_sat(sm_mem_mul(per_file, 8), 65536 * 8)));
			if (n >= 0 && (size_t)n < len)
				snprintf(what + n, len - (size_t)n, " and the --%s maps of %llu blocks",
					 cfg->verify ? "verify" : "validate", (unsigned long long)blocks);
		}
		return need;
	}
}

uint64_t sm_frames_mem_need(const struct sm_frames_plan *plan, char *what, size_t len)
{
	unsigned threads = plan->threads ? plan->threads : 1, slots = plan->depth ? plan->depth : 1;
	uint64_t frame = plan->kind == SM_FRAMES_EMPTY ? 0 : plan->frame_bytes;
	char a[32];

	snprintf(what, len, "the frame buffers (%s x %u thread%s x %u frame%s in flight)",
		 sm_fmt_bytes(a, sizeof(a), (double)frame), threads, threads == 1 ? "" : "s", slots,
		 slots == 1 ? "" : "s");
	if (!frame)
		return stats_bytes(threads);
	return add_sat(sm_mem_mul(sm_mem_mul(buf_bytes(frame), slots), threads), stats_bytes(threads));
}

uint64_t sm_run_mem_need(const struct sm_run_plan *plan, char *what, size_t len)
{
	unsigned threads = plan->threads ? plan->threads : 1;
	uint64_t frame = sm_ft_preset_kib("4k") * 1024;
	char a[32];

	snprintf(what, len, "the frame tests' buffers (%s x %u thread%s)",
		 sm_fmt_bytes(a, sizeof(a), (double)frame), threads, threads == 1 ? "" : "s");
	return add_sat(sm_mem_mul(buf_bytes(frame), threads), stats_bytes(threads));
}

/* What one stream of a step holds besides the shared buffer (workload/
 * streams_step.c setup): three histograms, its pacing model's `queue`
 * entries, `depth` requests and its figures; a bound. */
static uint64_t stream_bytes(const struct sm_streams_plan *plan)
{
	return 3 * sizeof(struct sm_hist) + (uint64_t)plan->queue * 32 + (uint64_t)plan->depth * 256 +
	       512;
}

uint64_t sm_streams_mem_need(const struct sm_streams_plan *plan, char *what, size_t len)
{
	const struct sm_streams_mix *mix = plan->mix;
	unsigned streams = (plan->max_streams ? plan->max_streams : 1) + (mix ? mix->nstreams : 0);
	const char *big = NULL, *big_r = NULL;
	uint64_t chunk = 0, own = 0, need, requests, per_req;
	char a[32], b[32];

	for (unsigned i = 0; i < plan->nformats; i++)
		for (unsigned k = 0; k < plan->nrates; k++) {
			uint64_t c = sm_sformat_chunk(&plan->formats[i], plan->rates[k]);

			if (c > chunk) {
				chunk = c;
				big = plan->formats[i].name;
				big_r = plan->rates[k]->name;
			}
			/* a captured frame of a sequence: a buffer of its own
			 * per request (streams_step.c, sm_buf_alias) */
			if (plan->capture && sm_sformat_is_sequence(&plan->formats[i]) && c > own)
				own = c;
		}
	/* a mix's groups run beside every step */
	for (unsigned k = 0; mix && k < mix->ngroups; k++) {
		const struct sm_streams_group *g = &mix->groups[k];

		if (g->chunk_bytes > chunk) {
			chunk = g->chunk_bytes;
			big = g->format;
			big_r = g->fps_name;
		}
		if (g->sequence && g->dir == SM_DIR_CAPTURE && g->chunk_bytes > own)
			own = g->chunk_bytes;
	}
	if (big)
		snprintf(what, len, "the stream buffer (one %s chunk of %s at %s fps, shared by the "
			 "streams) and the figures of %u stream%s", sm_fmt_bytes(a, sizeof(a), (double)chunk),
			 big, big_r, streams, streams == 1 ? "" : "s");
	else
		snprintf(what, len, "the figures of %u stream%s", streams, streams == 1 ? "" : "s");
	need = add_sat(buf_bytes(chunk), sm_mem_mul(stream_bytes(plan), streams));
	if (!own)
		return need;
	/* alias buffers: the frame once (a memory file behind all of them),
	 * each request's first page, and each request's mapping of the whole
	 * frame: its page tables, 8 bytes per 4 KiB page, which the kernel
	 * fills as the request is written from it and charges to the process
	 * (1024 requests of an 8K frame: 250 MiB) */
	requests = sm_mem_mul(plan->depth ? plan->depth : 1, streams);
	per_req = add_sat(SM_BUF_ALIGN, (own + 4095) / 4096 * 8);
	snprintf(what + strlen(what), len - strlen(what), ", and the captured frames' buffers (one %s "
		 "frame shared, %s a request with its page tables)", sm_fmt_bytes(a, sizeof(a), (double)own),
		 sm_fmt_bytes(b, sizeof(b), (double)per_req));
	return add_sat(need, add_sat(own, sm_mem_mul(per_req, requests)));
}
