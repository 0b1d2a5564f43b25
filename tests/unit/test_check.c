/* SPDX-License-Identifier: MIT */
/* Unit tests of the result checker (analysis/check*.c): each invariant
 * holds on a small consistent document and fails, under its own id, when
 * one figure is changed; printed figures are read with their units and
 * judged within their rounding; layouts are checked line by line; nothing
 * the reader could hand it (wrong types, missing keys) makes it fail to
 * return. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/check.h"
#include "check/util.h"
#include "check/body.h"
#include "core/compiler.h"
#include "core/hist.h"
#include "result/json.h"

/* ---- helpers ---- */

static struct sm_check *check_new(void)
{
	struct sm_check *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	return c;
}

/* The document parsed from text (single quotes stand for double ones). */
static cJSON *doc_of(const char *text)
{
	char *t = strdup(text);
	cJSON *d;

	assert_non_null(t);
	for (char *p = t; *p; p++)
		if (*p == '\'')
			*p = '"';
	d = cJSON_Parse(t);
	free(t);
	assert_non_null(d);
	return d;
}

/* How many violations of id c holds. */
static unsigned count_id(const struct sm_check *c, const char *id)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->n; i++)
		n += !strcmp(c->item[i].id, id);
	return n;
}

static void print_all(const struct sm_check *c)
{
	for (unsigned i = 0; i < c->n; i++)
		print_message("  %s: %s\n", c->item[i].id, c->item[i].msg);
}

/* Check doc; expect exactly the ids given (NULL-terminated), each at least once. */
static void expect(const cJSON *doc, ...)
{
	struct sm_check *c = check_new();
	unsigned want = 0, matched = 0;
	va_list ap;
	const char *id;

	sm_check_doc(doc, c);
	va_start(ap, doc);
	while ((id = va_arg(ap, const char *)) != NULL) {
		want++;
		if (!count_id(c, id)) {
			print_message("expected a violation of %s\n", id);
			print_all(c);
			fail();
		}
		matched += count_id(c, id);
	}
	va_end(ap);
	if (matched != c->n) {
		print_message("unexpected violations:\n");
		print_all(c);
		fail();
	}
	(void)want;
	free(c);
}

/* Set the number at path (dotted, as ck_at reads it) of doc to v. */
static void set(cJSON *doc, const char *path, double v)
{
	const cJSON *x = ck_at(doc, path);

	assert_non_null(x);
	assert_true(cJSON_IsNumber(x));
	cJSON_SetNumberValue((cJSON *)x, v);
}

/* ---- the registry ---- */

static void test_registry(SM_UNUSED void **state)
{
	struct sm_check *c = check_new();

	for (unsigned i = 0; i < sm_check_ninv; i++) {
		assert_ptr_equal(sm_check_inv_find(sm_check_invs[i].id), &sm_check_invs[i]);
		assert_true(strlen(sm_check_invs[i].what) > 10);
	}
	assert_null(sm_check_inv_find("no.such"));
	sm_check_fail(c, "no.such", "x\ny");
	assert_int_equal(c->n, 1);
	assert_string_equal(c->item[0].id, "check.unknown-id");
	assert_non_null(strstr(c->item[0].msg, "no.such"));
	assert_null(strchr(c->item[0].msg, '\n'));   /* one line */
	for (unsigned i = 0; i < SM_CHECK_MAX + 5; i++)
		sm_check_fail(c, "lat.order", "%u", i);
	assert_int_equal(c->n, SM_CHECK_MAX);
	assert_int_equal(c->dropped, 6);
	free(c);
}

/* ---- latency objects ---- */

static cJSON *lat_doc(void)
{
	struct sm_hist *h = sm_hist_new();
	cJSON *doc = doc_of("{'command': 'fileio', 'ops': {'read': {'count': 1002, 'bytes': 0, "
			    "'errors': 3}}}"), *back;
	char *text;

	assert_non_null(h);
	for (uint64_t v = 1000; v < 1000 * 1000; v += 1000)
		sm_hist_add(h, v + v % 7);
	cJSON_AddItemToObject(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "ops"), "read"), "lat_ns",
			      sm_json_lat(h, 1));
	free(h);
	/* as a saved document reads back: numbers, not the writer's raw text */
	text = cJSON_PrintUnformatted(doc);
	assert_non_null(text);
	back = cJSON_Parse(text);
	assert_non_null(back);
	free(text);
	cJSON_Delete(doc);
	return back;
}

