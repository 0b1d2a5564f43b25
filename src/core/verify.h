/* SPDX-License-Identifier: MIT */
/* --verify blocks: a 64-byte trailer at the end of every block written
 * (magic, set id, run id, write sequence, offset, file id, length and an
 * XXH3-64 checksum of everything before the checksum), its check on read,
 * and the counters a verifying run keeps. Layout in docs/verify.md. */
#ifndef SM_CORE_VERIFY_H
#define SM_CORE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#define SM_VERIFY_TRAILER 64u       /* bytes at the end of each block */
#define SM_VERIFY_MIN_BLOCK 128u    /* smallest block that may carry one */
#define SM_VERIFY_FRAME_BLOCK 4096u /* frames: the unit inside a frame */

/* Who wrote a block. On disk little-endian, at the end of the block:
 * magic 8, set 8, run 8, seq 8, off 8, file 4, len 4, reserved 8, sum 8. */
struct sm_vblk_id {
	uint64_t set;              /* the set: fileio's prepare, frames' write test */
	uint64_t run;              /* the run that wrote it (a start time in us: later is larger) */
	uint64_t seq;              /* write sequence within the run (0 = prepare) */
	uint64_t off;              /* offset of the block in its file */
	uint32_t file;             /* test_file.N's N, a frame's index */
	uint32_t len;              /* block length including the trailer */
};

/* What a check found, from harmless to worst. */
enum sm_verify_kind {
	SM_VK_OK = 0,
	SM_VK_NOHDR,               /* no trailer for this length: not written with --verify
				    * (or with another block size), or overwritten */
	SM_VK_ZERO,                /* the whole block reads as zeros */
	SM_VK_CHECKSUM,            /* trailer present, checksum wrong: corrupt payload or torn write */
	SM_VK_MISPLACED,           /* intact, but the block of another file or offset */
	SM_VK_STALE,               /* intact and in place, but an older write (lost write) */
	SM_VK_NEWER,               /* intact and in place, but a write later than expected */
	SM_VK_SHORT,               /* the file ends before the block does (truncated) */
	SM_VK_COUNT
};

/* One problem found: where, what kind, what was expected and found. */
struct sm_verify_problem {
	uint32_t file;
	uint64_t off;
	enum sm_verify_kind kind;
	struct sm_vblk_id expect, found;
};

#define SM_VERIFY_KEEP 16u         /* problems kept in detail; all are counted */

/* What a verifying run did and found. Each worker fills its own, merged
 * with sm_verify_stats_merge() once the workers are joined. */
struct sm_verify_stats {
	uint64_t sealed, checked;  /* blocks given a trailer, blocks checked */
	uint64_t unchecked;        /* blocks read without a trailer (--validate: not an error) */
	uint64_t problems;
	uint64_t seal_ns, check_ns;  /* time spent hashing on write and on read */
	uint64_t pass_bytes, pass_ns;  /* a separate read-back pass, if one ran */
	unsigned nkept;
	struct sm_verify_problem kept[SM_VERIFY_KEEP];   /* the first by (file, off) */
};

/* Write the trailer at the end of blk (len bytes, >= SM_VERIFY_MIN_BLOCK)
 * for id; id->len is taken from len. The payload before it is left as is. */
void sm_verify_seal(void *blk, uint32_t len, const struct sm_vblk_id *id);

/* Seal each of the len / block blocks of buf, which is written at offset off
 * of file `file`; the trailing partial block, if any, is left alone.
 * Returns the number of blocks sealed. */
uint64_t sm_verify_seal_range(void *buf, uint64_t len, uint64_t block, const struct sm_vblk_id *id);

/*
 * Check one block read back. *expect names the file, offset and length it
 * should hold; its set, run and seq fields are checked when non-zero (run
 * and seq: exactly that write; a found write that is older is SM_VK_STALE,
 * newer SM_VK_NEWER). With max_run non-zero and expect->run zero, any run
 * up to max_run is accepted, a later one is SM_VK_NEWER. *found receives the
 * trailer as read (zeros when there is none). Returns the kind.
 */
enum sm_verify_kind sm_verify_check(const void *blk, uint32_t len, const struct sm_vblk_id *expect,
				    uint64_t max_run, struct sm_vblk_id *found);

/* A whole file (a frame) of total bytes cut into blocks of unit bytes:
 * the last block takes the remainder, so every byte is covered and every
 * block holds at least unit bytes (one block when total < 2 x unit).
 * sm_verify_nblocks() is the count (0 when total < SM_VERIFY_MIN_BLOCK);
 * sm_verify_block_at() gives block k's offset and length. */
uint64_t sm_verify_nblocks(uint64_t total, uint64_t unit);
void sm_verify_block_at(uint64_t total, uint64_t unit, uint64_t k, uint64_t *off, uint32_t *len);

/* Read the trailer without judging it. Returns 1 when the magic and the
 * checksum are right (then *id is filled), else 0. */
int sm_verify_peek(const void *blk, uint32_t len, struct sm_vblk_id *id);

/* Record a problem in st (kept if among the SM_VERIFY_KEEP first by file
 * and offset; always counted). */
void sm_verify_note(struct sm_verify_stats *st, enum sm_verify_kind kind, const struct sm_vblk_id *expect,
		    const struct sm_vblk_id *found);

/* Add src's counters and problems to dst. */
void sm_verify_stats_merge(struct sm_verify_stats *dst, const struct sm_verify_stats *src);

/* A short name of a kind for JSON and messages ("stale"). */
const char *sm_verify_kind_name(enum sm_verify_kind kind);

/* One line describing p without the file name ("offset 4096: stale block
 * (lost write): expected run R seq 5, found run R seq 2") into buf. */
void sm_verify_describe(char *buf, size_t len, const struct sm_verify_problem *p);

/* A new run id: the wall-clock time in microseconds (so an earlier run has
 * a smaller id, and it stays exact in JSON), never 0. */
uint64_t sm_verify_new_id(void);

#endif
