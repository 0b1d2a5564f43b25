/* SPDX-License-Identifier: MIT */
/* Writing and reading a field of a result body by its table entry
 * (result/field.h). */
#include "result/field.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/hist.h"
#include "result/json.h"
#include "result/json_read.h"

#define AT(type) ((type *)(void *)((char *)base + f->offset))
#define CAT(type) ((const type *)(const void *)((const char *)base + f->offset))

void sm_field_put(cJSON *o, const struct sm_field *f, const void *base)
{
	switch (f->type) {
	case SM_FT_U64:
		sm_json_add_u64(o, f->key, *CAT(uint64_t));
		break;
	case SM_FT_UINT:
		sm_json_add_u64(o, f->key, *CAT(unsigned));
		break;
	case SM_FT_DOUBLE:
		sm_json_add_double(o, f->key, *CAT(double));
		break;
	case SM_FT_BOOL:
		cJSON_AddBoolToObject(o, f->key, *CAT(int));
		break;
	case SM_FT_STR:
		cJSON_AddStringToObject(o, f->key, CAT(char));
		break;
	case SM_FT_LAT:
		cJSON_AddItemToObject(o, f->key, sm_json_lat(CAT(struct sm_hist), 1));
		break;
	case SM_FT_OBJ:
	case SM_FT_ARR:
		break;   /* its owner writes it */
	}
}

const cJSON *sm_field_at(const cJSON *o, const struct sm_field *f)
{
	return cJSON_GetObjectItemCaseSensitive(o, f->key);
}

int sm_field_has(const cJSON *o, const struct sm_field *f)
{
	return sm_field_at(o, f) != NULL;
}

int sm_field_get(const cJSON *o, const struct sm_field *f, void *base, struct sm_jerr *e)
{
	if ((f->flags & SM_FF_OPTIONAL) && !sm_field_has(o, f))
		return 0;
	switch (f->type) {
	case SM_FT_U64:
		return sm_jget_u64(o, f->key, AT(uint64_t), e);
	case SM_FT_UINT:
		return sm_jget_uint(o, f->key, AT(unsigned), e);
	case SM_FT_DOUBLE:
		return sm_jget_double(o, f->key, AT(double), e);
	case SM_FT_BOOL:
		return sm_jget_bool(o, f->key, AT(int), e);
	case SM_FT_STR:
		return sm_jget_str(o, f->key, AT(char), f->size, e);
	case SM_FT_LAT:
		return sm_json_read_lat(sm_jget_obj(o, f->key, e), AT(struct sm_hist), e);
	case SM_FT_OBJ:
		return sm_jget_obj(o, f->key, e) ? 0 : -EINVAL;
	case SM_FT_ARR:
		return sm_jget_arr(o, f->key, e) ? 0 : -EINVAL;
	}
	return -EINVAL;
}
