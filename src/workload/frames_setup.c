/* SPDX-License-Identifier: MIT */
/* Before the threads start: the I/O plan (crop, split, direct or buffered
 * with warnings), pacing, directories, what a write test may reopen and
 * every worker's engine. */
#include "workload/frames_int.h"
#include "analysis/share.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/rng.h"
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Decide direct or buffered I/O, with warnings; returns the alignment to
 * use for I/O sizes (0 when buffered). */
static unsigned choose_direct(const struct sm_frames_plan *p, struct sm_frames_result *res)
{
	char dir[PATH_MAX];
	int align;

	if (!p->direct || p->kind == SM_FRAMES_EMPTY)
		return 0;
	if (p->kind == SM_FRAMES_READ) {
		/* Reading needs no write access: probe frame 0 itself. */
		sm_frames_path(p, 0, dir, sizeof(dir));
		align = sm_direct_probe_read(dir);
	} else {
		if (p->stream)
			sm_parent_dir(p->path, dir, sizeof(dir));
		else
			snprintf(dir, sizeof(dir), "%s", p->path);
		align = sm_direct_probe(dir);
	}
	if (align < 0) {
		sm_warn(&res->head.warnings, "direct_io_unavailable",
			"the file system refuses direct I/O (%s): using buffered I/O, which the page cache can flatter",
			strerror(-align));
		return 0;
	}
	if (p->frame_bytes % (unsigned)align) {
		sm_warn(&res->head.warnings, "direct_io_unaligned",
			"frame size %llu is not a multiple of the direct I/O block (%d bytes): using buffered I/O",
			(unsigned long long)p->frame_bytes, align);
		return 0;
	}
	return (unsigned)align;
}

/* Most subdirectories whose descriptors are kept open for the run (each
 * costs one descriptor against RLIMIT_NOFILE). */
#define KEEP_DIRS_MAX 256

/* -d: create (write tests) and open every PATH/dNNNNN with
 * O_DIRECTORY|O_NOFOLLOW; a symlink (or non-directory) there is refused.
 * Up to KEEP_DIRS_MAX of them stay open in sh->dir_fds and the frames are
 * opened at those descriptors, so a subdirectory swapped for a symlink
 * after this point is never written through; with more, each is closed
 * after the check and frames are opened by path. Returns 0 or -errno
 * (-EEXIST for a symlink) with msg set. */
static int open_dirs(struct shared *sh, const struct sm_frames_plan *p, char *msg, size_t len)
{
	uint64_t n = (sh->distinct + p->files_per_dir - 1) / p->files_per_dir;
	char path[PATH_MAX];

	int keep = n <= KEEP_DIRS_MAX;

	if (keep) {
		sh->dir_fds = calloc(n ? n : 1, sizeof(*sh->dir_fds));
		if (!sh->dir_fds) {
			snprintf(msg, len, "out of memory");
			return -ENOMEM;
		}
	}
	for (uint64_t d = 0; d < n; d++) {
		int fd, err;

		snprintf(path, sizeof(path), "%s/d%05llu", p->path, (unsigned long long)d);
		if (p->kind != SM_FRAMES_READ && mkdir(path, 0755) && errno != EEXIST) {
			err = errno;
			snprintf(msg, len, "cannot create directory '%s': %s", path, strerror(err));
			return -err;
		}
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
			if (err == ELOOP || err == ENOTDIR) {
				snprintf(msg, len, "'%s' is a symbolic link or not a directory; not following it",
					 path);
				return -EEXIST;
			}
			snprintf(msg, len, "cannot open directory '%s': %s", path, strerror(err));
			return -err;
		}
		if (keep)
			sh->dir_fds[sh->ndirs++] = fd;
		else
			close(fd);
	}
	return 0;
}

/* The part of a frame each transfer covers, its split into I/Os, and
 * direct or buffered I/O (with warnings), into sh and the plan. */
