/* SPDX-License-Identifier: MIT */
/* Frames: checks before anything is created (paths, frames present for a
 * read test, files stormark will not overwrite: ownership by each frame's
 * header), file names. */
#include "workload/frames_int.h"
#include "core/fsx.h"
#include "core/seal.h"
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

/* Does the open file fd start with a valid frame header for frame k?
 * The first header seen fixes the directory id (*id, *have_id); later
 * frames must carry the same one. Returns 1 or 0. */
static int header_ok(int fd, uint64_t k, uint64_t *id, int *have_id)
{
	unsigned char head[SM_FRAME_HDR_LEN];
	struct sm_frame_hdr h;

	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    sm_frame_hdr_get(head, sizeof(head), &h) || h.index != k)
		return 0;
	if (*have_id)
		return h.dir_id == *id;
	*id = h.dir_id;
	*have_id = 1;
	return 1;
}

/* May a write test of plan p reopen the existing file at path as frame k
 * (st: its lstat)? Yes for a frame whose header says it is stormark's
 * frame k of this directory; for an empty test (-e, which writes nothing
 * and does not truncate) any empty regular file; under the frametest name
 * (p->frametest_frames) also a regular file of exactly the frame size, as
 * frametest would. Returns 1 or 0. */
static int reusable(const struct sm_frames_plan *p, const char *path, const struct stat *st,
		    uint64_t k, uint64_t *id, int *have_id)
{
	int fd, ok;

	if (!S_ISREG(st->st_mode))
		return 0;
	if (p->kind == SM_FRAMES_EMPTY && st->st_size == 0)
		return 1;
	if (p->frametest_frames && p->kind != SM_FRAMES_EMPTY && (uint64_t)st->st_size == p->frame_bytes)
		return 1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = header_ok(fd, k, id, have_id);
	close(fd);
	return ok;
}

/* May a stream write reuse the existing file open at fd (st: its fstat)?
 * Yes when its first frame's header is stormark's frame 0 or, under the
 * frametest name, when it is a regular file of whole frames. */
static int stream_reusable(const struct sm_frames_plan *p, int fd, const struct stat *st,
			   uint64_t *id, int *have_id)
{
	if (!S_ISREG(st->st_mode))
		return 0;
	if (p->frametest_frames && p->frame_bytes && st->st_size &&
	    (uint64_t)st->st_size % p->frame_bytes == 0)
		return 1;
	return header_ok(fd, 0, id, have_id);
}

static void stream_refuse_msg(const struct sm_frames_plan *p, char *msg, unsigned len)
{
	if (p->frametest_frames)
		snprintf(msg, len, "'%s' exists and is neither a stream of %llu-byte frames nor one stormark wrote; not overwriting it",
			 p->path, (unsigned long long)p->frame_bytes);
	else
		snprintf(msg, len, "'%s' exists and was not written by stormark; not overwriting it",
			 p->path);
}

/* The one-line refusal of the existing file path. */
static void refuse_msg(const struct sm_frames_plan *p, const char *path, char *msg, unsigned len)
{
	if (p->frametest_frames)
		snprintf(msg, len, "'%s' exists and is neither a frame of %llu bytes nor one stormark wrote; not overwriting it",
			 path, (unsigned long long)p->frame_bytes);
	else
		snprintf(msg, len, "'%s' exists and was not written by stormark; not overwriting it", path);
}

int sm_frames_claim_stream(const struct sm_frames_plan *p, uint64_t *id, int *have_id,
			   dev_t *dev, ino_t *ino, char *msg, unsigned len)
{
	struct stat st;
	int fd, ok, err;

	fd = open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		fstat(fd, &st);
		close(fd);
		*dev = st.st_dev;
		*ino = st.st_ino;
		return 0;
	}
	if (errno != EEXIST) {
		err = errno;
		snprintf(msg, len, "cannot create '%s': %s", p->path, strerror(err));
		return -err;
	}
	fd = open(p->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = errno;
		if (fd >= 0)
			close(fd);
		snprintf(msg, len, "cannot open '%s': %s", p->path, strerror(err));
		return -err;
	}
	ok = stream_reusable(p, fd, &st, id, have_id);
	close(fd);
	if (!ok) {
		stream_refuse_msg(p, msg, len);
		return -EEXIST;
	}
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
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
		uint64_t id = 0;
		int have = 0, fd, ok;

		if (stat(p->path, &st))
			return 0;
		fd = open(p->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		ok = fd >= 0 && stream_reusable(p, fd, &st, &id, &have);
		if (fd >= 0)
			close(fd);
		if (!ok) {
			stream_refuse_msg(p, msg, len);
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
 * one it may reopen (reusable()); those are marked in sc->reuse. Reads the
 * directory once (cost: what is there, not the number of frames planned). */
static int check_dir_frames(const struct sm_frames_plan *p, const char *dir, uint64_t distinct,
			    struct sm_frames_scan *sc, char *msg, unsigned len)
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
		if (k < p->first || k - p->first >= distinct)
			continue;   /* not a frame of this plan (another rank's, on a shared set) */
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc = refuse_link(path, msg, len);
		if (rc)
			break;
		if (lstat(path, &st))
			continue;
		if (!reusable(p, path, &st, k, &sc->dir_id, &sc->have_id)) {
			refuse_msg(p, path, msg, len);
			rc = -EEXIST;
		} else if (sc->reuse) {
			sc->reuse[k - p->first] = 1;
		}
	}
	closedir(d);
	return rc;
}

int sm_frames_find_dir_id(const char *dir, uint64_t *id)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -errno;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX], canon[64];
		unsigned long long k;
		int used = 0, fd;

		if (sscanf(e->d_name, "frame%llu.tst%n", &k, &used) != 1 || e->d_name[used] != '\0')
			continue;
		snprintf(canon, sizeof(canon), "frame%06llu.tst", k);
		if (strcmp(canon, e->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		found = header_ok(fd, k, id, &found);
		close(fd);
	}
	closedir(d);
	return found;
}

int sm_frames_scan_existing(const struct sm_frames_plan *p, uint64_t distinct,
			    struct sm_frames_scan *sc, char *msg, unsigned len)
{
	char dir[PATH_MAX];
	int rc;

	if (p->dir_id && !sc->have_id) {   /* agreed by the ranks of a shared set */
		sc->dir_id = p->dir_id;
		sc->have_id = 1;
	}
	if (!p->files_per_dir)
		return check_dir_frames(p, p->path, distinct, sc, msg, len);
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
		rc = check_dir_frames(p, dir, distinct, sc, msg, len);
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
	if (p->kind != SM_FRAMES_READ) {
		struct sm_frames_scan sc = { 0 };

		return sm_frames_scan_existing(p, distinct, &sc, msg, len);
	}
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
