/* SPDX-License-Identifier: MIT */
/* The lines of the per-frame CSV log: one per frame record. */
#include "report/frames_csv.h"

#include <stdio.h>
#include <string.h>

const char sm_frames_csv_header[] = "frame,seq,thread,file,start_s,open_ms,io_ms,close_ms,frame_ms,"
				    "bytes,sched_ms,lateness_ms,late,error\n";

/* s as one CSV field (RFC 4180): as is, or in double quotes with each
 * quote doubled when it holds a comma, a quote or a line break, so that a
 * path with a comma stays one column. */
static const char *csv_field(char *buf, size_t len, const char *s)
{
	size_t k = 0;

	if (!strpbrk(s, ",\"\r\n"))
		return s;
	buf[k++] = '"';
	for (; *s && k + 3 < len; s++) {
		if (*s == '"')
			buf[k++] = '"';
		buf[k++] = *s;
	}
	buf[k++] = '"';
	buf[k] = 0;
	return buf;
}

int sm_frames_csv_line(char *buf, size_t len, const struct sm_frame_record *r)
{
	char qpath[2 * PATH_MAX + 3], qerr[256];
	char sched[32] = "", lateness[32] = "";

	if (r->have_sched)
		snprintf(sched, sizeof(sched), "%.3f", (double)r->sched_ns / 1e6);
	if (r->have_lateness)
		snprintf(lateness, sizeof(lateness), "%.3f", (double)r->lateness_ns / 1e6);
	return snprintf(buf, len, "%llu,%llu,%u,%s,%.6f,%.3f,%.3f,%.3f,%.3f,%llu,%s,%s,%d,%s\n",
			(unsigned long long)r->frame, (unsigned long long)r->seq, r->thread,
			csv_field(qpath, sizeof(qpath), r->path),
			(double)r->start_ns / 1e9, (double)r->open_ns / 1e6, (double)r->io_ns / 1e6,
			(double)r->close_ns / 1e6, (double)r->frame_ns / 1e6,
			(unsigned long long)r->bytes, sched, lateness, r->late,
			csv_field(qerr, sizeof(qerr), r->err ? strerror(-r->err) : ""));
}
