/* SPDX-License-Identifier: MIT */
/* Engine registry, selection with fallback, and shared helpers. */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"

extern const struct sm_engine_ops sm_engine_psync;
extern const struct sm_engine_ops sm_engine_uring;
extern const struct sm_engine_ops sm_engine_null;
extern const struct sm_engine_ops sm_engine_mmap;

const struct sm_engine_ops *const sm_engines[] = {
	&sm_engine_psync,
	&sm_engine_uring,
	&sm_engine_mmap,
	&sm_engine_null,
	NULL,
};

const char *sm_op_name(enum sm_op op)
{
	static const char *const names[SM_OP__COUNT] = {
		"read", "write", "open", "close", "fsync", "fdatasync",
	};

	return (unsigned)op < SM_OP__COUNT ? names[op] : "?";
}

const struct sm_engine_ops *sm_engine_find(const char *name)
{
	for (unsigned i = 0; sm_engines[i]; i++)
		if (!strcmp(sm_engines[i]->name, name))
			return sm_engines[i];
	return NULL;
}

static int open_ops(struct sm_engine *e, const struct sm_engine_ops *ops,
		    const struct sm_engine_cfg *cfg)
{
	int rc = ops->probe ? ops->probe() : 0;

	if (rc)
		return rc;
	if ((cfg->flags & SM_ENGINE_MODES) && !(ops->caps & SM_ENGINE_POLLING))
		return -EOPNOTSUPP;
	memset(e, 0, sizeof(*e));
	e->ops = ops;
	e->cfg = *cfg;
	if (e->cfg.depth == 0)
		e->cfg.depth = 1;
	rc = ops->init(e, &e->cfg);
	if (rc)
		e->ops = NULL;
	return rc;
}

/* What a fallback must still do: the need less what makes an engine
 * asynchronous (a queue, registered buffers, polling). */
#define SM_ENGINE_ASYNC_CAPS (SM_ENGINE_ASYNC | SM_ENGINE_FIXED | SM_ENGINE_POLLING)

/* The first synchronous engine of the registry that has caps (less the
 * asynchronous ones) and probes well here, or NULL. */
static const struct sm_engine_ops *fallback_for(unsigned caps)
{
	unsigned want = caps & ~SM_ENGINE_ASYNC_CAPS;

	for (unsigned i = 0; sm_engines[i]; i++) {
		const struct sm_engine_ops *r = sm_engines[i];

		if ((r->caps & SM_ENGINE_ASYNC) || (r->caps & want) != want)
			continue;
		if (!r->probe || r->probe() == 0)
			return r;
	}
	return NULL;
}

static void say_fallback(char *notice, size_t len, const struct sm_engine_ops *from,
			 const struct sm_engine_ops *to, int why)
{
	if (len)
		snprintf(notice, len, "engine '%s' is not available here (%s): using '%s'",
			 from->name, strerror(-why), to->name);
}

/* Open ops with cfg; an asynchronous engine that cannot run here (probe or
 * init fails), asked for with no flags, gives way to a synchronous one with
 * a notice. */
static int open_fallback(struct sm_engine *e, const struct sm_engine_ops *ops,
			 const struct sm_engine_cfg *cfg, char *notice, size_t notice_len)
{
	const struct sm_engine_ops *alt;
	int rc;

	if (notice_len)
		notice[0] = '\0';
	rc = open_ops(e, ops, cfg);
	/* --sqpoll/--iopoll/--submit-batch asked for io_uring itself: no quiet psync */
	if (rc && (ops->caps & SM_ENGINE_ASYNC) && !cfg->flags) {
		alt = fallback_for(ops->caps);
		if (!alt)
			return rc;
		say_fallback(notice, notice_len, ops, alt, rc);
		rc = open_ops(e, alt, cfg);
	}
	return rc;
}

int sm_engine_open(struct sm_engine *e, const char *name, const struct sm_engine_cfg *cfg,
		   char *notice, size_t notice_len)
{
	const struct sm_engine_ops *ops = sm_engine_find(name);

	if (!ops) {
		if (notice_len)
			notice[0] = '\0';
		return -ENOENT;
	}
	return open_fallback(e, ops, cfg, notice, notice_len);
}

const struct sm_engine_ops *sm_engine_choose(const struct sm_engine_need *need)
{
	if (need->name)
		return sm_engine_find(need->name);
	for (unsigned i = 0; sm_engines[i]; i++)
		if ((sm_engines[i]->caps & need->caps) == need->caps)
			return sm_engines[i];
	return NULL;
}

