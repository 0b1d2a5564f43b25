/* SPDX-License-Identifier: MIT */
/* The binary's side of the MPI transport (comm.h): launch detection from
 * the environment, and every other call forwarded to the MPI module,
 * loaded on the first call that needs it. Built without SM_HAVE_MPI, the
 * calls answer -ENOTSUP. */
#include "mpi/comm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compiler.h"

const char *sm_mpi_launched(void)
{
	const char *s;

	if (getenv("OMPI_COMM_WORLD_SIZE"))
		return "mpirun";
	if (getenv("PMIX_RANK"))
		return "pmix";
	if (getenv("PMI_SIZE"))
		return "pmi";
	/* a one-task srun (or a shell inside an allocation) is no MPI job */
	s = getenv("SLURM_NTASKS");
	if (getenv("SLURM_PROCID") && s && atoi(s) > 1)
		return "srun";
	return NULL;
}

#ifndef SM_HAVE_MPI

int sm_mpi_built(void) { return 0; }
const char *sm_mpi_load_error(void) { return ""; }
void sm_mpi_library(char *buf, size_t len) { snprintf(buf, len, "none"); }
unsigned sm_mpi_pm_kinds(void) { return 0; }
int sm_mpi_init(struct sm_mpi_proc *d) { memset(d, 0, sizeof(*d)); return -ENOTSUP; }
void sm_mpi_end(SM_UNUSED struct sm_mpi_proc *d, SM_UNUSED int abort_job, SM_UNUSED int code) { }
int sm_mpi_barrier(SM_UNUSED uint64_t deadline_ns) { return -ENOTSUP; }
int sm_mpi_max(SM_UNUSED int v, SM_UNUSED int *out, SM_UNUSED uint64_t deadline_ns) { return -ENOTSUP; }
int sm_mpi_max_u64(SM_UNUSED const uint64_t *v, SM_UNUSED uint64_t *out, SM_UNUSED unsigned n,
		   SM_UNUSED uint64_t deadline_ns)
{
	return -ENOTSUP;
}
int sm_mpi_bcast(SM_UNUSED void *buf, SM_UNUSED size_t n, SM_UNUSED uint64_t deadline_ns) { return -ENOTSUP; }
int sm_mpi_gather(SM_UNUSED const void *buf, SM_UNUSED size_t n, SM_UNUSED uint64_t deadline_ns,
		  SM_UNUSED char ***out, SM_UNUSED size_t **len)
{
	return -ENOTSUP;
}
int sm_mpi_gather_each(SM_UNUSED const void *buf, SM_UNUSED size_t n, SM_UNUSED uint64_t deadline_ns,
		       SM_UNUSED int (*take)(void *arg, int rank, const char *piece, size_t len),
		       SM_UNUSED void *arg)
{
	return -ENOTSUP;
}
int sm_mpi_reduce(SM_UNUSED void *buf, SM_UNUSED size_t elem, SM_UNUSED unsigned count,
		  SM_UNUSED void (*op)(void *inout, const void *in, unsigned count),
		  SM_UNUSED uint64_t deadline_ns)
{
	return -ENOTSUP;
}
int sm_mpi_gather_fixed(SM_UNUSED const void *rec, SM_UNUSED size_t n, SM_UNUSED void *all,
			SM_UNUSED uint64_t deadline_ns)
{
	return -ENOTSUP;
}
int sm_mpi_wall_arm(SM_UNUSED void (*on_wall)(void)) { return -ENOTSUP; }
int sm_mpi_wall_done(SM_UNUSED uint64_t deadline_ns) { return -ENOTSUP; }

#else

#include <dlfcn.h>
#include <limits.h>

/* Where the module is: beside the binary (the build tree), then where
 * `make install` puts it, relative to the installed binary. */
#ifndef SM_MPI_MODULE_NAME
#define SM_MPI_MODULE_NAME "stormark-mpi.so"
#endif
#ifndef SM_MPI_MODULE_REL
#define SM_MPI_MODULE_REL "../libexec/stormark/" SM_MPI_MODULE_NAME
#endif

static const struct sm_mpi_module *mod;
static char load_error[512];

int sm_mpi_built(void) { return 1; }

const char *sm_mpi_load_error(void)
{
	return load_error;
}

/* dlopen() path; 0 with mod set, or -1 with the reason appended to
 * load_error. */
