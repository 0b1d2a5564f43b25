/* SPDX-License-Identifier: MIT */
/* Fuzz target: the reader of saved results (result/json_read*.c) as
 * `stormark report` uses it: the text is checked (JSON, a stormark result
 * this build reads), read back into the command's result by its reader,
 * analysed, and rendered in every layout of that command, to /dev/null. */
#include "cmd/cmd.h"
#include "result/json_read.h"
#include "fuzz_util.h"

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
		cJSON_Delete(doc);
	} else if (!e.msg[0] || doc) {
		abort();   /* a refusal names its reason and leaves nothing */
	}
	fuzz_quiet_end();
	free(text);
	return 0;
}
