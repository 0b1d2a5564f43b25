/* SPDX-License-Identifier: MIT */
/* The run's verdict table from fixed frame-test figures (no I/O): cells,
 * the best format per direction, the summary, the text at 80 columns and
 * the JSON, and the frame tests' series through the JSON and back. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "helpers.h"

#include "analysis/run.h"
#include "result/json.h"
#include "result/json_read.h"
#include "report/run_text.h"
#include "workload/profile.h"
#include "core/compiler.h"

static const char *const names[] = { "dpx-sd-pal", "dpx-hd", "dpx-2k", "dpx-uhd", "dpx-8k-uhd" };
#define NROWS (sizeof(names) / sizeof(names[0]))

/* A result as if measured: 1000 MiB/s write and 500 MiB/s read at every
 * frame size (constant bandwidth), direct I/O, finished. */
static struct sm_run_result *fixed_result(void)
{
	static const char *const presets[] = { "hd", "2k", "4k" };
	static struct sm_format fmts[NROWS];
	struct sm_run_result *res = calloc(1, sizeof(*res));
	struct sm_run_plan *p = &res->plan;

	sm_run_plan_defaults(p);
	p->dir = "/data";
	for (unsigned i = 0; i < NROWS; i++)
		assert_int_equal(sm_format_find(names[i], &fmts[i]), 0);
	p->formats = fmts;
	p->nformats = NROWS;
	res->rows = calloc(NROWS, sizeof(*res->rows));
	res->nrows = NROWS;
	for (unsigned i = 0; i < NROWS; i++)
		res->rows[i].fmt = fmts[i];
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++) {
		struct sm_run_size *s = &res->sizes[i];

		snprintf(s->preset, sizeof(s->preset), "%s", presets[i]);
		s->frame_bytes = sm_ft_preset_kib(presets[i]) * 1024;
		for (int d = 0; d < 2; d++) {
			double bw = (d == SM_DIR_CAPTURE ? 1000.0 : 500.0) * 1048576;

			s->t[d].measured = 1;
			s->t[d].fps = bw / (double)s->frame_bytes;
			s->t[d].bytes_per_s = bw;
			s->t[d].frames = 100;
			t_run_steady(&s->t[d], bw, s->frame_bytes, 15);
		}
		/* the sustained write looked for a cliff and found none */
		s->t[SM_DIR_CAPTURE].cliff.looked = 1;
		s->t[SM_DIR_CAPTURE].cliff.samples = 15;
		s->t[SM_DIR_CAPTURE].cliff.interval_ns = 1000000000ull;
	}
	snprintf(res->head.env.fs.fs_type, sizeof(res->head.env.fs.fs_type), "ext4");
	snprintf(res->head.env.fs.device, sizeof(res->head.env.fs.device), "/dev/vda");
	snprintf(res->data_dir, sizeof(res->data_dir), "/data/.stormark-run-abcdef");
	res->direct_align = 4096;
	res->file_bytes = 1ull << 30;
	res->frames_bytes = 2ull << 30;
	res->reached = SM_PHASE_DONE;
	res->plan.time_ns = 60000000000ull;
	sm_run_compute_verdicts(res);
	sm_run_analyse(res);
	return res;
}

static void free_result(struct sm_run_result *res)
{
	sm_run_result_release(res);
	free(res);
}

static void test_cells(SM_UNUSED void **state)
{
	struct sm_run_result *res = fixed_result();

	for (unsigned r = 0; r < NROWS; r++) {
		for (int d = 0; d < 2; d++) {
			for (unsigned k = 0; k < res->plan.nrates; k++) {
				const struct sm_verdict_cell *c = &res->rows[r].cell[d][k];
				double bw = (d == SM_DIR_CAPTURE ? 1000.0 : 500.0) * 1048576;
				double need = (double)res->rows[r].fmt.frame_bytes *
					      sm_fps_value(res->plan.rates[k]);

				/* constant bandwidth: the model gives it back at any size */
				assert_float_equal(c->measured, bw, bw * 1e-9);
				assert_float_equal(c->needed, need, 1e-6);
				assert_int_equal(c->computed, sm_verdict_compute(bw, need));
				assert_int_equal(c->final, c->computed);
				assert_int_equal(c->how, SM_HOW_COMPUTED);
			}
		}
	}
	/* dpx-uhd (33.2 MB) at 24 fps needs 760 MiB/s: capture (1000) is
	 * realtime (1.32x), playback (500) is not */
	assert_int_equal(res->rows[3].cell[SM_DIR_CAPTURE][0].final, SM_VERDICT_REALTIME);
	assert_int_equal(res->rows[3].cell[SM_DIR_PLAYBACK][0].final, SM_VERDICT_NOT_REALTIME);
	/* dpx-2k at 60 fps needs 730 MiB/s: 1000/730 = 1.37 -> realtime */
	assert_int_equal(res->rows[2].cell[SM_DIR_CAPTURE][4].final, SM_VERDICT_REALTIME);
	/* dpx-hd at 60 fps needs 475 MiB/s: playback 500/475 = 1.05 -> marginal, near */
	assert_int_equal(res->rows[1].cell[SM_DIR_PLAYBACK][4].final, SM_VERDICT_MARGINAL);
	assert_true(res->rows[1].cell[SM_DIR_PLAYBACK][4].near_limit);
	free_result(res);
}