static void plan_io(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res)
{
	unsigned align;

	if (p->kind == SM_FRAMES_EMPTY) {
		p->frame_bytes = 0;
	} else {
		uint64_t crop = p->kind == SM_FRAMES_READ && p->crop_pct && p->crop_pct < 100
					? p->crop_pct : 100;

		sh->region_len = p->frame_bytes * crop / 100;
		sh->region_off = (p->frame_bytes - sh->region_len) / 2;
	}
	sh->chunk_len = p->ios_per_frame > 1 ? (sh->region_len + p->ios_per_frame - 1) / p->ios_per_frame
					       : sh->region_len;
	align = choose_direct(p, res);
	if (align) {
		/* Keep every I/O aligned: round the cropped region outwards and
		 * the pieces of a frame up to the block size. */
		uint64_t start = sh->region_off / align * align;
		uint64_t stop = round_up(sh->region_off + sh->region_len, align);

		if (stop > p->frame_bytes)
			stop = p->frame_bytes;
		sh->region_off = start;
		sh->region_len = stop - start;
		sh->chunk_len = round_up(sh->chunk_len, align);
	}
	if (p->direct && !align && p->kind != SM_FRAMES_EMPTY)
		sm_warn(&res->head.warnings, "buffered_io",
			"buffered I/O: figures include the page cache, not only the storage");
	p->direct = align != 0;
	res->head.env.direct_io = p->direct;
	if (!p->direct && p->kind == SM_FRAMES_READ &&
	    sh->distinct * p->frame_bytes < res->head.env.mem_available_bytes)
		sm_warn(&res->head.warnings, "cached_working_set",
			"buffered reads of %llu MiB, less than the free RAM: this measures the page cache",
			(unsigned long long)(sh->distinct * p->frame_bytes >> 20));
	sh->open_flags = p->kind == SM_FRAMES_READ ? O_RDONLY : O_WRONLY;
	if (p->direct)
		sh->open_flags |= sm_os_direct_oflag();
	sh->open_flags |= O_CLOEXEC;
	/* a frame name that is a symlink is never followed (ELOOP); a stream
	 * (-s) file is the target itself, named by the user */
	if (!p->stream)
		sh->open_flags |= O_NOFOLLOW;
	/* A frame that was not there is created with O_EXCL, so a file that
	 * appears under its name during the run is never opened; one found
	 * and checked before the run (or created by it) is reopened without
	 * O_CREAT, truncated unless the test is -e, which writes nothing. A
	 * stream is claimed before the run (sm_frames_claim_stream()). */
	sh->create_flags = sh->open_flags | O_CREAT | O_EXCL;
	sh->reuse_flags = sh->open_flags |
			  (p->kind == SM_FRAMES_WRITE && !p->stream ? O_TRUNC : 0);
}

/* Write tests: which frames may be reopened (checked again here, as the
 * directory may have changed since sm_frames_check()), the directory id,
 * a stream claimed. Returns 0 or -errno with res->head.error set. */
static int claim_frames(struct shared *sh, const struct sm_frames_plan *p,
			struct sm_frames_result *res)
{
	struct sm_frames_scan sc = { 0 };
	int rc;

	if (p->stream) {
		rc = sm_frames_claim_stream(p, &sc.dir_id, &sc.have_id, &sh->stream_dev,
					    &sh->stream_ino, res->head.error,
					    sizeof(res->head.error));
	} else {
		sc.reuse = calloc(sh->distinct, 1);
		if (!sc.reuse) {
			snprintf(res->head.error, sizeof(res->head.error), "out of memory");
			return -ENOMEM;
		}
		rc = sm_frames_scan_existing(p, sh->distinct, &sc, res->head.error,
					     sizeof(res->head.error));
		/* the same bytes: FS_OURS is 1, FS_NEW 0 */
		sh->fstate = (_Atomic unsigned char *)sc.reuse;
	}
	if (rc)
		return rc;
	/* a new directory gets an id of its own; one with frames keeps theirs */
	sh->dir_id = sc.have_id ? sc.dir_id : sm_hash64(p->seed ^ sm_now_ns(), 0xd1d) | 1;
	return 0;
}

/* Everything before the threads: sizes, pacing, directories, the frames a
 * write test may reopen.
 * Returns 0 or -errno with res->head.error set. */
