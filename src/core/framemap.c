/* SPDX-License-Identifier: MIT */
/* The per-frame series summarised per column (see framemap.h). */
#include "core/framemap.h"

#include <string.h>

void sm_framemap_init(struct sm_framemap *m)
{
	memset(m, 0, sizeof(*m));
	m->width = 1;
}

static void col_merge(struct sm_framemap_col *d, const struct sm_framemap_col *s)
{
	if (s->frames) {
		if (!d->frames || s->min_ns < d->min_ns)
			d->min_ns = s->min_ns;
		if (!d->frames || s->max_ns > d->max_ns)
			d->max_ns = s->max_ns;
		d->frames += s->frames;
		d->sum_ns += s->sum_ns;
	}
	if (s->sched_frames) {
		if (!d->sched_frames || s->sched_min_ns < d->sched_min_ns)
			d->sched_min_ns = s->sched_min_ns;
		if (!d->sched_frames || s->sched_max_ns > d->sched_max_ns)
			d->sched_max_ns = s->sched_max_ns;
		d->sched_frames += s->sched_frames;
		d->sched_sum_ns += s->sched_sum_ns;
	}
	d->dropped += s->dropped;
}

/* Columns 2i and 2i+1 into column i: the width doubles. */
static void fold(struct sm_framemap *m)
{
	unsigned n = (m->ncols + 1) / 2;

	for (unsigned i = 0; i < n; i++) {
		struct sm_framemap_col c = m->col[2 * i];

		if (2 * i + 1 < SM_FRAMEMAP_COLS)
			col_merge(&c, &m->col[2 * i + 1]);
		m->col[i] = c;
	}
	memset(&m->col[n], 0, (SM_FRAMEMAP_COLS - n) * sizeof(m->col[0]));
	m->ncols = n;
	m->width *= 2;
}

void sm_framemap_widen(struct sm_framemap *m, uint64_t width)
{
	while (m->width < width)
		fold(m);
}

/* The column of seq, folding as needed. width is a power of two (1,
 * doubled by every fold): a shift, not a division, per frame. */
static struct sm_framemap_col *col_of(struct sm_framemap *m, uint64_t seq)
{
	uint64_t i;

	while ((i = seq >> __builtin_ctzll(m->width)) >= SM_FRAMEMAP_COLS)
		fold(m);
	if (i + 1 > m->ncols)
		m->ncols = (unsigned)i + 1;
	return &m->col[i];
}

void sm_framemap_add(struct sm_framemap *m, uint64_t seq, uint64_t frame_ns, int have_sched,
		     uint64_t sched_ns)
{
	struct sm_framemap_col *c = col_of(m, seq);

	if (!c->frames || frame_ns < c->min_ns)
		c->min_ns = frame_ns;
	if (!c->frames || frame_ns > c->max_ns)
		c->max_ns = frame_ns;
	c->frames++;
	c->sum_ns += frame_ns;
	if (have_sched) {
		if (!c->sched_frames || sched_ns < c->sched_min_ns)
			c->sched_min_ns = sched_ns;
		if (!c->sched_frames || sched_ns > c->sched_max_ns)
			c->sched_max_ns = sched_ns;
		c->sched_frames++;
		c->sched_sum_ns += sched_ns;
	}
}

void sm_framemap_drop(struct sm_framemap *m, uint64_t seq)
{
	col_of(m, seq)->dropped++;
}

void sm_framemap_merge(struct sm_framemap *dst, const struct sm_framemap *src)
{
	uint64_t w = src->width;

	sm_framemap_widen(dst, w);
	for (unsigned i = 0; i < src->ncols; i++) {
		/* src column i covers [i*w, (i+1)*w): within one dst column */
		uint64_t seq = (uint64_t)i * w;
		struct sm_framemap_col *d = col_of(dst, seq);

		col_merge(d, &src->col[i]);
	}
}
