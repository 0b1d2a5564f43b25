/* SPDX-License-Identifier: MIT */
/* Frames: checks before anything is created (paths, frames present for a
 * read test, files stormark will not overwrite), file names, the marker. */
#include "workload/frames.h"
#include "core/fsx.h"
#include "core/worker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARKER_TEXT "stormark frames: the frame files here were written by stormark\n"

int sm_frames_path(const struct sm_frames_plan *plan, uint64_t k, char *buf, unsigned len)
{
	int n;

	if (plan->stream)
		n = snprintf(buf, len, "%s", plan->path);
	else if (plan->files_per_dir)
		n = snprintf(buf, len, "%s/d%05llu/frame%06llu.tst", plan->path,
			     (unsigned long long)(k / plan->files_per_dir), (unsigned long long)k);
	else
		n = snprintf(buf, len, "%s/frame%06llu.tst", plan->path, (unsigned long long)k);
	return n < 0 || (unsigned)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- checks before anything is created --------------------------------- */

/* Is path a symbolic link? Then msg names it and -EEXIST (a file in the
 * test area that is not ours); otherwise 0. Nothing inside the test area
 * is followed: the opens use O_NOFOLLOW too, this check gives the reason. */
static int refuse_link(const char *path, char *msg, unsigned len)
{
	struct stat st;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return 0;
	snprintf(msg, len, "'%s' is a symbolic link; not following it", path);
	return -EEXIST;
}

static int has_marker(const char *dir)
{
	char p[PATH_MAX], line[128] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, SM_FRAMES_MARKER);
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return !strncmp(line, MARKER_TEXT, 15);
}

/* Was the existing file at path written by stormark? */
static int ours(const char *path, const struct stat *st, int marker)
{
	char head[16];
	int fd, n;

	if (!S_ISREG(st->st_mode))
		return 0;
	if (st->st_size == 0)
		return marker;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = (int)read(fd, head, sizeof(head));
	close(fd);
	return n == (int)sizeof(head) && sm_buf_has_stamp(head, sizeof(head));
}

static int check_stream(struct sm_frames_plan *p, char *msg, unsigned len)
{
	char dir[PATH_MAX];
	struct stat st;
	int rc;

	rc = sm_is_dir(p->path);
	if (rc == 1) {
		snprintf(msg, len, "'%s' is a directory; a stream test (-s) needs a file", p->path);
		return -EISDIR;
	}
	if (sm_parent_dir(p->path, dir, sizeof(dir)) || sm_is_dir(dir) != 1) {
		snprintf(msg, len, "directory of '%s' does not exist", p->path);
		return -ENOTDIR;
	}
	if (p->kind != SM_FRAMES_READ) {
		if (!stat(p->path, &st) && !ours(p->path, &st, 0)) {
			snprintf(msg, len, "'%s' exists and was not written by stormark; not overwriting it",
				 p->path);
			return -EEXIST;
		}
		return 0;
	}
	if (!p->frame_bytes) {
		snprintf(msg, len, "a stream read test needs the frame size (-z KiB)");
		return -EINVAL;
	}
	if (stat(p->path, &st)) {
		snprintf(msg, len, "cannot read '%s': %s", p->path, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, len, "'%s' is not a regular file", p->path);
		return -EINVAL;
	}
	if (!p->nframes)
		p->nframes = (uint64_t)st.st_size / p->frame_bytes;
	if (!p->nframes || (uint64_t)st.st_size < (p->loop && p->loop < p->nframes ? p->loop : p->nframes) * p->frame_bytes) {
		snprintf(msg, len, "'%s' holds %llu frames of %llu bytes; the test needs %llu",
			 p->path, (unsigned long long)((uint64_t)st.st_size / p->frame_bytes),
			 (unsigned long long)p->frame_bytes, (unsigned long long)p->nframes);
		return -ENODATA;
	}
	return 0;
}

/* Write tests: every file in dir named like a frame of this run must be
 * one stormark wrote. Reads the directory once (cost: what is there, not
 * the number of frames planned). */
static int check_dir_frames(const struct sm_frames_plan *p, const char *dir, uint64_t distinct,
			    int marker, char *msg, unsigned len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!rc && (e = readdir(d))) {
		char path[PATH_MAX];
		unsigned long long k;
		struct stat st;
		int used = 0;

		char canon[64];

		if (sscanf(e->d_name, "frame%llu.tst%n", &k, &used) != 1 || e->d_name[used] != '\0')
			continue;
		snprintf(canon, sizeof(canon), "frame%06llu.tst", k);
		if (strcmp(canon, e->d_name))
			continue;
		if (k >= distinct)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc = refuse_link(path, msg, len);
		if (rc)
			break;
		if (lstat(path, &st) == 0 && !ours(path, &st, marker)) {
			snprintf(msg, len, "'%s' exists and was not written by stormark; not overwriting it",
				 path);
			rc = -EEXIST;
		}
	}
	closedir(d);
	return rc;
}