static void test_lat(SM_UNUSED void **state)
{
	cJSON *doc = lat_doc();

	expect(doc, NULL);
	set(doc, "ops.read.lat_ns.p50", ck_at(doc, "ops.read.lat_ns.p50")->valuedouble + 1);
	expect(doc, "lat.figures", NULL);
	cJSON_Delete(doc);
	doc = lat_doc();
	set(doc, "ops.read.lat_ns.mean", 12345);
	expect(doc, "lat.figures", NULL);
	cJSON_Delete(doc);
	/* the histogram counts the operations less the errors */
	doc = lat_doc();
	set(doc, "ops.read.errors", 0);
	expect(doc, "ops.timed", NULL);
	cJSON_Delete(doc);
	/* the exact sum must lie within the buckets */
	doc = lat_doc();
	set(doc, "ops.read.lat_ns.histogram.sum", 1);
	expect(doc, "lat.histogram", "lat.figures", NULL);
	cJSON_Delete(doc);
}

/* ---- frames ---- */

static const char *frames_json =
	"{'command': 'frames', 'duration_ns': 2000000000,"
	" 'params': {'test': 'write', 'fps': 0, 'queue': 0, 'stream': false},"
	" 'totals': {'bytes': 3000, 'items': 3, 'items_per_s': 1.5, 'bytes_per_s': 1500},"
	" 'ops': {'frame': {'count': 3, 'bytes': 3000, 'errors': 0, 'dropped': 0, 'late': 0}},"
	" 'series': {'interval_ns': 1000000000, 'duration_ns': [1000000000, 1000000000],"
	"   'bytes': [2000, 1000], 'items': [2, 1], 'dropped': [0, 0], 'open_ns': [0, 0],"
	"   'io_ns': [0, 0], 'close_ns': [0, 0], 'frame_ns': [0, 0]},"
	" 'frames': {'scheduled': 3, 'transferred': 3, 'dropped': 0,"
	"   'windows': {'last_1s': {'duration_ns': 1000000000, 'frames': 1, 'bytes': 1000,"
	"       'dropped': 0, 'frames_per_s': 1, 'bytes_per_s': 1000},"
	"     'last_5s': {'duration_ns': 2000000000, 'frames': 3, 'bytes': 3000, 'dropped': 0,"
	"       'frames_per_s': 1.5, 'bytes_per_s': 1500},"
	"     'overall': {'duration_ns': 2000000000, 'frames': 3, 'bytes': 3000, 'dropped': 0,"
	"       'frames_per_s': 1.5, 'bytes_per_s': 1500}}}}";

static void test_frames(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(frames_json);

	expect(doc, NULL);
	set(doc, "series.items.1", 2);     /* the series no longer adds up */
	expect(doc, "frames.series-sum", "frames.windows", NULL);
	cJSON_Delete(doc);
	doc = doc_of(frames_json);
	set(doc, "totals.items_per_s", 2);
	expect(doc, "totals.rate", NULL);
	cJSON_Delete(doc);
	doc = doc_of(frames_json);
	set(doc, "frames.windows.last_1s.frames_per_s", 1.2);
	expect(doc, "frames.rate", NULL);
	cJSON_Delete(doc);
	doc = doc_of(frames_json);
	set(doc, "series.duration_ns.1", 900000000);
	expect(doc, "frames.series-span", "frames.windows", NULL);
	cJSON_Delete(doc);
	/* a window the run is shorter than is the run's overall figure */
	doc = doc_of(frames_json);
	set(doc, "frames.windows.last_5s.frames", 2);
	set(doc, "frames.windows.last_5s.frames_per_s", 1);
	expect(doc, "frames.windows", NULL);
	cJSON_Delete(doc);
	/* in a paced run, the schedule's: its span, its frames at the frame
	 * size (docs/pacing.md), not the I/O's */
	doc = doc_of(frames_json);
	set(doc, "params.fps", 10);
	cJSON_AddItemToObject((cJSON *)ck_at(doc, "frames"), "paced",
			      doc_of("{'frames': 3, 'schedule_ns': 300000000, 'frames_per_s': 10}"));
	for (unsigned i = 0; i < 2; i++) {
		const char *w = i ? "frames.windows.overall" : "frames.windows.last_5s";
		char p[64];

		snprintf(p, sizeof(p), "%s.duration_ns", w);
		set(doc, p, 300000000);
		snprintf(p, sizeof(p), "%s.frames_per_s", w);
		set(doc, p, 10);
		snprintf(p, sizeof(p), "%s.bytes_per_s", w);
		set(doc, p, 10000);
	}
	expect(doc, NULL);
	set(doc, "frames.windows.overall.duration_ns", 2000000000);  /* the I/O's span */
	set(doc, "frames.windows.overall.frames_per_s", 1.5);
	set(doc, "frames.windows.overall.bytes_per_s", 1500);
	expect(doc, "frames.windows", NULL);
	cJSON_Delete(doc);
}

