/* SPDX-License-Identifier: MIT */
/* The registry of the checker's invariants: each id with the sentence
 * docs/report.md gives it (tests/cli/check.sh compares the two lists), and
 * recording a violation, which takes only these ids. The bottom of check/:
 * it calls nothing else of it. */
#include "check/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct sm_check_inv sm_check_invs[] = {
	/* every result */
	{ "lat.histogram", "a latency object's min and max lie in its first and last buckets, its exact sum between its buckets' bounds" },
	{ "lat.figures", "a latency object's mean, stddev and percentiles are its histogram's" },
	{ "lat.order", "min <= p50 <= p90 <= p95 <= p99 <= p99.9 <= p99.99 <= max" },
	{ "ops.timed", "an operation's latency histogram counts its operations less its errors" },
	{ "totals.rate", "totals.items_per_s and totals.bytes_per_s are the totals over duration_ns" },
	{ "verify.share", "verify.hash_share is (seal_ns + check_ns) / (duration_ns x threads + pass_ns), the read-back pass's time in the whole, and at most 1" },
	{ "verify.rate", "verify's rates are the bytes hashed or read back over their own time" },
	/* frames */
	{ "frames.series-sum", "the series' items, bytes, dropped and time sums add up to the run's frames, bytes, drops and the operations' histogram sums" },
	{ "frames.series-span", "the series' durations add up to duration_ns" },
	{ "frames.windows", "each averaged window (last 1 s, 5 s, 30 s) within the run is the series' over that window; overall, and a window the run is shorter than, is the run's one overall figure (over the I/O, or a paced run's schedule)" },
	{ "frames.rate", "every frames rate is its frames or bytes over its own span (windows, paced schedule)" },
	{ "frames.counts", "totals, ops.frame, fastest/slowest, the histogram window and paced counts agree with frames.*" },
	{ "frames.share", "no count exceeds what holds it: drops, transfers and buffers within what was scheduled or allowed" },
	{ "frames.paced-span", "the paced schedule's span is the judged frames times the frame interval" },
	{ "frames.per-frame", "the per-frame columns add up to the run's frames, drops and frame times" },
	/* fileio */
	{ "fileio.series-sum", "the series' reads, writes, bytes, events and durations add up to the run's" },
	{ "fileio.series-time", "each interval's t_ns is the sum of the durations up to it" },
	{ "fileio.events", "events are the reads and writes that did not fail and the periodic fsyncs; totals and thread events add up to them" },
	{ "fileio.rate", "every fileio rate is its count over duration_ns" },
	{ "fileio.busy", "no thread is busy longer than the run; the threads' busy time is the events' time" },
	{ "fileio.percentiles", "the --percentile figures are the event-time histogram's" },
	/* time */
	{ "time.derived", "each run's CPU share, bytes per call and storage rates are its counts over its own wall time or calls" },
	{ "time.span", "the runs fit in the invocation's duration_ns" },
	{ "time.stats", "time.stats are the statistics of the runs' figures" },
	/* run */
	{ "run.rate", "every classic and frame test rate is its count or bytes over its own duration" },
	{ "run.meta", "run's metadata line: a sequence's listing time is its frames over the list rate, its probing time its frames over the stat rate plus over the probe rate" },
	{ "run.frames", "a frame test's bytes are its frames times the frame size; its series adds up to it" },
	{ "verdict.ratio", "a cell's needed rate is frame_bytes x fps, its ratio measured / needed" },
	{ "verdict.computed", "a cell's computed verdict and near_limit follow from its ratio (docs/run.md)" },
	{ "verdict.cliff", "a cell is marked ! exactly when its burst rate alone would have computed better" },
	{ "verdict.how", "a cell's verdict and how are what its computed class and the paced run it carries give (confirmed or lowered, never raised; a hold does not decide a computed no), and its paced outcome and length are its run's" },
	{ "verdict.legend", "a verdict's class is what its sustained rate gives (yes: ratio >= 1.2, ~: >= 1.0): a paced run confirms or lowers it, never raises it" },
	{ "verdict.share", "the near-limit cells left unconfirmed are at most the near-limit cells" },
	{ "verdict.model", "each cell's sustained and burst rates are the rate model's over the frame tests" },
	{ "verdict.basis", "a cell's basis (what it lacks: short, dip, extrapolated, stall) and its stall_ns are what the frame tests' lengths, stalls and seconds give" },
	{ "verdict.stall", "a cell whose basis names a stall is not real time, and its stall_ns is longer than its buffer_ns" },
	{ "verdict.sustained", "a real-time or marginal cell needs no more than the sustained 2K test of its direction moved (after a cliff, the rate after it)" },
	/* meta */
	{ "meta.count", "a complete meta run ran every phase (the probe exactly when the files have bytes), each counting every file, created them all and removed them; a partial one counts no more than the files" },
	{ "meta.rate", "a meta phase's per_s is its count over its own duration_ns" },
	{ "meta.bytes", "meta's create wrote count x size_bytes, its probe read min(size_bytes, probe_bytes) per file read, the other phases move no data" },
	{ "meta.span", "the meta phases' durations together fit in the run's duration_ns" },
	/* streams */
	{ "streams.step-sum", "a step's bytes, drops and worst p99.9 are its streams'" },
	{ "streams.rate", "a step's rates are its bytes over its schedule and over its duration; a cell's rate is frame_bytes x fps" },
	{ "streams.held", "a step held exactly when the rule says (complete, every stream done without drop or error, p99.9 within the buffers)" },
	{ "streams.moved-rate", "a cell's moved rate is its published rate (a result saved before the byte schedule: chunk_bytes x fps), and a step that kept its schedule moved each stream that rate within 1%" },
	{ "streams.answer", "a cell's answers (most held, first failed, at cap, aggregate, headroom) follow from its steps" },
	{ "streams.consistent", "a higher rate of a format and direction holds no more streams than a lower rate whose search failed above its answer; a bound names a lower rate's cell with that answer, and the cell's own trials' answer is kept beside it" },
	{ "streams.not-measured", "a step a transfer failed in is not judged; a cell no complete step answered is not measured (null answers, a reason), and 0 streams needs a failed step of one" },
	/* MPI jobs */
	{ "mpi.sum", "the job's and each host's bytes, items and rank counts are their ranks'" },
	{ "mpi.time", "the job's first and last done and each host's done are their ranks'" },
	{ "mpi.rate", "every MPI rate is its bytes over its own span" },
	{ "mpi.stragglers", "a rank is a straggler exactly when its rate is below straggler_below x the median" },
	{ "mpi.merge", "the merged document's totals and counts are the ranks' own results added up" },
	{ "mpi.detail", "the --mpi-rank-detail file has a line per rank, each rank once, and its results' bytes and count are the job's" },
	/* the text layouts against the document */
	{ "layout.line", "a line a layout prints for this result is there" },
	{ "frametest.figures", "frametest's figures are the document's after their rounding" },
	{ "frametest.one-overall", "frametest's `Overall frame rate` and the averaged table's `Overall:` row give one frame rate" },
	{ "frametest.verdict", "the --video-format verdict line is the paced run's verdict with its figures" },
	{ "sysbench.figures", "the sysbench layout's figures are the document's after their rounding" },
	{ "text.figures", "the native text layout's figures are the document's after their rounding" },
	{ "markdown.figures", "the markdown layout's figures are the document's after their rounding" },
	{ "csv.figures", "the CSV layout's figures are the document's" },
	{ "timeit.figures", "the timeit layout's figures are the document's after their rounding" },
	{ "mpi.text", "an MPI job's host and rank table after a text layout gives the document's mpi figures" },
	{ "verdict.marks", "each verdict table's mark is its cell's verdict, how and cliff, in every layout" },
	{ "verdict.words", "the summary's and the legend's words for a class hold for the cells they name" },
};