static void test_best_and_summary(SM_UNUSED void **state)
{
	struct sm_run_result *res = fixed_result();
	unsigned row = 99, rate = 99;
	char sum[2048];

	/* capture: the largest realtime need is dpx-uhd at 25 fps (791 MiB/s;
	 * at 30 fps 949 MiB/s is over 1000 / 1.2); playback: dpx-hd at 50 fps
	 * (396 MiB/s, more than dpx-2k at 30 fps, 365) */
	assert_int_equal(sm_run_best(res, SM_DIR_CAPTURE, &row, &rate), 0);
	assert_string_equal(res->rows[row].fmt.name, "dpx-uhd");
	assert_string_equal(res->plan.rates[rate]->name, "25");
	assert_int_equal(sm_run_best(res, SM_DIR_PLAYBACK, &row, &rate), 0);
	assert_string_equal(res->rows[row].fmt.name, "dpx-hd");
	assert_string_equal(res->plan.rates[rate]->name, "50");
	sm_run_summary(res, sum, sizeof(sum));
	assert_non_null(strstr(sum, "wrote 2K frames at 82 fps (1000 MiB/s)"));
	assert_non_null(strstr(sum, "capture up to dpx-uhd at 25 fps"));
	assert_non_null(strstr(sum, "play back up to dpx-hd at 50 fps"));
	assert_non_null(strstr(sum, "read them at 41 fps (500 MiB/s)"));
	assert_null(strstr(sum, "interrupted"));
	/* nothing realtime: said so, and the most it keeps up with under
	 * 20%, in the legend's words (the table's class is the computed one:
	 * sm_run_analyse settles every cell from it) */
	for (unsigned r = 0; r < NROWS; r++)
		for (unsigned k = 0; k < res->plan.nrates; k++)
			res->rows[r].cell[SM_DIR_PLAYBACK][k].computed = SM_VERDICT_MARGINAL;
	res->head.interrupted = 1;
	res->direct_align = -22;
	sm_run_analyse(res);
	assert_int_equal(sm_run_best(res, SM_DIR_PLAYBACK, &row, &rate), -1);
	sm_run_summary(res, sum, sizeof(sum));
	assert_non_null(strstr(sum, "cannot play back any of the 5 tested formats in real time with "
				    "at least 20% headroom"));
	assert_non_null(strstr(sum, "Playback of "));
	assert_non_null(strstr(sum, " fps is marginal: keeps up with less than 20% headroom"));
	assert_non_null(strstr(sum, "interrupted"));
	assert_non_null(strstr(sum, "Direct I/O did not work"));
	free_result(res);
}

static void test_text_and_json(SM_UNUSED void **state)
{
	struct sm_run_result *res = fixed_result();
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned rows = 0;
	cJSON *doc, *run, *v;

	assert_non_null(f);
	sm_run_text_header(f, res);
	sm_run_text_classic(f, res);
	sm_run_text_frames(f, res);
	sm_run_text_verdicts(f, res, 0);
	fclose(f);
	assert_non_null(strstr(text, "capture at fps"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= 80);
		assert_null(strchr(line, '\033'));
		if (!strncmp(line, "  dpx-", 6))
			rows++;
	}
	assert_int_equal(rows, NROWS);
	free(text);

	snprintf(res->head.command, sizeof(res->head.command), "run");
	doc = sm_json_doc_new(&res->head);
	sm_json_run(doc, res);
	run = cJSON_GetObjectItem(doc, "run");
	assert_non_null(run);
	v = cJSON_GetObjectItem(run, "verdicts");
	assert_int_equal(cJSON_GetArraySize(v), NROWS);
	v = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(v, 3), "playback"), 0);
	assert_string_equal(cJSON_GetObjectItem(v, "verdict")->valuestring, "not-realtime");
	assert_string_equal(cJSON_GetObjectItem(v, "how")->valuestring, "computed");
	assert_string_equal(cJSON_GetObjectItem(run, "phase_reached")->valuestring, "done");
	cJSON_Delete(doc);
	free_result(res);
}

/* A series of n cumulative samples a second apart, the last one a part
 * of a second, at a rate falling by half after n / 2 samples. */
static struct sm_frames_snap *make_series(unsigned n, uint64_t frame_bytes)
{
	struct sm_frames_snap *s = calloc(n, sizeof(*s));