/* ---- verify ---- */

/* A verifying run of 2 threads for 1 s and a read-back pass of 1 s:
 * 0.3 s hashing of a whole of 3 s (docs/json-schema.md). */
static const char *verify_json =
	"{'command': 'fileio', 'duration_ns': 1000000000, 'params': {'threads': 2},"
	" 'verify': {'block_bytes': 4096, 'blocks_sealed': 1000, 'blocks_checked': 2000,"
	"   'seal_ns': 100000000, 'check_ns': 200000000, 'seal_bytes_per_s': 40960000,"
	"   'check_bytes_per_s': 40960000, 'hash_share': 0.1, 'pass_bytes': 4096000,"
	"   'pass_ns': 1000000000, 'pass_bytes_per_s': 4096000}}";

static void test_verify(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(verify_json);

	expect(doc, NULL);
	/* the share over the run's threads alone (the read-back pass left out) */
	set(doc, "verify.hash_share", 0.15);
	expect(doc, "verify.share", NULL);
	/* a share over the whole */
	set(doc, "verify.check_ns", 3000000000.0);
	set(doc, "verify.check_bytes_per_s", 4096000 * 2 / 3.0);
	set(doc, "verify.hash_share", 3.1 / 3);
	expect(doc, "verify.share", NULL);
	cJSON_Delete(doc);
	doc = doc_of(verify_json);
	set(doc, "verify.pass_bytes_per_s", 1);
	expect(doc, "verify.rate", NULL);
	cJSON_Delete(doc);
}

/* ---- fileio ---- */

static const char *fileio_json =
	"{'command': 'fileio', 'duration_ns': 2500000000, 'params': {'threads': 2},"
	" 'totals': {'bytes': 8192, 'items': 3, 'items_per_s': 1.2, 'bytes_per_s': 3276.8},"
	" 'ops': {'read': {'count': 1, 'bytes': 4096, 'errors': 0},"
	"         'write': {'count': 1, 'bytes': 4096, 'errors': 0},"
	"         'fsync': {'count': 2, 'bytes': 0, 'errors': 0}},"
	" 'series': {'interval_ns': 1000000000, 't_ns': [1000000000, 2000000000, 2500000000],"
	"   'duration_ns': [1000000000, 1000000000, 500000000], 'read_bytes': [4096, 0, 0],"
	"   'write_bytes': [0, 4096, 0], 'reads': [1, 0, 0], 'writes': [0, 1, 0],"
	"   'fsyncs': [0, 0, 2], 'items': [1, 1, 1]},"
	" 'fileio': {'events': 3, 'events_per_s': 1.2, 'periodic_fsyncs': 1, 'end_fsyncs': 1,"
	"   'reads_per_s': 0.4, 'writes_per_s': 0.4, 'fsyncs_per_s': 0.8,"
	"   'thread_events': [2, 1], 'thread_busy_ns': [1000, 2000]}}";

static void test_fileio(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(fileio_json);

	expect(doc, NULL);
	/* a series that stops before the end of the run */
	cJSON_DeleteItemFromArray((cJSON *)ck_at(doc, "series.duration_ns"), 2);
	cJSON_DeleteItemFromArray((cJSON *)ck_at(doc, "series.t_ns"), 2);
	cJSON_DeleteItemFromArray((cJSON *)ck_at(doc, "series.items"), 2);
	cJSON_DeleteItemFromArray((cJSON *)ck_at(doc, "series.fsyncs"), 2);
	expect(doc, "fileio.series-sum", NULL);
	cJSON_Delete(doc);
	doc = doc_of(fileio_json);
	set(doc, "series.t_ns.1", 1900000000);
	expect(doc, "fileio.series-time", NULL);
	cJSON_Delete(doc);
	doc = doc_of(fileio_json);
	set(doc, "fileio.thread_busy_ns.1", 3e9);   /* busier than the run is long */
	expect(doc, "fileio.busy", NULL);
	cJSON_Delete(doc);
	doc = doc_of(fileio_json);
	set(doc, "fileio.reads_per_s", 0.5);
	expect(doc, "fileio.rate", NULL);
	cJSON_Delete(doc);
	doc = doc_of(fileio_json);
	set(doc, "fileio.events", 4);
	expect(doc, "fileio.events", "fileio.series-sum", "fileio.rate", NULL);
	cJSON_Delete(doc);
}

