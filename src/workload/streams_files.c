/* SPDX-License-Identifier: MIT */
/* The streams search's files: its test directory, the playback files of
 * single-file streams, the playback directories of frame-sequence streams
 * (one file per frame, written under frames' ownership rules), the
 * capture directories, and this rank's part of a step on them
 * (docs/streams.md, "Files and safety"). */
#include "workload/streams_int.h"
#include "analysis/share.h"
#include "engine/engine.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/rng.h"
#include "core/seal.h"
#include "core/worker.h"
#include "os/os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void path_of(struct sm_streams_search *x, unsigned slot, const char *kind, unsigned i)
{
	snprintf(x->paths[slot], SM_STREAMS_PATH_LEN, "%s/%s-%03u.stm", x->res->data_dir, kind, i);
	x->pathv[slot] = x->paths[slot];
}

/* A sequence stream's directory: play-<format>-NNN or cap-<format>-NNN. */
static void dir_of(struct sm_streams_search *x, unsigned slot, const char *kind, const char *format,
		   unsigned i)
{
	snprintf(x->paths[slot], SM_STREAMS_PATH_LEN, "%s/%s-%s-%03u", x->res->data_dir, kind, format, i);
	x->pathv[slot] = x->paths[slot];
}

/* ---- single-file playback ------------------------------------------------ */

/* Remove the playback files from `from` on (stormark's own, created
 * O_EXCL here); all of them from 0. */
static void drop_play_from(struct sm_streams_search *x, unsigned from)
{
	for (unsigned i = from; i < x->nplay; i++) {
		path_of(x, 0, "play", i);
		unlink(x->paths[0]);
	}
	if (from < x->nplay)
		x->nplay = from;
	if (!x->nplay)
		x->play_bytes = 0;
}

static void drop_play(struct sm_streams_search *x)
{
	drop_play_from(x, 0);
}

/* Write playback file `path` from `from` up to `bytes` (whole 4 KiB
 * blocks of the pattern, at most `chunk` a request): a new file (from 0,
 * created O_EXCL) or one of ours grown. A new file that fails is removed. */
static int write_play(struct sm_streams_search *x, const char *path, uint64_t chunk, uint64_t from,
		      uint64_t bytes, void *buf)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | (x->direct ? sm_os_direct_oflag() : 0) |
		    (from ? 0 : O_CREAT | O_EXCL);
	int fd = open(path, flags, 0644);
	uint64_t off = from;
	int rc = 0;

	if (fd < 0)
		return sm_streams_fail(x, -errno, from ? "cannot open '%s'" : "cannot create '%s'", path);
	while (off < bytes && !sm_stopped()) {
		size_t len = bytes - off < chunk ? (size_t)(bytes - off) : (size_t)chunk;
		int err = sm_write_all(fd, buf, len, (int64_t)off, NULL);

		if (err) {
			rc = sm_streams_fail(x, err, "cannot write '%s'", path);
			break;
		}
		off += len;
	}
	if (!rc && sm_stopped())
		rc = -EINTR;
	if (!rc && fsync(fd))
		rc = sm_streams_fail(x, -errno, "cannot write '%s'", path);
	close(fd);
	if (rc && !from)
		unlink(path);
	return rc;
}

/* The free space a write of `need` bytes may take: 90% of what is free. */
static int no_room(struct sm_streams_search *x, double need)
{
	struct sm_fs_info fs;

	return need > 0 && !sm_fs_info(x->res->data_dir, &fs) && fs.free_bytes &&
	       need > 0.9 * (double)fs.free_bytes;
}

static void drop_unused_sets(struct sm_streams_search *x);

/* Make sure playback files 0..n-1 hold at least `bytes` each. The files
 * are kept from one format to the next (any chunk reads them) and only
 * grown, so each byte is written once. Returns 0, -ENOSPC (no room: the
 * search stops there, not an error), -EINTR or -errno. */
