/* SPDX-License-Identifier: MIT */
/* A build without libnfs (SM_NFS off or libnfs-dev missing): --nfs is
 * refused as an option, and these say why if anything asks. */
#include "engine/nfs.h"

#include <errno.h>

int sm_nfs_available(void)
{
	return 0;
}

const char *sm_nfs_version(void)
{
	return "";
}

int sm_nfs_bind(const char *url, const char *const *names, unsigned n)
{
	(void)names;
	(void)n;
	return url ? -ENOTSUP : 0;
}

static int none_probe(void)
{
	return -ENOTSUP;
}

static const struct sm_engine_ops sm_engine_nfs_none = {
	.name = "nfs",
	.help = "not in this build (libnfs was missing when it was configured)",
	.probe = none_probe,
};

const struct sm_engine_ops *sm_nfs_engine_ops(void)
{
	return &sm_engine_nfs_none;
}
