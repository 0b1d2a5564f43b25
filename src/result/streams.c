/* SPDX-License-Identifier: MIT */
/* Releasing a streams result, and finding its cells by format and rate. */
#include "result/streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sm_streams_step_release(struct sm_streams_step *st)
{
	free(st->streams);
	free(st->mix_streams);
	free(st->mix_groups);
	st->streams = st->mix_streams = NULL;
	st->mix_groups = NULL;
}

const char *sm_streams_kind_name(int sequence)
{
	return sequence ? "sequence" : "file";
}

void sm_streams_group_name(const struct sm_streams_group *g, char *buf, size_t len)
{
	snprintf(buf, len, "%ux%s@%s:%s", g->count, g->format, g->fps_name,
		 g->dir == SM_DIR_CAPTURE ? "capture" : "play");
}

void sm_streams_result_release(struct sm_streams_result *res)
{
	for (unsigned i = 0; i < res->ncells; i++) {
		struct sm_streams_cell *c = &res->cells[i];

		for (unsigned k = 0; k < c->nsteps; k++)
			sm_streams_step_release(&c->steps[k]);
		free(c->steps);
	}
	sm_streams_step_release(&res->mix.step);
	free(res->mix.groups);
	free(res->mix.sec_bytes);
	memset(&res->mix, 0, sizeof(res->mix));
	free(res->mix_share);
	res->mix_share = NULL;
	free(res->cells);
	res->cells = NULL;
	res->ncells = 0;
	free(res->hosts);
	free(res->rank_host);
	free(res->share);
	res->hosts = NULL;
	res->rank_host = NULL;
	res->share = NULL;
	sm_result_head_release(&res->head);
}

const char *sm_streams_confirm_name(enum sm_streams_confirm s)
{
	switch (s) {
	case SM_CONFIRM_RAN:
		return "ran";
	case SM_CONFIRM_NO_TIME:
		return "no_time";
	case SM_CONFIRM_FAILED:
		return "failed";
	case SM_CONFIRM_NO_ROOM:
		return "no_room";
	default:
		return "";
	}
}

const struct sm_streams_cell *sm_streams_find_cell(const struct sm_streams_result *res, const char *fmt,
						   const char *fps, enum sm_direction d)
{
	for (unsigned i = 0; i < res->ncells; i++)
		if (!strcmp(res->cells[i].format, fmt) && !strcmp(res->cells[i].fps_name, fps) &&
		    res->cells[i].dir == d)
			return &res->cells[i];
	return NULL;
}

unsigned sm_streams_distinct(const struct sm_streams_result *res, int rates, const char **out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < res->ncells; i++) {
		const char *v = rates ? res->cells[i].fps_name : res->cells[i].format;
		unsigned k = 0;

		while (k < n && strcmp(out[k], v))
			k++;
		if (k == n && n < max)
			out[n++] = v;
	}
	return n;
}
