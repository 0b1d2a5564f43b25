/* SPDX-License-Identifier: MIT */
/* Fuzz target: the reader of saved results (result/json_read*.c) as
 * `stormark report` uses it: the text is checked (JSON, a stormark result
 * this build reads), read back into the command's result by its reader,
 * analysed, and rendered in every layout of that command, to /dev/null;
 * then the result checker (`report --check`, src/check/) judges it
 * and each layout against it. A fuzzed result may break any invariant, so
 * a violation is no failure here; the checker must return on everything
 * the reader accepts, name only invariants it knows, and keep each
 * message to one line (what `report --check` prints). */
#include "check/check.h"
#include "cmd/cmd.h"
#include "result/json_read.h"
#include "fuzz_util.h"

/* What the checker found is well formed, or abort(). */
static void check_result(const cJSON *doc)
{
	struct sm_check *c = calloc(1, sizeof(*c));
	char msg[SM_MSG_MAX];

	if (!c)
		abort();
	cmd_report_check(doc, c, msg, sizeof(msg));
	if (c->n > SM_CHECK_MAX)
		abort();
	for (unsigned i = 0; i < c->n; i++)
		if (!sm_check_inv_find(c->item[i].id) || strchr(c->item[i].msg, '\n') ||
		    !c->item[i].msg[0])
			abort();
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_jerr e = { { 0 } };
	char *text = malloc(size + 1);
	cJSON *doc = NULL;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_quiet_begin();
	if (sm_json_parse_text(text, "fuzz.json", &doc, &e) == 0) {
		cmd_report_render_all(doc);
		check_result(doc);
		cJSON_Delete(doc);
	} else if (!e.msg[0] || doc) {
		abort();   /* a refusal names its reason and leaves nothing */
	}
	fuzz_quiet_end();
	free(text);
	return 0;
}
