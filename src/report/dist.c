/* SPDX-License-Identifier: MIT */
/* The per-host and per-rank table of a many-host run and its JSON object:
 * pure renderings of struct sm_dist_result. */
#include "report/dist.h"

#include "analysis/dist.h"
#include "result/json.h"

#define MIB (1024.0 * 1024.0)

void sm_dist_text(FILE *f, const struct sm_dist_result *d)
{
	fprintf(f, "\nMPI job: %u rank%s on %u host%s, %u reported%s\n", d->nranks, d->nranks == 1 ? "" : "s",
		d->nhosts, d->nhosts == 1 ? "" : "s", d->nreported,
		d->stonewall ? "; stonewall: all stopped when the first was done" : "");
	if (d->nreported) {
		fprintf(f, "  first done: rank %d at %.3f s; last done at %.3f s (from the start barrier)\n",
			d->first_rank, (double)d->first_done_ns / 1e9, (double)d->last_done_ns / 1e9);
		fprintf(f, "  aggregate: %.2f MiB/s (all ranks' data over the last done)\n", d->bytes_per_s / MIB);
		fprintf(f, "  stonewall: %.2f MiB/s (the least a rank moved x %u ranks, over the first done)\n",
			d->stonewall_bytes_per_s / MIB, d->nreported);
	}
	fprintf(f, "  %-24s %5s %9s %14s %10s  %s\n", "host", "ranks", "done s", "bytes", "MiB/s", "status");
	for (unsigned i = 0; i < d->nhosts; i++) {
		const struct sm_dist_host *h = &d->host[i];

		fprintf(f, "  %-24s %5u %9.3f %14llu %10.2f  %s", h->host, h->ranks, (double)h->done_ns / 1e9,
			(unsigned long long)h->bytes, h->bytes_per_s / MIB,
			h->straggler ? "STRAGGLER" : h->reported == h->ranks ? "ok" : "");
		if (h->reported != h->ranks)
			fprintf(f, "%s%u of %u ranks missing", h->straggler ? ", " : "", h->ranks - h->reported,
				h->ranks);
		fputc('\n', f);
	}
	fprintf(f, "  %5s %-18s %9s %14s %12s %10s  %s\n", "rank", "host", "done s", "bytes", "items", "MiB/s",
		"status");
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];

		if (!r->reported) {
			fprintf(f, "  %5d %-18s %9s %14s %12s %10s  no result: %s\n", r->rank, r->host, "-", "-",
				"-", "-", r->error);
			continue;
		}
		fprintf(f, "  %5d %-18s %9.3f %14llu %12llu %10.2f  %s%s%s\n", r->rank, r->host,
			(double)r->done_ns / 1e9, (unsigned long long)r->bytes, (unsigned long long)r->items,
			r->bytes_per_s / MIB, r->failed ? "failed" : r->straggler ? "STRAGGLER" :
			r->walled ? "stopped by the stonewall" : "ok",
			r->failed ? ": " : "", r->failed ? r->error : "");
	}
	if (d->stragglers)
		fprintf(f, "  STRAGGLER: a rate below %.0f%% of the median rank's (%.2f MiB/s)\n",
			SM_DIST_STRAGGLER * 100, d->median_bytes_per_s / MIB);
}

cJSON *sm_dist_json(const struct sm_dist_result *d, cJSON **docs)
{
	cJSON *o = cJSON_CreateObject(), *hosts, *ranks;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "ranks_total", d->nranks);
	cJSON_AddNumberToObject(o, "ranks_reported", d->nreported);
	cJSON_AddBoolToObject(o, "stonewall", d->stonewall);
	cJSON_AddNumberToObject(o, "first_done_rank", d->first_rank);
	sm_json_add_u64(o, "first_done_ns", d->first_done_ns);
	sm_json_add_u64(o, "last_done_ns", d->last_done_ns);
	sm_json_add_u64(o, "bytes", d->bytes);
	sm_json_add_u64(o, "min_rank_bytes", d->min_bytes);
	sm_json_add_double(o, "bytes_per_s", d->bytes_per_s);
	sm_json_add_double(o, "stonewall_bytes_per_s", d->stonewall_bytes_per_s);
	sm_json_add_double(o, "median_rank_bytes_per_s", d->median_bytes_per_s);
	sm_json_add_double(o, "straggler_below", SM_DIST_STRAGGLER);
	cJSON_AddNumberToObject(o, "stragglers", d->stragglers);
	hosts = cJSON_AddArrayToObject(o, "hosts");
	for (unsigned i = 0; hosts && i < d->nhosts; i++) {
		const struct sm_dist_host *h = &d->host[i];
		cJSON *x = cJSON_CreateObject();

		if (!x)
			break;
		cJSON_AddStringToObject(x, "host", h->host);
		cJSON_AddNumberToObject(x, "ranks", h->ranks);
		cJSON_AddNumberToObject(x, "ranks_reported", h->reported);
		sm_json_add_u64(x, "bytes", h->bytes);
		sm_json_add_u64(x, "items", h->items);
		sm_json_add_u64(x, "done_ns", h->done_ns);
		sm_json_add_double(x, "bytes_per_s", h->bytes_per_s);
		cJSON_AddBoolToObject(x, "straggler", h->straggler);
		cJSON_AddItemToArray(hosts, x);
	}
	ranks = cJSON_AddArrayToObject(o, "ranks");
	for (unsigned i = 0; ranks && i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];
		cJSON *x = cJSON_CreateObject();

		if (!x)
			break;
		cJSON_AddNumberToObject(x, "rank", r->rank);
		cJSON_AddStringToObject(x, "host", r->host);
		cJSON_AddBoolToObject(x, "reported", r->reported);
		cJSON_AddBoolToObject(x, "failed", r->failed);
		cJSON_AddBoolToObject(x, "stonewalled", r->walled);
		if (r->error[0])
			cJSON_AddStringToObject(x, "error", r->error);
		sm_json_add_u64(x, "done_ns", r->done_ns);
		sm_json_add_u64(x, "bytes", r->bytes);
		sm_json_add_u64(x, "items", r->items);
		sm_json_add_double(x, "bytes_per_s", r->bytes_per_s);
		cJSON_AddBoolToObject(x, "straggler", r->straggler);
		if (docs && docs[i]) {
			/* its numbers as the rank printed them, not as cJSON
			 * prints what it parsed */
			sm_json_renumber(docs[i]);
			cJSON_AddItemToObject(x, "result", docs[i]);
			docs[i] = NULL;
		} else {
			cJSON_AddNullToObject(x, "result");
		}
		cJSON_AddItemToArray(ranks, x);
	}
	return o;
}