static int check_existing(const struct sm_frames_plan *p, uint64_t distinct, char *msg,
			  unsigned len)
{
	int marker = has_marker(p->path);
	char dir[PATH_MAX];
	int rc;

	if (!p->files_per_dir)
		return check_dir_frames(p, p->path, distinct, marker, msg, len);
	for (uint64_t d = 0; d * p->files_per_dir < distinct; d++) {
		snprintf(dir, sizeof(dir), "%s/d%05llu", p->path, (unsigned long long)d);
		rc = refuse_link(dir, msg, len);
		if (rc)
			return rc;
		if (sm_is_dir(dir) == 0)
			continue;
		if (sm_is_dir(dir) < 0) {
			snprintf(msg, len, "'%s' exists and is not a directory", dir);
			return -EEXIST;
		}
		rc = check_dir_frames(p, dir, distinct, marker, msg, len);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_sequence(struct sm_frames_plan *p, char *msg, unsigned len)
{
	char path[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	uint64_t distinct;
	int rc;

	rc = sm_is_dir(p->path);
	if (rc == 0) {
		snprintf(msg, len, "directory '%s' does not exist", p->path);
		return -ENOTDIR;
	}
	if (rc < 0) {
		snprintf(msg, len, "'%s' is not a directory (use -s for a single file)", p->path);
		return -ENOTDIR;
	}
	if (p->kind == SM_FRAMES_READ) {
		if (!p->frame_bytes) {
			if (sm_frames_path(p, 0, path, sizeof(path)) || lstat(path, &st)) {
				snprintf(msg, len, "no frames to read in '%s' (frame file '%s' is missing)",
					 p->path, path);
				return -ENOENT;
			}
			p->frame_bytes = (uint64_t)st.st_size;
			if (!p->frame_bytes) {
				snprintf(msg, len, "frame file '%s' is empty", path);
				return -ENODATA;
			}
		}
		if (!p->nframes) {
			while (!sm_frames_path(p, p->nframes, path, sizeof(path)) && !lstat(path, &st))
				p->nframes++;
		}
	}
	distinct = p->loop && p->loop < p->nframes ? p->loop : p->nframes;
	if (p->kind != SM_FRAMES_READ)
		return check_existing(p, distinct, msg, len);
	for (uint64_t k = 0; k < distinct; k++) {
		if (sm_stopped()) {
			snprintf(msg, len, "interrupted while checking the frames");
			return -EINTR;
		}
		if (sm_frames_path(p, k, path, sizeof(path))) {
			snprintf(msg, len, "path of frame %llu is too long", (unsigned long long)k);
			return -ENAMETOOLONG;
		}
		if (p->files_per_dir && k % p->files_per_dir == 0) {
			snprintf(dir, sizeof(dir), "%s/d%05llu", p->path,
				 (unsigned long long)(k / p->files_per_dir));
			rc = refuse_link(dir, msg, len);
			if (rc)
				return rc;
		}
		rc = refuse_link(path, msg, len);
		if (rc)
			return rc;
		if (stat(path, &st)) {
			snprintf(msg, len, "frame file '%s' is missing", path);
			return -ENOENT;
		}
		if ((uint64_t)st.st_size < p->frame_bytes) {
			snprintf(msg, len, "frame file '%s' is shorter (%lld bytes) than a frame (%llu bytes)",
				 path, (long long)st.st_size, (unsigned long long)p->frame_bytes);
			return -ENODATA;
		}
	}
	return 0;
}

int sm_frames_check(struct sm_frames_plan *plan, char *msg, unsigned msglen)
{
	msg[0] = '\0';
	if (!plan->path || !*plan->path) {
		snprintf(msg, msglen, "missing path");
		return -EINVAL;
	}
	if (plan->kind == SM_FRAMES_EMPTY && plan->stream) {
		snprintf(msg, msglen, "-e (empty frames) cannot be combined with -s (stream)");
		return -EINVAL;
	}
	return plan->stream ? check_stream(plan, msg, msglen) : check_sequence(plan, msg, msglen);
}

int sm_frames_mark_dir(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, SM_FRAMES_MARKER);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	if (write(fd, MARKER_TEXT, strlen(MARKER_TEXT)) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

