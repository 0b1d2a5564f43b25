/* SPDX-License-Identifier: MIT */
/* The plan of a storage profile: its defaults, and how the time budget and
 * the free space size the working sets and each test. */
#include "workload/profile_int.h"
#include "core/clock.h"

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
	for (unsigned i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		p->rates[p->nrates++] = sm_fps_find(rates[i]);
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
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
	res->file_bytes_planned = res->file_bytes;
	/* 8 block tests x 2.5% + 6 frame tests x 4.5% = 47%; the rest, less
	 * the time to fill the block file and set up each test, goes to paced
	 * runs */
	res->classic_ns = clamp_u64((uint64_t)(0.025 * (double)x->plan->time_ns),
				    250 * SM_NS_PER_MS, 60 * SM_NS_PER_S);
	res->frame_ns = clamp_u64((uint64_t)(0.045 * (double)x->plan->time_ns),
				  500 * SM_NS_PER_MS, 90 * SM_NS_PER_S);
	res->paced_ns = clamp_u64((uint64_t)(0.035 * (double)x->plan->time_ns),
				  SM_NS_PER_S, 10 * SM_NS_PER_S);
}

