/* SPDX-License-Identifier: MIT */
/* uring engine: asynchronous requests on one io_uring per instance, bound
 * to the thread that drives it, with registered buffers and files, batched
 * submission and completion, and optional SQ and completion polling. */
#include "engine/engine.h"
#include "engine/sync_exec.h"
#include "core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Largest transfer one SQE carries (sqe->len is 32 bits, and the kernel cuts
 * a single read or write near 2 GiB anyway); longer requests continue
 * through the partial-transfer path. */
#define URING_MAX_CHUNK (1u << 30)

/* Setup flags newer than some liburing headers; the kernel rejects what it
 * does not know with EINVAL and ring_setup() then tries without them. */
#ifndef IORING_SETUP_SUBMIT_ALL
#define IORING_SETUP_SUBMIT_ALL (1u << 7)
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1u << 8)
#endif
#ifndef IORING_SETUP_TASKRUN_FLAG
#define IORING_SETUP_TASKRUN_FLAG (1u << 9)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1u << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1u << 13)
#endif
#ifndef IORING_ASYNC_CANCEL_ANY
#define IORING_ASYNC_CANCEL_ANY (1u << 2)
#endif

/*
 * Requests per submission system call, unless cfg.flags says otherwise.
 * io_uring plugs a batch of more than two requests and the block layer
 * dispatches the plug when the call ends, so with 32 requests in one call
 * the device waits while all 32 go through the file system. On this
 * project's virtio disk (mq-deadline, ext4, kernel 6.18) 4 KiB direct
 * random writes at depth 32 went from 107k to 136k IOPS with chunks of
 * 4, and depth 16 from 93k to 105k (bench/README.md); reads moved less
 * (they complete without a workqueue). 4 still lets a fast device take
 * several requests per doorbell.
 */
#define URING_SUBMIT_BATCH 4u

/* The kernel's limit on SQ entries; deeper requests are not accepted. */
#define URING_MAX_ENTRIES (1u << 15)

/* The opcodes the engine needs; a kernel that lacks READ/WRITE (before 5.6)
 * or cannot say what it supports (no probe) is refused in probe(). */
static const unsigned char op_code[SM_OP__COUNT] = {
	[SM_OP_READ] = IORING_OP_READ,
	[SM_OP_WRITE] = IORING_OP_WRITE,
	[SM_OP_OPEN] = IORING_OP_OPENAT,
	[SM_OP_CLOSE] = IORING_OP_CLOSE,
	[SM_OP_FSYNC] = IORING_OP_FSYNC,
	[SM_OP_FDATASYNC] = IORING_OP_FSYNC,
};

/*
 * Per-instance state. Invariants: ring_reqs + ready.count == requests
 * accepted by submit() and not yet returned by reap() (== e->inflight), and
 * never more than cap, so the CQ ring (twice the SQ size) cannot overflow
 * and a resubmitted partial transfer always finds a free SQE once the SQ has
 * been flushed. `broken` is a sticky -errno after a non-transient
 * io_uring_enter() failure.
 */
struct owned;

struct uring {
	struct io_uring ring;
	unsigned setup;                /* IORING_SETUP_* the ring was created with */
	int iopoll;                    /* completions must be polled for */
	/* The driving thread (engine.h): the first submit or reap enables a
	 * ring created disabled and registers its fd there. list and next:
	 * that thread's bound rings, under owned_mu, for drain at its end. */
	int bound;
	int orphaned;                  /* the driving thread has ended */
	int ring_fd_registered;        /* now */
	int ring_fd_used;              /* was, by the driving thread */
	pthread_t owner;
	struct owned *list;
	struct uring *next;
	unsigned cap;                  /* cfg.depth: most requests accepted */
	unsigned batch;                /* most requests per submission call */
	unsigned ring_reqs;            /* requests whose completion is in the ring */
	int broken;
	int fixed_bufs;                /* cfg.bufs registered */
	int fixed_files;               /* cfg.fds registered (as reported) */
	int files_held;                /* ... and not unregistered yet */
	/* Copies of cfg.bufs / cfg.fds, which callers may free after init:
	 * prep() checks each request against them. */
	char **buf_base;
	size_t buf_len;
	unsigned nbufs;
	int *fds;
	unsigned nfds;
	unsigned char sync_op[SM_OP__COUNT];  /* 1: run with sm_sync_exec() */
	struct sm_done_fifo ready;     /* completed without the ring */
};

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 1;

	while (p < n && p < URING_MAX_ENTRIES)
		p <<= 1;
	return p;
}

