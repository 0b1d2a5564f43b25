/* SPDX-License-Identifier: MIT */
/* Helpers shared by the fuzz targets: a fuzz input as a command line, and
 * the parsers' messages kept off the terminal (sanitizer reports still
 * reach file descriptor 2, which is left alone). */
#ifndef SM_FUZZ_UTIL_H
#define SM_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

/* A command line from data: one argument per line (the corpus files are
 * readable that way), argv[0] being the first line. */
struct fuzz_argv {
	char *buf;                      /* the arguments' text, owned */
	char *argv[FUZZ_MAX_ARGS + 1];  /* NULL-terminated, as main() gets it */
	int argc;
};

/* Split data into a->argv. A NUL byte stays inside its argument and so
 * cuts it short, as the kernel would. Returns 0, or -1 out of memory. */
static inline int fuzz_argv_init(struct fuzz_argv *a, const uint8_t *data, size_t size)
{
	char *p;

	memset(a, 0, sizeof(*a));
	a->buf = malloc(size + 1);
	if (!a->buf)
		return -1;
	memcpy(a->buf, data, size);
	a->buf[size] = '\0';
	p = a->buf;
	while (a->argc < FUZZ_MAX_ARGS) {
		char *nl = memchr(p, '\n', (size_t)(a->buf + size - p));

		a->argv[a->argc++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	a->argv[a->argc] = NULL;
	return 0;
}

static inline void fuzz_argv_release(struct fuzz_argv *a)
{
	free(a->buf);
	a->buf = NULL;
}

/* The program name of argv[0] without its directory. */
static inline const char *fuzz_base(const char *arg0)
{
	const char *s = strrchr(arg0, '/');

	return s ? s + 1 : arg0;
}

/* The parsers print a usage error on stderr and the help on stdout: both
 * go to /dev/null while a target runs. stdout is sent there once (libFuzzer
 * does not write to it); stderr only as a stream, swapped in and out around
 * each call, so that libFuzzer's and the sanitizers' reports still show. */
static FILE *fuzz_null;
static FILE *fuzz_saved_err;

static inline void fuzz_quiet_begin(void)
{
	if (!fuzz_null) {
		fuzz_null = fopen("/dev/null", "w");
		if (!fuzz_null || !freopen("/dev/null", "w", stdout))
			abort();
	}
	fuzz_saved_err = stderr;
	stderr = fuzz_null;
}

static inline void fuzz_quiet_end(void)
{
	stderr = fuzz_saved_err;
}

#endif