	assert_non_null(s);
	for (unsigned i = 0; i < n; i++) {
		uint64_t frames = i < n / 2 ? 40 : 20;

		s[i] = i ? s[i - 1] : (struct sm_frames_snap){ 0 };
		s[i].t_ns += i + 1 < n ? 1000000000ull : 123456789ull;
		s[i].frames += frames;
		s[i].bytes += frames * frame_bytes;
		s[i].dropped += i == 3;
		s[i].open_ns += 1000 * (i + 1);
		s[i].io_ns += 7777777 * (i + 1);
		s[i].close_ns += 333 * (i + 1);
		s[i].frame_ns += 7779110 * (i + 1);
	}
	return s;
}

/* The JSON of a run result, printed and parsed again as `report` reads it. */
static cJSON *run_doc_text(const struct sm_run_result *res)
{
	cJSON *doc = sm_json_doc_new(&res->head), *back;
	char *text;

	assert_non_null(doc);
	sm_json_run(doc, res);
	text = cJSON_PrintUnformatted(doc);
	assert_non_null(text);
	back = cJSON_Parse(text);
	assert_non_null(back);
	free(text);
	cJSON_Delete(doc);
	return back;
}

/* Each frame test's per-second series goes into run's JSON and comes back
 * exactly; a result without them (saved before they were kept) reads back
 * with none; a series whose columns differ in length, or with a count
 * that is not one, is refused with a reason. */
static void test_series_round_trip(SM_UNUSED void **state)
{
	struct sm_run_result *res = fixed_result(), *back = calloc(1, sizeof(*back));
	struct sm_jerr e = { { 0 } };
	cJSON *doc, *w;

	assert_non_null(back);
	snprintf(res->head.command, sizeof(res->head.command), "run");
	/* only the 2k test has series here (the fixture gave every test one) */
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			free(res->sizes[i].t[d].series);
			res->sizes[i].t[d].series = NULL;
			res->sizes[i].t[d].nseries = 0;
		}
	res->sizes[1].t[SM_DIR_CAPTURE].series = make_series(13, res->sizes[1].frame_bytes);
	res->sizes[1].t[SM_DIR_CAPTURE].nseries = 13;
	res->sizes[1].t[SM_DIR_PLAYBACK].series = make_series(3, res->sizes[1].frame_bytes);
	res->sizes[1].t[SM_DIR_PLAYBACK].nseries = 3;

	doc = run_doc_text(res);
	assert_int_equal(sm_run_from_json(doc, back, &e), 0);
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			const struct sm_run_frametest *a = &res->sizes[i].t[d], *b = &back->sizes[i].t[d];

			assert_int_equal(b->nseries, a->nseries);
			if (a->nseries)
				assert_memory_equal(b->series, a->series, a->nseries * sizeof(*a->series));
			else
				assert_null(b->series);
		}
	/* the JSON holds per-second changes: the 2k write's 7th second */
	w = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "run"),
									 "frames"), 1), "write");
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(w, "series"), "items"),
					    6)->valuedouble, 20);
	sm_run_from_json_release(back);

	/* saved before the series were kept */
	cJSON_DeleteItemFromObject(w, "series");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(doc, "run"), "frames"), 1), "read"), "series");
	assert_int_equal(sm_run_from_json(doc, back, &e), 0);
	for (unsigned i = 0; i < SM_RUN_NSIZES; i++)
		for (int d = 0; d < 2; d++) {
			assert_int_equal(back->sizes[i].t[d].nseries, 0);
			assert_null(back->sizes[i].t[d].series);
			assert_int_equal(back->sizes[i].t[d].measured, 1);
		}
	sm_run_from_json_release(back);
	cJSON_Delete(doc);

	/* a column one sample short */
	doc = run_doc_text(res);
	w = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "run"),
									 "frames"), 1), "write");
	cJSON_DeleteItemFromArray(cJSON_GetObjectItem(cJSON_GetObjectItem(w, "series"), "bytes"), 0);
	memset(&e, 0, sizeof(e));
	assert_int_equal(sm_run_from_json(doc, back, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "differ in length"));
	sm_run_from_json_release(back);
	cJSON_Delete(doc);

	/* a count that is not one */
	doc = run_doc_text(res);
	w = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "run"),
									 "frames"), 1), "read");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(cJSON_GetObjectItem(w, "series"), "items"), 1,
				 cJSON_CreateNumber(-1));
	memset(&e, 0, sizeof(e));
	assert_int_equal(sm_run_from_json(doc, back, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "'series.items'"));
	sm_run_from_json_release(back);
	cJSON_Delete(doc);
	free(back);
	free_result(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_best_and_summary),
		cmocka_unit_test(test_text_and_json),
		cmocka_unit_test(test_series_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