/* ---- run's verdicts ---- */

static const char *run_json =
	"{'command': 'run', 'run': {'near_limit_unconfirmed': 1, 'verdicts': [{'format': 'f',"
	" 'frame_bytes': 1000, 'capture': [{'fps': '24', 'fps_value': 24,"
	"   'needed_bytes_per_s': 24000, 'measured_bytes_per_s': 26400, 'ratio': 1.1,"
	"   'verdict': 'marginal', 'computed': 'marginal', 'how': 'computed', 'near_limit': true,"
	"   'burst_measured_bytes_per_s': 26400, 'cliff': false}], 'playback': []}]}}";

static void test_verdicts(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(run_json);
	cJSON *cell;

	expect(doc, NULL);
	cell = (cJSON *)ck_at(doc, "run.verdicts.0.capture.0");
	/* a paced run that held raises the class: the legend says yes needs 20% */
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("realtime"));
	cJSON_ReplaceItemInObject(cell, "how", cJSON_CreateString("paced"));
	cJSON_AddItemToObject(cell, "paced", cJSON_Parse("{\"scheduled\": 240, \"done\": 240, "
		"\"dropped\": 0, \"p99_9_sched_ns\": 1000, \"max_sched_ns\": 2000, "
		"\"interval_ns\": 41666667, \"queue\": 8}"));
	expect(doc, "verdict.legend", "verdict.how", NULL);
	/* held, it confirms the marginal class: ~* */
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("marginal"));
	expect(doc, NULL);
	/* its outcome and length are its run's */
	cJSON_AddItemToObject((cJSON *)ck_at(cell, "paced"), "outcome", cJSON_CreateString("dropped"));
	cJSON_AddItemToObject((cJSON *)ck_at(cell, "paced"), "length_ns", cJSON_CreateNumber(1e10));
	expect(doc, "verdict.how", NULL);
	cJSON_DeleteItemFromObject((cJSON *)ck_at(cell, "paced"), "outcome");
	cJSON_DeleteItemFromObject((cJSON *)ck_at(cell, "paced"), "length_ns");
	/* ... and a paced run that dropped frames cannot leave it marginal */
	set(doc, "run.verdicts.0.capture.0.paced.dropped", 3);
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("marginal"));
	expect(doc, "verdict.how", NULL);
	cJSON_Delete(doc);
	/* a run that held a cell below the need does not decide it: no, how
	 * computed, the run kept */
	doc = doc_of(run_json);
	cell = (cJSON *)ck_at(doc, "run.verdicts.0.capture.0");
	set(doc, "run.verdicts.0.capture.0.measured_bytes_per_s", 23000);
	set(doc, "run.verdicts.0.capture.0.burst_measured_bytes_per_s", 23000);
	set(doc, "run.verdicts.0.capture.0.ratio", 23000.0 / 24000);
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("not-realtime"));
	cJSON_ReplaceItemInObject(cell, "computed", cJSON_CreateString("not-realtime"));
	cJSON_AddItemToObject(cell, "paced", cJSON_Parse("{\"outcome\": \"held\", "
		"\"length_ns\": 10000000080, \"scheduled\": 240, \"done\": 240, \"dropped\": 0, "
		"\"p99_9_sched_ns\": 1000, \"max_sched_ns\": 2000, \"interval_ns\": 41666667, "
		"\"queue\": 8}"));
	expect(doc, NULL);
	cJSON_ReplaceItemInObject(cell, "how", cJSON_CreateString("paced"));
	expect(doc, "verdict.how", NULL);
	cJSON_Delete(doc);
	doc = doc_of(run_json);
	set(doc, "run.verdicts.0.capture.0.measured_bytes_per_s", 30000);   /* ratio 1.25 */
	expect(doc, "verdict.ratio", "verdict.computed", NULL);
	cJSON_Delete(doc);
	doc = doc_of(run_json);
	cell = (cJSON *)ck_at(doc, "run.verdicts.0.capture.0");
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("not-realtime"));
	expect(doc, "verdict.how", NULL);
	set(doc, "run.near_limit_unconfirmed", 2);
	expect(doc, "verdict.how", "verdict.share", NULL);
	cJSON_Delete(doc);
	/* a stall past the buffers: not real time, whatever the rate */
	doc = doc_of(run_json);
	cell = (cJSON *)ck_at(doc, "run.verdicts.0.capture.0");
	cJSON_AddItemToObject(cell, "basis", cJSON_Parse("[\"stall\"]"));
	cJSON_AddNumberToObject(cell, "stall_ns", 1e9);
	cJSON_AddNumberToObject(cell, "buffer_ns", 3e8);
	expect(doc, "verdict.stall", "verdict.how", NULL);
	cJSON_ReplaceItemInObject(cell, "verdict", cJSON_CreateString("not-realtime"));
	expect(doc, NULL);
	/* ... and the stall it names is longer than the buffers */
	set(doc, "run.verdicts.0.capture.0.stall_ns", 2e8);
	expect(doc, "verdict.stall", NULL);
	cJSON_Delete(doc);
}

