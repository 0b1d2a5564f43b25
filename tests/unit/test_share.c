/* SPDX-License-Identifier: MIT */
/* Tests of the share rules (analysis/share.h, docs/shares.md): which
 * warnings a mount's options give, and why. */
#include "analysis/share.h"

#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* The mount of one mountinfo line (its mount point is /m). */
static struct sm_mount mount_of(const char *line)
{
	struct sm_mount m;

	if (sm_mount_find(line, "/m/x", 0, 0, 0, &m, NULL, 0, NULL, 0, NULL, 0))
		fail_msg("no mount in '%s'", line);
	return m;
}

/* The warning of that code in w, or NULL. */
static const char *msg(const struct sm_warnings *w, const char *code)
{
	for (unsigned i = 0; i < w->count; i++)
		if (!strcmp(w->item[i].code, code))
			return w->item[i].message;
	return NULL;
}

/* The codes of w, space-separated, for an exact comparison. */
static const char *codes(const struct sm_warnings *w)
{
	static char buf[512];
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < w->count; i++)
		pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, "%s%s", i ? " " : "", w->item[i].code);
	return buf;
}

static const char nfs_default[] = "40 22 0:45 / /m rw,relatime - nfs4 srv:/e rw,vers=4.2,rsize=1048576,"
	"wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,local_lock=none\n";
static const char nfs_noac[] = "41 22 0:46 / /m rw - nfs srv:/e rw,vers=3,rsize=524288,wsize=524288,"
	"acregmin=0,acregmax=0,acdirmin=0,acdirmax=0,soft,nconnect=8,proto=tcp,lookupcache=none\n";
static const char nfs_nocto[] = "41 22 0:46 / /m rw - nfs srv:/e rw,vers=3,acregmin=0,acregmax=0,"
	"acdirmin=0,acdirmax=0,hard,nocto,lookupcache=none\n";
static const char cifs_strict[] = "42 22 0:47 / /m rw - cifs //f/p rw,vers=3.1.1,cache=strict,soft,"
	"rsize=4194304,wsize=4194304,actimeo=1\n";
static const char cifs_none[] = "43 22 0:48 / /m rw - cifs //f/p rw,vers=3.0,cache=none,hard,"
	"multichannel,max_channels=4,rsize=1048576,wsize=1048576,actimeo=0\n";
static const char smbnetfs[] = "44 22 0:49 / /m rw,nosuid,nodev - fuse.smbnetfs smbnetfs rw,user_id=0,"
	"group_id=0\n";
static const char fuse_local[] = "45 22 0:50 / /m rw,nosuid,nodev - fuse.fusefail fusefail rw,user_id=0,"
	"group_id=0\n";
static const char ntfs[] = "46 22 8:17 / /m rw,relatime - fuseblk /dev/sdb1 rw,user_id=0,group_id=0\n";
static const char ext4[] = "22 1 254:0 / /m rw - ext4 /dev/vda rw\n";
static const char vfs[] = "47 22 0:52 / /m rw - virtiofs tag rw\n";

static void nfs_rules(void **state)
{
	struct sm_warnings w = { 0 };
	struct sm_mount m = mount_of(nfs_default);

	(void)state;
	/* direct I/O on NFS goes to the server (nfs(5)): no share_direct_io */
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
	assert_string_equal(codes(&w), "share_attr_cache share_one_client");
	assert_non_null(strstr(msg(&w, "share_attr_cache"), "default 3-60 s"));
	assert_non_null(strstr(msg(&w, "share_attr_cache"), "lookupcache=all"));
	assert_non_null(strstr(msg(&w, "share_one_client"), "1 TCP connection (nconnect unset)"));
	assert_non_null(strstr(msg(&w, "share_one_client"), "rsize=1048576/wsize=1048576"));
	/* a data-only run is told nothing of the attribute cache */
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA, 1);
	assert_string_equal(codes(&w), "share_one_client");

	/* no attribute or lookup cache: no share_attr_cache; soft: share_soft */
	m = mount_of(nfs_noac);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
	assert_string_equal(codes(&w), "share_one_client share_soft");
	assert_non_null(strstr(msg(&w, "share_one_client"), "8 TCP connections (nconnect=8)"));

	/* nocto alone is reason enough */
	m = mount_of(nfs_nocto);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_META, 0);
	assert_string_equal(codes(&w), "share_attr_cache");
	assert_non_null(strstr(msg(&w, "share_attr_cache"), "(nocto)"));
}

static void cifs_rules(void **state)
{
	struct sm_warnings w = { 0 };
	struct sm_mount m = mount_of(cifs_strict);

	(void)state;
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
	assert_string_equal(codes(&w), "share_direct_io share_attr_cache share_one_client share_soft");
	assert_non_null(strstr(msg(&w, "share_direct_io"), "cache=strict"));
	assert_non_null(strstr(msg(&w, "share_one_client"), "one channel (no multichannel)"));
	/* buffered I/O is not told about direct I/O */
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA, 0);
	assert_null(msg(&w, "share_direct_io"));

	m = mount_of(cifs_none);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
	assert_string_equal(codes(&w), "share_one_client");
	assert_non_null(strstr(msg(&w, "share_one_client"), "multichannel, max_channels=4"));
}

static void fuse_and_local(void **state)
{
	struct sm_warnings w = { 0 };
	struct sm_mount m = mount_of(smbnetfs);

	(void)state;
	sm_share_warn(&w, &m, SM_SHARE_DATA, 1);
	assert_string_equal(codes(&w), "share_direct_io share_one_client");
	assert_non_null(strstr(msg(&w, "share_direct_io"), "fuse.smbnetfs"));

	/* a FUSE file system that is no client of a server: direct I/O only */
	m = mount_of(fuse_local);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA, 1);
	assert_string_equal(codes(&w), "share_direct_io");
	m = mount_of(ntfs);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA, 0);
	assert_int_equal(w.count, 0);

	m = mount_of(ext4);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
	assert_int_equal(w.count, 0);

	/* a host's share is not a client of a server's */
	m = mount_of(vfs);
	memset(&w, 0, sizeof(w));
	sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 0);
	assert_int_equal(w.count, 0);
}

static void per_client(void **state)
{
	char buf[256];
	struct sm_mount m = mount_of(nfs_default);

	(void)state;
	sm_share_per_client(&m, buf, sizeof(buf));
	assert_non_null(strstr(buf, "one client's"));
	assert_non_null(strstr(buf, "docs/mpi.md"));
	m = mount_of(ext4);
	sm_share_per_client(&m, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* Every message fits a warning whole (result/result.h: 240 bytes). */
static void messages_fit(void **state)
{
	static const char *const lines[] = { nfs_default, nfs_noac, nfs_nocto, cifs_strict, cifs_none,
					     smbnetfs };

	(void)state;
	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct sm_warnings w = { 0 };
		struct sm_mount m = mount_of(lines[i]);

		sm_share_warn(&w, &m, SM_SHARE_DATA | SM_SHARE_META, 1);
		for (unsigned j = 0; j < w.count; j++)
			if (strlen(w.item[j].message) >= sizeof(w.item[j].message) - 1)
				fail_msg("cut: %s", w.item[j].message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nfs_rules),
		cmocka_unit_test(cifs_rules),
		cmocka_unit_test(fuse_and_local),
		cmocka_unit_test(per_client),
		cmocka_unit_test(messages_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
