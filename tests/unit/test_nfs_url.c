/* SPDX-License-Identifier: MIT */
/* The form of fileio --nfs's URL (engine/nfs.h), checked without libnfs,
 * and the mount kind its results carry (core/mount.h). */
#include "engine/nfs.h"
#include "core/mount.h"

#include <errno.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static int split(const char *url, char *server, char *path)
{
	return sm_nfs_url_split(url, server, 64, path, 64);
}

static void test_split(void **state)
{
	char s[64], p[64];

	(void)state;
	assert_int_equal(split("nfs://127.0.0.1/srv/export", s, p), 0);
	assert_string_equal(s, "127.0.0.1");
	assert_string_equal(p, "/srv/export");
	/* ARGS are libnfs's; a trailing slash is the same directory */
	assert_int_equal(split("nfs://nas/vol/render/?nfsport=2049&mountport=20048", s, p), 0);
	assert_string_equal(s, "nas");
	assert_string_equal(p, "/vol/render");
}

static void test_refused(void **state)
{
	char s[64], p[64];

	(void)state;
	assert_int_equal(split("127.0.0.1:/srv/export", s, p), -EINVAL);   /* not a URL */
	assert_int_equal(split("nfs:///srv/export", s, p), -EINVAL);       /* no server */
	assert_int_equal(split("nfs://nas", s, p), -EINVAL);               /* no path */
	assert_int_equal(split("nfs://nas/", s, p), -EINVAL);              /* the root alone */
	assert_int_equal(split("nfs://nas?x=1/srv", s, p), -EINVAL);
	assert_int_equal(split("nfs://a-server-name-longer-than-the-64-byte-buffer-that-would-hold-it-0123456789/x",
			       s, p), -EINVAL);
}

static void test_client_kind(void **state)
{
	(void)state;
	assert_string_equal(sm_mount_kind_name(SM_MOUNT_CLIENT), "client");
	assert_int_equal(sm_mount_kind_parse("client"), SM_MOUNT_CLIENT);
	assert_int_equal(sm_mount_kind_parse("host"), SM_MOUNT_HOST);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_client_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
