/* SPDX-License-Identifier: MIT */
/* The features this build has and `stormark --version`'s text; a new
 * optional feature (MPI: SM_HAVE_MPI) adds one row to the table. */
#include "cmd/features.h"
#include "engine/nfs.h"
#include "mpi/comm.h"
#include "engine/engine.h"

#include <cjson/cJSON.h>
#include <errno.h>
#ifdef SM_HAVE_SQLITE
#include <sqlite3.h>
#endif
#include <string.h>
#include <xxhash.h>

#ifndef SM_LIBURING_VERSION
#define SM_LIBURING_VERSION "?"   /* CMakeLists.txt passes pkg-config's */
#endif

/* liburing's version as built (it has no run-time call in every release),
 * whether the kernel here lets the uring engine run, and the setup flags
 * a ring gets (docs/engines.md). */
static void uring_detail(char *buf, size_t len)
{
#ifndef SM_HAVE_URING
	/* the engine's name stays: it falls back to psync with a notice */
	snprintf(buf, len, "not in this build (liburing was missing when it was configured): "
		 "the uring engine runs as psync");
#else
	/* the engine a queued test gets: the asynchronous one */
	const struct sm_engine_need need = { .caps = SM_ENGINE_ASYNC | SM_ENGINE_POLLING };
	const struct sm_engine_ops *e = sm_engine_choose(&need);
	int rc = e && e->probe ? e->probe() : -ENOSYS;
	struct sm_engine_cfg cfg = { .depth = 2 };
	struct sm_engine_setup s = { 0 };
	struct sm_engine eng;
	char flags[160] = "";
	size_t n = 0;

	if (!rc && e && sm_engine_open_need(&eng, &need, &cfg, NULL, 0) == 0) {
		if (eng.ops == e)
			sm_engine_describe(&eng, &s);
		sm_engine_close(&eng);
	}
	for (unsigned b = 0; sm_esetup_name(b) && n < sizeof(flags); b++)
		if (s.flags & (1u << b))
			n += (size_t)snprintf(flags + n, sizeof(flags) - n, " %s", sm_esetup_name(b));
	snprintf(buf, len, "liburing %s; this kernel: %s%s%s%s", SM_LIBURING_VERSION,
		 rc ? "not usable, " : "usable", rc ? strerror(-rc) : "", flags[0] ? ", setup:" : "",
		 flags);
#endif
}

static void sqlite_detail(char *buf, size_t len)
{
#ifdef SM_HAVE_SQLITE
	snprintf(buf, len, "SQLite %s", sqlite3_libversion());
#else
	snprintf(buf, len, "not in this build (SQLite was missing when it was configured): "
		 "no --save, no history");
#endif
}

static void xxhash_detail(char *buf, size_t len)
{
	unsigned v = XXH_versionNumber();

	snprintf(buf, len, "xxHash %u.%u.%u", v / 10000, v / 100 % 100, v % 100);
}

static void cjson_detail(char *buf, size_t len)
{
	snprintf(buf, len, "cJSON %s", cJSON_Version());
}

static void nfs_detail(char *buf, size_t len)
{
	if (sm_nfs_available())
		snprintf(buf, len, "libnfs %s", sm_nfs_version());
	else
		snprintf(buf, len, "not in this build (libnfs was missing when it was configured): "
			 "--nfs is refused");
}

#ifdef SM_HAVE_MPI
static void mpi_detail(char *buf, size_t len)
{
	sm_mpi_library(buf, len);
}
#endif

static const struct sm_feature features[] = {
#ifdef SM_HAVE_URING
	{ "io_uring", "the uring engine (frames -a, fileio --file-io-mode=async, run)", uring_detail, 0 },
#else
	{ "io_uring", "the uring engine (frames -a, fileio --file-io-mode=async, run)", uring_detail, 1 },
#endif
#ifdef SM_HAVE_SQLITE
	{ "sqlite", "the history (--save, stormark history)", sqlite_detail, 0 },
#else
	{ "sqlite", "the history (--save, stormark history)", sqlite_detail, 1 },
#endif
#ifdef SM_HAVE_NFS
	{ "nfs", "the nfs engine: fileio and meta --nfs, an NFS server through libnfs (docs/engines.md)", nfs_detail, 0 },
#else
	{ "nfs", "the nfs engine: fileio and meta --nfs, an NFS server through libnfs (docs/engines.md)", nfs_detail, 1 },
#endif
	{ "xxhash", "--verify checksums, frame headers, the fileio seal", xxhash_detail, 0 },
	{ "json", "--json and stormark report", cjson_detail, 0 },
#ifdef SM_HAVE_MPI
	{ "mpi", "frames, fileio, run, streams and meta as one job under mpirun or srun (docs/mpi.md)", mpi_detail, 0 },
#endif
};

const struct sm_feature *sm_features(unsigned *n)
{
	*n = sizeof(features) / sizeof(features[0]);
	return features;
}

void sm_features_print(FILE *f, int verbose)
{
	unsigned n;
	const struct sm_feature *ft = sm_features(&n);
	char detail[160];

	fprintf(f, "stormark %s (features:", SM_VERSION);
	for (unsigned i = 0; i < n; i++)
		if (!ft[i].absent)
			fprintf(f, " %s", ft[i].name);
	fputs(")\n", f);
	for (unsigned i = 0; verbose && i < n; i++) {
		ft[i].detail(detail, sizeof(detail));
		fprintf(f, "  %-9s %s [%s]\n", ft[i].name, ft[i].gives, detail);
	}
}
