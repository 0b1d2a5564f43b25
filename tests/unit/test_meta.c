/* SPDX-License-Identifier: MIT */
/* Tests of `stormark meta`'s building blocks: the workload on a scratch
 * directory (every phase counts every file, the latency histograms count
 * the operations, the run's directory is removed and nothing else), the
 * probe skipped at size 0, the rates and the sequence estimate, and the
 * JSON document read back as written. */
#include "analysis/meta.h"
#include "result/json.h"
#include "result/json_read.h"
#include "workload/meta.h"
#include "core/compiler.h"
#include "helpers.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Entries of dir (not . and ..). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_run(SM_UNUSED void **state)
{
	const char *dir = t_scratch("meta");
	struct sm_meta_plan plan = { .dir = dir, .files = 257, .threads = 3, .size = 5000 };
	struct sm_meta_result *r = calloc(1, sizeof(*r));
	char path[4200];
	int fd;

	/* a stranger's file named like the run's first one stays as it is */
	snprintf(path, sizeof(path), "%s/frame000000.tst", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	assert_non_null(r);
	sm_result_head_begin(&r->head, "meta", 0, NULL);
	assert_int_equal(sm_meta_run(&plan, r), 0);
	sm_meta_analyse(r);
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *f = &r->ph[p];

		assert_true(f->ran);
		assert_int_equal(f->op.count, 257);
		assert_int_equal(f->op.errors, 0);
		assert_int_equal(f->op.lat.count, 257);
		assert_true(f->duration_ns > 0);
		assert_true(f->per_s > 0);
		assert_true(f->duration_ns <= r->head.duration_ns);
	}
	assert_int_equal(r->ph[SM_META_CREATE].op.bytes, 257 * 5000);
	assert_int_equal(r->ph[SM_META_PROBE].op.bytes, 257 * 4096);
	assert_int_equal(r->created, 257);
	assert_true(r->cleaned);
	assert_string_equal(r->head.error, "");
	assert_int_equal(entries(dir), 1);   /* the stranger's file alone */
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 1);
	}
	free(r);
	assert_int_equal(t_scratch_remove(), 0);   /* one scratch directory at a time */
}

static void test_size0_and_json(SM_UNUSED void **state)
{
	const char *dir = t_scratch("meta0");
	struct sm_meta_plan plan = { .dir = dir, .files = 40, .threads = 1, .size = 0 };
	struct sm_meta_result *r = calloc(1, sizeof(*r)), *back = calloc(1, sizeof(*back));
	char *argv[] = { "stormark", "meta" };
	struct sm_jerr e = { { 0 } };
	cJSON *doc;
	char *text;

	assert_non_null(r);
	assert_non_null(back);
	sm_result_head_begin(&r->head, "meta", 2, argv);
	assert_int_equal(sm_meta_run(&plan, r), 0);
	sm_meta_analyse(r);
	assert_false(r->ph[SM_META_PROBE].ran);   /* nothing to read at size 0 */
	assert_int_equal(r->ph[SM_META_PROBE].op.count, 0);
	assert_true(r->ph[SM_META_LIST].ran);
	assert_int_equal(entries(dir), 0);
	doc = sm_meta_json(r);
	assert_non_null(doc);
	assert_null(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "meta"), "ops"),
		"probe"));
	/* read back from its text, as report reads a saved file (the writer's
	 * whole numbers are raw items until printed) */
	text = cJSON_Print(doc);
	assert_non_null(text);
	cJSON_Delete(doc);
	if (sm_json_parse_text(text, "meta.json", &doc, &e))
		fail_msg("%s", e.msg);
	free(text);
	if (sm_meta_from_json(doc, back, &e))
		fail_msg("%s", e.msg);
	sm_meta_analyse(back);
	for (int p = 0; p < SM_META_NPHASES; p++) {
		assert_int_equal(back->ph[p].ran, r->ph[p].ran);
		assert_int_equal(back->ph[p].op.count, r->ph[p].op.count);
		assert_int_equal(back->ph[p].duration_ns, r->ph[p].duration_ns);
		assert_true(back->ph[p].per_s == r->ph[p].per_s);
		assert_int_equal(back->ph[p].op.lat.max, r->ph[p].op.lat.max);
	}
	assert_int_equal(back->plan.files, 40);
	assert_string_equal(back->data_dir, r->data_dir);
	sm_meta_from_json_release(back);
	cJSON_Delete(doc);
	free(back);
	free(r);
}

static void test_sequence(SM_UNUSED void **state)
{
	struct sm_meta_result *r = calloc(1, sizeof(*r));
	double list, probe;

	assert_non_null(r);
	sm_meta_result_init(r);
	r->ph[SM_META_STAT] = (struct sm_meta_phase_fig){ .ran = 1, .duration_ns = 1000000000 };
	r->ph[SM_META_STAT].op.count = 1000;
	r->ph[SM_META_PROBE] = (struct sm_meta_phase_fig){ .ran = 1, .duration_ns = 500000000 };
	r->ph[SM_META_PROBE].op.count = 1000;
	r->ph[SM_META_LIST] = (struct sm_meta_phase_fig){ .ran = 1, .duration_ns = 1000000 };
	r->ph[SM_META_LIST].op.count = 1000;
	sm_meta_analyse(r);
	assert_true(r->ph[SM_META_STAT].per_s == 1000);
	assert_true(r->ph[SM_META_PROBE].per_s == 2000);
	assert_true(r->ph[SM_META_LIST].per_s == 1000000);
	assert_int_equal(sm_meta_sequence_ns(r, 100000, &list, &probe), 1);
	assert_true(list == 1e8);                 /* 100000 / 1e6 per s = 0.1 s */
	assert_true(probe == 1e11 + 5e10);        /* 100 s of stat + 50 s of probe */
	r->ph[SM_META_PROBE].ran = 0;             /* no probe: no estimate */
	sm_meta_analyse(r);
	assert_int_equal(sm_meta_sequence_ns(r, 100000, &list, &probe), 0);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_size0_and_json),
		cmocka_unit_test(test_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
