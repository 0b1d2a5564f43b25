/* SPDX-License-Identifier: MIT */
/* What a share's mount options do to a run's figures: the rules of
 * docs/shares.md, each a warning with its reason. Pure: reads the mount
 * recorded in the environment (core/mount.h). */
#ifndef SM_ANALYSIS_SHARE_H
#define SM_ANALYSIS_SHARE_H

#include "core/mount.h"
#include "result/result.h"

/* What the run did on the share, for sm_share_warn(). */
enum {
	SM_SHARE_DATA = 1u << 0,   /* it read or wrote file data */
	SM_SHARE_META = 1u << 1,   /* it timed metadata (meta, run's metadata line) */
};

/*
 * Add to w the warnings of m's rules for a run that did `what` (a mask of
 * SM_SHARE_*), direct being 1 when its data I/O asked for O_DIRECT:
 * share_direct_io (cifs without cache=none, FUSE without direct_io),
 * share_attr_cache (metadata on an NFS or cifs client's attribute cache),
 * share_one_client (a single client's figures on a network share or a FUSE
 * client of a server, capped by nconnect or the
 * channels and by rsize/wsize), share_soft (mounted soft). Nothing for a
 * local file system. Never fails (past SM_MAX_WARNINGS they are dropped).
 */
void sm_share_warn(struct sm_warnings *w, const struct sm_mount *m, unsigned what, int direct);

/* The Summary's sentence for run and streams on a share, into buf: the
 * answer is one client's, and MPI runs (docs/mpi.md) measure many; ""
 * when m is no client of a server (a local or host's file system, a FUSE
 * one that names no server). */
void sm_share_per_client(const struct sm_mount *m, char *buf, size_t len);

#endif
