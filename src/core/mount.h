/* SPDX-License-Identifier: MIT */
/* The mount under a tested directory, from /proc/self/mountinfo's text:
 * its protocol (nfs, cifs, fuse and its subtype, ...), server, export and
 * the options that decide what a figure means on a share (docs/shares.md).
 * Pure parsing: the file is read by core/fsx (sm_fs_info()). */
#ifndef SM_MOUNT_H
#define SM_MOUNT_H

#include <stddef.h>

/* What kind of file system the protocol names: a local one, a network
 * client (nfs, cifs, ceph, lustre, ...), a FUSE daemon (which may itself
 * reach a server: smbnetfs, sshfs) or a share of a virtual machine's host
 * (virtiofs). */
enum sm_mount_kind {
	SM_MOUNT_LOCAL,
	SM_MOUNT_NETWORK,
	SM_MOUNT_FUSE,
	SM_MOUNT_HOST,
	SM_MOUNT_CLIENT,       /* no mount: stormark's own client (fileio --nfs, libnfs) */
};

/* The options recorded, in the order they are written and shown. A value
 * is a number (rsize, nconnect, seconds for the ac* timers), a word (vers,
 * proto, cache, lookupcache) or a flag that is there or not (nocto, hard). */
enum sm_mopt {
	SM_MOPT_VERS, SM_MOPT_PROTO, SM_MOPT_NCONNECT, SM_MOPT_RSIZE, SM_MOPT_WSIZE,
	SM_MOPT_CACHE, SM_MOPT_ACTIMEO, SM_MOPT_ACREGMIN, SM_MOPT_ACREGMAX,
	SM_MOPT_ACDIRMIN, SM_MOPT_ACDIRMAX, SM_MOPT_NOAC, SM_MOPT_LOOKUPCACHE,
	SM_MOPT_NOCTO, SM_MOPT_HARD, SM_MOPT_SOFT, SM_MOPT_MULTICHANNEL,
	SM_MOPT_MAX_CHANNELS, SM_MOPT_DIRECT_IO,
	SM_MOPT_COUNT
};

enum sm_mopt_type { SM_MOPT_NUM, SM_MOPT_WORD, SM_MOPT_FLAG };

/* The option's name as mountinfo spells it, and its type. NULL past the end. */
const char *sm_mopt_name(unsigned i);
enum sm_mopt_type sm_mopt_type(unsigned i);

/* Invariant: val[i] is meaningful only when bit i of present is set; a
 * flag's value is "". A word or number is kept as mountinfo wrote it (a
 * number is digits only: a non-numeric one is not recorded). */
struct sm_mount {
	char protocol[16];     /* "nfs4", "nfs", "cifs", "smb3", "fuse", "9p", ...;
				* else the fs type; "" when unknown */
	char subtype[32];      /* fuse's subtype ("smbnetfs", "sshfs"), else "" */
	char server[128];      /* from the mount source, "" when it names none */
	char export[256];      /* the export, share or tag the source names */
	enum sm_mount_kind kind;
	unsigned present;      /* bit per enum sm_mopt */
	char val[SM_MOPT_COUNT][24];
};

/* One line of mountinfo, split in place (fields point into the line, the
 * octal escapes such as \040 undone). */
struct sm_mountinfo_line {
	unsigned major, minor;
	const char *mount_point;
	const char *mount_opts;    /* per-mount options ("rw,relatime") */
	const char *fstype;        /* "nfs4", "fuse.sshfs" */
	const char *source;        /* "server:/export", "//server/share" */
	const char *super_opts;    /* the file system's own options */
};

/* Split line (one line of /proc/self/mountinfo, modified in place) into
 * *out. Returns 0, or -EINVAL when it is not such a line. */
int sm_mountinfo_split(char *line, struct sm_mountinfo_line *out);

/*
 * The mount holding real (an absolute path with no symlinks) in text, the
 * whole of a mountinfo file: the longest mount point that is a prefix of
 * real at a component boundary and, when match_dev, whose device is
 * major:minor (a bind mount or an overmount shares the prefix). Fills *m
 * (sm_mount_parse()) and, when not NULL, fstype, source and mount_point
 * (truncated to their sizes). Returns 0, or -ENOENT when no line holds it
 * (*m is then zeroed).
 */
int sm_mount_find(const char *text, const char *real, int match_dev, unsigned major,
		  unsigned minor, struct sm_mount *m, char *fstype, size_t fstype_len,
		  char *source, size_t source_len, char *mount_point, size_t mp_len);

/* The protocol, server, export and options of one split line into *m;
 * rel is the path below the mount point ("" at it), which names the
 * server and share of a fuse.smbnetfs mount (its root lists the network).
 * Never fails. */
void sm_mount_parse(const struct sm_mountinfo_line *l, const char *rel, struct sm_mount *m);

/* The protocol statfs' f_type names (NFS, SMB2, CIFS, FUSE, 9p, ceph,
 * ...), or NULL for another magic: what is known without mountinfo. */
const char *sm_mount_magic_name(unsigned long f_type);

/* "local", "network", "fuse", "host", "client" */
const char *sm_mount_kind_name(enum sm_mount_kind k);

/* The kind a name gives (the reverse of sm_mount_kind_name()); -1 if none. */
int sm_mount_kind_parse(const char *name);

/* 1 when the mount is a share (network, FUSE or host): its line is shown
 * and its rules apply (analysis/share.h). */
int sm_mount_is_share(const struct sm_mount *m);

/* The option's value, or NULL when the mount did not show it. */
const char *sm_mount_opt(const struct sm_mount *m, enum sm_mopt o);

/* The one-line description shown beside the file system: "nfs4, server
 * 10.0.0.1, export /vol: vers=4.2 proto=tcp nconnect=16 hard", into buf. */
void sm_mount_describe(const struct sm_mount *m, char *buf, size_t len);

#endif
