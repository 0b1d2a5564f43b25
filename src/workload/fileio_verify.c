/* SPDX-License-Identifier: MIT */
/* fileio --validate and --verify: the trailer on every block written, the
 * check of every block read, and the map of this run's latest write to each
 * block, which turns a block that still holds an older write into a lost
 * write rather than a pass. */
#include "workload/fileio.h"
#include "core/buf.h"
#include "core/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Past this many blocks the map of latest writes and the block maps would
 * take more than 2 GiB: refuse rather than thrash. */
#define MAX_MAP_BLOCKS (1ULL << 27)

/* The set of a file: the one most of its probed blocks (the first three,
 * three inside, the last two) carry in an intact trailer, the newer on a
 * tie; a block left over from an earlier set (a lost write) is outvoted
 * rather than taken for the file's set. Returns the set id, 0 when no
 * probed block has one, or -errno. */
static int64_t probe_set(const struct sm_fileio_cfg *cfg, unsigned file, int fd, void *buf,
			 uint64_t per_file)
{
	const uint64_t which[] = { 0, 1, 2, per_file / 4, per_file / 2, per_file / 4 * 3,
				   per_file - 2, per_file - 1 };
	enum { N = sizeof(which) / sizeof(which[0]) };
	uint64_t seen[N], best = 0;
	unsigned votes[N], nseen = 0, most = 0;

	for (unsigned k = 0; k < N; k++) {
		struct sm_vblk_id id;
		unsigned j;
		ssize_t n;

		for (j = 0; j < k && which[j] != which[k]; j++)
			;
		if (which[k] >= per_file || j < k)
			continue;   /* past the end, or a block already probed */
		n = pread(fd, buf, cfg->block_size, (off_t)(which[k] * cfg->block_size));
		if (n < 0)
			return -errno;
		if ((uint64_t)n != cfg->block_size || !sm_verify_peek(buf, (uint32_t)cfg->block_size, &id) ||
		    id.file != cfg->first_file + file || !id.set)
			continue;
		for (j = 0; j < nseen && seen[j] != id.set; j++)
			;
		if (j == nseen) {
			seen[nseen] = id.set;
			votes[nseen++] = 0;
		}
		votes[j]++;
	}
	for (unsigned j = 0; j < nseen; j++)
		if (votes[j] > most || (votes[j] == most && seen[j] > best)) {
			most = votes[j];
			best = seen[j];
		}
	return (int64_t)(best & INT64_MAX);
}

/* Whether the set is small enough to map and large enough to keep the
 * requests in flight apart. Returns 0 or -ENOMEDIUM with msg. */
static int check_room(const struct sm_fileio_cfg *cfg, unsigned slots, char *msg, size_t msglen)
{
	uint64_t nblocks = cfg->file_size / cfg->block_size * cfg->num_files;

	if (nblocks > MAX_MAP_BLOCKS) {
		snprintf(msg, msglen, "--%s tracks every block: %llu blocks is more than %llu; use a larger "
			 "--file-block-size", cfg->verify ? "verify" : "validate",
			 (unsigned long long)nblocks, MAX_MAP_BLOCKS);
		return -ENOMEDIUM;
	}
	/* two requests in flight on one block would read a write half done:
	 * the generator keeps them apart, which needs room to do so */
	if (nblocks < 2ULL * slots) {
		snprintf(msg, msglen, "--%s needs at least %llu blocks for %u requests in flight, the set has "
			 "%llu: use fewer --threads, a smaller --file-async-backlog or a larger set",
			 cfg->verify ? "verify" : "validate", 2ULL * slots, slots, (unsigned long long)nblocks);
		return -ENOMEDIUM;
	}
	return 0;
}

/* The set of each file into set[] (NULL: only look); under --verify a
 * file without one is refused. A file that cannot be opened is left to
 * the run's own open, which names it as sysbench does. */
static int learn_sets(const struct sm_fileio_cfg *cfg, const int *fds, uint64_t run, uint64_t *set,
		      char *msg, size_t msglen)
{
	uint64_t per_file = cfg->file_size / cfg->block_size;
	void *buf = sm_buf_alloc(cfg->block_size, SM_BUF_ALIGN);
	char path[4096];
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; i < cfg->num_files; i++) {
		int fd = fds ? fds[i] : -1;
		int64_t s;

		if (cfg->mode == SM_FIO_SEQWR) {
			if (set)
				set[i] = run;  /* the files start empty */
			continue;
		}
		sm_fileio_path(cfg, i, path, sizeof(path));
		if (!fds) {
			fd = open(path, O_RDONLY | O_NOFOLLOW);
			if (fd < 0)
				continue;
		}
		s = probe_set(cfg, i, fd, buf, per_file);
		if (!fds)
			close(fd);
		if (s < 0) {
			snprintf(msg, msglen, "cannot read '%s': %s", path, strerror((int)-s));
			rc = (int)s;
			break;
		}
		if (set)
			set[i] = (uint64_t)s;
		if (!s && cfg->verify) {
			snprintf(msg, msglen, "cannot verify '%s': it was not prepared with --verify and "
				 "--file-block-size=%llu (its first blocks carry no verify trailer); run "
				 "cleanup, then prepare --verify", path, (unsigned long long)cfg->block_size);
			rc = -ENOMEDIUM;
			break;
		}
	}
	free(buf);
	return rc;
}

