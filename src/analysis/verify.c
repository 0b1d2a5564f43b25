/* SPDX-License-Identifier: MIT */
/* Rates of a verifying run: bytes hashed over the time spent hashing them. */
#include "analysis/verify.h"
#include "core/clock.h"

void sm_verify_figures(const struct sm_verify_stats *st, uint64_t block, uint64_t threads,
		       uint64_t duration_ns, struct sm_verify_fig *out)
{
	/* the run's threads, and the read-back pass (one thread, after the
	 * run), whose checking is in check_ns too: a share of both */
	double avail = (double)duration_ns * (double)(threads ? threads : 1) + (double)st->pass_ns;

	out->seal_bytes_per_s = sm_per_s((double)(st->sealed * block), st->seal_ns);
	out->check_bytes_per_s = sm_per_s((double)(st->checked * block), st->check_ns);
	out->hash_share = avail > 0 ? (double)(st->seal_ns + st->check_ns) / avail : 0;
	out->pass_bytes_per_s = sm_per_s((double)st->pass_bytes, st->pass_ns);
}