/* ---- time ---- */

static void test_time(SM_UNUSED void **state)
{
	cJSON *doc = doc_of("{'command': 'time', 'duration_ns': 100, 'time': {'runs': ["
			    "{'wall_ns': 40, 'user_ns': 10, 'sys_ns': 10, 'cpu_pct': 50,"
			    " 'read_bytes': 100, 'read_calls': 4, 'read_bytes_per_call': 25},"
			    "{'wall_ns': 50, 'user_ns': 10, 'sys_ns': 15, 'cpu_pct': 50,"
			    " 'read_bytes': 100, 'read_calls': 0, 'read_bytes_per_call': null}]}}");

	expect(doc, NULL);
	set(doc, "time.runs.1.wall_ns", 70);
	expect(doc, "time.derived", "time.span", NULL);
	cJSON_Delete(doc);
}

/* ---- streams ---- */

static const char *streams_json =
	"{'command': 'streams', 'params': {'queue': 8, 'max_streams': 4}, 'streams': [{"
	" 'format': 'x', 'fps': '25', 'direction': 'playback', 'frame_bytes': 40000,"
	" 'chunk_bytes': 40000, 'rate_bytes_per_s': 1000000, 'interval_ns': 40000000,"
	" 'max_streams': 1, 'max_streams_headroom': 1, 'first_failed': 2, 'at_cap': false,"
	" 'searched': true, 'aggregate_bytes_per_s': 1000000, 'sustained_bytes_per_s': 1500000,"
	" 'steps': [{'streams': 1, 'held': true, 'complete': true, 'duration_ns': 1000000000,"
	"   'schedule_ns': 1000000000, 'bytes': 1000000, 'bytes_per_s': 1000000,"
	"   'delivered_bytes_per_s': 1000000, 'dropped': 0, 'worst_p99_9_sched_ns': 5000,"
	"   'per_stream': [{'scheduled': 25, 'done': 25, 'dropped': 0, 'bytes': 1000000,"
	"     'p99_9_sched_ns': 5000, 'error': 0}]},"
	"  {'streams': 2, 'held': false, 'complete': true, 'duration_ns': 2000000000,"
	"   'schedule_ns': 1000000000, 'bytes': 1500000, 'bytes_per_s': 1500000,"
	"   'delivered_bytes_per_s': 750000, 'dropped': 3, 'worst_p99_9_sched_ns': 9000,"
	"   'per_stream': [{'scheduled': 25, 'done': 25, 'dropped': 0, 'bytes': 1000000,"
	"     'p99_9_sched_ns': 5000, 'error': 0}, {'scheduled': 25, 'done': 22, 'dropped': 3,"
	"     'bytes': 500000, 'p99_9_sched_ns': 9000, 'error': 0}]}]}]}";

