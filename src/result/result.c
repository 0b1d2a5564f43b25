/* SPDX-License-Identifier: MIT */
/* Shared result parts: the head, environment, per-op statistics, warnings. */
#include "result/result.h"
#include "core/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sm_env_collect(struct sm_env *env, const char *path)
{
	memset(env, 0, sizeof(*env));
	sm_kernel_release(env->kernel, sizeof(env->kernel));
	sm_fs_info(path, &env->fs);
	env->mem_total_bytes = sm_mem_total();
	env->mem_available_bytes = sm_mem_available();
	env->cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	sm_cpu_arch(env->arch, sizeof(env->arch));
	sm_cpu_model(env->cpu_model, sizeof(env->cpu_model));
	if (gethostname(env->host, sizeof(env->host) - 1))
		env->host[0] = '\0';
}

void sm_opstat_init(struct sm_opstat *s)
{
	s->count = s->bytes = s->errors = 0;
	sm_hist_init(&s->lat);
}

void sm_opstat_merge(struct sm_opstat *dst, const struct sm_opstat *src)
{
	dst->count += src->count;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	sm_hist_merge(&dst->lat, &src->lat);
}

void sm_warn(struct sm_warnings *w, const char *code, const char *fmt, ...)
{
	va_list ap;

	if (w->count >= SM_MAX_WARNINGS)
		return;
	for (unsigned i = 0; i < w->count; i++)
		if (!strcmp(w->item[i].code, code))
			return;
	snprintf(w->item[w->count].code, sizeof(w->item[0].code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(w->item[w->count].message, sizeof(w->item[0].message), fmt, ap);
	va_end(ap);
	w->count++;
}

void sm_result_head_begin(struct sm_result_head *h, const char *command, int argc, char **argv)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->command, sizeof(h->command), "%s", command);
	snprintf(h->version, sizeof(h->version), "%s", SM_VERSION);
	h->argc = argc;
	h->argv = argv;
	sm_utc_iso8601(h->started_at, sizeof(h->started_at));
}

void sm_result_head_keep(struct sm_result_head *dst, const struct sm_result_head *src)
{
	memcpy(dst->command, src->command, sizeof(dst->command));
	memcpy(dst->version, src->version, sizeof(dst->version));
	dst->argc = src->argc;
	dst->argv = src->argv;
	dst->argv_owned = src->argv_owned;
	memcpy(dst->started_at, src->started_at, sizeof(dst->started_at));
}

void sm_result_head_release(struct sm_result_head *h)
{
	if (h->argv_owned) {
		for (int i = 0; i < h->argc; i++)
			free(h->argv[i]);
		free(h->argv);
	}
	h->argv = NULL;
	h->argc = 0;
	h->argv_owned = 0;
}
