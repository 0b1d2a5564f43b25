/* SPDX-License-Identifier: MIT */
/* The result of `stormark run`: the plan as resolved, classic figures,
 * frame tests per size, and the verdict table. Data only; measured by
 * workload/profile*.c, the verdicts and derived figures filled by
 * analysis/run.h. */
#ifndef SM_RESULT_RUN_H
#define SM_RESULT_RUN_H

#include <limits.h>
#include <stdint.h>

#include "core/formats.h"
#include "result/blockio.h"
#include "result/cliff.h"
#include "result/frames.h"
#include "result/meta.h"
#include "result/result.h"
#include "result/steady.h"
#include "result/verdict.h"

#define SM_RUN_NCLASSIC 4       /* seq 1M QD8, seq 1M QD1, rand 4K QD32, rand 4K QD1 */
#define SM_RUN_NSIZES 3         /* frame tests: hd, 2k, 4k (frametest presets) */
#define SM_RUN_MAXRATES 10

struct sm_run_hooks;            /* workload/profile.h: a run as one MPI job */

struct sm_live;   /* core/live.h */

struct sm_run_plan {
	struct sm_live *live;       /* --live: each second of a test as a line, NULL none */
	const char *dir;            /* the directory whose storage is profiled */
	uint64_t time_ns;           /* about how long the whole run takes */
	const char *engine;         /* NULL: uring for queued block tests, psync for frames */
	unsigned engine_flags;      /* SM_ENGINE_SQPOLL | SM_ENGINE_IOPOLL (engine/engine.h)
				     * for the tests that run on uring */
	int keep;                   /* 1: leave the test data in place */
	const struct sm_format *formats;   /* verdict rows (caller-owned) */
	unsigned nformats;
	const struct sm_fps *rates[SM_RUN_MAXRATES];
	unsigned nrates;
	unsigned threads;           /* frame tests: threads (default 4) */
	unsigned queue, prebuffer;  /* paced runs: -q, -b (default 8, 5) */
	int confirm;                /* 1: paced runs for near-limit verdicts; 2: for all */
	uint64_t seed;
	int steady;                 /* --steady: each classic test in rounds (SNIA PTS) */
	uint64_t steady_round_ns;   /* --steady-round */
	unsigned steady_rounds;     /* --steady-rounds */
	int precondition;           /* --precondition: the block test file written twice first */
	const struct sm_run_hooks *hooks;   /* a rank of an MPI job (cmd/dist_run.c),
					     * else NULL; caller-owned */
};

/* The figures of one classic test as reported; derived once from its
 * sm_blockio_result by sm_run_classic_figures() (analysis/run.h). */
struct sm_run_classic_fig {
	int valid;                  /* measured, and at least one I/O completed */
	double bytes_per_s, iops;
	uint64_t p99_ns;
};

/* One classic-figure row: read [0] and write [1]. */
struct sm_run_classic {
	char label[24];             /* "seq 1 MiB QD8" */
	uint64_t block;
	unsigned depth;
	int random;
	int measured[2];
	struct sm_blockio_result res[2];
	struct sm_run_classic_fig fig[2];
	/* plan.steady: the rounds of each direction (steady[w].on); res[w]
	 * is then the window's rounds merged */
	struct sm_steady steady[2];
};

/* One frame test (unpaced, as fast as it goes). */
struct sm_run_frametest {
	int measured;
	uint64_t frames, bytes, duration_ns;
	double fps, bytes_per_s;
	uint64_t p50_ns, p99_ns, p999_ns, max_ns;   /* frame time (open+io+close) */
	int direct;
	struct sm_cliff cliff;      /* write tests: a fall of the write rate over the
				     * test's series (docs/cliff.md), from the frames
				     * run; all 0 for reads */
	struct sm_stalls stalls;    /* times no frame completed (core/stall.h), from
				     * the frames run; measured 0 in a result saved
				     * before they were looked for */
	/* The test's per-second series as the frames run sampled it (one
	 * cumulative sample a second, then the end of the test; time since
	 * the test's start): the HTML report's rate-over-time chart. Owned
	 * (released by sm_run_result_release / sm_run_from_json_release);
	 * NULL, 0 in a result saved before it was kept. */
	struct sm_frames_snap *series;
	unsigned nseries;
};