static void test_streams(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(streams_json);

	expect(doc, NULL);
	set(doc, "streams.0.steps.1.dropped", 2);
	expect(doc, "streams.step-sum", NULL);
	set(doc, "streams.0.steps.1.dropped", 3);
	set(doc, "streams.0.max_streams", 2);
	expect(doc, "streams.answer", NULL);
	cJSON_Delete(doc);
	/* a transfer that failed is no answer */
	doc = doc_of(streams_json);
	set(doc, "streams.0.steps.1.per_stream.1.error", -5);
	expect(doc, "streams.not-measured", NULL);
	cJSON_Delete(doc);
	/* a cell no complete step answered is not measured: null, and why */
	doc = doc_of(streams_json);
	cJSON_ReplaceItemInObject((cJSON *)ck_at(doc, "streams.0.steps.0"), "complete", cJSON_CreateFalse());
	cJSON_ReplaceItemInObject((cJSON *)ck_at(doc, "streams.0.steps.0"), "held", cJSON_CreateFalse());
	cJSON_ReplaceItemInObject((cJSON *)ck_at(doc, "streams.0.steps.1"), "complete", cJSON_CreateFalse());
	cJSON_ReplaceItemInObject((cJSON *)ck_at(doc, "streams.0"), "max_streams", cJSON_CreateNull());
	expect(doc, "streams.not-measured", "streams.answer", NULL);
	cJSON_Delete(doc);
	/* answers across rates (docs/streams.md, "Consistent answers"): the
	 * cell again at 50 fps (half the frame, the same rate) holding both
	 * its steps, with trials: 2 at 50 fps where 25 fps failed 2 is
	 * contradictory; bounded by the 25 fps cell, consistent; a bound
	 * naming no cell with its answer, not */
	{
		cJSON *cells, *k;

		doc = doc_of(streams_json);
		cells = (cJSON *)ck_at(doc, "streams");
		cJSON_AddItemToArray(cells, cJSON_Duplicate(ck_at(doc, "streams.0"), 1));
		cJSON_ReplaceItemInObject((cJSON *)ck_at(doc, "streams.1"), "fps", cJSON_CreateString("50"));
		set(doc, "streams.1.frame_bytes", 20000);
		set(doc, "streams.1.chunk_bytes", 20000);
		set(doc, "streams.1.interval_ns", 20000000);
		cJSON_AddItemToObject((cJSON *)ck_at(doc, "streams.0"), "trials", cJSON_CreateObject());
		cJSON_AddItemToObject((cJSON *)ck_at(doc, "streams.1"), "trials", cJSON_CreateObject());
		expect(doc, NULL);
		set(doc, "streams.0.first_failed", 0);   /* as if its search found no failure */
		set(doc, "streams.1.max_streams", 2);
		expect(doc, "streams.answer", NULL);
		set(doc, "streams.0.first_failed", 2);
		expect(doc, "streams.answer", "streams.consistent", NULL);
		set(doc, "streams.1.max_streams", 1);
		k = cJSON_AddObjectToObject((cJSON *)ck_at(doc, "streams.1"), "consistency");
		cJSON_AddBoolToObject(k, "bounded", 1);
		cJSON_AddStringToObject(k, "bound_fps", "25");
		cJSON_AddNumberToObject(k, "bound_streams", 1);
		cJSON_AddNumberToObject(k, "own_max_streams", 1);
		expect(doc, NULL);
		set(doc, "streams.1.consistency.own_max_streams", 2);
		expect(doc, "streams.consistent", NULL);
		set(doc, "streams.1.consistency.own_max_streams", 1);
		cJSON_ReplaceItemInObject(k, "bound_fps", cJSON_CreateString("24"));
		expect(doc, "streams.consistent", NULL);
		cJSON_Delete(doc);
	}
	/* a stream that moves more than its published rate */
	doc = doc_of(streams_json);
	set(doc, "streams.0.steps.0.bytes_per_s", 1030000);
	expect(doc, "streams.moved-rate", "streams.rate", "streams.answer", NULL);
	cJSON_Delete(doc);
}

/* ---- MPI ---- */

static const char *mpi_json =
	"{'command': 'frames', 'totals': {'bytes': 30, 'items': 3},"
	" 'mpi': {'ranks_total': 2, 'ranks_reported': 2, 'first_done_ns': 10, 'last_done_ns': 20,"
	"  'bytes': 30, 'min_rank_bytes': 10, 'bytes_per_s': 1.5e9, 'stonewall_bytes_per_s': 2e9,"
	"  'median_rank_bytes_per_s': 1e9, 'straggler_below': 0.8, 'stragglers': 0,"
	"  'hosts': [{'host': 'a', 'ranks': 2, 'ranks_reported': 2, 'bytes': 30, 'items': 3,"
	"    'done_ns': 20, 'bytes_per_s': 1.5e9}],"
	"  'ranks': [{'rank': 0, 'host': 'a', 'reported': true, 'stonewalled': false,"
	"     'done_ns': 20, 'bytes': 20, 'items': 2, 'bytes_per_s': 1e9, 'straggler': false,"
	"     'result': {'command': 'frames', 'totals': {'bytes': 20, 'items': 2}}},"
	"    {'rank': 1, 'host': 'a', 'reported': true, 'stonewalled': false,"
	"     'done_ns': 10, 'bytes': 10, 'items': 1, 'bytes_per_s': 1e9, 'straggler': false,"
	"     'result': {'command': 'frames', 'totals': {'bytes': 10, 'items': 1}}}]}}";

