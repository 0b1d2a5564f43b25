/* SPDX-License-Identifier: MIT */
/* Frame layout: which frame the seq-th transfer moves (forward, reverse, or
 * a keyed permutation) and its file name. */
#include "workload/frames_int.h"
#include "core/rng.h"

#include <limits.h>
#include <string.h>

/* Frame k's path into buf (PATH_MAX): the same name as sm_frames_path(),
 * built without snprintf, which cost 14% of a null-engine frame. */
void sm_frames_name(const struct shared *sh, uint64_t k, char *buf)
{
	char digits[24];
	int nd = 0;
	size_t len = sh->prefix_len;
	uint64_t v = sh->plan->first + k;

	if (sh->plan->files_per_dir) {
		sm_frames_path(sh->plan, k, buf, PATH_MAX);
		return;
	}
	do {
		digits[nd++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (nd < 6)
		digits[nd++] = '0';
	memcpy(buf, sh->prefix, len);
	while (nd)
		buf[len++] = digits[--nd];
	memcpy(buf + len, ".tst", 5);
}

/* A bijection of [0, n) keyed by seed (Feistel network on the next even
 * power of two, cycle-walking back into range): random order in O(1)
 * memory. */
static uint64_t permute(uint64_t x, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;

	while (bits < 64 && (1ULL << bits) < n)
		bits += 2;
	unsigned half = bits / 2;
	uint64_t mask = (1ULL << half) - 1;

	do {
		uint64_t l = x >> half, r = x & mask;

		for (unsigned round = 0; round < 4; round++) {
			uint64_t t = l ^ (sm_hash64(seed + round, r) & mask);

			l = r;
			r = t;
		}
		x = (l << half) | r;
	} while (x >= n);
	return x;
}

/* The frame (file, or offset index in a stream) the seq-th transfer uses. */
uint64_t sm_frames_frame_of(const struct shared *sh, uint64_t seq)
{
	uint64_t k = seq % sh->distinct;

	switch (sh->plan->order) {
	case SM_ORDER_REVERSE:
		return sh->distinct - 1 - k;
	case SM_ORDER_RANDOM:
		return permute(k, sh->distinct, sh->run_seed);
	default:
		return k;
	}
}
