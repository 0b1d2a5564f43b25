/* SPDX-License-Identifier: MIT */
/* --fps LIST (args/fps_opt.h). */
#include "args/fps_opt.h"

#include <errno.h>
#include <stdio.h>

int sm_fps_opt(const char *arg, const struct sm_fps **out, unsigned max, unsigned *n, char *exp,
	       size_t len)
{
	char bad[128];
	int rc = sm_fps_list(arg, out, max, n, bad, sizeof(bad));

	if (rc == -E2BIG)
		snprintf(exp, len, "at most %u frame rates", max);
	else if (rc == -ENOMEM)
		snprintf(exp, len, "a shorter list (out of memory)");
	else if (rc)   /* -ENOENT names the one that is none; -ENODATA: none at all */
		snprintf(exp, len, "comma-separated frame rates from 23.976 24 25 29.97 30 48 50 "
			 "59.94 60 120%s%s%s", rc == -ENOENT ? " ('" : "", rc == -ENOENT ? bad : "",
			 rc == -ENOENT ? "' is none)" : "");
	return rc ? -EINVAL : 0;
}
