/* SPDX-License-Identifier: MIT */
/* stormark run (and `stormark` alone): profile the storage holding a
 * directory and say which video formats it can capture and play in real
 * time. Options here; the phases are workload/profile*.c, the report
 * report/run_text.c. */
#include "cmd/cmd.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/units.h"
#include "core/worker.h"
#include "result/json.h"
#include "report/run_text.h"
#include "workload/profile.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "stormark run"
#define HINT "stormark help run"

static const char usage_text[] =
	"usage: stormark run [DIR] [options]\n"
	"       stormark [DIR] [options]\n"
	"\n"
	"Profile the storage that holds DIR (default: the current directory): classic\n"
	"block figures, frame-sequence tests, and which video formats it can capture\n"
	"(write) and play back (read) in real time. Test data goes in a temporary\n"
	"directory DIR/.stormark-run-XXXXXX, removed at the end, also on Ctrl-C.\n"
	"\n"
	"Options:\n"
	"  --time SECS      about how long the whole run takes (default 60)\n"
	"  --json FILE      also write the result as JSON ('-': to stdout, and the\n"
	"                   text report to stderr)\n"
	"  --engine NAME    uring, psync or null (default: uring for queued block\n"
	"                   tests, psync for frame tests)\n"
	"  --formats LIST   verdict rows: comma-separated format names, or 'all'\n"
	"                   (default: a selection from SD to 8K; see docs/formats.md)\n"
	"  --fps LIST       frame rates of the verdict table (default 24,25,30,50,60)\n"
	"  --no-confirm     do not check near-limit verdicts with paced runs\n"
	"  --confirm-all    check every verdict with a paced run, as time allows\n"
	"  --classic-only   only the block tests (for comparing with fio)\n"
	"  --keep           keep the test data (its path is printed)\n"
	"  --quiet          no progress display\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit status: 0 done, 1 the run failed, 2 usage error, 130 interrupted.\n";

static const char *const default_formats[] = {
	"dpx-sd-pal", "v210-hd", "dpx-hd", "exr-half-hd", "dpx-2k-dci", "dpx-2k",
	"exr-half-2k", "v210-uhd", "dpx-uhd", "exr-half-uhd", "dpx-4k-dci", "dpx-4k",
	"exr-half-rgba-4k", "dpx-8k-uhd",
};

enum {
	OPT_TIME = 256, OPT_JSON, OPT_ENGINE, OPT_FORMATS, OPT_FPS, OPT_NO_CONFIRM,
	OPT_CONFIRM_ALL, OPT_CLASSIC_ONLY, OPT_KEEP, OPT_QUIET,
};

static const struct option long_opts[] = {
	{ "time", required_argument, NULL, OPT_TIME },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "formats", required_argument, NULL, OPT_FORMATS },
	{ "fps", required_argument, NULL, OPT_FPS },
	{ "no-confirm", no_argument, NULL, OPT_NO_CONFIRM },
	{ "confirm-all", no_argument, NULL, OPT_CONFIRM_ALL },
	{ "classic-only", no_argument, NULL, OPT_CLASSIC_ONLY },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct run_opts {
	struct sm_run_plan plan;
	const char *json;
	int quiet;
	int classic_only;
	struct sm_format *formats;  /* owned */
	unsigned nformats;
};

/* Fill o->formats from a comma-separated list (or "all"). Returns 0, or
 * -ENOENT with the unknown name copied into bad. */
static int parse_formats(struct run_opts *o, const char *list, char *bad, size_t badlen)
{
	unsigned n = 0, cap = sm_format_count() + 1;
	char *copy, *save = NULL, *tok;
	int rc = 0;

	free(o->formats);
	o->formats = calloc(cap, sizeof(*o->formats));
	if (!o->formats)
		return -ENOMEM;
	if (!strcmp(list, "all")) {
		for (; n < cap && sm_format_at(n, &o->formats[n]) == 0; n++)
			;
		o->nformats = n;
		return 0;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == cap || sm_format_find(tok, &o->formats[n])) {
			snprintf(bad, badlen, "%s", tok);
			rc = -ENOENT;
			break;
		}
		n++;
	}
	free(copy);
	if (!rc && n == 0) {
		snprintf(bad, badlen, "%s", list);
		rc = -ENOENT;
	}
	o->nformats = n;
	return rc;
}

