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

#endif
