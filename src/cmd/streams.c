/* SPDX-License-Identifier: MIT */
/* stormark streams: how many concurrent real-time streams of a video
 * format (ProRes, DNxHR, XAVC; DPX, EXR, TIFF sequences) the storage
 * holding DIR sustains, for capture and playback, and whether a mix of
 * them holds. Options here; the search is workload/streams.c, a mix's
 * groups workload/streams_mix.c, the reports report/streams*.c;
 * docs/streams.md. */
#include "cmd/cmd.h"
#include "mpi/job.h"
#include "mpi/job_streams.h"
#include "cmd/emit.h"
#include "args/fps_opt.h"
#include "args/out_opts.h"
#include "args/save.h"
#include "args/uring_opts.h"
#include "cmd/live_out.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/opt.h"
#include "core/sformats.h"
#include "core/worker.h"
#include "engine/engine.h"
#include "report/formats.h"
#include "result/json.h"
#include "workload/memneed.h"
#include "workload/streams.h"
#include "workload/streams_mix.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "stormark streams"
#define HINT "stormark help streams"
#define MAX_FORMATS 64
#define MAX_RATES 10

/* Without --video-format: from light to heavy, HD to 4K DCI. */
static const char *const default_formats[] = {
	"prores-proxy-hd", "prores-hq-hd", "prores-4444-hd", "prores-hq-uhd", "dnxhr-hqx-uhd",
	"prores-4444xq-uhd", "dnxhr-444-4k-dci",
};

struct streams_opts {
	struct sm_streams_plan plan;
	struct sm_out_opts out;
	struct sm_save_opts save;
	struct sm_sformat formats[MAX_FORMATS + 1];
	unsigned nformats;
	const struct sm_fps *rates[MAX_RATES];
	unsigned nrates;
	double rate_mib;
	int capture_only, play_only, force, list, help, formats_set;
	int queue_set, prebuffer_set, fps_set;
	const char *mix_arg;            /* --mix SPEC or @FILE */
	struct sm_streams_mix mix;
	struct sm_uring_opts uring;     /* --sqpoll, --iopoll */
};

static void usage(FILE *f, const struct sm_opt *opts)
{
	fputs("usage: stormark streams [options] [DIR]\n"
	      "       stormark streams --mix SPEC|@FILE [--video-format F --fps R\n"
	      "                        --play|--capture] [DIR]\n"
	      "\n"
	      "How many concurrent real-time streams of a video format the storage holding DIR\n"
	      "(default: the current directory) sustains. A compressed format's stream\n"
	      "(ProRes, DNxHR, XAVC) is one file moved in chunks of one frame per frame\n"
	      "interval; a frame-sequence format's (DPX, EXR, TIFF, v210: frames\n"
	      "--list-formats) is a directory of one file per frame, each opened, moved and\n"
	      "closed as frames moves a sequence; each is paced as frames -f paces a sequence,\n"
	      "with its own buffers; all start at once. The search doubles the number of\n"
	      "streams, then bisects, each step a paced run of --step seconds. Each capture\n"
	      "answer is then run once as a sustained step of max(16, 3 x --step) seconds\n"
	      "whose write rate is looked at for a cliff (a fall lowers the answer, marked\n"
	      "'!'); a --time too short for it says the cell could not be checked. Test files\n"
	      "go in DIR/.stormark-streams-XXXXXX, removed at the end, also on Ctrl-C. Under\n"
	      "mpirun or srun, rank 0 searches and each step's streams are spread round-robin\n"
	      "over the ranks, each in DIR/rank.N (docs/mpi.md).\n"
	      "\n"
	      "--mix runs a fixed mix of groups COUNTxFORMAT@FPS:play|capture at once for one\n"
	      "step and says per group whether it held (exit 0 when every group held, 1 when\n"
	      "one did not); with --video-format it then searches how many more streams of\n"
	      "each format fit beside the mix, the mix running in every step.\n"
	      "\n"
	      "Options:\n", f);
	sm_opt_usage(f, opts, 0);
	fputs("\nThe output flags mean the same in every command (docs/options.md). Formats and\n"
	      "their sources: docs/formats.md; the method: docs/streams.md.\n"
	      "Exit status: 0 done, 1 the run failed, 2 usage error, 130 interrupted.\n", f);
}

