/* SPDX-License-Identifier: MIT */
/* run's verdict marks and their words, shared by every layout. */
#include "report/verdict_words.h"
#include "analysis/verdict.h"

#include <stdio.h>
#include <string.h>

/* The --time whose paced runs last SM_RUN_PACED_LONG_NS (they get 3.5% of
 * it, at most 10 s: workload/profile_plan.c). */
#define PACED_LONG_TIME_S 286

char *sm_report_verdict_mark(char *buf, size_t len, const struct sm_verdict_cell *c)
{
	static const char *const word[SM_VERDICT_COUNT] = { "no", "?", "~", "yes" };

	snprintf(buf, len, "%s%s%s%s", word[c->final], c->how == SM_HOW_PACED ? "*" : "",
		 c->cliff ? "!" : "", c->basis & SM_BASIS_STALL ? "#" : "");
	return buf;
}

/* The words of each mark: [final][how]. */
#define HR_PCT_S "20"
#define HELD_LITTLE "held with little headroom"
static const char *const meaning[SM_VERDICT_COUNT][2] = {
	[SM_VERDICT_REALTIME] = { "real time with at least " HR_PCT_S "% headroom",
				  "real time with at least " HR_PCT_S "% headroom, and a paced run "
				  "held it" },
	[SM_VERDICT_MARGINAL] = { "marginal: keeps up with less than " HR_PCT_S "% headroom",
				  HELD_LITTLE ": a paced run held it, with less than " HR_PCT_S
				  "% headroom by the sustained rate or more than half its buffers "
				  "used" },
	[SM_VERDICT_UNCONFIRMED] = { "unconfirmed: the rates say it keeps up, but the run's "
				     "evidence does not bear it out (a burst, a second under the "
				     "need, a write too short to look for a cliff, or larger frames "
				     "than any measured) and no paced run confirmed it",
				     "unconfirmed" },
	[SM_VERDICT_NOT_REALTIME] = { "not real time",
				      "not real time: a paced run dropped frames" },
};

_Static_assert(SM_VERDICT_HEADROOM_PCT == 20, "the words say 20%");

const char *sm_report_verdict_meaning(const struct sm_verdict_cell *c)
{
	return meaning[c->final][c->how == SM_HOW_PACED];
}

char *sm_report_verdict_legend(char *buf, size_t len, const struct sm_run_result *res)
{
	const struct sm_run_derived *d = &res->derived;
	char unconf[400] = "", stall[200] = "";

	/* the marks the table holds, and only those */
	if (d->unconfirmed)
		snprintf(unconf, sizeof(unconf), " ? = %s.", meaning[SM_VERDICT_UNCONFIRMED][0]);
	if (d->stall_cells[0] || d->stall_cells[1])
		snprintf(stall, sizeof(stall), " # = a stall: the storage completed nothing for "
			 "longer than %u frames of buffers last at the rate, so frames drop "
			 "whatever the mean rate.", res->plan.queue);
	snprintf(buf, len, "yes = %s by the sustained rate; ~ = %s; no = %s. * = checked by a "
		 "paced run at that rate (or one that settles it): yes* = held, ~* = %s, no* = "
		 "dropped frames; a paced run confirms or lowers a verdict, never raises it.%s%s "
		 "Capture writes frames as they arrive, playback reads them in time for display.",
		 meaning[SM_VERDICT_REALTIME][0], meaning[SM_VERDICT_MARGINAL][0],
		 meaning[SM_VERDICT_NOT_REALTIME][0], HELD_LITTLE, unconf, stall);
	return buf;
}

/* "2.1" or "1.0 to 2.1" with prec decimals (one figure when both print
 * the same), then unit. */
static void span(char *buf, size_t len, double lo, double hi, int prec, const char *unit)
{
	char a[24], b[24];

	snprintf(a, sizeof(a), "%.*f", prec, lo);
	snprintf(b, sizeof(b), "%.*f", prec, hi);
	if (!strcmp(a, b))
		snprintf(buf, len, "%s %s", a, unit);
	else
		snprintf(buf, len, "%s to %s %s", a, b, unit);
}

char *sm_report_paced_note(char *buf, size_t len, const struct sm_run_result *res)
{
	const struct sm_run_derived *d = &res->derived;
	size_t pos = 0;
	char secs[48], frames[48];
	int n;

	buf[0] = '\0';
	if (!res->paced_runs && !res->near_unconfirmed && !d->paced_cells)
		return buf;
	n = snprintf(buf, len, "%u paced run%s", res->paced_runs, res->paced_runs == 1 ? "" : "s");
	pos = n > 0 && (size_t)n < len ? (size_t)n : len - 1;
	if (d->paced_cells) {
		span(secs, sizeof(secs), (double)d->paced_min_ns / 1e9, (double)d->paced_max_ns / 1e9,
		     1, "s");
		span(frames, sizeof(frames), (double)d->paced_min_frames, (double)d->paced_max_frames,
		     0, "frames");
		n = snprintf(buf + pos, len - pos, " of %s (%s)%s", secs, frames,
			     d->paced_short ? ": too short to say much, since a run under 10 s "
			     "can hold a rate the storage does not sustain until its buffers fill "
			     "(--time " : "");
		pos += n > 0 && (size_t)n < len - pos ? (size_t)n : len - pos - 1;
		if (d->paced_short) {
			n = snprintf(buf + pos, len - pos, "%u or more gives runs of 10 s)",
				     PACED_LONG_TIME_S);
			pos += n > 0 && (size_t)n < len - pos ? (size_t)n : len - pos - 1;
		}
	}
	n = snprintf(buf + pos, len - pos, "; %u near-limit verdict%s left as computed",
		     res->near_unconfirmed, res->near_unconfirmed == 1 ? "" : "s");
	pos += n > 0 && (size_t)n < len - pos ? (size_t)n : len - pos - 1;
	if (d->held_below_need)
		snprintf(buf + pos, len - pos, ". %u cell%s that a paced run held stay%s no: the "
			 "sustained rate is under the need", d->held_below_need,
			 d->held_below_need == 1 ? "" : "s", d->held_below_need == 1 ? "s" : "");
	return buf;
}

char *sm_report_paced_words(char *buf, size_t len, const struct sm_verdict_cell *c)
{
	const struct sm_paced *p = &c->paced;
	int v = sm_verdict_cell_outcome(c);

	buf[0] = '\0';
	if (v < 0)
		return buf;
	snprintf(buf, len, "a paced run of %.1f s (%llu frames at %.3g fps): %llu moved, %llu "
		 "dropped, p99.9 from schedule %.1f ms (%s)", (double)p->length_ns / 1e9,
		 (unsigned long long)p->scheduled, 1e9 / (double)p->interval_ns,
		 (unsigned long long)p->done, (unsigned long long)p->dropped,
		 (double)p->p999_sched_ns / 1e6, sm_paced_outcome_name((enum sm_verdict)v));
	return buf;
}
