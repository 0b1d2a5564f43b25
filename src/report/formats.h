/* SPDX-License-Identifier: MIT */
/* The catalogues of formats, one a line. */
#ifndef SM_REPORT_FORMATS_H
#define SM_REPORT_FORMATS_H

#include <stdio.h>

/* frametest's size presets (-w NAME) and the video formats (--video-format
 * NAME) with their frame sizes: `frames --list-formats`. */
void sm_report_video_formats(FILE *out);

/* The stream formats with their codec and MiB/s per stream at the common
 * frame rates ("-" where none is published): `streams --list`. */
void sm_report_stream_formats(FILE *f);

#endif
