/* SPDX-License-Identifier: MIT */
/* The plan of a storage profile: its defaults, and how the time budget and
 * the free space size the working sets and each test. */
#include "workload/profile_int.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void sm_run_plan_defaults(struct sm_run_plan *p)
{
	static const char *const rates[] = { "24", "25", "30", "50", "60" };

	memset(p, 0, sizeof(*p));
	p->dir = ".";
	p->time_ns = 60 * SM_NS_PER_S;
	p->threads = 4;
	p->queue = 8;
	p->prebuffer = 5;
	p->confirm = 1;
	p->steady_round_ns = 60 * SM_NS_PER_S;
	p->steady_rounds = 25;
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		p->rates[p->nrates++] = sm_fps_find(rates[i]);
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t sm_run_usable_space(uint64_t free_bytes)
{
	uint64_t margin = free_bytes / 10 > SM_RUN_SPACE_MARGIN ? free_bytes / 10 : SM_RUN_SPACE_MARGIN;

	if (!free_bytes)
		return UINT64_MAX;   /* unknown: nothing to size to */
	return free_bytes > margin ? free_bytes - margin : 0;
}

int sm_run_space_check(const char *dir, char *msg, size_t len)
{
	struct sm_fs_info fs;
	char a[32], b[32], c[32], d[32];

	if (sm_fs_info(dir, &fs) || !fs.free_bytes)
		return 0;   /* unknown: the run finds out */
	if (sm_run_usable_space(fs.free_bytes) >= SM_RUN_MIN_FILE)
		return 0;
	snprintf(msg, len, "'%s' has %s free; a run needs at least %s (a %s block test file, and %s or a "
		 "tenth of the free space, whichever is more, left free)", dir,
		 sm_fmt_bytes(a, sizeof(a), (double)fs.free_bytes),
		 sm_fmt_bytes(b, sizeof(b), (double)(SM_RUN_MIN_FILE + SM_RUN_SPACE_MARGIN)),
		 sm_fmt_bytes(c, sizeof(c), (double)SM_RUN_MIN_FILE),
		 sm_fmt_bytes(d, sizeof(d), (double)SM_RUN_SPACE_MARGIN));
	return -ENOSPC;
}

void sm_prof_budget(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	double scale = (double)x->plan->time_ns / (60.0 * SM_NS_PER_S);
	uint64_t quarter = res->head.env.fs.free_bytes / 4;

	res->file_bytes = clamp_u64((uint64_t)(scale * GIB) / MIB * MIB, 64 * MIB, GIB);
	res->frames_bytes = clamp_u64((uint64_t)(scale * 2 * GIB) / MIB * MIB, 256 * MIB, 2 * GIB);
	if (quarter && res->file_bytes > quarter)
		res->file_bytes = quarter / MIB * MIB;
	if (quarter && res->frames_bytes > quarter)
		res->frames_bytes = quarter / MIB * MIB;
	/* a small file system: the block test file takes what may be used,
	 * down to SM_RUN_MIN_FILE (sm_run_space_check() refused less) */
	if (res->file_bytes < SM_RUN_MIN_FILE)
		res->file_bytes = SM_RUN_MIN_FILE;
	res->file_bytes_planned = res->file_bytes;
	/* 8 block tests x 2.5% + 5 frame tests x 4.5% + the sustained write
	 * (the 2K write test) 25% = 67.5%; the rest, less the time to fill the
	 * block file and set up each test, goes to paced runs. The sustained
	 * write is long enough to look for a cliff (8 whole seconds,
	 * docs/cliff.md) from --time 36 s on; 15 s at the default 60 s. */
	res->classic_ns = clamp_u64((uint64_t)(0.025 * (double)x->plan->time_ns),
				    250 * SM_NS_PER_MS, 60 * SM_NS_PER_S);
	res->frame_ns = clamp_u64((uint64_t)(0.045 * (double)x->plan->time_ns),
				  500 * SM_NS_PER_MS, 90 * SM_NS_PER_S);
	res->sustain_ns = clamp_u64((uint64_t)(0.25 * (double)x->plan->time_ns),
				    res->frame_ns, 600 * SM_NS_PER_S);
	res->paced_ns = clamp_u64((uint64_t)(0.035 * (double)x->plan->time_ns),
				  SM_NS_PER_S, 10 * SM_NS_PER_S);
}