/* Transient io_uring_enter() failures: the SQEs stay queued and are
 * flushed again by the next submit() or reap(). */
static int transient(int rc)
{
	return rc == -EAGAIN || rc == -EBUSY || rc == -ENOMEM || rc == -EINTR;
}

static int uring_probe(void)
{
	struct io_uring ring;
	struct io_uring_probe *p;
	int rc = io_uring_queue_init(2, &ring, 0);

	if (rc < 0)
		return rc;      /* -ENOSYS (old kernel), -EPERM (seccomp), ... */
	p = io_uring_get_probe_ring(&ring);
	if (!p)
		rc = -ENOSYS;   /* before 5.6: no IORING_REGISTER_PROBE */
	else if (!io_uring_opcode_supported(p, IORING_OP_READ) ||
		 !io_uring_opcode_supported(p, IORING_OP_WRITE))
		rc = -ENOSYS;
	if (p)
		io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return rc;
}

/*
 * Create the ring with the most helpful setup flags the kernel accepts,
 * newest first; each try adds extra (SQPOLL or IOPOLL), which is never
 * dropped. SINGLE_ISSUER (6.0) and DEFER_TASKRUN (6.1) bind the ring to
 * one thread, so the ring starts disabled (R_DISABLED, 5.10) and the
 * driving thread enables it (bind_thread); DEFER_TASKRUN runs completion
 * work only when that thread asks for events. COOP_TASKRUN (5.19) runs it
 * at the next kernel entry instead of interrupting the thread; TASKRUN_FLAG
 * tells a poll that such work is waiting (liburing's peek then enters the
 * kernel). SUBMIT_ALL (5.18) keeps a batch going past a bad SQE. SQPOLL
 * takes neither COOP nor DEFER_TASKRUN; its tries fail with EINVAL and the
 * next one is taken.
 */
static int ring_setup(struct io_uring *ring, unsigned entries, unsigned extra, unsigned *got)
{
	static const unsigned tries[] = {
		IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_SUBMIT_ALL,
		0,
	};
	int rc = -EINVAL;

	for (unsigned i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		rc = io_uring_queue_init(entries, ring, tries[i] | extra);
		if (rc != -EINVAL) {
			*got = tries[i] | extra;
			break;
		}
	}
	return rc;
}

/* Before teardown: cancel what can be cancelled (a read from an idle pipe)
 * and wait for the rest, so that no request still in the kernel writes a
 * buffer after the caller frees it (closing the ring does not wait).
 * Gives up on a request that shows no sign of life for a second. */
static void drain(struct uring *u)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int rc;

	if (!u->ring_reqs || u->broken)
		return;
	sqe = io_uring_get_sqe(&u->ring);
	if (sqe) {
		/* CANCEL_ANY needs 5.19; older kernels answer EINVAL and the
		 * wait below still applies. */
		io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
		io_uring_sqe_set_data(sqe, NULL);
		io_uring_submit(&u->ring);
	}
	while (u->ring_reqs) {
		rc = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (rc == -EINTR)
			continue;
		if (rc < 0)
			break;
		if (io_uring_cqe_get_data(cqe))
			u->ring_reqs--;
		io_uring_cqe_seen(&u->ring, cqe);
	}
}

/* ---- the driving thread ---------------------------------------------------- */

/* One thread's bound rings; the list lives in thread-specific data whose
 * destructor drains them when the thread ends. */
struct owned {
	struct uring *head;
};

static pthread_mutex_t owned_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t owned_once = PTHREAD_ONCE_INIT;
static pthread_key_t owned_key;
static int owned_key_ok;

/* Runs on the ending thread, the only one the kernel lets wait for these
 * rings' completions: what it left in flight is cancelled or waited for
 * here, so no request outlives the buffers the workload frees next. */
static void thread_gone(void *arg)
{
	struct owned *o = arg;

	pthread_mutex_lock(&owned_mu);
	for (struct uring *u = o->head; u; u = u->next) {
		drain(u);
		/* only this thread may (a single-issuer ring): see uring_exit */
		if (u->files_held && io_uring_unregister_files(&u->ring) == 0)
			u->files_held = 0;
		if (u->ring_fd_registered && io_uring_unregister_ring_fd(&u->ring) == 1)
			u->ring_fd_registered = 0;
		u->orphaned = 1;
		u->list = NULL;
	}
	pthread_mutex_unlock(&owned_mu);
	free(o);
}

