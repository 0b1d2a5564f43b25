/* SPDX-License-Identifier: MIT */
/* Fuzz target: the option module (core/opt.c) through the option tables of
 * run, time, history, report and compare, parsed and checked as each command does
 * before it runs anything (cmd_*_parse_only()). The first line of an input
 * names the command; an unknown name goes to run, as `stormark` does with
 * options alone. */
#include "cmd/cmd.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	const char *cmd;
	int rc;

	if (fuzz_argv_init(&a, data, size))
		abort();
	cmd = a.argv[0];
	fuzz_quiet_begin();
	if (!strcmp(cmd, "time"))
		rc = cmd_time_parse_only(a.argc, a.argv);
	else if (!strcmp(cmd, "history"))
		rc = cmd_history_parse_only(a.argc, a.argv);
	else if (!strcmp(cmd, "report"))
		rc = cmd_report_parse_only(a.argc, a.argv);
	else if (!strcmp(cmd, "compare"))
		rc = cmd_compare_parse_only(a.argc, a.argv);
	else
		rc = cmd_run_parse_only(a.argc, a.argv);
	fuzz_quiet_end();
	/* the only codes a command line can lead to before any work */
	if (rc != 0 && rc != SM_EXIT_USAGE)
		abort();
	fuzz_argv_release(&a);
	return 0;
}