static int try_path(const char *path)
{
	size_t used = strlen(load_error);
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);   /* MPI's own plugins look for its symbols */
	const struct sm_mpi_module *m;

	if (!h) {
		const char *e = dlerror();

		snprintf(load_error + used, sizeof(load_error) - used, "%s%s", used ? "; " : "",
			 e ? e : path);
		return -1;
	}
	m = dlsym(h, "sm_mpi_module");
	if (!m || m->abi != SM_MPI_MODULE_ABI) {
		snprintf(load_error + used, sizeof(load_error) - used, "%s%s: %s", used ? "; " : "", path,
			 m ? "a module of another stormark version" : "not stormark's MPI module");
		dlclose(h);
		return -1;
	}
	mod = m;   /* kept loaded to the end: MPI's threads run in it */
	return 0;
}

/* The module, loaded once. Returns 0, or -ELIBACC (load_error says why). */
static int load(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	if (mod)
		return 0;
	if (load_error[0])
		return -ELIBACC;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(load_error, sizeof(load_error), "cannot find the stormark binary: %s", strerror(errno));
		return -ELIBACC;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		slash[1] = '\0';
	snprintf(path, sizeof(path), "%s%s", exe, SM_MPI_MODULE_NAME);
	if (!try_path(path))
		return 0;
	snprintf(path, sizeof(path), "%s%s", exe, SM_MPI_MODULE_REL);
	if (!try_path(path)) {
		load_error[0] = '\0';
		return 0;
	}
	return -ELIBACC;
}

void sm_mpi_library(char *buf, size_t len)
{
	if (load()) {
		snprintf(buf, len, "the MPI module cannot be loaded (%s)", load_error);
		return;
	}
	mod->library(buf, len);
}

unsigned sm_mpi_pm_kinds(void)
{
	return load() ? 0 : mod->pm_kinds();
}

int sm_mpi_init(struct sm_mpi_proc *d)
{
	memset(d, 0, sizeof(*d));
	if (load())
		return -ELIBACC;
	return mod->init(d);
}

/* The calls after sm_mpi_init(): the module is loaded by then; before it,
 * they have nothing to do. */
void sm_mpi_end(struct sm_mpi_proc *d, int abort_job, int code)
{
	if (mod)
		mod->end(d, abort_job, code);
}

int sm_mpi_barrier(uint64_t deadline_ns)
{
	return mod ? mod->barrier(deadline_ns) : -ENOTSUP;
}

int sm_mpi_max(int v, int *out, uint64_t deadline_ns)
{
	return mod ? mod->max(v, out, deadline_ns) : -ENOTSUP;
}

int sm_mpi_max_u64(const uint64_t *v, uint64_t *out, unsigned n, uint64_t deadline_ns)
{
	return mod ? mod->max_u64(v, out, n, deadline_ns) : -ENOTSUP;
}

int sm_mpi_bcast(void *buf, size_t n, uint64_t deadline_ns)
{
	return mod ? mod->bcast(buf, n, deadline_ns) : -ENOTSUP;
}

int sm_mpi_gather(const void *buf, size_t n, uint64_t deadline_ns, char ***out, size_t **len)
{
	return mod ? mod->gather(buf, n, deadline_ns, out, len) : -ENOTSUP;
}

int sm_mpi_gather_each(const void *buf, size_t n, uint64_t deadline_ns,
		       int (*take)(void *arg, int rank, const char *piece, size_t len), void *arg)
{
	return mod ? mod->gather_each(buf, n, deadline_ns, take, arg) : -ENOTSUP;
}

int sm_mpi_reduce(void *buf, size_t elem, unsigned count,
		  void (*op)(void *inout, const void *in, unsigned count), uint64_t deadline_ns)
{
	return mod ? mod->reduce(buf, elem, count, op, deadline_ns) : -ENOTSUP;
}

int sm_mpi_gather_fixed(const void *rec, size_t n, void *all, uint64_t deadline_ns)
{
	return mod ? mod->gather_fixed(rec, n, all, deadline_ns) : -ENOTSUP;
}

int sm_mpi_wall_arm(void (*on_wall)(void))
{
	return mod ? mod->wall_arm(on_wall) : -ENOTSUP;
}

int sm_mpi_wall_done(uint64_t deadline_ns)
{
	return mod ? mod->wall_done(deadline_ns) : -ENOTSUP;
}

#endif
