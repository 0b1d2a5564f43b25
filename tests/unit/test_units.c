/* SPDX-License-Identifier: MIT */
/* Tests of strict parsing and readable formatting of sizes and durations. */
#include "core/units.h"
#include "core/clock.h"
#include "core/compiler.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)

/* Parse s and expect rc; on success also the value. */
static void u64_is(const char *s, int rc, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int got = sm_parse_u64(s, &v);

	if (got != rc)
		fail_msg("sm_parse_u64('%s') = %d, wanted %d", s ? s : "(null)", got, rc);
	assert_int_equal(v, rc ? 0xdeadbeef : want);  /* untouched on error */
}

static void size_is(const char *s, uint64_t unit, int rc, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int got = sm_parse_size(s, unit, &v);

	if (got != rc)
		fail_msg("sm_parse_size('%s', %llu) = %d, wanted %d", s ? s : "(null)",
			 (unsigned long long)unit, got, rc);
	if (!rc && v != want)
		fail_msg("sm_parse_size('%s', %llu) gave %llu, wanted %llu", s,
			 (unsigned long long)unit, (unsigned long long)v, (unsigned long long)want);
}

static void dur_is(const char *s, uint64_t unit, int rc, uint64_t want)
{
	uint64_t v = 0xdeadbeef;
	int got = sm_parse_duration(s, unit, &v);

	if (got != rc)
		fail_msg("sm_parse_duration('%s', %llu) = %d, wanted %d", s ? s : "(null)",
			 (unsigned long long)unit, got, rc);
	if (!rc && v != want)
		fail_msg("sm_parse_duration('%s', %llu) gave %llu, wanted %llu", s,
			 (unsigned long long)unit, (unsigned long long)v, (unsigned long long)want);
}

static void test_parse_u64(SM_UNUSED void **state)
{
	u64_is("0", 0, 0);
	u64_is("7", 0, 7);
	u64_is("007", 0, 7);
	u64_is("1234567890", 0, 1234567890);
	u64_is("18446744073709551615", 0, UINT64_MAX);
	u64_is("18446744073709551616", -ERANGE, 0);
	u64_is("18446744073709551620", -ERANGE, 0);
	u64_is("99999999999999999999", -ERANGE, 0);
	u64_is("1844674407370955161500", -ERANGE, 0);
	u64_is("", -EINVAL, 0);
	u64_is(NULL, -EINVAL, 0);
	u64_is("-1", -EINVAL, 0);
	u64_is("+1", -EINVAL, 0);
	u64_is("-0", -EINVAL, 0);
	u64_is(" 1", -EINVAL, 0);
	u64_is("1 ", -EINVAL, 0);
	u64_is("1 2", -EINVAL, 0);
	u64_is("\t1", -EINVAL, 0);
	u64_is("0x10", -EINVAL, 0);
	u64_is("1k", -EINVAL, 0);
	u64_is("1.0", -EINVAL, 0);
	u64_is("1e3", -EINVAL, 0);
}

static void test_parse_size(SM_UNUSED void **state)
{
	static const struct { const char *sfx; uint64_t mult; } sfx[] = {
		{ "b", 1 }, { "B", 1 },
		{ "k", KiB }, { "K", KiB }, { "kb", KiB }, { "KB", KiB }, { "KiB", KiB }, { "kib", KiB },
		{ "m", MiB }, { "M", MiB }, { "mb", MiB }, { "MB", MiB }, { "MiB", MiB },
		{ "g", GiB }, { "G", GiB }, { "gb", GiB }, { "GB", GiB }, { "GiB", GiB },
		{ "t", TiB }, { "T", TiB }, { "tb", TiB }, { "TB", TiB }, { "TiB", TiB },
	};
	char s[64];

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(s, sizeof(s), "3%s", sfx[i].sfx);
		size_is(s, 1, 0, 3 * sfx[i].mult);
		/* A suffix overrides the unit of a bare number. */
		size_is(s, KiB, 0, 3 * sfx[i].mult);
		snprintf(s, sizeof(s), "0%s", sfx[i].sfx);
		size_is(s, 1, 0, 0);
	}
	/* Bare numbers are in the caller's unit. */
	size_is("4096", 1, 0, 4096);
	size_is("4", KiB, 0, 4 * KiB);
	size_is("12512", KiB, 0, 12512 * KiB);
	size_is("0", KiB, 0, 0);

	/* Fractions, signs, spaces, unknown suffixes. */
	size_is("1.5G", 1, -EINVAL, 0);
	size_is("1.5", 1, -EINVAL, 0);
	size_is("0.5k", 1, -EINVAL, 0);
	size_is(".5k", 1, -EINVAL, 0);
	size_is("1,5G", 1, -EINVAL, 0);
	size_is("-1", 1, -EINVAL, 0);
	size_is("-1G", 1, -EINVAL, 0);
	size_is("+1G", 1, -EINVAL, 0);
	size_is("", 1, -EINVAL, 0);
	size_is(NULL, 1, -EINVAL, 0);
	size_is("G", 1, -EINVAL, 0);
	size_is(" 1G", 1, -EINVAL, 0);
	size_is("1 G", 1, -EINVAL, 0);
	size_is("1G ", 1, -EINVAL, 0);
	size_is("1P", 1, -EINVAL, 0);
	size_is("1Ki", 1, -EINVAL, 0);
	size_is("1GG", 1, -EINVAL, 0);
	size_is("1x", 1, -EINVAL, 0);
	size_is("1e3", 1, -EINVAL, 0);

	/* Overflow of the number and of number x multiplier. */
	size_is("18446744073709551615", 1, 0, UINT64_MAX);
	size_is("18446744073709551615b", 1, 0, UINT64_MAX);
	size_is("18446744073709551616", 1, -ERANGE, 0);
	size_is("16777215T", 1, 0, 16777215ULL * TiB);
	size_is("16777216T", 1, -ERANGE, 0);
	size_is("17179869184G", 1, -ERANGE, 0);
	size_is("18014398509481984K", 1, -ERANGE, 0);
	size_is("18014398509481983K", 1, 0, 18014398509481983ULL * KiB);
	size_is("18014398509481984", KiB, -ERANGE, 0);
}