static void owned_key_make(void)
{
	owned_key_ok = pthread_key_create(&owned_key, thread_gone) == 0;
}

static void unlink_owned(struct uring *u)
{
	pthread_mutex_lock(&owned_mu);
	if (u->list) {
		struct uring **pp = &u->list->head;

		while (*pp && *pp != u)
			pp = &(*pp)->next;
		if (*pp)
			*pp = u->next;
		u->list = NULL;
	}
	pthread_mutex_unlock(&owned_mu);
}

/* The first call from a thread binds the ring to it: enable a disabled
 * ring (the kernel then takes this thread as its single issuer), register
 * the ring fd for this thread's io_uring_enter calls (SINGLE_ISSUER rings
 * only: on others another thread could still enter, and liburing would
 * pass it an index that thread does not have). Returns 0 or -errno. */
static __attribute__((noinline)) int bind_slow(struct uring *u)
{
	struct owned *o;

	if (u->bound)
		return -EXDEV;
	if (u->setup & IORING_SETUP_R_DISABLED) {
		if (syscall(__NR_io_uring_register, u->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS,
			    NULL, 0) < 0) {
			u->broken = -errno;
			return u->broken;
		}
	}
	if (u->setup & IORING_SETUP_SINGLE_ISSUER)
		u->ring_fd_used = u->ring_fd_registered =
			io_uring_register_ring_fd(&u->ring) == 1;
	u->owner = pthread_self();
	u->bound = 1;
	pthread_once(&owned_once, owned_key_make);
	if (!owned_key_ok)
		return 0;
	pthread_mutex_lock(&owned_mu);
	o = pthread_getspecific(owned_key);
	if (!o && (o = calloc(1, sizeof(*o))) && pthread_setspecific(owned_key, o)) {
		free(o);
		o = NULL;
	}
	if (o) {
		u->next = o->head;
		o->head = u;
		u->list = o;
	}
	pthread_mutex_unlock(&owned_mu);
	return 0;
}

static inline int bind_thread(struct uring *u)
{
	if (u->bound && !u->orphaned && pthread_equal(u->owner, pthread_self()))
		return 0;
	return bind_slow(u);
}

/* 1 when the calling thread may enter this ring: it drives it, or nobody
 * ever did. */
static int on_owner(const struct uring *u)
{
	return !u->bound || (!u->orphaned && pthread_equal(u->owner, pthread_self()));
}

static void uring_exit(struct sm_engine *e)
{
	struct uring *u = e->priv;

	if (!u)
		return;
	unlink_owned(u);
	/* Another thread cannot wait for a bound ring; its driving thread
	 * drained it when it ended (thread_gone). */
	if (on_owner(u))
		drain(u);
	/* The registered files are let go now (by the thread that drove the
	 * ring, when it ended: thread_gone): a ring closed with them is torn
	 * down by a kernel worker after we return (or exit), and until then
	 * a removed file's space is not freed, so a removal right after the
	 * run would not give it back at once. */
	if (u->files_held && on_owner(u))
		io_uring_unregister_files(&u->ring);
	io_uring_queue_exit(&u->ring);
	sm_done_fifo_release(&u->ready);
	free(u->buf_base);
	free(u->fds);
	free(u);
	e->priv = NULL;
}

