/* SPDX-License-Identifier: MIT */
/* Ownership seals: what lets stormark tell a file it wrote from anyone
 * else's before it reopens, rewrites or deletes it. A frame carries a
 * header at its start; a fileio test file carries an extended attribute
 * (docs/frames.md and docs/fileio.md give the reasons). */
#ifndef SM_SEAL_H
#define SM_SEAL_H

#include <stddef.h>
#include <stdint.h>

/* The frame header: bytes 0..63 of every frame (and of every frame of a
 * stream) at least this long. Little-endian fields:
 *   0  magic "\x89SMFRM\r\n" (not text: no text file starts with it)
 *   8  u32 format version (SM_FRAME_HDR_VERSION), u32 header length (64)
 *  16  u64 directory id (the same in every frame of one test directory)
 *  24  u64 frame index (the N of frameN.tst, or of the offset in a stream)
 *  32  u64 frame size in bytes when written
 *  40  u64 run tag (keeps frames of different runs distinct)
 *  48  u64 zero (reserved)
 *  56  u64 checksum of bytes 0..55
 * The data after it stays the buffer's (incompressible) data. */
#define SM_FRAME_HDR_LEN 64u
#define SM_FRAME_HDR_VERSION 1u

struct sm_frame_hdr {
	uint64_t dir_id;
	uint64_t index;
	uint64_t frame_bytes;
	uint64_t run_tag;
};

/* Write the header h into the first SM_FRAME_HDR_LEN bytes of buf (which
 * must hold that many). */
void sm_frame_hdr_put(void *buf, const struct sm_frame_hdr *h);

/* Decode and check the header at buf (len bytes available). Returns 0 and
 * fills *h when magic, version, length and checksum are right; -EBADMSG
 * when they are not (or len is short). The caller compares index and
 * directory id with what it expects. */
int sm_frame_hdr_get(const void *buf, size_t len, struct sm_frame_hdr *h);

/* The fileio seal: an extended attribute on each file `fileio prepare`
 * created, whose value names the file (its index), its size when sealed and
 * a checksum; a copy of a sealed file (even with its attributes) under
 * another index does not pass. */
#define SM_SEAL_XATTR "user.stormark.seal"

/* Seal the open file fd as fileio test file index of size bytes.
 * Returns 0 or -errno (-ENOTSUP / -EOPNOTSUPP where the file system keeps
 * no user extended attributes). */
int sm_seal_set(int fd, uint64_t index, uint64_t size);

/* Is the open file fd sealed as test file index? Returns 1 when it is, 0
 * when it carries no seal or another file's, -ENOTSUP / -EOPNOTSUPP when the
 * file system keeps no user extended attributes, other -errno on error. */
int sm_seal_check(int fd, uint64_t index);

#endif
