/* SPDX-License-Identifier: MIT */
/* stormark fileio's checks of a plan before any work (cmd/fileio_check.h):
 * options that cannot go together, the plan's sizes, --nfs, direct I/O's
 * alignment. Each refusal is one line and exit 2. */
#include "cmd/fileio_check.h"

#include "cmd/cmd.h"
#include "args/fileio_opts.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/pace.h"
#include "core/units.h"
#include "engine/nfs.h"
#include "workload/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options that cannot go together under the stormark name, whatever their
 * order (sysbench 1.0.20 takes them, so its name does too). Returns 0 or
 * SM_EXIT_USAGE after one line. */
static int check_conflicts(struct sm_fileio_opts *o)
{
	const struct sm_fileio_cfg *cfg = &o->cfg;

	if (!strcmp(o->prog, "sysbench"))
		return 0;
	if ((cfg->extra_flags & SM_FIO_FLAG_DIRECT) && cfg->io_mode == SM_FIO_IO_MMAP)
		return sm_fileio_bad(o, "--file-extra-flags=direct cannot be combined with --file-io-mode=mmap: "
				     "mapped pages go through the page cache");
	if (!strcmp(o->command, "run") && !cfg->time_ns && !cfg->max_events)
		return sm_fileio_bad(o, "--time=0 cannot be combined with --events=0: the run would never end "
				     "(give a time or an event limit)");
	if ((o->steady.steady || o->steady.precondition || o->steady_round_set || o->steady_rounds_set) &&
	    strcmp(o->command, "run"))
		return sm_fileio_bad(o, "--steady, --steady-round, --steady-rounds and --precondition apply to 'run' only");
	if ((o->steady_round_set || o->steady_rounds_set) && !o->steady.steady)
		return sm_fileio_bad(o, "--steady-round and --steady-rounds need --steady");
	if (o->steady.steady && o->time_set)
		return sm_fileio_bad(o, "--steady cannot be combined with --time: each round lasts --steady-round "
				     "(%g s) and there are at most --steady-rounds (%u)",
				     (double)o->steady.round_ns / 1e9, o->steady.max_rounds);
	if (o->steady.steady && cfg->max_events)
		return sm_fileio_bad(o, "--steady cannot be combined with --events: its rounds are timed "
				     "(--steady-round)");
	if ((o->steady.steady || o->steady.precondition) && (cfg->verify || cfg->validate))
		return sm_fileio_bad(o, "--%s cannot be combined with --%s: %s", o->steady.steady ? "steady" : "precondition",
				     cfg->verify ? "verify" : "validate", o->steady.steady
				     ? "checks are not merged across rounds" : "the preconditioning overwrites the checked blocks");
	if (cfg->nfs) {
		char server[256], path[4096];

		if (!sm_nfs_available())
			return sm_fileio_bad(o, "--nfs: this stormark was built without libnfs (install libnfs-dev, "
					     "scripts/deps.sh, and build again)");
		if (sm_nfs_url_split(cfg->nfs, server, sizeof(server), path, sizeof(path)))
			return sm_fileio_bad(o, "--nfs '%s' is not nfs://SERVER/EXPORT[/DIR]", cfg->nfs);
		if (strcmp(cfg->dir, "."))
			return sm_fileio_bad(o, "--nfs cannot be combined with --file-dir: the files are on the server");
		if (cfg->io_mode != SM_FIO_IO_SYNC || cfg->extra_flags || o->uring.sqpoll || o->uring.iopoll)
			return sm_fileio_bad(o, "--nfs runs with --file-io-mode=sync and no --file-extra-flags only "
					     "(its engine is synchronous, and the server has no O_DIRECT)");
		if (cfg->verify || cfg->validate || o->steady.steady || o->steady.precondition)
			return sm_fileio_bad(o, "--nfs cannot be combined with --verify, --validate, --steady or "
					     "--precondition (not built for it yet)");
	}
	if ((o->uring.sqpoll || o->uring.iopoll) && strcmp(o->command, "run"))
		return sm_fileio_bad(o, "--sqpoll and --iopoll apply to 'run' only");
	if (cfg->fsync_all && o->fsync_freq_set)
		return sm_fileio_bad(o, "--file-fsync-all cannot be combined with --file-fsync-freq: "
				     "--file-fsync-all syncs after every write");
	return 0;
}