/* A frame size, written (capture, [SM_DIR_CAPTURE]) then read back. */
struct sm_run_size {
	char preset[12];
	uint64_t frame_bytes;
	struct sm_run_frametest t[2];
};

/* The metadata line (docs/run.md, docs/meta.md): a short `meta` run in
 * the test directory after the frame tests, and what its rates say of a
 * sequence of seq_frames frames. Filled by the workload (rates from
 * analysis/meta.c, the sequence times from sm_meta_sequence_ns()); all 0
 * with measured 0 when not run (--classic-only, the null engine, a
 * failure: then a meta_failed warning). */
struct sm_run_meta {
	int measured;
	uint64_t files, size_bytes;
	double create_per_s, stat_per_s, probe_per_s, list_per_s, delete_per_s;
	uint64_t seq_frames;
	double seq_list_ns, seq_probe_ns;   /* listing; stat + header read of every frame */
	unsigned ranks;             /* an MPI job: the ranks whose line was measured (all
				     * ran it at once), 0 alone */
	unsigned rank;              /* then the rank whose line this is: the slowest,
				     * the longest seq_probe_ns */
	enum sm_meta_caches caches; /* what the caches held for its stat, probe and list
				     * (dropped as root, else warm); NONE in a result
				     * saved before it was said */
};

/* Files and bytes per file of run's metadata line. */
#define SM_RUN_META_FILES 2000u
#define SM_RUN_META_SIZE 4096u
/* The sequence the line speaks of. */
#define SM_RUN_META_SEQ_FRAMES 100000u

/* A verdict row: one format, every rate, both directions. */
struct sm_run_row {
	struct sm_format fmt;
	struct sm_verdict_cell cell[2][SM_RUN_MAXRATES];   /* [direction][rate] */
};

/* The highest-need realtime cell of a direction. */
struct sm_run_best {
	int found;                  /* 0: no cell of the direction is realtime */
	unsigned row, rate;
};

/* What the reporters print that the measurements do not hold directly;
 * filled by sm_run_analyse() (analysis/run.h) from the rest of the result. */
struct sm_run_derived {
	int queued_fallback;        /* a classic test meant for QD>1 ran one I/O at a time */
	int frames_measured;        /* at least one frame test has figures */
	int verdicts_ready;         /* frames measured and the verdict phase reached */
	int ref_size;               /* sizes[] index of the 2K test with both directions
				     * measured (the summary's reference), or -1 */
	struct sm_run_best best[2]; /* [direction] */
	int small_working_set;      /* the working set was cut (a small_working_set warning) */
	int frames_skipped;         /* a frame test did not fit the free space (frame_test_skipped) */
	int short_run;              /* a budget under SM_RUN_ROUGH_NS: rough figures */
	int sustained_size;         /* sizes[] index of the sustained write (the 2K write
				     * test, SM_RUN_SUSTAINED_PRESET) when measured, or -1 */
	int cliff_found;            /* its write rate fell: capture verdicts use the
				     * sustained rate (docs/run.md) */
	int cliff_unlooked;         /* it was too short to look for a cliff */
	unsigned cliff_downgraded;  /* verdict cells the burst alone would have rated
				     * better */
	/* The highest-need marginal cell of a direction that needs more than
	 * best[] (found 0: none): the most it keeps up with, under 20%. */
	struct sm_run_best marginal[2];
	/* The paced runs the cells carry (a cell's own, or the one at another
	 * rate that settled it): cells with one, and the shortest and longest
	 * run's length (struct sm_paced: frames x interval) and frames
	 * scheduled. */
	unsigned paced_cells;
	uint64_t paced_min_ns, paced_max_ns;
	uint64_t paced_min_frames, paced_max_frames;
	int paced_short;            /* paced_cells and the longest run under
				     * SM_RUN_PACED_LONG_NS: too short to say much */
	unsigned held_below_need;   /* cells a paced run held whose sustained rate is
				     * under the need: not real time (the run does
				     * not raise them) */
	unsigned unconfirmed;       /* cells left UNCONFIRMED ("?") */
	unsigned stall_cells[2];    /* [direction]: cells a stall ruled out ("#") */
	uint64_t stall_ns[2];       /* [direction]: the longest such stall */
};