static int ensure_play(struct sm_streams_search *x, unsigned n, uint64_t chunk, uint64_t bytes)
{
	uint64_t size = bytes > x->play_bytes ? bytes : x->play_bytes;
	double need = (double)(n > x->nplay ? n - x->nplay : 0) * (double)size +
		      (double)x->nplay * (double)(size - x->play_bytes);
	void *buf;
	int rc = 0;

	if (n <= x->nplay && bytes <= x->play_bytes)
		return 0;
	if (no_room(x, need))
		drop_unused_sets(x);
	if (no_room(x, need) && x->nplay > n) {
		/* the files an earlier, larger step kept and this one does not
		 * read would be grown for nothing: they go first */
		drop_play_from(x, n);
		need = (double)(n > x->nplay ? n - x->nplay : 0) * (double)size +
		       (double)x->nplay * (double)(size - x->play_bytes);
	}
	if (no_room(x, need) && x->nplay) {
		/* then every kept file: written again at this size, if room */
		drop_play(x);
		size = bytes;
		need = (double)n * (double)size;
	}
	if (no_room(x, need))
		return -ENOSPC;
	buf = sm_buf_alloc(chunk, 4096);
	if (!buf)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a playback file");
	sm_buf_fill(buf, chunk, SM_DATA_RANDOM, 0x504c4159ull);
	for (unsigned i = 0; i < x->nplay && size > x->play_bytes && !rc; i++) {
		path_of(x, 0, "play", i);
		rc = write_play(x, x->paths[0], chunk, x->play_bytes, size, buf);
	}
	if (!rc)
		x->play_bytes = size;
	for (unsigned i = x->nplay; i < n && !rc; i++) {
		path_of(x, 0, "play", i);
		rc = write_play(x, x->paths[0], chunk, 0, size, buf);
		if (!rc)
			x->nplay = i + 1;
	}
	free(buf);
	return rc;
}

/* ---- frame-sequence playback --------------------------------------------- */

/* Remove directory i of set s: the frames it made, then the directory (a
 * warning when something else is in it). */
static void drop_dir(struct sm_streams_search *x, struct sm_streams_seqset *s, unsigned i)
{
	char name[32];
	int dfd;

	dir_of(x, 0, "play", s->format, i);
	dfd = open(x->paths[0], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	for (uint64_t k = 0; dfd >= 0 && k < s->made[i]; k++) {
		snprintf(name, sizeof(name), SM_STREAMS_FRAME_NAME, (unsigned long long)k);
		unlinkat(dfd, name, 0);
	}
	if (dfd >= 0)
		close(dfd);
	if (sm_rmdir_settle(x->paths[0]))
		sm_warn(&x->res->head.warnings, "data_dir_left",
			"the directory '%s' was left: it holds a file stormark did not create",
			x->paths[0]);
	s->made[i] = 0;
}

static void drop_set(struct sm_streams_search *x, struct sm_streams_seqset *s)
{
	for (unsigned i = 0; i < s->ndirs; i++)
		drop_dir(x, s, i);
	free(s->made);
	s->made = NULL;
	s->ndirs = 0;
}

/* Room for a step: the sets it does not use go first. */
static void drop_unused_sets(struct sm_streams_search *x)
{
	for (unsigned k = 0; k < x->nsets; k++)
		if (!x->sets[k].used && x->sets[k].ndirs)
			drop_set(x, &x->sets[k]);
}

static struct sm_streams_seqset *find_set(struct sm_streams_search *x, const char *format,
					  uint64_t frame_bytes)
{
	struct sm_streams_seqset *s;

	for (unsigned k = 0; k < x->nsets; k++)
		if (!strcmp(x->sets[k].format, format))
			return &x->sets[k];
	s = realloc(x->sets, (x->nsets + 1) * sizeof(*s));
	if (!s)
		return NULL;
	x->sets = s;
	s = &x->sets[x->nsets++];
	memset(s, 0, sizeof(*s));
	snprintf(s->format, sizeof(s->format), "%s", format);
	s->frame_bytes = frame_bytes;
	s->dir_id = sm_hash64(x->run_tag ^ x->nsets, 0xd1d) | 1;
	return s;
}

/* Write frames [from, to) of directory dfd (path `dir`), each created
 * O_CREAT|O_EXCL|O_NOFOLLOW with its header (frames' ownership rules);
 * *made counts the frames made. A frame that fails is removed. */
static int write_frames(struct sm_streams_search *x, struct sm_streams_seqset *s, int dfd,
			const char *dir, uint64_t from, uint64_t to, uint64_t *made, void *buf)
{
	char name[32], path[SM_STREAMS_PATH_LEN + 40];
	int rc = 0;

	for (uint64_t k = from; k < to && !rc; k++) {
		struct sm_frame_hdr h = { .dir_id = s->dir_id, .index = k, .frame_bytes = s->frame_bytes,
					  .run_tag = x->run_tag };
		int fd, err;

		if (sm_stopped())
			return -EINTR;
		snprintf(name, sizeof(name), SM_STREAMS_FRAME_NAME, (unsigned long long)k);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		sm_frame_hdr_put(buf, &h);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
			    (x->direct ? sm_os_direct_oflag() : 0), 0644);
		if (fd < 0)
			return sm_streams_fail(x, -errno, "cannot create '%s'", path);
		*made = k + 1;
		err = sm_write_all(fd, buf, s->frame_bytes, 0, NULL);
		if (err)
			rc = sm_streams_fail(x, err, "cannot write '%s'", path);
		if (close(fd) && !rc)
			rc = sm_streams_fail(x, -errno, "cannot write '%s'", path);
		if (rc) {
			unlinkat(dfd, name, 0);
			*made = k;
		}
	}
	return rc;
}

