/* SPDX-License-Identifier: MIT */
/* Ownership seals: the frame header and the fileio test-file attribute. */
#include "core/seal.h"
#include "core/le.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>

#include <xxhash.h>

static const unsigned char frame_magic[8] = { 0x89, 'S', 'M', 'F', 'R', 'M', '\r', '\n' };
static const unsigned char seal_magic[8] = { 'S', 'M', 'S', 'E', 'A', 'L', '0', '1' };

/* A 64-bit checksum of len bytes: xxHash's XXH3-64, the hash --verify
 * uses too (core/verify.c); any change of a byte changes it. */
static uint64_t sum64(const unsigned char *p, size_t len)
{
	return XXH3_64bits(p, len);
}

void sm_frame_hdr_put(void *buf, const struct sm_frame_hdr *h)
{
	unsigned char *p = buf;

	memcpy(p, frame_magic, 8);
	sm_le_put64(p + 8, (uint64_t)SM_FRAME_HDR_VERSION | (uint64_t)SM_FRAME_HDR_LEN << 32);
	sm_le_put64(p + 16, h->dir_id);
	sm_le_put64(p + 24, h->index);
	sm_le_put64(p + 32, h->frame_bytes);
	sm_le_put64(p + 40, h->run_tag);
	sm_le_put64(p + 48, 0);
	sm_le_put64(p + 56, sum64(p, 56));
}

int sm_frame_hdr_get(const void *buf, size_t len, struct sm_frame_hdr *h)
{
	const unsigned char *p = buf;

	if (len < SM_FRAME_HDR_LEN || memcmp(p, frame_magic, 8) ||
	    sm_le_get64(p + 8) != ((uint64_t)SM_FRAME_HDR_VERSION | (uint64_t)SM_FRAME_HDR_LEN << 32) ||
	    sm_le_get64(p + 56) != sum64(p, 56))
		return -EBADMSG;
	h->dir_id = sm_le_get64(p + 16);
	h->index = sm_le_get64(p + 24);
	h->frame_bytes = sm_le_get64(p + 32);
	h->run_tag = sm_le_get64(p + 40);
	return 0;
}

/* The seal's value: magic, index, size, checksum of the 24 bytes before. */
static void seal_value(unsigned char v[32], uint64_t index, uint64_t size)
{
	memcpy(v, seal_magic, 8);
	sm_le_put64(v + 8, index);
	sm_le_put64(v + 16, size);
	sm_le_put64(v + 24, sum64(v, 24));
}

int sm_seal_set(int fd, uint64_t index, uint64_t size)
{
	unsigned char v[32];

	seal_value(v, index, size);
	return fsetxattr(fd, SM_SEAL_XATTR, v, sizeof(v), 0) ? -errno : 0;
}

int sm_seal_check(int fd, uint64_t index)
{
	unsigned char v[64], want[32];
	ssize_t n = fgetxattr(fd, SM_SEAL_XATTR, v, sizeof(v));

	if (n < 0)
		return errno == ENODATA || errno == ERANGE ? 0 : -errno;
	if (n != 32)
		return 0;
	/* the size is not compared: a run may not change it, but the seal
	 * says who made the file, not what it holds */
	seal_value(want, index, sm_le_get64(v + 16));
	return !memcmp(v, want, sizeof(want));
}
