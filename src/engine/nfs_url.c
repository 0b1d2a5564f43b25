/* SPDX-License-Identifier: MIT */
/* The form of an nfs:// URL, checked without libnfs (engine/nfs.h). */
#include "engine/nfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int sm_nfs_url_split(const char *url, char *server, size_t slen, char *path, size_t plen)
{
	const char *s, *slash, *q;
	size_t n;

	if (!url || strncmp(url, "nfs://", 6))
		return -EINVAL;
	s = url + 6;
	slash = strchr(s, '/');
	if (!slash || slash == s)
		return -EINVAL;   /* no server, or no path */
	q = strchr(slash, '?');
	n = (size_t)(slash - s);
	if (memchr(s, '?', n) || n >= slen)
		return -EINVAL;
	memcpy(server, s, n);
	server[n] = '\0';
	n = q ? (size_t)(q - slash) : strlen(slash);
	if (n >= plen)
		return -EINVAL;
	memcpy(path, slash, n);
	path[n] = '\0';
	/* the path, less a trailing slash, names a directory: not "/" alone */
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	return strcmp(path, "/") ? 0 : -EINVAL;
}