/* Make sure set s has n directories of `frames` frames each: new
 * directories made, old ones grown by the frames they lack. Returns 0,
 * -ENOSPC (no room; nothing written), -EINTR or -errno. */
static int ensure_set(struct sm_streams_search *x, struct sm_streams_seqset *s, unsigned n,
		      uint64_t frames)
{
	double need = 0;
	uint64_t *made;
	void *buf;
	int rc = 0, dfd;

	for (unsigned i = 0; i < n; i++)
		if (i >= s->ndirs || s->made[i] < frames)
			need += (double)(frames - (i < s->ndirs ? s->made[i] : 0)) * (double)s->frame_bytes;
	if (need <= 0)
		return 0;
	if (no_room(x, need))
		drop_unused_sets(x);
	if (no_room(x, need))
		return -ENOSPC;
	if (n > s->ndirs) {
		made = realloc(s->made, n * sizeof(*made));
		if (!made)
			return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a playback sequence");
		s->made = made;
	}
	buf = sm_buf_alloc(s->frame_bytes, 4096);
	if (!buf)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a playback frame");
	sm_buf_fill(buf, s->frame_bytes, SM_DATA_RANDOM, 0x53455146ull);
	for (unsigned i = 0; i < n && !rc; i++) {
		dir_of(x, 0, "play", s->format, i);
		if (i >= s->ndirs) {
			if (mkdir(x->paths[0], 0755)) {
				rc = sm_streams_fail(x, -errno, "cannot create '%s'", x->paths[0]);
				break;
			}
			s->made[i] = 0;
			s->ndirs = i + 1;
		}
		if (s->made[i] >= frames)
			continue;
		dfd = open(x->paths[0], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0) {
			rc = sm_streams_fail(x, -errno, "cannot open '%s'", x->paths[0]);
			break;
		}
		rc = write_frames(x, s, dfd, x->paths[0], s->made[i], frames, &s->made[i], buf);
		if (!rc && syncfs(dfd))
			rc = sm_streams_fail(x, -errno, "cannot write '%s'", x->paths[0]);
		close(dfd);
	}
	free(buf);
	return rc;
}

/* ---- a step ---------------------------------------------------------------- */

int sm_streams_prepare(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng)
{
	unsigned nplay = 0;
	uint64_t chunk = 0, bytes = 0;
	int rc = 0;

	for (unsigned k = 0; k < x->nsets; k++)
		x->sets[k].used = 0;
	for (unsigned k = 0; k < ng; k++) {
		const struct sm_streams_group_plan *g = &og[k].g;

		if (g->dir != SM_DIR_PLAYBACK || !g->n)
			continue;
		if (g->sequence) {
			struct sm_streams_seqset *s = find_set(x, og[k].format, g->chunk_bytes);

			if (!s)
				return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "a playback sequence");
			s->used = 1;
			continue;
		}
		nplay += g->n;
		if (g->chunk_bytes > chunk)
			chunk = g->chunk_bytes;
		if (sm_streams_group_bytes(g) > bytes)
			bytes = sm_streams_group_bytes(g);
	}
	if (nplay)
		rc = ensure_play(x, nplay, chunk, bytes);
	/* a set's directories: as many as the step's groups of its format
	 * take together, as many frames as the longest of them runs */
	for (unsigned k = 0; !rc && k < x->nsets; k++) {
		struct sm_streams_seqset *s = &x->sets[k];
		unsigned n = 0;
		uint64_t frames = 0;

		if (!s->used)
			continue;
		for (unsigned j = 0; j < ng; j++)
			if (og[j].g.sequence && og[j].g.dir == SM_DIR_PLAYBACK && !strcmp(og[j].format, s->format)) {
				n += og[j].g.n;
				if (og[j].g.frames > frames)
					frames = og[j].g.frames;
			}
		rc = ensure_set(x, s, n, frames);
	}
	return rc;
}

/* The paths of the step's streams, group by group: single-file playback
 * from play-000 on, capture from cap-000 on, a sequence's playback
 * directories from its set's play-<format>-000 on, its capture
 * directories cap-<format>-NNN made here (*ncap of them). */
