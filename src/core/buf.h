/* SPDX-License-Identifier: MIT */
/* I/O buffers: aligned, pre-touched, filled with incompressible data, and
 * stamped so that no two frames or blocks written in a run are identical. */
#ifndef SM_BUF_H
#define SM_BUF_H

#include <stddef.h>
#include <stdint.h>

#define SM_BUF_ALIGN 4096u
#define SM_HUGE_PAGE (2u << 20)    /* buffers this large are huge-page aligned */
#define SM_STAMP_BLOCK 4096u       /* one stamp at the start of every block */
#define SM_STAMP_MAGIC "STORMARK"  /* 8 bytes, first thing in every block */

enum sm_data_mode {
	SM_DATA_RANDOM = 0,  /* pseudo-random, incompressible (default) */
	SM_DATA_ZERO,        /* all zeros (what sysbench writes) */
};

/* Allocate len bytes aligned to align (a power of two >= sizeof(void *));
 * buffers of SM_HUGE_PAGE / 4 or more are rounded up to whole huge pages,
 * aligned to them and advised to use transparent huge pages. Touches every page so the first timed I/O does
 * not pay for page faults.
 * Returns the buffer (caller frees with free()) or NULL. */
void *sm_buf_alloc(size_t len, size_t align);

/* Fill buf with data of the given mode; seed selects the random stream. */
void sm_buf_fill(void *buf, size_t len, enum sm_data_mode mode, uint64_t seed);

/*
 * Make the buffer's content unique to (run, item): writes a 16-byte stamp at
 * the start of each SM_STAMP_BLOCK block: the 8-byte magic, then
 * run ^ (item << 20 | block). Cheap (16 bytes per 4 KiB) so it can run per
 * frame; a buffer filled with random data stays incompressible.
 * Does nothing in SM_DATA_ZERO mode (mode is passed for that reason).
 */
void sm_buf_stamp(void *buf, size_t len, enum sm_data_mode mode, uint64_t run, uint64_t item);

/* 1 when the block at buf starts with a stormark stamp, else 0. */
int sm_buf_has_stamp(const void *buf, size_t len);

/*
 * n buffers of len bytes each (len a multiple of SM_BUF_ALIGN) that share
 * all but their first SM_BUF_ALIGN bytes: buffer i's first page is its own
 * (a frame header written there is that buffer's alone, also while another
 * buffer's write is in flight), the rest of every buffer maps the same
 * pages of one memory file, filled once with incompressible data. So n
 * writers with a frame each in flight need one frame of memory, not n
 * (64 streams of 50 MB frames: 50 MB, not 3.2 GB). Page aligned and
 * touched, usable for direct I/O.
 */
struct sm_buf_alias {
	char *base;                 /* n x len bytes of address space */
	size_t len;
	unsigned n;
};

/* Map the set. Returns 0, -EINVAL for len not a multiple of SM_BUF_ALIGN
 * or n 0, or -errno (the memory file or a mapping failed; nothing is left
 * mapped). */
int sm_buf_alias_init(struct sm_buf_alias *a, size_t len, unsigned n, uint64_t seed);

/* Buffer i (< n). */
static inline void *sm_buf_alias_at(const struct sm_buf_alias *a, unsigned i)
{
	return a->base + (size_t)i * a->len;
}

/* Unmap the set (a zeroed one is fine). */
void sm_buf_alias_release(struct sm_buf_alias *a);

#endif
