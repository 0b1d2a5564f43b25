/* SPDX-License-Identifier: MIT */
/* Rates of a block I/O result. */
#include "result/blockio.h"
#include "core/clock.h"

double sm_blockio_bytes_per_s(const struct sm_blockio_result *res)
{
	return sm_per_s((double)res->op.bytes, res->duration_ns);
}

double sm_blockio_iops(const struct sm_blockio_result *res)
{
	uint64_t ok = res->op.count - res->op.errors;

	return sm_per_s((double)ok, res->duration_ns);
}
