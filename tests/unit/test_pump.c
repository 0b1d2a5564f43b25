/* SPDX-License-Identifier: MIT */
/* I/O pump tests: every engine of the registry whose probe passes pumps
 * reads of known data through submit/reap/drain, and a fault engine
 * written here checks the policy (partial acceptance, refusal, -EINTR,
 * error completions, failures, stop while in flight, batching). */
#include "workload/pump.h"
#include "core/buf.h"
#include "core/compiler.h"
#include "core/worker.h"
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define BLK 4096u
#define NBLK 64u
#define DEPTH 8u
#define MAX_TESTS 40

static char scratch[PATH_MAX / 2];
static char data_path[PATH_MAX];

/* ---- the workload side: a ledger of what came back ---------------------- */

#define NIO 64u

struct ledger {
	struct sm_pump *p;
	struct sm_io ios[NIO];
	unsigned back[NIO];         /* times each request came back (done or unsent) */
	unsigned ndone, nunsent, nerr;
	int unsent_err;
	unsigned batches, largest;
	/* real engines: reissue each slot until `issue` requests were made */
	unsigned issued, issue;
	int verify;                 /* check the block's data */
	/* follow-ups: a done request with user == &follow gets one more */
	unsigned followups;
	int freed;                  /* buffers "freed": nothing may come back now */
};

static unsigned idx(struct ledger *l, struct sm_io *io)
{
	ptrdiff_t i = io - l->ios;

	assert_true(i >= 0 && (size_t)i < NIO);
	return (unsigned)i;
}

static char follow;

static void on_done(void *ctx, struct sm_io **ios, unsigned n)
{
	struct ledger *l = ctx;

	assert_false(l->freed);
	assert_true(n >= 1 && n <= l->p->cap);
	l->batches++;
	if (n > l->largest)
		l->largest = n;
	for (unsigned i = 0; i < n; i++) {
		struct sm_io *io = ios[i];
		unsigned k = idx(l, io);

		l->back[k]++;
		l->ndone++;
		if (io->res < 0) {
			l->nerr++;
			continue;
		}
		if (l->verify) {
			uint64_t tag;

			assert_int_equal(io->res, BLK);
			memcpy(&tag, io->buf, sizeof(tag));
			assert_int_equal(tag, io->off / BLK);
		}
		if (io->user == &follow) {
			/* a frame's next request (its close after the write) */
			io->user = NULL;
			l->back[k]--;
			l->followups++;
			assert_int_equal(sm_pump_queue(l->p, io), 0);
			continue;
		}
		if (l->issue && l->issued < l->issue && !sm_stopped()) {
			io->off = (uint64_t)(l->issued++ % NBLK) * BLK;
			l->back[k]--;
			assert_int_equal(sm_pump_queue(l->p, io), 0);
		}
	}
}

static void on_unsent(void *ctx, struct sm_io *io, int err)
{
	struct ledger *l = ctx;

	assert_false(l->freed);
	l->back[idx(l, io)]++;
	l->nunsent++;
	l->unsent_err = err;
	assert_int_equal(io->t_issue, 0);
}

/* Every request of the first n came back exactly once. */
static void all_back_once(const struct ledger *l, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(l->back[i], 1);
	for (unsigned i = n; i < NIO; i++)
		assert_int_equal(l->back[i], 0);
}

static void io_init(struct sm_io *io, enum sm_op op, int fd, void *buf, uint64_t off)
{
	memset(io, 0, sizeof(*io));
	io->op = op;
	io->fd = fd;
	io->buf = buf;
	io->len = BLK;
	io->off = off;
	io->buf_index = -1;
	io->file_index = -1;
}

/* ---- every engine ----------------------------------------------------------- */

/* Read 200 blocks at depth 8, slots reissued from done, then stop with
 * requests in flight and drain. */
