/* SPDX-License-Identifier: MIT */
/* Little-endian fields in on-disk headers (frame headers, fileio seals,
 * --verify trailers): the same bytes whatever the host's byte order. */
#ifndef SM_CORE_LE_H
#define SM_CORE_LE_H

#include <stdint.h>

static inline void sm_le_put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline void sm_le_put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t sm_le_get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline uint32_t sm_le_get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#endif
