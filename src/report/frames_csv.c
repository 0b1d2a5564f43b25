/* SPDX-License-Identifier: MIT */
/* The per-frame CSV log: each worker formats its lines into its own buffer
 * and appends whole buffers to the file (O_APPEND: writes from several
 * threads do not interleave within a buffer). */
#include "report/frames_csv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compiler.h"
#include "core/fsx.h"

#define CSV_BUF (64 * 1024)
#define CSV_LINE_MAX (2 * PATH_MAX + 512)   /* a quoted path and a dozen numbers */

static const char header[] = "frame,seq,thread,file,start_s,open_ms,io_ms,close_ms,frame_ms,"
			     "bytes,sched_ms,lateness_ms,late,error\n";

/* One worker's buffer. err: -errno of the first failed write; later
 * records are dropped (the run fails with it at the end). */
struct writer {
	struct sm_frames_csv *csv;
	int fd;
	int err;
	size_t len;
	char buf[CSV_BUF];
};

static void flush(struct writer *w)
{
	/* a short write is continued: the next one says why (EIO, ENOSPC) */
	if (w->len && !w->err) {
		int none = 0;

		w->err = sm_write_all(w->fd, w->buf, w->len, -1, NULL);
		if (w->err)
			atomic_compare_exchange_strong(&w->csv->err, &none, w->err);
	}
	w->len = 0;
}

static void *writer_open(struct sm_frames_sink *sink, SM_UNUSED unsigned thread)
{
	struct sm_frames_csv *c = sink->ctx;
	struct writer *w = malloc(sizeof(*w));

	if (w) {
		w->csv = c;
		w->fd = c->fd;
		w->err = 0;
		w->len = 0;
	}
	return w;
}

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

static void writer_record(void *arg, const struct sm_frame_record *r)
{
	char qpath[2 * PATH_MAX + 3], qerr[256];
	struct writer *w = arg;
	char sched[32] = "", lateness[32] = "";
	int n;

	if (w->err)
		return;
	if (r->have_sched)
		snprintf(sched, sizeof(sched), "%.3f", (double)r->sched_ns / 1e6);
	if (r->have_lateness)
		snprintf(lateness, sizeof(lateness), "%.3f", (double)r->lateness_ns / 1e6);
	if (w->len + CSV_LINE_MAX > CSV_BUF)
		flush(w);
	n = snprintf(w->buf + w->len, CSV_BUF - w->len,
		     "%llu,%llu,%u,%s,%.6f,%.3f,%.3f,%.3f,%.3f,%llu,%s,%s,%d,%s\n",
		     (unsigned long long)r->frame, (unsigned long long)r->seq, r->thread,
		     csv_field(qpath, sizeof(qpath), r->path),
		     (double)r->start_ns / 1e9, (double)r->open_ns / 1e6, (double)r->io_ns / 1e6,
		     (double)r->close_ns / 1e6, (double)r->frame_ns / 1e6,
		     (unsigned long long)r->bytes, sched, lateness, r->late,
		     csv_field(qerr, sizeof(qerr), r->err ? strerror(-r->err) : ""));
	if (n > 0)
		w->len += (size_t)n < CSV_BUF - w->len ? (size_t)n : CSV_BUF - w->len - 1;
}

static int writer_close(void *arg)
{
	struct writer *w = arg;
	int err;

	flush(w);
	err = w->err;
	free(w);
	return err;
}

int sm_frames_csv_open(struct sm_frames_csv *c, const char *path)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	snprintf(c->path, sizeof(c->path), "%s", path);
	rc = sm_outfile_open(&c->file, path);
	if (rc)
		return rc;
	c->fd = c->file.fd;
	/* every thread's whole lines go to the end, none over another's */
	if (fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_APPEND) < 0) {
		rc = -errno;
		goto fail;
	}
	rc = sm_write_all(c->fd, header, sizeof(header) - 1, -1, NULL);
	if (rc)
		goto fail;
	c->sink.name = c->path;
	c->sink.open = writer_open;
	c->sink.record = writer_record;
	c->sink.close = writer_close;
	c->sink.ctx = c;
	return 0;
fail:
	sm_outfile_close(&c->file, rc);
	c->fd = -1;
	return rc;
}

int sm_frames_csv_error(struct sm_frames_csv *c)
{
	return atomic_load(&c->err);
}

int sm_frames_csv_close(struct sm_frames_csv *c)
{
	int rc = c->fd >= 0 ? sm_outfile_close(&c->file, atomic_load(&c->err)) : 0;

	c->fd = -1;
	return rc;
}
