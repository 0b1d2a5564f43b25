/* SPDX-License-Identifier: MIT */
/* Before a run with --sqpoll or --iopoll: can the uring engine run that
 * way on the storage the run will use? */
#ifndef SM_ENGINE_URING_H
#define SM_ENGINE_URING_H

#include <stddef.h>

/*
 * Check that a uring engine with flags (SM_ENGINE_SQPOLL, SM_ENGINE_IOPOLL)
 * works on the storage holding path, by one real read of 4 KiB through
 * such a ring (O_DIRECT for IOPOLL, which needs it): of path itself when it
 * is a block device or a regular file of at least 4 KiB, else of a scratch
 * file made (and removed at once) in path when it is a directory, or in
 * its parent. Returns 0, or -errno with one line in why that says what
 * refused it (the kernel's setup, O_DIRECT, a device without poll queues).
 */
int sm_uring_poll_check(const char *path, unsigned flags, char *why, size_t len);

#endif
