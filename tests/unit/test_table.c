/* SPDX-License-Identifier: MIT */
/* report/table.c: one table as aligned text, markdown and CSV. */
#include "report/table.h"

#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

static char buf[4096];

static const struct sm_table_col cols[] = {
	{ "run", 4, 0, "" }, { "saved", 6, 1, "  " }, { "note", 0, 1, " " },
};

static const char *render(enum sm_table_style style)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct sm_table t = { f, style, cols, 3 };
	const char *r1[] = { "1", "today", "a, \"b\"" };
	const char *r2[] = { "12", NULL, "x|y" };

	assert_non_null(f);
	sm_table_title(&t, "history: h.db");
	sm_table_head(&t);
	sm_table_row(&t, r1);
	sm_table_row(&t, r2);
	sm_table_note(&t, "(a note)");
	fclose(f);
	return buf;
}

static void test_text(SM_UNUSED void **state)
{
	assert_string_equal(render(SM_TABLE_TEXT), "history: h.db\n"
			    " run  saved  note\n"
			    "   1  today  a, \"b\"\n"
			    "  12         x|y\n"
			    "(a note)\n");
}

static void test_markdown(SM_UNUSED void **state)
{
	assert_string_equal(render(SM_TABLE_MARKDOWN), "## history: h.db\n\n"
			    "| run | saved | note |\n"
			    "|--:|---|---|\n"
			    "| 1 | today | a, \"b\" |\n"
			    "| 12 |  | x\\|y |\n"
			    "\n(a note)\n");
}

static void test_csv(SM_UNUSED void **state)
{
	assert_string_equal(render(SM_TABLE_CSV), "run,saved,note\n"
			    "1,today,\"a, \"\"b\"\"\"\n"
			    "12,,x|y\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
