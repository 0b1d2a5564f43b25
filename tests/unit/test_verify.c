/* SPDX-License-Identifier: MIT */
/* core/verify: a sealed block checks clean; each field of the trailer and
 * each byte of the payload is covered; damage is told apart (zeros, no
 * trailer, checksum, misplaced, stale, newer); the problem list keeps the
 * first by place and counts the rest. */
#include "core/verify.h"
#include "analysis/verify.h"
#include "core/compiler.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define B 4096u

static const struct sm_vblk_id ID = { .set = 500, .run = 900, .seq = 7, .off = 8192, .file = 3 };

static unsigned char *sealed(void)
{
	unsigned char *b = malloc(B);

	for (unsigned i = 0; i < B; i++)
		b[i] = (unsigned char)(i * 131 + 7);
	sm_verify_seal(b, B, &ID);
	return b;
}

static enum sm_verify_kind check(const unsigned char *b, struct sm_vblk_id e, uint64_t max_run)
{
	struct sm_vblk_id f;

	e.len = B;
	return sm_verify_check(b, B, &e, max_run, &f);
}

static void test_roundtrip(SM_UNUSED void **state)
{
	unsigned char *b = sealed();
	struct sm_vblk_id f, e = ID;

	e.len = B;
	assert_int_equal(sm_verify_check(b, B, &e, 0, &f), SM_VK_OK);
	assert_int_equal(f.set, 500);
	assert_int_equal(f.run, 900);
	assert_int_equal(f.seq, 7);
	assert_int_equal(f.off, 8192);
	assert_int_equal(f.file, 3);
	assert_int_equal(f.len, B);
	assert_int_equal(sm_verify_peek(b, B, &f), 1);
	/* the trailer is little-endian at the end: the magic reads as text */
	assert_memory_equal(b + B - SM_VERIFY_TRAILER, "SMVERIF1", 8);
	/* set, run and seq unchecked when 0 */
	e.set = e.run = e.seq = 0;
	assert_int_equal(sm_verify_check(b, B, &e, 0, &f), SM_VK_OK);
	free(b);
}

/* Every byte but the checksum's own is covered: flip each in turn. */
static void test_every_byte(SM_UNUSED void **state)
{
	unsigned char *b = sealed();
	unsigned bad = 0;

	for (unsigned i = 0; i < B - 8; i++) {
		b[i] ^= 0x01;
		if (check(b, ID, 0) != SM_VK_OK)
			bad++;
		b[i] ^= 0x01;
	}
	/* flipping the magic gives NOHDR, the length NOHDR, the rest CHECKSUM */
	assert_int_equal(bad, B - 8);
	b[100] ^= 0x80;
	assert_int_equal(check(b, ID, 0), SM_VK_CHECKSUM);
	b[100] ^= 0x80;
	b[B - 1] ^= 0x80;                  /* the checksum itself */
	assert_int_equal(check(b, ID, 0), SM_VK_CHECKSUM);
	free(b);
}

static void test_kinds(SM_UNUSED void **state)
{
	unsigned char *b = sealed(), *z = calloc(1, B), *r = malloc(B);
	struct sm_vblk_id e = ID;

	assert_int_equal(check(z, ID, 0), SM_VK_ZERO);
	memset(r, 0x5a, B);
	assert_int_equal(check(r, ID, 0), SM_VK_NOHDR);
	/* a trailer made for another block length: another block size */
	sm_verify_seal(r, 1024, &ID);
	memcpy(z + B - 1024, r, 1024);
	assert_int_equal(check(z, ID, 0), SM_VK_NOHDR);
	e.off = 12288;
	assert_int_equal(check(b, e, 0), SM_VK_MISPLACED);
	e = ID;
	e.file = 2;
	assert_int_equal(check(b, e, 0), SM_VK_MISPLACED);
	e = ID;
	e.set = 501;
	assert_int_equal(check(b, e, 0), SM_VK_STALE);
	e.set = 499;
	assert_int_equal(check(b, e, 0), SM_VK_NEWER);
	e = ID;
	e.run = 901;
	assert_int_equal(check(b, e, 0), SM_VK_STALE);
	e = ID;
	e.seq = 8;
	assert_int_equal(check(b, e, 0), SM_VK_STALE);
	e.seq = 6;
	assert_int_equal(check(b, e, 0), SM_VK_NEWER);
	/* a block this run did not write: any run up to max_run */
	e = ID;
	e.run = e.seq = 0;
	assert_int_equal(check(b, e, 900), SM_VK_OK);
	assert_int_equal(check(b, e, 899), SM_VK_NEWER);
	free(b);
	free(z);
	free(r);
}

