/* SPDX-License-Identifier: MIT */
/* Block I/O on one pre-created file: sequential or random, read or write,
 * fixed block size and queue depth, for a duration (the "classic figures":
 * 1 MiB sequential and 4 KiB random at depths 1..32). */
#ifndef SM_WORKLOAD_BLOCKIO_H
#define SM_WORKLOAD_BLOCKIO_H

#include <stdint.h>

#include "engine/engine.h"
#include "result/blockio.h"

/* Defaults: 1 MiB sequential read, depth 1, 5 s, direct, random data. */
void sm_blockio_plan_defaults(struct sm_blockio_plan *p);

/*
 * Run the plan. Fills *res (caller-owned). Returns 0 when the run ended by
 * time or count, -EINTR when a signal stopped it (res holds what was done),
 * -EINVAL for a bad plan, or another -errno (the open, the engine, or the
 * first failed I/O; res still holds the counts up to it).
 */
int sm_blockio_run(const struct sm_blockio_plan *plan, struct sm_blockio_result *res);

#endif
