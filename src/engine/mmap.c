/* SPDX-License-Identifier: MIT */
/* mmap engine: every file of cfg.fds is mapped shared for its whole
 * cfg.file_sizes length; reads and writes are memcpy to and from the
 * mapping, fsync and fdatasync are msync(MS_SYNC) of the file's mapping.
 * Synchronous: requests complete in submit(). Requests on descriptors that
 * are not in cfg.fds (and open/close) run as plain system calls.
 *
 * A page the file system cannot supply or store (a read error, a full
 * disk under a sparse file) arrives as SIGBUS in the middle of a copy.
 * The copy is the only place it can come from, so the engine catches it
 * there and turns it into the request's error instead of a dead process. */
#include "engine/engine.h"
#include "engine/sync_exec.h"
#include "core/clock.h"
#include "core/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * SIGBUS recovery, per thread. A thread about to copy to or from a mapping
 * points bus_jmp at a sigjmp_buf on its stack; the handler (which runs on
 * the faulting thread: SIGBUS from a memory access is synchronous) records
 * the address and jumps back there. The handler touches only this thread's
 * two initial-exec TLS variables (plain loads and stores, no allocation or
 * lock) and sigaction/raise, which are async-signal-safe; jumping out is
 * safe because the interrupted code is memcpy, which holds no lock and
 * leaves no state behind. SA_NODEFER keeps SIGBUS unblocked in the handler,
 * so the jump needs no saved signal mask (sigsetjmp(.., 0): no system call
 * per request); after a fault, the copy unblocks SIGBUS itself in case a
 * handler wrapping ours blocked it. A SIGBUS anywhere else (bus_jmp NULL)
 * is not ours: the action that was there before the engine's (the default,
 * or say AddressSanitizer's) is put back and gets it, as if the engine had
 * never been there: a fault is simply taken again on return, a signal sent
 * with kill is raised again.
 */
#define SM_TLS __thread __attribute__((tls_model("initial-exec")))
static SM_TLS sigjmp_buf *volatile bus_jmp;
static SM_TLS void *volatile bus_addr;
static struct sigaction bus_prev;   /* the SIGBUS action before the engine's */

static void on_sigbus(int sig, siginfo_t *si, SM_UNUSED void *uc)
{
	sigjmp_buf *j = bus_jmp;

	if (j) {
		bus_jmp = NULL;
		bus_addr = si->si_addr;
		siglongjmp(*j, 1);
	}
	sigaction(sig, &bus_prev, NULL);
	if (si->si_code <= 0)               /* sent, not a fault: send it again */
		raise(sig);
}

/* Installed by every engine instance, not once: whatever set another
 * SIGBUS action since (a test harness, say) is overridden again, and kept
 * as the one a foreign SIGBUS goes to. Returns 0 or -errno. */
static int bus_install(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old))
		return -errno;
	if (!(old.sa_flags & SA_SIGINFO) || old.sa_sigaction != on_sigbus)
		bus_prev = old;
	return 0;
}

/*
 * The errno behind a SIGBUS at file offset off of fd, found without
 * changing the file: the page read with pread (a read error: EIO), then,
 * for a write, space for it reserved with fallocate(KEEP_SIZE) (a full
 * disk: ENOSPC). EIO when neither call fails this time (a file cut short
 * under the mapping, an error that went away).
 */
static int64_t bus_errno(int fd, enum sm_op op, uint64_t off)
{
	unsigned char probe[4096];
	uint64_t start = off / sizeof(probe) * sizeof(probe);

	if (pread(fd, probe, sizeof(probe), (off_t)start) < 0)
		return -errno;
	if (op == SM_OP_WRITE &&
	    fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)start, (off_t)sizeof(probe)) < 0 &&
	    errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	return -EIO;
}

/* Invariant: map[i] covers len[i] bytes of cfg.fds[i] (NULL when len is 0). */
struct mmap_state {
	struct sm_done_fifo done;
	unsigned n;
	unsigned char **map;
	uint64_t *len;
	int *fd;
};

static void mmap_exit(struct sm_engine *e)
{
	struct mmap_state *m = e->priv;

	if (!m)
		return;
	for (unsigned i = 0; i < m->n; i++)
		if (m->map && m->map[i])
			munmap(m->map[i], m->len[i]);
	free(m->map);
	free(m->len);
	free(m->fd);
	sm_done_fifo_release(&m->done);
	free(m);
	e->priv = NULL;
}

