/* SPDX-License-Identifier: MIT */
/* Ownership seals: the frame header and the fileio test-file attribute. */
#include "core/seal.h"
#include "core/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>

static const unsigned char frame_magic[8] = { 0x89, 'S', 'M', 'F', 'R', 'M', '\r', '\n' };
static const unsigned char seal_magic[8] = { 'S', 'M', 'S', 'E', 'A', 'L', '0', '1' };

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A 64-bit checksum of len bytes (FNV-1a, then mixed): any change of a
 * byte or of the bytes' order changes it. */
static uint64_t sum64(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return sm_hash64(h, len);
}

void sm_frame_hdr_put(void *buf, const struct sm_frame_hdr *h)
{
	unsigned char *p = buf;

	memcpy(p, frame_magic, 8);
	put64(p + 8, (uint64_t)SM_FRAME_HDR_VERSION | (uint64_t)SM_FRAME_HDR_LEN << 32);
	put64(p + 16, h->dir_id);
	put64(p + 24, h->index);
	put64(p + 32, h->frame_bytes);
	put64(p + 40, h->run_tag);
	put64(p + 48, 0);
	put64(p + 56, sum64(p, 56));
}

int sm_frame_hdr_get(const void *buf, size_t len, struct sm_frame_hdr *h)
{
	const unsigned char *p = buf;

	if (len < SM_FRAME_HDR_LEN || memcmp(p, frame_magic, 8) ||
	    get64(p + 8) != ((uint64_t)SM_FRAME_HDR_VERSION | (uint64_t)SM_FRAME_HDR_LEN << 32) ||
	    get64(p + 56) != sum64(p, 56))
		return -EBADMSG;
	h->dir_id = get64(p + 16);
	h->index = get64(p + 24);
	h->frame_bytes = get64(p + 32);
	h->run_tag = get64(p + 40);
	return 0;
}

/* The seal's value: magic, index, size, checksum of the 24 bytes before. */
static void seal_value(unsigned char v[32], uint64_t index, uint64_t size)
{
	memcpy(v, seal_magic, 8);
	put64(v + 8, index);
	put64(v + 16, size);
	put64(v + 24, sum64(v, 24));
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
	seal_value(want, index, get64(v + 16));
	return !memcmp(v, want, sizeof(want));
}
