/* SPDX-License-Identifier: MIT */
/* stormark history --json: the keys, or one key's saved results whole (and
 * a time key's runs with their figures), as one JSON document
 * (docs/history.md). */
#include "cmd/history.h"
#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "cmd/out_opts.h"
#include "result/json.h"
#include "result/timefig.h"
#include "store/history_db.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The keys as JSON: [{"key", "command", "runs", "last_saved_at"}]. */
static int keys_json(struct sm_hdb *db, const char *path, cJSON *doc)
{
	struct sm_hdb_key *keys = NULL;
	unsigned n = 0;
	char err[256];
	cJSON *arr = cJSON_AddArrayToObject(doc, "keys");

	if (db && sm_hdb_keys(db, &keys, &n, err, sizeof(err))) {
		sm_error("cannot read history database '%s': %s", path, err);
		return SM_EXIT_FAIL;
	}
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
	return SM_EXIT_OK;
}

/* A key's runs as JSON: "results" (every saved result whole, as --json
 * wrote it) and, for time, "runs" (one row per measured run with its
 * figures, older saves included). */
static int key_json(struct sm_hdb *db, const char *path, const char *key, cJSON *doc)
{
	struct sm_hdb_result *res = NULL;
	struct sm_hdb_row *rows = NULL;
	unsigned n = 0, nrows = 0;
	char err[256], cmd[32];
	cJSON *arr;
	int code = SM_EXIT_OK;

	if (sm_hdb_key_command(db, key, cmd, sizeof(cmd), err, sizeof(err)) ||
	    sm_hdb_load_results(db, key, &res, &n, err, sizeof(err)) ||
	    (!strcmp(cmd, "time") && sm_hdb_load(db, key, &rows, &nrows, err, sizeof(err)))) {
		sm_error("cannot read history database '%s': %s", path, err);
		code = SM_EXIT_FAIL;
		goto out;
	}
	if (!cmd[0]) {
		sm_error("no runs saved under key '%s' in '%s'", key, path);
		code = SM_EXIT_FAIL;
		goto out;
	}
	cJSON_AddStringToObject(doc, "key", key);
	cJSON_AddStringToObject(doc, "command", cmd);
	arr = cJSON_AddArrayToObject(doc, "results");
	for (unsigned i = 0; arr && i < n; i++) {
		cJSON *o = cJSON_CreateObject(), *r = cJSON_Parse(res[i].json);

		if (!o) {
			cJSON_Delete(r);
			break;
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
	return code;
}

int sm_cmd_history_export(struct sm_hdb *db, const char *path, const char *key, const char *to)
{
	cJSON *doc = cJSON_CreateObject();
	int code, rc;

	if (!doc) {
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	sm_json_add_u64(doc, "schema_version", 1);
	cJSON_AddStringToObject(doc, "history", path);
	code = key ? key_json(db, path, key, doc) : keys_json(db, path, doc);
	if (!code) {
		rc = sm_json_write(doc, to);
		if (rc) {
			sm_error("cannot write '%s': %s", strcmp(to, "-") ? to : sm_out_stdout_name(),
				 strerror(-rc));
			code = SM_EXIT_FAIL;
		}
	}
	cJSON_Delete(doc);
	return code;
}
