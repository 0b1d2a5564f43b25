/* SPDX-License-Identifier: MIT */
/* Every result body's field tables, named, with the object of
 * docs/stormark.schema.json each one lists (tests/unit/test_field.c
 * compares their keys). */
#include "result/field.h"

#include "result/fileio.h"
#include "result/meta.h"
#include "result/result.h"

#define N(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))
#define META "/allOf/5/then"
#define FILEIO "/allOf/3/then"

#define HEAD (&sm_field_tables[0])

const struct sm_field_table sm_field_tables[] = {
	{ "head", "", sm_head_fields, N(sm_head_fields), NULL },
	{ "opstat", "/$defs/opstat", sm_opstat_fields, N(sm_opstat_fields), NULL },
	{ "meta", META, sm_meta_doc_fields, N(sm_meta_doc_fields), HEAD },
	{ "meta.params", META "/properties/params", sm_meta_params_fields,
	  N(sm_meta_params_fields), NULL },
	{ "meta.meta", META "/properties/meta", sm_meta_body_fields, N(sm_meta_body_fields), NULL },
	{ "meta.ops.PHASE", "/$defs/meta_phase", sm_meta_phase_fields, N(sm_meta_phase_fields), NULL },
	{ "fileio", FILEIO, sm_fileio_doc_fields, N(sm_fileio_doc_fields), HEAD },
	{ "fileio.params", FILEIO "/properties/params", sm_fileio_params_fields,
	  N(sm_fileio_params_fields), NULL },
	{ "fileio.fileio", FILEIO "/properties/fileio", sm_fileio_body_fields,
	  N(sm_fileio_body_fields), NULL },
	{ "fileio.fileio.event_percentiles[]",
	  FILEIO "/properties/fileio/properties/event_percentiles/items", sm_fileio_pct_fields,
	  N(sm_fileio_pct_fields), NULL },
};
const unsigned sm_field_ntables = N(sm_field_tables);
