/* SPDX-License-Identifier: MIT */
/* The per-host and per-rank table of a many-host run and its JSON object:
 * pure renderings of struct sm_dist_result. */
#include "report/dist.h"

#include "analysis/dist.h"
#include "report/streams.h"
#include "result/json.h"

#include <stdint.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* The tables' width: every line fits an 80-column terminal. */
#define DIST_WIDTH SM_STREAMS_TEXT_WIDTH

/* The widest of s and w. */
static int wider(int w, const char *s)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

/* Print a row's last cell after column col, two blanks first: on the row
 * while it fits, else on the lines below, wrapped at word ends under
 * column 6. */
static void status_cell(FILE *f, unsigned col, const char *status)
{
	if (col + 2 + strlen(status) <= DIST_WIDTH) {
		fprintf(f, "  %s\n", status);
		return;
	}
	fputc('\n', f);
	sm_streams_wrapf(f, 6, "      %s", status);
}

/* A row's cells as text, made once so the columns can be as wide as
 * their widest cell. */
struct dist_cells {
	char done[24], bytes[24], items[24], rate[24];
};

static void cells(struct dist_cells *c, int reported, uint64_t done_ns, uint64_t bytes, uint64_t items,
		  double bytes_per_s)
{
	if (!reported) {
		strcpy(c->done, "-");
		strcpy(c->bytes, "-");
		strcpy(c->items, "-");
		strcpy(c->rate, "-");
		return;
	}
	snprintf(c->done, sizeof(c->done), "%.3f", (double)done_ns / 1e9);
	snprintf(c->bytes, sizeof(c->bytes), "%llu", (unsigned long long)bytes);
	snprintf(c->items, sizeof(c->items), "%llu", (unsigned long long)items);
	snprintf(c->rate, sizeof(c->rate), "%.2f", bytes_per_s / MIB);
}

/* The host and rank tables: each column as wide as its widest cell, so
 * both fit 80 columns; a host name too long for that stands on a line of
 * its own above its figures (its column then empty). */
static void dist_tables(FILE *f, const struct sm_dist_result *d)
{
	struct dist_cells c;
	char status[320], rk[16];
	int hw = 4, dw = 6, bw = 5, iw = 5, mw = 5, rw = 4, own;

	for (unsigned i = 0; i < d->nhosts; i++) {
		const struct sm_dist_host *h = &d->host[i];

		cells(&c, 1, h->done_ns, h->bytes, h->items, h->bytes_per_s);
		hw = wider(hw, h->host);
		dw = wider(dw, c.done);
		bw = wider(bw, c.bytes);
		mw = wider(mw, c.rate);
	}
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];

		if (!r->listed)
			continue;
		cells(&c, r->reported, r->done_ns, r->bytes, r->items, r->bytes_per_s);
		snprintf(rk, sizeof(rk), "%d", r->rank);
		rw = wider(rw, rk);
		hw = wider(hw, r->host);
		dw = wider(dw, c.done);
		bw = wider(bw, c.bytes);
		iw = wider(iw, c.items);
		mw = wider(mw, c.rate);
	}
	/* the rank row, the wider one: room for "STRAGGLER" after its figures */
	own = 2 + rw + 1 + hw + 2 + dw + 2 + bw + 2 + iw + 2 + mw + 2 + 9 > DIST_WIDTH;
	if (own)
		hw = 4;
	fprintf(f, "  %-*s  %5s  %*s  %*s  %*s  %s\n", hw, "host", "ranks", dw, "done s", bw, "bytes", mw,
		"MiB/s", "status");
	for (unsigned i = 0; i < d->nhosts; i++) {
		const struct sm_dist_host *h = &d->host[i];
		int n;

		cells(&c, 1, h->done_ns, h->bytes, h->items, h->bytes_per_s);
		n = snprintf(status, sizeof(status), "%s", h->straggler ? "STRAGGLER" :
			     h->reported == h->ranks ? "ok" : "");
		if (h->reported != h->ranks)
			snprintf(status + n, sizeof(status) - (size_t)n, "%s%u of %u ranks missing",
				 h->straggler ? ", " : "", h->ranks - h->reported, h->ranks);
		if (own)
			fprintf(f, "  %s\n", h->host);
		n = fprintf(f, "  %-*s  %5u  %*s  %*s  %*s", hw, own ? "" : h->host, h->ranks, dw, c.done, bw,
			    c.bytes, mw, c.rate);
		status_cell(f, (unsigned)n, status);
	}
	fprintf(f, "  %*s %-*s  %*s  %*s  %*s  %*s  %s\n", rw, "rank", hw, "host", dw, "done s", bw, "bytes",
		iw, "items", mw, "MiB/s", "status");
	for (unsigned i = 0; i < d->nranks; i++) {
		const struct sm_dist_rank *r = &d->rank[i];
		int n;

		if (!r->listed)
			continue;
		cells(&c, r->reported, r->done_ns, r->bytes, r->items, r->bytes_per_s);
		if (!r->reported)
			snprintf(status, sizeof(status), "no result: %s", r->error);
		else
			snprintf(status, sizeof(status), "%s%s%s", r->failed ? "failed" : r->straggler ?
				 "STRAGGLER" : r->walled ? "stopped by the stonewall" : "ok",
				 r->failed ? ": " : "", r->failed ? r->error : "");
		if (own)
			fprintf(f, "  %*d %s\n", rw, r->rank, r->host);
		n = fprintf(f, "  %*s %-*s  %*s  %*s  %*s  %*s", rw, own ? "" : (snprintf(rk, sizeof(rk), "%d",
			    r->rank), rk), hw, own ? "" : r->host, dw, c.done, bw, c.bytes, iw, c.items, mw, c.rate);
		status_cell(f, (unsigned)n, status);
	}
}

