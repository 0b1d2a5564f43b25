/* SPDX-License-Identifier: MIT */
/* mmap engine: placeholder until it is implemented; probe() says it is not
 * available, so selecting it falls back (uring) or fails (mmap). */
#include "engine/engine.h"

#include <errno.h>

static int mmap_probe(void)
{
	return -ENOSYS;
}

static int mmap_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	return -ENOSYS;
}

const struct sm_engine_ops sm_engine_mmap = {
	.name = "mmap",
	.help = "not implemented yet",
	.caps = SM_ENGINE_MAPPED,
	.probe = mmap_probe,
	.init = mmap_init,
};
