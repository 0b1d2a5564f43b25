/* SPDX-License-Identifier: MIT */
/* fileio's checks of its plan before any work (cmd/fileio_check.c). */
#ifndef SM_CMD_FILEIO_CHECK_H
#define SM_CMD_FILEIO_CHECK_H

#include "args/fileio_opts.h"

/* The options together and the plan's sizes, --nfs included. Returns 0
 * or SM_EXIT_USAGE after one line. */
int sm_fileio_check_plan(struct sm_fileio_opts *o);

/* Direct I/O on the files' directory: its alignment. Returns 0 or an exit
 * code after one line. */
int sm_fileio_check_direct(struct sm_fileio_opts *o);

#endif
