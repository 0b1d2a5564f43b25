/* SPDX-License-Identifier: MIT */
/* The MPI transport of a many-host run: every wait polls a non-blocking
 * MPI call against a deadline, so a rank that never comes gives a timeout,
 * never a hang. Built as its own module (stormark-mpi.so, linked with the
 * MPI library), which the binary loads only when mpirun or srun started it
 * (comm_load.c): a plain start never loads MPI. */
#include "mpi/comm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/compiler.h"
#include "mpi/launch.h"

#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define TAG_GATHER 7001
#define TAG_WALL 7002

static int g_rank, g_size;

void sm_mpi_library(char *buf, size_t len)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0;

	if (MPI_Get_library_version(v, &n) != MPI_SUCCESS)
		n = 0;
	v[n < (int)sizeof(v) ? n : (int)sizeof(v) - 1] = '\0';
	v[strcspn(v, ",\n")] = '\0';   /* "Open MPI v4.1.4, package: ..." */
	snprintf(buf, len, "%s", v[0] ? v : "MPI");
}

unsigned sm_mpi_pm_kinds(void)
{
#ifdef OPEN_MPI
	/* Open MPI 4 takes a Slurm step's job from PMIx, and from Slurm's
	 * PMI-1/PMI-2 only through its pmix s1/s2 components (built with
	 * --with-pmi; Debian's are not): mca_pmix_s1.so or mca_pmix_s2.so in
	 * the openmpi... directory beside libmpi (Open MPI 5 has none) */
	Dl_info info;
	char pat[PATH_MAX + 64], *slash;
	glob_t g;
	unsigned kinds = SM_MPI_PM_PMIX;

	if (!dladdr((void *)MPI_Init, &info) || !info.dli_fname)
		return SM_MPI_PM_UNKNOWN;
	snprintf(pat, sizeof(pat), "%s", info.dli_fname);
	slash = strrchr(pat, '/');
	if (!slash)
		return SM_MPI_PM_UNKNOWN;
	snprintf(slash, sizeof(pat) - (size_t)(slash - pat), "/openmpi*/mca_pmix_s[12].so");
	if (!glob(pat, 0, NULL, &g)) {
		kinds |= SM_MPI_PM_PMI;
		globfree(&g);
	}
	return kinds;
#else
	return SM_MPI_PM_UNKNOWN;
#endif
}

int sm_mpi_init(struct sm_mpi_proc *d)
{
	int provided = 0;
	const char *h = getenv("SM_MPI_HOST");

	memset(d, 0, sizeof(*d));
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
		return -EIO;
	if (provided < MPI_THREAD_MULTIPLE)
		return -ENOTSUP;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g_size);
	d->rank = g_rank;
	d->size = g_size;
	if (h && *h)
		snprintf(d->host, sizeof(d->host), "%s", h);
	else if (gethostname(d->host, sizeof(d->host) - 1))
		snprintf(d->host, sizeof(d->host), "rank%d", g_rank);
	/* at the start every rank is there (a rank that never starts MPI
	 * makes mpirun end the job), so a plain collective cannot hang */
	d->hosts = calloc((size_t)g_size, sizeof(*d->hosts));
	if (!d->hosts)
		return -ENOMEM;
	if (MPI_Allgather(d->host, 64, MPI_CHAR, d->hosts, 64, MPI_CHAR, MPI_COMM_WORLD) != MPI_SUCCESS)
		return -EIO;
	return 0;
}

void sm_mpi_end(struct sm_mpi_proc *d, int abort_job, int code)
{
	free(d->hosts);
	d->hosts = NULL;
	if (abort_job)
		MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
	else
		MPI_Finalize();
}

/* Wait for req until deadline_ns: spin (yielding) for the first 20 ms,
 * then poll every millisecond. Returns 0, -ETIMEDOUT (req still pending)
 * or -EIO. */
