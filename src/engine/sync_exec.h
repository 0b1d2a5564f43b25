/* SPDX-License-Identifier: MIT */
/* Run one request with plain system calls; shared by the synchronous
 * engines (psync) and by engines that fall back for some operations. */
#ifndef SM_SYNC_EXEC_H
#define SM_SYNC_EXEC_H

#include "engine/engine.h"

/* Execute io with pread/pwrite/openat/close/fsync/fdatasync, retrying
 * partial transfers and EINTR; sets res, t_issue and t_done. */
void sm_sync_exec(struct sm_io *io);

#endif
