/* SPDX-License-Identifier: MIT */
/* --live lines (core/live.h). */
#include "core/live.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sm_live_open(struct sm_live *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->fd = -1;
	pthread_mutex_init(&l->mu, NULL);
	/* a FIFO's reader (or a pipe on standard output) may go away: its
	 * writes then fail (EPIPE) and stop the stream, not the run */
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(path, "-")) {
		/* its own copy: a later -o FILE moves standard output, not it */
		l->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (l->fd < 0)
			return -errno;
		l->own = 1;
		return 0;
	}
	l->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (l->fd < 0)
		return -errno;
	l->own = 1;
	return 0;
}

void sm_live_close(struct sm_live *l)
{
	if (l->own && l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	pthread_mutex_destroy(&l->mu);
}

static void add(struct sm_live_line *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->n, sizeof(b->buf) - b->n, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(b->buf) - b->n - 2)   /* "}\n" still to come */
		b->over = 1;
	else
		b->n += (size_t)n;
}

/* s as a JSON string's contents: quotes, backslashes and control
 * characters escaped */
static void add_escaped(struct sm_live_line *b, const char *s)
{
	for (; *s && !b->over; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			add(b, "\\%c", c);
		else if (c < 0x20)
			add(b, "\\u%04x", c);
		else
			add(b, "%c", c);
	}
}

void sm_live_begin(struct sm_live_line *b, const char *command, const char *phase)
{
	b->n = 0;
	b->over = 0;
	add(b, "{\"command\": \"");
	add_escaped(b, command);
	add(b, "\", \"phase\": \"");
	add_escaped(b, phase ? phase : "");
	add(b, "\"");
}

void sm_live_u64(struct sm_live_line *b, const char *key, uint64_t v)
{
	add(b, ", \"%s\": %llu", key, (unsigned long long)v);
}

void sm_live_num(struct sm_live_line *b, const char *key, double v)
{
	if (isfinite(v))
		add(b, ", \"%s\": %.17g", key, v);
	else
		add(b, ", \"%s\": null", key);
}

void sm_live_str(struct sm_live_line *b, const char *key, const char *v)
{
	add(b, ", \"%s\": \"", key);
	add_escaped(b, v);
	add(b, "\"");
}

void sm_live_end(struct sm_live *l, struct sm_live_line *b)
{
	size_t off = 0;

	if (!l || (l->fd < 0 && !l->mirror) || b->over)
		return;
	b->buf[b->n++] = '}';
	b->buf[b->n++] = '\n';
	pthread_mutex_lock(&l->mu);
	if (l->mirror)
		l->mirror(l->mirror_ctx, b->buf, b->n);
	while (l->fd >= 0 && !l->failed && off < b->n) {
		ssize_t w = write(l->fd, b->buf + off, b->n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			l->failed = 1;
		else
			off += (size_t)w;
	}
	if (l->fd >= 0 && !l->failed)
		l->lines++;
	pthread_mutex_unlock(&l->mu);
}