static int assign_paths(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			unsigned *ncap)
{
	unsigned slot = 0, play = 0, cap = 0;
	int rc = 0;

	*ncap = 0;
	for (unsigned k = 0; k < ng; k++) {
		struct sm_streams_group_plan *g = &og[k].g;
		unsigned first = 0;

		/* a sequence's directories are counted per format */
		for (unsigned j = 0; g->sequence && j < k; j++)
			if (og[j].g.sequence && og[j].g.dir == g->dir && !strcmp(og[j].format, og[k].format))
				first += og[j].g.n;
		g->paths = x->pathv + slot;
		for (unsigned i = 0; i < g->n; i++, slot++) {
			if (!g->sequence) {
				path_of(x, slot, g->dir == SM_DIR_CAPTURE ? "cap" : "play",
					g->dir == SM_DIR_CAPTURE ? cap++ : play++);
				continue;
			}
			dir_of(x, slot, g->dir == SM_DIR_CAPTURE ? "cap" : "play", og[k].format, first + i);
			if (g->dir != SM_DIR_CAPTURE || rc)
				continue;
			if (mkdir(x->paths[slot], 0755))
				rc = sm_streams_fail(x, -errno, "cannot create '%s'", x->paths[slot]);
			else
				(*ncap)++;
		}
	}
	return rc;
}

/* Remove the capture directories of a step (their frames went with it). */
static void drop_cap_dirs(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			  unsigned ncap)
{
	for (unsigned k = 0; k < ng && ncap; k++)
		for (unsigned i = 0; og[k].g.sequence && og[k].g.dir == SM_DIR_CAPTURE && i < og[k].g.n &&
		     ncap; i++, ncap--)
			if (sm_rmdir_settle(og[k].g.paths[i]))
				sm_warn(&x->res->head.warnings, "data_dir_left",
					"the directory '%s' was left: it holds a file stormark did not "
					"create", og[k].g.paths[i]);
}

/* A step's once-a-second call (the step plan's tick): its rate and drops
 * so far to the progress line. */
static void step_tick(void *arg, uint64_t bytes, uint64_t dropped, uint64_t elapsed_ns)
{
	struct sm_streams_search *x = arg;
	double s = elapsed_ns ? (double)elapsed_ns / 1e9 : 1;
	char f[96];

	sm_streams_live_second(x, bytes, dropped, elapsed_ns);
	if (!x->progress)
		return;
	snprintf(f, sizeof(f), "%.0f MiB/s, %llu dropped", (double)bytes / s / (1024.0 * 1024.0),
		 (unsigned long long)dropped);
	x->progress(NULL, f, 0, 0, x->arg);
}

int sm_streams_local_step(struct sm_streams_search *x, struct sm_streams_order_group *og, unsigned ng,
			  uint64_t *sec, unsigned nsec, struct sm_streams_step *st, char *notice,
			  size_t nlen, char *err, size_t elen)
{
	struct sm_streams_group_plan gp[SM_STREAMS_STEP_GROUPS];
	struct sm_streams_step_plan sp = {
		.groups = gp, .ngroups = ng, .queue = x->plan->queue, .prebuffer = x->plan->prebuffer,
		.depth = x->plan->depth, .engine = x->plan->engine, .engine_flags = x->plan->engine_flags,
		.esetup = &x->res->head.env.engine_setup, .engine_used = x->res->head.env.engine,
		.direct = x->direct, .nsec = nsec,
		.tick = x->progress || x->plan->live ? step_tick : NULL, .tick_arg = x,
	};
	unsigned ncap = 0;
	int rc;

	memset(st, 0, sizeof(*st));
	notice[0] = err[0] = '\0';
	if (ng > SM_STREAMS_STEP_GROUPS) {
		snprintf(err, elen, "a step of %u groups", ng);
		return -EINVAL;
	}
	rc = sm_streams_prepare(x, og, ng);
	if (!rc)
		rc = assign_paths(x, og, ng, &ncap);
	if (rc) {
		snprintf(err, elen, "%s", x->res->head.error);
		drop_cap_dirs(x, og, ng, ncap);
		return rc;
	}
	for (unsigned k = 0; k < ng; k++) {
		gp[k] = og[k].g;
		gp[k].sec_bytes = sec ? sec + (size_t)k * nsec : NULL;
		gp[k].run_tag = x->run_tag;
		if (gp[k].sequence && gp[k].dir == SM_DIR_CAPTURE)
			gp[k].dir_id = sm_hash64(x->run_tag, 0xca9) | 1;
	}
	rc = sm_streams_step_run(&sp, st, notice, nlen, err, elen);
	drop_cap_dirs(x, og, ng, ncap);
	for (unsigned i = 0; st->streams && i < st->n; i++) {
		x->res->rank_bytes += st->streams[i].bytes;
		x->res->rank_frames += st->streams[i].done;
	}
	return rc;
}

