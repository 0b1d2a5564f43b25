/* SPDX-License-Identifier: MIT */
/* The uring engine of a build without liburing (-DSM_URING=OFF, or
 * liburing missing when it was configured): its name stays in the
 * registry, its probe says why it cannot run, so every command that would
 * use it falls back to psync with the notice it gives when a kernel or a
 * container refuses io_uring, and --sqpoll/--iopoll/--submit-batch are
 * refused with the reason. */
#include "engine/engine.h"
#include "engine/uring.h"
#include "core/compiler.h"

#include <errno.h>
#include <stdio.h>

static int none_probe(void)
{
	return -ENOSYS;   /* "Function not implemented": built without io_uring */
}

static int none_init(SM_UNUSED struct sm_engine *e, SM_UNUSED const struct sm_engine_cfg *cfg)
{
	return -ENOSYS;
}

const struct sm_engine_ops sm_engine_uring = {
	.name = "uring",
	.help = "io_uring: not in this build (liburing was missing): psync instead",
	/* the real engine's capabilities, so that it is chosen where that one
	 * would be and its probe then says why it cannot run */
	.caps = SM_ENGINE_ASYNC | SM_ENGINE_FIXED | SM_ENGINE_POLLING,
	.probe = none_probe,
	.init = none_init,
	.ns = &sm_ns_posix,
};

int sm_uring_poll_check(SM_UNUSED const char *path, SM_UNUSED unsigned flags, char *why, size_t len)
{
	snprintf(why, len, "this stormark was built without io_uring (liburing): "
		 "--sqpoll, --iopoll and --submit-batch need it");
	return -ENOSYS;
}