unsigned sm_engine_caps(const struct sm_engine_need *need)
{
	const struct sm_engine_ops *ops = sm_engine_choose(need);

	return ops ? ops->caps : 0;
}

unsigned sm_engine_caps_of(const char *name)
{
	const struct sm_engine_ops *ops = name ? sm_engine_find(name) : NULL;

	return ops ? ops->caps : 0;
}

unsigned sm_engine_flags_for(const struct sm_engine_ops *ops, unsigned flags)
{
	return ops && (ops->caps & SM_ENGINE_POLLING) ? flags : 0;
}

const struct sm_engine_ops *sm_engine_pick(const struct sm_engine_need *need, char *notice,
					   size_t notice_len, int *err)
{
	const struct sm_engine_ops *ops = sm_engine_choose(need), *alt;
	int rc;

	if (notice_len)
		notice[0] = '\0';
	*err = 0;
	if (!ops) {
		*err = -ENOENT;
		return NULL;
	}
	rc = ops->probe ? ops->probe() : 0;
	if (!rc)
		return ops;
	if ((ops->caps & SM_ENGINE_ASYNC) && !sm_engine_flags_for(ops, need->flags)) {
		alt = fallback_for(ops->caps | need->caps);
		if (alt) {
			say_fallback(notice, notice_len, ops, alt, rc);
			return alt;
		}
	}
	*err = rc;
	return NULL;
}

int sm_engine_open_need(struct sm_engine *e, const struct sm_engine_need *need,
			const struct sm_engine_cfg *cfg, char *notice, size_t notice_len)
{
	const struct sm_engine_ops *ops = sm_engine_choose(need);
	struct sm_engine_cfg c = *cfg;

	if (!ops) {
		if (notice_len)
			notice[0] = '\0';
		return -ENOENT;
	}
	c.flags = sm_engine_flags_for(ops, need->flags);
	return open_fallback(e, ops, &c, notice, notice_len);
}

int sm_engine_open_ops(struct sm_engine *e, const struct sm_engine_ops *ops,
		       const struct sm_engine_cfg *cfg)
{
	return open_ops(e, ops, cfg);
}

void sm_engine_describe(const struct sm_engine *e, struct sm_engine_setup *out)
{
	memset(out, 0, sizeof(*out));
	if (e->ops && e->ops->describe)
		e->ops->describe(e, out);
}

void sm_engine_close(struct sm_engine *e)
{
	if (e->ops && e->ops->exit)
		e->ops->exit(e);
	e->ops = NULL;
	e->priv = NULL;
}

int64_t sm_engine_do(struct sm_engine *e, struct sm_io *io)
{
	struct sm_io *done;
	int rc = sm_engine_submit(e, &io, 1);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return -EAGAIN;
	do {
		rc = sm_engine_reap(e, &done, 1, 1);
	} while (rc == -EINTR);
	if (rc < 0)
		return rc;
	return io->res;
}

int sm_done_fifo_init(struct sm_done_fifo *f, unsigned cap)
{
	f->slot = calloc(cap ? cap : 1, sizeof(*f->slot));
	f->cap = cap ? cap : 1;
	f->head = f->count = 0;
	return f->slot ? 0 : -ENOMEM;
}

void sm_done_fifo_release(struct sm_done_fifo *f)
{
	free(f->slot);
	f->slot = NULL;
}

int sm_done_fifo_pop(struct sm_done_fifo *f, struct sm_io **out, unsigned max)
{
	unsigned n = 0;

	while (n < max && f->count) {
		out[n++] = f->slot[f->head];
		f->head = (f->head + 1) % f->cap;
		f->count--;
	}
	return (int)n;
}

int sm_fifo_engine_init(struct sm_engine *e, const struct sm_engine_cfg *cfg)
{
	struct sm_done_fifo *f = malloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	if (sm_done_fifo_init(f, cfg->depth)) {
		free(f);
		return -ENOMEM;
	}
	e->priv = f;
	return 0;
}

int sm_fifo_engine_reap(struct sm_engine *e, struct sm_io **out, SM_UNUSED unsigned min, unsigned max)
{
	return sm_done_fifo_pop(e->priv, out, max);
}

void sm_fifo_engine_exit(struct sm_engine *e)
{
	sm_done_fifo_release(e->priv);
	free(e->priv);
}
