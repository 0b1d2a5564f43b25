/* SPDX-License-Identifier: MIT */
/* An output file (a report, a JSON or HTML file, a log): what kind of file
 * a path may be, and writing it so that what was there is replaced only by
 * a complete file (docs/options.md, "Output files"). */
#ifndef SM_OUTFILE_H
#define SM_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Why path cannot take an output: it exists and is a block or character
 * device (but /dev/null), a directory, a socket, or a symbolic link that
 * leads to nothing or to one of these. Returns NULL when it is absent, a
 * regular file, a FIFO or /dev/null (whether it can be written is the
 * caller's to check), else the reason, "it is a block device".
 */
const char *sm_outfile_kind_problem(const char *path);

/* One output being written. */
struct sm_outfile {
	int fd;               /* the file being written, -1 when closed */
	char path[4096];      /* where it lands: the path, a symbolic link resolved */
	char tmp[4096];       /* the temporary name beside path it is written under, renamed
			       * to path when complete; "" when written in place (a FIFO,
			       * /dev/null, a file whose directory takes no new file) */
	int no_sync;          /* set after open: the close renames without an fsync first (a
			       * file rewritten each second while a test runs, --live's
			       * metrics, whose syncs would be I/O on the storage measured) */
};

/*
 * Open path for writing. A FIFO or /dev/null is opened as it is; an
 * existing regular file or a new one is written under a new name in the
 * same directory (".NAME.XXXXXX", the existing file's permission bits, a
 * new one's from the umask), so the file named path is untouched until
 * sm_outfile_close() renames the complete file over it. A symbolic link
 * is followed: its target is the file replaced, the link stays. An
 * existing file in a directory where no new file can be created is
 * truncated and written in place. Returns 0, or -errno with nothing
 * created (-EINVAL: a kind sm_outfile_kind_problem() refuses). Until
 * sm_outfile_close(), a SIGINT, SIGTERM or SIGHUP that still has its
 * default action (the process has no handler of its own) removes the
 * temporary file before it ends the process; o must stay where it is.
 */
int sm_outfile_open(struct sm_outfile *o, const char *path);

/*
 * Finish o: close its fd (unless the caller closed it, setting fd to -1,
 * as fclose() of an fdopen()ed stream does) and, when err is 0 and nothing
 * failed, rename the temporary file over the path. When err is not 0 or
 * the close or rename fails, the temporary file is removed and the path
 * keeps what it held. Returns err, else 0 or the -errno that failed.
 */
int sm_outfile_close(struct sm_outfile *o, int err);

/* sm_outfile_open() with a stream over the fd (fully buffered). Returns
 * the stream, or NULL with -errno in *err and nothing created. */
FILE *sm_outfile_fopen(struct sm_outfile *o, const char *path, int *err);

/* Flush and close f, an sm_outfile_fopen() stream, then sm_outfile_close()
 * with err, or with the -errno of a write the stream lost (-EIO when the
 * stream does not say which). Returns as sm_outfile_close(). */
int sm_outfile_fclose(struct sm_outfile *o, FILE *f, int err);

#endif
