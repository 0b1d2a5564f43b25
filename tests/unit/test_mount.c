/* SPDX-License-Identifier: MIT */
/* Tests of the mount parser (core/mount.h) on mountinfo lines as the kernel
 * writes them for each protocol. */
#include "core/mount.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* One mountinfo of a machine with every kind of share. The devices are
 * each mount's own (0:NN for network and FUSE file systems). */
static const char mountinfo[] =
	"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"25 22 0:23 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=8145720k,inode64\n"
	"40 22 0:45 / /mnt/nfs4 rw,relatime shared:80 - nfs4 10.0.0.1:/export/media "
	"rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,"
	"retrans=2,sec=sys,clientaddr=10.0.0.2,local_lock=none,addr=10.0.0.1\n"
	"41 22 0:46 / /mnt/nfs3 rw,relatime shared:81 - nfs nas:/vol/render "
	"rw,vers=3,rsize=524288,wsize=524288,namlen=255,acregmin=1,acregmax=10,acdirmin=1,"
	"acdirmax=10,hard,nocto,nconnect=16,proto=tcp,timeo=600,retrans=2,sec=sys,"
	"mountaddr=10.0.0.9,mountvers=3,mountport=20048,mountproto=udp,lookupcache=pos,"
	"local_lock=none,addr=10.0.0.9\n"
	"42 22 0:47 / /mnt/smb rw,relatime shared:82 - cifs //filer/projects "
	"rw,vers=3.1.1,cache=strict,username=ed,uid=1000,noforceuid,gid=1000,noforcegid,"
	"addr=10.0.0.5,file_mode=0755,dir_mode=0755,soft,nounix,serverino,mapposix,"
	"rsize=4194304,wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,closetimeo=1\n"
	"43 22 0:48 / /mnt/smb\\040direct rw,relatime shared:83 - cifs //filer/grading\\040room "
	"rw,vers=3.0,cache=none,username=ed,uid=0,noforceuid,gid=0,noforcegid,addr=10.0.0.5,"
	"file_mode=0755,dir_mode=0755,hard,nounix,serverino,mapposix,multichannel,max_channels=4,"
	"rsize=1048576,wsize=1048576,bsize=1048576,echo_interval=60,actimeo=0,closetimeo=1\n"
	"44 22 0:49 / /mnt/net rw,nosuid,nodev,relatime shared:84 - fuse.smbnetfs smbnetfs "
	"rw,user_id=0,group_id=0\n"
	"45 22 0:50 / /home/ed/remote\\040dir rw,nosuid,nodev,relatime shared:85 - fuse.sshfs "
	"ed@render1:/srv/frames rw,user_id=1000,group_id=1000\n"
	"46 22 0:51 / /mnt/host rw,relatime shared:86 - 9p hostshare "
	"rw,sync,dirsync,relatime,access=client,trans=virtio\n"
	"47 22 0:52 / /mnt/vfs rw,relatime shared:87 - virtiofs myfs rw\n"
	"48 22 0:53 / /mnt/ceph rw,relatime shared:88 - ceph 10.0.0.21:6789,10.0.0.22:6789:/media "
	"rw,relatime,name=admin,secret=<hidden>,fsid=00000000-0000-0000-0000-000000000000,acl\n"
	"49 22 0:54 / /lustre rw,relatime shared:89 - lustre 10.0.0.31@tcp:10.0.0.32@tcp:/scratch "
	"rw,flock,lazystatfs,encrypt\n"
	"50 22 0:55 / /mnt/nfs4/sub rw,relatime shared:90 - nfs4 [fd00::1]:/export/media/sub "
	"rw,vers=4.1,rsize=65536,wsize=65536,namlen=255,soft,proto=tcp6,timeo=600,retrans=2,"
	"sec=sys,clientaddr=fd00::2,local_lock=none,addr=fd00::1\n";

struct want {
	const char *path;
	unsigned major, minor;
	const char *fstype, *protocol, *subtype, *server, *export;
	enum sm_mount_kind kind;
	const char *describe;
};

