/* SPDX-License-Identifier: MIT */
/* --live's lines and its metrics file (cmd/live_out.h). */
#include "cmd/live_out.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/msg.h"
#include "report/openmetrics.h"
#include "result/result.h"

/* The line (its newline last) in the base document, rendered to the file
 * under a new name and renamed over it. No fsync: the next rewrite comes
 * within a second, and the report's own write at the end syncs. */
static void rewrite(void *ctx, const char *line, size_t len)
{
	struct sm_live_out *lo = ctx;
	struct timespec now;
	cJSON *l;
	FILE *f;
	int rc;

	if (lo->failed)
		return;
	l = cJSON_ParseWithLength(line, len);
	if (!l)
		return;   /* out of memory: this interval's file is skipped */
	cJSON_ReplaceItemInObjectCaseSensitive(lo->base, "live", l);
	clock_gettime(CLOCK_REALTIME, &now);
	cJSON_ReplaceItemInObjectCaseSensitive(lo->base, "live_updated",
					       cJSON_CreateNumber((double)now.tv_sec + now.tv_nsec / 1e9));
	f = sm_outfile_fopen(&lo->of, lo->path, &rc);
	if (f) {
		lo->of.no_sync = 1;
		rc = sm_metrics(f, lo->base, lo->prometheus ? SM_METRICS_PROMETHEUS : SM_METRICS_OPENMETRICS);
		rc = sm_outfile_fclose(&lo->of, f, rc);
	}
	if (rc) {
		lo->failed = 1;
		sm_error("warning: --live: cannot rewrite '%s' (%s); the report still goes there at the end", lo->path,
			strerror(-rc));
	}
}

/* The document of the metrics file: the labels the report's will carry
 * (command, --save key from argv, host, dir, device), so that the run's
 * series and its result's are one series. */
static cJSON *base_doc(const char *command, const char *dir, int argc, char **argv)
{
	cJSON *doc = cJSON_CreateObject(), *args, *env, *params;
	struct sm_env e;

	if (!doc)
		return NULL;
	memset(&e, 0, sizeof(e));
	sm_env_collect(&e, dir && *dir ? dir : ".");
	cJSON_AddStringToObject(doc, "command", command);
	args = cJSON_AddArrayToObject(doc, "argv");
	for (int i = 0; args && i < argc; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
	env = cJSON_AddObjectToObject(doc, "environment");
	cJSON_AddStringToObject(env, "host", e.host);
	cJSON_AddStringToObject(env, "device", e.fs.device);
	params = cJSON_AddObjectToObject(doc, "params");
	cJSON_AddStringToObject(params, "dir", dir ? dir : "");
	cJSON_AddObjectToObject(doc, "live");
	cJSON_AddNumberToObject(doc, "live_updated", 0);
	return doc;
}

int sm_live_out_open(struct sm_live_out *lo, const struct sm_out_opts *out, const char *command,
		     const char *dir, int argc, char **argv)
{
	struct stat st;
	int rc;

	memset(lo, 0, sizeof(*lo));
	lo->of.fd = -1;
	rc = sm_live_open(&lo->live, out->live);
	if (rc)
		return rc;
	if ((out->layout != SM_LAYOUT_PROMETHEUS && out->layout != SM_LAYOUT_OPENMETRICS) || !out->output ||
	    !strcmp(out->output, "-"))
		return 0;
	/* a FIFO's reader or /dev/null get the report alone: a rewrite
	 * needs a file to replace */
	if (!stat(out->output, &st) && !S_ISREG(st.st_mode))
		return 0;
	lo->base = base_doc(command, dir, argc, argv);
	if (!lo->base)
		return 0;   /* out of memory: the lines still go */
	lo->path = out->output;
	lo->prometheus = out->layout == SM_LAYOUT_PROMETHEUS;
	lo->live.mirror = rewrite;
	lo->live.mirror_ctx = lo;
	return 0;
}

void sm_live_out_close(struct sm_live_out *lo)
{
	sm_live_close(&lo->live);
	cJSON_Delete(lo->base);
	lo->base = NULL;
}