/* One name of --video-format into o->formats. */
static int take_format(const char *name, void *arg)
{
	struct streams_opts *o = arg;

	if (o->nformats == MAX_FORMATS)
		return -E2BIG;
	if (sm_sformat_find(name, &o->formats[o->nformats]))
		return -ENOENT;
	o->nformats++;
	return 0;
}

/* --video-format LIST (comma-separated names, or 'all'). */
static int formats_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct streams_opts *o = opt->dest;
	char bad[128];
	int rc;

	o->nformats = 0;
	if (!strcmp(arg, "all")) {
		for (unsigned i = 0; i < sm_sformat_count() && i < MAX_FORMATS; i++)
			sm_sformat_at(i, &o->formats[o->nformats++]);
		return 0;
	}
	rc = sm_opt_each(arg, take_format, o, bad, sizeof(bad));
	if (rc == -ENOMEM)
		snprintf(exp, len, "a shorter list (out of memory)");
	else if (rc == -E2BIG)
		snprintf(exp, len, "at most %d formats", MAX_FORMATS);
	else if (rc)
		snprintf(exp, len, "comma-separated stream format names or 'all' ('%s' is none: "
			 "stormark streams --list)", bad);
	return rc ? -EINVAL : 0;
}

/* --fps LIST. */
static int fps_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct streams_opts *o = opt->dest;

	return sm_fps_opt(arg, o->rates, MAX_RATES, &o->nrates, exp, len);
}

/* --engine: uring or psync (an engine that does I/O through a descriptor:
 * not null, which does none, nor mmap, which maps whole files). */
static int engine_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	const struct sm_engine_ops *e = sm_engine_find(arg);

	if (!e || (e->caps & (SM_ENGINE_NO_IO | SM_ENGINE_MAPPED))) {
		snprintf(exp, len, "uring or psync");
		return -EINVAL;
	}
	*(const char **)opt->dest = arg;
	return 0;
}

/* Every format needs a published figure at one rate at least. */
static int check_defined(const struct streams_opts *o)
{
	for (unsigned i = 0; i < o->nformats; i++) {
		unsigned k = 0;

		while (k < o->nrates && !sm_sformat_chunk(&o->formats[i], o->rates[k]))
			k++;
		if (k == o->nrates)
			return sm_usage_error(PROG, HINT, "format '%s' has no published rate at %s fps "
					      "(stormark streams --list shows its rates)", o->formats[i].name,
					      o->rates[0]->name);
	}
	return 0;
}

/* One note per --fps rate at which some chosen formats have no published
 * rate (a camera setting its vendor names at 50p/60p only): those pairs
 * are not run (check_defined refused a format with none at all). */
static void note_undefined(FILE *f, const struct streams_opts *o)
{
	for (unsigned k = 0; k < o->nrates; k++) {
		unsigned n = 0;

		for (unsigned i = 0; i < o->nformats; i++) {
			if (sm_sformat_chunk(&o->formats[i], o->rates[k]))
				continue;
			if (!n++)
				fprintf(f, "%s: note: no published rate at %s fps, not run there:", PROG,
					o->rates[k]->name);
			fprintf(f, " %s", o->formats[i].name);
		}
		if (n)
			fputc('\n', f);
	}
}

/* --mix SPEC, or @FILE: its groups into o->mix; a bad group is a usage
 * error naming it (and its line in a file). */
static int load_mix(struct streams_opts *o)
{
	const char *arg = o->mix_arg;
	char err[400], *text = NULL;
	unsigned line;
	int rc, file = arg[0] == '@';

	if (file) {
		FILE *f = fopen(arg + 1, "re");
		size_t n = 0;

		text = calloc(1, 65537);
		if (!f || !text) {
			int e = errno;

			free(text);
			if (f)
				fclose(f);
			return sm_usage_error(PROG, HINT, "cannot read the --mix file '%s': %s", arg + 1,
					      strerror(f ? ENOMEM : e));
		}
		n = fread(text, 1, 65536, f);
		rc = ferror(f) ? -EIO : !feof(f) ? -EFBIG : 0;
		fclose(f);
		if (rc) {
			free(text);
			return sm_usage_error(PROG, HINT, "cannot read the --mix file '%s': %s", arg + 1,
					      rc == -EFBIG ? "longer than 64 KiB" : strerror(-rc));
		}
		text[n] = '\0';
	}
	rc = sm_streams_mix_parse(file ? text : arg, file, &o->mix, err, sizeof(err), &line);
	free(text);
	if (rc == -ENOMEM)
		return sm_usage_error(PROG, HINT, "--mix: out of memory");
	if (rc && file && line)
		return sm_usage_error(PROG, HINT, "bad --mix group in '%s' line %u: %s", arg + 1, line, err);
	if (rc)
		return sm_usage_error(PROG, HINT, "bad --mix group %s", err);
	return 0;
}

