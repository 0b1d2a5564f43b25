/* SPDX-License-Identifier: MIT */
/* Tests of the OpenMetrics reporter (report/openmetrics.c) on documents
 * written here: label values escaped as the format asks (a host name with
 * a line feed, a quote and a backslash, which no end-to-end run can make),
 * --save's key read from argv and not from the measured command's words,
 * a null figure left out, seconds from nanoseconds, a cliff found,
 * "# EOF" last, a byte that is no UTF-8 replaced; the Prometheus text
 * format of the same families (no info type, no UNIT, no "# EOF", a
 * summary's _sum and _count), the tested directory and device on every
 * sample, a verdict as a value, a streams answer's cap and trials; the
 * file --live rewrites (a line's text values as labels of one info
 * sample, its times in seconds, no result families). */
#include "report/openmetrics.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

/* doc's text in format fmt (caller frees). */
static char *render_as(const char *json, enum sm_metrics_format fmt)
{
	cJSON *doc = cJSON_Parse(json);
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(doc);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(sm_metrics(f, doc, fmt), 0);
	assert_int_equal(fclose(f), 0);
	cJSON_Delete(doc);
	return text;
}

/* doc's OpenMetrics text (caller frees). */
static char *render(const char *json)
{
	return render_as(json, SM_METRICS_OPENMETRICS);
}

#define HEAD(cmd, argv)                                                                          \
	"{\"command\":\"" cmd "\",\"argv\":" argv ",\"tool\":{\"version\":\"0.1.0\"},"             \
	"\"started_at\":\"2026-12-02T18:58:56Z\",\"duration_ns\":1500000000,\"interrupted\":false," \
	"\"environment\":{\"kernel\":\"k\",\"host\":\"a\\nb\\\"c\\\\d\"},\"warnings\":[],\"errors\":[]"

static void test_escape_and_key(SM_UNUSED void **state)
{
	char *t = render(HEAD("frames", "[\"frames\",\"--save\",\"k1\",\"-w\",\"2k\",\"d\"]")
			 ",\"params\":{\"test\":\"write\",\"video_format\":\"\"},"
			 "\"totals\":{\"bytes_per_s\":1000,\"items_per_s\":null,\"bytes\":5},"
			 "\"ops\":{\"frame\":{\"lat_ns\":{\"min\":1000,\"p50\":2500000,\"max\":3000000000,"
			 "\"mean\":null}}},\"frames\":{\"dropped\":0},"
			 "\"cliff\":{\"looked\":true,\"found\":true,\"burst_bytes_per_s\":5e8,"
			 "\"sustained_bytes_per_s\":1.25e8}}");

	assert_non_null(strstr(t, "stormark_frames_throughput_bytes_per_second{command=\"frames\",key=\"k1\","
				  "host=\"a\\nb\\\"c\\\\d\",direction=\"write\"} 1000\n"));
	/* null figures have no sample, and an empty video format no label */
	assert_null(strstr(t, "stormark_frames_rate_frames_per_second{"));
	assert_null(strstr(t, "stormark_frames_frame_time_mean_seconds{"));
	assert_null(strstr(t, "format=\"\""));
	assert_non_null(strstr(t, "quantile=\"0.5\",direction=\"write\"} 0.0025\n"));
	assert_non_null(strstr(t, "quantile=\"1\",direction=\"write\"} 3\n"));
	assert_non_null(strstr(t, "stormark_result_duration_seconds{command=\"frames\",key=\"k1\","
				  "host=\"a\\nb\\\"c\\\\d\"} 1.5\n"));
	assert_non_null(strstr(t, "stormark_result_started_timestamp_seconds{command=\"frames\",key=\"k1\","
				  "host=\"a\\nb\\\"c\\\\d\"} 1796237936\n"));
	assert_non_null(strstr(t, "# UNIT stormark_frames_frame_time_seconds seconds\n"));
	assert_non_null(strstr(t, "stormark_cliff_found{command=\"frames\",key=\"k1\",host=\"a\\nb\\\"c\\\\d\","
				  "direction=\"write\"} 1\n"));
	assert_non_null(strstr(t, "direction=\"write\"} 125000000\n"));
	assert_int_equal(strcmp(t + strlen(t) - 6, "# EOF\n"), 0);
	free(t);
}

/* time's --save is before "--"; a --save among the command's words is not */
static void test_time_key(SM_UNUSED void **state)
{
	char *t = render(HEAD("time", "[\"time\",\"-n\",\"2\",\"--\",\"prog\",\"--save\",\"no\"]")
			 ",\"time\":{\"runs\":[{},{}],\"stats\":{\"wall_ns\":{\"mean\":2000000,\"stddev\":null}}}}");

	assert_null(strstr(t, "key="));
	assert_non_null(strstr(t, "stormark_time_runs{command=\"time\",host=\"a\\nb\\\"c\\\\d\"} 2\n"));
	assert_non_null(strstr(t, "stormark_time_wall_seconds{command=\"time\",host=\"a\\nb\\\"c\\\\d\","
				  "stat=\"mean\"} 0.002\n"));
	assert_null(strstr(t, "stat=\"stddev\""));
	free(t);
	t = render(HEAD("time", "[\"time\",\"--save=x y\",\"--\",\"true\"]") ",\"time\":{}}");
	assert_non_null(strstr(t, "key=\"x y\""));
	free(t);
}