static int uring_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct uring *u = calloc(1, sizeof(*u));
	struct io_uring_probe *p = NULL;
	struct iovec *iov = NULL;
	int rc;

	if (!u)
		return -ENOMEM;
	u->cap = cfg->depth ? cfg->depth : 1;
	if (u->cap > URING_MAX_ENTRIES)
		u->cap = URING_MAX_ENTRIES;
	rc = sm_done_fifo_init(&u->ready, u->cap);
	if (rc) {
		free(u);
		return rc;
	}
	u->iopoll = !!(cfg->flags & SM_ENGINE_IOPOLL);
	u->batch = SM_ENGINE_BATCH_OF(cfg->flags) ? SM_ENGINE_BATCH_OF(cfg->flags)
						   : URING_SUBMIT_BATCH;
	rc = ring_setup(&u->ring, pow2_at_least(u->cap),
			(cfg->flags & SM_ENGINE_SQPOLL ? IORING_SETUP_SQPOLL : 0) |
				(u->iopoll ? IORING_SETUP_IOPOLL : 0),
			&u->setup);
	if (rc < 0) {
		sm_done_fifo_release(&u->ready);
		free(u);
		return rc;
	}
	e->priv = u;

	/* Operations the ring cannot do (kernel or policy) run synchronously
	 * with sm_sync_exec(); READ and WRITE were checked by probe(). */
	p = io_uring_get_probe_ring(&u->ring);
	if (!p) {
		rc = -ENOSYS;
		goto out;
	}
	for (unsigned op = 0; op < SM_OP__COUNT; op++)
		u->sync_op[op] = !io_uring_opcode_supported(p, op_code[op]);
	/* A polled ring takes only reads and writes (O_DIRECT) */
	if (u->iopoll)
		for (unsigned op = 0; op < SM_OP__COUNT; op++)
			if (op != SM_OP_READ && op != SM_OP_WRITE)
				u->sync_op[op] = 1;
	if (u->sync_op[SM_OP_READ] || u->sync_op[SM_OP_WRITE]) {
		rc = -ENOSYS;
		goto out;
	}

	/* Registration is an optimisation: when the kernel refuses it (e.g.
	 * RLIMIT_MEMLOCK on old kernels), requests use plain buffers/fds. */
	if (cfg->bufs && cfg->nbufs && cfg->buf_len &&
	    io_uring_opcode_supported(p, IORING_OP_READ_FIXED) &&
	    io_uring_opcode_supported(p, IORING_OP_WRITE_FIXED)) {
		iov = calloc(cfg->nbufs, sizeof(*iov));
		u->buf_base = calloc(cfg->nbufs, sizeof(*u->buf_base));
		if (!iov || !u->buf_base) {
			rc = -ENOMEM;
			goto out;
		}
		for (unsigned i = 0; i < cfg->nbufs; i++) {
			iov[i].iov_base = cfg->bufs[i];
			iov[i].iov_len = cfg->buf_len;
			u->buf_base[i] = cfg->bufs[i];
		}
		u->fixed_bufs = io_uring_register_buffers(&u->ring, iov, cfg->nbufs) == 0;
		u->nbufs = cfg->nbufs;
		u->buf_len = cfg->buf_len;
	}
	if (cfg->fds && cfg->nfds) {
		u->fds = malloc(cfg->nfds * sizeof(*u->fds));
		if (!u->fds) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(u->fds, cfg->fds, cfg->nfds * sizeof(*u->fds));
		u->fixed_files = io_uring_register_files(&u->ring, cfg->fds, cfg->nfds) == 0;
		u->files_held = u->fixed_files;
		u->nfds = cfg->nfds;
	}
	rc = 0;
out:
	free(iov);
	if (p)
		io_uring_free_probe(p);
	if (rc)
		uring_exit(e);
	return rc;
}

/* Fill sqe for io, continuing after the io->done bytes already moved. Uses
 * the registered buffer/file when the request names one that matches. */
static void prep(const struct uring *u, struct io_uring_sqe *sqe, struct sm_io *io)
{
	int fd = io->fd;
	unsigned flags = 0;

	if (u->files_held && io->file_index >= 0 && (unsigned)io->file_index < u->nfds &&
	    u->fds[io->file_index] == io->fd && io->op != SM_OP_OPEN && io->op != SM_OP_CLOSE) {
		fd = io->file_index;
		flags = IOSQE_FIXED_FILE;
	}
	switch (io->op) {
	case SM_OP_READ:
	case SM_OP_WRITE: {
		char *p = (char *)io->buf + io->done;
		size_t left = io->len - io->done;
		unsigned chunk = left > URING_MAX_CHUNK ? URING_MAX_CHUNK : (unsigned)left;
		int bi = io->buf_index;

		if (u->fixed_bufs && bi >= 0 && (unsigned)bi < u->nbufs &&
		    (char *)io->buf >= u->buf_base[bi] && io->len <= u->buf_len &&
		    (size_t)((char *)io->buf - u->buf_base[bi]) <= u->buf_len - io->len) {
			if (io->op == SM_OP_READ)
				io_uring_prep_read_fixed(sqe, fd, p, chunk, io->off + io->done, bi);
			else
				io_uring_prep_write_fixed(sqe, fd, p, chunk, io->off + io->done, bi);
		} else if (io->op == SM_OP_READ) {
			io_uring_prep_read(sqe, fd, p, chunk, io->off + io->done);
		} else {
			io_uring_prep_write(sqe, fd, p, chunk, io->off + io->done);
		}
		break;
	}
	case SM_OP_OPEN:
		io_uring_prep_openat(sqe, io->fd, io->path, io->open_flags, io->mode);
		break;
	case SM_OP_CLOSE:
		io_uring_prep_close(sqe, io->fd);
		break;
	case SM_OP_FSYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case SM_OP_FDATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	default:
		io_uring_prep_nop(sqe);   /* not reached: submit() checks op */
		break;
	}
	sqe->flags |= (unsigned char)flags;
	io_uring_sqe_set_data(sqe, io);
}