static int wait_req(MPI_Request *req, uint64_t deadline_ns)
{
	uint64_t t0 = sm_now_ns();
	int flag = 0;

	for (;;) {
		uint64_t now;

		if (MPI_Test(req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (flag)
			return 0;
		now = sm_now_ns();
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		if (now - t0 < 20000000ull) {
			sched_yield();
		} else {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
}

int sm_mpi_barrier(uint64_t deadline_ns)
{
	MPI_Request req;

	if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline_ns);
}

int sm_mpi_max(int v, int *out, uint64_t deadline_ns)
{
	MPI_Request req;

	if (MPI_Iallreduce(&v, out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline_ns);
}

int sm_mpi_max_u64(const uint64_t *v, uint64_t *out, unsigned n, uint64_t deadline_ns)
{
	MPI_Request req;

	if (MPI_Iallreduce(v, out, (int)n, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline_ns);
}

int sm_mpi_bcast(void *buf, size_t n, uint64_t deadline_ns)
{
	MPI_Request req;

	if (n > (size_t)0x7fffffff)
		return -EFBIG;
	if (MPI_Ibcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline_ns);
}

/* Rank 0: receive one piece from each other rank until all came or the
 * deadline; a piece is probed first (its size), then received. */
static int gather_root(char **out, size_t *len, uint64_t deadline_ns)
{
	int missing = g_size - 1;

	while (missing > 0) {
		MPI_Status st;
		MPI_Request req;
		int flag = 0, count = 0, src;

		if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_GATHER, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
			return -EIO;
		if (!flag) {
			struct timespec ts = { 0, 1000000 };

			if (sm_now_ns() >= deadline_ns)
				return 0;   /* out[] says who is missing */
			nanosleep(&ts, NULL);
			continue;
		}
		src = st.MPI_SOURCE;
		MPI_Get_count(&st, MPI_BYTE, &count);
		if (src <= 0 || src >= g_size || out[src] || count < 0)
			return -EIO;
		out[src] = malloc((size_t)count + 1);
		if (!out[src])
			return -ENOMEM;
		if (MPI_Irecv(out[src], count, MPI_BYTE, src, TAG_GATHER, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
			return -EIO;
		if (wait_req(&req, deadline_ns)) {
			/* a sender that died half-way: its piece is lost */
			MPI_Cancel(&req);
			free(out[src]);
			out[src] = NULL;
			return 0;
		}
		out[src][count] = '\0';
		len[src] = (size_t)count;
		missing--;
	}
	return 0;
}

int sm_mpi_gather(const void *buf, size_t n, uint64_t deadline_ns, char ***outp, size_t **lenp)
{
	char **out;
	size_t *len;
	MPI_Request req;
	int rc;

	if (n > (size_t)0x7fffffff)
		return -EFBIG;
	if (g_rank) {
		if (MPI_Isend(buf, (int)n, MPI_BYTE, 0, TAG_GATHER, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
			return -EIO;
		return wait_req(&req, deadline_ns);
	}
	out = calloc((size_t)g_size, sizeof(*out));
	len = calloc((size_t)g_size, sizeof(*len));
	if (!out || !len || !(out[0] = malloc(n + 1))) {
		free(out);
		free(len);
		return -ENOMEM;
	}
	memcpy(out[0], buf, n);
	out[0][n] = '\0';
	len[0] = n;
	rc = gather_root(out, len, deadline_ns);
	if (rc) {
		for (int i = 0; i < g_size; i++)
			free(out[i]);
		free(out);
		free(len);
		return rc;
	}
	*outp = out;
	*lenp = len;
	return 0;
}

int sm_mpi_gather_each(const void *buf, size_t n, uint64_t deadline_ns,
		       int (*take)(void *arg, int rank, const char *piece, size_t len), void *arg)
{
	MPI_Request req;
	unsigned char *seen;
	int missing = g_size - 1, rc = 0;

	if (n > (size_t)0x7fffffff)
		return -EFBIG;
	if (g_rank) {
		if (MPI_Isend(buf, (int)n, MPI_BYTE, 0, TAG_GATHER, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
			return -EIO;
		return wait_req(&req, deadline_ns);
	}
	seen = calloc((size_t)g_size, 1);
	if (!seen)
		return -ENOMEM;
	/* as they come: a sender waits on its own deadline, so none waits
	 * behind a rank that never sends */
	while (missing > 0 && !rc) {
		MPI_Status st;
		int flag = 0, count = 0, src;
		char *p;

		if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_GATHER, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
			rc = -EIO;
			break;
		}
		if (!flag) {
			struct timespec ts = { 0, 1000000 };

			if (sm_now_ns() >= deadline_ns)
				break;
			nanosleep(&ts, NULL);
			continue;
		}
		src = st.MPI_SOURCE;
		MPI_Get_count(&st, MPI_BYTE, &count);
		if (src <= 0 || src >= g_size || seen[src] || count < 0) {
			rc = -EIO;
			break;
		}
		p = malloc((size_t)count + 1);
		if (!p) {
			rc = -ENOMEM;
			break;
		}
		if (MPI_Irecv(p, count, MPI_BYTE, src, TAG_GATHER, MPI_COMM_WORLD, &req) != MPI_SUCCESS) {
			free(p);
			rc = -EIO;
			break;
		}
		if (wait_req(&req, deadline_ns)) {
			/* a sender that died half-way: its piece is lost */
			MPI_Cancel(&req);
			free(p);
			break;
		}
		p[count] = '\0';
		seen[src] = 1;
		missing--;
		rc = take(arg, src, p, (size_t)count);
		free(p);
	}
	for (int r = 1; r < g_size && !rc; r++)
		if (!seen[r])
			rc = take(arg, r, NULL, 0);
	free(seen);
	return rc;
}

/* The caller's operation of the reduction under way (one at a time: a
 * collective is called in the same order on every rank). */
static void (*g_red_op)(void *inout, const void *in, unsigned count);

/* MPI's user function: len elements of the contiguous type, in into inout. */
static void red_trampoline(void *in, void *inout, int *len, SM_UNUSED MPI_Datatype *type)
{
	if (*len > 0)
		g_red_op(inout, in, (unsigned)*len);
}

int sm_mpi_reduce(void *buf, size_t elem, unsigned count,
		  void (*op)(void *inout, const void *in, unsigned count), uint64_t deadline_ns)
{
	MPI_Datatype type;
	MPI_Op mop;
	MPI_Request req;
	int rc;

	if (!elem || elem > (size_t)0x7fffffff || count > 0x7fffffffu)
		return -EFBIG;
	if (MPI_Type_contiguous((int)elem, MPI_BYTE, &type) != MPI_SUCCESS)
		return -EIO;
	if (MPI_Type_commit(&type) != MPI_SUCCESS) {
		MPI_Type_free(&type);
		return -EIO;
	}
	if (MPI_Op_create(red_trampoline, 1, &mop) != MPI_SUCCESS) {
		MPI_Type_free(&type);
		return -EIO;
	}
	g_red_op = op;
	if (MPI_Ireduce(g_rank ? buf : MPI_IN_PLACE, g_rank ? NULL : buf, (int)count, type, mop, 0,
			MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		rc = -EIO;
	else
		rc = wait_req(&req, deadline_ns);
	/* a request still pending keeps the operation and type alive: MPI
	 * frees them once it completes (MPI_Op_free and MPI_Type_free only
	 * mark them) */
	MPI_Op_free(&mop);
	MPI_Type_free(&type);
	return rc;
}

int sm_mpi_gather_fixed(const void *rec, size_t n, void *all, uint64_t deadline_ns)
{
	MPI_Request req;

	if (n > (size_t)0x7fffffff)
		return -EFBIG;
	if (MPI_Igather(rec, (int)n, MPI_BYTE, g_rank ? NULL : all, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD,
			&req) != MPI_SUCCESS)
		return -EIO;
	return wait_req(&req, deadline_ns);
}

/* ---- stonewall ---------------------------------------------------------- */

static struct {
	pthread_t thread;
	int armed;
	_Atomic int quit;           /* main thread: stop listening */
	_Atomic int fell;           /* a notice came before this rank finished */
	_Atomic unsigned received;  /* notices received */
	void (*on_wall)(void);
} wall;

static void *wall_listen(SM_UNUSED void *arg)
{
	char byte;

	while (!atomic_load(&wall.quit)) {
		MPI_Request req;
		int flag = 0;

		if (MPI_Irecv(&byte, 1, MPI_BYTE, MPI_ANY_SOURCE, TAG_WALL, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
			return NULL;
		while (!flag && !atomic_load(&wall.quit)) {
			struct timespec ts = { 0, 1000000 };

			if (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return NULL;
			if (!flag)
				nanosleep(&ts, NULL);
		}
		if (!flag) {
			MPI_Cancel(&req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
			break;
		}
		if (atomic_fetch_add(&wall.received, 1) == 0 && !atomic_exchange(&wall.fell, 1))
			wall.on_wall();
	}
	return NULL;
}

int sm_mpi_wall_arm(void (*on_wall)(void))
{
	memset(&wall, 0, sizeof(wall));
	wall.on_wall = on_wall;
	if (pthread_create(&wall.thread, NULL, wall_listen, NULL))
		return -EAGAIN;
	wall.armed = 1;
	return 0;
}

int sm_mpi_wall_done(uint64_t deadline_ns)
{
	MPI_Request *sends = NULL, req;
	char byte = 1;
	int sent = 0, senders = 0, nsend = 0, rc = 0;
	unsigned expect;

	if (!wall.armed)
		return 0;
	/* this rank finished on its own: the wall falls for the others */
	if (!atomic_exchange(&wall.fell, 1)) {
		sends = calloc((size_t)g_size, sizeof(*sends));
		if (!sends)
			return -ENOMEM;
		for (int r = 0; r < g_size; r++)
			if (r != g_rank &&
			    MPI_Isend(&byte, 1, MPI_BYTE, r, TAG_WALL, MPI_COMM_WORLD, &sends[nsend++]) != MPI_SUCCESS)
				rc = -EIO;
		sent = 1;
	}
	/* every notice sent must be received before the listener stops, or
	 * it would be left in flight at MPI_Finalize */
	if (!rc && MPI_Iallreduce(&sent, &senders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		rc = -EIO;
	if (!rc)
		rc = wait_req(&req, deadline_ns);
	expect = (unsigned)(senders - sent);
	while (!rc && atomic_load(&wall.received) < expect) {
		struct timespec ts = { 0, 1000000 };

		if (sm_now_ns() >= deadline_ns)
			rc = -ETIMEDOUT;
		nanosleep(&ts, NULL);
	}
	atomic_store(&wall.quit, 1);
	pthread_join(wall.thread, NULL);
	wall.armed = 0;
	for (int i = 0; i < nsend && !rc; i++)
		rc = wait_req(&sends[i], deadline_ns);
	free(sends);
	return rc;
}

/* The module's one exported symbol: its calls, for comm_load.c. */
__attribute__((visibility("default"))) const struct sm_mpi_module sm_mpi_module = {
	.abi = SM_MPI_MODULE_ABI,
	.library = sm_mpi_library,
	.init = sm_mpi_init,
	.end = sm_mpi_end,
	.barrier = sm_mpi_barrier,
	.max = sm_mpi_max,
	.max_u64 = sm_mpi_max_u64,
	.bcast = sm_mpi_bcast,
	.gather = sm_mpi_gather,
	.gather_each = sm_mpi_gather_each,
	.wall_arm = sm_mpi_wall_arm,
	.wall_done = sm_mpi_wall_done,
	.pm_kinds = sm_mpi_pm_kinds,
	.reduce = sm_mpi_reduce,
	.gather_fixed = sm_mpi_gather_fixed,
};