/* Everything that can be checked before touching a file. */
int sm_fileio_check_plan(struct sm_fileio_opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	int rc = check_conflicts(o);

	if (rc)
		return rc;
	if (cfg->total_size < cfg->block_size)
		return sm_fileio_bad(o, "--file-total-size %llu is smaller than one block (--file-block-size %llu)",
			   (unsigned long long)cfg->total_size, (unsigned long long)cfg->block_size);
	cfg->file_size = cfg->total_size / cfg->num_files;
	if (cfg->file_size == 0)
		return sm_fileio_bad(o, "--file-total-size %llu is less than one byte per file for --file-num %u",
			   (unsigned long long)cfg->total_size, cfg->num_files);
	if (sm_fileio_sealing(cfg) && (cfg->block_size < SM_VERIFY_MIN_BLOCK || cfg->block_size > (1u << 30)))
		return sm_fileio_bad(o, "--%s needs a --file-block-size from %u bytes to 1 GiB",
				     cfg->verify ? "verify" : "validate", SM_VERIFY_MIN_BLOCK);
	if (sm_fileio_sealing(cfg) && cfg->file_size % cfg->block_size)
		return sm_fileio_bad(o, "--%s needs files of whole blocks: %llu bytes per file is not a "
			   "multiple of --file-block-size %llu", cfg->verify ? "verify" : "validate",
			   (unsigned long long)cfg->file_size, (unsigned long long)cfg->block_size);
	if (sm_fileio_request_size(cfg) > (1ULL << 30))
		return sm_fileio_bad(o, "--file-merged-requests %u makes requests larger than 1 GiB", cfg->merged);
	if (cfg->fsync_all) {
		cfg->fsync_end = 0;
		cfg->fsync_freq = 0;
	}
	if (cfg->rate > 0 && cfg->rate < SM_RATE_MIN)
		return sm_fileio_bad(o, "--rate %g is below the lowest paced rate, %g events per second (one "
			   "every %g s); use 0 for no limit", cfg->rate, SM_RATE_MIN, 1 / SM_RATE_MIN);
	if (!strcmp(o->command, "run") && cfg->mode == SM_FIO_NONE)
		return sm_fileio_bad(o, "missing required argument: --file-test-mode");
	if (cfg->nfs)
		goto seed;   /* no local directory */
	if (sm_path_problem(cfg->dir))
		return sm_fileio_bad(o, "--file-dir '%s' %s", cfg->dir, sm_path_problem(cfg->dir));
	rc = sm_is_dir(cfg->dir);
	if (rc != 1)
		return sm_fileio_bad(o, "--file-dir '%s': %s", cfg->dir, rc == 0 ? "no such directory" : "not a directory");
	/* prepare creates files: a read-only directory is refused before the
	 * banner (sysbench's name keeps sysbench's FATAL at the first file) */
	if (!strcmp(o->command, "prepare") && strcmp(o->prog, "sysbench") &&
	    (rc = sm_dir_check_writable(cfg->dir)))
		return sm_fileio_bad(o, "--file-dir '%s': cannot create files there: %s", cfg->dir, strerror(-rc));
seed:
	if (!cfg->seed) {
		cfg->seed = sm_now_ns() ^ ((uint64_t)getpid() << 32);
		if (!cfg->seed)
			cfg->seed = 1;
	}
	return 0;
}

/* O_DIRECT: refuse sizes the file system would reject, naming the minimum. */
int sm_fileio_check_direct(struct sm_fileio_opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	uint64_t need;
	int a;

	if (!(cfg->extra_flags & SM_FIO_FLAG_DIRECT) || cfg->io_mode == SM_FIO_IO_MMAP)
		return 0;
	/* no file system takes O_DIRECT below 512 bytes: say so without the
	 * probe, which creates (and removes) a file in the directory */
	if (cfg->block_size % 512)
		return sm_fileio_bad(o, "--file-block-size %llu does not suit O_DIRECT: use a multiple of 512 bytes "
			   "at least (the file system may need a larger one)", (unsigned long long)cfg->block_size);
	a = sm_direct_probe(cfg->dir);
	if (a == -EINVAL)
		return sm_fileio_bad(o, "--file-extra-flags=direct: the file system of '%s' does not support O_DIRECT",
			   cfg->dir);
	if (a < 0) {
		sm_error("cannot probe O_DIRECT in '%s': %s", cfg->dir, strerror(-a));
		return SM_EXIT_FAIL;
	}
	need = (uint64_t)a;
	if (cfg->block_size % need)
		return sm_fileio_bad(o, "--file-block-size %llu does not suit O_DIRECT on '%s': use a multiple of "
			   "%llu bytes", (unsigned long long)cfg->block_size, cfg->dir,
			   (unsigned long long)need);
	if (cfg->file_size % need)
		return sm_fileio_bad(o, "--file-total-size / --file-num gives %llu bytes per file, which O_DIRECT on "
			   "'%s' cannot end on: use a multiple of %llu bytes per file",
			   (unsigned long long)cfg->file_size, cfg->dir, (unsigned long long)need);
	return 0;
}