static void test_seal_range(SM_UNUSED void **state)
{
	unsigned char *b = calloc(5, 1000);
	struct sm_vblk_id f, e = ID;

	/* 5000 bytes of 1000-byte blocks: five trailers, offsets follow */
	assert_int_equal(sm_verify_seal_range(b, 5000, 1000, &ID), 5);
	for (unsigned i = 0; i < 5; i++) {
		e.off = ID.off + i * 1000;
		e.len = 1000;
		assert_int_equal(sm_verify_check(b + i * 1000, 1000, &e, 0, &f), SM_VK_OK);
	}
	assert_int_equal(sm_verify_seal_range(b, 4999, 1000, &ID), 4);
	free(b);
}

/* Frame layouts: every byte covered once, blocks at least a unit long. */
static void test_layout(SM_UNUSED void **state)
{
	static const uint64_t totals[] = { 128, 4095, 4096, 8191, 8192, 10240, 65536, 1000000 };
	uint64_t off;
	uint32_t len;

	assert_int_equal(sm_verify_nblocks(127, 4096), 0);
	assert_int_equal(sm_verify_nblocks(10240, 4096), 2);
	sm_verify_block_at(10240, 4096, 1, &off, &len);
	assert_int_equal(off, 4096);
	assert_int_equal(len, 6144);
	for (unsigned t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		uint64_t n = sm_verify_nblocks(totals[t], 4096), next = 0;

		assert_true(n >= 1);
		for (uint64_t k = 0; k < n; k++) {
			sm_verify_block_at(totals[t], 4096, k, &off, &len);
			assert_int_equal(off, next);
			assert_true(len >= (totals[t] < 4096 ? totals[t] : 4096));
			assert_true(len < 2 * 4096 || totals[t] < 4096);
			next = off + len;
		}
		assert_int_equal(next, totals[t]);
	}
}

static void test_problem_list(SM_UNUSED void **state)
{
	struct sm_verify_stats a, m;
	struct sm_vblk_id e = ID;
	char line[400];

	memset(&a, 0, sizeof(a));
	memset(&m, 0, sizeof(m));
	/* 40 problems noted in falling order: the 16 smallest are kept, sorted */
	for (unsigned i = 40; i > 0; i--) {
		e.off = i * 4096ULL;
		sm_verify_note(&a, SM_VK_CHECKSUM, &e, NULL);
	}
	assert_int_equal(a.problems, 40);
	assert_int_equal(a.nkept, SM_VERIFY_KEEP);
	for (unsigned i = 0; i < SM_VERIFY_KEEP; i++)
		assert_int_equal(a.kept[i].off, (i + 1) * 4096ULL);
	e.file = 1;
	e.off = 0;
	sm_verify_note(&m, SM_VK_STALE, &e, &ID);
	a.checked = 5;
	m.checked = 7;
	sm_verify_stats_merge(&m, &a);
	assert_int_equal(m.problems, 41);
	assert_int_equal(m.checked, 12);
	assert_int_equal(m.kept[0].file, 1);      /* file 1 sorts before file 3 */
	assert_int_equal(m.kept[0].kind, SM_VK_STALE);
	sm_verify_describe(line, sizeof(line), &m.kept[0]);
	assert_non_null(strstr(line, "offset 0: stale block"));
	assert_string_equal(sm_verify_kind_name(SM_VK_MISPLACED), "misplaced");
}

/* The derived rates: 8 blocks of 4 KiB sealed in 0.5 ms is 65.536 MB/s;
 * hashing time over two threads' 10 ms; nothing timed gives zeros. */
static void test_figures(SM_UNUSED void **state)
{
	struct sm_verify_stats st = {0};
	struct sm_verify_fig fig;

	st.sealed = 8;
	st.seal_ns = 500000;
	st.checked = 4;
	st.check_ns = 1000000;
	st.pass_bytes = 3000000;
	st.pass_ns = 2000000000;
	sm_verify_figures(&st, 4096, 2, 10000000, &fig);
	assert_float_equal(fig.seal_bytes_per_s, 65536000.0, 1e-3);
	assert_float_equal(fig.check_bytes_per_s, 16384000.0, 1e-3);
	/* the pass's 2 s are threads' time too */
	assert_float_equal(fig.hash_share, 1500000.0 / 2020000000.0, 1e-12);
	assert_float_equal(fig.pass_bytes_per_s, 1500000.0, 1e-6);
	/* a read test: its checking is all in the pass, after a short run;
	 * the share of the time is a share (it was 116% of the run's) */
	memset(&st, 0, sizeof(st));
	st.checked = 1000;
	st.check_ns = 300000000;
	st.pass_ns = 350000000;
	sm_verify_figures(&st, 4096, 1, 100000000, &fig);
	assert_true(fig.hash_share <= 1.0);
	assert_float_equal(fig.hash_share, 300000000.0 / 450000000.0, 1e-12);
	memset(&st, 0, sizeof(st));
	st.sealed = 3;
	sm_verify_figures(&st, 4096, 0, 0, &fig);
	assert_true(fig.seal_bytes_per_s == 0 && fig.check_bytes_per_s == 0);
	assert_true(fig.hash_share == 0 && fig.pass_bytes_per_s == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_seal_range),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_problem_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