int sm_fileio_verify_ready(const struct sm_fileio_cfg *cfg, unsigned slots, char *msg, size_t msglen)
{
	int rc = check_room(cfg, slots, msg, msglen);

	return rc ? rc : learn_sets(cfg, NULL, 0, NULL, msg, msglen);
}

/* Say why file i's map is not used. */
static void map_unused(const struct sm_fileio_vctx *v, unsigned i, const char *why)
{
	char path[4096];

	if (!v->warn)
		return;
	sm_fileio_path(v->cfg, i, path, sizeof(path));
	sm_warn(v->warn, "verify_map", "the block map '%s.verify' %s: the blocks this run does not "
		"write are checked by their set only", path, why);
}

/* Load the files' block maps into v (not for seqwr, whose files start
 * empty); a run that writes marks the maps it uses as being updated and
 * removes the ones it cannot use (they describe the files no more). */
static int load_maps(struct sm_fileio_vctx *v)
{
	const struct sm_fileio_cfg *cfg = v->cfg;
	int writes = sm_fileio_mode_writes(cfg->mode);

	v->maps = calloc(cfg->num_files, sizeof(*v->maps));
	v->prev = calloc(v->per_file * cfg->num_files, sizeof(*v->prev));
	if (!v->maps || !v->prev)
		return -ENOMEM;
	for (unsigned i = 0; i < cfg->num_files; i++) {
		struct sm_fileio_vmap *m = &v->maps[i];
		uint64_t *words = v->prev + i * v->per_file;
		int rc = cfg->mode == SM_FIO_SEQWR ? 0 : sm_fileio_vmap_load(cfg, i, m, words);
		char why[160];

		if (rc == -ENOMEM)
			return rc;
		if (rc == 1 && v->set[i] && m->set != v->set[i]) {
			/* a map of another set: its file was written again
			 * without it (prepare or a run without --verify) */
			snprintf(why, sizeof(why), "is of set %llu and the file's blocks of set %llu",
				 (unsigned long long)m->set, (unsigned long long)v->set[i]);
			map_unused(v, i, why);
			free(m->runs);
			memset(m, 0, sizeof(*m));
			memset(words, 0, v->per_file * sizeof(*words));
			rc = -EBADMSG;
		} else if (rc == 1) {
			v->set[i] = m->set;
		} else if (rc < 0) {
			map_unused(v, i, rc == -EBUSY ? "was left by a run that did not end"
					 : rc == -EPERM ? "is not a block map of stormark's (left alone)"
					 : rc == -EBADMSG ? "is damaged, or describes another --file-total-size, "
							    "--file-num or --file-block-size"
					 : strerror(-rc));
		}
		if (!writes)
			continue;
		if (m->nruns && sm_fileio_vmap_begin(cfg, i)) {
			map_unused(v, i, "cannot be marked as being updated");
			free(m->runs);
			memset(m, 0, sizeof(*m));
			memset(words, 0, v->per_file * sizeof(*words));
		}
		if (!m->nruns)
			sm_fileio_vmap_remove(cfg, i);
	}
	return 0;
}

int sm_fileio_vctx_init(struct sm_fileio_vctx *v, const struct sm_fileio_cfg *cfg, const int *fds,
			unsigned slots, struct sm_warnings *warn, char *msg, size_t msglen)
{
	int rc;

	memset(v, 0, sizeof(*v));
	v->cfg = cfg;
	v->warn = warn;
	v->run = sm_verify_new_id();
	v->per_file = cfg->file_size / cfg->block_size;
	rc = check_room(cfg, slots, msg, msglen);
	if (rc)
		return rc;
	v->set = calloc(cfg->num_files, sizeof(*v->set));
	v->last = calloc(v->per_file * cfg->num_files, sizeof(*v->last));
	if (!v->set || !v->last)
		rc = -ENOMEM;
	else
		rc = learn_sets(cfg, fds, v->run, v->set, msg, msglen);
	if (!rc)
		rc = load_maps(v);
	if (rc)
		sm_fileio_vctx_release(v);
	return rc;
}

