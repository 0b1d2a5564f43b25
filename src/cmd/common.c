/* SPDX-License-Identifier: MIT */
/* Messages shared by the commands. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/out_opts.h"
#include "core/memcheck.h"

int sm_usage_error(const char *prog, const char *help_hint, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (help_hint && *help_hint)
		fprintf(stderr, " (try '%s')", help_hint);
	fputc('\n', stderr);
	return SM_EXIT_USAGE;
}

void sm_error(const char *fmt, ...)
{
	va_list ap;

	fputs("stormark: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int sm_out_finish(int code)
{
	int err;

	errno = 0;
	err = fflush(stdout) == EOF || ferror(stdout);
	/* close too: a file system may report a lost write only at close */
	if (fclose(stdout) == EOF)
		err = 1;
	if (!err)
		return code;
	sm_error("cannot write the report to %s: %s", sm_out_stdout_name(),
		 errno ? strerror(errno) : "write error");
	return code == SM_EXIT_OK ? SM_EXIT_FAIL : code;
}

int sm_check_memory(const char *prog, uint64_t need, const char *what)
{
	char msg[600];

	if (!sm_mem_check(need, what, msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "%s: %s\n", prog, msg);
	return SM_EXIT_USAGE;
}