static int parse_fps(struct sm_run_plan *p, const char *list, char *bad, size_t badlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	p->nrates = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct sm_fps *r = sm_fps_find(tok);

		if (!r || p->nrates == SM_RUN_MAXRATES) {
			snprintf(bad, badlen, "%s", tok);
			rc = r ? -E2BIG : -ENOENT;
			break;
		}
		p->rates[p->nrates++] = r;
	}
	free(copy);
	if (!rc && !p->nrates) {
		snprintf(bad, badlen, "%s", list);
		rc = -ENOENT;
	}
	return rc;
}

/* Parse argv into o. Returns 0, 1 after --help, or SM_EXIT_USAGE. */
static int parse(int argc, char **argv, struct run_opts *o)
{
	char bad[128];
	uint64_t ns;
	int c, rc;

	memset(o, 0, sizeof(*o));
	sm_run_plan_defaults(&o->plan);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_TIME:
			if (sm_parse_duration(optarg, SM_NS_PER_S, &ns) || ns < SM_NS_PER_S ||
			    ns > 24 * 3600 * SM_NS_PER_S)
				return sm_usage_error(PROG, HINT, "--time wants 1 s to 24 h, not '%s'",
						      optarg);
			o->plan.time_ns = ns;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_ENGINE:
			if (!sm_engine_find(optarg) || !strcmp(optarg, "mmap"))
				return sm_usage_error(PROG, HINT, "unknown engine '%s' (uring, psync, null)",
						      optarg);
			o->plan.engine = optarg;
			break;
		case OPT_FORMATS:
			rc = parse_formats(o, optarg, bad, sizeof(bad));
			if (rc == -ENOMEM)
				return sm_usage_error(PROG, NULL, "out of memory");
			if (rc)
				return sm_usage_error(PROG, HINT, "unknown format '%s' (see docs/formats.md)",
						      bad);
			break;
		case OPT_FPS:
			rc = parse_fps(&o->plan, optarg, bad, sizeof(bad));
			if (rc == -E2BIG)
				return sm_usage_error(PROG, HINT, "--fps takes at most %d rates",
						      SM_RUN_MAXRATES);
			if (rc)
				return sm_usage_error(PROG, HINT, "unknown frame rate '%s' (23.976 24 25 "
						      "29.97 30 48 50 59.94 60 120)", bad);
			break;
		case OPT_NO_CONFIRM:
			o->plan.confirm = 0;
			break;
		case OPT_CONFIRM_ALL:
			o->plan.confirm = 2;
			break;
		case OPT_CLASSIC_ONLY:
			o->classic_only = 1;
			break;
		case OPT_KEEP:
			o->plan.keep = 1;
			break;
		case OPT_QUIET:
			o->quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			if (optopt >= 256 || (optopt == 0 && argv[optind - 1]))
				return sm_usage_error(PROG, HINT, "unknown or incomplete option '%s'",
						      argv[optind - 1]);
			return sm_usage_error(PROG, HINT, "unknown option '-%c'", optopt);
		}
	}
	if (optind < argc)
		o->plan.dir = argv[optind++];
	if (optind < argc)
		return sm_usage_error(PROG, HINT, "one directory at most, not also '%s'", argv[optind]);
	if (!o->formats) {
		unsigned n = sizeof(default_formats) / sizeof(default_formats[0]);

		o->formats = calloc(n, sizeof(*o->formats));
		if (!o->formats)
			return sm_usage_error(PROG, NULL, "out of memory");
		for (unsigned i = 0; i < n; i++)
			if (sm_format_find(default_formats[i], &o->formats[o->nformats]) == 0)
				o->nformats++;
	}
	o->plan.formats = o->formats;
	o->plan.nformats = o->nformats;
	return 0;
}

static void on_hangup(int sig)
{
	sm_stop_signal = sig;
}

struct progress_ctx {
	int on;
};

