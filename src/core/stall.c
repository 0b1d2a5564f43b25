/* SPDX-License-Identifier: MIT */
/* The stall detector: gaps in a test's completions, seen by a sampler. */
#include "core/stall.h"

#include <string.h>

void sm_stall_det_init(struct sm_stall_det *d)
{
	memset(d, 0, sizeof(*d));
	d->out.period_ns = SM_STALL_PERIOD_NS;
}

void sm_stalls_add(struct sm_stalls *s, uint64_t at_ns, uint64_t len_ns)
{
	unsigned i;

	if (len_ns > s->longest_ns)
		s->longest_ns = len_ns;
	if (len_ns < SM_STALL_FLOOR_NS)
		return;
	s->gaps++;
	if (s->nkept == SM_STALL_KEEP && s->kept[SM_STALL_KEEP - 1].len_ns >= len_ns)
		return;
	if (s->nkept < SM_STALL_KEEP)
		s->nkept++;
	/* insertion into the sorted list, dropping the shortest when full */
	for (i = s->nkept - 1; i > 0 && s->kept[i - 1].len_ns < len_ns; i--)
		s->kept[i] = s->kept[i - 1];
	s->kept[i].at_ns = at_ns;
	s->kept[i].len_ns = len_ns;
}

/* The gap open since quiet_since ends (its length so far is d->cur). */
static void close_gap(struct sm_stall_det *d)
{
	if (d->cur)
		sm_stalls_add(&d->out, d->quiet_since, d->cur);
	d->cur = 0;
}

void sm_stall_det_feed(struct sm_stall_det *d, uint64_t t_ns, uint64_t count)
{
	if (!d->started) {
		if (count == 0)
			return;
		d->started = 1;
		d->last_count = count;
		d->quiet_since = t_ns;
		return;
	}
	if (count == d->last_count) {
		/* nothing completed in (quiet_since, t_ns] */
		d->cur = t_ns > d->quiet_since ? t_ns - d->quiet_since : 0;
		return;
	}
	/* something completed after the previous sample: the gap, if any,
	 * lasted at least until that sample */
	close_gap(d);
	d->last_count = count;
	d->quiet_since = t_ns;
}

void sm_stall_det_end(struct sm_stall_det *d, uint64_t end_ns, struct sm_stalls *out)
{
	if (d->started && end_ns > d->quiet_since)
		d->cur = end_ns - d->quiet_since;
	close_gap(d);
	d->out.measured = 1;
	*out = d->out;
}

void sm_stalls_merge(struct sm_stalls *dst, const struct sm_stalls *src, uint64_t offset_ns)
{
	if (!src->measured)
		return;
	if (!dst->measured) {
		dst->measured = 1;
		dst->period_ns = src->period_ns;
	}
	for (unsigned i = 0; i < src->nkept; i++)
		sm_stalls_add(dst, src->kept[i].at_ns + offset_ns, src->kept[i].len_ns);
	/* the gaps src counted but did not keep (each at least the floor) */
	dst->gaps += src->gaps - src->nkept;
	if (src->longest_ns > dst->longest_ns)
		dst->longest_ns = src->longest_ns;
}

void sm_stalls_shift(struct sm_stalls *s, uint64_t d)
{
	for (unsigned i = 0; i < s->nkept; i++)
		s->kept[i].at_ns = s->kept[i].at_ns > d ? s->kept[i].at_ns - d : 0;
}

void sm_stalls_count(struct sm_stalls *s, uint64_t threshold_ns)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < s->nkept; i++)
		n += s->kept[i].len_ns > threshold_ns;
	s->threshold_ns = threshold_ns;
	s->count = n;
	/* every kept gap is past the threshold and some were not kept: there
	 * may be more */
	s->count_capped = s->nkept == SM_STALL_KEEP && n == SM_STALL_KEEP &&
			  s->gaps > SM_STALL_KEEP;
}
