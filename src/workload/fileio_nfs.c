/* SPDX-License-Identifier: MIT */
/* fileio --nfs: the test files on an NFS server through libnfs, with no
 * kernel mount (docs/engines.md, "nfs"). Prepare creates test_file.N
 * exclusively (NFSv3 CREATE EXCLUSIVE: a file of that name, anyone's, is
 * never overwritten) and lists what it made, with each file's id on the
 * server, in test_file.owner, also created exclusively; run opens and
 * cleanup removes only the files that list names with the same id. */
#include "workload/fileio.h"
#include "engine/nfs.h"
#include "result/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OWNER_NAME "test_file.owner"
#define OWNER_MAGIC "stormark fileio --nfs 1\n"

#ifdef SM_HAVE_NFS
#include <fcntl.h>
#include <sys/time.h>   /* libnfs.h needs struct timeval */
#include <nfsc/libnfs.h>

#include "core/buf.h"

/* The URL less its ?ARGS, for messages: "%.*s", B(cfg), cfg->nfs. */
#define B(cfg) ((int)strcspn((cfg)->nfs, "?"))

static void name_of(const struct sm_fileio_cfg *cfg, unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "/test_file.%u", cfg->first_file + i);
}

static struct nfs_context *connect_to(const char *url, char *msg, size_t len)
{
	struct nfs_context *n = nfs_init_context();
	struct nfs_url *u;

	if (!n) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	u = nfs_parse_url_dir(n, url);
	if (!u || !u->server || !u->path) {   /* nfs://SERVER/NAME: libnfs leaves one NULL */
		snprintf(msg, len, "'%s' is not an NFS URL libnfs takes: %s", url,
			 u ? "no export in it" : nfs_get_error(n));
		if (u)
			nfs_destroy_url(u);
		nfs_destroy_context(n);
		return NULL;
	}
	if (nfs_mount(n, u->server, u->path)) {
		snprintf(msg, len, "cannot mount '%s' from '%s': %s", u->path, u->server, nfs_get_error(n));
		nfs_destroy_url(u);
		nfs_destroy_context(n);
		return NULL;
	}
	nfs_destroy_url(u);
	return n;
}

/* The owner list: ids[i] the server's file id of file i, 0 when the list
 * does not name it. Returns 1, 0 when there is no list, or -errno (-EPERM:
 * a file of that name that is not a list). */
