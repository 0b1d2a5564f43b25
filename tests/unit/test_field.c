/* SPDX-License-Identifier: MIT */
/* The result bodies' field tables (result/field.h): each table's keys are
 * exactly the properties of its object in docs/stormark.schema.json, no
 * table names a key twice, a field written from its table reads back the
 * same, and the files a body's table serves spell none of its keys
 * again. */
#include "result/field.h"
#include "result/json_read.h"
#include "result/meta.h"
#include "core/compiler.h"
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* The source tree's root: this file is tests/unit/test_field.c in it. */
static const char *root(void)
{
	static char buf[4096];
	char *p;

	snprintf(buf, sizeof(buf), "%s", __FILE__);
	p = strstr(buf, "tests/unit/test_field.c");
	if (!p)
		t_skip("the source tree is not known (%s)", __FILE__);
	*p = '\0';
	return buf;
}

/* The whole of file rel (under the root), NUL-terminated; caller frees. */
static char *slurp(const char *rel)
{
	char path[4200];
	FILE *f;
	char *s;
	long n;

	snprintf(path, sizeof(path), "%s%s", root(), rel);
	f = fopen(path, "rb");
	if (!f)
		t_skip("%s cannot be read", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

/* The object at JSON pointer ptr ("/a/0/b") in doc, or NULL. */
static const cJSON *pointer(const cJSON *doc, const char *ptr)
{
	char tok[128];

	while (doc && *ptr == '/') {
		size_t n = strcspn(++ptr, "/");

		if (n >= sizeof(tok))
			return NULL;
		memcpy(tok, ptr, n);
		tok[n] = '\0';
		ptr += n;
		doc = cJSON_IsArray(doc) ? cJSON_GetArrayItem(doc, atoi(tok))
					 : cJSON_GetObjectItemCaseSensitive(doc, tok);
	}
	return doc;
}

/* 1 when table t has key. */
static int in_table(const struct sm_field_table *t, const char *key)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->field[i].key, key))
			return 1;
	return 0;
}

/* Keys of a table and of its schema object, both ways: the count of keys
 * that are in one and not in the other (each said on stderr). */
static unsigned compare_table(const cJSON *schema, const struct sm_field_table *t)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(pointer(schema, t->schema),
							      "properties");
	const cJSON *it;
	unsigned bad = 0;

	if (!cJSON_IsObject(props)) {
		fprintf(stderr, "%s: no properties at %s in the schema\n", t->name, t->schema);
		return 1;
	}
	for (unsigned i = 0; i < t->n; i++)
		if (!cJSON_GetObjectItemCaseSensitive(props, t->field[i].key)) {
			fprintf(stderr, "%s: '%s' is in the table, not in the schema\n", t->name,
				t->field[i].key);
			bad++;
		}
	cJSON_ArrayForEach(it, props) {
		if (!in_table(t, it->string) && !(t->also && in_table(t->also, it->string))) {
			fprintf(stderr, "%s: '%s' is in the schema, not in the table\n", t->name,
				it->string);
			bad++;
		}
	}
	return bad;
}

static void test_tables_match_schema(SM_UNUSED void **state)
{
	char *text = slurp("docs/stormark.schema.json");
	cJSON *schema = cJSON_Parse(text);
	unsigned bad = 0;

	assert_non_null(schema);
	assert_true(sm_field_ntables > 0);
	for (unsigned k = 0; k < sm_field_ntables; k++)
		bad += compare_table(schema, &sm_field_tables[k]);
	assert_int_equal(bad, 0);
	cJSON_Delete(schema);
	free(text);
}

static void test_tables_well_formed(SM_UNUSED void **state)
{
	for (unsigned k = 0; k < sm_field_ntables; k++) {
		const struct sm_field_table *t = &sm_field_tables[k];

		for (unsigned i = 0; i < t->n; i++) {
			assert_non_null(t->field[i].key);
			assert_non_null(t->field[i].unit);
			if (t->field[i].type == SM_FT_STR && !(t->field[i].flags & SM_FF_NOSTORE))
				assert_true(t->field[i].size > 0);
			for (unsigned j = 0; j < i; j++)
				assert_string_not_equal(t->field[i].key, t->field[j].key);
		}
	}
}

/* Every stored field of meta's tables written into an object and read
 * back into a cleared struct gives the same value. */