static void test_engine_pump(void **state)
{
	const struct sm_engine_ops *ops = *state;
	int fd = open(data_path, O_RDWR | O_CLOEXEC);   /* mmap maps it shared, writable */
	uint64_t size = (uint64_t)NBLK * BLK;
	void *bufs[DEPTH];
	char *mem = sm_buf_alloc((size_t)DEPTH * BLK, BLK);
	struct sm_engine_cfg cfg = { .depth = DEPTH, .bufs = bufs, .nbufs = DEPTH, .buf_len = BLK,
				     .fds = &fd, .file_sizes = &size, .nfds = 1 };
	struct sm_engine e;
	struct sm_pump p;
	struct ledger *l = calloc(1, sizeof(*l));
	char notice[200];

	assert_true(fd >= 0);
	assert_non_null(mem);
	assert_non_null(l);
	for (unsigned i = 0; i < DEPTH; i++)
		bufs[i] = mem + (size_t)i * BLK;
	assert_int_equal(sm_engine_open(&e, ops->name, &cfg, notice, sizeof(notice)), 0);
	assert_ptr_equal(e.ops, ops);
	assert_int_equal(sm_pump_init(&p, &e, DEPTH, on_done, on_unsent, l), 0);
	l->p = &p;
	l->verify = !(ops->caps & SM_ENGINE_NO_IO);
	l->issue = 200;
	for (unsigned i = 0; i < DEPTH; i++) {
		io_init(&l->ios[i], SM_OP_READ, fd, bufs[i], (uint64_t)i * BLK);
		l->ios[i].buf_index = (int)i;
		l->ios[i].file_index = 0;
		l->issued++;
		assert_int_equal(sm_pump_queue(&p, &l->ios[i]), 0);
	}
	/* a ninth request while eight are out is a workload bug */
	assert_int_equal(sm_pump_queue(&p, &l->ios[DEPTH]), -ENOSPC);
	while (sm_pump_busy(&p)) {
		assert_int_equal(sm_pump_submit(&p), 0);
		assert_true(sm_pump_reap(&p, 1) >= 0);
	}
	assert_int_equal(l->ndone, 200);
	assert_int_equal(l->nerr, 0);
	assert_int_equal(sm_pump_inflight(&p), 0);

	/* stop with a full queue in flight: drain brings all of it back */
	memset(l->back, 0, sizeof(l->back));
	l->ndone = 0;
	l->issue = 0;
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(sm_pump_queue(&p, &l->ios[i]), 0);
	assert_int_equal(sm_pump_submit(&p), 0);
	atomic_store(&sm_stop_signal, SIGINT);
	assert_int_equal(sm_pump_drain(&p), 0);
	atomic_store(&sm_stop_signal, 0);
	assert_int_equal(sm_pump_busy(&p), 0);
	all_back_once(l, DEPTH);
	l->freed = 1;

	/* one request alone */
	{
		struct sm_io one;

		io_init(&one, SM_OP_READ, fd, bufs[0], 5 * BLK);
		assert_int_equal(sm_pump_do(&p, &one), BLK);
		if (l->verify) {
			uint64_t tag;

			memcpy(&tag, bufs[0], sizeof(tag));
			assert_int_equal(tag, 5);
		}
	}
	sm_pump_release(&p);
	sm_engine_close(&e);
	free(mem);
	free(l);
	close(fd);
}

/* ---- the fault engine ------------------------------------------------------- */

#define ALL 1000                    /* script: accept everything offered */

struct fault {
	struct sm_io *q[64];        /* accepted, not yet reaped, FIFO */
	unsigned head, nq, cap;
	int submit_script[16], reap_script[16];
	unsigned nsubmit_script, nreap_script, si, ri;
	int stingy;                 /* reap returns only min (at least 1) */
	int fail_at;                /* the request accepted fail_at-th (1-based) fails with -EIO */
	unsigned accepted, submits, reaps;
	int refused_last;           /* the last engine call was a refused submit */
	unsigned spins;             /* refused submits right after a refused submit */
	unsigned last_min, last_max;
	struct sm_io *order[64];    /* every request in the order accepted */
	int stop_on_submit;         /* raise the stop flag in the next submit */
};

static struct fault F;

static int fault_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	F.cap = cfg->depth;
	e->priv = &F;
	return 0;
}

static int fault_submit(SM_UNUSED struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	int s = F.si < F.nsubmit_script ? F.submit_script[F.si++] : ALL;
	unsigned k;

	F.submits++;
	if (F.stop_on_submit) {
		atomic_store(&sm_stop_signal, SIGINT);
		F.stop_on_submit = 0;
	}
	if (s <= 0) {
		if (F.refused_last)
			F.spins++;
		F.refused_last = 1;
		return s;
	}
	F.refused_last = 0;
	for (k = 0; k < n && k < (unsigned)s && F.nq < F.cap; k++) {
		struct sm_io *io = ios[k];

		io->t_issue = 1;
		io->t_done = 2;
		io->res = ++F.accepted == (unsigned)F.fail_at ? -EIO : (int64_t)io->len;
		F.order[F.accepted - 1] = io;
		F.q[(F.head + F.nq++) % 64] = io;
	}
	return (int)k;
}

