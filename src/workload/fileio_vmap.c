/* SPDX-License-Identifier: MIT */
/* The block map of a fileio test file (test_file.N.verify): for every
 * block, which write it should hold (a run id and the write's sequence
 * number), as the last --verify prepare or run that wrote the file left
 * it, so that a later run can tell a block an earlier run lost from one
 * it never rewrote. Format and use: docs/verify.md. */
#include "workload/fileio.h"
#include "core/le.h"
#include "os/os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#define MAGIC "SMVMAP01"
#define HDR 64
/* header offsets */
enum { H_MAGIC = 0, H_STATE = 8, H_FILE = 12, H_SET = 16, H_BLOCK = 24, H_NBLOCKS = 32,
       H_NRUNS = 40, H_SUM = 48 };
#define SUMMED_FROM H_FILE     /* the checksum covers bytes 12..47 and the body */
#define SUMMED_TO H_SUM
#define STATE_CLEAN 0u
#define STATE_WRITING 1u
#define CHUNK 8192u            /* words moved per read or write */

static void map_path(const struct sm_fileio_cfg *cfg, unsigned i, char *buf, size_t len)
{
	char base[4096];

	sm_fileio_path(cfg, i, base, sizeof(base));
	snprintf(buf, len, "%s.verify", base);
}

/* Read exactly n bytes at off. 0, -EBADMSG when the file is shorter, or -errno. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, off + (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EBADMSG;
		done += (size_t)r;
	}
	return 0;
}

static int write_at(int fd, const void *buf, size_t n, off_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = pwrite(fd, (const char *)buf + done, n - done, off + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return 0;
}

/* Open file i's map when it is one of ours: the descriptor, -ENOENT when
 * there is none, -EPERM when something else is there (never followed, never
 * touched). flags: O_RDONLY or O_RDWR. */