void sm_fileio_vctx_finish(struct sm_fileio_vctx *v)
{
	const struct sm_fileio_cfg *cfg = v->cfg;
	uint64_t *words, *runs;

	if (!v->last || !v->maps || !sm_fileio_mode_writes(cfg->mode))
		return;
	words = malloc(v->per_file * sizeof(*words));
	runs = malloc((SM_VMAP_MAX_RUNS + 1) * sizeof(*runs));
	for (unsigned i = 0; words && runs && i < cfg->num_files; i++) {
		const struct sm_fileio_vmap *m = &v->maps[i];
		const uint64_t *last = v->last + i * v->per_file, *prev = v->prev + i * v->per_file;
		unsigned n = m->nruns < SM_VMAP_MAX_RUNS ? m->nruns : SM_VMAP_MAX_RUNS;
		int rc;

		/* --validate keeps a map up to date; --verify makes one */
		if ((!m->nruns && !cfg->verify) || !v->set[i])
			continue;
		if (n)
			memcpy(runs, m->runs, n * sizeof(*runs));
		runs[n] = v->run;   /* this run: k = n + 1 */
		for (uint64_t b = 0; b < v->per_file; b++) {
			uint64_t l = __atomic_load_n(&last[b], __ATOMIC_ACQUIRE);

			words[b] = !l ? (m->nruns ? prev[b] : 0)
			         : l <= SM_VMAP_SEQ_MASK ? (uint64_t)(n + 1) << SM_VMAP_SEQ_BITS | l : 0;
		}
		rc = sm_fileio_vmap_save(cfg, i, v->set[i], words, runs, n + 1);
		if (rc) {
			char path[4096];

			sm_fileio_path(cfg, i, path, sizeof(path));
			sm_fileio_vmap_remove(cfg, i);
			if (v->warn)
				sm_warn(v->warn, "verify_map", "cannot write the block map '%s.verify': %s: "
					"the next run checks the blocks of '%s' by their set only", path,
					rc == -E2BIG ? "its blocks name too many runs" : strerror(-rc), path);
		}
	}
	free(words);
	free(runs);
}

void sm_fileio_vctx_release(struct sm_fileio_vctx *v)
{
	for (unsigned i = 0; v->maps && i < v->cfg->num_files; i++)
		free(v->maps[i].runs);
	free(v->maps);
	free(v->prev);
	free(v->set);
	free(v->last);
	v->maps = NULL;
	v->prev = NULL;
	v->set = NULL;
	v->last = NULL;
}

void sm_fileio_vseal(const struct sm_fileio_vctx *v, void *buf, unsigned file, uint64_t off, uint64_t len,
		     uint64_t event, struct sm_verify_stats *st)
{
	struct sm_vblk_id id = {
		.set = v->set[file] ? v->set[file] : v->run,
		.run = v->run,
		.seq = event + 1,
		.off = off,
		.file = v->cfg->first_file + file,
	};
	uint64_t t0 = sm_now_ns();

	st->sealed += sm_verify_seal_range(buf, len, v->cfg->block_size, &id);
	st->seal_ns += sm_now_ns() - t0;
}

void sm_fileio_vwritten(struct sm_fileio_vctx *v, unsigned file, uint64_t off, uint64_t len, uint64_t event)
{
	uint64_t b = v->cfg->block_size;

	for (uint64_t o = 0; o + b <= len; o += b)
		__atomic_store_n(&v->last[file * v->per_file + (off + o) / b], event + 1, __ATOMIC_RELEASE);
}

unsigned sm_fileio_vcheck(const struct sm_fileio_vctx *v, const void *buf, unsigned file, uint64_t off,
			  uint64_t len, struct sm_verify_stats *st, struct sm_verify_problem *first)
{
	const struct sm_fileio_cfg *cfg = v->cfg;
	uint64_t b = cfg->block_size, t0 = sm_now_ns();
	unsigned bad = 0;

	for (uint64_t o = 0; o + b <= len; o += b) {
		uint64_t at = file * v->per_file + (off + o) / b;
		uint64_t last = __atomic_load_n(&v->last[at], __ATOMIC_ACQUIRE);
		/* --validate does not check the set: prepare may have extended a
		 * file written by an earlier prepare, as sysbench does */
		struct sm_vblk_id expect = {
			.set = cfg->verify ? v->set[file] : 0,
			.run = last ? v->run : 0,
			.seq = last,
			.off = off + o,
			.file = cfg->first_file + file,
			.len = (uint32_t)b,
		}, found;
		enum sm_verify_kind k;

		if (!last && v->prev && v->prev[at] >> SM_VMAP_SEQ_BITS) {
			/* not written by this run: the write the map says it
			 * holds, so that one an earlier run lost is found */
			expect.run = v->maps[file].runs[(v->prev[at] >> SM_VMAP_SEQ_BITS) - 1];
			expect.seq = v->prev[at] & SM_VMAP_SEQ_MASK;
		}
		k = sm_verify_check((const unsigned char *)buf + o, (uint32_t)b, &expect, v->run, &found);

		if (!cfg->verify && !last && !v->set[file] && (k == SM_VK_NOHDR || k == SM_VK_ZERO)) {
			/* --validate on a file whose blocks carry no trailer
			 * (prepared without --validate): it cannot be checked,
			 * which is not corruption. In a file prepared with
			 * --validate (its set is known) every block has one,
			 * so a block without one is damage. */
			st->unchecked++;
			continue;
		}
		st->checked++;
		if (k != SM_VK_OK) {
			sm_verify_note(st, k, &expect, &found);
			if (!bad++ && first) {
				memset(first, 0, sizeof(*first));
				first->file = cfg->first_file + file;   /* the N of its name */
				first->off = off + o;
				first->kind = k;
				first->expect = expect;
				first->found = found;
			}
		}
	}
	st->check_ns += sm_now_ns() - t0;
	return bad;
}
