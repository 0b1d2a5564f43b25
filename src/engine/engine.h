/* SPDX-License-Identifier: MIT */
/* The engine contract: one const ops table per backend, selected at run
 * time from an explicit registry. Engines execute requests; they know
 * nothing of the workload that made them. */
#ifndef SM_ENGINE_H
#define SM_ENGINE_H

#include <stddef.h>
#include <errno.h>
#include <stdint.h>

#include "core/engsetup.h"

enum sm_op {
	SM_OP_READ = 0,
	SM_OP_WRITE,
	SM_OP_OPEN,        /* openat(fd, path, open_flags, mode); res = new fd */
	SM_OP_CLOSE,
	SM_OP_FSYNC,
	SM_OP_FDATASYNC,
	SM_OP__COUNT
};

/* Printable name of an operation ("read", "write", ...). */
const char *sm_op_name(enum sm_op op);

/*
 * One request. The workload fills op, fd, buf/len/off (or path/flags for
 * OPEN), t_sched and user; the engine sets t_issue, t_done and res.
 *
 * res: bytes transferred (READ/WRITE), the new descriptor (OPEN), 0 (CLOSE,
 * FSYNC), or -errno. A READ/WRITE is short only at end of file: engines
 * resubmit partial transfers themselves, and an error after some bytes
 * moved is still -errno (ENOSPC half-way through a write).
 * Times are sm_now_ns(): t_issue just before the request went to the
 * kernel, t_done when its completion was seen. t_sched is the workload's
 * (its deadline in a paced test, else t_issue's moment); engines ignore it.
 */
struct sm_io {
	enum sm_op op;
	int fd;                /* file; dirfd for OPEN (AT_FDCWD is fine) */
	int buf_index;         /* index into cfg.bufs when buf is one, else -1 */
	int file_index;        /* index into cfg.fds when fd is one, else -1 */
	void *buf;
	size_t len;
	uint64_t off;
	const char *path;      /* OPEN only; must stay valid until completion */
	int open_flags;
	unsigned mode;
	int64_t res;
	uint64_t t_sched, t_issue, t_done;
	void *user;            /* the workload's cookie, untouched */
	size_t done;           /* engine-private: bytes already transferred */
	int sigbus;            /* mmap: the copy took SIGBUS (res is the errno a */
	uint64_t fault_off;    /*   system call gives for that page) at this file offset */
};

/* Capabilities. */
#define SM_ENGINE_ASYNC     (1u << 0)  /* completes requests in reap() */
#define SM_ENGINE_NO_IO     (1u << 1)  /* does no I/O at all (null) */
#define SM_ENGINE_FIXED     (1u << 2)  /* uses cfg.bufs / cfg.fds registration */
#define SM_ENGINE_MAPPED    (1u << 3)  /* needs cfg.fds and cfg.file_sizes (mmap) */
#define SM_ENGINE_POLLING   (1u << 4)  /* honours cfg.flags SQPOLL and IOPOLL (uring) */

/* cfg.flags: how a polling engine runs; an engine without SM_ENGINE_POLLING
 * is refused (-EOPNOTSUPP) when any is set, and sm_engine_open() then does
 * not fall back to psync. */
#define SM_ENGINE_SQPOLL    (1u << 0)  /* a kernel thread polls the submission queue */
#define SM_ENGINE_IOPOLL    (1u << 1)  /* completions polled from the device: O_DIRECT
					* files on a device with poll queues only */
/* cfg.flags bits 8-18: the most requests one submission system call
 * carries (uring; 1-1024, 0: the engine's default), so that a chunk of a
 * large batch reaches the device before the rest is prepared. Not a mode:
 * another engine ignores it. */
#define SM_ENGINE_BATCH_SHIFT 8
#define SM_ENGINE_BATCH_MAX   1024u
#define SM_ENGINE_BATCH(n)    ((unsigned)(n) << SM_ENGINE_BATCH_SHIFT)
#define SM_ENGINE_BATCH_OF(f) (((f) >> SM_ENGINE_BATCH_SHIFT) & 0x7ffu)
#define SM_ENGINE_MODES       (SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL)

/* Engines copy what they keep: the caller's arrays (bufs, fds, file_sizes)
 * may be freed once init has returned; the buffers and files themselves
 * must outlive the engine. */
struct sm_engine_cfg {
	unsigned depth;            /* most requests in flight at once (>= 1) */
	void **bufs;               /* optional: buffers the workload will use, */
	unsigned nbufs;            /*   all of buf_len bytes, for registration */
	size_t buf_len;
	const int *fds;            /* optional: files opened in advance */
	const uint64_t *file_sizes;
	unsigned nfds;
	unsigned flags;            /* SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL, and
				    * SM_ENGINE_BATCH(n); or 0 */
};

struct sm_engine;

/*
 * The I/O namespace of an engine (optional ops, struct sm_engine_ops.ns):
 * files and directories by name, on a handle type of the engine's own, so
 * that a workload that makes, finds and removes files (meta) does it
 * through the engine, as a local file system or an NFS server takes it.
 *
 * dir is a directory opened with SM_NS_DIR, or NULL: name is then a path
 * (from the working directory; nfs: from the export's root). No op follows
 * a symbolic link at the last name; a create is exclusive. Every op
 * returns 0 or -errno, runs on the thread driving the instance, and blocks.
 */