/* The options that depend on each other, checked and resolved: --capture
 * and --play, the buffers, the step, the default rate and formats, the
 * mix.
 * Returns 0, or SM_EXIT_USAGE after one line. */
static int settle(struct streams_opts *o)
{
	if (o->capture_only && o->play_only)
		return sm_usage_error(PROG, HINT, "--capture cannot be combined with --play "
				      "(give neither for both)");
	if (o->plan.prebuffer > o->plan.queue) {
		if (o->prebuffer_set)
			return sm_usage_error(PROG, HINT, "--prebuffer %u is more than --queue %u",
					      o->plan.prebuffer, o->plan.queue);
		o->plan.prebuffer = o->plan.queue;
	}
	if (o->plan.depth > o->plan.queue)
		return sm_usage_error(PROG, HINT, "--depth %u is more than --queue %u", o->plan.depth,
				      o->plan.queue);
	if (o->plan.step_ns > o->plan.time_ns)
		return sm_usage_error(PROG, HINT, "--step is longer than --time: no step would run");
	if (!o->nrates)
		o->rates[o->nrates++] = sm_fps_find("25");
	if (o->mix_arg) {
		int rc = load_mix(o);

		if (rc)
			return rc;
		if (!o->formats_set && !(o->rate_mib > 0) && (o->capture_only || o->play_only || o->fps_set))
			return sm_usage_error(PROG, HINT, "--%s with --mix needs --video-format (or "
					      "--rate-mib): the formats to search beside the mix",
					      o->fps_set ? "fps" : o->play_only ? "play" : "capture");
	}
	if (o->rate_mib > 0) {
		if (o->nformats == MAX_FORMATS)
			return sm_usage_error(PROG, HINT, "at most %d formats", MAX_FORMATS);
		sm_sformat_custom(o->rate_mib, &o->formats[o->nformats++]);
	} else if (!o->formats_set && !o->mix_arg) {
		for (unsigned i = 0; i < sizeof(default_formats) / sizeof(default_formats[0]); i++)
			if (!sm_sformat_find(default_formats[i], &o->formats[o->nformats]))
				o->nformats++;
		o->plan.auto_formats = 1;
	}
	return check_defined(o);
}