void sm_dist_text(FILE *f, const struct sm_dist_result *d)
{
	fputc('\n', f);
	fprintf(f, "MPI job: %u rank%s on %u host%s, %u reported\n", sm_dist_size(d),
		sm_dist_size(d) == 1 ? "" : "s", d->nhosts, d->nhosts == 1 ? "" : "s", d->nreported);
	if (d->stonewall)
		fputs("  --stonewall: all stopped when the first was done\n", f);
	if (d->nreported) {
		sm_streams_wrapf(f, 4, "  first done: rank %d at %.3f s; last done at %.3f s (from the start "
				 "barrier)", d->first_rank, (double)d->first_done_ns / 1e9,
				 (double)d->last_done_ns / 1e9);
		sm_streams_wrapf(f, 4, "  aggregate: %.2f MiB/s (all ranks' data over the last done)",
				 d->bytes_per_s / MIB);
		sm_streams_wrapf(f, 4, "  stonewall: %.2f MiB/s (least a rank moved x %u ranks, over the "
				 "first done)", d->stonewall_bytes_per_s / MIB, d->nreported);
	}
	dist_tables(f, d);
	if (d->nlisted < sm_dist_size(d))
		sm_streams_wrapf(f, 4, "  %u of %u ranks listed: the first failed or silent, the slowest "
				 "stragglers, the slowest and the fastest; %u failed, %u sent nothing, %u "
				 "stragglers (every rank: --mpi-rank-detail=FILE)", d->nlisted, sm_dist_size(d),
				 d->nfailed, d->nsilent, d->stragglers);
	if (d->stragglers)
		sm_streams_wrapf(f, 4, "  STRAGGLER: a rate below %.0f%% of the median rank's (%.2f MiB/s)",
				 SM_DIST_STRAGGLER * 100, d->median_bytes_per_s / MIB);
}

cJSON *sm_dist_json(const struct sm_dist_result *d, cJSON **docs)
{
	cJSON *o = cJSON_CreateObject(), *hosts, *ranks;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "ranks_total", sm_dist_size(d));
	cJSON_AddNumberToObject(o, "ranks_reported", d->nreported);
	cJSON_AddNumberToObject(o, "ranks_listed", d->nlisted);
	cJSON_AddNumberToObject(o, "ranks_failed", d->nfailed);
	cJSON_AddNumberToObject(o, "ranks_silent", d->nsilent);
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
		cJSON *x;

		if (!r->listed)
			continue;
		x = cJSON_CreateObject();
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
