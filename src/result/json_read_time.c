/* SPDX-License-Identifier: MIT */
/* Reading a saved `stormark time` result back (the document of
 * sm_time_json()). */
#include "result/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int read_run(const cJSON *o, struct sm_time_run *run, struct sm_jerr *e)
{
	int rc = 0;

	memset(run, 0, sizeof(*run));
	rc |= sm_jget_int(o, "exit_code", &run->exit_code, e);
	rc |= sm_jget_int(o, "signal", &run->term_signal, e);
	for (int i = 0; i < SM_TF_COUNT && !rc; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, sm_tf_desc[i].key);

		if (cJSON_IsNull(v))
			run->missing |= SM_TF_BIT(i);
		else if (sm_jget_double(o, sm_tf_desc[i].key, &run->v[i], e))
			rc = -EINVAL;
		else if (!isfinite(run->v[i]) || run->v[i] < 0)   /* no measure is negative */
			rc = sm_jerr_set(e, "'%s' is not a figure >= 0", sm_tf_desc[i].key);
	}
	return rc ? -EINVAL : 0;
}

int sm_time_from_json(const cJSON *doc, struct sm_time_result *r, struct sm_jerr *e)
{
	const cJSON *params, *t, *cmd, *runs, *disk, *it;
	struct sm_time_run *rv;
	double ended;
	char *prepare;
	int rc;

	memset(r, 0, sizeof(*r));
	r->owned = 1;
	rc = sm_json_read_head(doc, &r->head, e);
	if (rc)
		return rc;
	params = sm_jget_obj(doc, "params", e);
	t = sm_jget_obj(doc, "time", e);
	cmd = sm_jget_arr(params, "command", e);
	runs = sm_jget_arr(t, "runs", e);
	if (!params || !t || !cmd || !runs)
		return -EINVAL;
	rc |= sm_jget_bool(params, "shell", &r->shell, e);
	rc |= sm_jget_strdup(params, "prepare", &prepare, e);
	r->prepare = prepare;
	rc |= sm_jget_uint(params, "warmup", &r->warmup, e);
	rc |= sm_jget_uint(params, "runs_requested", &r->runs_requested, e);
	rc |= sm_jget_str(t, "syscalls_missing_reason", r->syscalls_why, sizeof(r->syscalls_why), e);
	rc |= sm_jget_str(t, "flush_calls_missing_reason", r->flush_why, sizeof(r->flush_why), e);
	rc |= sm_jget_str(t, "disk_missing_reason", r->disk_why, sizeof(r->disk_why), e);
	/* absent from results saved before max RSS could be missing */
	if (cJSON_GetObjectItemCaseSensitive(t, "max_rss_missing_reason"))
		rc |= sm_jget_str(t, "max_rss_missing_reason", r->rss_why, sizeof(r->rss_why), e);
	rc |= sm_jget_double(t, "ended_at_unix_s", &ended, e);
	if (rc)
		return -EINVAL;
	r->exit_time = (time_t)ended;
	disk = cJSON_GetObjectItemCaseSensitive(t, "disk");
	if (cJSON_IsObject(disk)) {
		r->disk_ok = 1;
		rc |= sm_jget_str(disk, "device", r->disk.name, sizeof(r->disk.name), e);
		rc |= sm_jget_uint(disk, "major", &r->disk.major, e);
		rc |= sm_jget_uint(disk, "minor", &r->disk.minor, e);
	} else if (!cJSON_IsNull(disk)) {
		return sm_jerr_set(e, "'disk' is missing or not an object or null");
	}
	r->cmd_argv = calloc((size_t)cJSON_GetArraySize(cmd) + 1, sizeof(char *));
	rv = calloc((size_t)cJSON_GetArraySize(runs) + 1, sizeof(*rv));
	r->runs = rv;
	if (!r->cmd_argv || !rv)
		return -ENOMEM;
	cJSON_ArrayForEach(it, cmd) {
		if (!cJSON_IsString(it))
			return sm_jerr_set(e, "'command' holds something other than strings");
		r->cmd_argv[r->cmd_argc] = strdup(it->valuestring);
		if (!r->cmd_argv[r->cmd_argc])
			return -ENOMEM;
		r->cmd_argc++;
	}
	cJSON_ArrayForEach(it, runs) {
		rc = read_run(it, &rv[r->nruns], e);
		if (rc)
			return rc;
		r->nruns++;
	}
	return rc ? -EINVAL : 0;
}
