/* SPDX-License-Identifier: MIT */
/* The MPI transport of a many-host run (docs/mpi.md): launch detection,
 * MPI start and end, bounded barriers, gathering bytes on rank 0 and the
 * stonewall notice. Knows nothing of results: it moves bytes. Without
 * SM_HAVE_MPI every call but sm_mpi_launched() returns -ENOTSUP. */
#ifndef SM_MPI_COMM_H
#define SM_MPI_COMM_H

#include <stddef.h>
#include <stdint.h>

/* 1 when this build has MPI support (SM_HAVE_MPI), else 0. */
int sm_mpi_built(void);

/* Where the MPI calls come from: MPI is built as a module of its own
 * (stormark-mpi.so, linked with the MPI library: comm.c) that the binary
 * loads the first time a call below needs it (comm_load.c), so a run
 * that is no MPI job never loads the MPI library, whose loading cost a
 * millisecond at every start. The module's one symbol, "sm_mpi_module". */
#define SM_MPI_MODULE_ABI 4
struct sm_mpi_proc;
struct sm_mpi_module {
	int abi;                   /* SM_MPI_MODULE_ABI: the binary and module agree */
	void (*library)(char *buf, size_t len);
	int (*init)(struct sm_mpi_proc *d);
	void (*end)(struct sm_mpi_proc *d, int abort_job, int code);
	int (*barrier)(uint64_t deadline_ns);
	int (*max)(int v, int *out, uint64_t deadline_ns);
	int (*max_u64)(const uint64_t *v, uint64_t *out, unsigned n, uint64_t deadline_ns);
	int (*bcast)(void *buf, size_t n, uint64_t deadline_ns);
	int (*gather)(const void *buf, size_t n, uint64_t deadline_ns, char ***out, size_t **len);
	int (*gather_each)(const void *buf, size_t n, uint64_t deadline_ns,
			   int (*take)(void *arg, int rank, const char *piece, size_t len), void *arg);
	int (*wall_arm)(void (*on_wall)(void));
	int (*wall_done)(uint64_t deadline_ns);
	unsigned (*pm_kinds)(void);
	int (*reduce)(void *buf, size_t elem, unsigned count,
		      void (*op)(void *inout, const void *in, unsigned count), uint64_t deadline_ns);
	int (*gather_fixed)(const void *rec, size_t n, void *all, uint64_t deadline_ns);
};

/* Why the module could not be loaded ("" when it was, or was not tried):
 * sm_mpi_init() then returns -ELIBACC. */
const char *sm_mpi_load_error(void);

/* The MPI library's name and version on one line ("Open MPI v4.1.4"), or
 * "none"; callable before MPI starts (MPI_Get_library_version). */
void sm_mpi_library(char *buf, size_t len);

/* What the MPI library can take its job from, as SM_MPI_PM_* bits
 * (mpi/launch.h), callable before MPI starts: Open MPI 4 and later speak
 * PMIx, and Slurm's PMI only with its s1/s2 components (looked for beside
 * the library); another library is SM_MPI_PM_UNKNOWN. 0 when the module
 * cannot be loaded. */
unsigned sm_mpi_pm_kinds(void);

/*
 * The launcher that started this process, from its environment alone (no
 * MPI call): "mpirun" (OMPI_COMM_WORLD_SIZE), "pmix" (PMIX_RANK), "pmi"
 * (PMI_SIZE) or "srun" (SLURM_PROCID with SLURM_NTASKS above 1); NULL for
 * a plain start, which then pays nothing for MPI.
 */
const char *sm_mpi_launched(void);

/* This process in the job. */
struct sm_mpi_proc {
	int rank, size;
	char host[64];             /* SM_MPI_HOST when set (a label for tests and
				    * containers), else the host name */
	char (*hosts)[64];         /* [size]: every rank's host, exchanged at the
				    * start (owned; freed by sm_mpi_end) */
};

/* Start MPI (threads: a stonewall listener runs beside the main thread)
 * and fill d. Returns 0, -ENOTSUP (no MPI in this build, or the library
 * gives no thread support), -ELIBACC (the MPI module cannot be loaded:
 * sm_mpi_load_error() says why) or -EIO (MPI failed to start). */
int sm_mpi_init(struct sm_mpi_proc *d);

/* End MPI; nothing may follow but exit. With abort, the job is torn down
 * (MPI_Abort: a rank that could not take part). */
