/* SPDX-License-Identifier: MIT */
/* Messages shared by the commands. */
#include "cmd/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/out_opts.h"
#include "core/memcheck.h"
#include "core/fsx.h"
#include "core/opt.h"

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

/* Write s[0..n) with control characters escaped, so that a newline or an
 * escape sequence in a user's path cannot split or forge the line. */
static void put_escaped(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", stderr);
		else if (c == '\t')
			fputs("\\t", stderr);
		else if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
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

int sm_cmd_parse(const char *prog, const char *help_hint, const struct sm_opt *opts, int argc,
		 char **argv, unsigned flags, int *first,
		 void (*usage)(FILE *f, const struct sm_opt *opts))
{
	char msg[SM_MSG_MAX];
	int rc = sm_opt_parse(opts, argc, argv, flags, first, msg, sizeof(msg));

	if (rc == SM_OPT_LIST_CODE) {
		sm_opt_list(stdout, opts, 0);
		return SM_EXIT_OK;
	}
	if (rc > 0) {
		usage(stdout, opts);
		return SM_EXIT_OK;
	}
	if (rc)
		return sm_usage_error(prog, help_hint, "%s", msg);
	return -1;
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

const char *sm_path_problem(const char *path)
{
	const char *p = path;

	if (!*path)
		return "is empty";
	if (strlen(path) >= PATH_MAX)
		return "is longer than the system allows (PATH_MAX, 4096 bytes)";
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n > NAME_MAX)
			return "has a name longer than the system allows (NAME_MAX, 255 bytes)";
		p += n;
		p += strspn(p, "/");
	}
	return NULL;
}

int sm_dir_check_writable(const char *dir)
{
	/* access() also says EROFS for root, who may write anywhere else */
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

int sm_out_finish(const char *prog, int code)
{
	int err;

	errno = 0;
	err = fflush(stdout) == EOF || ferror(stdout);
	/* close too: a file system may report a lost write only at close */
	if (fclose(stdout) == EOF)
		err = 1;
	if (!err)
		return code;
	sm_prog_error(prog, "cannot write the report to %s: %s", sm_out_stdout_name(),
		      errno ? strerror(errno) : "write error");
	return code == SM_EXIT_OK ? SM_EXIT_FAIL : code;
}

int sm_check_memory(const char *prog, uint64_t need, const char *what)
{
	char msg[600];

	if (!sm_mem_check(need, what, msg, sizeof(msg)))
		return 0;
	sm_prog_error(prog, "%s", msg);   /* one line, as every usage error */
	return SM_EXIT_USAGE;
}

const char *sm_root_refusal(const char *dir)
{
	static char msg[PATH_MAX + 200];
	char *real;
	int root;

	if (sm_fs_root(dir) <= 0)
		return NULL;
	real = realpath(dir, NULL);
	root = real && !strcmp(real, "/");
	snprintf(msg, sizeof(msg), root
		 ? "'%s' is the root directory; test files there would sit among the system's own: "
		   "choose a directory under it, or add --force"
		 : "'%s' is the root of a file system (a mount point); test files there would sit "
		   "among everything else on it: choose a directory under it, or add --force", dir);
	free(real);
	return msg;
}