static const struct want wants[] = {
	{ "/data/x", 254, 0, "ext4", "ext4", "", "", "", SM_MOUNT_LOCAL, "ext4" },
	{ "/tmp/a/b", 0, 23, "tmpfs", "tmpfs", "", "", "", SM_MOUNT_LOCAL, "tmpfs" },
	{ "/mnt/nfs4/shots", 0, 45, "nfs4", "nfs4", "", "10.0.0.1", "/export/media", SM_MOUNT_NETWORK,
	  "nfs4, server 10.0.0.1, export /export/media: vers=4.2 proto=tcp rsize=1048576 "
	  "wsize=1048576 hard" },
	{ "/mnt/nfs3", 0, 46, "nfs", "nfs", "", "nas", "/vol/render", SM_MOUNT_NETWORK,
	  "nfs, server nas, export /vol/render: vers=3 proto=tcp nconnect=16 rsize=524288 "
	  "wsize=524288 acregmin=1 acregmax=10 acdirmin=1 acdirmax=10 lookupcache=pos nocto hard" },
	{ "/mnt/smb/a", 0, 47, "cifs", "cifs", "", "filer", "projects", SM_MOUNT_NETWORK,
	  "cifs, server filer, share projects: vers=3.1.1 rsize=4194304 wsize=4194304 cache=strict "
	  "actimeo=1 soft" },
	{ "/mnt/smb direct/x y", 0, 48, "cifs", "cifs", "", "filer", "grading room", SM_MOUNT_NETWORK,
	  "cifs, server filer, share grading room: vers=3.0 rsize=1048576 wsize=1048576 cache=none "
	  "actimeo=0 hard multichannel max_channels=4" },
	{ "/mnt/net/127.0.0.1/stormark/run1", 0, 49, "fuse.smbnetfs", "fuse", "smbnetfs", "127.0.0.1",
	  "stormark", SM_MOUNT_FUSE, "fuse.smbnetfs, server 127.0.0.1, share stormark" },
	{ "/home/ed/remote dir", 0, 50, "fuse.sshfs", "fuse", "sshfs", "render1", "/srv/frames",
	  SM_MOUNT_FUSE, "fuse.sshfs, server render1, export /srv/frames" },
	{ "/mnt/host", 0, 51, "9p", "9p", "", "", "hostshare", SM_MOUNT_HOST, "9p, export hostshare" },
	{ "/mnt/vfs/d", 0, 52, "virtiofs", "virtiofs", "", "", "myfs", SM_MOUNT_HOST, "virtiofs, export myfs" },
	{ "/mnt/ceph", 0, 53, "ceph", "ceph", "", "10.0.0.21:6789,10.0.0.22:6789", "/media",
	  SM_MOUNT_NETWORK, "ceph, server 10.0.0.21:6789,10.0.0.22:6789, export /media" },
	{ "/lustre/u/ed", 0, 54, "lustre", "lustre", "", "10.0.0.31@tcp:10.0.0.32@tcp", "/scratch",
	  SM_MOUNT_NETWORK, "lustre, server 10.0.0.31@tcp:10.0.0.32@tcp, export /scratch" },
	{ "/mnt/nfs4/sub/x", 0, 55, "nfs4", "nfs4", "", "fd00::1", "/export/media/sub", SM_MOUNT_NETWORK,
	  "nfs4, server fd00::1, export /export/media/sub: vers=4.1 proto=tcp6 rsize=65536 "
	  "wsize=65536 soft" },
};

static void finds_each_protocol(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		char fstype[32], source[128], mp[256], line[512];
		struct sm_mount m;
		int rc = sm_mount_find(mountinfo, w->path, 1, w->major, w->minor, &m, fstype, sizeof(fstype),
				       source, sizeof(source), mp, sizeof(mp));

		if (rc)
			fail_msg("%s: %d", w->path, rc);
		assert_string_equal(fstype, w->fstype);
		assert_string_equal(m.protocol, w->protocol);
		assert_string_equal(m.subtype, w->subtype);
		assert_string_equal(m.server, w->server);
		assert_string_equal(m.export, w->export);
		assert_int_equal(m.kind, w->kind);
		assert_int_equal(sm_mount_is_share(&m), w->kind != SM_MOUNT_LOCAL);
		sm_mount_describe(&m, line, sizeof(line));
		assert_string_equal(line, w->describe);
	}
}

/* The options' values, and what is left out: an option the kernel did not
 * show is absent, never a default. */
