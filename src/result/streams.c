/* SPDX-License-Identifier: MIT */
/* Releasing a streams result. */
#include "result/streams.h"

#include <stdlib.h>

void sm_streams_result_release(struct sm_streams_result *res)
{
	for (unsigned i = 0; i < res->ncells; i++) {
		struct sm_streams_cell *c = &res->cells[i];

		for (unsigned k = 0; k < c->nsteps; k++)
			free(c->steps[k].streams);
		free(c->steps);
	}
	free(res->cells);
	res->cells = NULL;
	res->ncells = 0;
	sm_result_head_release(&res->head);
}
