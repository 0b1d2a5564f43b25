/* SPDX-License-Identifier: MIT */
/* Fuzz target: the command line of `sysbench` and `stormark fileio`. The
 * first line of an input is argv[0]: "sysbench" reads it as sysbench 1.0.20
 * does (args/sysbench_args.c) and hands what passes to the fileio option
 * table (args/fileio_opts.c over core/opt.c), as cmd_sysbench() does;
 * anything else is read as stormark fileio. Nothing is prepared or run. */
#include "cmd/cmd.h"
#include "args/fileio_opts.h"
#include "args/sysbench_args.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_fileio_opts *o = calloc(1, sizeof(*o));
	struct sm_sb_args *sb = calloc(1, sizeof(*sb));
	struct fuzz_argv a;
	int rc = -1;

	if (!o || !sb || fuzz_argv_init(&a, data, size))
		abort();
	fuzz_quiet_begin();
	if (!strcmp(fuzz_base(a.argv[0]), "sysbench")) {
		rc = sm_sb_args(a.argc, a.argv, sb);
		/* sysbench's refusals exit 1; --help and --version 0 */
		if (rc != -1 && rc != 0 && rc != 1)
			abort();
		if (rc == -1) {
			o->prog = "sysbench";
			o->sb = sb;
			if (sb->argc > SM_SB_MAX_ARGS || sb->argv[sb->argc])
				abort();
			rc = sm_fileio_parse(o, sb->argc, sb->argv);
		}
	} else {
		o->prog = "stormark fileio";
		rc = sm_fileio_parse(o, a.argc, a.argv);
	}
	if (rc == 0) {
		for (unsigned i = 0; i < o->ndeprecated; i++)
			if (!sm_fileio_depr_new(o->deprecated[i]))
				abort();
		if (o->help)
			sm_fileio_usage(stdout);
	}
	fuzz_quiet_end();
	fuzz_argv_release(&a);
	free(sb);
	free(o);
	return 0;
}
