/* SPDX-License-Identifier: MIT */
/* Aligned, pre-touched, incompressible I/O buffers. */
#include "core/buf.h"
#include "core/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *sm_buf_alloc(size_t len, size_t align)
{
	void *p = NULL;
	long page = sysconf(_SC_PAGESIZE);

	/* Checked here: a bad alignment is the caller's bug, and sanitizers
	 * abort on it inside posix_memalign() instead of returning EINVAL. */
	if (align < sizeof(void *) || (align & (align - 1)))
		return NULL;
	if (len == 0)
		len = 1;
	/* Large buffers on 2 MiB boundaries, as transparent huge pages where
	 * the system allows: a frame then sits in few physically contiguous
	 * pieces, and a direct I/O of it needs a few block requests instead of
	 * thousands (measured here: 4 instead of 7-17 per 12 MiB frame, and up
	 * to twice the frame rate). */
	if (len >= SM_HUGE_PAGE / 4) {
		/* From 512 KiB up (a 1 MiB block I/O too): whole huge pages. */
		len = (len + SM_HUGE_PAGE - 1) / SM_HUGE_PAGE * SM_HUGE_PAGE;
		if (align < SM_HUGE_PAGE)
			align = SM_HUGE_PAGE;
	}
	if (posix_memalign(&p, align, len))
		return NULL;
	if (len >= SM_HUGE_PAGE)
		madvise(p, len, MADV_HUGEPAGE);   /* advice: failure is harmless */
	/* Fresh memory in this VM is slow to touch the first time (a balloon):
	 * pay that here, not inside a timed I/O. */
	for (size_t off = 0; off < len; off += (size_t)page)
		((volatile char *)p)[off] = 0;
	return p;
}

void sm_buf_fill(void *buf, size_t len, enum sm_data_mode mode, uint64_t seed)
{
	struct sm_rng r;
	uint64_t *w = buf;
	size_t n = len / 8, i;

	if (mode == SM_DATA_ZERO) {
		memset(buf, 0, len);
		return;
	}
	sm_rng_seed(&r, seed ? seed : 0x5eedULL);
	for (i = 0; i < n; i++)
		w[i] = sm_rng_next(&r);
	for (i = n * 8; i < len; i++)
		((unsigned char *)buf)[i] = (unsigned char)sm_rng_next(&r);
}

void sm_buf_stamp(void *buf, size_t len, enum sm_data_mode mode, uint64_t run, uint64_t item)
{
	unsigned char *p = buf;
	uint64_t block = 0;

	if (mode == SM_DATA_ZERO)
		return;
	for (size_t off = 0; off + 16 <= len; off += SM_STAMP_BLOCK, block++) {
		uint64_t tag = run ^ ((item << 20) | (block & 0xfffff));

		memcpy(p + off, SM_STAMP_MAGIC, 8);
		memcpy(p + off + 8, &tag, 8);
	}
}

int sm_buf_has_stamp(const void *buf, size_t len)
{
	return len >= 16 && !memcmp(buf, SM_STAMP_MAGIC, 8);
}

int sm_buf_alias_init(struct sm_buf_alias *a, size_t len, unsigned n, uint64_t seed)
{
	size_t body = len - SM_BUF_ALIGN;
	int fd = -1, rc = 0;
	void *p;

	memset(a, 0, sizeof(*a));
	if (!n || !len || len % SM_BUF_ALIGN)
		return -EINVAL;
	/* the address space of every buffer, then each one's two parts
	 * mapped over it */
	p = mmap(NULL, len * n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	a->base = p;
	a->len = len;
	a->n = n;
	if (body) {
		fd = memfd_create("stormark-frame", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)body)) {
			rc = -errno;
			goto out;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		char *b = a->base + (size_t)i * len;

		if (mmap(b, SM_BUF_ALIGN, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0) == MAP_FAILED ||
		    (body && mmap(b + SM_BUF_ALIGN, body, PROT_READ | PROT_WRITE,
				  MAP_FIXED | MAP_SHARED | MAP_POPULATE, fd, 0) == MAP_FAILED)) {
			rc = -errno;
			goto out;
		}
		/* the shared pages are filled through the first buffer (and
		 * mapped in every one by MAP_POPULATE: no page fault in a
		 * timed request); every buffer's own page here */
		sm_buf_fill(b, i ? SM_BUF_ALIGN : len, SM_DATA_RANDOM, seed + i);
	}
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		sm_buf_alias_release(a);
	return rc;
}

void sm_buf_alias_release(struct sm_buf_alias *a)
{
	if (a->base)
		munmap(a->base, a->len * a->n);
	memset(a, 0, sizeof(*a));
}