static int open_map(const struct sm_fileio_cfg *cfg, unsigned i, int flags)
{
	char path[4200], magic[8];
	struct stat st;
	int fd;

	map_path(cfg, i, path, sizeof(path));
	fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || read_at(fd, magic, 8, 0) ||
	    memcmp(magic, MAGIC, 8)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int sm_fileio_vmap_load(const struct sm_fileio_cfg *cfg, unsigned i, struct sm_fileio_vmap *m,
			uint64_t *words)
{
	uint64_t per_file = cfg->file_size / cfg->block_size, nblocks;
	unsigned char h[HDR], *buf = NULL;
	XXH3_state_t *xs = NULL;
	int fd, rc = 0;

	memset(m, 0, sizeof(*m));
	fd = open_map(cfg, i, O_RDONLY);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	rc = read_at(fd, h, HDR, 0);
	if (rc)
		goto out;
	nblocks = sm_le_get64(h + H_NBLOCKS);
	m->set = sm_le_get64(h + H_SET);
	m->nruns = sm_le_get32(h + H_NRUNS);
	if (sm_le_get32(h + H_STATE) != STATE_CLEAN) {
		rc = -EBUSY;
		goto out;
	}
	if (sm_le_get32(h + H_FILE) != cfg->first_file + i || sm_le_get64(h + H_BLOCK) != cfg->block_size ||
	    nblocks != per_file || !m->nruns || m->nruns > SM_VMAP_MAX_RUNS || !m->set) {
		rc = -EBADMSG;
		goto out;
	}
	m->runs = calloc(m->nruns, sizeof(*m->runs));
	buf = malloc((m->nruns > CHUNK ? m->nruns : CHUNK) * 8);
	xs = XXH3_createState();
	if (!m->runs || !buf || !xs) {
		rc = -ENOMEM;
		goto out;
	}
	XXH3_64bits_reset(xs);
	XXH3_64bits_update(xs, h + SUMMED_FROM, SUMMED_TO - SUMMED_FROM);
	rc = read_at(fd, buf, (size_t)m->nruns * 8, HDR);
	if (rc)
		goto out;
	XXH3_64bits_update(xs, buf, (size_t)m->nruns * 8);
	for (unsigned k = 0; k < m->nruns; k++)
		m->runs[k] = sm_le_get64(buf + 8 * k);
	for (uint64_t b = 0; b < nblocks && !rc; b += CHUNK) {
		size_t n = nblocks - b < CHUNK ? (size_t)(nblocks - b) : CHUNK;

		rc = read_at(fd, buf, n * 8, (off_t)(HDR + (uint64_t)m->nruns * 8 + b * 8));
		if (rc)
			break;
		XXH3_64bits_update(xs, buf, n * 8);
		for (size_t k = 0; k < n; k++) {
			words[b + k] = sm_le_get64(buf + 8 * k);
			if (words[b + k] >> SM_VMAP_SEQ_BITS > m->nruns)
				rc = -EBADMSG;   /* names a run the table does not hold */
		}
	}
	if (!rc && XXH3_64bits_digest(xs) != sm_le_get64(h + H_SUM))
		rc = -EBADMSG;
out:
	XXH3_freeState(xs);
	free(buf);
	close(fd);
	if (rc < 0) {
		free(m->runs);
		m->runs = NULL;
		m->nruns = 0;
		return rc == -ENOENT ? -EBADMSG : rc;
	}
	return 1;
}

int sm_fileio_vmap_begin(const struct sm_fileio_cfg *cfg, unsigned i)
{
	unsigned char st[4];
	int fd = open_map(cfg, i, O_RDWR), rc;

	if (fd < 0)
		return fd;
	sm_le_put32(st, STATE_WRITING);
	rc = write_at(fd, st, 4, H_STATE);
	if (!rc && sm_os_datasync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* Keep in runs only the runs words still name, renumbering the words.
 * Returns the new count. */
static unsigned compact(uint64_t *words, uint64_t n, uint64_t *runs, unsigned nruns)
{
	unsigned *to = calloc((size_t)nruns + 1, sizeof(*to)), kept = 0;

	if (!to)
		return nruns;   /* nothing renumbered: the table stays whole */
	for (uint64_t b = 0; b < n; b++)
		to[words[b] >> SM_VMAP_SEQ_BITS] = 1;
	for (unsigned k = 1; k <= nruns; k++)
		if (to[k]) {
			runs[kept] = runs[k - 1];
			to[k] = ++kept;
		}
	for (uint64_t b = 0; b < n; b++)
		if (words[b] >> SM_VMAP_SEQ_BITS)
			words[b] = (uint64_t)to[words[b] >> SM_VMAP_SEQ_BITS] << SM_VMAP_SEQ_BITS |
				   (words[b] & SM_VMAP_SEQ_MASK);
	free(to);
	return kept;
}

int sm_fileio_vmap_save(const struct sm_fileio_cfg *cfg, unsigned i, uint64_t set, uint64_t *words,
			uint64_t *runs, unsigned nruns)
{
	uint64_t per_file = cfg->file_size / cfg->block_size;
	unsigned char h[HDR], *buf;
	XXH3_state_t *xs;
	char path[4200];
	int fd, rc;

	if (words)
		nruns = compact(words, per_file, runs, nruns);
	if (!nruns)   /* every block unknown: a map would say nothing */
		return sm_fileio_vmap_remove(cfg, i) < 0 ? -EPERM : 0;
	if (nruns > SM_VMAP_MAX_RUNS)
		return -E2BIG;
	fd = open_map(cfg, i, O_RDWR);
	if (fd == -ENOENT) {
		map_path(cfg, i, path, sizeof(path));
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return errno == EEXIST || errno == ELOOP ? -EPERM : -errno;
	}
	if (fd < 0)
		return fd;
	buf = malloc((nruns > CHUNK ? nruns : CHUNK) * 8);
	xs = XXH3_createState();
	rc = buf && xs ? 0 : -ENOMEM;
	memset(h, 0, sizeof(h));
	memcpy(h + H_MAGIC, MAGIC, 8);
	sm_le_put32(h + H_STATE, STATE_WRITING);   /* until the whole map is there */
	sm_le_put32(h + H_FILE, cfg->first_file + i);
	sm_le_put64(h + H_SET, set);
	sm_le_put64(h + H_BLOCK, cfg->block_size);
	sm_le_put64(h + H_NBLOCKS, per_file);
	sm_le_put32(h + H_NRUNS, nruns);
	if (!rc)
		rc = write_at(fd, h, HDR, 0);
	if (!rc) {
		XXH3_64bits_reset(xs);
		XXH3_64bits_update(xs, h + SUMMED_FROM, SUMMED_TO - SUMMED_FROM);
		for (unsigned k = 0; k < nruns; k++)
			sm_le_put64(buf + 8 * k, runs[k]);
		XXH3_64bits_update(xs, buf, (size_t)nruns * 8);
		rc = write_at(fd, buf, (size_t)nruns * 8, HDR);
	}
	for (uint64_t b = 0; !rc && b < per_file; b += CHUNK) {
		size_t n = per_file - b < CHUNK ? (size_t)(per_file - b) : CHUNK;

		for (size_t k = 0; k < n; k++)   /* no words: each block as prepare wrote it */
			sm_le_put64(buf + 8 * k, words ? words[b + k] : (uint64_t)1 << SM_VMAP_SEQ_BITS);
		XXH3_64bits_update(xs, buf, n * 8);
		rc = write_at(fd, buf, n * 8, (off_t)(HDR + (uint64_t)nruns * 8 + b * 8));
	}
	if (!rc && ftruncate(fd, (off_t)(HDR + ((uint64_t)nruns + per_file) * 8)))
		rc = -errno;
	if (!rc && sm_os_datasync(fd))   /* the map before the word that it is whole */
		rc = -errno;
	if (!rc) {
		sm_le_put64(h + H_SUM, XXH3_64bits_digest(xs));
		sm_le_put32(h + H_STATE, STATE_CLEAN);
		rc = write_at(fd, h, HDR, 0);
	}
	if (!rc && sm_os_datasync(fd))
		rc = -errno;
	XXH3_freeState(xs);
	free(buf);
	close(fd);
	return rc;
}

int sm_fileio_vmap_remove(const struct sm_fileio_cfg *cfg, unsigned i)
{
	char path[4200];
	struct stat mine, named;
	int fd = open_map(cfg, i, O_RDONLY), rc = 0;

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	map_path(cfg, i, path, sizeof(path));
	/* only while the name still leads to the map just checked */
	if (fstat(fd, &mine) || lstat(path, &named) || mine.st_dev != named.st_dev ||
	    mine.st_ino != named.st_ino)
		rc = -EPERM;
	else if (unlink(path))
		rc = -errno;
	close(fd);
	return rc ? rc : 1;
}
