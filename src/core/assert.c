/* SPDX-License-Identifier: MIT */
/* What a failed SM_ASSERT does (core/assert.h). */
#include "core/assert.h"

#include <stdio.h>
#include <stdlib.h>

void sm_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "stormark: assertion failed: %s (%s:%d, %s)\n", cond, file, line, func);
	fflush(stderr);
	abort();
}

int sm_asserts_built(void)
{
	return SM_ASSERTS_ON;
}
