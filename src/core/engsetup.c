/* SPDX-License-Identifier: MIT */
/* Names and merging of an engine's setup report (core/engsetup.h). */
#include "core/engsetup.h"

#include <string.h>

static const char *const names[SM_ESETUP__COUNT] = {
	[SM_ESETUP_SQPOLL] = "sqpoll",
	[SM_ESETUP_IOPOLL] = "iopoll",
	[SM_ESETUP_SINGLE_ISSUER] = "single_issuer",
	[SM_ESETUP_DEFER_TASKRUN] = "defer_taskrun",
	[SM_ESETUP_COOP_TASKRUN] = "coop_taskrun",
	[SM_ESETUP_TASKRUN_FLAG] = "taskrun_flag",
	[SM_ESETUP_SUBMIT_ALL] = "submit_all",
};

const char *sm_esetup_name(unsigned bit)
{
	return bit < SM_ESETUP__COUNT ? names[bit] : NULL;
}

int sm_esetup_bit(const char *name)
{
	for (unsigned i = 0; i < SM_ESETUP__COUNT; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

void sm_esetup_merge(struct sm_engine_setup *dst, const struct sm_engine_setup *src)
{
	if (!src->reported)
		return;
	if (!dst->reported) {
		*dst = *src;
		return;
	}
	dst->rings += src->rings;
	if (src->submit_batch > dst->submit_batch)
		dst->submit_batch = src->submit_batch;
	dst->flags &= src->flags;
	dst->registered_buffers = dst->registered_buffers && src->registered_buffers;
	dst->registered_files = dst->registered_files && src->registered_files;
	dst->registered_ring_fd = dst->registered_ring_fd && src->registered_ring_fd;
}