static void test_parse_duration(SM_UNUSED void **state)
{
	dur_is("5ns", SM_NS_PER_S, 0, 5);
	dur_is("5us", SM_NS_PER_S, 0, 5000);
	dur_is("5ms", SM_NS_PER_S, 0, 5 * SM_NS_PER_MS);
	dur_is("5s", SM_NS_PER_S, 0, 5 * SM_NS_PER_S);
	dur_is("5m", SM_NS_PER_S, 0, 300 * SM_NS_PER_S);
	dur_is("5min", SM_NS_PER_S, 0, 300 * SM_NS_PER_S);
	dur_is("2h", SM_NS_PER_S, 0, 7200 * SM_NS_PER_S);
	dur_is("0s", SM_NS_PER_S, 0, 0);

	/* Fractions. */
	dur_is("0.5s", SM_NS_PER_S, 0, SM_NS_PER_S / 2);
	dur_is("1.25ms", SM_NS_PER_S, 0, 1250000);
	dur_is("2.3s", SM_NS_PER_S, 0, 2300000000ULL);
	dur_is("0.1s", SM_NS_PER_S, 0, 100000000ULL);
	dur_is(".5s", SM_NS_PER_S, 0, SM_NS_PER_S / 2);
	dur_is("1.5m", SM_NS_PER_S, 0, 90 * SM_NS_PER_S);
	dur_is("1.5ns", SM_NS_PER_S, 0, 2);  /* rounded to the nearest ns */
	dur_is("0.001us", SM_NS_PER_S, 0, 1);

	/* A bare number is in the given unit. */
	dur_is("10", SM_NS_PER_S, 0, 10 * SM_NS_PER_S);
	dur_is("10", SM_NS_PER_MS, 0, 10 * SM_NS_PER_MS);
	dur_is("2.5", SM_NS_PER_S, 0, 2500 * SM_NS_PER_MS);
	dur_is("250", 1, 0, 250);

	/* Rejected. */
	dur_is("", SM_NS_PER_S, -EINVAL, 0);
	dur_is(NULL, SM_NS_PER_S, -EINVAL, 0);
	dur_is("s", SM_NS_PER_S, -EINVAL, 0);
	dur_is(".", SM_NS_PER_S, -EINVAL, 0);
	dur_is(".s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("-1s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("+1s", SM_NS_PER_S, -EINVAL, 0);
	dur_is(" 1s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1 s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1s ", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1d", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1S", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1sec", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1.2.3s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1e3s", SM_NS_PER_S, -EINVAL, 0);
	dur_is("1e3", SM_NS_PER_S, -EINVAL, 0);
	dur_is("inf", SM_NS_PER_S, -EINVAL, 0);
	dur_is("nan", SM_NS_PER_S, -EINVAL, 0);

	/* Past what 64-bit nanoseconds hold (about 584 years). */
	dur_is("1000000000h", SM_NS_PER_S, -ERANGE, 0);
	dur_is("100000000000000000000ns", SM_NS_PER_S, -ERANGE, 0);
	dur_is("20000000000", SM_NS_PER_S, -ERANGE, 0);
	dur_is("5000000h", SM_NS_PER_S, 0, 5000000ULL * 3600 * SM_NS_PER_S);
}

static void test_parse_positive_double(SM_UNUSED void **state)
{
	static const char *const bad[] = {
		"", "0", "0.0", "000", ".", "-1", "-0.5", "+1", " 1", "1 ", "1e3", "1.2.3",
		"inf", "nan", "23.976fps", "1/2", "0x10",
	};
	double v;

	assert_int_equal(sm_parse_positive_double("23.976", &v), 0);
	assert_true(v == 23.976);
	assert_int_equal(sm_parse_positive_double("25", &v), 0);
	assert_true(v == 25.0);
	assert_int_equal(sm_parse_positive_double("0.001", &v), 0);
	assert_true(v == 0.001);
	assert_int_equal(sm_parse_positive_double(".5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(sm_parse_positive_double("59.94", &v), 0);
	assert_true(v == 59.94);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = -7;
		if (sm_parse_positive_double(bad[i], &v) != -EINVAL)
			fail_msg("sm_parse_positive_double('%s') accepted", bad[i]);
		assert_true(v == -7);
	}
	assert_int_equal(sm_parse_positive_double(NULL, &v), -EINVAL);
}

static void fmt_bytes_is(double b, const char *want)
{
	char buf[32];

	assert_string_equal(sm_fmt_bytes(buf, sizeof(buf), b), want);
}

static void fmt_ns_is(double ns, const char *want)
{
	char buf[32];

	assert_string_equal(sm_fmt_ns(buf, sizeof(buf), ns), want);
}

static void test_fmt(SM_UNUSED void **state)
{
	char small[6];

	fmt_bytes_is(0, "0 B");
	fmt_bytes_is(1, "1 B");
	fmt_bytes_is(1023, "1023 B");
	fmt_bytes_is(1023.7, "1.00 KiB");
	fmt_bytes_is(1024, "1.00 KiB");
	fmt_bytes_is(1536, "1.50 KiB");
	fmt_bytes_is(9.999 * KiB, "10.0 KiB");
	fmt_bytes_is(10 * KiB, "10.0 KiB");
	fmt_bytes_is(99.99 * KiB, "100 KiB");
	fmt_bytes_is(100 * KiB, "100 KiB");
	fmt_bytes_is(1048575, "1.00 MiB");
	fmt_bytes_is(12812288, "12.2 MiB");
	fmt_bytes_is(1.5 * GiB, "1.50 GiB");
	fmt_bytes_is(2 * TiB, "2.00 TiB");
	fmt_bytes_is(3.0 * 1024 * TiB, "3.00 PiB");
	fmt_bytes_is(2048.0 * 1024 * TiB, "2048 PiB");  /* no unit past PiB */

	fmt_ns_is(0, "0 ns");
	fmt_ns_is(999, "999 ns");
	fmt_ns_is(999.7, "1.0 us");
	fmt_ns_is(1000, "1.0 us");
	fmt_ns_is(1250, "1.2 us");   /* %.1f of 1.25: round-half-even in binary */
	fmt_ns_is(999949, "999.9 us");
	fmt_ns_is(999960, "1.00 ms");
	fmt_ns_is(1250000, "1.25 ms");
	fmt_ns_is(999994999, "999.99 ms");
	fmt_ns_is(999996000, "1.00 s");
	fmt_ns_is(1.5e9, "1.50 s");
	fmt_ns_is(3600e9, "3600.00 s");

	/* The buffer is returned and output is cut to fit. */
	assert_ptr_equal(sm_fmt_bytes(small, sizeof(small), 12812288), small);
	assert_string_equal(small, "12.2 ");
	assert_ptr_equal(sm_fmt_ns(small, sizeof(small), 1250000), small);
	assert_string_equal(small, "1.25 ");
}

/* The UTC stamp of every command's head against glibc's gmtime_r() and
 * strftime(): days around leap days and century years (1900, 2000 and
 * 2100 included), before 1970, and a sweep of the years people run in. */
static void utc_like_gmtime(int64_t s)
{
	char got[40], want[40];
	time_t t = (time_t)s;
	struct tm tm;

	sm_utc_iso8601_at(got, sizeof(got), s);
	assert_non_null(gmtime_r(&t, &tm));
	strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (strcmp(got, want))
		fail_msg("%lld: '%s', gmtime says '%s'", (long long)s, got, want);
}

static void test_utc_iso8601(SM_UNUSED void **state)
{
	static const int64_t at[] = {
		0, -1, 86399, 86400, -86400, -86401, 68169599, 68169600,   /* 1972-02-29 */
		951782399, 951782400, 951868800, 951868799,                /* 2000-02-29 */
		4107542399, 4107542400, 4107628800,                        /* 2100-02-28, 03-01 */
		-2203977600, -2203891200, 1796531244, 253402300799,        /* 1900-03-01, 9999-12-31 */
	};
	char buf[40];

	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		utc_like_gmtime(at[i]);
	/* every 7 h 13 min 1 s from 1950 to 2150 */
	for (int64_t s = -631152000; s < 5680281600; s += 26881)
		utc_like_gmtime(s);
	sm_utc_iso8601(buf, sizeof(buf));
	assert_int_equal(strlen(buf), 20);
	assert_int_equal(buf[19], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_parse_positive_double),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_utc_iso8601),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