static int fault_reap(SM_UNUSED struct sm_engine *e, struct sm_io **out, unsigned min, unsigned max)
{
	int s = F.ri < F.nreap_script ? F.reap_script[F.ri++] : 0;
	unsigned n = 0, want;

	F.reaps++;
	F.refused_last = 0;
	F.last_min = min;
	F.last_max = max;
	if (s < 0)
		return s;
	/* the pump never asks for more than is in flight */
	assert_true(min <= F.nq);
	want = F.stingy ? (min ? min : 1) : max;
	while (n < want && n < max && F.nq) {
		out[n++] = F.q[F.head];
		F.head = (F.head + 1) % 64;
		F.nq--;
	}
	return (int)n;
}

static void fault_exit(struct sm_engine *e)
{
	e->priv = NULL;
}

static const struct sm_engine_ops fault_ops = {
	.name = "fault",
	.help = "scripted faults",
	.caps = SM_ENGINE_ASYNC | SM_ENGINE_NO_IO,
	.init = fault_init,
	.submit = fault_submit,
	.reap = fault_reap,
	.exit = fault_exit,
};

struct rig {
	struct sm_engine e;
	struct sm_pump p;
	struct ledger l;
	char buf[BLK];
};

static int rig_setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	memset(&F, 0, sizeof(F));
	r->e.ops = &fault_ops;
	r->e.cfg.depth = 16;
	if (fault_ops.init(&r->e, &r->e.cfg) ||
	    sm_pump_init(&r->p, &r->e, 16, on_done, on_unsent, &r->l))
		return -1;
	r->l.p = &r->p;
	for (unsigned i = 0; i < NIO; i++)
		io_init(&r->l.ios[i], SM_OP_WRITE, 3, r->buf, (uint64_t)i * BLK);
	atomic_store(&sm_stop_signal, 0);
	*state = r;
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	atomic_store(&sm_stop_signal, 0);
	sm_pump_release(&r->p);
	sm_engine_close(&r->e);
	free(r);
	return 0;
}

static void queue_n(struct rig *r, unsigned from, unsigned n)
{
	for (unsigned i = from; i < from + n; i++)
		assert_int_equal(sm_pump_queue(&r->p, &r->l.ios[i]), 0);
}

/* Accepted 3, then 2, then the rest: everything goes, in order, at once. */
static void test_partial(void **state)
{
	struct rig *r = *state;
	int script[] = { 3, 2, ALL };

	memcpy(F.submit_script, script, sizeof(script));
	F.nsubmit_script = 3;
	queue_n(r, 0, 8);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(F.submits, 3);
	assert_int_equal(F.reaps, 0);
	assert_int_equal(sm_pump_inflight(&r->p), 8);
	for (unsigned i = 0; i < 8; i++)
		assert_ptr_equal(F.order[i], &r->l.ios[i]);
	assert_int_equal(sm_pump_reap(&r->p, 1), 8);
	all_back_once(&r->l, 8);
	assert_int_equal(r->p.err, 0);
}

/* Refused (-EAGAIN, then 0, then -EBUSY) with requests in flight: one
 * completion is reaped before each new offer; never two offers in a row. */
static void test_refusal_reaps_first(void **state)
{
	struct rig *r = *state;
	int script[] = { ALL, -EAGAIN, 0, -EBUSY, ALL };

	memcpy(F.submit_script, script, sizeof(script));
	F.nsubmit_script = 5;
	F.stingy = 1;
	queue_n(r, 0, 4);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	queue_n(r, 4, 4);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(F.spins, 0);
	assert_int_equal(F.reaps, 3);
	assert_int_equal(r->l.ndone, 3);
	assert_int_equal(sm_pump_inflight(&r->p), 5);
	assert_int_equal(sm_pump_drain(&r->p), 0);
	all_back_once(&r->l, 8);
}

/* Refused with nothing in flight: no progress is possible; the queued
 * requests come back unsent, the pump keeps -EAGAIN. */
static void test_refusal_idle(void **state)
{
	struct rig *r = *state;

	F.submit_script[0] = 0;
	F.nsubmit_script = 1;
	queue_n(r, 0, 3);
	assert_int_equal(sm_pump_submit(&r->p), -EAGAIN);
	assert_int_equal(r->p.err, -EAGAIN);
	assert_int_equal(r->l.nunsent, 3);
	assert_int_equal(r->l.unsent_err, -EAGAIN);
	assert_int_equal(sm_pump_busy(&r->p), 0);
	assert_int_equal(F.reaps, 0);
	all_back_once(&r->l, 3);
	/* what is queued after a failure is handed back at once */
	queue_n(r, 3, 1);
	assert_int_equal(sm_pump_submit(&r->p), -EAGAIN);
	assert_int_equal(F.submits, 1);
	all_back_once(&r->l, 4);
}