static void progress(const char *what, uint64_t elapsed_ns, uint64_t budget_ns, void *arg)
{
	struct progress_ctx *p = arg;

	if (!p->on)
		return;
	fprintf(stderr, "\r\033[K[%3.0f/%.0f s] %s", (double)elapsed_ns / 1e9,
		(double)budget_ns / 1e9, what);
	fflush(stderr);
}

static void progress_clear(const struct progress_ctx *p)
{
	if (p->on) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

static int use_colour(FILE *out)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(fileno(out)) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

int cmd_run(int argc, char **argv)
{
	struct sm_run_result *res = NULL;
	struct progress_ctx pc = { 0 };
	struct run_opts o;
	FILE *out = stdout;
	char *abs_dir = NULL;
	int rc, colour, printed = SM_PHASE_SETUP, code = SM_EXIT_OK;

	rc = parse(argc, argv, &o);
	if (rc) {
		free(o.formats);
		return rc == 1 ? SM_EXIT_OK : rc;
	}
	rc = sm_is_dir(o.plan.dir);
	if (rc <= 0) {
		free(o.formats);
		return sm_usage_error(PROG, HINT, "'%s' is not a directory%s", o.plan.dir,
				      rc == 0 ? " (it does not exist)" : "");
	}
	/* say which directory in full (a bare 'stormark' profiles '.') */
	abs_dir = realpath(o.plan.dir, NULL);
	if (abs_dir)
		o.plan.dir = abs_dir;
	if (o.json && !strcmp(o.json, "-"))
		out = stderr;
	colour = use_colour(out);
	pc.on = !o.quiet && isatty(STDERR_FILENO);
	res = calloc(1, sizeof(*res));
	if (!res) {
		free(o.formats);
		free(abs_dir);
		sm_error("out of memory");
		return SM_EXIT_FAIL;
	}
	sm_signals_install();
	/* output piped into `head` must not kill the run before it removes its
	 * test data: writes then fail with EPIPE instead */
	signal(SIGPIPE, SIG_IGN);
	/* a closed terminal stops the run like Ctrl-C, so the data goes too */
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_hangup;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGHUP, &sa, NULL);
	}

	sm_result_head_begin(&res->head, "run", argc, argv);
	rc = sm_run_begin(&o.plan, res);
	if (rc) {
		sm_error("%s", res->head.error);
		code = SM_EXIT_FAIL;
		goto out;
	}
	sm_run_text_header(out, res);
	fflush(out);
	rc = sm_run_classic(res, progress, &pc);
	progress_clear(&pc);
	if (!rc) {
		sm_run_text_classic(out, res);
		fflush(out);
		printed = SM_PHASE_FRAMES;
	}
	if (!rc && !o.classic_only) {
		rc = sm_run_frames(res, progress, &pc);
		progress_clear(&pc);
	}
	if (!rc && !o.classic_only) {
		sm_run_text_frames(out, res);
		fflush(out);
		printed = SM_PHASE_VERDICTS;
		rc = sm_run_verdicts(res, progress, &pc);
		progress_clear(&pc);
	}
	sm_run_end(res);
	sm_run_text_rest(out, res, colour, printed);
	if (rc == -EINTR) {
		sm_error("interrupted: the figures above are partial%s",
			 o.plan.keep ? "" : "; test data removed");
		code = SM_EXIT_INTERRUPTED;
	} else if (rc || res->error) {
		sm_error("%s", res->head.error[0] ? res->head.error : strerror(-rc));
		code = SM_EXIT_FAIL;
	}
	if (o.json) {
		cJSON *doc = sm_json_doc_new(&res->head);
		int jrc = doc ? 0 : -ENOMEM;

		if (doc) {
			sm_json_run(doc, res);
			jrc = sm_json_write(doc, o.json);
			cJSON_Delete(doc);
		}
		if (jrc) {
			sm_error("cannot write JSON to '%s': %s", o.json, strerror(-jrc));
			if (code == SM_EXIT_OK)
				code = SM_EXIT_FAIL;
		}
	}
out:
	sm_run_result_release(res);
	free(res);
	free(o.formats);
	free(abs_dir);
	return code;
}