static void options_as_shown(void **state)
{
	struct sm_mount m;

	(void)state;
	assert_int_equal(sm_mount_find(mountinfo, "/mnt/nfs3", 1, 0, 46, &m, NULL, 0, NULL, 0, NULL, 0), 0);
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_NCONNECT), "16");
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_RSIZE), "524288");
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_LOOKUPCACHE), "pos");
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_NOCTO), "");
	assert_null(sm_mount_opt(&m, SM_MOPT_SOFT));
	assert_null(sm_mount_opt(&m, SM_MOPT_ACTIMEO));
	assert_int_equal(sm_mount_find(mountinfo, "/mnt/smb direct", 1, 0, 48, &m, NULL, 0, NULL, 0, NULL, 0), 0);
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_CACHE), "none");
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_ACTIMEO), "0");
	assert_string_equal(sm_mount_opt(&m, SM_MOPT_MAX_CHANNELS), "4");
	assert_non_null(sm_mount_opt(&m, SM_MOPT_MULTICHANNEL));
	/* a local file system records no options */
	assert_int_equal(sm_mount_find(mountinfo, "/tmp", 1, 0, 23, &m, NULL, 0, NULL, 0, NULL, 0), 0);
	assert_int_equal(m.present, 0);
}

/* The longest mount point at a component boundary wins; the device must
 * match when asked (a bind mount or an overmount shares the prefix). */
static void longest_prefix(void **state)
{
	char mp[256];
	struct sm_mount m;

	(void)state;
	/* "/mnt/nfs4sub" is not under "/mnt/nfs4" */
	assert_int_equal(sm_mount_find(mountinfo, "/mnt/nfs4sub", 0, 0, 0, &m, NULL, 0, NULL, 0, mp,
				       sizeof(mp)), 0);
	assert_string_equal(mp, "/");
	assert_int_equal(sm_mount_find(mountinfo, "/mnt/nfs4/sub/deeper", 0, 0, 0, &m, NULL, 0, NULL, 0,
				       mp, sizeof(mp)), 0);
	assert_string_equal(mp, "/mnt/nfs4/sub");
	/* with the device of the mount below, that one is taken */
	assert_int_equal(sm_mount_find(mountinfo, "/mnt/nfs4/sub/deeper", 1, 0, 45, &m, NULL, 0, NULL, 0,
				       mp, sizeof(mp)), 0);
	assert_string_equal(mp, "/mnt/nfs4");
	assert_string_equal(m.export, "/export/media");
	/* a device no line has */
	assert_int_equal(sm_mount_find(mountinfo, "/x", 1, 9, 9, &m, NULL, 0, NULL, 0, NULL, 0), -ENOENT);
	assert_string_equal(m.protocol, "");
}

/* Lines that are not mountinfo's are refused, not half read. */
static void bad_lines(void **state)
{
	char a[] = "22 1 254:0 / / rw,relatime shared:1 ext4 /dev/vda rw";   /* no "-" */
	char b[] = "22 1 x / / rw - ext4 /dev/vda rw";
	char c[] = "22 1 254:0 /";
	char d[] = "36 35 98:0 /mnt1 /mnt/a\\040b rw,noatime master:1 - ext3 /dev/root rw,errors=continue";
	struct sm_mountinfo_line l;

	(void)state;
	assert_int_equal(sm_mountinfo_split(a, &l), -EINVAL);
	assert_int_equal(sm_mountinfo_split(b, &l), -EINVAL);
	assert_int_equal(sm_mountinfo_split(c, &l), -EINVAL);
	/* proc(5)'s own example, with an escaped space */
	assert_int_equal(sm_mountinfo_split(d, &l), 0);
	assert_int_equal(l.major, 98);
	assert_string_equal(l.mount_point, "/mnt/a b");
	assert_string_equal(l.fstype, "ext3");
	assert_string_equal(l.source, "/dev/root");
	assert_string_equal(l.super_opts, "rw,errors=continue");
	assert_string_equal(l.mount_opts, "rw,noatime");
}

static void magic_numbers(void **state)
{
	(void)state;
	assert_string_equal(sm_mount_magic_name(0x6969), "nfs");
	assert_string_equal(sm_mount_magic_name(0xFE534D42), "smb3");
	assert_string_equal(sm_mount_magic_name(0xFF534D42), "cifs");
	assert_string_equal(sm_mount_magic_name(0x65735546), "fuse");
	assert_null(sm_mount_magic_name(0xEF53));   /* ext4 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_each_protocol),
		cmocka_unit_test(options_as_shown),
		cmocka_unit_test(longest_prefix),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(magic_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