const unsigned sm_check_ninv = sizeof(sm_check_invs) / sizeof(sm_check_invs[0]);

const struct sm_check_inv *sm_check_inv_find(const char *id)
{
	for (unsigned i = 0; i < sm_check_ninv; i++)
		if (!strcmp(sm_check_invs[i].id, id))
			return &sm_check_invs[i];
	return NULL;
}

void sm_check_fail(struct sm_check *c, const char *id, const char *fmt, ...)
{
	const struct sm_check_inv *inv = sm_check_inv_find(id);
	struct sm_check_item *it;
	va_list ap;
	size_t off = 0;

	if (c->n >= SM_CHECK_MAX) {
		c->dropped++;
		return;
	}
	it = &c->item[c->n++];
	it->id = inv ? inv->id : "check.unknown-id";
	off = (size_t)snprintf(it->msg, sizeof(it->msg), "%s%s%s%s", c->prefix, inv ? "" : "(",
			       inv ? "" : id, inv ? "" : ") ");
	if (off >= sizeof(it->msg))
		off = sizeof(it->msg) - 1;
	va_start(ap, fmt);
	vsnprintf(it->msg + off, sizeof(it->msg) - off, fmt, ap);
	va_end(ap);
	/* one line, whatever a document's strings hold */
	for (char *s = it->msg; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}
