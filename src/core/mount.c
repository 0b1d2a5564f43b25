/* SPDX-License-Identifier: MIT */
/* The mount under a tested directory, parsed from mountinfo's text. */
#include "core/mount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum sm_mopt_type type;
} opts[SM_MOPT_COUNT] = {
	[SM_MOPT_VERS] = { "vers", SM_MOPT_WORD },
	[SM_MOPT_PROTO] = { "proto", SM_MOPT_WORD },
	[SM_MOPT_NCONNECT] = { "nconnect", SM_MOPT_NUM },
	[SM_MOPT_RSIZE] = { "rsize", SM_MOPT_NUM },
	[SM_MOPT_WSIZE] = { "wsize", SM_MOPT_NUM },
	[SM_MOPT_CACHE] = { "cache", SM_MOPT_WORD },
	[SM_MOPT_ACTIMEO] = { "actimeo", SM_MOPT_NUM },
	[SM_MOPT_ACREGMIN] = { "acregmin", SM_MOPT_NUM },
	[SM_MOPT_ACREGMAX] = { "acregmax", SM_MOPT_NUM },
	[SM_MOPT_ACDIRMIN] = { "acdirmin", SM_MOPT_NUM },
	[SM_MOPT_ACDIRMAX] = { "acdirmax", SM_MOPT_NUM },
	[SM_MOPT_NOAC] = { "noac", SM_MOPT_FLAG },
	[SM_MOPT_LOOKUPCACHE] = { "lookupcache", SM_MOPT_WORD },
	[SM_MOPT_NOCTO] = { "nocto", SM_MOPT_FLAG },
	[SM_MOPT_HARD] = { "hard", SM_MOPT_FLAG },
	[SM_MOPT_SOFT] = { "soft", SM_MOPT_FLAG },
	[SM_MOPT_MULTICHANNEL] = { "multichannel", SM_MOPT_FLAG },
	[SM_MOPT_MAX_CHANNELS] = { "max_channels", SM_MOPT_NUM },
	[SM_MOPT_DIRECT_IO] = { "direct_io", SM_MOPT_FLAG },
};

const char *sm_mopt_name(unsigned i)
{
	return i < SM_MOPT_COUNT ? opts[i].name : NULL;
}

