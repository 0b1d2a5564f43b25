/* SPDX-License-Identifier: MIT */
/* The environment's "mount" object: the share under the test (core/mount.h),
 * written and read back by the same option table. */
#include "result/json.h"
#include "result/json_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *sm_json_mount(const struct sm_mount *m)
{
	cJSON *o = cJSON_CreateObject(), *opts;

	cJSON_AddStringToObject(o, "protocol", m->protocol);
	cJSON_AddStringToObject(o, "kind", sm_mount_kind_name(m->kind));
	cJSON_AddStringToObject(o, "subtype", m->subtype);
	cJSON_AddStringToObject(o, "server", m->server);
	cJSON_AddStringToObject(o, "export", m->export);
	opts = cJSON_AddObjectToObject(o, "options");
	for (unsigned i = 0; i < SM_MOPT_COUNT; i++) {
		const char *v = sm_mount_opt(m, (enum sm_mopt)i);

		if (!v)
			continue;
		if (sm_mopt_type(i) == SM_MOPT_NUM)
			sm_json_add_u64(opts, sm_mopt_name(i), strtoull(v, NULL, 10));
		else if (sm_mopt_type(i) == SM_MOPT_WORD)
			cJSON_AddStringToObject(opts, sm_mopt_name(i), v);
		else
			cJSON_AddTrueToObject(opts, sm_mopt_name(i));
	}
	return o;
}

int sm_json_read_mount(const cJSON *o, struct sm_mount *m, struct sm_jerr *e)
{
	const cJSON *opts;
	char kind[16];
	int rc = 0, k;

	memset(m, 0, sizeof(*m));
	rc |= sm_jget_str(o, "protocol", m->protocol, sizeof(m->protocol), e);
	rc |= sm_jget_str(o, "kind", kind, sizeof(kind), e);
	rc |= sm_jget_str(o, "subtype", m->subtype, sizeof(m->subtype), e);
	rc |= sm_jget_str(o, "server", m->server, sizeof(m->server), e);
	rc |= sm_jget_str(o, "export", m->export, sizeof(m->export), e);
	opts = sm_jget_obj(o, "options", e);
	if (rc || !opts)
		return -EINVAL;
	k = sm_mount_kind_parse(kind);
	if (k < 0)
		return sm_jerr_set(e, "'mount.kind' is not local, network, fuse or host");
	m->kind = (enum sm_mount_kind)k;
	/* an option this version does not know is left alone */
	for (unsigned i = 0; i < SM_MOPT_COUNT; i++) {
		const char *name = sm_mopt_name(i);
		uint64_t n;
		int flag;

		if (!cJSON_GetObjectItemCaseSensitive(opts, name))
			continue;
		if (sm_mopt_type(i) == SM_MOPT_NUM) {
			rc = sm_jget_u64(opts, name, &n, e);
			snprintf(m->val[i], sizeof(m->val[i]), "%" PRIu64, n);
		} else if (sm_mopt_type(i) == SM_MOPT_WORD) {
			rc = sm_jget_str(opts, name, m->val[i], sizeof(m->val[i]), e);
		} else {
			rc = sm_jget_bool(opts, name, &flag, e);
			if (!rc && !flag)
				rc = sm_jerr_set(e, "'mount.options.%s' is false (a flag is true or absent)", name);
		}
		if (rc)
			return -EINVAL;
		m->present |= 1u << i;
	}
	return 0;
}