void sm_mpi_end(struct sm_mpi_proc *d, int abort_job, int code);

/* A barrier that gives up at deadline_ns (sm_now_ns() clock). Returns 0,
 * -ETIMEDOUT (a rank never came: the job cannot be coordinated any more) or
 * -EIO. */
int sm_mpi_barrier(uint64_t deadline_ns);

/* The largest of every rank's v into *out, given up at deadline_ns as
 * sm_mpi_barrier() is: a vote (a rank that fails says 1). */
int sm_mpi_max(int v, int *out, uint64_t deadline_ns);

/* The largest of every rank's v[i] into out[i] (i < n), element by
 * element, bounded as sm_mpi_max() is: an agreement on values every rank
 * proposes (the directory id of a shared frame set, docs/mpi.md). */
int sm_mpi_max_u64(const uint64_t *v, uint64_t *out, unsigned n, uint64_t deadline_ns);

/* Rank 0's n bytes at buf to every rank (the same n everywhere; the others
 * receive into buf), given up at deadline_ns as sm_mpi_barrier() is.
 * Returns 0, -ETIMEDOUT, -EFBIG or -EIO. */
int sm_mpi_bcast(void *buf, size_t n, uint64_t deadline_ns);

/*
 * Every rank's bytes to rank 0. On rank 0 out[r] (an array of size
 * pointers, caller frees each and the array) is rank r's copy, NULL when
 * rank r sent nothing by deadline_ns; len[r] its length. On other ranks out
 * and len are left NULL. Returns 0 (on rank 0 even when some are missing:
 * out says which), -ENOMEM, -ETIMEDOUT (a rank other than 0: rank 0 did not
 * take the bytes by then) or -EIO.
 */
int sm_mpi_gather(const void *buf, size_t n, uint64_t deadline_ns, char ***out, size_t **len);

/*
 * Every rank's bytes to rank 0 one at a time: rank 0 calls take(arg, r,
 * piece, len) with each rank's piece as it arrives and frees it before
 * the next is received, so rank 0 holds one rank's bytes at a time
 * whatever the job's size (docs/mpi.md, "Scale"); then take(arg, r, NULL,
 * 0) for each rank that sent nothing by deadline_ns. Rank 0's own bytes
 * are not passed (buf and n are ignored there). Other ranks send buf as
 * sm_mpi_gather() does. Returns 0, the first non-zero take() returned,
 * -ENOMEM, -ETIMEDOUT (a rank other than 0) or -EIO.
 */
int sm_mpi_gather_each(const void *buf, size_t n, uint64_t deadline_ns,
		       int (*take)(void *arg, int rank, const char *piece, size_t len), void *arg);

/*
 * Every rank's count elements of elem bytes at buf combined by op into
 * rank 0's buf, by the MPI library's reduction (MPI_Ireduce with op made
 * a user-defined operation, MPI_Op_create: a tree, not a gather): op(inout,
 * in, n) must fold n elements of in into inout, be associative and
 * commutative, and follow no pointer (its elements come from other
 * processes); a histogram's exact merge is. Other ranks' buf is left as it
 * was. Given up at deadline_ns as sm_mpi_barrier() is. Returns 0,
 * -ETIMEDOUT, -EFBIG, -ENOMEM or -EIO.
 */
int sm_mpi_reduce(void *buf, size_t elem, unsigned count,
		  void (*op)(void *inout, const void *in, unsigned count), uint64_t deadline_ns);

/*
 * Every rank's n bytes at rec to rank 0's all (size x n bytes, rank r's at
 * r x n), by MPI_Igather: a fixed-size record per rank. all is unused on
 * other ranks. Bounded as sm_mpi_barrier() is. Returns 0, -ETIMEDOUT,
 * -EFBIG or -EIO.
 */
int sm_mpi_gather_fixed(const void *rec, size_t n, void *all, uint64_t deadline_ns);

/*
 * The stonewall (docs/mpi.md): sm_mpi_wall_arm() starts a listener thread
 * that calls on_wall() once when another rank reports that it finished;
 * sm_mpi_wall_done() is this rank's report (sent to all others unless the
 * wall already fell here), then stops the listener. Both return 0 or -errno.
 * Call done on every rank that armed before any further collective.
 */
int sm_mpi_wall_arm(void (*on_wall)(void));
int sm_mpi_wall_done(uint64_t deadline_ns);

#endif
