/* SPDX-License-Identifier: MIT */
/* A loaded result read through its command's reader and thrown away: what
 * `stormark report` would refuse, compare and history refuse too. */
#include "result/json_read.h"
#include "result/dist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_time(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_time_result r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = sm_time_from_json(doc, &r, e);

	sm_time_result_release(&r);
	return rc;
}

static int read_run(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_run_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_run_from_json(doc, r, e) : -ENOMEM;

	if (r)
		sm_run_from_json_release(r);
	free(r);
	return rc;
}

static int read_fileio(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_fileio_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_fileio_from_json(doc, r, e) : -ENOMEM;

	if (r)
		sm_fileio_from_json_release(r);
	free(r);
	return rc;
}

static int read_frames(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_frames_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_frames_from_json(doc, r, e) : -ENOMEM;

	if (r)
		sm_frames_from_json_release(r);
	free(r);
	return rc;
}

static int read_streams(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_streams_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_streams_from_json(doc, r, e) : -ENOMEM;

	if (r)
		sm_streams_from_json_release(r);
	free(r);
	return rc;
}

static int read_meta(const cJSON *doc, struct sm_jerr *e)
{
	struct sm_meta_result *r = calloc(1, sizeof(*r));
	int rc = r ? sm_meta_from_json(doc, r, e) : -ENOMEM;

	if (r)
		sm_meta_from_json_release(r);
	free(r);
	return rc;
}

static const struct {
	const char *command;
	int (*read)(const cJSON *doc, struct sm_jerr *e);
} readers[] = {
	{ "time", read_time }, { "run", read_run }, { "fileio", read_fileio },
	{ "frames", read_frames }, { "streams", read_streams },
	{ "meta", read_meta },
};

int sm_json_read_result(const cJSON *doc, struct sm_jerr *e)
{
	const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "command"));
	const cJSON *mpi = cJSON_GetObjectItemCaseSensitive(doc, "mpi");

	if (!cmd)
		return sm_jerr_set(e, "'command' is missing or not a string");
	for (unsigned i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		struct sm_dist_result d;
		int rc;

		if (strcmp(readers[i].command, cmd))
			continue;
		rc = readers[i].read(doc, e);
		if (rc || !mpi)
			return rc;
		rc = sm_dist_from_json(mpi, &d, e);   /* a many-host job's ranks */
		sm_dist_result_release(&d);
		return rc;
	}
	return sm_jerr_set(e, "'%s' is not a command whose results this stormark reads", cmd);
}
