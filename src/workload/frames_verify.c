/* SPDX-License-Identifier: MIT */
/* frames --verify: the read-back pass after a write or read test. It reads
 * every frame once, with direct I/O when the test used it (buffered: after
 * fsync and dropping the frame from the page cache), and checks each
 * 4 KiB block's trailer; timed apart from the test, so the report gives
 * the test's rate and the pass's rate side by side. */
#include "workload/frames.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/worker.h"
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The frames a test covers: a loop covers its first N. */
static uint64_t frames_of(const struct sm_frames_plan *p)
{
	return p->loop && p->loop < p->nframes ? p->loop : p->nframes;
}

/* Read frame k whole into buf (cap bytes, aligned). Returns the bytes read
 * (fewer than frame_bytes: the file is short) or -errno. */
static int64_t read_frame(const struct sm_frames_plan *p, uint64_t k, void *buf, uint64_t cap)
{
	char path[4096];
	uint64_t got = 0;
	int fd, rc;

	rc = sm_frames_path(p, k, path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_NOFOLLOW | (p->direct ? sm_os_direct_oflag() : 0));
	if (fd < 0 && p->direct && errno == EINVAL)
		fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (!p->direct) {
		/* what the disk holds, not what the page cache kept */
		fsync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	while (got < cap) {
		ssize_t n = pread(fd, (char *)buf + got, cap - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			close(fd);
			return rc;
		}
		if (n == 0)
			break;
		got += (uint64_t)n;
	}
	close(fd);
	return (int64_t)got;
}

/* Check frame k's blocks (got bytes read). A write pass knows the run;
 * a read pass takes the frame's first intact block as the reference for
 * the others and returns its run in *run (0: none intact). */
static void check_frame(const struct sm_frames_plan *p, uint64_t k, const unsigned char *buf, uint64_t got,
			uint64_t want_run, uint64_t *run, struct sm_verify_stats *st)
{
	uint64_t n = sm_verify_nblocks(p->frame_bytes, SM_VERIFY_FRAME_BLOCK);
	struct sm_vblk_id ref = { .set = want_run, .run = want_run };
	int have_ref = want_run != 0;

	*run = 0;
	for (uint64_t b = 0; b < n; b++) {
		struct sm_vblk_id e = ref, f;
		enum sm_verify_kind kind;
		uint32_t len;

		sm_verify_block_at(p->frame_bytes, SM_VERIFY_FRAME_BLOCK, b, &e.off, &len);
		e.file = (uint32_t)k;
		e.len = len;
		if (e.off + len > got) {
			/* the frame ends early: one problem where it ends */
			e.off = got;
			e.len = (uint32_t)(p->frame_bytes - got);
			sm_verify_note(st, SM_VK_SHORT, &e, NULL);
			return;
		}
		kind = sm_verify_check(buf + e.off, len, &e, 0, &f);
		st->checked++;
		if (kind == SM_VK_OK && !have_ref) {
			/* the frame's own write: every other block must match it */
			ref.set = f.set;
			ref.run = f.run;
			ref.seq = f.seq;
			have_ref = 1;
			*run = f.run;
		} else if (kind == SM_VK_OK && want_run) {
			*run = f.run;
		}
		if (kind != SM_VK_OK)
			sm_verify_note(st, kind, &e, &f);
	}
}

int sm_frames_verify_ready(const struct sm_frames_plan *p, char *msg, unsigned msglen)
{
	uint64_t nf = frames_of(p), cap = (p->frame_bytes + SM_BUF_ALIGN - 1) / SM_BUF_ALIGN * SM_BUF_ALIGN;
	const uint64_t which[] = { 0, nf / 2, nf ? nf - 1 : 0 };
	unsigned char *buf;
	int found = 0;

	if (p->kind != SM_FRAMES_READ || !nf)
		return 0;
	buf = sm_buf_alloc(cap, SM_BUF_ALIGN);
	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; i < 3 && !found; i++) {
		int64_t got = read_frame(p, which[i], buf, cap);
		struct sm_vblk_id id;
		uint64_t off;
		uint32_t len;

		sm_verify_block_at(p->frame_bytes, SM_VERIFY_FRAME_BLOCK, 0, &off, &len);
		found = got >= (int64_t)len && sm_verify_peek(buf, len, &id);
	}
	free(buf);
	if (found)
		return 0;
	snprintf(msg, msglen, "cannot verify the frames in '%s': they carry no verify trailer (written without "
		 "--verify, or with another frame size)", p->path);
	return -ENOMEDIUM;
}

int sm_frames_verify_pass(const struct sm_frames_plan *p, struct sm_verify_stats *st)
{
	uint64_t nf = frames_of(p), cap = (p->frame_bytes + SM_BUF_ALIGN - 1) / SM_BUF_ALIGN * SM_BUF_ALIGN;
	uint64_t t0 = sm_now_ns(), newest = 0, *runs = NULL;
	unsigned char *buf = sm_buf_alloc(cap, SM_BUF_ALIGN);
	int rc = 0;

	if (!p->verify_run)
		runs = calloc(nf ? nf : 1, sizeof(*runs));
	if (!buf || (!p->verify_run && !runs)) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint64_t k = 0; k < nf; k++) {
		int64_t got;
		uint64_t run, t1;

		if (sm_stopped()) {
			rc = -EINTR;
			goto out;
		}
		if (p->verify_written && !p->verify_written[k])
			continue;          /* not written by this test (dropped, stopped) */
		got = read_frame(p, k, buf, cap);
		if (got < 0) {
			struct sm_vblk_id e = { .file = (uint32_t)k, .len = (uint32_t)p->frame_bytes };

			if (got != -ENOENT) {
				rc = (int)got;
				goto out;
			}
			sm_verify_note(st, SM_VK_SHORT, &e, NULL);   /* gone: nothing left of it */
			continue;
		}
		st->pass_bytes += (uint64_t)got;
		t1 = sm_now_ns();
		check_frame(p, k, buf, (uint64_t)got, p->verify_run, &run, st);
		st->check_ns += sm_now_ns() - t1;
		if (runs)
			runs[k] = run;
		if (run > newest)
			newest = run;
	}
	/* a read test: the newest run seen is what every frame should hold;
	 * an intact frame from an earlier run is a write that was lost */
	for (uint64_t k = 0; runs && k < nf; k++) {
		if (runs[k] && runs[k] < newest) {
			struct sm_vblk_id e = { .set = newest, .run = newest, .file = (uint32_t)k },
					  f = { .set = runs[k], .run = runs[k], .file = (uint32_t)k };

			sm_verify_note(st, SM_VK_STALE, &e, &f);
		}
	}
out:
	st->pass_ns += sm_now_ns() - t0;
	free(buf);
	free(runs);
	return rc;
}