static int parse(int argc, char **argv, struct streams_opts *o)
{
	char fhelp[256];   /* --format's help, from the render table */
	struct sm_opt opts[] = {
		SM_OPT_CALL(0, "video-format", SM_OPT_REQUIRED, formats_cb, o, "LIST",
			    "stream formats of either kind (--list shows them), comma-separated, or "
			    "'all' (every compressed one; default: a set from ProRes Proxy HD to DNxHR "
			    "444 4K)"),
		{ .kind = SM_OPT_DOUBLE, .long_name = "rate-mib", .arg = SM_OPT_REQUIRED,
		  .dest = &o->rate_mib, .dmin = 0, .dmax = 100000, .flags = SM_OPT_GT_MIN,
		  .argh = "R", .help = "a made-up format of R MiB/s per stream (custom-Rmib), "
		  "for tests against a known limit; with --video-format, besides those" },
		SM_OPT_CALL(0, "fps", SM_OPT_REQUIRED, fps_cb, o, "LIST",
			    "frame rates, comma-separated (default 25)"),
		SM_OPT_STR(0, "mix", o->mix_arg, "SPEC",
			   "a mix run at once: groups COUNTxFORMAT@FPS:play|capture, comma-separated "
			   "('2xprores-hq-hd@25:play,1xdpx-2k@24:capture'), or @FILE with one group a "
			   "line; with --video-format, how many more fit beside it"),
		SM_OPT_FLAG_SET(0, "capture", o->capture_only, 1, "capture (paced writes) only"),
		SM_OPT_FLAG_SET(0, "play", o->play_only, 1, "playback (paced reads) only"),
		SM_OPT_DURATION_RANGE(0, "time", o->plan.time_ns, SM_NS_PER_S, SM_NS_PER_S,
				      24 * 3600 * SM_NS_PER_S, "SECS",
				      "time budget of the whole search (default 600)"),
		SM_OPT_DURATION_RANGE(0, "step", o->plan.step_ns, SM_NS_PER_S, SM_NS_PER_S,
				      600 * SM_NS_PER_S, "SECS",
				      "length of one paced step (default 5)"),
		SM_OPT_UINT_RANGE(0, "max-streams", o->plan.max_streams, 1, SM_STREAMS_MAX, "N",
				  "cap of the search (default 64)"),
		SM_OPT_UINT_RANGE(0, "trials", o->plan.trials, 1, 20, "N",
				  "each step of the answer's boundary run N times (default 3)"),
		SM_OPT_UINT_RANGE(0, "queue", o->plan.queue, 1, 1024, "N",
				  "buffers per stream, frames' -q (default 8)"),
		SM_OPT_UINT_RANGE(0, "prebuffer", o->plan.prebuffer, 1, 1024, "N",
				  "playback: frames read before frame 0 is shown, frames' -b (default 5)"),
		SM_OPT_UINT_RANGE(0, "depth", o->plan.depth, 1, 64, "N",
				  "requests in flight per stream (default 1)"),
		SM_OPT_CALL(0, "engine", SM_OPT_REQUIRED, engine_cb, &o->plan.engine, "NAME",
			    "uring (default) or psync"),
		SM_URING_OPTS(o->uring),
		SM_OPT_FLAG_SET(0, "force", o->force, 1,
				"let the directory be a file system's root (a mount point, or /)"),
		SM_OPT_FLAG_SET(0, "list", o->list, 1,
				"list the stream formats, compressed and frame sequences, and their rates "
				"(--format text, markdown, csv or json; --json[=FILE], -o FILE)"),
		SM_OPT_HEAD("\nOutput:"),
		SM_OUT_OPTS(o->out, 'o', 0, sm_render_format_help(&sm_render_streams, fhelp, sizeof(fhelp))),
		SM_OUT_LIVE_OPT(o->out.live),
		SM_SAVE_OPTS(o->save),
		SM_OPT_HELP('h', "help", o->help, "this help"),
		SM_OPT_LIST_OPTIONS(o->help),
		SM_OPT_END,
	};
	char msg[SM_MSG_MAX];
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->plan.time_ns = 600 * SM_NS_PER_S;
	o->plan.step_ns = 5 * SM_NS_PER_S;
	o->plan.max_streams = 64;
	o->plan.trials = 3;
	o->plan.queue = 8;
	o->plan.prebuffer = 5;
	o->plan.depth = 1;
	o->plan.direct = 1;
	o->plan.dir = ".";
	for (struct sm_opt *t = opts; t->kind != SM_OPT_GROUP || t->help; t++) {
		if (t->cb == formats_cb)
			t->seen = &o->formats_set;
		if (t->dest == &o->plan.queue)
			t->seen = &o->queue_set;
		if (t->dest == &o->plan.prebuffer)
			t->seen = &o->prebuffer_set;
		if (t->cb == fps_cb)
			t->seen = &o->fps_set;
	}
	rc = sm_cmd_parse(PROG, HINT, opts, argc, argv, 0, &first, usage);
	if (rc >= 0)
		return rc == SM_EXIT_OK ? 1 : rc;   /* 1: done, exit 0 */
	rc = sm_out_resolve(&o->out, PROG, sm_render_layouts(&sm_render_streams, 0), sm_render_streams.dflt,
			    msg, sizeof(msg));
	if (rc)
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (o->list) {
		/* the catalogue is no measurement: no HTML page or metrics of it */
		if (o->out.html)
			return sm_usage_error(PROG, HINT, "--list writes no HTML report (the format tables "
					      "take --format text, markdown, csv or json, and --json=FILE)");
		if (o->out.layout == SM_LAYOUT_OPENMETRICS || o->out.layout == SM_LAYOUT_PROMETHEUS)
			return sm_usage_error(PROG, HINT, "--list has no metrics layout: the format "
					      "tables are no measurement (--format text, markdown, csv or json)");
		if (o->save.key)
			return sm_usage_error(PROG, HINT, "--list has nothing to --save: the format tables "
					      "are no measurement");
		return 0;   /* listed by cmd_streams(), once -o is resolved */
	}
	if (sm_save_check(&o->save, msg, sizeof(msg)) ||
	    sm_save_apart(&o->save, &o->out, NULL, 0, NULL, msg, sizeof(msg)))
		return sm_usage_error(PROG, HINT, "%s", msg);
	if (first < argc)
		o->plan.dir = argv[first++];
	if (first < argc)
		return sm_usage_error(PROG, HINT, "one directory at most, not also '%s'", argv[first]);
	if (sm_path_problem(o->plan.dir))
		return sm_usage_error(PROG, HINT, "directory '%s' %s", o->plan.dir,
				      sm_path_problem(o->plan.dir));
	rc = settle(o);
	if (rc)
		return rc;
	if (o->mix_arg && o->mix_arg[0] == '@') {
		const struct sm_out_file mix = { "the --mix file", o->mix_arg + 1, 0, 0 };

		if (sm_out_apart(&o->out, &mix, 1, NULL, msg, sizeof(msg)))
			return sm_usage_error(PROG, HINT, "%s", msg);
	}
	o->plan.formats = o->formats;
	o->plan.nformats = o->nformats;
	o->plan.rates = o->rates;
	o->plan.nrates = o->nrates;
	o->plan.capture = !o->play_only;
	o->plan.playback = !o->capture_only;
	o->plan.mix = o->mix_arg ? &o->mix : NULL;
	return 0;
}

