/* SPDX-License-Identifier: MIT */
/* Reading back the "verify" object of a saved result (written by
 * report/verify.c), so that a re-rendered report shows the verification
 * block the run printed. */
#include "result/json_read.h"

#include <errno.h>
#include <string.h>

static int read_id(const cJSON *o, struct sm_vblk_id *id, struct sm_jerr *e)
{
	uint64_t file = 0;
	int rc = 0;

	rc |= sm_jget_u64(o, "set", &id->set, e);
	rc |= sm_jget_u64(o, "run", &id->run, e);
	rc |= sm_jget_u64(o, "seq", &id->seq, e);
	rc |= sm_jget_u64(o, "file", &file, e);
	rc |= sm_jget_u64(o, "offset", &id->off, e);
	if (!rc && file > UINT32_MAX)
		return sm_jerr_set(e, "'file' of a verify problem is out of range");
	id->file = (uint32_t)file;
	return rc ? -EINVAL : 0;
}

static int read_kind(const char *name, enum sm_verify_kind *k)
{
	for (int i = 0; i < SM_VK_COUNT; i++)
		if (!strcmp(name, sm_verify_kind_name((enum sm_verify_kind)i))) {
			*k = (enum sm_verify_kind)i;
			return 0;
		}
	return -EINVAL;
}

int sm_json_read_verify(const cJSON *doc, struct sm_verify_stats *st, uint64_t *run_id, struct sm_jerr *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "verify"), *list, *it;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	*run_id = 0;
	if (!v)
		return 0;
	rc |= sm_jget_u64(v, "run_id", run_id, e);
	rc |= sm_jget_u64(v, "blocks_sealed", &st->sealed, e);
	rc |= sm_jget_u64(v, "blocks_checked", &st->checked, e);
	rc |= sm_jget_u64(v, "blocks_unchecked", &st->unchecked, e);
	rc |= sm_jget_u64(v, "problems", &st->problems, e);
	rc |= sm_jget_u64(v, "seal_ns", &st->seal_ns, e);
	rc |= sm_jget_u64(v, "check_ns", &st->check_ns, e);
	rc |= sm_jget_u64(v, "pass_bytes", &st->pass_bytes, e);
	rc |= sm_jget_u64(v, "pass_ns", &st->pass_ns, e);
	list = sm_jget_arr(v, "problem_list", e);
	if (rc || !list)
		return -EINVAL;
	cJSON_ArrayForEach(it, list) {
		struct sm_verify_problem *p;
		char kind[32];
		uint64_t file = 0;

		if (st->nkept == SM_VERIFY_KEEP)
			return sm_jerr_set(e, "'problem_list' has more than %u entries", SM_VERIFY_KEEP);
		p = &st->kept[st->nkept++];
		rc |= sm_jget_u64(it, "file", &file, e);
		rc |= sm_jget_u64(it, "offset", &p->off, e);
		rc |= sm_jget_str(it, "kind", kind, sizeof(kind), e);
		if (rc)
			return -EINVAL;
		if (file > UINT32_MAX)
			return sm_jerr_set(e, "'file' of a verify problem is out of range");
		p->file = (uint32_t)file;
		if (read_kind(kind, &p->kind))
			return sm_jerr_set(e, "'kind' has an unknown value '%s'", kind);
		if (read_id(sm_jget_obj(it, "expected", e), &p->expect, e) ||
		    read_id(sm_jget_obj(it, "found", e), &p->found, e))
			return -EINVAL;
	}
	if (st->nkept > st->problems)
		return sm_jerr_set(e, "'problem_list' lists more problems than 'problems' counts");
	return 0;
}