static void test_mpi(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(mpi_json);

	expect(doc, NULL);
	set(doc, "totals.items", 4);
	expect(doc, "mpi.merge", NULL);
	set(doc, "totals.items", 3);
	set(doc, "mpi.hosts.0.bytes", 31);
	expect(doc, "mpi.sum", NULL);
	cJSON_Delete(doc);
	doc = doc_of(mpi_json);
	set(doc, "mpi.ranks.1.bytes", 5);   /* now below 0.8 x the median */
	set(doc, "mpi.ranks.1.bytes_per_s", 5e8);
	set(doc, "mpi.hosts.0.bytes", 25);
	set(doc, "mpi.hosts.0.bytes_per_s", 1.25e9);
	set(doc, "mpi.bytes", 25);
	set(doc, "mpi.min_rank_bytes", 5);
	set(doc, "mpi.bytes_per_s", 1.25e9);
	set(doc, "mpi.stonewall_bytes_per_s", 1e9);
	set(doc, "mpi.median_rank_bytes_per_s", 7.5e8);
	set(doc, "totals.bytes", 25);
	set(doc, "mpi.ranks.1.result.totals.bytes", 5);
	expect(doc, "mpi.stragglers", NULL);
	cJSON_Delete(doc);
}

/* ---- printed figures ---- */

static void test_numbers(SM_UNUSED void **state)
{
	struct ck_shown s[8];

	assert_int_equal(ck_numbers("Fastest frame: 2.616 ms (3047.29 MB/s)\nnext 5", s, 8), 2);
	assert_true(s[0].v == 2.616e6 && s[0].half == 0.0005e6);
	assert_true(s[1].v == 3047.29 * 1048576.0);
	assert_int_equal(ck_numbers(" Last 1s:  0.014 ms  19.44 ms  22.50 ms  354.31 MB/s  44.4 fps", s, 8), 5);
	assert_true(s[4].v == 44.4 && s[4].half > 0.0499 && s[4].half < 0.0501);
	assert_int_equal(ck_numbers("Overall frame rate .... 70.00 fps (585195520 bytes/s)", s, 8), 2);
	assert_true(s[0].v == 70 && s[1].v == 585195520);
	/* words with digits are words; "-" and "n/a" hold a column's place */
	assert_int_equal(ck_numbers("| 2k 12512 KiB | p99.9 | - | n/a | 2026-12-02T18:21:29Z | 1.2e+09 |", s, 8),
			 4);
	assert_true(s[0].v == 12512 * 1024.0);
	assert_true(s[1].absent && s[2].absent);
	assert_true(s[3].v == 1.2e9 && s[3].half == 0.05e9);
	assert_int_equal(ck_numbers("events (avg/stddev):  26116.0000/0.00", s, 8), 2);
	assert_true(s[0].v == 26116 && s[1].v == 0);
	assert_int_equal(ck_numbers("[ 1s ] reads: 126.56 MiB/s fsyncs: 268.00/s latency (ms,99%): 2.351", s, 8),
			 5);
	assert_true(s[0].v == 1e9 && s[2].v == 268 && s[3].v == 99 && s[4].v == 2.351);
}

static void test_rounding(SM_UNUSED void **state)
{
	struct sm_check *c = check_new();
	struct ck_shown s;

	ck_numbers("44.4", &s, 1);
	assert_true(ck_shown_eq(c, "frametest.figures", "x", &s, "y", 44.44));
	assert_true(ck_shown_eq(c, "frametest.figures", "x", &s, "y", 44.35));
	assert_false(ck_shown_eq(c, "frametest.figures", "x", &s, "y", 44.46));
	assert_int_equal(c->n, 1);
	assert_non_null(strstr(c->item[0].msg, "shows 44.4"));
	free(c);
}

/* ---- layouts ---- */

static void test_layout_frametest(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(frames_json);
	struct sm_check *c = check_new();
	const char *good =
		"Test parameters: -w1 -n3\n"
		"Test duration: 2 secs\n"
		"Frames transferred: 3 (0.003 MB)\n"
		"Averaged details:\n"
		" Last 1s:  0.000 ms   0.00 ms 1000.00 ms    0.00 MB/s   1.0 fps\n"
		" Overall:  0.000 ms   0.00 ms 666.67 ms    0.00 MB/s   1.5 fps\n"
		"Overall frame rate .... 1.50 fps (1500 bytes/s)\n";
	char *bad = strdup(good);

	assert_non_null(bad);
	sm_check_layout(doc, "frametest", good, c);
	/* the lines this document has are there and agree; those it lacks
	 * (the times of operations it has no latency for) are not judged */
	assert_int_equal(count_id(c, "frametest.figures"), 0);
	assert_int_equal(count_id(c, "frametest.one-overall"), 0);
	memset(c, 0, sizeof(*c));
	memcpy(strstr(bad, "1.50 fps"), "1.60 fps", 8);
	sm_check_layout(doc, "frametest", bad, c);
	assert_int_equal(count_id(c, "frametest.figures"), 1);
	assert_int_equal(count_id(c, "frametest.one-overall"), 1);
	memset(c, 0, sizeof(*c));
	sm_check_layout(doc, "frametest", "Test duration: 2 secs\n", c);
	assert_true(count_id(c, "layout.line") >= 3);   /* a line it must print is missing */
	free(bad);
	free(c);
	cJSON_Delete(doc);
}

