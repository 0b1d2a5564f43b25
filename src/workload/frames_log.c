/* SPDX-License-Identifier: MIT */
/* The per-frame log: each worker formats its lines into its own buffer
 * and appends whole buffers to the file (O_APPEND: writes from several
 * threads do not interleave within a buffer). */
#include "workload/frames_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compiler.h"
#include "core/fsx.h"

#define LOG_BUF (64 * 1024)

/* One worker's buffer. err: -errno of the first failed write; later
 * records are dropped (the run fails with it at the end). */
struct writer {
	struct sm_frames_log *log;
	int fd;
	int err;
	size_t len;
	char buf[LOG_BUF];
};

static void flush(struct writer *w)
{
	/* a short write is continued: the next one says why (EIO, ENOSPC) */
	if (w->len && !w->err) {
		int none = 0;

		w->err = sm_write_all(w->fd, w->buf, w->len, -1, NULL);
		if (w->err)
			atomic_compare_exchange_strong(&w->log->err, &none, w->err);
	}
	w->len = 0;
}

static void *writer_open(struct sm_frames_sink *sink, SM_UNUSED unsigned thread)
{
	struct sm_frames_log *c = sink->ctx;
	struct writer *w = malloc(sizeof(*w));

	if (w) {
		w->log = c;
		w->fd = c->fd;
		w->err = 0;
		w->len = 0;
	}
	return w;
}

static void writer_record(void *arg, const struct sm_frame_record *r)
{
	struct writer *w = arg;
	const struct sm_frames_log_format *fmt = w->log->fmt;
	int n;

	if (w->err)
		return;
	if (w->len + fmt->line_max > LOG_BUF)
		flush(w);
	n = fmt->line(w->buf + w->len, LOG_BUF - w->len, r);
	if (n > 0)
		w->len += (size_t)n < LOG_BUF - w->len ? (size_t)n : LOG_BUF - w->len - 1;
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

int sm_frames_log_open(struct sm_frames_log *c, const char *path,
		       const struct sm_frames_log_format *fmt)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->fmt = fmt;
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
	rc = sm_write_all(c->fd, fmt->header, strlen(fmt->header), -1, NULL);
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

int sm_frames_log_error(struct sm_frames_log *c)
{
	return atomic_load(&c->err);
}

int sm_frames_log_close(struct sm_frames_log *c)
{
	int rc = c->fd >= 0 ? sm_outfile_close(&c->file, atomic_load(&c->err)) : 0;

	c->fd = -1;
	return rc;
}