/* ---- the test directory ---------------------------------------------------- */

/* The test directories of earlier streams runs left in the run's
 * directory (a run killed, by the kernel's OOM killer or SIGKILL, cannot
 * remove its own): named in a warning, up to three of them, and left
 * alone (another run may still be using one). */
static void name_leftovers(struct sm_streams_search *x)
{
	static const char prefix[] = ".stormark-streams-";
	char names[600] = "";
	unsigned n = 0;
	size_t used = 0;
	struct dirent *e;
	DIR *d = opendir(x->plan->dir);

	if (!d)
		return;   /* the directory's own problem is said when it is used */
	while ((e = readdir(d))) {
		struct stat st;

		if (strncmp(e->d_name, prefix, sizeof(prefix) - 1) ||
		    strlen(e->d_name) != sizeof(prefix) - 1 + 6 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		if (n++ < 3 && used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s'%s'",
						 used ? ", " : "", e->d_name);
	}
	closedir(d);
	if (n)
		sm_warn(&x->res->head.warnings, "data_dir_leftover",
			"%u test director%s of an earlier streams run that did not end %s in '%s': "
			"%s%s; not this run's, so left alone: remove %s once no run uses %s",
			n, n == 1 ? "y" : "ies", n == 1 ? "is" : "are", x->plan->dir, names,
			n > 3 ? " and more" : "", n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

int sm_streams_setup_dir(struct sm_streams_search *x)
{
	struct sm_streams_result *res = x->res;
	int align;

	x->npaths = x->plan->max_streams + (x->plan->mix ? x->plan->mix->nstreams : 0);
	x->paths = calloc(x->npaths, sizeof(*x->paths));
	x->pathv = calloc(x->npaths, sizeof(*x->pathv));
	if (!x->paths || !x->pathv)
		return sm_streams_fail(x, -ENOMEM, "out of memory for %s", "the paths");
	x->run_tag = sm_hash64(sm_now_ns() ^ (uint64_t)getpid(), 0x57e) | 1;
	sm_env_collect(&res->head.env, x->plan->dir);
	name_leftovers(x);   /* before this run's own is made */
	snprintf(res->data_dir, sizeof(res->data_dir), "%s/.stormark-streams-XXXXXX", x->plan->dir);
	if (!mkdtemp(res->data_dir)) {
		int rc = -errno;

		res->data_dir[0] = '\0';
		return sm_streams_fail(x, rc, "cannot create a test directory in '%s'", x->plan->dir);
	}
	x->direct = 0;
	if (x->plan->direct) {
		align = sm_direct_probe(res->data_dir);
		x->direct = align > 0 && align <= 4096;
		if (!x->direct)
			sm_warn(&res->head.warnings, "buffered_io",
				"direct I/O does not work here (%s): playback may be served "
				"from the page cache",
				align > 0 ? "alignment over 4 KiB" : strerror(-align));
	}
	res->head.env.direct_io = x->direct;
	sm_share_warn(&res->head.warnings, &res->head.env.fs.mount, SM_SHARE_DATA, x->direct);
	{
		const struct sm_engine_ops *ops = sm_engine_choose(
			&(struct sm_engine_need){ .name = x->plan->engine, .caps = SM_ENGINE_ASYNC });

		snprintf(res->head.env.engine, sizeof(res->head.env.engine), "%s",
			 ops ? ops->name : x->plan->engine);
	}
	return 0;
}

void sm_streams_teardown(struct sm_streams_search *x)
{
	struct sm_streams_result *res = x->res;

	if (x->paths) {
		drop_play(x);
		for (unsigned k = 0; k < x->nsets; k++)
			drop_set(x, &x->sets[k]);
	}
	free(x->sets);
	x->sets = NULL;
	x->nsets = 0;
	if (res->data_dir[0] && sm_rmdir_settle(res->data_dir))
		sm_warn(&res->head.warnings, "data_dir_left",
			"the test directory '%s' was left: it holds a file stormark did not create",
			res->data_dir);
	free(x->paths);
	free(x->pathv);
	x->paths = NULL;
	x->pathv = NULL;
}
