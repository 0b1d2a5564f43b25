/* SPDX-License-Identifier: MIT */
/* The catalogues of formats, one a line. */
#ifndef SM_REPORT_FORMATS_H
#define SM_REPORT_FORMATS_H

#include <stdio.h>

#include "cJSON.h"
#include "report/table.h"

/* frametest's size presets (-w NAME) and the video formats (--video-format
 * NAME) with their frame sizes: `frames --list-formats`. */
void sm_report_video_formats(FILE *out);

/* The stream formats with their codec and MiB/s per stream at the common
 * frame rates ("-" where none is published): `streams --list`. */
void sm_report_stream_formats(FILE *f);

/* The same catalogue as a markdown table or CSV (style SM_TABLE_MARKDOWN
 * or SM_TABLE_CSV): a row per format, compressed then frame sequences,
 * with its kind, codec, bytes per frame (sequences) and rate per stream
 * at each of the same frame rates (markdown: MiB/s as the text; CSV:
 * bytes/s as numbers, empty where none is published). */
void sm_report_stream_formats_table(FILE *f, enum sm_table_style style);

/* The same catalogue as JSON: {"formats": [{"name", "kind" ("compressed"
 * or "sequence"), "codec", "bytes_per_frame" (sequences; null for the
 * compressed), "rates": [{"fps": "23.976", "bytes_per_s": N}...]}]}, a
 * rate for every frame rate of the text's that has one. Returns the
 * document (the caller frees it), or NULL when out of memory. */
cJSON *sm_report_stream_formats_json(void);

#endif
