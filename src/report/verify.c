/* SPDX-License-Identifier: MIT */
/* The --validate / --verify part of a report, in text and JSON: the
 * counters the run kept and the rates analysis/verify.c derives from them. */
#include "report/verify.h"
#include "analysis/verify.h"
#include "result/json.h"

#include <string.h>

static void figures(const struct sm_verify_view *v, struct sm_verify_fig *fig)
{
	sm_verify_figures(v->st, v->block, v->threads, v->duration_ns, fig);
}

void sm_verify_text(FILE *f, const struct sm_verify_view *v)
{
	const struct sm_verify_stats *st = v->st;
	char name[4096], what[512];
	struct sm_verify_fig fig;

	figures(v, &fig);
	fprintf(f, "\nVerification (%s, %llu-byte blocks", v->option, (unsigned long long)v->block);
	if (v->run_id)
		fprintf(f, ", run id %llu", (unsigned long long)v->run_id);
	fprintf(f, "):\n");
	fprintf(f, "    blocks written with a trailer: %llu\n", (unsigned long long)st->sealed);
	fprintf(f, "    blocks checked:                %llu\n", (unsigned long long)st->checked);
	if (st->unchecked)
		fprintf(f, "    blocks without a trailer:      %llu (not checked)\n",
			(unsigned long long)st->unchecked);
	fprintf(f, "    problems found:                %llu\n", (unsigned long long)st->problems);
	/* only what the test did: a read test seals nothing */
	fprintf(f, "    hashing:");
	if (st->sealed || st->seal_ns)
		fprintf(f, " %.3f s sealing (%.1f MiB/s)%s", (double)st->seal_ns / 1e9,
			fig.seal_bytes_per_s / 1048576.0, st->checked || st->check_ns ? "," : "");
	if (st->checked || st->check_ns)
		fprintf(f, " %.3f s checking (%.1f MiB/s)", (double)st->check_ns / 1e9,
			fig.check_bytes_per_s / 1048576.0);
	fprintf(f, "; %.2f%% of the threads' time%s\n", 100.0 * fig.hash_share,
		st->pass_ns ? " (the run's and the read-back pass's)" : "");
	if (st->pass_ns)
		fprintf(f, "    read-back pass: %llu bytes in %.3f s (%.2f MiB/s)\n",
			(unsigned long long)st->pass_bytes, (double)st->pass_ns / 1e9,
			fig.pass_bytes_per_s / 1048576.0);
	for (unsigned i = 0; i < st->nkept; i++) {
		v->name(st->kept[i].file, name, sizeof(name), v->name_arg);
		sm_verify_describe(what, sizeof(what), &st->kept[i]);
		fprintf(f, "    problem: '%s' %s\n", name, what);
	}
	if (st->problems > st->nkept)
		fprintf(f, "    ... and %llu more problems\n", (unsigned long long)(st->problems - st->nkept));
}

static cJSON *id_json(const struct sm_vblk_id *id)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	sm_json_add_u64(o, "set", id->set);
	sm_json_add_u64(o, "run", id->run);
	sm_json_add_u64(o, "seq", id->seq);
	sm_json_add_u64(o, "file", id->file);
	sm_json_add_u64(o, "offset", id->off);
	return o;
}

cJSON *sm_verify_json(const struct sm_verify_view *v)
{
	const struct sm_verify_stats *st = v->st;
	cJSON *o = cJSON_CreateObject(), *a;
	char name[4096];
	struct sm_verify_fig fig;

	if (!o)
		return NULL;
	figures(v, &fig);
	cJSON_AddStringToObject(o, "option", v->option + 2);
	sm_json_add_u64(o, "run_id", v->run_id);
	sm_json_add_u64(o, "block_bytes", v->block);
	sm_json_add_u64(o, "blocks_sealed", st->sealed);
	sm_json_add_u64(o, "blocks_checked", st->checked);
	sm_json_add_u64(o, "blocks_unchecked", st->unchecked);
	sm_json_add_u64(o, "problems", st->problems);
	sm_json_add_u64(o, "seal_ns", st->seal_ns);
	sm_json_add_u64(o, "check_ns", st->check_ns);
	sm_json_add_double(o, "seal_bytes_per_s", fig.seal_bytes_per_s);
	sm_json_add_double(o, "check_bytes_per_s", fig.check_bytes_per_s);
	sm_json_add_double(o, "hash_share", fig.hash_share);
	sm_json_add_u64(o, "pass_bytes", st->pass_bytes);
	sm_json_add_u64(o, "pass_ns", st->pass_ns);
	sm_json_add_double(o, "pass_bytes_per_s", fig.pass_bytes_per_s);
	a = cJSON_AddArrayToObject(o, "problem_list");
	for (unsigned i = 0; a && i < st->nkept; i++) {
		const struct sm_verify_problem *p = &st->kept[i];
		cJSON *e = cJSON_CreateObject();

		if (!e)
			break;
		v->name(p->file, name, sizeof(name), v->name_arg);
		cJSON_AddStringToObject(e, "path", name);
		sm_json_add_u64(e, "file", p->file);
		sm_json_add_u64(e, "offset", p->off);
		cJSON_AddStringToObject(e, "kind", sm_verify_kind_name(p->kind));
		cJSON_AddItemToObject(e, "expected", id_json(&p->expect));
		cJSON_AddItemToObject(e, "found", id_json(&p->found));
		cJSON_AddItemToArray(a, e);
	}
	return o;
}
