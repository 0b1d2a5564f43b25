/* SPDX-License-Identifier: MIT */
/* Unit tests of the format table: frametest presets, frame sizes, row
 * padding, rounding, rates and name lookup. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/compiler.h"
#include "core/formats.h"

static void test_ft_presets_exact(SM_UNUSED void **state)
{
	assert_int_equal(sm_ft_preset_kib("sd"), 1416);
	assert_int_equal(sm_ft_preset_kib("hd"), 8164);
	assert_int_equal(sm_ft_preset_kib("2k"), 12512);
	assert_int_equal(sm_ft_preset_kib("4k"), 49856);
	assert_int_equal(sm_ft_preset_kib("2k") * 1024, 12812288);
	assert_int_equal(sm_ft_preset_kib("4K"), 49856);   /* case-insensitive */
	assert_int_equal(sm_ft_preset_kib("2kk"), 0);
	assert_int_equal(sm_ft_preset_kib(""), 0);
	assert_int_equal(sm_ft_preset_kib("uhd"), 32464);
	assert_int_equal(sm_ft_preset_kib("fullhd"), 8164);
}

/* Every preset, original or not, obeys w x h x 4 + 64 KiB rounded up to 4 KiB. */
static void test_ft_presets_rule(SM_UNUSED void **state)
{
	unsigned originals = 0;

	for (unsigned i = 0; i < sm_nft_presets; i++) {
		const struct sm_ft_preset *p = &sm_ft_presets[i];
		uint64_t b = sm_round_up((uint64_t)p->width * p->height * 4 + 65536, 4096);

		assert_int_equal(p->kib * 1024, b);
		originals += p->original;
	}
	assert_int_equal(originals, 4);
}

