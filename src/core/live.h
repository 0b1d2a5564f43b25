/* SPDX-License-Identifier: MIT */
/* --live: a long run's figures as it goes, one JSON object a line, each
 * line written whole and at once (docs/options.md, "Watching a run"). */
#ifndef SM_CORE_LIVE_H
#define SM_CORE_LIVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* The stream: a file written in place (a reader follows it as it grows),
 * a FIFO, or standard output. */
struct sm_live {
	int fd;                     /* -1: none */
	int own;                    /* fd is ours to close */
	int failed;                 /* a write failed (a reader gone): no more */
	pthread_mutex_t mu;         /* one line at a time, from any thread */
	uint64_t lines;
	/* Called with each whole line (its newline included), under mu, even
	 * after the stream failed: --live's metrics file (cmd/live_out.h).
	 * NULL: none. */
	void (*mirror)(void *ctx, const char *line, size_t len);
	void *mirror_ctx;
};

/* Open path ("-": standard output, as it is now) for l. A FIFO waits for its reader; a
 * regular file is truncated (or created, 0644 less the umask) and written
 * in place; a symbolic link is not followed. The caller checked the path
 * as an output (args/out_opts.c). Returns 0 or -errno. */
int sm_live_open(struct sm_live *l, const char *path);
void sm_live_close(struct sm_live *l);

/* A line being built: {"command": C, "phase": P, ...}. */
struct sm_live_line {
	char buf[2048];
	size_t n;
	int over;                   /* it did not fit: not written */
};

void sm_live_begin(struct sm_live_line *b, const char *command, const char *phase);
void sm_live_u64(struct sm_live_line *b, const char *key, uint64_t v);
void sm_live_num(struct sm_live_line *b, const char *key, double v);
void sm_live_str(struct sm_live_line *b, const char *key, const char *v);
/* Close the object and write it with its newline in one write(2); a line
 * that could not be written stops the stream (a FIFO's reader gone), the
 * run goes on. l NULL: nothing. */
void sm_live_end(struct sm_live *l, struct sm_live_line *b);

#endif
