/* SPDX-License-Identifier: MIT */
/* The rules of docs/shares.md: what a share's mount does to the figures. */
#include "analysis/share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_nfs(const struct sm_mount *m)
{
	return !strcmp(m->protocol, "nfs") || !strcmp(m->protocol, "nfs4");
}

static int is_cifs(const struct sm_mount *m)
{
	return !strcmp(m->protocol, "cifs") || !strcmp(m->protocol, "smb3");
}

/* 1 when the mount is a client of a server: a network file system, or a
 * FUSE one whose source names a server (smbnetfs, sshfs; ntfs-3g on a disk
 * or a FUSE file system over a local directory is not). */
static int client(const struct sm_mount *m)
{
	return m->kind == SM_MOUNT_NETWORK || (m->kind == SM_MOUNT_FUSE && m->server[0]);
}

/* "fuse.smbnetfs" or "nfs4": the name the warnings give the mount. */
static const char *name(const struct sm_mount *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", m->protocol, m->subtype[0] ? "." : "", m->subtype);
	return buf;
}

/* 1 when an attribute-cache timer is shown as more than 0 s, or none is
 * shown (the kernel then keeps its defaults, all above 0: nfs(5)). */
static int attr_cached(const struct sm_mount *m)
{
	static const enum sm_mopt t[] = { SM_MOPT_ACREGMIN, SM_MOPT_ACREGMAX, SM_MOPT_ACDIRMIN,
					  SM_MOPT_ACDIRMAX, SM_MOPT_ACTIMEO };
	int shown = 0;

	if (sm_mount_opt(m, SM_MOPT_NOAC))
		return 0;
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *v = sm_mount_opt(m, t[i]);

		if (!v)
			continue;
		shown = 1;
		if (strtoull(v, NULL, 10) > 0)
			return 1;
	}
	return !shown;
}

/* Each message stays under a warning's 240 bytes (result/result.h). */
static void direct_io(struct sm_warnings *w, const struct sm_mount *m)
{
	const char *cache = sm_mount_opt(m, SM_MOPT_CACHE);
	char n[64];

	if (is_cifs(m) && (!cache || strcmp(cache, "none")))
		sm_warn(w, "share_direct_io", "direct I/O on %s mounted cache=%s: only cache=none keeps "
			"all reads and writes off the client's page cache (mount.cifs(8)); O_DIRECT under "
			"other modes depends on the kernel", name(m, n, sizeof(n)), cache ? cache : "strict");
	else if (m->kind == SM_MOUNT_FUSE && !sm_mount_opt(m, SM_MOPT_DIRECT_IO))
		sm_warn(w, "share_direct_io", "direct I/O on %s without direct_io in its mount: the FUSE "
			"daemon may answer O_DIRECT from a cache of its own, so reads can be faster than "
			"its link", name(m, n, sizeof(n)));
}

static void attr_cache(struct sm_warnings *w, const struct sm_mount *m)
{
	const char *lc = sm_mount_opt(m, SM_MOPT_LOOKUPCACHE);
	const char *ac = sm_mount_opt(m, SM_MOPT_ACTIMEO);
	char why[96] = "", n[64];
	size_t pos = 0;

	if (is_nfs(m)) {
		if (attr_cached(m))
			pos += (size_t)snprintf(why + pos, sizeof(why) - pos, "attributes: %s",
						sm_mount_opt(m, SM_MOPT_ACREGMIN) ||
						sm_mount_opt(m, SM_MOPT_ACDIRMIN) ? "ac*>0" : "default 3-60 s");
		if (!lc || strcmp(lc, "none"))
			pos += (size_t)snprintf(why + pos, sizeof(why) - pos, "%slookupcache=%s",
						pos ? ", " : "", lc ? lc : "all");
		if (sm_mount_opt(m, SM_MOPT_NOCTO) && pos < sizeof(why))
			pos += (size_t)snprintf(why + pos, sizeof(why) - pos, "%snocto", pos ? ", " : "");
		if (pos)
			sm_warn(w, "share_attr_cache", "metadata on an %s client's caches (%s): stat and "
				"lookups may not reach the server (nfs(5)); noac,lookupcache=none give its "
				"figures", name(m, n, sizeof(n)), why);
	} else if (is_cifs(m) && (!ac || strtoull(ac, NULL, 10) > 0)) {
		sm_warn(w, "share_attr_cache", "metadata on a %s client's attribute cache (actimeo=%s s%s): "
			"stat may not reach the server (mount.cifs(8)); actimeo=0 gives its figures",
			name(m, n, sizeof(n)), ac ? ac : "1", ac ? "" : ", the default");
	}
}

static void one_client(struct sm_warnings *w, const struct sm_mount *m)
{
	const char *nc = sm_mount_opt(m, SM_MOPT_NCONNECT), *mc = sm_mount_opt(m, SM_MOPT_MAX_CHANNELS);
	const char *r = sm_mount_opt(m, SM_MOPT_RSIZE), *wr = sm_mount_opt(m, SM_MOPT_WSIZE);
	char conn[64], sizes[64] = "", n[64];

	if (is_nfs(m))
		snprintf(conn, sizeof(conn), "%s TCP connection%s (nconnect%s%s)", nc ? nc : "1",
			 nc && strcmp(nc, "1") ? "s" : "", nc ? "=" : " unset", nc ? nc : "");
	else if (is_cifs(m) && sm_mount_opt(m, SM_MOPT_MULTICHANNEL))
		snprintf(conn, sizeof(conn), "its channels (multichannel%s%s)", mc ? ", max_channels=" : "",
			 mc ? mc : "");
	else if (is_cifs(m))
		snprintf(conn, sizeof(conn), "one channel (no multichannel)");
	else if (m->kind == SM_MOUNT_FUSE)
		snprintf(conn, sizeof(conn), "its one FUSE daemon");
	else
		snprintf(conn, sizeof(conn), "its one client");
	if (r || wr)
		snprintf(sizes, sizeof(sizes), " and rsize=%s/wsize=%s", r ? r : "?", wr ? wr : "?");
	sm_warn(w, "share_one_client", "one client's figures on %s, capped by %s%s: many clients may "
		"get more from the server (MPI runs: docs/mpi.md)", name(m, n, sizeof(n)), conn, sizes);
}

void sm_share_warn(struct sm_warnings *w, const struct sm_mount *m, unsigned what, int direct)
{
	char n[64];

	/* stormark's own client (--nfs) has no kernel cache nor mount options */
	if (!sm_mount_is_share(m) || m->kind == SM_MOUNT_CLIENT)
		return;
	if ((what & SM_SHARE_DATA) && direct)
		direct_io(w, m);
	if (what & SM_SHARE_META)
		attr_cache(w, m);
	if ((what & SM_SHARE_DATA) && client(m))
		one_client(w, m);
	if (sm_mount_opt(m, SM_MOPT_SOFT))
		sm_warn(w, "share_soft", "%s is mounted soft: a request the server does not answer in "
			"time fails with EIO instead of waiting (nfs(5), mount.cifs(8)); a write failed so "
			"may be lost", name(m, n, sizeof(n)));
}

void sm_share_per_client(const struct sm_mount *m, char *buf, size_t len)
{
	char n[64];

	buf[0] = '\0';
	if (client(m))
		snprintf(buf, len, "On this %s share the answer is one client's: other clients "
			 "draw on the same server, and MPI runs measure many at once (docs/mpi.md). ",
			 name(m, n, sizeof(n)));
}
