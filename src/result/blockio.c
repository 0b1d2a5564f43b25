/* SPDX-License-Identifier: MIT */
/* Rates of a block I/O result. */
#include "result/blockio.h"

double sm_blockio_bytes_per_s(const struct sm_blockio_result *res)
{
	return res->duration_ns ? (double)res->op.bytes * 1e9 / (double)res->duration_ns : 0;
}

double sm_blockio_iops(const struct sm_blockio_result *res)
{
	uint64_t ok = res->op.count - res->op.errors;

	return res->duration_ns ? (double)ok * 1e9 / (double)res->duration_ns : 0;
}