/* A --fps list: the names in order, and each way a list is refused. */
static void test_fps_list(SM_UNUSED void **state)
{
	const struct sm_fps *r[3];
	char bad[32];
	unsigned n;

	assert_int_equal(sm_fps_list("24,59.94", r, 3, &n, bad, sizeof(bad)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(r[0]->name, "24");
	assert_string_equal(r[1]->name, "59.94");
	assert_int_equal(sm_fps_list("24,23", r, 3, &n, bad, sizeof(bad)), -ENOENT);
	assert_string_equal(bad, "23");
	assert_int_equal(sm_fps_list(",", r, 3, &n, bad, sizeof(bad)), -ENODATA);
	assert_string_equal(bad, ",");
	assert_int_equal(sm_fps_list("24,25,30,50", r, 3, &n, bad, sizeof(bad)), -E2BIG);
	assert_string_equal(bad, "50");
	assert_int_equal(n, 3);
}

static void test_round_up(SM_UNUSED void **state)
{
	assert_int_equal(sm_round_up(0, 4096), 0);
	assert_int_equal(sm_round_up(1, 4096), 4096);
	assert_int_equal(sm_round_up(4096, 4096), 4096);
	assert_int_equal(sm_round_up(4097, 4096), 8192);
	/* sd: 720 x 480 x 4 + 64 KiB = 1,447,936, not a 4 KiB multiple */
	assert_int_equal(sm_round_up(1447936, 4096), 1449984);
}

static void test_dpx_sizes(SM_UNUSED void **state)
{
	struct sm_format f;

	assert_int_equal(sm_format_find("dpx-2k", &f), 0);
	assert_string_equal(f.name, "dpx-2k");
	assert_string_equal(f.family->name, "dpx");
	assert_int_equal(f.width, 2048);
	assert_int_equal(f.height, 1556);
	assert_int_equal(f.image_bytes, 2048ull * 1556 * 4);
	/* 12,746,752 + 2048 header -> 12,748,800 -> rounded to 12,750,848 */
	assert_int_equal(f.frame_bytes, 12750848);
	assert_int_equal(f.frame_bytes % 4096, 0);

	assert_int_equal(sm_format_find("DPX-UHD", &f), 0);
	assert_string_equal(f.name, "dpx-uhd");
	assert_int_equal(f.frame_bytes, sm_round_up(3840ull * 2160 * 4 + 2048, 4096));

	/* 16-bit DPX, odd width would need 32-bit row padding; 720 is even */
	assert_int_equal(sm_format_find("dpx16-sd-ntsc", &f), 0);
	assert_int_equal(f.image_bytes, 720ull * 6 * 486);
}

static void test_exr_tiff_sizes(SM_UNUSED void **state)
{
	struct sm_format f;

	assert_int_equal(sm_format_find("exr-half-4k", &f), 0);
	assert_int_equal(f.width, 4096);
	assert_int_equal(f.height, 3112);
	assert_int_equal(f.image_bytes, 4096ull * 3112 * 6);
	assert_int_equal(f.frame_bytes, sm_round_up(4096ull * 3112 * 6 + 1024 + 16 * 3112, 4096));

	assert_int_equal(sm_format_find("exr-half-rgba-hd", &f), 0);
	assert_int_equal(f.image_bytes, 1920ull * 1080 * 8);
	assert_int_equal(sm_format_find("exr-float-uhd", &f), 0);
	assert_int_equal(f.image_bytes, 3840ull * 2160 * 12);
	assert_int_equal(sm_format_find("tiff16-2k", &f), 0);
	assert_int_equal(f.image_bytes, 2048ull * 1556 * 6);
}

/* v210: 6 pixels in 16 bytes, rows padded to 48-pixel groups of 128 bytes. */
static void test_v210_rows(SM_UNUSED void **state)
{
	const struct sm_family *v = NULL;
	struct sm_format f;

	for (unsigned i = 0; i < sm_nfamilies; i++)
		if (!strcmp(sm_families[i].name, "v210"))
			v = &sm_families[i];
	assert_non_null(v);
	assert_int_equal(sm_family_row_bytes(v, 1920), 5120);   /* 40 groups */
	assert_int_equal(sm_family_row_bytes(v, 1280), 3456);   /* 26.7 -> 27 groups */
	assert_int_equal(sm_family_row_bytes(v, 720), 1920);    /* 15 groups */
	assert_int_equal(sm_family_row_bytes(v, 48), 128);
	assert_int_equal(sm_family_row_bytes(v, 49), 256);
	assert_int_equal(sm_family_row_bytes(v, 3840), 10240);
	assert_int_equal(sm_format_find("v210-hd", &f), 0);
	assert_int_equal(f.image_bytes, 5120ull * 1080);
	assert_int_equal(f.frame_bytes, 5529600);   /* already a 4 KiB multiple */
	/* a video format: no film-scan geometry */
	assert_int_equal(sm_format_find("v210-2k", &f), -ENOENT);
}

static void test_lookup_unknown(SM_UNUSED void **state)
{
	struct sm_format f;

	assert_int_equal(sm_format_find("dpx-3k", &f), -ENOENT);
	assert_int_equal(sm_format_find("", &f), -ENOENT);
	assert_int_equal(sm_format_find("dpx", &f), -ENOENT);
	assert_int_equal(sm_format_find("2k", &f), -ENOENT);
	assert_int_equal(sm_format_find("dpx-2k-", &f), -ENOENT);
}

static void test_iterate(SM_UNUSED void **state)
{
	unsigned n = sm_format_count(), films = 0, videos = 0;
	struct sm_format f, g;

	for (unsigned i = 0; i < sm_ngeometries; i++)
		films += sm_geometries[i].film_scan;
	for (unsigned i = 0; i < sm_nfamilies; i++)
		videos += sm_families[i].video_only;
	assert_int_equal(n, sm_nfamilies * sm_ngeometries - videos * films);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(sm_format_at(i, &f), 0);
		assert_true(f.frame_bytes % 4096 == 0);
		assert_true(f.frame_bytes >= f.image_bytes);
		assert_true(f.frame_bytes - f.image_bytes - f.family->header_bytes <
			    4096 + (uint64_t)f.family->row_extra_bytes * f.height);
		/* every name finds itself, and names are unique */
		assert_int_equal(sm_format_find(f.name, &g), 0);
		assert_int_equal(g.frame_bytes, f.frame_bytes);
		assert_ptr_equal(g.family, f.family);
		assert_ptr_equal(g.geometry, f.geometry);
	}
	assert_int_equal(sm_format_at(n, &f), -ERANGE);
}

static void test_rates(SM_UNUSED void **state)
{
	struct sm_format f;
	const struct sm_fps *r24 = sm_fps_find("24"), *r2397 = sm_fps_find("23.976");

	assert_non_null(r24);
	assert_non_null(r2397);
	assert_null(sm_fps_find("23"));
	assert_int_equal(sm_format_find("dpx-2k", &f), 0);
	assert_true(sm_format_rate(&f, r24) == 12750848.0 * 24);
	assert_true(sm_format_rate(&f, r2397) == 12750848.0 * 24000 / 1001);
	assert_true(sm_fps_value(sm_fps_find("29.97")) > 29.97);
	assert_true(sm_fps_value(sm_fps_find("29.97")) < 29.971);
	assert_non_null(sm_fps_find("60"));
	assert_non_null(sm_fps_find("120"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ft_presets_exact),
		cmocka_unit_test(test_ft_presets_rule),
		cmocka_unit_test(test_fps_list),
		cmocka_unit_test(test_round_up),
		cmocka_unit_test(test_dpx_sizes),
		cmocka_unit_test(test_exr_tiff_sizes),
		cmocka_unit_test(test_v210_rows),
		cmocka_unit_test(test_lookup_unknown),
		cmocka_unit_test(test_iterate),
		cmocka_unit_test(test_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
