/* SPDX-License-Identifier: MIT */
/* Fuzz target: the command line of `frametest` and `stormark frames`
 * (args/frames_opts.c over core/opt.c), parsed, resolved into a plan,
 * echoed as the "Test parameters" line and validated, as cmd_frames()
 * does before it touches a file. The first line of an input is argv[0]:
 * "frametest" selects the frametest name (its help, its defaults). */
#include "cmd/cmd.h"
#include "args/frames_opts.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_frames_opts *o = malloc(sizeof(*o));
	struct fuzz_argv a;
	int compat, rc;

	if (!o || fuzz_argv_init(&a, data, size))
		abort();
	compat = !strcmp(fuzz_base(a.argv[0]), "frametest");
	fuzz_quiet_begin();
	rc = sm_frames_opts_parse(a.argc, a.argv, compat, o);
	if (rc == SM_FRAMES_OPTS_HELP)
		sm_frames_opts_usage(stdout, compat);
	if (rc == 0) {
		/* the path is the test area: a read test would look for
		 * frames there; only what needs no file is exercised */
		sm_frames_opts_params(o);
		if (strlen(o->params) >= sizeof(o->params))
			abort();
		sm_frames_opts_validate(o);
	}
	fuzz_quiet_end();
	fuzz_argv_release(&a);
	free(o);
	return 0;
}
