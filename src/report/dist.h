/* SPDX-License-Identifier: MIT */
/* The rank and host dimension of a many-host run: the per-host and
 * per-rank table after the merged report, and its JSON object. */
#ifndef SM_REPORT_DIST_H
#define SM_REPORT_DIST_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "result/dist.h"

/* The job line, first and last done, then the hosts and the ranks with
 * their stragglers and failures (docs/mpi.md). */
void sm_dist_text(FILE *f, const struct sm_dist_result *d);

/* The "mpi" object of docs/json-schema.md; docs[r] (may be NULL) is rank
 * r's own result document, moved into the object (ownership passes). */
cJSON *sm_dist_json(const struct sm_dist_result *d, cJSON **docs);

#endif
