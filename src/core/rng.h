/* SPDX-License-Identifier: MIT */
/* Small, fast pseudo-random generators: splitmix64 (seeding, and as a
 * counter-based hash so that the n-th draw does not depend on threads) and
 * xoshiro256** (bulk data). */
#ifndef SM_RNG_H
#define SM_RNG_H

#include <stdint.h>

#include "core/u128.h"

/* splitmix64 step: advances *state and returns a well-mixed value. */
static inline uint64_t sm_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The n-th value of the stream named by seed, without state: same seed and
 * n give the same value whichever thread asks. */
static inline uint64_t sm_hash64(uint64_t seed, uint64_t n)
{
	uint64_t s = seed ^ (n * 0xd1342543de82ef95ULL);

	return sm_splitmix64(&s);
}

struct sm_rng {
	uint64_t s[4];
};

static inline void sm_rng_seed(struct sm_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = sm_splitmix64(&seed);
}

static inline uint64_t sm_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256**: next 64 random bits. */
static inline uint64_t sm_rng_next(struct sm_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = sm_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sm_rng_rotl(s[3], 45);
	return result;
}

/* Uniform integer in [0, n) (n > 0), by Lemire's multiply-shift. */
static inline uint64_t sm_rng_below(struct sm_rng *r, uint64_t n)
{
	return sm_u128_hi(sm_u128_mul(sm_rng_next(r), n));
}

#endif
