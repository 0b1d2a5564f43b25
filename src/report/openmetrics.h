/* SPDX-License-Identifier: MIT */
/* A result as OpenMetrics text exposition (docs/openmetrics.md), for
 * Prometheus and node_exporter's textfile collector. One reporter for
 * every command: it reads the result's JSON document, so a live run
 * (its document read back) and `stormark report FILE` print the same
 * bytes. Pure: no I/O but writing f. */
#ifndef SM_REPORT_OPENMETRICS_H
#define SM_REPORT_OPENMETRICS_H

#include <stdio.h>

struct cJSON;

/* doc (a whole result document as a file holds it: numbers, not raw
 * text) to f, ending with "# EOF". Returns 0, or -ENOMEM. */
int sm_openmetrics(FILE *f, const struct cJSON *doc);

#endif