struct sm_fh {
	int fd;                    /* the POSIX engines': a descriptor, -1 none */
	void *obj;                 /* another engine's own (nfs: a file or a directory) */
};
#define SM_FH_NONE ((struct sm_fh){ .fd = -1, .obj = NULL })

#define SM_NS_READ    (1u << 0)
#define SM_NS_WRITE   (1u << 1)
#define SM_NS_CREATE  (1u << 2)   /* a new file: -EEXIST when the name is taken */
#define SM_NS_DIR     (1u << 3)   /* a directory, to name files in (read only) */

enum sm_ns_type { SM_NS_OTHER = 0, SM_NS_FILE, SM_NS_DIRECTORY };

struct sm_ns_stat {
	enum sm_ns_type type;      /* of the name itself, never a link's target */
	uint64_t size;
};

struct sm_ns_ops {
	int (*open)(struct sm_engine *, const struct sm_fh *dir, const char *name, unsigned flags,
		    unsigned mode, struct sm_fh *out);
	int (*close)(struct sm_engine *, struct sm_fh *fh);   /* *fh is SM_FH_NONE after */
	int (*unlink)(struct sm_engine *, const struct sm_fh *dir, const char *name);
	int (*stat)(struct sm_engine *, const struct sm_fh *dir, const char *name,
		    struct sm_ns_stat *out);
	int (*mkdir)(struct sm_engine *, const struct sm_fh *dir, const char *name, unsigned mode);
	int (*rmdir)(struct sm_engine *, const struct sm_fh *dir, const char *name);
	/* each(arg, name) for every entry (".", ".." too) as it is read; a
	 * non-zero return stops the listing. 0, or -errno of the open or of
	 * a read (the entries before it were given). */
	int (*readdir)(struct sm_engine *, const struct sm_fh *dir,
		       int (*each)(void *arg, const char *name), void *arg);
	/* len bytes at off, all of them (a read is short only at end of file);
	 * *done: bytes moved, also on an error. 0 or -errno. */
	int (*pread)(struct sm_engine *, const struct sm_fh *fh, void *buf, size_t len, uint64_t off,
		     size_t *done);
	int (*pwrite)(struct sm_engine *, const struct sm_fh *fh, const void *buf, size_t len,
		      uint64_t off, size_t *done);
};

/* The namespace of the POSIX engines (psync, uring, mmap, null): *at()
 * calls on descriptors (engine/ns_posix.c). */
extern const struct sm_ns_ops sm_ns_posix;

struct sm_engine_ops {
	const char *name;
	const char *help;          /* one line for --help */
	unsigned caps;
	/* 0 if usable on this system, else -errno (e.g. io_uring blocked). */
	int (*probe)(void);
	int (*init)(struct sm_engine *, const struct sm_engine_cfg *);
	/* Start n requests. Returns how many were accepted (>= 0) or -errno.
	 * A sync engine completes them here, to be returned by reap(). */
	int (*submit)(struct sm_engine *, struct sm_io **ios, unsigned n);
	/* Wait until at least min requests have completed (min may be 0: poll)
	 * and return up to max of them in out[]. Returns the count or -errno
	 * (-EINTR when a signal interrupted the wait). */
	int (*reap)(struct sm_engine *, struct sm_io **out, unsigned min, unsigned max);
	void (*exit)(struct sm_engine *);
	/* Optional: what the kernel granted this instance (complete once the
	 * driving thread has submitted or reaped). */
	void (*describe)(const struct sm_engine *, struct sm_engine_setup *);
	/* Optional: its files and directories by name (above); NULL: none. */
	const struct sm_ns_ops *ns;
};

/*
 * Threads: an instance is driven (submit, reap, sm_engine_do) by one
 * thread, the first that submits or reaps; another thread gets -EXDEV (the
 * uring engine binds its ring to that thread: SINGLE_ISSUER, DEFER_TASKRUN,
 * a registered ring fd). Open and close may run on another thread (the
 * workload's main thread): close after the driving thread has ended or
 * stopped using the instance; what that thread left in flight is drained
 * when it ends.
 *
 * An engine instance: the table, its private state, the config it got
 * (cfg's array pointers are the caller's and may dangle after init: engines
 * use their own copies). */
struct sm_engine {
	const struct sm_engine_ops *ops;
	void *priv;
	struct sm_engine_cfg cfg;
	unsigned inflight;         /* maintained by sm_engine_submit/reap */
};

/* The registry, NULL-terminated, in order of preference. */
extern const struct sm_engine_ops *const sm_engines[];

/* The ops table named name, or NULL. */
const struct sm_engine_ops *sm_engine_find(const char *name);

/*
 * Probe and initialise engine `name` into *e. When an asynchronous engine
 * cannot run here (probe or init fails: old kernel, seccomp), falls back to
 * psync and writes a one-line notice to notice (else notice[0] = '\0').
 * Returns 0, -ENOENT for an unknown name, or -errno from init.
 */
