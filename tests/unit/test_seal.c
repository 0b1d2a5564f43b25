/* SPDX-License-Identifier: MIT */
/* Tests of the ownership seals: the frame header is accepted as written and
 * refused after any change of a byte, on text that starts like stormark's
 * stamp, and when short; the fileio attribute names one file. */
#include "core/seal.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"
#include "helpers.h"

static void test_frame_hdr_roundtrip(SM_UNUSED void **state)
{
	unsigned char buf[SM_FRAME_HDR_LEN];
	struct sm_frame_hdr h = { .dir_id = 0x1122334455667788ULL, .index = 19999,
				  .frame_bytes = 4096, .run_tag = 42 }, got;

	sm_frame_hdr_put(buf, &h);
	assert_int_equal(sm_frame_hdr_get(buf, sizeof(buf), &got), 0);
	assert_true(got.dir_id == h.dir_id && got.index == h.index &&
		    got.frame_bytes == h.frame_bytes && got.run_tag == h.run_tag);
	/* not text: the first byte is outside ASCII */
	assert_int_equal(buf[0], 0x89);
	assert_int_equal(sm_frame_hdr_get(buf, sizeof(buf) - 1, &got), -EBADMSG);
}

static void test_frame_hdr_every_byte(SM_UNUSED void **state)
{
	unsigned char buf[SM_FRAME_HDR_LEN], bad[SM_FRAME_HDR_LEN];
	struct sm_frame_hdr h = { .dir_id = 7, .index = 3, .frame_bytes = 65536, .run_tag = 9 }, got;

	sm_frame_hdr_put(buf, &h);
	for (unsigned i = 0; i < SM_FRAME_HDR_LEN; i++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			memcpy(bad, buf, sizeof(bad));
			bad[i] ^= (unsigned char)(1u << bit);
			assert_int_equal(sm_frame_hdr_get(bad, sizeof(bad), &got), -EBADMSG);
		}
	}
}

static void test_frame_hdr_text(SM_UNUSED void **state)
{
	unsigned char buf[SM_FRAME_HDR_LEN];
	struct sm_frame_hdr got;

	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "STORMARK", 8);
	assert_int_equal(sm_frame_hdr_get(buf, sizeof(buf), &got), -EBADMSG);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(sm_frame_hdr_get(buf, sizeof(buf), &got), -EBADMSG);
}

static void test_seal_attr(SM_UNUSED void **state)
{
	char path[PATH_MAX];
	int fd = t_tmpfile(path, sizeof(path), "seal"), rc;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(sm_seal_check(fd, 0), 0);          /* no seal */
	rc = sm_seal_set(fd, 3, 1 << 20);
	if (rc == -ENOTSUP) {
		close(fd);
		skip();
	}
	assert_int_equal(rc, 0);
	assert_int_equal(sm_seal_check(fd, 3), 1);
	assert_int_equal(sm_seal_check(fd, 2), 0);          /* another file's */
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_hdr_roundtrip),
		cmocka_unit_test(test_frame_hdr_every_byte),
		cmocka_unit_test(test_frame_hdr_text),
		cmocka_unit_test(test_seal_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
