/* SPDX-License-Identifier: MIT */
/* The messages commands print: one line each, escaped and shortened. */
#include "core/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/worker.h"

/* A word longer than this is shown by its start and end (a path of 4000
 * bytes would bury the reason that follows it). */
#define WORD_MAX 160
#define WORD_KEEP 64

/* Back up from p to the start of a UTF-8 character (not before lo). */
static const char *char_start(const char *lo, const char *p)
{
	while (p > lo && ((unsigned char)*p & 0xc0) == 0x80)
		p--;
	return p;
}

/* c as it is shown: itself, or \n, \t, \xHH for a control character.
 * Returns the length written to out (at most 4, NUL-terminated). */
static size_t esc_char(unsigned char c, char out[5])
{
	if (c == '\n')
		return (size_t)snprintf(out, 5, "\\n");
	if (c == '\t')
		return (size_t)snprintf(out, 5, "\\t");
	if (c < 0x20 || c == 0x7f)
		return (size_t)snprintf(out, 5, "\\x%02x", c);
	out[0] = (char)c;
	out[1] = '\0';
	return 1;
}

/* Write s[0..n) with control characters escaped, so that a newline or an
 * escape sequence in a user's path cannot split or forge the line. */
static void put_escaped(const char *s, size_t n)
{
	char e[5];

	for (size_t i = 0; i < n; i++) {
		esc_char((unsigned char)s[i], e);
		fputs(e, stderr);
	}
}

void sm_msg_verrno(char *buf, size_t len, int rc, const char *fmt, va_list ap)
{
	size_t n;

	vsnprintf(buf, len, fmt, ap);
	n = strlen(buf);
	snprintf(buf + n, len - n, ": %s", strerror(-rc));
}

int sm_escape_ctl(char *dst, size_t len, const char *src)
{
	size_t n = 0;
	char e[5];

	if (!len)
		return -ENAMETOOLONG;
	for (; *src; src++) {
		size_t k = esc_char((unsigned char)*src, e);

		if (n + k >= len) {
			dst[n] = '\0';
			return -ENAMETOOLONG;
		}
		memcpy(dst + n, e, k);
		n += k;
	}
	dst[n] = '\0';
	return 0;
}

/* Print msg and a newline to stderr as exactly one line: escaped, and
 * each over-long word cut to its start and end around "...". */
static void put_line(const char *msg)
{
	const char *p = msg;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n > WORD_MAX) {
			const char *head = char_start(p, p + WORD_KEEP);
			const char *tail = char_start(p + n - WORD_KEEP, p + n - WORD_KEEP);

			put_escaped(p, (size_t)(head - p));
			fputs("...", stderr);
			put_escaped(tail, (size_t)(p + n - tail));
		} else {
			put_escaped(p, n);
		}
		p += n;
		if (*p)
			fputc(*p++, stderr);
	}
	fputc('\n', stderr);
}

/* Compose prefix, the message and suffix, and print them with put_line(). */
static void print_msg(const char *prefix, const char *suffix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void print_msg(const char *prefix, const char *suffix, const char *fmt, va_list ap)
{
	char *body = NULL, *line = NULL;

	if (vasprintf(&body, fmt, ap) < 0)
		body = NULL;
	if (!body || asprintf(&line, "%s%s%s", prefix, body, suffix) < 0)
		line = NULL;
	put_line(line ? line : body ? body : fmt);
	free(line);
	free(body);
}

int sm_usage_error(const char *prog, const char *help_hint, const char *fmt, ...)
{
	char prefix[128], suffix[160] = "";
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s: ", prog);
	if (help_hint && *help_hint)
		snprintf(suffix, sizeof(suffix), " (try '%s')", help_hint);
	va_start(ap, fmt);
	print_msg(prefix, suffix, fmt, ap);
	va_end(ap);
	return SM_EXIT_USAGE;
}

void sm_prog_error(const char *prog, const char *fmt, ...)
{
	char prefix[128];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s: ", prog);
	va_start(ap, fmt);
	print_msg(prefix, "", fmt, ap);
	va_end(ap);
}

void sm_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_msg("stormark: ", "", fmt, ap);
	va_end(ap);
}

int sm_exit_code(int failed, int interrupted)
{
	return failed ? SM_EXIT_FAIL : interrupted ? SM_EXIT_INTERRUPTED : SM_EXIT_OK;
}
