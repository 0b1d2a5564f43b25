/* SPDX-License-Identifier: MIT */
/* The nfs engine: requests go to an NFS server through libnfs, a client
 * in user space (no kernel mount, no client cache on the path). Engine
 * requests carry an int fd; for this engine it is an index into the list
 * of files the workload bound with sm_nfs_bind(), and each engine
 * instance (one per worker thread: a libnfs context is not shared between
 * threads) mounts the server and opens those files itself at init. It is
 * not in the registry sm_engines[]: a workload opens it with
 * sm_engine_open_ops() once it has bound its files (docs/engines.md). */
#ifndef SM_ENGINE_NFS_H
#define SM_ENGINE_NFS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/* 1 when this build has libnfs (SM_NFS), else 0. */
int sm_nfs_available(void);

/* libnfs's version as built, or "" without it. */
const char *sm_nfs_version(void);

/* The server's part of url (nfs://SERVER/PATH?ARGS) into server and its
 * path into path; returns 0, or -EINVAL when url is not of that form (no
 * libnfs needed: for checking an option before any work). */
int sm_nfs_url_split(const char *url, char *server, size_t slen, char *path, size_t plen);

/* Bind the files engine instances open: url, and names relative to the
 * URL's path ("/test_file.0"). Copies them; NULL url unbinds. 0 or
 * -ENOMEM. Call before any instance is opened, unbind after the last is
 * closed. */
int sm_nfs_bind(const char *url, const char *const *names, unsigned n);

/* The engine's ops (probe fails with -ENXIO while nothing is bound, and
 * -ENOTSUP in a build without libnfs). */
const struct sm_engine_ops *sm_nfs_engine_ops(void);

#endif
