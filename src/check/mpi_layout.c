/* SPDX-License-Identifier: MIT */
/* The host and rank table an MPI job's text layouts end with (report/dist.c),
 * against the document's "mpi" object. */
#include "check/body.h"

#include <stdio.h>
#include <string.h>

void ck_lay_mpi(struct ck_lay *L)
{
	const cJSON *m = ck_at(L->doc, "mpi"), *it;
	struct ck_shown s[8];
	const char *at, *was = L->id;
	int n;

	if (!cJSON_IsObject(m) || ck_lay_nums(L, NULL, "MPI job:", 1, s, 8, &at) < 0)
		return;
	L->id = "mpi.text";
	n = ck_lay_nums(L, at, "first done: rank", 0, s, 8, NULL);
	if (n >= 3) {
		ck_lay_path(L, "first done: rank", &s[0], "mpi.first_done_rank", 1);
		ck_lay_path(L, "first done: ... at", &s[1], "mpi.first_done_ns", 1);
		ck_lay_path(L, "last done at", &s[2], "mpi.last_done_ns", 1);
	}
	if (ck_lay_nums(L, at, "aggregate:", 0, s, 8, NULL) >= 1)
		ck_lay_path(L, "aggregate:", &s[0], "mpi.bytes_per_s", 1);
	if (ck_lay_nums(L, at, "stonewall:", 0, s, 8, NULL) >= 1)
		ck_lay_path(L, "stonewall:", &s[0], "mpi.stonewall_bytes_per_s", 1);
	/* a host's row: ranks, done s, bytes, MiB/s */
	cJSON_ArrayForEach(it, ck_at(m, "hosts")) {
		const char *h = ck_str(it, "host"), *row;
		char label[64];

		if (!h || strlen(h) > 24)
			continue;
		snprintf(label, sizeof(label), "%s ", h);
		row = ck_line(L->text, at, label);
		if (row && ck_numbers(row, s, 8) >= 4) {
			double v;

			snprintf(label, sizeof(label), "host %s", h);
			if (ck_num(it, "ranks", &v))
				ck_lay_val(L, label, &s[0], "its ranks", v);
			if (ck_num(it, "done_ns", &v))
				ck_lay_val(L, label, &s[1], "its done_ns / 1e9", v / 1e9);
			if (ck_num(it, "bytes", &v))
				ck_lay_val(L, label, &s[2], "its bytes", v);
			if (ck_num(it, "bytes_per_s", &v))
				ck_lay_val(L, label, &s[3], "its bytes_per_s / 2^20", v / 1048576.0);
		}
	}
	L->id = was;
}