static int owner_load(struct nfs_context *n, const struct sm_fileio_cfg *cfg, uint64_t *ids)
{
	struct nfs_stat_64 st;
	struct nfsfh *fh;
	char *text, *line, *save = NULL;
	int rc;

	memset(ids, 0, cfg->num_files * sizeof(*ids));
	rc = nfs_stat64(n, "/" OWNER_NAME, &st);
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	if ((st.nfs_mode & S_IFMT) != S_IFREG || st.nfs_size > (1u << 24))
		return -EPERM;
	text = calloc(1, st.nfs_size + 1);
	if (!text)
		return -ENOMEM;
	rc = nfs_open(n, "/" OWNER_NAME, O_RDONLY, &fh);
	if (!rc) {
		uint64_t got = 0;

		while (got < st.nfs_size) {
			int k = nfs_pread(n, fh, got, st.nfs_size - got, text + got);

			if (k <= 0) {
				rc = k < 0 ? k : -EIO;
				break;
			}
			got += (uint64_t)k;
		}
		nfs_close(n, fh);
	}
	if (!rc && strncmp(text, OWNER_MAGIC, strlen(OWNER_MAGIC)))
		rc = -EPERM;
	for (line = rc ? NULL : strtok_r(text + strlen(OWNER_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned num;
		unsigned long long id;

		if (sscanf(line, "test_file.%u %llu", &num, &id) == 2 && num >= cfg->first_file &&
		    num - cfg->first_file < cfg->num_files)
			ids[num - cfg->first_file] = id;
	}
	free(text);
	return rc ? rc : 1;
}

/* 1 when file i is there with the id the list gives, 0 when it is not
 * there, -EPERM when something else has its name, or -errno. */
static int owned(struct nfs_context *n, const struct sm_fileio_cfg *cfg, unsigned i, const uint64_t *ids,
		 struct nfs_stat_64 *st)
{
	char name[64];
	int rc;

	name_of(cfg, i, name, sizeof(name));
	rc = nfs_stat64(n, name, st);
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	return ids[i] && st->nfs_ino == ids[i] && (st->nfs_mode & S_IFMT) == S_IFREG ? 1 : -EPERM;
}

static int write_all(struct nfs_context *n, struct nfsfh *fh, const char *buf, uint64_t len, uint64_t chunk)
{
	for (uint64_t off = 0; off < len;) {
		uint64_t c = len - off < chunk ? len - off : chunk;
		int k = nfs_pwrite(n, fh, off, c, buf);   /* the same chunk again and again */

		if (k <= 0)
			return k < 0 ? k : -EIO;
		off += (uint64_t)k;
	}
	return 0;
}

int sm_fileio_nfs_prepare(const struct sm_fileio_cfg *cfg, uint64_t *written, char *msg, size_t len)
{
	struct nfs_context *n = connect_to(cfg->nfs, msg, len);
	struct nfsfh *own = NULL, *fh;
	uint64_t *ids = NULL, chunk;
	char name[64], line[96], *buf = NULL;
	unsigned made = 0;
	uint64_t at;
	int rc;

	*written = 0;
	if (!n)
		return -EIO;
	rc = nfs_open2(n, "/" OWNER_NAME, O_CREAT | O_EXCL | O_WRONLY, 0600, &own);
	if (rc) {
		if (rc == -EEXIST)
			snprintf(msg, len, "'%.*s/" OWNER_NAME "' exists: a set is prepared there already, "
				 "or the name is another's (run cleanup first)", B(cfg), cfg->nfs);
		else
			snprintf(msg, len, "cannot create '%.*s/" OWNER_NAME "': %s", B(cfg), cfg->nfs,
				 nfs_get_error(n));
		nfs_destroy_context(n);
		return rc == -EEXIST ? -EEXIST : rc;
	}
	chunk = nfs_get_writemax(n) ? nfs_get_writemax(n) : 65536;
	if (chunk > cfg->file_size && cfg->file_size)
		chunk = cfg->file_size;
	ids = calloc(cfg->num_files, sizeof(*ids));
	buf = sm_buf_alloc(chunk ? chunk : 1, 4096);
	if (!ids || !buf) {
		rc = -ENOMEM;
		snprintf(msg, len, "out of memory");
		goto undo;
	}
	sm_buf_fill(buf, chunk, cfg->data, cfg->seed);
	at = strlen(OWNER_MAGIC);
	rc = nfs_pwrite(n, own, 0, at, OWNER_MAGIC) == (int)at ? 0 : -EIO;
	for (; !rc && made < cfg->num_files; made++) {
		struct nfs_stat_64 st;

		name_of(cfg, made, name, sizeof(name));
		rc = nfs_open2(n, name, O_CREAT | O_EXCL | O_WRONLY, 0600, &fh);
		if (rc) {
			snprintf(msg, len, rc == -EEXIST ? "'%.*s%s' exists and stormark did not create it; "
				 "not preparing over it" : "cannot create '%.*s%s': %s", B(cfg), cfg->nfs, name,
				 nfs_get_error(n));
			break;
		}
		ids[made] = 1;   /* made: removed if a later step fails */
		rc = write_all(n, fh, buf, cfg->file_size, chunk);
		if (!rc)
			rc = nfs_fsync(n, fh);
		if (!rc)
			rc = nfs_fstat64(n, fh, &st);
		nfs_close(n, fh);
		if (rc) {
			snprintf(msg, len, "write failed on '%.*s%s': %s", B(cfg), cfg->nfs, name, nfs_get_error(n));
			made++;
			break;
		}
		ids[made] = st.nfs_ino ? st.nfs_ino : 1;
		*written += cfg->file_size;
		snprintf(line, sizeof(line), "%s %llu\n", name + 1, (unsigned long long)ids[made]);
		if (nfs_pwrite(n, own, at, strlen(line), line) != (int)strlen(line)) {
			rc = -EIO;
			snprintf(msg, len, "cannot write '%.*s/" OWNER_NAME "': %s", B(cfg), cfg->nfs, nfs_get_error(n));
			made++;
			break;
		}
		at += strlen(line);
	}
	if (!rc)
		rc = nfs_fsync(n, own);
	if (!rc) {
		nfs_close(n, own);
		goto out;
	}
undo:
	/* leave nothing half-made: the files this prepare created, then the list */
	for (unsigned i = 0; ids && i < made; i++)
		if (ids[i]) {
			name_of(cfg, i, name, sizeof(name));
			nfs_unlink(n, name);
		}
	nfs_close(n, own);
	nfs_unlink(n, "/" OWNER_NAME);
out:
	free(ids);
	free(buf);
	nfs_destroy_context(n);
	return rc;
}

int sm_fileio_nfs_open(const struct sm_fileio_cfg *cfg, int **fds_out, char *msg, size_t len)
{
	struct nfs_context *n = connect_to(cfg->nfs, msg, len);
	uint64_t *ids = NULL;
	char **names = NULL;
	int *fds = NULL, rc;

	*fds_out = NULL;
	if (!n)
		return -EIO;
	ids = calloc(cfg->num_files, sizeof(*ids));
	names = calloc(cfg->num_files, sizeof(*names));
	fds = calloc(cfg->num_files, sizeof(*fds));
	rc = !ids || !names || !fds ? -ENOMEM : owner_load(n, cfg, ids);
	if (rc == 0 || rc == -EPERM) {
		snprintf(msg, len, rc ? "'%.*s/" OWNER_NAME "' is not stormark's list of its files"
			 : "no test files prepared by stormark in '%.*s' (run 'prepare' first)", B(cfg), cfg->nfs);
		rc = rc ? rc : -ENOENT;
		goto out;
	}
	for (unsigned i = 0; rc > 0 && i < cfg->num_files; i++) {
		struct nfs_stat_64 st;
		char name[64];
		int o = owned(n, cfg, i, ids, &st);

		name_of(cfg, i, name, sizeof(name));
		if (o <= 0) {
			rc = o ? o : -ENOENT;
			snprintf(msg, len, o == -EPERM ? "'%.*s%s' is not a file stormark prepared; not using it"
				 : "cannot open '%.*s%s': %s (run 'prepare' first)", B(cfg), cfg->nfs, name,
				 strerror(-rc));
			break;
		}
		if (st.nfs_size < cfg->file_size) {
			rc = -EFBIG;
			snprintf(msg, len, "Size of file '%.*s%s' is %lluB, but at least %lluB is expected.",
				 B(cfg), cfg->nfs, name, (unsigned long long)st.nfs_size,
				 (unsigned long long)cfg->file_size);
			break;
		}
		names[i] = strdup(name);
		if (!names[i])
			rc = -ENOMEM;
		fds[i] = (int)i;   /* an index into the bound files (engine/nfs.h) */
	}
	if (rc > 0)
		rc = sm_nfs_bind(cfg->nfs, (const char *const *)names, cfg->num_files);
	if (rc == -ENOMEM)
		snprintf(msg, len, "out of memory");
out:
	for (unsigned i = 0; names && i < cfg->num_files; i++)
		free(names[i]);
	free(names);
	free(ids);
	nfs_destroy_context(n);
	if (rc < 0) {
		free(fds);
		return rc;
	}
	*fds_out = fds;
	return 0;
}

int sm_fileio_nfs_cleanup(const struct sm_fileio_cfg *cfg, char *msg, size_t len)
{
	struct nfs_context *n = connect_to(cfg->nfs, msg, len);
	struct nfs_stat_64 st;
	uint64_t *ids;
	char name[64];
	int rc, removed = 0;

	if (!n)
		return -EIO;
	ids = calloc(cfg->num_files, sizeof(*ids));
	rc = ids ? owner_load(n, cfg, ids) : -ENOMEM;
	if (rc <= 0) {
		/* no list: nothing of stormark's to remove; a foreign one: left alone */
		if (rc)
			snprintf(msg, len, rc == -EPERM ? "'%.*s/" OWNER_NAME "' is not stormark's list of its "
				 "files; not removing anything" : "cannot read '%.*s/" OWNER_NAME "': %s",
				 B(cfg), cfg->nfs, strerror(-rc));
		goto out;
	}
	/* every file the list names must be the one it made: else nothing goes */
	for (unsigned i = 0; i < cfg->num_files; i++)
		if (owned(n, cfg, i, ids, &st) == -EPERM && ids[i]) {
			name_of(cfg, i, name, sizeof(name));
			snprintf(msg, len, "'%.*s%s' is not the file stormark prepared; not removing it "
				 "(nothing removed)", B(cfg), cfg->nfs, name);
			rc = -EPERM;
			goto out;
		}
	for (unsigned i = 0; i < cfg->num_files; i++)
		if (owned(n, cfg, i, ids, &st) == 1) {
			name_of(cfg, i, name, sizeof(name));
			rc = nfs_unlink(n, name);
			if (rc) {
				snprintf(msg, len, "cannot remove '%.*s%s': %s", B(cfg), cfg->nfs, name, nfs_get_error(n));
				goto out;
			}
			removed++;
		}
	rc = nfs_unlink(n, "/" OWNER_NAME);
	if (rc)
		snprintf(msg, len, "cannot remove '%.*s/" OWNER_NAME "': %s", B(cfg), cfg->nfs, nfs_get_error(n));
	else
		rc = removed;
out:
	free(ids);
	nfs_destroy_context(n);
	return rc;
}

int sm_fileio_nfs_mkdir(const char *url, const char *sub, char *msg, size_t len)
{
	struct nfs_context *n = connect_to(url, msg, len);
	char path[64];
	int rc;

	if (!n)
		return -EIO;
	snprintf(path, sizeof(path), "/%s", sub);
	rc = nfs_mkdir(n, path);
	if (rc == -EEXIST) {
		struct nfs_stat_64 st;

		rc = nfs_stat64(n, path, &st);
		if (!rc && (st.nfs_mode & S_IFMT) != S_IFDIR)
			rc = -ENOTDIR;
	}
	if (rc)
		snprintf(msg, len, "cannot make '%.*s/%s': %s", (int)strcspn(url, "?"), url, sub,
			 rc == -ENOTDIR ? strerror(ENOTDIR) : nfs_get_error(n));
	nfs_destroy_context(n);
	return rc;
}

void sm_fileio_nfs_rmdir(const char *url, const char *sub)
{
	char msg[256], path[64];
	struct nfs_context *n = connect_to(url, msg, sizeof(msg));

	if (!n)
		return;
	snprintf(path, sizeof(path), "/%s", sub);
	(void)nfs_rmdir(n, path);   /* not empty: it stays, with what is in it */
	nfs_destroy_context(n);
}

#else   /* a build without libnfs: --nfs is refused before these are reached */

int sm_fileio_nfs_mkdir(const char *url, const char *sub, char *msg, size_t len)
{
	(void)url;
	(void)sub;
	snprintf(msg, len, "this stormark was built without libnfs");
	return -ENOTSUP;
}

void sm_fileio_nfs_rmdir(const char *url, const char *sub)
{
	(void)url;
	(void)sub;
}

int sm_fileio_nfs_prepare(const struct sm_fileio_cfg *cfg, uint64_t *written, char *msg, size_t len)
{
	(void)cfg;
	*written = 0;
	snprintf(msg, len, "this stormark was built without libnfs");
	return -ENOTSUP;
}

int sm_fileio_nfs_open(const struct sm_fileio_cfg *cfg, int **fds_out, char *msg, size_t len)
{
	(void)cfg;
	*fds_out = NULL;
	snprintf(msg, len, "this stormark was built without libnfs");
	return -ENOTSUP;
}

int sm_fileio_nfs_cleanup(const struct sm_fileio_cfg *cfg, char *msg, size_t len)
{
	(void)cfg;
	snprintf(msg, len, "this stormark was built without libnfs");
	return -ENOTSUP;
}
#endif

void sm_fileio_nfs_env(const char *url, struct sm_env *env)
{
	struct sm_fs_info *fs = &env->fs;
	struct sm_mount *m = &fs->mount;
	char server[128], path[256];

	if (sm_nfs_url_split(url, server, sizeof(server), path, sizeof(path)))
		server[0] = path[0] = '\0';
	/* the local directory's figures do not apply: the files are the server's */
	memset(fs, 0, sizeof(*fs));
	snprintf(fs->fs_type, sizeof(fs->fs_type), "nfs");
	snprintf(fs->device, sizeof(fs->device), "%s:%s", server, path);
	snprintf(m->protocol, sizeof(m->protocol), "nfs");
	snprintf(m->server, sizeof(m->server), "%s", server);
	snprintf(m->export, sizeof(m->export), "%s", path);
	m->kind = SM_MOUNT_CLIENT;
	snprintf(m->val[SM_MOPT_VERS], sizeof(m->val[0]), "3");
	snprintf(m->val[SM_MOPT_PROTO], sizeof(m->val[0]), "tcp");
	m->present = (1u << SM_MOPT_VERS) | (1u << SM_MOPT_PROTO);
#ifdef SM_HAVE_NFS
	{
		/* the largest READ and WRITE the server takes (its FSINFO's rtmax
		 * and wtmax, as libnfs keeps them): a request of the run above
		 * them goes as several, as a kernel mount's rsize and wsize do */
		char msg[256];
		struct nfs_context *n = connect_to(url, msg, sizeof(msg));

		if (n) {
			uint64_t r = nfs_get_readmax(n), w = nfs_get_writemax(n);

			if (r) {
				snprintf(m->val[SM_MOPT_RSIZE], sizeof(m->val[0]), "%llu", (unsigned long long)r);
				m->present |= 1u << SM_MOPT_RSIZE;
			}
			if (w) {
				snprintf(m->val[SM_MOPT_WSIZE], sizeof(m->val[0]), "%llu", (unsigned long long)w);
				m->present |= 1u << SM_MOPT_WSIZE;
			}
			nfs_destroy_context(n);
		}
	}
#endif
}

int sm_fileio_nfs_sub_url(const char *url, const char *sub, char *out, size_t len)
{
	size_t at = strcspn(url, "?");
	int n;

	while (at > 0 && url[at - 1] == '/')
		at--;
	n = snprintf(out, len, "%.*s/%s%s", (int)at, url, sub, url + strcspn(url, "?"));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void sm_fileio_nfs_close(int *fds)
{
	sm_nfs_bind(NULL, NULL, 0);
	free(fds);
}
