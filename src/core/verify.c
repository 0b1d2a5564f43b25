/* SPDX-License-Identifier: MIT */
/* --verify blocks: trailer encoding, the check of a block read back, and
 * the problem list. The checksum is xxHash's XXH3-64 (libxxhash): several
 * GB/s per core, so it costs little beside the I/O it checks. */
#include "core/verify.h"

#include "core/le.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <xxhash.h>

#define VERIFY_MAGIC 0x3146495245564d53ULL   /* "SMVERIF1" as bytes */

/* Offsets inside the trailer. */
enum { T_MAGIC = 0, T_SET = 8, T_RUN = 16, T_SEQ = 24, T_OFF = 32, T_FILE = 40, T_LEN = 44,
       T_RSVD = 48, T_SUM = 56 };

void sm_verify_seal(void *blk, uint32_t len, const struct sm_vblk_id *id)
{
	unsigned char *t = (unsigned char *)blk + len - SM_VERIFY_TRAILER;

	sm_le_put64(t + T_MAGIC, VERIFY_MAGIC);
	sm_le_put64(t + T_SET, id->set);
	sm_le_put64(t + T_RUN, id->run);
	sm_le_put64(t + T_SEQ, id->seq);
	sm_le_put64(t + T_OFF, id->off);
	sm_le_put32(t + T_FILE, id->file);
	sm_le_put32(t + T_LEN, len);
	sm_le_put64(t + T_RSVD, 0);
	/* one pass over the payload and the trailer's fields: a torn write
	 * (new trailer, old payload or the reverse) fails it */
	sm_le_put64(t + T_SUM, XXH3_64bits(blk, len - 8));
}

uint64_t sm_verify_seal_range(void *buf, uint64_t len, uint64_t block, const struct sm_vblk_id *id)
{
	struct sm_vblk_id b = *id;
	uint64_t n = 0;

	for (uint64_t o = 0; o + block <= len; o += block, n++) {
		b.off = id->off + o;
		sm_verify_seal((unsigned char *)buf + o, (uint32_t)block, &b);
	}
	return n;
}

uint64_t sm_verify_nblocks(uint64_t total, uint64_t unit)
{
	if (total < SM_VERIFY_MIN_BLOCK)
		return 0;
	return total / unit ? total / unit : 1;
}

void sm_verify_block_at(uint64_t total, uint64_t unit, uint64_t k, uint64_t *off, uint32_t *len)
{
	uint64_t n = sm_verify_nblocks(total, unit);

	*off = k * unit;
	*len = (uint32_t)(k + 1 == n ? total - *off : unit);
}