enum sm_mopt_type sm_mopt_type(unsigned i)
{
	return i < SM_MOPT_COUNT ? opts[i].type : SM_MOPT_FLAG;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* The next blank-separated field of *s, ended in place; NULL at the end. */
static char *field(char **s)
{
	char *p = *s, *start;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	start = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return start;
}

int sm_mountinfo_split(char *line, struct sm_mountinfo_line *out)
{
	char *s = line, *f[6], *devs, *sep;
	unsigned maj, min;

	memset(out, 0, sizeof(*out));
	/* id, parent id, major:minor, root, mount point, options, then
	 * optional fields up to "-", then type, source, super options */
	for (int i = 0; i < 6; i++)
		if (!(f[i] = field(&s)))
			return -EINVAL;
	devs = f[2];
	if (sscanf(devs, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	while ((sep = field(&s)) && strcmp(sep, "-"))
		;
	if (!sep)
		return -EINVAL;
	out->fstype = field(&s);
	out->source = field(&s);
	out->super_opts = field(&s);
	if (!out->fstype || !out->source)
		return -EINVAL;
	if (!out->super_opts)
		out->super_opts = "";
	out->major = maj;
	out->minor = min;
	unescape(f[4]);
	unescape((char *)out->source);
	out->mount_point = f[4];
	out->mount_opts = f[5];
	return 0;
}

static const struct {
	const char *type;
	const char *protocol;
	enum sm_mount_kind kind;
} types[] = {
	{ "nfs", "nfs", SM_MOUNT_NETWORK },
	{ "nfs4", "nfs4", SM_MOUNT_NETWORK },
	{ "cifs", "cifs", SM_MOUNT_NETWORK },
	{ "smb3", "smb3", SM_MOUNT_NETWORK },
	{ "smbfs", "smbfs", SM_MOUNT_NETWORK },
	{ "9p", "9p", SM_MOUNT_NETWORK },        /* trans=virtio: the host's (below) */
	{ "virtiofs", "virtiofs", SM_MOUNT_HOST },
	{ "ceph", "ceph", SM_MOUNT_NETWORK },
	{ "lustre", "lustre", SM_MOUNT_NETWORK },
	{ "gpfs", "gpfs", SM_MOUNT_NETWORK },
	{ "beegfs", "beegfs", SM_MOUNT_NETWORK },
	{ "glusterfs", "glusterfs", SM_MOUNT_NETWORK },
	{ "afs", "afs", SM_MOUNT_NETWORK },
	{ "orangefs", "orangefs", SM_MOUNT_NETWORK },
	{ "fuse", "fuse", SM_MOUNT_FUSE },
	{ "fuseblk", "fuse", SM_MOUNT_FUSE },
};

/* Copy at most len - 1 bytes of the n bytes at s into dst. */
static void put(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "server:/export" (nfs, sshfs's "user@host:path"); an IPv6 server is in
 * brackets. at_last: split at the last ":/" (lustre's and ceph's lists of
 * servers hold colons). */
static void host_path(struct sm_mount *m, const char *src, int at_last)
{
	const char *colon = NULL, *p;

	if (src[0] == '[' && (p = strchr(src, ']')) && p[1] == ':') {
		put(m->server, sizeof(m->server), src + 1, (size_t)(p - src - 1));
		snprintf(m->export, sizeof(m->export), "%s", p + 2);
		return;
	}
	if (at_last) {
		for (p = src; (p = strstr(p, ":/")); p++)
			colon = p;
	} else {
		colon = strchr(src, ':');
	}
	if (!colon) {
		snprintf(m->export, sizeof(m->export), "%s", src);
		return;
	}
	put(m->server, sizeof(m->server), src, (size_t)(colon - src));
	snprintf(m->export, sizeof(m->export), "%s", colon + 1);
}

/* "//server/share/dir" (or with backslashes). */
static void unc(struct sm_mount *m, const char *src)
{
	const char *p = src, *slash;

	while (*p == '/' || *p == '\\')
		p++;
	slash = strpbrk(p, "/\\");
	if (!slash) {
		snprintf(m->server, sizeof(m->server), "%s", p);
		return;
	}
	put(m->server, sizeof(m->server), p, (size_t)(slash - p));
	snprintf(m->export, sizeof(m->export), "%s", slash + 1);
}

/* smbnetfs shows the network at its root: HOST/SHARE/... below it. */
static void smbnetfs(struct sm_mount *m, const char *rel)
{
	const char *p = rel, *end;

	while (*p == '/')
		p++;
	end = strchr(p, '/');
	put(m->server, sizeof(m->server), p, end ? (size_t)(end - p) : strlen(p));
	if (!end)
		return;
	p = end + 1;
	end = strchr(p, '/');
	put(m->export, sizeof(m->export), p, end ? (size_t)(end - p) : strlen(p));
}

/* Record the options of a comma-separated list that the table names. */
static void options(struct sm_mount *m, const char *list)
{
	const char *p = list;

	while (*p) {
		const char *end = strchr(p, ','), *eq;
		size_t n = end ? (size_t)(end - p) : strlen(p), klen;

		eq = memchr(p, '=', n);
		klen = eq ? (size_t)(eq - p) : n;
		for (unsigned i = 0; i < SM_MOPT_COUNT; i++) {
			const char *v = eq ? eq + 1 : "";
			size_t vlen = eq ? n - klen - 1 : 0;

			if (strlen(opts[i].name) != klen || strncmp(opts[i].name, p, klen))
				continue;
			if ((opts[i].type == SM_MOPT_FLAG) != !eq || (eq && !vlen))
				break;
			if (opts[i].type == SM_MOPT_NUM && (strspn(v, "0123456789") < vlen || vlen > 18))
				break;
			put(m->val[i], sizeof(m->val[i]), v, vlen);
			m->present |= 1u << i;
			break;
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

void sm_mount_parse(const struct sm_mountinfo_line *l, const char *rel, struct sm_mount *m)
{
	const char *t = l->fstype, *dot = strchr(t, '.');
	size_t base = dot ? (size_t)(dot - t) : strlen(t);
	unsigned i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].type) == base && !strncmp(types[i].type, t, base))
			break;
	if (i == sizeof(types) / sizeof(types[0])) {
		put(m->protocol, sizeof(m->protocol), t, strlen(t));
		m->kind = SM_MOUNT_LOCAL;
		return;   /* a local file system: its device is fs.device already */
	}
	snprintf(m->protocol, sizeof(m->protocol), "%s", types[i].protocol);
	m->kind = types[i].kind;
	if (dot && m->kind == SM_MOUNT_FUSE)
		snprintf(m->subtype, sizeof(m->subtype), "%s", dot + 1);
	options(m, l->super_opts);
	options(m, l->mount_opts);   /* fuse's direct_io, were it a mount option */
	if (!strcmp(m->protocol, "9p") && strstr(l->super_opts, "trans=virtio"))
		m->kind = SM_MOUNT_HOST;
	if (!strncmp(m->protocol, "nfs", 3))
		host_path(m, l->source, 0);
	else if (!strcmp(m->protocol, "cifs") || !strcmp(m->protocol, "smb3") ||
		 !strcmp(m->protocol, "smbfs"))
		unc(m, l->source);
	else if (!strcmp(m->protocol, "lustre"))
		host_path(m, l->source, 1);
	else if (!strcmp(m->protocol, "ceph") && strchr(l->source, '@') && strchr(l->source, '=')) {
		/* the new syntax: name@fsid.fsname=/path */
		const char *at = strchr(l->source, '@'), *eq = strchr(at, '=');

		if (eq) {
			put(m->server, sizeof(m->server), at + 1, (size_t)(eq - at - 1));
			snprintf(m->export, sizeof(m->export), "%s", eq + 1);
		}
	} else if (!strcmp(m->protocol, "ceph"))
		host_path(m, l->source, 1);
	else if (!strcmp(m->subtype, "smbnetfs"))
		smbnetfs(m, rel);
	else if (!strcmp(m->subtype, "sshfs")) {
		const char *at = strchr(l->source, '@');

		host_path(m, at ? at + 1 : l->source, 0);
	} else
		snprintf(m->export, sizeof(m->export), "%s", l->source);
}

int sm_mount_find(const char *text, const char *real, int match_dev, unsigned major,
		  unsigned minor, struct sm_mount *m, char *fstype, size_t fstype_len,
		  char *source, size_t source_len, char *mount_point, size_t mp_len)
{
	const char *p = text;
	char line[4096], best[4096];
	size_t best_len = 0;
	int found = 0;

	memset(m, 0, sizeof(*m));
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p), len;
		struct sm_mountinfo_line l;

		put(line, sizeof(line), p, n);
		p += n + (end ? 1 : 0);
		if (sm_mountinfo_split(line, &l))
			continue;
		len = strlen(l.mount_point);
		if (strncmp(real, l.mount_point, len) || (len > 1 && real[len] && real[len] != '/'))
			continue;
		if (match_dev && (l.major != major || l.minor != minor))
			continue;
		/* the later of two equal mount points is the one on top */
		if (found && len < best_len)
			continue;
		found = 1;
		best_len = len;
		put(best, sizeof(best), p - n - (end ? 1 : 0), n);
	}
	if (!found)
		return -ENOENT;
	{
		struct sm_mountinfo_line l;
		const char *rel = real + (best_len > 1 ? best_len : 0);

		sm_mountinfo_split(best, &l);
		sm_mount_parse(&l, rel, m);
		if (fstype)
			snprintf(fstype, fstype_len, "%.*s", (int)fstype_len - 1, l.fstype);
		if (source)
			snprintf(source, source_len, "%.*s", (int)source_len - 1, l.source);
		if (mount_point)
			snprintf(mount_point, mp_len, "%.*s", (int)mp_len - 1, l.mount_point);
	}
	return 0;
}

const char *sm_mount_magic_name(unsigned long f_type)
{
	switch (f_type) {
	case 0x6969: return "nfs";
	case 0xFE534D42: return "smb3";      /* SMB2 and SMB3 */
	case 0xFF534D42: return "cifs";
	case 0x517B: return "smbfs";
	case 0x65735546: return "fuse";      /* virtiofs too */
	case 0x01021997: return "9p";
	case 0x00C36400: return "ceph";
	case 0x0BD00BD0: return "lustre";
	case 0x47504653: return "gpfs";
	case 0x19830326: return "beegfs";
	default: return NULL;
	}
}

static const char *const kinds[] = { "local", "network", "fuse", "host", "client" };

const char *sm_mount_kind_name(enum sm_mount_kind k)
{
	return (unsigned)k < 5 ? kinds[k] : "local";
}

int sm_mount_kind_parse(const char *name)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(kinds[i], name))
			return i;
	return -1;
}

int sm_mount_is_share(const struct sm_mount *m)
{
	return m->protocol[0] && m->kind != SM_MOUNT_LOCAL;
}

const char *sm_mount_opt(const struct sm_mount *m, enum sm_mopt o)
{
	return (unsigned)o < SM_MOPT_COUNT && (m->present & (1u << o)) ? m->val[o] : NULL;
}

void sm_mount_describe(const struct sm_mount *m, char *buf, size_t len)
{
	size_t pos;
	int first = 1;

	pos = (size_t)snprintf(buf, len, "%s%s%s", m->protocol[0] ? m->protocol : "?",
			       m->subtype[0] ? "." : "", m->subtype);
	if (m->server[0] && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ", server %s", m->server);
	if (m->export[0] && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ", %s %s",
					!strcmp(m->subtype, "smbnetfs") || !strcmp(m->protocol, "cifs") ||
					!strcmp(m->protocol, "smb3") ? "share" : "export", m->export);
	for (unsigned i = 0; i < SM_MOPT_COUNT && pos < len; i++) {
		if (!(m->present & (1u << i)))
			continue;
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s%s%s", first ? ": " : " ", opts[i].name,
					opts[i].type == SM_MOPT_FLAG ? "" : "=", m->val[i]);
		first = 0;
	}
}
