/* SPDX-License-Identifier: MIT */
/* run's metadata line: a short `meta` run (workload/meta.c) of
 * SM_RUN_META_FILES files in the test directory, and what its rates say
 * of a sequence of 100,000 frames (docs/run.md). */
#include "workload/profile_int.h"
#include "engine/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/meta.h"
#include "core/worker.h"
#include "workload/meta.h"

int sm_prof_meta(struct sm_prof *x)
{
	struct sm_run_result *res = x->res;
	struct sm_run_meta *m = &res->meta;
	struct sm_meta_plan plan = {
		.dir = res->data_dir, .files = SM_RUN_META_FILES, .threads = 1,
		.size = SM_RUN_META_SIZE,
	};
	struct sm_meta_result *r;
	int rc;

	memset(m, 0, sizeof(*m));
	if (sm_engine_caps_of(x->plan->engine) & SM_ENGINE_NO_IO)
		return 0;   /* a run that does no I/O has no metadata line either */
	/* an MPI job: every rank starts it at once (a barrier, as each test) */
	if (x->plan->hooks && (rc = x->plan->hooks->begin(x->plan->hooks->arg, "metadata")))
		return rc;
	if (x->plan->hooks)
		plan.peers = x->plan->hooks->meta_peers;
	r = calloc(1, sizeof(*r));
	if (!r)
		return sm_prof_fail(x, -ENOMEM, "cannot allocate the metadata test in '%s'",
				    res->data_dir);
	sm_prof_tell(x, "metadata: 2000 files created, stat'ed, probed, listed, deleted");
	rc = sm_meta_run(&plan, r);
	sm_meta_analyse(r);
	if (rc == -EINTR || sm_stopped()) {
		free(r);
		return -EINTR;
	}
	if (rc || !r->cleaned) {
		sm_warn(&res->head.warnings, "meta_failed", "the metadata test did not run to its end: %s",
			r->head.error[0] ? r->head.error : "its directory was left");
		free(r);
		return 0;   /* the rest of the run stands */
	}
	m->files = plan.files;
	m->size_bytes = plan.size;
	m->create_per_s = r->ph[SM_META_CREATE].per_s;
	m->stat_per_s = r->ph[SM_META_STAT].per_s;
	m->probe_per_s = r->ph[SM_META_PROBE].per_s;
	m->list_per_s = r->ph[SM_META_LIST].per_s;
	m->delete_per_s = r->ph[SM_META_DELETE].per_s;
	m->caches = r->ph[SM_META_STAT].caches;
	for (unsigned i = 0; i < r->head.warnings.count; i++)   /* not root: say so */
		if (!strcmp(r->head.warnings.item[i].code, "meta_warm"))
			sm_warn(&res->head.warnings, "meta_warm", "%s", r->head.warnings.item[i].message);
	m->seq_frames = SM_RUN_META_SEQ_FRAMES;
	m->measured = sm_meta_sequence_ns(r, m->seq_frames, &m->seq_list_ns, &m->seq_probe_ns);
	free(r);
	return 0;
}
