/* SPDX-License-Identifier: MIT */
/* The history as one JSON document (stormark history --json,
 * docs/history.md): the keys, or one key's saved results whole (and a time
 * key's runs with their figures). */
#include "store/history_db.h"
#include "result/json.h"
#include "result/timefig.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keys as JSON: [{"key", "command", "runs", "last_saved_at"}]. */
static int keys_json(struct sm_hdb *db, cJSON *doc, char *err, size_t len)
{
	struct sm_hdb_key *keys = NULL;
	unsigned n = 0;
	cJSON *arr = cJSON_AddArrayToObject(doc, "keys");
	int rc;

	if (db && (rc = sm_hdb_keys(db, &keys, &n, err, len)))
		return rc;
	for (unsigned i = 0; arr && i < n; i++) {
		cJSON *k = cJSON_CreateObject();

		if (!k)
			break;
		cJSON_AddItemToArray(arr, k);
		cJSON_AddStringToObject(k, "key", keys[i].key);
		cJSON_AddStringToObject(k, "command", keys[i].command);
		sm_json_add_u64(k, "runs", keys[i].runs);
		cJSON_AddStringToObject(k, "last_saved_at", keys[i].last);
	}
	free(keys);
	return 0;
}

/* A key's runs as JSON: "results" (every saved result whole, as --json
 * wrote it) and, for time, "runs" (one row per measured run with its
 * figures, older saves included). */
static int key_json(struct sm_hdb *db, const char *key, cJSON *doc, char *err, size_t len)
{
	struct sm_hdb_result *res = NULL;
	struct sm_hdb_row *rows = NULL;
	unsigned n = 0, nrows = 0;
	char cmd[32];
	cJSON *arr;
	int rc;

	if ((rc = sm_hdb_key_command(db, key, cmd, sizeof(cmd), err, len)) ||
	    (rc = sm_hdb_load_results(db, key, &res, &n, err, len)) ||
	    (!strcmp(cmd, "time") && (rc = sm_hdb_load(db, key, &rows, &nrows, err, len))))
		goto out;
	if (!cmd[0]) {
		rc = -ENOENT;
		goto out;
	}
	cJSON_AddStringToObject(doc, "key", key);
	cJSON_AddStringToObject(doc, "command", cmd);
	arr = cJSON_AddArrayToObject(doc, "results");
	for (unsigned i = 0; arr && i < n; i++) {
		cJSON *o = cJSON_CreateObject(), *r = res[i].json ? cJSON_Parse(res[i].json) : NULL;

		if (!o || !r) {
			/* a result that cannot be read is not exported as null: the
			 * run is named and the export fails */
			if (o && !r) {
				snprintf(err, len, "the result of run %lld of key '%s' (saved at %s) cannot be read "
					 "as JSON", (long long)res[i].id, key, res[i].saved_at);
				rc = -EBADMSG;
			} else {
				rc = -ENOMEM;
			}
			cJSON_Delete(o);
			cJSON_Delete(r);
			goto out;
		}
		cJSON_AddItemToArray(arr, o);
		sm_json_add_u64(o, "id", (uint64_t)res[i].id);
		cJSON_AddStringToObject(o, "saved_at", res[i].saved_at);
		cJSON_AddItemToObject(o, "result", r ? r : cJSON_CreateNull());
	}
	if (!strcmp(cmd, "time")) {
		arr = cJSON_AddArrayToObject(doc, "runs");
		for (unsigned i = 0; arr && i < nrows; i++) {
			cJSON *o = cJSON_CreateObject(), *f;

			if (!o)
				break;
			cJSON_AddItemToArray(arr, o);
			sm_json_add_u64(o, "id", (uint64_t)rows[i].id);
			cJSON_AddStringToObject(o, "saved_at", rows[i].saved_at);
			cJSON_AddStringToObject(o, "command", rows[i].command);
			cJSON_AddNumberToObject(o, "exit_code", rows[i].run.exit_code);
			cJSON_AddNumberToObject(o, "signal", rows[i].run.term_signal);
			f = cJSON_AddObjectToObject(o, "figures");
			for (int k = 0; f && k < SM_TF_COUNT; k++)
				if (!(rows[i].run.missing & SM_TF_BIT(k)))
					sm_json_add_double(f, sm_tf_desc[k].key, rows[i].run.v[k]);
		}
	}
out:
	sm_hdb_results_free(res, n);
	free(rows);
	return rc;
}

cJSON *sm_hdb_export(struct sm_hdb *db, const char *path, const char *key, int *rc, char *err, size_t len)
{
	cJSON *doc = cJSON_CreateObject();

	*rc = -ENOMEM;
	if (!doc)
		return NULL;
	sm_json_add_u64(doc, "schema_version", 1);
	cJSON_AddStringToObject(doc, "history", path);
	*rc = key ? key_json(db, key, doc, err, len) : keys_json(db, doc, err, len);
	if (!*rc)
		return doc;
	cJSON_Delete(doc);
	return NULL;
}
