/* SPDX-License-Identifier: MIT */
/* Tests of the output flags' resolution (args/out_opts.c): layouts a
 * command has, has not, or that do not exist; --json with and without a
 * FILE; the combinations refused. */
#include "args/out_opts.h"

#include <errno.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

#define HAVE (SM_LAYOUT_BIT(SM_LAYOUT_TEXT) | SM_LAYOUT_BIT(SM_LAYOUT_TIMEIT) | SM_LAYOUT_BIT(SM_LAYOUT_JSON))

static char msg[256];

static int resolve(struct sm_out_opts *o, const char *json, const char *format)
{
	memset(o, 0, sizeof(*o));
	o->json = json;
	o->format = format;
	msg[0] = '\0';
	return sm_out_resolve(o, "stormark x", HAVE, SM_LAYOUT_TEXT, msg, sizeof(msg));
}

static void test_resolve(SM_UNUSED void **state)
{
	struct sm_out_opts o;

	assert_int_equal(resolve(&o, NULL, NULL), 0);
	assert_int_equal(o.layout, SM_LAYOUT_TEXT);
	assert_null(o.json_file);
	assert_int_equal(resolve(&o, NULL, "timeit"), 0);
	assert_int_equal(o.layout, SM_LAYOUT_TIMEIT);
	/* --json with no FILE: the JSON is the report */
	assert_int_equal(resolve(&o, "-", NULL), 0);
	assert_int_equal(o.layout, SM_LAYOUT_JSON);
	assert_null(o.json_file);
	assert_int_equal(resolve(&o, "", "json"), 0);
	assert_int_equal(o.layout, SM_LAYOUT_JSON);
	/* --json=FILE: besides the report */
	assert_int_equal(resolve(&o, "r.json", "timeit"), 0);
	assert_int_equal(o.layout, SM_LAYOUT_TIMEIT);
	assert_string_equal(o.json_file, "r.json");

	assert_int_equal(resolve(&o, NULL, "xml"), -EINVAL);
	assert_string_equal(msg, "invalid value 'xml' for --format: expected a report layout: "
			    "timeit, text or json");
	assert_int_equal(resolve(&o, NULL, "markdown"), -EINVAL);
	assert_string_equal(msg, "the markdown layout is not available for stormark x (timeit, text or json)");
	assert_int_equal(resolve(&o, "-", "timeit"), -EINVAL);
	assert_non_null(strstr(msg, "use --json=FILE"));
	assert_int_equal(resolve(&o, "r.json", "json"), -EINVAL);
	assert_non_null(strstr(msg, "use -o FILE"));
	/* a command without JSON refuses --json in any form */
	memset(&o, 0, sizeof(o));
	o.json = "r.json";
	assert_int_equal(sm_out_resolve(&o, "stormark y", SM_LAYOUT_BIT(SM_LAYOUT_TEXT), SM_LAYOUT_TEXT,
					msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "the json layout is not available for stormark y (text)");
}

static void test_names(SM_UNUSED void **state)
{
	assert_int_equal(sm_layout_find("frametest"), SM_LAYOUT_FRAMETEST);
	assert_int_equal(sm_layout_find("json"), SM_LAYOUT_JSON);
	assert_int_equal(sm_layout_find("JSON"), 0);
	assert_int_equal(sm_layout_find("dpx-2k"), 0);
	assert_int_equal(sm_layout_find(NULL), 0);
	assert_string_equal(sm_layout_name(SM_LAYOUT_SYSBENCH), "sysbench");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("out_opts", tests, NULL, NULL);
}
