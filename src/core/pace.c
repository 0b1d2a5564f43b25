/* SPDX-License-Identifier: MIT */
/* Capture and playback schedules with dropped frames (docs/pacing.md). */
#include "core/pace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sm_pace_init(struct sm_pace *p, enum sm_pace_kind kind, uint64_t total, double fps,
		 unsigned q, unsigned b, struct sm_hist *early, struct sm_hist *late)
{
	memset(p, 0, sizeof(*p));
	if (!(fps > 0) || q == 0)
		return -EINVAL;
	p->kind = kind;
	p->total = total;
	p->interval_ns = 1e9 / fps;
	p->q = q;
	/* The display cannot wait for more frames than it has buffers for. */
	p->b = b > q ? q : b;
	if (p->b == 0)
		p->b = 1;
	p->early = early;
	p->late = late;
	if (kind == SM_PACE_CAPTURE)
		p->fifo = calloc(q, sizeof(*p->fifo));
	else
		p->bufs = calloc(q, sizeof(*p->bufs));
	if (!p->fifo && !p->bufs)
		return -ENOMEM;
	return 0;
}

void sm_pace_release(struct sm_pace *p)
{
	free(p->fifo);
	free(p->bufs);
	p->fifo = NULL;
	p->bufs = NULL;
}

void sm_pace_start(struct sm_pace *p, uint64_t t0)
{
	p->t0 = t0;
}

static uint64_t at(const struct sm_pace *p, uint64_t base, uint64_t seq)
{
	return base + (uint64_t)((double)seq * p->interval_ns + 0.5);
}

static void fate(struct sm_pace *p, int dropped, uint64_t seq)
{
	if (!dropped) {
		p->run = 0;
		return;
	}
	p->dropped++;
	if (p->drops)
		sm_framemap_drop(p->drops, seq);
	if (++p->run > p->longest_run)
		p->longest_run = p->run;
}

/* Capture: process every arrival up to now. No worker took a frame between
 * the previous call and this one, so judging them now is exact. */
static void capture_arrivals(struct sm_pace *p, uint64_t now)
{
	while (p->next_arrival < p->total && at(p, p->t0, p->next_arrival) <= now) {
		if (p->fifo_len == p->q) {
			fate(p, 1, p->next_arrival);
		} else {
			p->fifo[(p->fifo_head + p->fifo_len) % p->q] = p->next_arrival;
			p->fifo_len++;
			fate(p, 0, p->next_arrival);
			if (p->fifo_len > p->max_queue)
				p->max_queue = p->fifo_len;
		}
		p->next_arrival++;
	}
}

static enum sm_pace_claim capture_claim(struct sm_pace *p, uint64_t now, uint64_t *seq,
					uint64_t *sched, uint64_t *wake_ns)
{
	capture_arrivals(p, now);
	if (p->fifo_len) {
		*seq = p->fifo[p->fifo_head];
		p->fifo_head = (p->fifo_head + 1) % p->q;
		p->fifo_len--;
		*sched = at(p, p->t0, *seq);
		return SM_PACE_GO;
	}
	if (p->next_arrival >= p->total)
		return SM_PACE_DONE;
	*wake_ns = at(p, p->t0, p->next_arrival);
	return SM_PACE_WAIT;
}

uint64_t sm_pace_due(const struct sm_pace *p, uint64_t seq)
{
	return p->started ? at(p, p->t_start, seq) : 0;
}

static struct sm_pace_buf *find_buf(struct sm_pace *p, uint64_t seq)
{
	for (unsigned i = 0; i < p->q; i++)
		if (p->bufs[i].used && p->bufs[i].seq == seq)
			return &p->bufs[i];
	return NULL;
}

/* Playback: the display shows every frame due by `now`, in order. A frame
 * complete by its due time is shown and its buffer freed; one that is not
 * is dropped (its buffer is freed when it completes); one never read is
 * skipped (the readers will not read it). */
