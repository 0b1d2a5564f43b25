/* SPDX-License-Identifier: MIT */
/* `stormark meta`'s phases (workload/meta.h, docs/meta.md). Every phase
 * goes through the engine's namespace ops (engine.h, struct sm_ns_ops) on
 * the run's own directory, by its handle (the POSIX engines: openat,
 * fstatat, unlinkat on its descriptor), so the path is resolved once; each
 * operation is timed alone, back to back (one clock read between two
 * operations). One engine instance per thread, and one for the run's
 * directory. */
#include "workload/meta.h"
#include "analysis/share.h"
#include "engine/engine.h"
#include "engine/nfs.h"
#include "workload/fileio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/rng.h"
#include "core/worker.h"

/* Bytes written per call: a file of --size bytes is written from one
 * buffer of at most this, again and again. */
#define CHUNK (1u << 20)

struct run;

/* One thread of a phase: files [first, last) of the run. */
struct thr {
	struct run *run;
	uint64_t first, last;
	struct sm_opstat op;
	uint64_t end_ns;            /* when it was done with the phase */
	int err;                    /* its first failure, -errno; 0 none */
	uint64_t err_file;          /* the file it failed on */
	const char *err_what;       /* "create", "write", "stat"... */
	void *buf;                  /* CHUNK bytes: the data written, the probe's buffer */
	struct sm_hist done;        /* with peers: each operation's end from the phase's start */
	struct sm_engine eng;       /* its own instance: the namespace ops run on it */
	int eng_ok;
};

struct run {
	const struct sm_meta_plan *plan;
	struct sm_meta_result *res;
	const struct sm_ns_ops *ns; /* the engine's namespace */
	struct sm_engine eng;       /* the instance of the run's directory (made, opened, removed) */
	int eng_ok;
	struct sm_fh dir;           /* the run's directory, open */
	int dir_ok;
	enum sm_meta_phase phase;
	unsigned char *made;        /* made[i]: file i is the run's and still there */
	atomic_int failed;          /* a create failed: every thread stops */
	struct sm_start start;
	int timeline;               /* 1: the operations' ends kept (peers) */
	uint64_t lo, hi;            /* file numbers of the set listed: [lo, hi) */
	int lost;                   /* the peers did not come to a vote */
	uint64_t seed;              /* this run's: with a file's number, its stamps */
};

void sm_meta_file_name(char *buf, size_t len, uint64_t i)
{
	snprintf(buf, len, "frame%06llu.tst", (unsigned long long)i);
}