static void test_put_get(SM_UNUSED void **state)
{
	struct sm_meta_result *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	const struct sm_field *tabs[] = { sm_meta_params_fields, sm_meta_body_fields };
	const unsigned ns[] = { SM_MPA_N, SM_MME_N };
	struct sm_jerr e = { 0 };

	assert_non_null(a);
	assert_non_null(b);
	snprintf(a->dir, sizeof(a->dir), "/some/dir");
	snprintf(a->data_dir, sizeof(a->data_dir), "/some/dir/.stormark-meta-x");
	a->plan.files = 123456789012ull;
	a->plan.threads = 17;
	a->plan.size = 4097;
	a->plan.warm = 1;
	a->created = 99;
	a->cleaned = 1;
	a->ranks = 3;
	a->shared = 1;
	a->set_files = 7;
	for (unsigned t = 0; t < 2; t++) {
		cJSON *w = cJSON_CreateObject(), *o;
		char *text;

		for (unsigned i = 0; i < ns[t]; i++)
			if (!(tabs[t][i].flags & SM_FF_NOSTORE))
				sm_field_put(w, &tabs[t][i], a);
		/* as a saved result is read: from its text */
		text = cJSON_PrintUnformatted(w);
		assert_non_null(text);
		o = cJSON_Parse(text);
		assert_non_null(o);
		cJSON_free(text);
		cJSON_Delete(w);
		for (unsigned i = 0; i < ns[t]; i++)
			if (!(tabs[t][i].flags & SM_FF_NOSTORE))
				if (sm_field_get(o, &tabs[t][i], b, &e))
					fail_msg("%s: %s", tabs[t][i].key, e.msg);
		cJSON_Delete(o);
	}
	assert_string_equal(b->dir, a->dir);
	assert_string_equal(b->data_dir, a->data_dir);
	assert_true(b->plan.files == a->plan.files);
	assert_int_equal(b->plan.threads, a->plan.threads);
	assert_true(b->plan.size == a->plan.size);
	assert_int_equal(b->plan.warm, 1);
	assert_true(b->created == 99);
	assert_int_equal(b->cleaned, 1);
	assert_int_equal(b->ranks, 3);
	assert_int_equal(b->shared, 1);
	assert_true(b->set_files == 7);
	free(a);
	free(b);
}

/* How often "KEY" (with its quotes) is in s; with paren, ("KEY" (a
 * table entry's key, not its unit). */
static unsigned quoted(const char *s, const char *key, int paren)
{
	char q[160];
	unsigned n = 0;

	snprintf(q, sizeof(q), "%s\"%s\"", paren ? "(" : "", key);
	for (const char *p = s; (p = strstr(p, q)); p += strlen(q))
		n++;
	return n;
}

/* The entries of tables first to last (in sm_field_tables) named key. */
static unsigned entries(unsigned first, unsigned last, const char *key)
{
	unsigned n = 0;

	for (unsigned k = first; k <= last; k++)
		for (unsigned i = 0; i < sm_field_tables[k].n; i++)
			n += !strcmp(sm_field_tables[k].field[i].key, key);
	return n;
}

/* The index of the table named name. */
static unsigned table_named(const char *name)
{
	unsigned k = 0;

	while (k < sm_field_ntables && strcmp(sm_field_tables[k].name, name))
		k++;
	assert_true(k < sm_field_ntables);
	return k;
}

/* The files a body's tables serve spell none of the tables' keys; the
 * file of the tables spells each once per entry (in its table). */
static void test_spelled_once(SM_UNUSED void **state)
{
	static const struct {
		const char *tables_file;
		const char *users[4];
		const char *first, *last;   /* the tables' names in sm_field_tables */
	} body[] = {
		{ "src/result/meta.c",
		  { "src/result/json_read_meta.c", "src/check/meta.c", NULL },
		  "meta", "meta.ops.PHASE" },
		{ "src/result/json.c", { "src/result/json_read.c", NULL }, "head", "opstat" },
		{ "src/result/fileio.c",
		  { "src/result/json_read_fileio.c", "src/report/fileio.c", "src/check/fileio.c", NULL },
		  "fileio", "fileio.fileio.event_percentiles[]" },
	};
	unsigned bad = 0;

	for (unsigned b = 0; b < sizeof(body) / sizeof(body[0]); b++) {
		char *own = slurp(body[b].tables_file);
		unsigned first = table_named(body[b].first), last = table_named(body[b].last);

		for (unsigned k = first; k <= last; k++) {
			const struct sm_field_table *t = &sm_field_tables[k];

			for (unsigned i = 0; i < t->n; i++) {
				const char *key = t->field[i].key;
				unsigned want = entries(first, last, key), got = quoted(own, key, 1);

				if (got != want) {
					fprintf(stderr, "%s: (\"%s\" %u times, in %u entries\n",
						body[b].tables_file, key, got, want);
					bad++;
				}
				for (unsigned u = 0; body[b].users[u]; u++) {
					char *s = slurp(body[b].users[u]);

					if (quoted(s, key, 0)) {
						fprintf(stderr, "%s spells \"%s\" (%s's)\n", body[b].users[u],
							key, t->name);
						bad++;
					}
					free(s);
				}
			}
		}
		free(own);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_match_schema),
		cmocka_unit_test(test_tables_well_formed),
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_spelled_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