static void display_advance(struct sm_pace *p, uint64_t now)
{
	if (!p->started)
		return;
	while (p->next_display < p->total) {
		uint64_t d = p->next_display, due = sm_pace_due(p, d);
		struct sm_pace_buf *b;

		if (due > now)
			break;
		if (d >= p->next_issue) {
			p->next_issue = d + 1;
			p->skipped++;
			fate(p, 1, d);
		} else if ((b = find_buf(p, d)) && b->done) {
			int late = b->t_done > due;

			/* The pre-buffered frames shown are on time by
			 * construction (the display waited for them): how
			 * early they were says nothing about the storage. */
			if (late && p->late)
				sm_hist_add(p->late, b->t_done - due);
			else if (!late && d < p->b)
				p->shown_prebuffer++;
			else if (!late && p->early)
				sm_hist_add(p->early, due - b->t_done);
			fate(p, late, d);
			b->used = 0;
		} else {
			/* Not complete at its due time: dropped. b->done stays 0
			 * and sm_pace_complete() frees the buffer. */
			fate(p, 1, d);
		}
		p->next_display++;
	}
}

static enum sm_pace_claim playback_claim(struct sm_pace *p, uint64_t now, uint64_t *seq,
					 uint64_t *sched, uint64_t *wake_ns)
{
	unsigned used = 0;
	struct sm_pace_buf *free_buf = NULL;

	display_advance(p, now);
	if (p->next_issue >= p->total)
		return SM_PACE_DONE;
	*wake_ns = UINT64_MAX;
	for (unsigned i = 0; i < p->q; i++) {
		struct sm_pace_buf *b = &p->bufs[i];

		if (!b->used) {
			if (!free_buf)
				free_buf = b;
			continue;
		}
		used++;
		/* A complete frame frees its buffer at its due time. */
		if (b->done && p->started && sm_pace_due(p, b->seq) < *wake_ns)
			*wake_ns = sm_pace_due(p, b->seq);
	}
	if (!free_buf)
		return SM_PACE_WAIT;
	free_buf->used = 1;
	free_buf->done = 0;
	free_buf->seq = p->next_issue++;
	if (used + 1 > p->max_queue)
		p->max_queue = used + 1;
	*seq = free_buf->seq;
	*sched = sm_pace_due(p, *seq);
	return SM_PACE_GO;
}

enum sm_pace_claim sm_pace_claim(struct sm_pace *p, uint64_t now, uint64_t *seq,
				 uint64_t *sched, uint64_t *wake_ns)
{
	*wake_ns = UINT64_MAX;
	*sched = 0;
	if (p->kind == SM_PACE_CAPTURE)
		return capture_claim(p, now, seq, sched, wake_ns);
	return playback_claim(p, now, seq, sched, wake_ns);
}

int sm_pace_complete(struct sm_pace *p, uint64_t seq, uint64_t t_done)
{
	struct sm_pace_buf *b;

	if (p->kind == SM_PACE_CAPTURE)
		return 0;
	/* Judge what the display reached before this completion. */
	display_advance(p, t_done - (t_done > 0));
	b = find_buf(p, seq);
	if (!b)
		return 0;
	p->completed++;
	if (p->started && seq < p->next_display) {
		/* Its due time passed while it was still being read. */
		if (p->late)
			sm_hist_add(p->late, t_done - sm_pace_due(p, seq));
		b->used = 0;
		return 1;
	}
	b->done = 1;
	b->t_done = t_done;
	if (!p->started && p->completed >= (p->b < p->total ? p->b : p->total)) {
		p->started = 1;
		p->t_start = t_done;
		display_advance(p, t_done);
	}
	return 0;
}

void sm_pace_finish(struct sm_pace *p)
{
	if (p->kind != SM_PACE_PLAYBACK || !p->started)
		return;
	/* Every claimed frame is complete: show or drop each in order. */
	while (p->next_display < p->next_issue) {
		uint64_t due = sm_pace_due(p, p->next_display);

		display_advance(p, due);
	}
}