static int all_zero(const unsigned char *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static void read_trailer(const unsigned char *t, struct sm_vblk_id *id)
{
	id->set = sm_le_get64(t + T_SET);
	id->run = sm_le_get64(t + T_RUN);
	id->seq = sm_le_get64(t + T_SEQ);
	id->off = sm_le_get64(t + T_OFF);
	id->file = sm_le_get32(t + T_FILE);
	id->len = sm_le_get32(t + T_LEN);
}

int sm_verify_peek(const void *blk, uint32_t len, struct sm_vblk_id *id)
{
	const unsigned char *t = (const unsigned char *)blk + len - SM_VERIFY_TRAILER;

	memset(id, 0, sizeof(*id));
	if (len < SM_VERIFY_MIN_BLOCK || sm_le_get64(t + T_MAGIC) != VERIFY_MAGIC)
		return 0;
	read_trailer(t, id);
	return sm_le_get32(t + T_LEN) == len && sm_le_get64(t + T_SUM) == XXH3_64bits(blk, len - 8);
}

enum sm_verify_kind sm_verify_check(const void *blk, uint32_t len, const struct sm_vblk_id *expect,
				    uint64_t max_run, struct sm_vblk_id *found)
{
	const unsigned char *t = (const unsigned char *)blk + len - SM_VERIFY_TRAILER;

	memset(found, 0, sizeof(*found));
	if (sm_le_get64(t + T_MAGIC) != VERIFY_MAGIC)
		return all_zero(blk, len) ? SM_VK_ZERO : SM_VK_NOHDR;
	read_trailer(t, found);
	/* a trailer for another length: written with another block size */
	if (found->len != len)
		return SM_VK_NOHDR;
	if (sm_le_get64(t + T_SUM) != XXH3_64bits(blk, len - 8))
		return SM_VK_CHECKSUM;
	if (found->file != expect->file || found->off != expect->off)
		return SM_VK_MISPLACED;
	if (expect->set && found->set != expect->set)
		return found->set < expect->set ? SM_VK_STALE : SM_VK_NEWER;
	if (expect->run) {
		if (found->run != expect->run)
			return found->run < expect->run ? SM_VK_STALE : SM_VK_NEWER;
		if (expect->seq && found->seq != expect->seq)
			return found->seq < expect->seq ? SM_VK_STALE : SM_VK_NEWER;
	} else if (max_run && found->run > max_run) {
		return SM_VK_NEWER;
	}
	return SM_VK_OK;
}

static int before(const struct sm_verify_problem *a, uint32_t file, uint64_t off)
{
	return a->file < file || (a->file == file && a->off < off);
}

static void keep(struct sm_verify_stats *st, const struct sm_verify_problem *p)
{
	unsigned i = st->nkept;

	/* keep the SM_VERIFY_KEEP first by (file, offset), sorted */
	if (i == SM_VERIFY_KEEP) {
		if (!before(p, st->kept[i - 1].file, st->kept[i - 1].off))
			return;
		i--;
	} else {
		st->nkept++;
	}
	while (i > 0 && before(p, st->kept[i - 1].file, st->kept[i - 1].off)) {
		st->kept[i] = st->kept[i - 1];
		i--;
	}
	st->kept[i] = *p;
}

void sm_verify_note(struct sm_verify_stats *st, enum sm_verify_kind kind, const struct sm_vblk_id *expect,
		    const struct sm_vblk_id *found)
{
	struct sm_verify_problem p;

	memset(&p, 0, sizeof(p));
	p.file = expect->file;
	p.off = expect->off;
	p.kind = kind;
	p.expect = *expect;
	if (found)
		p.found = *found;
	st->problems++;
	keep(st, &p);
}

void sm_verify_stats_merge(struct sm_verify_stats *dst, const struct sm_verify_stats *src)
{
	dst->sealed += src->sealed;
	dst->checked += src->checked;
	dst->unchecked += src->unchecked;
	dst->problems += src->problems;
	dst->seal_ns += src->seal_ns;
	dst->check_ns += src->check_ns;
	dst->pass_bytes += src->pass_bytes;
	dst->pass_ns += src->pass_ns;
	for (unsigned i = 0; i < src->nkept; i++)
		keep(dst, &src->kept[i]);
}

const char *sm_verify_kind_name(enum sm_verify_kind kind)
{
	static const char *const names[SM_VK_COUNT] = {
		"ok", "no_trailer", "zeroed", "checksum", "misplaced", "stale", "newer", "truncated",
	};

	return (unsigned)kind < SM_VK_COUNT ? names[kind] : "unknown";
}

static const char *kind_text(enum sm_verify_kind kind)
{
	switch (kind) {
	case SM_VK_NOHDR:
		return "no verify trailer (damaged, or written by a run without --verify)";
	case SM_VK_ZERO:
		return "zeroed block";
	case SM_VK_CHECKSUM:
		return "checksum mismatch (corrupt payload or torn write)";
	case SM_VK_MISPLACED:
		return "misplaced block";
	case SM_VK_STALE:
		return "stale block (lost write)";
	case SM_VK_NEWER:
		return "a later write than expected";
	case SM_VK_SHORT:
		return "truncated: the file ends before this block";
	default:
		return "ok";
	}
}

void sm_verify_describe(char *buf, size_t len, const struct sm_verify_problem *p)
{
	const struct sm_vblk_id *e = &p->expect, *f = &p->found;

	switch (p->kind) {
	case SM_VK_MISPLACED:
		snprintf(buf, len, "offset %llu: %s: expected file %u offset %llu, found file %u offset %llu",
			 (unsigned long long)p->off, kind_text(p->kind), e->file, (unsigned long long)e->off,
			 f->file, (unsigned long long)f->off);
		break;
	case SM_VK_STALE:
	case SM_VK_NEWER:
		if (!e->run) {
			/* a block this run did not write: only its set is known */
			snprintf(buf, len, "offset %llu: %s: expected set %llu, found set %llu (run %llu seq %llu)",
				 (unsigned long long)p->off, p->kind == SM_VK_STALE ?
				 "stale block from an earlier set (lost write)" : kind_text(p->kind),
				 (unsigned long long)e->set, (unsigned long long)f->set,
				 (unsigned long long)f->run, (unsigned long long)f->seq);
			break;
		}
		snprintf(buf, len, "offset %llu: %s: expected set %llu run %llu seq %llu, found set %llu run %llu "
			 "seq %llu", (unsigned long long)p->off, kind_text(p->kind),
			 (unsigned long long)e->set, (unsigned long long)e->run, (unsigned long long)e->seq,
			 (unsigned long long)f->set, (unsigned long long)f->run, (unsigned long long)f->seq);
		break;
	case SM_VK_SHORT:
		snprintf(buf, len, "offset %llu: %s (expected %u more bytes)", (unsigned long long)p->off,
			 kind_text(p->kind), e->len);
		break;
	default:
		snprintf(buf, len, "offset %llu: %s", (unsigned long long)p->off, kind_text(p->kind));
	}
}

uint64_t sm_verify_new_id(void)
{
	struct timespec ts;
	uint64_t id;

	/* microseconds: below 2^53 until the year 2255, so the id survives a
	 * JSON reader that holds numbers as doubles */
	clock_gettime(CLOCK_REALTIME, &ts);
	id = (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
	return id ? id : 1;
}
