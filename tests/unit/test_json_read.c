/* SPDX-License-Identifier: MIT */
/* Tests of the saved-result reader's number checks: a count that is not a
 * whole number from 0 to below 2^64 is refused with a reason, never cast
 * (1e300 as a histogram bucket was undefined behaviour, found by
 * fuzz/fuzz_json); and of what a refused result leaves to release (a
 * streams result's directory, read before a later key was found missing,
 * leaked: found by fuzz/fuzz_json). */
#include "result/json_read.h"
#include "core/compiler.h"
#include "core/hist.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static int count_of(const char *text, uint64_t *v)
{
	cJSON *x = cJSON_Parse(text);
	int rc;

	assert_non_null(x);
	rc = sm_json_count(x, v);
	cJSON_Delete(x);
	return rc;
}

static void test_count(SM_UNUSED void **state)
{
	uint64_t v = 7;

	assert_int_equal(count_of("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(count_of("12345", &v), 0);
	assert_int_equal(v, 12345);
	assert_int_equal(count_of("18446744073709549568", &v), 0);   /* the largest double below 2^64 */
	assert_true(v == 18446744073709549568ULL);
	v = 7;
	assert_int_equal(count_of("18446744073709551616", &v), -EINVAL);   /* 2^64 */
	assert_int_equal(count_of("1e300", &v), -EINVAL);
	assert_int_equal(count_of("-1", &v), -EINVAL);
	assert_int_equal(count_of("2.5", &v), -EINVAL);
	assert_int_equal(count_of("\"3\"", &v), -EINVAL);
	assert_int_equal(count_of("null", &v), -EINVAL);
	assert_int_equal(v, 7);   /* untouched on error */
	assert_int_equal(sm_json_count(NULL, &v), -EINVAL);
}

/* A latency object with one histogram bucket [lo, n]. */
static int lat_with_bucket(const char *lo, const char *n, struct sm_hist *h, struct sm_jerr *e)
{
	char text[512];
	cJSON *o;
	int rc;

	snprintf(text, sizeof(text), "{\"min\": 1000, \"max\": 1000, \"histogram\": "
		 "{\"sub_bits\": %d, \"sum\": 1000, \"m2\": 0, \"counts\": [[%s, %s]]}}",
		 SM_HIST_SUB_BITS, lo, n);
	o = cJSON_Parse(text);
	assert_non_null(o);
	memset(e, 0, sizeof(*e));
	rc = sm_json_read_lat(o, h, e);
	cJSON_Delete(o);
	return rc;
}

static void test_hist_bucket(SM_UNUSED void **state)
{
	struct sm_hist *h = malloc(sizeof(*h));
	struct sm_jerr e;
	char lo[32];

	assert_non_null(h);
	sm_hist_init(h);
	snprintf(lo, sizeof(lo), "%llu", (unsigned long long)sm_hist_bucket_low(sm_hist_index(1000)));
	assert_int_equal(lat_with_bucket(lo, "1", h, &e), 0);
	assert_int_equal(h->count, 1);
	assert_int_equal(lat_with_bucket("7.77778e+83", "1", h, &e), -EINVAL);
	assert_string_equal(e.msg, "a histogram bucket is not [low_ns, count]");
	assert_int_equal(lat_with_bucket(lo, "1e300", h, &e), -EINVAL);
	assert_int_equal(lat_with_bucket("-1", "1", h, &e), -EINVAL);
	assert_int_equal(lat_with_bucket(lo, "0.5", h, &e), -EINVAL);
	free(h);
}

/* A streams document whose params stop after "dir": refused, and what
 * the reader allocated is the result's, so its release frees it. */
static void test_streams_partial_params(SM_UNUSED void **state)
{
	static const char *const text =
		"{\"schema_version\": 1, \"tool\": {\"name\": \"stormark\", \"version\": \"0.1.0\"},"
		" \"command\": \"streams\", \"argv\": [\"streams\"], \"started_at\": \"x\","
		" \"duration_ns\": 1, \"interrupted\": false, \"environment\": {\"kernel\": \"k\","
		" \"fs_type\": \"ext4\", \"device\": \"d\", \"mount_point\": \"/\", \"fs_free_bytes\": 1,"
		" \"fs_total_bytes\": 2, \"direct_io\": true, \"engine\": \"psync\","
		" \"mem_total_bytes\": 3, \"mem_available_bytes\": 2, \"cpus\": 2},"
		" \"params\": {\"dir\": \"/data\"}, \"streams\": [], \"warnings\": [], \"errors\": []}";
	struct sm_streams_result *res = calloc(1, sizeof(*res));
	struct sm_jerr e = { { 0 } };
	cJSON *doc = cJSON_Parse(text);

	assert_non_null(res);
	assert_non_null(doc);
	assert_int_equal(sm_streams_from_json(doc, res, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "time_ns"));
	/* the directory read is the result's to release, not lost */
	assert_non_null(res->plan.dir);
	assert_string_equal(res->plan.dir, "/data");
	sm_streams_from_json_release(res);
	assert_null(res->plan.dir);
	free(res);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_hist_bucket),
		cmocka_unit_test(test_streams_partial_params),
	};

	return cmocka_run_group_tests_name("json_read", tests, NULL, NULL);
}
