/* SPDX-License-Identifier: MIT */
/* Tests of I/O buffers: alignment, data modes, per-block stamps, and that
 * random data does not compress. */
#include "core/buf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

#define BLK SM_STAMP_BLOCK

/* Shannon entropy of buf in bits per byte (8 for uniform random bytes). */
static double entropy(const unsigned char *buf, size_t len)
{
	uint64_t count[256] = { 0 };
	double h = 0;

	for (size_t i = 0; i < len; i++)
		count[buf[i]]++;
	for (int b = 0; b < 256; b++) {
		double p = (double)count[b] / (double)len;

		if (count[b])
			h -= p * log2(p);
	}
	return h;
}

static unsigned distinct_bytes(const unsigned char *buf, size_t len)
{
	unsigned char seen[256] = { 0 };
	unsigned n = 0;

	for (size_t i = 0; i < len; i++) {
		if (!seen[buf[i]]) {
			seen[buf[i]] = 1;
			n++;
		}
	}
	return n;
}

static void test_alloc(SM_UNUSED void **state)
{
	static const size_t aligns[] = { sizeof(void *), 512, 4096, 65536, 2u << 20 };
	static const size_t lens[] = { 0, 1, 4095, 4096, 4097, (1u << 20) + 7 };

	for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			unsigned char *p = sm_buf_alloc(lens[l], aligns[a]);

			assert_non_null(p);
			assert_int_equal((uintptr_t)p % aligns[a], 0);
			/* Every byte is ours to write. */
			memset(p, 0x5a, lens[l] ? lens[l] : 1);
			assert_int_equal(p[lens[l] ? lens[l] - 1 : 0], 0x5a);
			free(p);
		}
	}
	/* Not a power of two: posix_memalign refuses, so do we. */
	assert_null(sm_buf_alloc(4096, 3000));
}

static void test_fill(SM_UNUSED void **state)
{
	enum { LEN = 64 * 1024 + 13 };  /* odd tail after the last 8-byte word */
	unsigned char *a = sm_buf_alloc(LEN, 4096), *b = sm_buf_alloc(LEN, 4096);
	unsigned char *z = calloc(1, LEN);

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(z);

	/* Same seed, same data; another seed, other data. */
	sm_buf_fill(a, LEN, SM_DATA_RANDOM, 1);
	sm_buf_fill(b, LEN, SM_DATA_RANDOM, 1);
	assert_memory_equal(a, b, LEN);
	sm_buf_fill(b, LEN, SM_DATA_RANDOM, 2);
	assert_memory_not_equal(a, b, LEN);
	for (size_t off = 0; off + 8 <= LEN; off += 8)
		if (!memcmp(a + off, b + off, 8))
			fail_msg("seeds 1 and 2 agree on the word at %zu", off);

	/* Seed 0 is a stream too, not zeros; the tail bytes are filled. */
	memset(a, 0, LEN);
	sm_buf_fill(a, LEN, SM_DATA_RANDOM, 0);
	assert_memory_not_equal(a, z, LEN);
	assert_memory_not_equal(a + LEN - 5, z, 5);

	/* Zero mode clears whatever was there. */
	sm_buf_fill(a, LEN, SM_DATA_ZERO, 1);
	assert_memory_equal(a, z, LEN);
	free(a);
	free(b);
	free(z);
}

static uint64_t tag_at(const unsigned char *p)
{
	uint64_t t;

	memcpy(&t, p + 8, 8);
	return t;
}

static void test_stamp(SM_UNUSED void **state)
{
	enum { NBLK = 64, LEN = NBLK * BLK };
	unsigned char *a = sm_buf_alloc(LEN, 4096), *b = sm_buf_alloc(LEN, 4096);
	unsigned char *orig = sm_buf_alloc(LEN, 4096);

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(orig);
	sm_buf_fill(orig, LEN, SM_DATA_RANDOM, 5);
	memcpy(a, orig, LEN);
	memcpy(b, orig, LEN);

	/* Two copies of one buffer stamped for different items differ in
	 * every block; only the 16-byte stamps changed. */
	sm_buf_stamp(a, LEN, SM_DATA_RANDOM, 42, 1);
	sm_buf_stamp(b, LEN, SM_DATA_RANDOM, 42, 2);
	for (unsigned k = 0; k < NBLK; k++) {
		const unsigned char *pa = a + k * BLK, *pb = b + k * BLK;

		if (!memcmp(pa, pb, BLK))
			fail_msg("block %u is the same for items 1 and 2", k);
		assert_true(sm_buf_has_stamp(pa, BLK));
		assert_memory_equal(pa, SM_STAMP_MAGIC, 8);
		assert_memory_equal(pa + 16, orig + k * BLK + 16, BLK - 16);
		/* Blocks of one buffer differ from each other too. */
		for (unsigned j = 0; j < k; j++)
			assert_true(tag_at(pa) != tag_at(a + j * BLK));
	}

	/* Other runs differ; the same (run, item) gives the same bytes. */
	memcpy(b, orig, LEN);
	sm_buf_stamp(b, LEN, SM_DATA_RANDOM, 43, 1);
	for (unsigned k = 0; k < NBLK; k++)
		assert_true(memcmp(a + k * BLK, b + k * BLK, BLK) != 0);
	memcpy(b, orig, LEN);
	sm_buf_stamp(b, LEN, SM_DATA_RANDOM, 42, 1);
	assert_memory_equal(a, b, LEN);

	/* A short last block gets a stamp when 16 bytes fit, and nothing past
	 * the end is written. */
	memcpy(a, orig, LEN);
	sm_buf_stamp(a, 2 * BLK + 16, SM_DATA_RANDOM, 1, 1);
	assert_true(sm_buf_has_stamp(a + 2 * BLK, 16));
	assert_memory_equal(a + 2 * BLK + 16, orig + 2 * BLK + 16, LEN - 2 * BLK - 16);
	memcpy(a, orig, LEN);
	sm_buf_stamp(a, 2 * BLK + 15, SM_DATA_RANDOM, 1, 1);
	assert_memory_equal(a + 2 * BLK, orig + 2 * BLK, LEN - 2 * BLK);

	/* Zero mode is left alone: zeros stay zeros. */
	sm_buf_fill(a, LEN, SM_DATA_ZERO, 0);
	sm_buf_stamp(a, LEN, SM_DATA_ZERO, 42, 1);
	assert_int_equal(distinct_bytes(a, LEN), 1);
	assert_int_equal(a[0], 0);
	assert_false(sm_buf_has_stamp(a, LEN));
	free(a);
	free(b);
	free(orig);
}

