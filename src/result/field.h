/* SPDX-License-Identifier: MIT */
/* A result body's fields, one table per JSON object of it: each key's
 * spelling, its type, its unit, where its value lives in the body's
 * struct, and whether a document may leave it out. The body's writer
 * (result/, or report/ until its parts move down), its reader (result/),
 * its checker (check/) and its OpenMetrics names (report/openmetrics*.c)
 * take the key from the table, so a key is spelled once in src/. Done
 * for the head, the operation object, meta and fileio (its series still
 * has sm_fileio_series_keys); tests/unit/test_field.c compares each table
 * with its object in docs/stormark.schema.json. */
#ifndef SM_RESULT_FIELD_H
#define SM_RESULT_FIELD_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct sm_jerr;

/* How a value is stored in the struct and in the document. */
enum sm_ftype {
	SM_FT_U64,      /* uint64_t, a JSON integer */
	SM_FT_UINT,     /* unsigned, a JSON integer */
	SM_FT_DOUBLE,   /* double, the shortest number that reads back the same */
	SM_FT_BOOL,     /* int 0/1, a JSON boolean */
	SM_FT_STR,      /* char[size], a JSON string */
	SM_FT_LAT,      /* struct sm_hist, a latency object with its histogram */
	SM_FT_OBJ,      /* a nested object (its own table, or written by its owner) */
	SM_FT_ARR,      /* an array, written and read by its owner */
};

/* flags */
#define SM_FF_OPTIONAL 1u   /* absent from some documents (older, or not said) */
#define SM_FF_NOSTORE 2u    /* no place in the struct: written from elsewhere */

struct sm_field {
	const char *key;        /* the JSON key */
	enum sm_ftype type;
	const char *unit;       /* "ns", "bytes", "1/s", "" for a count or a word */
	size_t offset;          /* in the body's struct (not with SM_FF_NOSTORE) */
	size_t size;            /* SM_FT_STR: the array's size */
	unsigned flags;
};

/* A table entry whose value is member m of struct type t. */
#define SM_FIELD(k, ty, u, t, m, fl) \
	{ (k), (ty), (u), offsetof(t, m), sizeof(((t *)0)->m), (fl) }
/* A table entry with no place in the struct. */
#define SM_FIELD_X(k, ty, u, fl) { (k), (ty), (u), 0, 0, (fl) | SM_FF_NOSTORE }

/* Add f's value from the struct at base to object o. */
void sm_field_put(cJSON *o, const struct sm_field *f, const void *base);

/* Read f from object o into the struct at base: 0, or -EINVAL with e set
 * (the key missing, or not of f's type). An optional key that is absent
 * leaves the struct as it was and returns 0. */
int sm_field_get(const cJSON *o, const struct sm_field *f, void *base, struct sm_jerr *e);

/* 1 when o has f's key. */
int sm_field_has(const cJSON *o, const struct sm_field *f);

/* f's value in o (any JSON item) or NULL. */
const cJSON *sm_field_at(const cJSON *o, const struct sm_field *f);

/* A named table: the schema test walks every one of them. schema is the
 * JSON pointer of the object in docs/stormark.schema.json whose
 * "properties" the table lists (one of them, with the tables that name
 * the same object, when several tables share it). */
struct sm_field_table {
	const char *name;       /* "meta.params", "meta.ops.PHASE" */
	const char *schema;
	const struct sm_field *field;
	unsigned n;
	const struct sm_field_table *also;   /* a table whose keys the schema's
					      * object holds too (a document's
					      * head), or NULL */
};

/* Every body's tables, n of them (field_tables.c). */
extern const struct sm_field_table sm_field_tables[];
extern const unsigned sm_field_ntables;

#endif