/* -EINTR without a stop is retried, in submit and in reap. */
static void test_eintr_retried(void **state)
{
	struct rig *r = *state;

	F.submit_script[0] = -EINTR;
	F.submit_script[1] = ALL;
	F.nsubmit_script = 2;
	F.reap_script[0] = -EINTR;
	F.reap_script[1] = -EINTR;
	F.nreap_script = 2;
	queue_n(r, 0, 4);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_inflight(&r->p), 4);
	assert_int_equal(sm_pump_reap(&r->p, 1), 4);
	assert_int_equal(F.reaps, 3);
	all_back_once(&r->l, 4);
}

/* -EINTR with the stop flag up is returned; drain then finishes through
 * more -EINTR, whatever the flag says. */
static void test_eintr_stop(void **state)
{
	struct rig *r = *state;

	F.submit_script[0] = 2;
	F.submit_script[1] = -EINTR;
	F.nsubmit_script = 2;
	F.stop_on_submit = 1;
	F.reap_script[0] = -EINTR;
	F.reap_script[1] = -EINTR;
	F.reap_script[2] = -EINTR;
	F.nreap_script = 3;
	queue_n(r, 0, 5);
	assert_int_equal(sm_pump_submit(&r->p), -EINTR);
	assert_int_equal(r->p.npend, 3);           /* the rest stays queued */
	assert_int_equal(sm_pump_reap(&r->p, 1), -EINTR);
	assert_int_equal(r->l.ndone, 0);
	assert_int_equal(r->p.err, 0);
	assert_true(sm_stopped());
	assert_int_equal(sm_pump_drain(&r->p), 0);
	assert_int_equal(sm_pump_busy(&r->p), 0);
	all_back_once(&r->l, 5);
	assert_int_equal(r->l.nunsent, 0);
}

/* An error completion is the request's result, not the pump's failure. */
static void test_error_completion(void **state)
{
	struct rig *r = *state;

	F.fail_at = 3;
	queue_n(r, 0, 6);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_reap(&r->p, 6), 6);
	assert_int_equal(r->l.nerr, 1);
	assert_int_equal(r->l.ios[2].res, -EIO);
	assert_int_equal(r->l.ios[1].res, BLK);
	assert_int_equal(r->p.err, 0);
	all_back_once(&r->l, 6);
}

/* The engine fails for good in submit after taking 2: the other 3 come
 * back unsent, the 2 in flight come back through drain. */
static void test_submit_failure(void **state)
{
	struct rig *r = *state;

	F.submit_script[0] = 2;
	F.submit_script[1] = -EIO;
	F.nsubmit_script = 2;
	queue_n(r, 0, 5);
	assert_int_equal(sm_pump_submit(&r->p), -EIO);
	assert_int_equal(r->p.err, -EIO);
	assert_int_equal(r->p.err_reaping, 0);
	assert_int_equal(r->l.nunsent, 3);
	assert_int_equal(r->l.unsent_err, -EIO);
	assert_int_equal(sm_pump_drain(&r->p), 0);
	assert_int_equal(r->l.ndone, 2);
	all_back_once(&r->l, 5);
}

/* The engine fails in reap: kept, and the engine is not waited on again. */
static void test_reap_failure(void **state)
{
	struct rig *r = *state;

	F.reap_script[0] = -EIO;
	F.nreap_script = 1;
	queue_n(r, 0, 3);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_reap(&r->p, 1), -EIO);
	assert_int_equal(r->p.err, -EIO);
	assert_int_equal(r->p.err_reaping, 1);
	assert_int_equal(sm_pump_drain(&r->p), -EIO);
	assert_int_equal(sm_pump_reap(&r->p, 1), -EIO);
	assert_int_equal(F.reaps, 1);
}

/* Stop while in flight: drain brings back what was in flight and what
 * done queued meanwhile (a frame's close after its write), before the
 * buffers may go. */