static void test_has_stamp(SM_UNUSED void **state)
{
	unsigned char buf[64];

	sm_buf_fill(buf, sizeof(buf), SM_DATA_RANDOM, 9);
	assert_false(sm_buf_has_stamp(buf, sizeof(buf)));
	memcpy(buf, SM_STAMP_MAGIC, 8);
	assert_true(sm_buf_has_stamp(buf, sizeof(buf)));
	assert_true(sm_buf_has_stamp(buf, 16));
	assert_false(sm_buf_has_stamp(buf, 15));  /* too short for a stamp */
	buf[7] ^= 1;
	assert_false(sm_buf_has_stamp(buf, sizeof(buf)));
}

/* Random data must not compress: close to 8 bits of entropy per byte, also
 * once stamped, while zero mode has none. */
static void test_incompressible(SM_UNUSED void **state)
{
	enum { LEN = 4u << 20 };
	unsigned char *p = sm_buf_alloc(LEN, 4096);
	double h;

	assert_non_null(p);
	sm_buf_fill(p, LEN, SM_DATA_RANDOM, 77);
	h = entropy(p, LEN);
	print_message("entropy of random data: %.5f bits/byte\n", h);
	assert_true(h > 7.99);
	assert_int_equal(distinct_bytes(p, LEN), 256);
	/* Every 4 KiB block on its own, as a block-level compressor sees it. */
	for (size_t off = 0; off < LEN; off += BLK)
		assert_true(distinct_bytes(p + off, BLK) > 240);

	sm_buf_stamp(p, LEN, SM_DATA_RANDOM, 3, 4);
	h = entropy(p, LEN);
	assert_true(h > 7.9);

	sm_buf_fill(p, LEN, SM_DATA_ZERO, 0);
	assert_true(entropy(p, LEN) == 0.0);
	free(p);
}

/* Alias buffers: each its own first page, the rest one set of pages. */
static void test_alias(SM_UNUSED void **state)
{
	struct sm_buf_alias a;
	unsigned char *b0, *b1, *b2;
	size_t len = 5 * 4096;

	assert_int_equal(sm_buf_alias_init(&a, 4096 + 1, 2, 1), -EINVAL);
	assert_int_equal(sm_buf_alias_init(&a, len, 0, 1), -EINVAL);
	assert_int_equal(sm_buf_alias_init(&a, len, 3, 7), 0);
	b0 = sm_buf_alias_at(&a, 0);
	b1 = sm_buf_alias_at(&a, 1);
	b2 = sm_buf_alias_at(&a, 2);
	assert_int_equal((uintptr_t)b0 % 4096, 0);
	assert_ptr_equal(b1, b0 + len);
	/* the data after the first page: the same in every buffer, random */
	assert_memory_equal(b0 + 4096, b1 + 4096, len - 4096);
	assert_memory_equal(b0 + 4096, b2 + 4096, len - 4096);
	assert_true(entropy(b0 + 4096, len - 4096) > 7.9);
	/* a header written in one buffer's first page is that buffer's */
	memset(b1, 0xab, 64);
	assert_int_not_equal(b0[0], 0xab);
	assert_int_not_equal(b2[0], 0xab);
	assert_true(entropy(b2, 4096) > 7.5);
	/* a write past the first page shows in every buffer: one memory */
	b2[4096 + 10] ^= 0xff;
	assert_int_equal(b0[4096 + 10], b2[4096 + 10]);
	sm_buf_alias_release(&a);
	assert_null(a.base);
	/* one page: nothing shared */
	assert_int_equal(sm_buf_alias_init(&a, 4096, 2, 7), 0);
	sm_buf_alias_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_has_stamp),
		cmocka_unit_test(test_incompressible),
		cmocka_unit_test(test_alias),
	};

	return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