/* Hand queued SQEs to the kernel. Returns 0, or the sticky -errno of a
 * non-transient failure (the engine is then unusable). */
static int flush(struct uring *u)
{
	int rc;

	if (u->broken)
		return u->broken;
	if (!io_uring_sq_ready(&u->ring))
		return 0;
	rc = io_uring_submit(&u->ring);
	if (rc < 0 && !transient(rc))
		u->broken = rc;
	return u->broken;
}

/* Submit the SQEs prepared for ios[from, to), stamping their t_issue with
 * one clock read just before the call. Returns 0, or the sticky failure. */
static int submit_chunk(struct uring *u, struct sm_io **ios, unsigned from, unsigned to)
{
	uint64_t now = sm_now_ns();
	int rc;

	for (unsigned j = from; j < to; j++)
		ios[j]->t_issue = now;
	u->ring_reqs += to - from;
	rc = io_uring_submit(&u->ring);
	if (rc < 0 && !transient(rc))
		u->broken = rc;
	return u->broken;
}

/*
 * Accept up to n requests (fewer when cap would be passed), prepare one SQE
 * each and submit them, u->batch to an io_uring_enter() (URING_SUBMIT_BATCH
 * says why not all at once). t_issue is one clock read per call, taken just
 * before it. Operations the ring cannot do run synchronously here and are
 * returned by the next reap().
 */
static int uring_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct uring *u = e->priv;
	unsigned i, first = 0, pending = 0, nring = 0, busy = u->ring_reqs + u->ready.count;
	int rc;

	if (u->broken)
		return u->broken;
	rc = bind_thread(u);
	if (rc)
		return rc;
	for (i = 0; i < n && busy + i < u->cap; i++) {
		struct sm_io *io = ios[i];
		struct io_uring_sqe *sqe;

		if ((unsigned)io->op >= SM_OP__COUNT) {
			if (i == 0)
				return -EINVAL;
			break;
		}
		io->done = 0;
		if (u->sync_op[io->op]) {
			/* Keep the accepted prefix in order: ring requests
			 * accepted before this one go first. */
			if (nring)
				break;
			sm_sync_exec(io);
			sm_done_fifo_push(&u->ready, io);
			continue;
		}
		sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			break;  /* SQ still holds SQEs a transient failure left */
		prep(u, sqe, io);
		nring++;
		if (!pending++)
			first = i;
		if (pending == u->batch) {
			pending = 0;
			if (submit_chunk(u, ios, first, i + 1)) {
				i++;     /* accepted; the failure is sticky */
				break;
			}
		}
	}
	if (pending)
		submit_chunk(u, ios, first, first + pending);
	else
		flush(u);        /* SQEs a transient failure left, if any */
	return (int)i;
}

/*
 * Turn one CQE into a finished request, or resubmit the rest of a partial
 * transfer (or a read/write interrupted by a signal). Returns 1 when io is
 * finished, 0 when it went back to the ring.
 */
static int complete(struct uring *u, struct sm_io *io, int res,
		    uint64_t now)
{
	if (io->op == SM_OP_READ || io->op == SM_OP_WRITE) {
		if (res > 0) {
			io->done += (size_t)res;
			if (io->done < io->len)
				goto again;
			res = 0;
		} else if (res == -EINTR) {
			goto again;
		}
		/* 0 is end of file; an error, even after some bytes, is the
		 * request's result, as in sm_sync_exec(): ENOSPC or EIO is
		 * what the caller needs to hear, not a short count. */
		io->res = res < 0 ? res : (int64_t)io->done;
	} else {
		io->res = res;
	}
	io->t_done = now;
	return 1;
again: {
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe && flush(u) == 0)
		sqe = io_uring_get_sqe(&u->ring);
	if (!sqe) {
		io->res = io->done ? (int64_t)io->done : -EBUSY;
		io->t_done = now;
		return 1;
	}
	prep(u, sqe, io);
	return 0;
}
}