/* How the search ended, said after its report. */
static int end(struct sm_emit *e, void *arg, int rc)
{
	const struct sm_streams_result *res = arg;

	sm_out_flush(stdout);   /* the report before what stderr says of it */
	if (rc == -EINTR) {
		sm_error("interrupted: the figures above are partial; test files removed");
		return SM_EXIT_INTERRUPTED;
	}
	if (rc || res->error) {
		sm_error("%s", res->head.error[0] ? res->head.error : strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (res->mix.ngroups && !res->mix.held) {
		/* the mix does not hold (the report says which group), or could
		 * not be measured (its note says why): exit 1 either way */
		if (!res->mix.ran && !e->out->quiet)
			sm_error("the mix was not measured: %s", res->mix.note);
		return SM_EXIT_FAIL;
	}
	return SM_EXIT_OK;
}

/* --list: the format tables in the layout asked for (-o FILE, --format,
 * --json[=FILE] as for a report). Returns the exit code. */
static int list(const struct streams_opts *o, const struct sm_job *job)
{
	const char *to = o->out.json_file ? o->out.json_file : "-";
	int rc = sm_out_redirect(&o->out, job);

	if (rc) {
		sm_error("cannot create '%s': %s", o->out.output, strerror(-rc));
		return SM_EXIT_FAIL;
	}
	if (o->out.json_file || o->out.layout == SM_LAYOUT_JSON) {
		cJSON *doc = sm_report_stream_formats_json();

		rc = doc ? sm_json_write(doc, to) : -ENOMEM;
		cJSON_Delete(doc);
		if (rc && !strcmp(to, "-") && rc != -ENOMEM) {
			sm_out_stdout_failed(rc);   /* said once, by sm_out_finish() */
			return SM_EXIT_FAIL;
		}
		if (rc) {
			sm_error("cannot write '%s': %s", strcmp(to, "-") ? to : "standard output", strerror(-rc));
			return SM_EXIT_FAIL;
		}
	}
	if (o->out.layout == SM_LAYOUT_TEXT)
		sm_report_stream_formats(stdout);
	else if (o->out.layout == SM_LAYOUT_MARKDOWN || o->out.layout == SM_LAYOUT_CSV)
		sm_report_stream_formats_table(stdout, o->out.layout == SM_LAYOUT_CSV ? SM_TABLE_CSV
											: SM_TABLE_MARKDOWN);
	return SM_EXIT_OK;
}

int cmd_streams(int argc, char **argv, struct sm_job *job)
{
	struct streams_opts *o = calloc(1, sizeof(*o));
	struct sm_streams_result *res = calloc(1, sizeof(*res));
	struct sm_progress pc = { 0 };
	struct sm_live_out live;
	struct sm_emit e = { .r = &sm_render_streams, .kind = &sm_job_streams, .prog = PROG, .job = job,
			     .end = end };
	char *abs_dir = NULL;
	int rc, code = SM_EXIT_OK;

	if (!o || !res) {
		free(o);
		free(res);
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	rc = parse(argc, argv, o);
	if (rc) {
		code = rc == 1 ? SM_EXIT_OK : rc;
		goto out;
	}
	if (o->list) {
		code = list(o, job);
		goto out;
	}
	if (job->stonewall) {
		code = sm_usage_error(PROG, HINT, "--stonewall does not apply to streams: every "
				      "step's streams run their whole schedule together");
		goto out;
	}
	if (sm_is_dir(o->plan.dir) > 0)   /* an MPI job: each rank in DIR/rank.N (docs/mpi.md) */
		o->plan.dir = sm_job_place(job, o->plan.dir, 1, 1);
	rc = sm_is_dir(o->plan.dir);
	if (rc <= 0) {
		code = sm_usage_error(PROG, HINT, "'%s' is not a directory%s", o->plan.dir,
				      rc == 0 ? " (it does not exist)" : "");
		goto out;
	}
	if (!o->force && sm_root_refusal(o->plan.dir)) {
		code = sm_usage_error(PROG, HINT, "%s", sm_root_refusal(o->plan.dir));
		goto out;
	}
	rc = sm_dir_check_writable(o->plan.dir);
	if (rc) {
		code = sm_usage_error(PROG, HINT, "cannot write in '%s': %s", o->plan.dir, strerror(-rc));
		goto out;
	}
	code = sm_uring_opts_check(PROG, &o->uring,
				   sm_engine_caps(&(struct sm_engine_need){ .name = o->plan.engine,
							.caps = SM_ENGINE_ASYNC }) & SM_ENGINE_POLLING,
				   "--engine uring (or no --engine)", o->plan.direct, "", o->plan.dir);
	if (code)
		goto out;
	o->plan.engine_flags = sm_uring_opts_flags(&o->uring);
	{
		/* before -o creates its file and the search its directory */
		char what[256];
		uint64_t need = sm_streams_mem_need(&o->plan, what, sizeof(what));

		code = sm_check_memory(PROG, need, what);
		if (code)
			goto out;
	}
	if (!o->out.quiet)
		note_undefined(stderr, o);
	abs_dir = realpath(o->plan.dir, NULL);
	if (abs_dir)
		o->plan.dir = abs_dir;
	e.out = &o->out;
	e.save = &o->save;
	code = sm_emit_open(&e);   /* --save: a bad history fails before the search */
	if (code)
		goto out;
	/* --live: the search's seconds and steps (an MPI job's rank 0 runs it) */
	if (o->out.live && sm_job_reports(job)) {
		rc = sm_live_out_open(&live, &o->out, "streams", o->plan.dir, argc, argv);
		if (rc) {
			sm_error("cannot write --live '%s': %s", o->out.live, strerror(-rc));
			code = SM_EXIT_FAIL;
			goto out;
		}
		o->plan.live = &live.live;
	}
	code = sm_emit_redirect(&e);   /* -o FILE: the report goes there */
	if (code)
		goto out;
	pc.on = !o->out.quiet && isatty(STDERR_FILENO) && sm_job_reports(job);
	sm_signals_install();
	signal(SIGPIPE, SIG_IGN);
	sm_result_head_begin(&res->head, "streams", argc, argv);
	code = sm_job_begin(job, NULL);   /* an MPI job: the start barrier */
	if (code)
		goto out;
	o->plan.peers = sm_job_streams_peers(job);
	if (!sm_job_reports(job))   /* rank 0 runs the search, the others serve */
		rc = sm_streams_serve(&o->plan, res);
	else
		rc = sm_streams_run(&o->plan, res, sm_progress_run, &pc);
	if (o->plan.live) {
		sm_live_out_close(&live);
		o->plan.live = res->plan.live = NULL;
	}
	sm_job_after(job, &rc, &res->head.interrupted);
	sm_progress_clear(&pc);
	code = sm_emit(&e, res, rc);   /* rank 0 reports the job */
out:
	if (o->plan.live) {
		sm_live_out_close(&live);
		o->plan.live = NULL;
	}
	sm_emit_close(&e);
	sm_job_unplace(job);   /* an MPI job's DIR/rank.N, made and emptied */
	sm_streams_result_release(res);
	sm_streams_mix_release(&o->mix);
	free(res);
	free(o);
	free(abs_dir);
	return code;
}