/* The frame size whose write test is the run's sustained write. */
#define SM_RUN_SUSTAINED_PRESET "2k"
/* The shortest --time whose sustained write (a quarter of it) gives the 8
 * whole seconds a cliff needs, with a second to spare (docs/run.md). */
#define SM_RUN_CLIFF_MIN_TIME_S 36

/* Runs shorter than this give rough figures (the summary says so). */
#define SM_RUN_ROUGH_NS (30ull * 1000000000ull)

/* A paced run shorter than this says little: its buffers (8 frames by
 * default, a third of a second at 24 fps) hide a shortfall of 10% for
 * 8 / (24 x 0.1) = 3.3 s, so a run of a few seconds holds what the storage
 * cannot sustain; the note under the verdict table says so (docs/run.md). */
#define SM_RUN_PACED_LONG_NS (10ull * 1000000000ull)

/* Phases, in order; `reached` says how far a run got. */
enum sm_run_phase {
	SM_PHASE_SETUP = 0,
	SM_PHASE_CLASSIC,
	SM_PHASE_FRAMES,
	SM_PHASE_VERDICTS,
	SM_PHASE_CONFIRM,
	SM_PHASE_DONE,
};

/* A phase's name in the JSON ("phase_reached"), the one spelling its
 * writer and its reader use. */
static inline const char *sm_run_phase_name(enum sm_run_phase p)
{
	static const char *const names[] = { "setup", "classic", "frames", "verdicts", "confirm", "done" };

	return names[p];
}

struct sm_run_result {
	struct sm_result_head head; /* duration_ns: the whole run so far; env.engine:
				     * the block tests' engine */
	struct sm_run_plan plan;
	char data_dir[PATH_MAX];    /* the temporary directory (removed unless keep) */
	int direct_align;           /* > 0: O_DIRECT works with this alignment; else -errno */
	uint64_t file_bytes;        /* block tests' working set (what the fill wrote) */
	uint64_t file_bytes_planned; /* the size planned at setup, which the header
				      * shows (the fill may write less in its time) */
	uint64_t frames_bytes;      /* frame tests' working set per size */
	uint64_t classic_ns, frame_ns, paced_ns;   /* time given to each test; with
						    * plan.steady a classic test
						    * takes its rounds instead */
	uint64_t sustain_ns;        /* time given to the sustained write (the 2K write
				     * test), at least frame_ns (docs/run.md) */
	uint64_t steady_ns;         /* time the --steady rounds and --precondition took:
				     * the paced runs' budget does not count it */
	struct sm_precond precond;  /* plan.precondition: what it wrote */
	struct sm_run_classic classic[SM_RUN_NCLASSIC];
	struct sm_run_size sizes[SM_RUN_NSIZES];
	struct sm_run_row *rows;    /* plan.nformats rows, owned (sm_run_result_release) */
	unsigned nrows;
	struct sm_run_meta meta;    /* the metadata line */
	unsigned paced_runs;        /* paced runs made */
	unsigned near_unconfirmed;  /* near-limit verdicts left as computed */
	struct sm_run_derived derived;
	char block_engine[16], frames_engine[16];
	char notice[160];           /* engine fallback, or "" */
	uint64_t t0_ns;             /* sm_now_ns() at sm_run_begin() */
	enum sm_run_phase reached;
	unsigned mpi_ranks;         /* rank 0 of an MPI job: the ranks whose tests are
				     * merged and whose verdicts the table combines,
				     * each cell the worst rank's (docs/mpi.md); 0 for
				     * a run alone */
	int error;                  /* -errno that stopped the run, or 0 (text in head.error) */
	int sustained_basis;        /* verdicts rest on sustained data (docs/run.md, "What a
				     * verdict rests on": the 2K cap and each cell's basis);
				     * set by the run, and by the reader of a result whose
				     * cells carry "basis"; 0 for a result saved before */
};

#endif