static void test_stop_in_flight(void **state)
{
	struct rig *r = *state;

	F.stingy = 1;
	for (unsigned i = 0; i < 4; i++)
		r->l.ios[i].user = &follow;
	queue_n(r, 0, 10);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_reap(&r->p, 1), 1);
	atomic_store(&sm_stop_signal, SIGTERM);
	assert_int_equal(sm_pump_drain(&r->p), 0);
	assert_int_equal(sm_pump_busy(&r->p), 0);
	assert_int_equal(r->l.followups, 4);
	assert_int_equal(r->l.ndone, 14);
	assert_int_equal(F.accepted, 14);
	all_back_once(&r->l, 10);
}

/* Batching: min is capped at what is in flight, max is the pump's cap,
 * and a whole batch comes back in one call of done. */
static void test_batching(void **state)
{
	struct rig *r = *state;

	queue_n(r, 0, 12);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(F.submits, 1);
	assert_int_equal(sm_pump_reap(&r->p, 32), 12);
	assert_int_equal(F.last_min, 12);
	assert_int_equal(F.last_max, 16);
	assert_int_equal(r->l.batches, 1);
	assert_int_equal(r->l.largest, 12);
	/* nothing in flight: no engine call, no wait */
	assert_int_equal(sm_pump_reap(&r->p, 1), 0);
	assert_int_equal(F.reaps, 1);
	queue_n(r, 12, 2);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_reap(&r->p, 0), 2);
	assert_int_equal(F.last_min, 0);
}

/* One request alone: through -EINTR; refused while others are in flight. */
static void test_do(void **state)
{
	struct rig *r = *state;
	struct sm_io *io = &r->l.ios[0];

	F.reap_script[0] = -EINTR;
	F.nreap_script = 1;
	atomic_store(&sm_stop_signal, SIGINT);
	assert_int_equal(sm_pump_do(&r->p, io), BLK);
	assert_int_equal(r->l.ndone, 0);           /* not through done */
	queue_n(r, 1, 1);
	assert_int_equal(sm_pump_submit(&r->p), 0);
	assert_int_equal(sm_pump_do(&r->p, &r->l.ios[2]), -EBUSY);
	assert_int_equal(sm_pump_drain(&r->p), 0);
}

/* ---- main ------------------------------------------------------------------------ */

static int make_data(void)
{
	int fd;
	char blk[BLK];

	snprintf(data_path, sizeof(data_path), "%s/data", scratch);
	fd = open(data_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (uint64_t i = 0; i < NBLK; i++) {
		memset(blk, (int)i, sizeof(blk));
		memcpy(blk, &i, sizeof(i));
		if (write(fd, blk, sizeof(blk)) != (ssize_t)sizeof(blk)) {
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

int main(void)
{
	static struct CMUnitTest tests[MAX_TESTS];
	static char names[MAX_TESTS][64];
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} faults[] = {
		{ "fault:partial", test_partial },
		{ "fault:refusal_reaps_first", test_refusal_reaps_first },
		{ "fault:refusal_idle", test_refusal_idle },
		{ "fault:eintr_retried", test_eintr_retried },
		{ "fault:eintr_stop", test_eintr_stop },
		{ "fault:error_completion", test_error_completion },
		{ "fault:submit_failure", test_submit_failure },
		{ "fault:reap_failure", test_reap_failure },
		{ "fault:stop_in_flight", test_stop_in_flight },
		{ "fault:batching", test_batching },
		{ "fault:do", test_do },
	};
	unsigned n = 0;
	int rc;

	t_tmpdir(scratch, sizeof(scratch), "pump");
	if (make_data()) {
		perror("test_pump: cannot create scratch data");
		return 1;
	}
	for (unsigned i = 0; sm_engines[i]; i++) {
		const struct sm_engine_ops *ops = sm_engines[i];
		int probe = ops->probe ? ops->probe() : 0;

		if (probe) {
			printf("[ SKIPPED  ] engine '%s': probe failed (%s)\n", ops->name,
			       strerror(-probe));
			continue;
		}
		snprintf(names[n], sizeof(names[n]), "%s:pump", ops->name);
		tests[n] = (struct CMUnitTest){ names[n], test_engine_pump, NULL, NULL, (void *)ops };
		n++;
	}
	for (unsigned i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		tests[n++] = (struct CMUnitTest){ faults[i].name, faults[i].fn, rig_setup,
						  rig_teardown, NULL };
	rc = _cmocka_run_group_tests("pump", tests, n, NULL, NULL);
	unlink(data_path);
	if (rmdir(scratch))
		fprintf(stderr, "test_pump: '%s' left behind: %s\n", scratch, strerror(errno));
	return rc;
}
