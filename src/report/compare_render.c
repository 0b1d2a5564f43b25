/* SPDX-License-Identifier: MIT */
/* compare's render table: which reporter prints which layout of a
 * comparison (struct sm_cmp_result). A comparison has no result model of
 * its own to read back: each layout, the HTML page of --html FILE too, is
 * rendered from the live comparison. */
#include "report/render.h"

#include <cjson/cJSON.h>

#include "core/compiler.h"
#include "report/compare.h"
#include "report/csv.h"

static int cmp_text(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_cmp_result *r = res;

	sm_cmp_print_text(f, &r->c, &r->names);
	return 0;
}

static int cmp_md(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_cmp_result *r = res;

	sm_cmp_print_md(f, &r->c, &r->names);
	return 0;
}

static int cmp_csv(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	sm_csv_compare(f, &((const struct sm_cmp_result *)res)->c);
	return 0;
}

static int cmp_html(FILE *f, const void *res, SM_UNUSED const cJSON *doc, SM_UNUSED struct sm_jerr *e)
{
	const struct sm_cmp_result *r = res;

	sm_cmp_print_html(f, &r->c, &r->names, r->argc, r->argv);
	return 0;
}

static cJSON *cmp_json(const void *res)
{
	const struct sm_cmp_result *r = res;

	return sm_cmp_json(&r->c, &r->names);
}

static const struct sm_layout_row compare_rows[] = {
	{ .layout = SM_LAYOUT_TEXT, .render = cmp_text },
	{ .layout = SM_LAYOUT_MARKDOWN, .render = cmp_md },
	{ .layout = SM_LAYOUT_CSV, .render = cmp_csv },
	{ .layout = SM_LAYOUT_JSON },
	{ .layout = SM_LAYOUT_HTML, .render = cmp_html },
	{ 0 },
};

const struct sm_render sm_render_compare = {
	.command = "compare", .dflt = SM_LAYOUT_TEXT, .rows = compare_rows,
	.size = sizeof(struct sm_cmp_result), .json = cmp_json,
};
