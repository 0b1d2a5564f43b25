/* SPDX-License-Identifier: MIT */
/* Messages shared by the commands. */
#include "cmd/cmd.h"

#include <stdarg.h>
#include <stdio.h>

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
