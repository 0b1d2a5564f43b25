/* SPDX-License-Identifier: MIT */
/* A result as metrics text (docs/openmetrics.md): OpenMetrics 1.0 for
 * Prometheus servers that read it, the Prometheus text format 0.0.4 for
 * node_exporter's textfile collector and Pushgateway. One reporter for
 * every command: it reads the result's JSON document, so a live run
 * (its document read back) and `stormark report FILE` print the same
 * bytes. Pure: no I/O but writing f. */
#ifndef SM_REPORT_OPENMETRICS_H
#define SM_REPORT_OPENMETRICS_H

#include <stdio.h>

struct cJSON;

enum sm_metrics_format {
	SM_METRICS_OPENMETRICS,   /* OpenMetrics 1.0: UNIT lines, info type, "# EOF" */
	SM_METRICS_PROMETHEUS,    /* text format 0.0.4: an info family as a _info gauge */
};

/* doc (a whole result document as a file holds it: numbers, not raw
 * text) to f in format fmt; both formats name the same families and
 * samples. Returns 0, or -ENOMEM. */
int sm_metrics(FILE *f, const struct cJSON *doc, enum sm_metrics_format fmt);

/* sm_metrics() in OpenMetrics, ending with "# EOF". */
int sm_openmetrics(FILE *f, const struct cJSON *doc);

#endif
