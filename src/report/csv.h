/* SPDX-License-Identifier: MIT */
/* CSV renderings of results (one header line, then one row per figure
 * group; raw units: bytes, ns, per second), for spreadsheets and scripts.
 * `time` has its own (sm_time_print_csv, one row per run). */
#ifndef SM_REPORT_CSV_H
#define SM_REPORT_CSV_H

#include <stdio.h>

#include "analysis/compare.h"
#include "result/fileio.h"
#include "result/frames.h"
#include "result/run.h"
#include "result/streams.h"

/* `stormark run`: kind,test,direction,fps,bytes_per_s,iops,p50_ns,p99_ns,
 * p99_9_ns,max_ns,needed_bytes_per_s,verdict,how; a row per classic test
 * and direction, per frame test, and per verdict cell. Empty cells where a
 * kind has no such figure. */
void sm_csv_run(FILE *f, const struct sm_run_result *res);

/* `stormark fileio run`: op,count,bytes,errors,count_per_s,bytes_per_s,
 * mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns,max_ns; a row per operation kind
 * and one for events. */
void sm_csv_fileio(FILE *f, const struct sm_fileio_result *r);

/* `stormark frames`: op,count,bytes,errors,dropped,count_per_s,bytes_per_s,
 * mean_ns,p50_ns,p95_ns,p99_ns,p99_9_ns,max_ns,verdict; a row per
 * operation (create or open, write or read (none with -e), close), one
 * for whole frames (count_per_s and bytes_per_s over the run); in a paced
 * run one for the frame time from schedule ("schedule": count, the frames
 * paced; dropped; count_per_s, the paced rate; bytes_per_s, the frame size
 * at that rate; verdict, with --video-format), and in paced playback one
 * each for late and early frames (their lateness). Empty cells where a
 * row has no such figure. */
void sm_csv_frames(FILE *f, const struct sm_frames_result *r);

/* `stormark streams`: format,codec,fps,direction,stream_bytes_per_s,
 * chunk_bytes,streams,streams_headroom,first_failed,at_cap,searched,
 * aggregate_bytes_per_s,sustained_bytes_per_s; a row per format, frame
 * rate and direction (res judged: analysis/streams.c). first_failed is
 * empty when no step failed; at_cap and searched are 0 or 1. */
void sm_csv_streams(FILE *f, const struct sm_streams_result *res);

/* `stormark compare`: figure,label,unit,runs_a,runs_b,mean_a,mean_b,sd_a,
 * sd_b,ratio,t,df,p,significant,change,verdict_a,verdict_b; a row per
 * figure compared (c from sm_cmp_compute), raw units as the unit column
 * names them. Empty cells for what a row has not (a side without the
 * figure, no ratio, no test). */
void sm_csv_compare(FILE *f, const struct sm_cmp *c);

#endif