/* The file's number when name is one of the names [lo, hi); else -1. */
static int64_t file_index(const char *name, uint64_t lo, uint64_t hi)
{
	uint64_t v = 0;
	const char *p;
	size_t digits = 0;
	char want[32];

	if (strncmp(name, "frame", 5))
		return -1;
	for (p = name + 5; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (digits < 6 || strcmp(p, ".tst") || v < lo || v >= hi)
		return -1;
	sm_meta_file_name(want, sizeof(want), v);   /* one spelling per file: no 0 padding games */
	return strcmp(want, name) ? -1 : (int64_t)v;
}

static void fail_at(struct thr *t, int err, uint64_t i, const char *what)
{
	t->op.errors++;
	if (!t->err) {
		t->err = err;
		t->err_file = i;
		t->err_what = what;
	}
}

/* create: exclusive, not through a link, --size bytes written, closed. */
static int create_one(struct thr *t, uint64_t i, const char *name)
{
	const struct sm_meta_plan *plan = t->run->plan;
	const struct sm_ns_ops *ns = t->run->ns;
	uint64_t left = plan->size, chunks = (plan->size + CHUNK - 1) / CHUNK, off = 0;
	struct sm_fh fh;
	int rc = ns->open(&t->eng, &t->run->dir, name, SM_NS_WRITE | SM_NS_CREATE, 0644, &fh);

	if (rc) {
		fail_at(t, rc, i, "cannot create");
		return -1;
	}
	t->run->made[i] = 1;
	for (uint64_t c = 0; left; c++) {
		size_t n = left < CHUNK ? (size_t)left : CHUNK, w = 0;
		int err;

		/* each file's data its own (a stamp per 4 KiB block naming the
		 * run, the file and the block), so a deduplicating or
		 * compressing store keeps every file, as it would frames */
		sm_buf_stamp(t->buf, n, SM_DATA_RANDOM, t->run->seed, i * chunks + c);
		err = ns->pwrite(&t->eng, &fh, t->buf, n, off, &w);

		t->op.bytes += w;
		if (err) {
			fail_at(t, err, i, "cannot write");
			ns->close(&t->eng, &fh);
			return -1;
		}
		left -= n;
		off += n;
	}
	rc = ns->close(&t->eng, &fh);
	if (rc) {
		fail_at(t, rc, i, "cannot close");
		return -1;
	}
	return 0;
}

static int stat_one(struct thr *t, uint64_t i, const char *name)
{
	struct sm_ns_stat st;
	int rc = t->run->ns->stat(&t->eng, &t->run->dir, name, &st);

	if (rc) {
		fail_at(t, rc, i, "cannot stat");
		return -1;
	}
	if (st.type != SM_NS_FILE || st.size != t->run->plan->size) {
		fail_at(t, -EIO, i, "unexpected type or size from stat of");
		return -1;
	}
	return 0;
}

/* probe: open, read the first SM_META_PROBE_BYTES (or the whole file), close. */
static int probe_one(struct thr *t, uint64_t i, const char *name)
{
	uint64_t want = t->run->plan->size < SM_META_PROBE_BYTES ? t->run->plan->size
								 : SM_META_PROBE_BYTES;
	const struct sm_ns_ops *ns = t->run->ns;
	struct sm_fh fh;
	size_t got = 0;
	int rc = ns->open(&t->eng, &t->run->dir, name, SM_NS_READ, 0, &fh);

	if (rc) {
		fail_at(t, rc, i, "cannot open");
		return -1;
	}
	rc = ns->pread(&t->eng, &fh, t->buf, (size_t)want, 0, &got);
	if (rc || (uint64_t)got != want) {
		fail_at(t, rc ? rc : -EIO, i, "cannot read the header of");
		ns->close(&t->eng, &fh);
		return -1;
	}
	t->op.bytes += (uint64_t)got;
	ns->close(&t->eng, &fh);
	return 0;
}

static int delete_one(struct thr *t, uint64_t i, const char *name)
{
	int rc = t->run->ns->unlink(&t->eng, &t->run->dir, name);

	if (rc) {
		fail_at(t, rc, i, "cannot remove");
		return -1;
	}
	t->run->made[i] = 0;
	return 0;
}

/* The listing's state between two entries. */
struct listing {
	struct thr *t;
	unsigned char *met;         /* met[i]: file i of the run seen */
	uint64_t start, t0, seen, others;
	int called;                 /* 1 once an entry came */
};

/* One entry as the engine read it: timed from the entry before (the
 * first: from the listing's start), when it is of the set. */
static int list_entry(void *arg, const char *name)
{
	struct listing *l = arg;
	struct run *r = l->t->run;
	uint64_t n = r->plan->files, first = r->plan->first, t1 = sm_now_ns();
	int64_t k = file_index(name, r->lo, r->hi);

	l->called = 1;
	if (k >= (int64_t)first && (uint64_t)k - first < n) {   /* one of its own */
		uint64_t own = (uint64_t)k - first;

		if (!r->made[own] || l->met[own]) {
			l->t0 = t1;
			return 0;
		}
		l->met[own] = 1;
		l->seen++;
	} else if (k >= 0) {
		l->others++;   /* another process's, in a shared directory */
	} else {
		l->t0 = t1;
		return 0;
	}
	sm_hist_add(&l->t->op.lat, t1 - l->t0);
	if (r->timeline)
		sm_hist_add(&l->t->done, t1 - l->start);
	l->t0 = t1;
	return sm_stopped();
}

/* list: the whole directory read once, each entry of the set timed by
 * the read that returned it (a shared directory: every process's files,
 * [lo, hi)); a file of this run's own not seen is an error. */
static void list_all(struct thr *t, uint64_t start)
{
	struct run *r = t->run;
	uint64_t n = r->plan->files, expect = 0;
	struct listing l = { .t = t, .start = start };
	int rc;

	for (uint64_t i = 0; i < n; i++)
		expect += r->made[i];
	l.met = calloc(n ? n : 1, 1);
	if (!l.met) {
		fail_at(t, -ENOMEM, 0, "out of memory to list");
		t->op.count = expect;
		t->op.errors = expect;
		return;
	}
	l.t0 = sm_now_ns();
	rc = r->ns->readdir(&t->eng, &r->dir, list_entry, &l);
	if (rc && !l.called) {   /* it could not be opened */
		t->op.count = expect;
		t->op.errors = expect;
		t->err = rc;
		t->err_what = "cannot list";
		free(l.met);
		return;
	}
	if (rc && !t->err) {
		t->err = rc;
		t->err_what = "cannot list";
	}
	if (sm_stopped())
		expect = l.seen;   /* a listing cut short: what it saw, no error */
	t->op.count = expect + l.others;
	t->op.errors = expect - l.seen;
	if (l.seen < expect && !t->err && !sm_stopped()) {
		t->err = -ENOENT;
		t->err_what = "a file of the run was not listed in";
	}
	free(l.met);
}

static void *worker(void *arg)
{
	struct thr *t = arg;
	struct run *r = t->run;
	int (*one)(struct thr *, uint64_t, const char *) =
		r->phase == SM_META_CREATE ? create_one : r->phase == SM_META_STAT ? stat_one :
		r->phase == SM_META_PROBE ? probe_one : delete_one;
	char name[32];
	uint64_t t0, t1, start;

	if (sm_start_wait(&r->start))
		return NULL;
	start = r->start.t0_ns;
	if (r->phase == SM_META_LIST) {
		list_all(t, start);
		t->end_ns = sm_now_ns();
		return NULL;
	}
	t0 = sm_now_ns();
	for (uint64_t i = t->first; i < t->last; i++) {
		if (sm_stopped() || atomic_load_explicit(&r->failed, memory_order_relaxed))
			break;
		if (r->phase != SM_META_CREATE && !r->made[i])
			continue;   /* never created (a stopped create): not the run's */
		sm_meta_file_name(name, sizeof(name), r->plan->first + i);
		t->op.count++;
		if (one(t, i, name)) {
			t0 = sm_now_ns();
			if (r->phase == SM_META_CREATE)   /* a full disk: no more creates */
				atomic_store(&r->failed, 1);
			continue;
		}
		t1 = sm_now_ns();
		sm_hist_add(&t->op.lat, t1 - t0);
		if (r->timeline)
			sm_hist_add(&t->done, t1 - start);
		t0 = t1;
	}
	t->end_ns = sm_now_ns();
	return NULL;
}

static void set_error(struct sm_meta_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_error(struct sm_meta_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->head.error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(res->head.error, sizeof(res->head.error), fmt, ap);
	va_end(ap);
}

/* One phase on nthr threads (list: one). Returns the first failure of a
 * thread, 0 when none. */
static int run_phase(struct run *r, enum sm_meta_phase p, struct thr *thr, unsigned nthr)
{
	struct sm_meta_phase_fig *f = &r->res->ph[p];
	unsigned n = p == SM_META_LIST ? 1 : nthr;
	uint64_t end = 0;
	int rc, err = 0;

	r->phase = p;
	for (unsigned k = 0; k < n; k++) {
		sm_opstat_init(&thr[k].op);
		sm_hist_init(&thr[k].done);
		thr[k].err = 0;
		thr[k].end_ns = 0;
		if (p == SM_META_LIST) {
			thr[k].first = 0;
			thr[k].last = r->plan->files;
		} else {
			thr[k].first = r->plan->files * k / nthr;
			thr[k].last = r->plan->files * (k + 1) / nthr;
		}
	}
	sm_start_init(&r->start);
	rc = sm_threads_run(n, worker, thr, sizeof(*thr), &r->start);
	if (rc) {
		sm_start_release(&r->start);
		set_error(r->res, "cannot start the %s threads: %s", sm_meta_phase_name(p), strerror(-rc));
		return rc;
	}
	f->ran = 1;
	for (unsigned k = 0; k < n; k++) {
		sm_opstat_merge(&f->op, &thr[k].op);
		sm_hist_merge(&f->done_at, &thr[k].done);
		if (thr[k].end_ns > end)
			end = thr[k].end_ns;
		if (thr[k].err && !err) {
			char name[32];

			err = thr[k].err;
			sm_meta_file_name(name, sizeof(name), r->plan->first + thr[k].err_file);
			if (p == SM_META_LIST)
				set_error(r->res, "%s '%s': %s", thr[k].err_what, r->res->data_dir,
					  strerror(-err));
			else
				set_error(r->res, "%s '%s/%s': %s", thr[k].err_what, r->res->data_dir, name,
					  strerror(-err));
		}
	}
	f->duration_ns = end > r->start.t0_ns ? end - r->start.t0_ns : 0;
	f->first_done_ns = f->duration_ns;   /* this process's own, the job's merge takes the least */
	sm_start_release(&r->start);
	return err;
}

/* Before phase p: the page, dentry and inode caches dropped (stat, probe
 * and list read what the create left, which the caches hold) unless the
 * plan asks warm or the run is stopping. Returns what the caches hold at
 * the phase's start; a drop that fails (not root) leaves them warm, its
 * -errno in *err (the first one kept). */
static enum sm_meta_caches cold_caches(struct run *r, enum sm_meta_phase p, int stop, int *err)
{
	int rc;

	if (p != SM_META_STAT && p != SM_META_PROBE && p != SM_META_LIST)
		return SM_META_CACHES_NONE;
	if (r->plan->warm || stop || *err)
		return SM_META_CACHES_WARM;
	rc = sm_drop_caches();
	if (rc) {
		*err = rc;
		return SM_META_CACHES_WARM;
	}
	return SM_META_CACHES_DROPPED;
}

/* With peers, every process at the start of phase `what` (stop: 1 from
 * one that failed or was stopped); alone, stop itself. Returns 1 to stop
 * (*rc and the error set when it is another process's stop or a lost
 * peer), 0 to go on. */
static int sync_phase(struct run *r, int stop, const char *what, int *rc)
{
	const struct sm_meta_peers *peers = r->plan->peers;
	int any = 0, e;

	if (!peers)
		return stop;
	if (r->lost)
		return 1;
	e = peers->vote(peers->arg, stop, &any);
	if (e) {
		r->lost = 1;
		if (!*rc) {
			*rc = e;
			set_error(r->res, "mpi: a rank did not come to the start of %s within --mpi-wait; "
				  "the job stopped", what);
		}
		return 1;
	}
	if (any && !stop) {
		*rc = -ECANCELED;
		set_error(r->res, "mpi: another rank failed or was stopped before %s; the job stopped", what);
	}
	return any;
}

/* A new directory "DIR/.stormark-meta-XXXXXX" (six letters or digits at
 * random, as mkdtemp makes them), mode 0700, through the engine: its path
 * into path. 0 or -errno. */
static int make_temp_dir(struct run *r, char *path, size_t len)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	uint64_t x = sm_hash64(sm_now_ns(), (uint64_t)getpid() ^ (uintptr_t)path);
	int rc = -EEXIST;

	for (unsigned tries = 0; tries < 100 && rc == -EEXIST; tries++) {
		char tail[7];

		for (unsigned k = 0; k < 6; k++, x /= sizeof(set) - 1)
			tail[k] = set[x % (sizeof(set) - 1)];
		tail[6] = '\0';
		x = sm_hash64(x, tries + 1);
		/* on a server: in the URL's directory, the root of what the engine mounts */
		snprintf(path, len, "%s/.stormark-meta-%s", r->plan->nfs ? "" : r->plan->dir, tail);
		rc = r->ns->mkdir(&r->eng, NULL, path, 0700);
	}
	return rc;
}

/* The run's own directory in plan->dir: made here (mode 0700),
 * or with a shared directory made by rank 0 and its name handed to every
 * process. Returns 0, or -errno with the error set; with peers -ECANCELED
 * when the directory could not be made (every process then stops). */
static int make_dir(struct run *r)
{
	const struct sm_meta_peers *peers = r->plan->peers;
	struct sm_meta_result *res = r->res;
	int rc = 0, any = 0, e;

	snprintf(res->data_dir, sizeof(res->data_dir), "%s/.stormark-meta-XXXXXX",
		 r->plan->nfs ? "" : r->plan->dir);
	if (!(peers && peers->shared && peers->rank)) {
		rc = make_temp_dir(r, res->data_dir, sizeof(res->data_dir));
		if (rc)
			set_error(res, "cannot create a test directory in '%s': %s", r->plan->dir,
				  strerror(-rc));
	}
	if (!peers || !peers->shared) {
		if (rc)
			res->data_dir[0] = '\0';
		return rc;
	}
	/* one directory for all: rank 0's, its name to the others */
	e = peers->vote(peers->arg, rc != 0, &any);
	if (!e && !any)
		e = peers->bcast(peers->arg, res->data_dir, sizeof(res->data_dir));
	if (e || any) {
		r->lost = e != 0;
		if (!rc)
			set_error(res, e ? "mpi: the ranks could not agree on the shared directory: %s"
					 : "mpi: rank 0 could not make the shared directory in '%s'",
				  e ? strerror(-e) : r->plan->dir);
		if (peers->rank || rc)
			res->data_dir[0] = '\0';
		return rc ? rc : e ? e : -ECANCELED;
	}
	res->data_dir[sizeof(res->data_dir) - 1] = '\0';
	return 0;
}

/* Remove every file the run made that is still there, then its directory
 * (a shared one: rank 0, once every process has removed its own). */
static void clean(struct run *r)
{
	const struct sm_meta_peers *peers = r->plan->peers;
	struct sm_meta_result *res = r->res;
	char name[32];
	int left = 0, any = 0, rc;

	for (uint64_t i = 0; r->made && i < r->plan->files; i++) {
		if (!r->made[i])
			continue;
		sm_meta_file_name(name, sizeof(name), r->plan->first + i);
		rc = r->dir_ok ? r->ns->unlink(&r->eng, &r->dir, name) : -EBADF;
		if (rc && rc != -ENOENT)
			left = 1;
		else
			r->made[i] = 0;
	}
	if (r->dir_ok)
		r->ns->close(&r->eng, &r->dir);
	r->dir_ok = 0;
	if (peers && peers->shared) {
		if (!r->lost && peers->vote(peers->arg, left, &any))
			r->lost = 1;
		if (peers->rank || r->lost || any) {
			if (left || ((r->lost || any) && !peers->rank))
				sm_warn(&res->head.warnings, "data_dir_left", "the test directory '%s' was left: %s",
					res->data_dir, left ? "a file of the run could not be removed"
							    : "not every rank removed its files from it");
			else
				res->cleaned = 1;   /* its own files; the directory is rank 0's */
			return;
		}
	}
	rc = left ? 0 : r->ns->rmdir(&r->eng, NULL, res->data_dir);
	if (left || (rc && rc != -ENOENT)) {
		sm_warn(&res->head.warnings, "data_dir_left",
			"the test directory '%s' was left: %s", res->data_dir,
			left ? "a file of the run could not be removed"
			     : "it holds something stormark did not create");
		return;
	}
	res->cleaned = 1;
}

int sm_meta_run(const struct sm_meta_plan *plan, struct sm_meta_result *res)
{
	const struct sm_meta_peers *peers = plan->peers;
	struct run r = { .plan = plan, .res = res, .dir = SM_FH_NONE, .timeline = peers != NULL,
			 .seed = sm_hash64(sm_now_ns(), (uint64_t)getpid()) };
	/* no queue, no mapping: the plain synchronous engine (psync), or the
	 * NFS client's for a server */
	const struct sm_engine_ops *ops = plan->nfs ? sm_nfs_engine_ops()
						    : sm_engine_choose(&(struct sm_engine_need){ .caps = 0 });
	const struct sm_engine_cfg cfg = { .depth = 1 };
	struct thr *thr = NULL;
	uint64_t t_start;
	int rc = 0, stop = 0, drop_err = 0;

	sm_meta_result_init(res);
	res->plan = *plan;
	snprintf(res->dir, sizeof(res->dir), "%s", plan->dir);
	res->plan.dir = res->dir;
	if (plan->nfs) {
		sm_env_collect(&res->head.env, ".");
		sm_fileio_nfs_env(plan->nfs, &res->head.env);   /* the server's, not this host's */
	} else {
		sm_env_collect(&res->head.env, plan->dir);
	}
	snprintf(res->head.env.engine, sizeof(res->head.env.engine), "%s", ops ? ops->name : "?");
	sm_share_warn(&res->head.warnings, &res->head.env.fs.mount, SM_SHARE_META, 0);
	thr = calloc(plan->threads, sizeof(*thr));
	r.made = calloc(plan->files ? plan->files : 1, 1);
	if (!thr || !r.made) {
		rc = -ENOMEM;
		set_error(res, "out of memory for %u threads and %llu files", plan->threads,
			  (unsigned long long)plan->files);
		goto out;
	}
	r.ns = ops ? ops->ns : NULL;
	rc = plan->nfs ? sm_nfs_bind(plan->nfs, NULL, 0) : 0;   /* no files: names only */
	if (!rc)
		rc = r.ns ? sm_engine_open_ops(&r.eng, ops, &cfg) : -ENOTSUP;
	if (rc) {
		set_error(res, "cannot start the %s engine%s%s: %s", ops ? ops->name : "?",
			  plan->nfs ? " on " : "", plan->nfs ? plan->nfs : "", strerror(-rc));
		goto out;
	}
	r.eng_ok = 1;
	for (unsigned k = 0; k < plan->threads; k++) {
		rc = sm_engine_open_ops(&thr[k].eng, ops, &cfg);
		if (rc) {
			set_error(res, "cannot start the %s engine%s%s: %s", ops ? ops->name : "?",
			  plan->nfs ? " on " : "", plan->nfs ? plan->nfs : "", strerror(-rc));
			goto out;
		}
		thr[k].eng_ok = 1;
		thr[k].run = &r;
		thr[k].buf = sm_buf_alloc(CHUNK, 4096);
		if (!thr[k].buf) {
			rc = -ENOMEM;
			set_error(res, "out of memory for the threads' buffers");
			goto out;
		}
		sm_buf_fill(thr[k].buf, CHUNK, SM_DATA_RANDOM, 0x3e7a + k);
	}
	/* the set listed: this run's files, or every process's in a shared directory */
	r.lo = peers && peers->shared ? 0 : plan->first;
	r.hi = peers && peers->shared ? (uint64_t)peers->ranks * plan->files : plan->first + plan->files;
	res->shared = peers && peers->shared;
	res->set_files = res->shared ? r.hi - r.lo : 0;
	t_start = sm_now_ns();
	rc = make_dir(&r);
	if (rc && (!peers || peers->shared))
		goto out;   /* with peers of their own directories, a stop at the first phase */
	if (!rc) {
		rc = r.ns->open(&r.eng, NULL, res->data_dir, SM_NS_DIR, 0, &r.dir);
		if (rc)
			set_error(res, "cannot open '%s': %s", res->data_dir, strerror(-rc));
		r.dir_ok = !rc;
	}
	stop = rc != 0;
	for (int p = 0; p < SM_META_NPHASES; p++) {
		enum sm_meta_caches caches;
		char what[32];
		int err;

		if (p == SM_META_PROBE && !plan->size)
			continue;   /* nothing to read at size 0 */
		snprintf(what, sizeof(what), "the %s phase", sm_meta_phase_name((enum sm_meta_phase)p));
		if (sync_phase(&r, stop, what, &rc))
			break;
		/* a read of what is there starts cold, as a first browse does,
		 * unless asked warm or the caches cannot be dropped (not root);
		 * with peers after every process has ended the phase before
		 * (the drop's sync would slow a create still going on) and
		 * with a second vote, so that all start the phase together
		 * (docs/meta.md) */
		caches = cold_caches(&r, (enum sm_meta_phase)p, stop, &drop_err);
		if (peers && caches != SM_META_CACHES_NONE && !plan->warm &&
		    sync_phase(&r, stop, what, &rc))
			break;
		err = run_phase(&r, (enum sm_meta_phase)p, thr, plan->threads);
		res->ph[p].caches = caches;
		if (p == SM_META_CREATE)
			for (uint64_t i = 0; i < plan->files; i++)
				res->created += r.made[i];
		if (err && !rc)
			rc = err;
		if (sm_stopped()) {
			rc = -EINTR;
			res->head.interrupted = 1;
			stop = 1;
		}
		if (p == SM_META_CREATE && err)
			stop = 1;   /* a full disk: what was made is removed below */
	}
	res->head.duration_ns = sm_now_ns() - t_start;
	if (drop_err)
		sm_warn(&res->head.warnings, "meta_warm", "the stat, probe and list phases ran on warm "
			"caches: they could not be dropped (%s; it needs root), so the figures are a "
			"second browse's, not a first one's", strerror(-drop_err));
	else if (plan->warm)
		sm_warn(&res->head.warnings, "meta_warm", "the stat, probe and list phases ran on warm "
			"caches (--warm): the figures are a second browse's, not a first one's");
out:
	if (res->data_dir[0])
		clean(&r);
	for (unsigned k = 0; thr && k < plan->threads; k++) {
		free(thr[k].buf);
		if (thr[k].eng_ok)
			sm_engine_close(&thr[k].eng);
	}
	if (r.eng_ok)
		sm_engine_close(&r.eng);
	if (plan->nfs)
		sm_nfs_bind(NULL, NULL, 0);
	free(thr);
	free(r.made);
	return rc;
}