/* a command without families of its own still gives valid text: the head */
static void test_unknown(SM_UNUSED void **state)
{
	char *t = render("{\"command\":\"other\"}");

	assert_non_null(strstr(t, "# TYPE stormark_result info\n"));
	assert_non_null(strstr(t, "stormark_result_info{command=\"other\"} 1\n"));
	assert_int_equal(strcmp(t + strlen(t) - 6, "# EOF\n"), 0);
	free(t);
}

/* a byte that is no UTF-8 is U+FFFD; well-formed UTF-8 stays */
static void test_utf8(SM_UNUSED void **state)
{
	char *t = render("{\"command\":\"other\",\"environment\":{\"host\":\"h\xff\xc3\xa9\xc0\xaf\xed\xa0\x80z\"}}");

	assert_non_null(strstr(t, "host=\"h\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd"
				  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz\""));
	free(t);
}

/* The Prometheus format: the info family a gauge named _info, HELP then
 * TYPE and no UNIT, a summary with its _sum and _count from the
 * histogram, no "# EOF"; the directory and device on every sample */
static void test_prometheus(SM_UNUSED void **state)
{
	static const char doc[] =
		"{\"command\":\"frames\",\"argv\":[\"frames\"],\"tool\":{\"version\":\"0.1.0\"},"
		"\"environment\":{\"device\":\"/dev/sdb\",\"mount_point\":\"/srv\"},"
		"\"params\":{\"test\":\"write\",\"path\":\"/srv/a\"},\"warnings\":[],\"errors\":[],"
		"\"ops\":{\"frame\":{\"count\":3,\"lat_ns\":{\"p50\":2000000,\"max\":4000000,"
		"\"histogram\":{\"sum\":8000000,\"counts\":[[2000000,2],[4000000,1]]}}}}}";
	char *t = render_as(doc, SM_METRICS_PROMETHEUS), *o = render(doc);

	assert_non_null(strstr(t, "# HELP stormark_result_info the result"));
	assert_non_null(strstr(t, "\n# TYPE stormark_result_info gauge\nstormark_result_info{command=\"frames\","
				  "dir=\"/srv/a\",device=\"/dev/sdb\",version=\"0.1.0\",mount_point=\"/srv\"} 1\n"));
	assert_null(strstr(t, "# UNIT"));
	assert_null(strstr(t, "# EOF"));
	assert_null(strstr(t, " info\n"));
	assert_non_null(strstr(t, "# TYPE stormark_frames_frame_time_seconds summary\n"
				  "stormark_frames_frame_time_seconds{command=\"frames\",dir=\"/srv/a\",device=\"/dev/sdb\","
				  "quantile=\"0.5\",direction=\"write\"} 0.002\n"));
	assert_non_null(strstr(t, "stormark_frames_frame_time_seconds_sum{command=\"frames\",dir=\"/srv/a\","
				  "device=\"/dev/sdb\",direction=\"write\"} 0.008\n"));
	assert_non_null(strstr(t, "stormark_frames_frame_time_seconds_count{command=\"frames\",dir=\"/srv/a\","
				  "device=\"/dev/sdb\",direction=\"write\"} 3\n"));
	/* OpenMetrics: the same samples, an info family, units, # EOF */
	assert_non_null(strstr(o, "# TYPE stormark_result info\n"));
	assert_non_null(strstr(o, "# TYPE stormark_frames_frame_time_seconds summary\n"
				  "# UNIT stormark_frames_frame_time_seconds seconds\n"));
	assert_non_null(strstr(o, "stormark_frames_frame_time_seconds_count{command=\"frames\",dir=\"/srv/a\","
				  "device=\"/dev/sdb\",direction=\"write\"} 3\n"));
	assert_int_equal(strcmp(o + strlen(o) - 6, "# EOF\n"), 0);
	free(t);
	free(o);
}

/* run's verdicts are values, never labels; a streams answer's cap and
 * trials are samples */
