/* SPDX-License-Identifier: MIT */
/* --fps LIST, one grammar and one set of reasons in every command that
 * takes frame rates (run, streams). */
#ifndef SM_ARGS_FPS_OPT_H
#define SM_ARGS_FPS_OPT_H

#include <stddef.h>

#include "core/formats.h"

/* The frame rates of arg, comma-separated names ("24,25,59.94"), into
 * out[0..*n) (at most max). Returns 0, or -EINVAL with what the option
 * expects in exp[len] (an option callback's answer, core/opt.h). */
int sm_fps_opt(const char *arg, const struct sm_fps **out, unsigned max, unsigned *n, char *exp,
	       size_t len);

#endif
