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

/* One process's peers: every vote is its own, the broadcast is its own buffer. */
static int votes;

static int self_vote(SM_UNUSED void *arg, int v, int *any)
{
	votes++;
	*any = v;
	return 0;
}

static int self_bcast(SM_UNUSED void *arg, SM_UNUSED void *buf, SM_UNUSED size_t n)
{
	return 0;
}

/* A run with peers in a shared directory: a vote before each phase and
 * after the cleanup, each operation's end kept, its files numbered from
 * plan.first, the whole set listed. */
static void test_peers(SM_UNUSED void **state)
{
	const char *dir = t_scratch("meta-peers");
	const struct sm_meta_peers peers = { .rank = 0, .ranks = 1, .shared = 1, .vote = self_vote,
					     .bcast = self_bcast };
	struct sm_meta_plan plan = { .dir = dir, .files = 40, .threads = 2, .size = 100, .first = 0,
				     .peers = &peers };
	struct sm_meta_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	votes = 0;
	sm_result_head_begin(&r->head, "meta", 0, NULL);
	assert_int_equal(sm_meta_run(&plan, r), 0);
	/* the directory, each phase, the second start of the three reading
	 * phases after their caches were dropped, the cleanup (the count is
	 * the same whether the drop worked: every rank votes alike) */
	assert_int_equal(votes, 1 + SM_META_NPHASES + 3 + 1);
	/* warm: no drop, no second start */
	sm_meta_result_init(r);
	plan.warm = 1;
	votes = 0;
	assert_int_equal(sm_meta_run(&plan, r), 0);
	assert_int_equal(votes, 1 + SM_META_NPHASES + 1);
	assert_int_equal(r->ph[SM_META_STAT].caches, SM_META_CACHES_WARM);
	assert_true(r->shared && r->set_files == 40 && r->cleaned);
	for (int p = 0; p < SM_META_NPHASES; p++) {
		const struct sm_meta_phase_fig *f = &r->ph[p];

		assert_true(f->ran);
		assert_int_equal(f->done_at.count, f->op.lat.count);
		assert_true(f->done_at.max <= f->duration_ns);
		assert_int_equal(f->first_done_ns, f->duration_ns);
	}
	assert_int_equal(entries(dir), 0);
	free(r);
}

/* A job's merge: sums, the longest span, the first-done figures from the
 * ranks' operation ends; its JSON read back the same. */
static void test_merge(SM_UNUSED void **state)
{
	struct sm_meta_result *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *c = calloc(1, sizeof(*c));
	struct sm_jerr e = { "" };
	cJSON *doc;
	char *text;

	assert_true(a && b && c);
	sm_meta_result_init(a);
	sm_meta_result_init(b);
	sm_result_head_begin(&a->head, "meta", 0, NULL);
	a->plan.threads = b->plan.threads = 1;
	a->plan.files = b->plan.files = 100;
	a->plan.dir = a->dir;
	/* rank 0: 100 stats ending 1, 2, ... 100 us; rank 1: 50 ending 4, 8, ... 200 us */
	a->ph[SM_META_STAT].ran = b->ph[SM_META_STAT].ran = 1;
	for (uint64_t k = 1; k <= 100; k++) {
		sm_hist_add(&a->ph[SM_META_STAT].op.lat, 1000);
		sm_hist_add(&a->ph[SM_META_STAT].done_at, k * 1000);
	}
	for (uint64_t k = 1; k <= 50; k++) {
		sm_hist_add(&b->ph[SM_META_STAT].op.lat, 4000);
		sm_hist_add(&b->ph[SM_META_STAT].done_at, k * 4000);
	}
	a->ph[SM_META_STAT].op.count = 100;
	b->ph[SM_META_STAT].op.count = 50;
	a->ph[SM_META_STAT].duration_ns = a->ph[SM_META_STAT].first_done_ns = 100000;
	b->ph[SM_META_STAT].duration_ns = b->ph[SM_META_STAT].first_done_ns = 200000;
	a->created = b->created = 100;
	a->cleaned = b->cleaned = 1;
	assert_int_equal(sm_meta_merge(a, b), 0);
	a->ranks = 2;
	sm_meta_analyse(a);
	assert_int_equal(a->ph[SM_META_STAT].op.count, 150);
	assert_int_equal(a->ph[SM_META_STAT].duration_ns, 200000);       /* last-done */
	assert_int_equal(a->ph[SM_META_STAT].first_done_ns, 100000);     /* first-done */
	assert_int_equal(a->ph[SM_META_STAT].first_done_count, 125);     /* 100 + 25 by 100 us */
	assert_true(a->ph[SM_META_STAT].per_s == 150 / 200e-6);
	assert_true(a->ph[SM_META_STAT].first_done_per_s == 125 / 100e-6);
	assert_int_equal(a->created, 200);
	assert_int_equal(a->cleaned, 1);
	/* the whole-job document read back */
	doc = sm_meta_json(a);
	assert_non_null(doc);
	text = cJSON_Print(doc);   /* read back as report reads a file */
	assert_non_null(text);
	cJSON_Delete(doc);
	if (sm_json_parse_text(text, "meta.json", &doc, &e))
		fail_msg("%s", e.msg);
	free(text);
	if (sm_meta_from_json(doc, c, &e))
		fail_msg("%s", e.msg);
	sm_meta_analyse(c);
	assert_int_equal(c->ranks, 2);
	assert_int_equal(c->ph[SM_META_STAT].first_done_count, 125);
	assert_int_equal(c->ph[SM_META_STAT].done_at.count, 150);
	cJSON_Delete(doc);
	sm_meta_from_json_release(c);
	sm_result_head_release(&a->head);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_size0_and_json),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_peers),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