static void test_verdict_and_cap(SM_UNUSED void **state)
{
	char *t = render_as("{\"command\":\"run\",\"run\":{\"verdicts\":[{\"format\":\"dpx-hd\",\"capture\":["
			    "{\"fps\":\"24\",\"verdict\":\"marginal\",\"ratio\":1.1}],\"playback\":["
			    "{\"fps\":\"24\",\"verdict\":\"not-realtime\",\"ratio\":0.5}]}]}}",
			    SM_METRICS_PROMETHEUS);

	assert_null(strstr(t, "verdict="));
	assert_non_null(strstr(t, "stormark_run_verdict{command=\"run\",format=\"dpx-hd\",direction=\"capture\","
				  "fps=\"24\"} 2\n"));
	assert_non_null(strstr(t, "stormark_run_verdict{command=\"run\",format=\"dpx-hd\",direction=\"play\","
				  "fps=\"24\"} 0\n"));
	assert_non_null(strstr(t, "3 realtime, 2 marginal, 1 unconfirmed, 0 not-realtime"));
	free(t);
	t = render_as("{\"command\":\"streams\",\"params\":{\"dir\":\"/v\"},\"streams\":[{\"format\":\"f\","
		      "\"fps\":\"25\",\"direction\":\"playback\",\"kind\":\"file\",\"max_streams\":8,"
		      "\"at_cap\":true,\"trials\":{\"held_at_answer\":3,\"at_answer\":3,\"held_at_failed\":1,"
		      "\"at_failed\":3}},{\"format\":\"g\",\"fps\":\"25\",\"direction\":\"capture\","
		      "\"kind\":\"file\",\"max_streams\":null,\"at_cap\":false}]}",
		      SM_METRICS_PROMETHEUS);
	assert_non_null(strstr(t, "stormark_streams_at_cap{command=\"streams\",dir=\"/v\",format=\"f\",fps=\"25\","
				  "direction=\"play\",kind=\"file\"} 1\n"));
	/* no answer, no cap to say */
	assert_null(strstr(t, "format=\"g\",fps=\"25\",direction=\"capture\",kind=\"file\"} 0"));
	assert_non_null(strstr(t, "stormark_streams_held_trials{command=\"streams\",dir=\"/v\",format=\"f\","
				  "fps=\"25\",direction=\"play\",kind=\"file\",step=\"failed\"} 1\n"));
	assert_non_null(strstr(t, "stormark_streams_trials{command=\"streams\",dir=\"/v\",format=\"f\","
				  "fps=\"25\",direction=\"play\",kind=\"file\",step=\"answer\"} 3\n"));
	free(t);
}

static void test_live(SM_UNUSED void **state)
{
	char *t = render_as("{\"command\": \"streams\", \"argv\": [\"streams\", \"--save\", \"soak\"],"
			    " \"environment\": {\"host\": \"h\", \"device\": \"/dev/vda\"},"
			    " \"params\": {\"dir\": \"/v\"}, \"live_updated\": 1796673103.5,"
			    " \"live\": {\"command\": \"streams\", \"phase\": \"step end\", \"step\": \"trial\","
			    " \"format\": \"dpx-hd\", \"held\": \"no\", \"streams\": 3, \"t_ns\": 2500000000,"
			    " \"left_ns\": 7000000000, \"worst_p99_9_sched_ns\": 41000000, \"stall_longest_ns\": 0,"
			    " \"bad key\": \"x\"}}", SM_METRICS_PROMETHEUS);
	const char *common = "command=\"streams\",key=\"soak\",host=\"h\",dir=\"/v\",device=\"/dev/vda\"";
	char want[512];

	snprintf(want, sizeof(want), "\nstormark_live_info{%s,phase=\"step end\",step=\"trial\",format=\"dpx-hd\","
		 "held=\"no\"} 1\n", common);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\nstormark_live_elapsed_seconds{%s} 2.5\n", common);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\nstormark_live_left_seconds{%s} 7\n", common);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\nstormark_live_interval{%s,figure=\"worst_p99_9_sched_seconds\"} 0.041\n",
		 common);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\nstormark_live_interval{%s,figure=\"streams\"} 3\n", common);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\nstormark_live_updated_timestamp_seconds{%s} 1796673103.5\n", common);
	assert_non_null(strstr(t, want));
	assert_null(strstr(t, "bad key"));          /* no label name: left out */
	assert_null(strstr(t, "stormark_result"));  /* the result's families wait for the result */
	assert_null(strstr(t, "# EOF"));
	free(t);
	t = render_as("{\"command\": \"frames\", \"live\": {\"phase\": \"read\", \"bytes\": 10}}",
		      SM_METRICS_OPENMETRICS);
	assert_non_null(strstr(t, "# TYPE stormark_live info\n"));
	assert_non_null(strstr(t, "stormark_live_info{command=\"frames\",phase=\"read\"} 1\n"));
	assert_non_null(strstr(t, "stormark_live_interval{command=\"frames\",figure=\"bytes\"} 10\n"));
	assert_int_equal(strcmp(t + strlen(t) - 6, "# EOF\n"), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_and_key),
		cmocka_unit_test(test_time_key),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_verdict_and_cap),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
