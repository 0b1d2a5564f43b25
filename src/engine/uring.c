/* SPDX-License-Identifier: MIT */
/* uring engine: placeholder until it is implemented; probe() says it is not
 * available, so selecting it falls back (uring) or fails (mmap). */
#include "engine/engine.h"

#include <errno.h>

static int uring_probe(void)
{
	return -ENOSYS;
}

static int uring_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	return -ENOSYS;
}

const struct sm_engine_ops sm_engine_uring = {
	.name = "uring",
	.help = "not implemented yet",
	.caps = SM_ENGINE_ASYNC,
	.probe = uring_probe,
	.init = uring_init,
};