static void test_layout_run_marks(SM_UNUSED void **state)
{
	cJSON *doc = doc_of(run_json);
	struct sm_check *c = check_new();

	sm_check_layout(doc, "text", "Real-time verdicts\n  f       0.0  ~\n", c);
	assert_int_equal(count_id(c, "verdict.marks"), 0);
	sm_check_layout(doc, "text", "Real-time verdicts\n  f       0.0  yes*\n", c);
	assert_int_equal(count_id(c, "verdict.marks"), 1);
	/* the summary's words */
	memset(c, 0, sizeof(*c));
	ck_run_summary(doc, "summary", "It can capture up to f at 24 fps in real time with at least "
		       "20% headroom (0 MiB/s needed).", c);
	assert_int_equal(count_id(c, "verdict.words"), 1);   /* the cell is marginal */
	memset(c, 0, sizeof(*c));
	ck_run_summary(doc, "summary", "Capture of f at 24 fps is marginal: keeps up with less than "
		       "20% headroom (0 MiB/s needed).", c);
	assert_int_equal(count_id(c, "verdict.words"), 0);
	ck_run_summary(doc, "summary", "Capture of f at 24 fps is held with little headroom: a paced "
		       "run held it", c);
	assert_int_equal(count_id(c, "verdict.words"), 1);   /* no paced run held it */
	free(c);
	cJSON_Delete(doc);
}

/* ---- robustness: anything the reader could pass ---- */

static void test_garbage(SM_UNUSED void **state)
{
	static const char *const docs[] = {
		"{'command': 'frames', 'series': {'duration_ns': [1, 'x', null], 'items': 5},"
		" 'frames': {'windows': [1, 2], 'paced': 'no'}, 'params': {'fps': 1e308}}",
		"{'command': 'fileio', 'series': {'t_ns': [1e300, -1], 'duration_ns': [{}, []]},"
		" 'fileio': {'event_percentiles': [{'percentile': 1e9, 'lat_ns': -1}, 3]}}",
		"{'command': 'run', 'run': {'verdicts': [{'capture': [{'fps': 1, 'how': 'paced',"
		" 'verdict': 'realtime', 'computed': 'nope', 'paced': {'queue': 1e30}}], 'playback': 7}]}}",
		"{'command': 'streams', 'streams': [{'steps': [{'streams': -3, 'per_stream': [1, {}]}],"
		" 'max_streams': 1e300, 'max_streams_headroom': -1, 'sustained_bytes_per_s': 1}]}",
		"{'command': 'time', 'time': {'runs': [{}, 5, {'wall_ns': 0, 'cpu_pct': 1}],"
		" 'stats': {'wall_ns': 3}}}",
		"{'command': 'frames', 'mpi': {'ranks': [{'reported': true, 'result': {'command': 'time'}},"
		" 9], 'hosts': [{'host': 'a'}, null], 'streams': [{'ranks': 1}]}}",
		"{'command': 'fileio', 'ops': {'read': {'count': 1, 'errors': 0, 'lat_ns': {'p50': 1,"
		" 'histogram': {'sub_bits': 8, 'sum': 1, 'm2': 0, 'counts': [[1, 1e30]]}}}}}",
	};

	for (unsigned i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		cJSON *doc = doc_of(docs[i]);
		struct sm_check *c = check_new();
		static const char *const layouts[] = { "frametest", "sysbench", "timeit", "text",
						       "markdown", "csv" };

		sm_check_doc(doc, c);
		for (unsigned l = 0; l < 6; l++)
			sm_check_layout(doc, layouts[l], "| x | 1 |\n,,,\n[ 1s ]\nread 1 2\n", c);
		for (unsigned k = 0; k < c->n; k++) {
			assert_non_null(sm_check_inv_find(c->item[k].id));
			assert_null(strchr(c->item[k].msg, '\n'));
		}
		free(c);
		cJSON_Delete(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_lat),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_fileio),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_mpi),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_layout_frametest),
		cmocka_unit_test(test_layout_run_marks),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
