/* SPDX-License-Identifier: MIT */
/* Output files: the kinds a path may be, and the write under a temporary
 * name renamed into place when complete. */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * The temporary files being written, removed when a signal ends the
 * process before they are renamed into place (git's tempfile.c does the
 * same): slots point to an open sm_outfile's tmp, and the handler, set
 * only for a signal whose action is still the default (a command with its
 * own stop flag, or an inherited ignore, is left alone), unlinks them and
 * dies of the signal as it would have. Only the process that registered a
 * name removes it (a child that inherited the handler does not).
 */
#define MAX_TMPS 16
/* atomic: --live's metrics file is rewritten from the sampling thread
 * while the main thread may open another output (lock-free, so the
 * handler may read them) */
static _Atomic(const char *) tmps[MAX_TMPS];
static _Atomic pid_t tmps_owner;
static pthread_mutex_t arm_mu = PTHREAD_MUTEX_INITIALIZER;

static void on_fatal(int sig)
{
	int saved = errno;

	if (getpid() == tmps_owner)
		for (int i = 0; i < MAX_TMPS; i++) {
			const char *t = atomic_load(&tmps[i]);

			if (t)
				unlink(t);
		}
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

/* the handler for SIGINT, SIGTERM and SIGHUP where they still have their
 * default action; once per process */
static void arm(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static pid_t armed;
	struct sigaction sa, old;

	pthread_mutex_lock(&arm_mu);
	if (armed == getpid()) {
		pthread_mutex_unlock(&arm_mu);
		return;
	}
	armed = getpid();
	atomic_store(&tmps_owner, armed);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(sigs[i], &sa, NULL);
	pthread_mutex_unlock(&arm_mu);
}

/* o->tmp into a free slot (none free: it is not removed on a signal) */
static void tmp_register(struct sm_outfile *o)
{
	for (int i = 0; i < MAX_TMPS; i++) {
		const char *none = NULL;

		if (atomic_compare_exchange_strong(&tmps[i], &none, o->tmp))
			return;
	}
}

static void tmp_unregister(const struct sm_outfile *o)
{
	for (int i = 0; i < MAX_TMPS; i++) {
		const char *mine = o->tmp;

		atomic_compare_exchange_strong(&tmps[i], &mine, NULL);
	}
}

/* 1 when st is /dev/null's device */
static int is_dev_null(const struct stat *st)
{
	struct stat n;

	return S_ISCHR(st->st_mode) && !stat("/dev/null", &n) && S_ISCHR(n.st_mode) && n.st_rdev == st->st_rdev;
}

static const char *mode_problem(const struct stat *st)
{
	if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) || is_dev_null(st))
		return NULL;
	if (S_ISBLK(st->st_mode))
		return "it is a block device";
	if (S_ISCHR(st->st_mode))
		return "it is a character device";
	if (S_ISDIR(st->st_mode))
		return "it is a directory";
	if (S_ISSOCK(st->st_mode))
		return "it is a socket";
	return "it is not a regular file";
}

const char *sm_outfile_kind_problem(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return NULL;   /* absent (or unreachable: the caller's check says why) */
	if (S_ISLNK(st.st_mode) && stat(path, &st))
		return errno == ENOENT ? "it is a symbolic link that leads to no file"
				       : "it is a symbolic link that cannot be followed";
	return mode_problem(&st);
}

/* A new name in dir for base, created with O_EXCL (mode 0666 less the
 * umask). Returns the fd, or -errno. */
static int make_tmp(char *tmp, size_t len, const char *dir, const char *base)
{
	static unsigned counter;
	struct timespec ts;
	int keep = (int)strlen(base);

	if (keep > NAME_MAX - 9)
		keep = NAME_MAX - 9;   /* ".NAME.xxxxxx" stays one name */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int i = 0; i < 100; i++) {
		unsigned r = ((unsigned)getpid() * 2654435761u) ^ (unsigned)ts.tv_nsec ^ (++counter * 40503u);
		int fd;

		if ((size_t)snprintf(tmp, len, "%s/.%.*s.%06x", dir, keep, base, r & 0xffffffu) >= len)
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int sm_outfile_open(struct sm_outfile *o, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash, *base;
	sigset_t hold, was;
	struct stat st;
	int exists, fd;

	o->fd = -1;
	o->tmp[0] = '\0';
	o->no_sync = 0;
	exists = !lstat(path, &st);
	if (exists && S_ISLNK(st.st_mode)) {
		/* the link's target is the file replaced; the link stays */
		if (!realpath(path, real))
			return -errno;
		path = real;
		if (stat(path, &st))
			return -errno;
	}
	if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path))
		return -ENAMETOOLONG;
	if (exists && mode_problem(&st))
		return -EINVAL;
	if (exists && !S_ISREG(st.st_mode)) {
		/* a FIFO or /dev/null: nothing to replace */
		fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		o->fd = fd;
		return fd < 0 ? -errno : 0;
	}
	slash = strrchr(o->path, '/');
	base = slash ? slash + 1 : o->path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == o->path ? 1 : (int)(slash - o->path), o->path);
	/* the signals held while the file is made and registered, so that
	 * none falls between the two */
	arm();
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hold, &was);
	fd = make_tmp(o->tmp, sizeof(o->tmp), dir, base);
	if (fd >= 0)
		tmp_register(o);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (fd < 0 && exists && (fd == -EACCES || fd == -EPERM)) {
		/* a file one may write in a directory one may not: in place */
		o->tmp[0] = '\0';
		fd = open(o->path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
		o->fd = fd;
		return fd < 0 ? -errno : 0;
	}
	if (fd < 0) {
		o->tmp[0] = '\0';
		return fd;
	}
	if (exists) {
		/* the replaced file's permissions (and owner, where one may) */
		if (geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0))
			(void)!fchown(fd, st.st_uid, st.st_gid);
		(void)fchmod(fd, st.st_mode & 07777);
	}
	o->fd = fd;
	return 0;
}

int sm_outfile_close(struct sm_outfile *o, int err)
{
	int rc = 0;

	if (o->fd >= 0) {
		if (!err && o->tmp[0] && !o->no_sync && fsync(o->fd))
			rc = -errno;
		if (close(o->fd) && !rc)
			rc = -errno;
		o->fd = -1;
	}
	if (err)
		rc = err;
	if (!o->tmp[0])
		return rc;
	if (!rc && rename(o->tmp, o->path))
		rc = -errno;
	if (rc)
		unlink(o->tmp);
	tmp_unregister(o);
	o->tmp[0] = '\0';
	return rc;
}

FILE *sm_outfile_fopen(struct sm_outfile *o, const char *path, int *err)
{
	FILE *f;

	*err = sm_outfile_open(o, path);
	if (*err)
		return NULL;
	f = fdopen(o->fd, "w");
	if (!f)
		*err = sm_outfile_close(o, -errno);
	return f;
}

int sm_outfile_fclose(struct sm_outfile *o, FILE *f, int err)
{
	int rc = 0;

	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		rc = errno ? -errno : -EIO;
	if (!rc && !err && o->tmp[0] && !o->no_sync && fsync(fileno(f)))
		rc = -errno;
	if (fclose(f) == EOF && !rc)
		rc = errno ? -errno : -EIO;
	o->fd = -1;
	return sm_outfile_close(o, err ? err : rc);
}
