/* SPDX-License-Identifier: MIT */
/* What the commands share: option parsing, path and memory checks, the end of stdout. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/out_opts.h"
#include "core/memcheck.h"
#include "core/opt.h"

int sm_cmd_parse(const char *prog, const char *help_hint, const struct sm_opt *opts, int argc,
		 char **argv, unsigned flags, int *first,
		 void (*usage)(FILE *f, const struct sm_opt *opts))
{
	char msg[SM_MSG_MAX];
	int rc = sm_opt_parse(opts, argc, argv, flags, first, msg, sizeof(msg));

	if (rc == SM_OPT_LIST_CODE) {
		sm_opt_list(stdout, opts, 0);
		return SM_EXIT_OK;
	}
	if (rc > 0) {
		usage(stdout, opts);
		return SM_EXIT_OK;
	}
	if (rc)
		return sm_usage_error(prog, help_hint, "%s", msg);
	return -1;
}

int sm_dir_check_writable(const char *dir)
{
	/* access() also says EROFS for root, who may write anywhere else */
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int sm_check_memory(const char *prog, uint64_t need, const char *what)
{
	char msg[600];

	if (!sm_mem_check(need, what, msg, sizeof(msg)))
		return 0;
	sm_prog_error(prog, "%s", msg);   /* one line, as every usage error */
	return SM_EXIT_USAGE;
}

void sm_progress_line(const char *what, uint64_t elapsed_ns, uint64_t budget_ns, void *arg)
{
	const struct sm_progress *p = arg;

	if (!p->on)
		return;
	fprintf(stderr, "\r\033[K[%3.0f/%.0f s] %s", (double)elapsed_ns / 1e9, (double)budget_ns / 1e9, what);
	fflush(stderr);
}

void sm_progress_clear(const struct sm_progress *p)
{
	if (p->on) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}