static int mmap_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct mmap_state *m = calloc(1, sizeof(*m));
	int rc = 0;

	if (!m)
		return -ENOMEM;
	e->priv = m;
	rc = bus_install();                 /* no SIGBUS recovery: no mappings */
	if (rc)
		goto out;
	if (!cfg->fds || !cfg->file_sizes || !cfg->nfds) {
		rc = -EINVAL;               /* nothing to map: the engine needs files */
		goto out;
	}
	if (sm_done_fifo_init(&m->done, cfg->depth)) {
		rc = -ENOMEM;
		goto out;
	}
	m->map = calloc(cfg->nfds, sizeof(*m->map));
	m->len = calloc(cfg->nfds, sizeof(*m->len));
	m->fd = calloc(cfg->nfds, sizeof(*m->fd));
	if (!m->map || !m->len || !m->fd) {
		rc = -ENOMEM;
		goto out;
	}
	m->n = cfg->nfds;
	for (unsigned i = 0; i < cfg->nfds; i++) {
		void *p;

		m->fd[i] = cfg->fds[i];
		if (!cfg->file_sizes[i])
			continue;
		p = mmap(NULL, cfg->file_sizes[i], PROT_READ | PROT_WRITE, MAP_SHARED, cfg->fds[i], 0);
		if (p == MAP_FAILED) {
			rc = -errno;
			goto out;
		}
		m->map[i] = p;
		m->len[i] = cfg->file_sizes[i];
	}
out:
	if (rc)
		mmap_exit(e);
	return rc;
}

/* The mapping index of io, or -1 when io's file is not mapped. */
static int map_of(const struct mmap_state *m, const struct sm_io *io)
{
	if (io->file_index >= 0 && (unsigned)io->file_index < m->n &&
	    m->fd[io->file_index] == io->fd && m->map[io->file_index])
		return io->file_index;
	for (unsigned i = 0; i < m->n; i++)
		if (m->fd[i] == io->fd && m->map[i])
			return (int)i;
	return -1;
}

/* Copy len bytes, catching a SIGBUS. Returns 0, or 1 with *fault set to
 * the address that faulted. */
static int guarded_copy(void *dst, const void *src, size_t len, void **fault)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0)) {
		sigset_t bus;

		/* our handler leaves SIGBUS unblocked (SA_NODEFER), but one
		 * that wraps it may not (ThreadSanitizer's blocks every signal
		 * while it runs): the next fault would then kill the process */
		sigemptyset(&bus);
		sigaddset(&bus, SIGBUS);
		pthread_sigmask(SIG_UNBLOCK, &bus, NULL);
		*fault = bus_addr;
		return 1;
	}
	bus_jmp = &jb;
	memcpy(dst, src, len);
	bus_jmp = NULL;
	return 0;
}

static void mmap_exec(struct mmap_state *m, struct sm_io *io)
{
	int i = map_of(m, io);
	uint64_t avail;
	void *fault = NULL;
	int bad;

	if (i < 0 || io->op == SM_OP_OPEN || io->op == SM_OP_CLOSE) {
		sm_sync_exec(io);
		return;
	}
	io->done = 0;
	io->sigbus = 0;
	io->t_issue = sm_now_ns();
	switch (io->op) {
	case SM_OP_READ:
	case SM_OP_WRITE:
		/* like pread at end of file: short, never past the mapping */
		avail = io->off < m->len[i] ? m->len[i] - io->off : 0;
		io->done = io->len < avail ? io->len : (size_t)avail;
		if (io->op == SM_OP_READ)
			bad = guarded_copy(io->buf, m->map[i] + io->off, io->done, &fault);
		else
			bad = guarded_copy(m->map[i] + io->off, io->buf, io->done, &fault);
		io->res = (int64_t)io->done;
		if (bad) {
			uintptr_t base = (uintptr_t)m->map[i], a = (uintptr_t)fault;

			io->fault_off = a >= base && a < base + m->len[i] ? a - base : io->off;
			io->sigbus = 1;
			io->res = bus_errno(m->fd[i], io->op, io->fault_off);
		}
		break;
	case SM_OP_FSYNC:
	case SM_OP_FDATASYNC:
		io->res = msync(m->map[i], m->len[i], MS_SYNC) ? -errno : 0;
		break;
	default:
		io->res = -EINVAL;
	}
	io->t_done = sm_now_ns();
}

static int mmap_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	struct mmap_state *m = e->priv;
	unsigned i;

	for (i = 0; i < n && m->done.count < m->done.cap; i++) {
		mmap_exec(m, ios[i]);
		sm_done_fifo_push(&m->done, ios[i]);
	}
	return (int)i;
}

static int mmap_reap(struct sm_engine *e, struct sm_io **out, SM_UNUSED unsigned min, unsigned max)
{
	struct mmap_state *m = e->priv;

	return sm_done_fifo_pop(&m->done, out, max);
}

const struct sm_engine_ops sm_engine_mmap = {
	.name = "mmap",
	.help = "memcpy to and from shared mappings of the files; fsync is msync",
	.caps = SM_ENGINE_MAPPED,
	.probe = NULL,
	.init = mmap_init,
	.submit = mmap_submit,
	.reap = mmap_reap,
	.exit = mmap_exit,
	.ns = &sm_ns_posix,
};