int sm_frames_prepare(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res)
{
	int rc, null_engine;

	if (!p->threads)
		p->threads = 1;
	if (!p->ios_per_frame)
		p->ios_per_frame = 1;
	if (!p->seed)
		p->seed = sm_now_ns();
	sh->run_seed = sm_hash64(p->seed, 0x5717);
	sh->total = p->nframes;
	sh->distinct = p->loop && p->loop < p->nframes ? p->loop : p->nframes;
	if (!sh->distinct)
		sh->distinct = 1;
	res->frames_scheduled = p->nframes;
	sm_env_collect(&res->head.env, p->stream ? "." : p->path);
	if (p->stream) {
		char dir[PATH_MAX];

		if (!sm_parent_dir(p->path, dir, sizeof(dir)))
			sm_fs_info(dir, &res->head.env.fs);
	}
	plan_io(sh, p, res);
	/* the null engine moves nothing: the share's rules do not apply */
	if (p->kind != SM_FRAMES_EMPTY && !(sm_engine_caps_of(p->engine) & SM_ENGINE_NO_IO))
		sm_share_warn(&res->head.warnings, &res->head.env.fs.mount, SM_SHARE_DATA, p->direct);
	snprintf(sh->prefix, sizeof(sh->prefix) - 32, "%s/frame", p->path);
	sh->prefix_len = strlen(sh->prefix);
	if (p->fps > 0) {
		p->queue = p->queue ? p->queue : (p->prebuffer > 8 ? p->prebuffer : 8);
		sh->paced = 1;
		sh->early = &res->early;
		sh->late = &res->late;
		rc = sm_pace_init(&sh->pace, p->kind == SM_FRAMES_READ ? SM_PACE_PLAYBACK : SM_PACE_CAPTURE,
				  sh->total, p->fps, p->queue, p->prebuffer, &res->early, &res->late);
		sh->pace.drops = &res->frame_map;   /* the workers' maps join it at the end */
		if (rc) {
			sh->paced = 0;
			snprintf(res->head.error, sizeof(res->head.error), "cannot set up pacing: %s",
				 strerror(-rc));
			return rc;
		}
	}
	if (!p->stream && p->files_per_dir) {
		rc = open_dirs(sh, p, res->head.error, sizeof(res->head.error));
		if (rc)
			return rc;
	}
	null_engine = !!(sm_engine_caps_of(p->engine) & SM_ENGINE_NO_IO);
	sh->claim_batch = null_engine ? 64 : 1;
	if (p->kind != SM_FRAMES_READ && !null_engine)
		return claim_frames(sh, p, res);
	return 0;
}

/* Set up every worker's engine and buffers; *nw counts those to release. */
int sm_frames_setup_workers(struct shared *sh, struct sm_frames_plan *p, struct sm_frames_result *res,
			 unsigned *nw)
{
	/* -a N: requests in flight, an asynchronous engine */
	const struct sm_engine_need need = {
		.name = p->engine, .caps = p->depth ? SM_ENGINE_ASYNC : 0, .flags = p->engine_flags,
	};
	const struct sm_engine_ops *ops = sm_engine_choose(&need);
	const char *engine = ops ? ops->name : p->engine;
	char notice[256] = "";
	int rc;

	rc = sm_frames_live_init(sh, p);
	if (rc) {
		snprintf(res->head.error, sizeof(res->head.error), "cannot allocate live counters: %s",
			 strerror(-rc));
		return rc;
	}
	sh->workers = aligned_alloc(64, round_up(p->threads * sizeof(struct worker), 64));
	if (!sh->workers)
		return -ENOMEM;
	memset(sh->workers, 0, p->threads * sizeof(struct worker));
	for (*nw = 0; *nw < p->threads;) {
		rc = sm_frames_worker_setup(sh, &sh->workers[*nw], *nw, &need, notice, sizeof(notice));
		(*nw)++;
		if (rc) {
			snprintf(res->head.error, sizeof(res->head.error),
				 rc == -ENOENT ? "unknown engine '%s'" : "cannot start engine '%s': %s",
				 engine, strerror(-rc));
			return rc;
		}
	}
	if (notice[0])
		sm_warn(&res->head.warnings, "engine_fallback", "%s", notice);
	snprintf(res->head.env.engine, sizeof(res->head.env.engine), "%s", sh->workers[0].eng.ops->name);
	p->engine = sh->workers[0].eng.ops->name;
	return 0;
}

/* A stream write leaves exactly its frames: an earlier, longer stream of
 * stormark's in the same file is cut to this run's length. */
int sm_frames_trim_stream(const struct sm_frames_plan *p, uint64_t distinct,
		       struct sm_frames_result *res)
{
	struct stat st;
	uint64_t want = distinct * p->frame_bytes;

	if (stat(p->path, &st) || (uint64_t)st.st_size <= want)
		return 0;
	if (truncate(p->path, (off_t)want)) {
		int rc = -errno;

		snprintf(res->head.error, sizeof(res->head.error), "cannot truncate '%s': %s", p->path,
			 strerror(-rc));
		return rc;
	}
	return 0;
}
