/* SPDX-License-Identifier: MIT */
/* The spread of an MPI job's streams over ranks and hosts: text table per
 * answer and its JSON (docs/mpi.md). */
#include "report/streams_mpi.h"

#include "analysis/streams_spread.h"
#include "result/json.h"

static void row(FILE *f, const char *who, const struct sm_streams_share *s, const struct sm_streams_cell *c)
{
	fprintf(f, "    %-28s %8u", who, s->at_n);
	if (c->first_fail)
		fprintf(f, " %10u %10u%s\n", s->at_fail, s->held_at_fail,
			s->held_at_fail < s->at_fail ? "  FAILED HERE" : "");
	else
		fprintf(f, " %10s %10s\n", "-", "-");
}

/* The mix run alone: each rank's and host's streams and how many held. */
static void mix_text(FILE *f, const struct sm_streams_result *res)
{
	const struct sm_streams_mix_share *s = res->mix_share;
	char who[96];

	fprintf(f, "\nThe mix's streams per rank and host (stream i on rank i mod %u):\n", res->ranks);
	fprintf(f, "    %-28s %8s %8s\n", "", "streams", "held");
	for (unsigned j = 0; j < res->ranks + res->nhosts; j++) {
		if (j < res->ranks)
			snprintf(who, sizeof(who), "rank %u (%s)", j, res->hosts[res->rank_host[j]]);
		else
			snprintf(who, sizeof(who), "host %s", res->hosts[j - res->ranks]);
		fprintf(f, "    %-28s %8u %8u%s\n", who, s[j].streams, s[j].held,
			s[j].held < s[j].streams ? "  FAILED HERE" : "");
	}
}

void sm_streams_spread_text(FILE *f, const struct sm_streams_result *res)
{
	char who[96], at_n[24], at_f[24];

	if (res->mix_share)
		mix_text(f, res);
	if (!res->share)
		return;
	fprintf(f, "\nStreams per rank and host (stream i of a step ran on rank i mod %u):\n", res->ranks);
	for (unsigned i = 0; i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];

		if (!c->nsteps)
			continue;
		snprintf(at_n, sizeof(at_n), "at %u", c->max_raw);
		snprintf(at_f, sizeof(at_f), "at %u", c->first_fail);
		fprintf(f, "  %s at %s fps, %s: %u held%s\n", c->format, c->fps_name, sm_direction_name(c->dir),
			c->max_raw, c->first_fail ? "" : " (none failed)");
		fprintf(f, "    %-28s %8s %10s %10s\n", "", at_n, c->first_fail ? at_f : "next", "held");
		for (unsigned r = 0; r < res->ranks; r++) {
			snprintf(who, sizeof(who), "rank %u (%s)", r, res->hosts[res->rank_host[r]]);
			row(f, who, sm_streams_share_of(res, i, r), c);
		}
		for (unsigned h = 0; h < res->nhosts; h++) {
			snprintf(who, sizeof(who), "host %s", res->hosts[h]);
			row(f, who, sm_streams_share_of(res, i, res->ranks + h), c);
		}
	}
}

static cJSON *share_json(const struct sm_streams_share *s)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "streams", s->at_n);
	cJSON_AddNumberToObject(o, "streams_at_first_failed", s->at_fail);
	cJSON_AddNumberToObject(o, "held_at_first_failed", s->held_at_fail);
	return o;
}

/* "mpi"."mix": per rank and host, the mix's streams and how many held. */
static void mix_json(cJSON *mpi, const struct sm_streams_result *res)
{
	cJSON *o = cJSON_AddObjectToObject(mpi, "mix"), *ranks, *hosts;

	if (!o)
		return;
	ranks = cJSON_AddArrayToObject(o, "ranks");
	hosts = cJSON_AddArrayToObject(o, "hosts");
	for (unsigned j = 0; ranks && hosts && j < res->ranks + res->nhosts; j++) {
		cJSON *x = cJSON_CreateObject();

		if (!x)
			return;
		if (j < res->ranks) {
			cJSON_AddNumberToObject(x, "rank", j);
			cJSON_AddStringToObject(x, "host", res->hosts[res->rank_host[j]]);
		} else {
			cJSON_AddStringToObject(x, "host", res->hosts[j - res->ranks]);
		}
		cJSON_AddNumberToObject(x, "streams", res->mix_share[j].streams);
		cJSON_AddNumberToObject(x, "held", res->mix_share[j].held);
		cJSON_AddItemToArray(j < res->ranks ? ranks : hosts, x);
	}
}

void sm_streams_spread_json(cJSON *doc, const struct sm_streams_result *res)
{
	cJSON *mpi = cJSON_GetObjectItemCaseSensitive(doc, "mpi"), *a;

	if (mpi && res->mix_share)
		mix_json(mpi, res);
	if (!res->share || !mpi)
		return;
	a = cJSON_AddArrayToObject(mpi, "streams");
	for (unsigned i = 0; a && i < res->ncells; i++) {
		const struct sm_streams_cell *c = &res->cells[i];
		cJSON *o = cJSON_CreateObject(), *ranks, *hosts;

		if (!o)
			return;
		cJSON_AddStringToObject(o, "format", c->format);
		cJSON_AddStringToObject(o, "fps", c->fps_name);
		cJSON_AddStringToObject(o, "direction", sm_direction_name(c->dir));
		if (c->measured)
			cJSON_AddNumberToObject(o, "max_streams", c->max_raw);
		else   /* no answer (the cell's not_measured says why) */
			cJSON_AddNullToObject(o, "max_streams");
		cJSON_AddNumberToObject(o, "first_failed", c->first_fail);
		ranks = cJSON_AddArrayToObject(o, "ranks");
		for (unsigned r = 0; ranks && r < res->ranks; r++) {
			cJSON *x = share_json(sm_streams_share_of(res, i, r));

			if (x) {
				cJSON_AddNumberToObject(x, "rank", r);
				cJSON_AddStringToObject(x, "host", res->hosts[res->rank_host[r]]);
				cJSON_AddItemToArray(ranks, x);
			}
		}
		hosts = cJSON_AddArrayToObject(o, "hosts");
		for (unsigned h = 0; hosts && h < res->nhosts; h++) {
			cJSON *x = share_json(sm_streams_share_of(res, i, res->ranks + h));

			if (x) {
				cJSON_AddStringToObject(x, "host", res->hosts[h]);
				cJSON_AddItemToArray(hosts, x);
			}
		}
		cJSON_AddItemToArray(a, o);
	}
}