/*
 * Return up to max finished requests, waiting until at least min (capped at
 * what is outstanding) have finished. t_done is one clock read per batch of
 * CQEs seen together. Returns the count, -EINTR when a signal interrupted
 * the wait (requests stay outstanding), or another -errno.
 */
static int uring_reap(struct sm_engine *e, struct sm_io **out, unsigned min, unsigned max)
{
	struct uring *u = e->priv;
	unsigned got, want, resubmitted = 0, polled = 0;
	int rc = bind_thread(u);

	if (rc)
		return rc;
	got = (unsigned)sm_done_fifo_pop(&u->ready, out, max);
	want = min < max ? min : max;
	if (want > got + u->ring_reqs)
		want = got + u->ring_reqs;
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now = sm_now_ns();

		io_uring_for_each_cqe(&u->ring, head, cqe) {
			struct sm_io *io = io_uring_cqe_get_data(cqe);

			if (got == max)
				break;
			seen++;
			if (complete(u, io, cqe->res, now)) {
				out[got++] = io;
				u->ring_reqs--;
			} else {
				resubmitted++;
			}
		}
		io_uring_cq_advance(&u->ring, seen);
		if (resubmitted || io_uring_sq_ready(&u->ring)) {
			resubmitted = 0;
			rc = flush(u);
			if (rc)
				return got ? (int)got : rc;
		}
		if (got == max)
			return (int)got;
		if (got >= want) {
			/* Nothing visible: completions may still wait as task
			 * work (COOP_TASKRUN, DEFER_TASKRUN); peek runs it when
			 * the ring flags it. A polled ring must be asked. */
			if (seen || polled++ || !u->ring_reqs)
				return (int)got;
			if (u->iopoll) {
				rc = io_uring_get_events(&u->ring);
				if (rc < 0 && !transient(rc)) {
					u->broken = rc;
					return got ? (int)got : rc;
				}
				continue;
			}
			if (io_uring_peek_cqe(&u->ring, &cqe))
				return (int)got;
			continue;
		}
		rc = io_uring_wait_cqe_nr(&u->ring, &cqe, want - got);
		if (rc == -EINTR || rc == -ETIME || rc == -EAGAIN) {
			/* A signal (SIGINT stop): the caller decides; requests
			 * already finished must not be lost, so return them. */
			if (got)
				return (int)got;
			return rc == -EINTR ? -EINTR : -EAGAIN;
		}
		if (rc < 0)
			return got ? (int)got : rc;
	}
}

static void uring_describe(const struct sm_engine *e, struct sm_engine_setup *out)
{
	static const struct { unsigned setup; enum sm_esetup_bit bit; } map[] = {
		{ IORING_SETUP_SQPOLL, SM_ESETUP_SQPOLL },
		{ IORING_SETUP_IOPOLL, SM_ESETUP_IOPOLL },
		{ IORING_SETUP_SINGLE_ISSUER, SM_ESETUP_SINGLE_ISSUER },
		{ IORING_SETUP_DEFER_TASKRUN, SM_ESETUP_DEFER_TASKRUN },
		{ IORING_SETUP_COOP_TASKRUN, SM_ESETUP_COOP_TASKRUN },
		{ IORING_SETUP_TASKRUN_FLAG, SM_ESETUP_TASKRUN_FLAG },
		{ IORING_SETUP_SUBMIT_ALL, SM_ESETUP_SUBMIT_ALL },
	};
	const struct uring *u = e->priv;

	if (!u)
		return;
	out->reported = 1;
	out->rings = 1;
	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (u->setup & map[i].setup)
			out->flags |= 1u << map[i].bit;
	out->sq_entries = u->ring.sq.ring_entries;
	out->submit_batch = u->batch < u->cap ? u->batch : u->cap;
	out->registered_buffers = u->fixed_bufs;
	out->registered_files = u->fixed_files;
	out->registered_ring_fd = u->ring_fd_used;
}

const struct sm_engine_ops sm_engine_uring = {
	.name = "uring",
	.help = "io_uring: asynchronous, registered buffers and files, batched",
	.caps = SM_ENGINE_ASYNC | SM_ENGINE_FIXED | SM_ENGINE_POLLING,
	.describe = uring_describe,
	.probe = uring_probe,
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.exit = uring_exit,
	.ns = &sm_ns_posix,
};
