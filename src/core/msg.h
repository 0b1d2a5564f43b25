/* SPDX-License-Identifier: MIT */
/* The messages a command prints to the user, one line each on stderr, and
 * the process's exit codes. Only cmd/ (the commands) and mpi/ (a job's
 * ranks) print; a workload, an analysis or a reporter never does. */
#ifndef SM_CORE_MSG_H
#define SM_CORE_MSG_H

#include <stdarg.h>
#include <stddef.h>

#define SM_EXIT_OK 0
#define SM_EXIT_FAIL 1
#define SM_EXIT_USAGE 2

/* The exit code of a run that failed (SM_EXIT_FAIL), else was interrupted
 * (SM_EXIT_INTERRUPTED, 130), else SM_EXIT_OK. */
int sm_exit_code(int failed, int interrupted);

/* Room for a message that quotes a path of PATH_MAX bytes or a long value
 * in full (the printers below shorten it for display). */
#define SM_MSG_MAX 9000

/* Print "<prog>: <message> (try '<help_hint>')" on one line to stderr and
 * return SM_EXIT_USAGE. prog is the name to show ("stormark frames",
 * "frametest", ...). Control characters in the message are escaped (\n,
 * \t, \xHH) and a word over 160 bytes (a long path) is shown by its
 * start and end, so the line stays one line and keeps its reason. */
int sm_usage_error(const char *prog, const char *help_hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print "<prog>: <message>" to stderr as one line, escaped and shortened
 * as by sm_usage_error(), with no help hint (an error that is not a usage
 * error, or one whose exit code the caller picks). */
void sm_prog_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "stormark: <message>" to stderr as one line, escaped and
 * shortened as by sm_usage_error(). */
void sm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* fmt and its arguments into buf[len], then ": " and the text of rc (a
 * -errno): the line a result keeps as its error (head.error). */
void sm_msg_verrno(char *buf, size_t len, int rc, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* src into dst[len] with its control characters shown as messages show
 * them (\n, \t, \xHH), so text read from a saved result cannot move the
 * terminal's cursor or forge a line. Returns 0, or -ENAMETOOLONG when it
 * does not fit (dst then holds what fitted). */
int sm_escape_ctl(char *dst, size_t len, const char *src);

#endif
