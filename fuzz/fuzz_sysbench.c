/* SPDX-License-Identifier: MIT */
/* Fuzz target: the command line of `sysbench fileio` and `stormark fileio`
 * (cmd/fileio_opts.c over core/opt.c). The first line of an input is
 * argv[0]: "sysbench" parses under that name, anything else as stormark
 * fileio. Nothing is prepared or run. */
#include "cmd/cmd.h"
#include "cmd/fileio_opts.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_fileio_opts *o = calloc(1, sizeof(*o));
	struct fuzz_argv a;
	int rc;

	if (!o || fuzz_argv_init(&a, data, size))
		abort();
	o->prog = !strcmp(fuzz_base(a.argv[0]), "sysbench") ? "sysbench" : "stormark fileio";
	fuzz_quiet_begin();
	rc = sm_fileio_parse(o, a.argc, a.argv);
	if (rc == 0) {
		for (unsigned i = 0; i < o->ndeprecated; i++)
			if (!sm_fileio_depr_new(o->deprecated[i]))
				abort();
		if (o->help)
			sm_fileio_usage(stdout);
	}
	fuzz_quiet_end();
	fuzz_argv_release(&a);
	free(o);
	return 0;
}