int sm_engine_open(struct sm_engine *e, const char *name, const struct sm_engine_cfg *cfg,
		   char *notice, size_t notice_len);

/*
 * Selection by capability. A workload says what it needs; the engine is
 * the one the user named (--engine NAME), else the first of the registry
 * (its order is the order of preference) that has every capability in
 * caps: psync for nothing, uring for SM_ENGINE_ASYNC, mmap for
 * SM_ENGINE_MAPPED. No workload compares an engine's name.
 */
struct sm_engine_need {
	const char *name;          /* the user's --engine NAME, or NULL */
	unsigned caps;             /* SM_ENGINE_ASYNC, SM_ENGINE_MAPPED, ...: what the
				    * workload needs of an engine it chooses */
	unsigned flags;            /* SM_ENGINE_SQPOLL, SM_ENGINE_IOPOLL, SM_ENGINE_BATCH(n):
				    * given to the engine only when it has SM_ENGINE_POLLING */
};

/* The engine need names or asks for, without probing it: NULL for a name
 * not in the registry, or when no engine has the capabilities. */
const struct sm_engine_ops *sm_engine_choose(const struct sm_engine_need *need);

/* The capabilities of the engine need chooses (0 when there is none). */
unsigned sm_engine_caps(const struct sm_engine_need *need);

/* The caps of the engine named name (--engine NAME; NULL or unknown: 0),
 * e.g. SM_ENGINE_NO_IO for the null engine. */
unsigned sm_engine_caps_of(const char *name);

/* need->flags as the engine ops takes them: all of them for an engine with
 * SM_ENGINE_POLLING, none for another. */
unsigned sm_engine_flags_for(const struct sm_engine_ops *ops, unsigned flags);

/*
 * The best usable engine for need: the one sm_engine_choose() gives when its
 * probe passes. An asynchronous engine that cannot run here, asked for with
 * no polling flags, falls back to the first engine of the registry that
 * probes well and has need's caps but SM_ENGINE_ASYNC, and notice gets the
 * fallback's name and reason ("engine 'uring' is not available here
 * (Operation not permitted): using 'psync'"); else notice[0] = '\0'.
 * Returns the ops, or NULL with *err = -ENOENT (no such engine) or the
 * probe's -errno.
 */
const struct sm_engine_ops *sm_engine_pick(const struct sm_engine_need *need, char *notice,
					   size_t notice_len, int *err);

/* Open the engine need picks into *e, as sm_engine_open() does (cfg->flags
 * is replaced by need->flags as that engine takes them). 0 or -errno. */
int sm_engine_open_need(struct sm_engine *e, const struct sm_engine_need *need,
			const struct sm_engine_cfg *cfg, char *notice, size_t notice_len);

/* Probe and initialise the engine of table ops, one that is not in the
 * registry (nfs: engine/nfs.h), into *e; no fallback. 0 or -errno. */
int sm_engine_open_ops(struct sm_engine *e, const struct sm_engine_ops *ops,
		       const struct sm_engine_cfg *cfg);

/* What instance e was granted, into *out (out->reported is 0 for an engine
 * that has nothing to report). */
void sm_engine_describe(const struct sm_engine *e, struct sm_engine_setup *out);

/* Tear down an instance opened with sm_engine_open(). */
void sm_engine_close(struct sm_engine *e);

static inline int sm_engine_submit(struct sm_engine *e, struct sm_io **ios, unsigned n)
{
	int rc = e->ops->submit(e, ios, n);

	if (rc > 0)
		e->inflight += (unsigned)rc;
	return rc;
}

static inline int sm_engine_reap(struct sm_engine *e, struct sm_io **out, unsigned min,
				 unsigned max)
{
	int rc = e->ops->reap(e, out, min, max);

	if (rc > 0)
		e->inflight -= (unsigned)rc;
	return rc;
}

/* Execute one request synchronously on any engine (submit, then reap it).
 * Only for an engine with nothing else in flight. Returns io->res. */
int64_t sm_engine_do(struct sm_engine *e, struct sm_io *io);

/* Helpers for synchronous engines: a FIFO of completed requests. */
struct sm_done_fifo {
	struct sm_io **slot;
	unsigned cap, head, count;
};
int sm_done_fifo_init(struct sm_done_fifo *f, unsigned cap);
void sm_done_fifo_release(struct sm_done_fifo *f);
int sm_done_fifo_pop(struct sm_done_fifo *f, struct sm_io **out, unsigned max);
static inline int sm_done_fifo_push(struct sm_done_fifo *f, struct sm_io *io)
{
	if (f->count == f->cap)
		return -EAGAIN;
	f->slot[(f->head + f->count++) % f->cap] = io;
	return 0;
}

/* For synchronous engines whose private state is just that FIFO (psync,
 * null): init allocates it with cfg->depth slots into e->priv, reap pops
 * completed requests, exit frees it. */
int sm_fifo_engine_init(struct sm_engine *e, const struct sm_engine_cfg *cfg);
int sm_fifo_engine_reap(struct sm_engine *e, struct sm_io **out, unsigned min, unsigned max);
void sm_fifo_engine_exit(struct sm_engine *e);

#endif
