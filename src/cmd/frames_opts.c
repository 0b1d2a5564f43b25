/* SPDX-License-Identifier: MIT */
/* Option parsing of `stormark frames` / `frametest`: getopt tables, value
 * checks with one-line errors, resolution into a plan, and the "Test
 * parameters" line. */
#include "cmd/frames_opts.h"

#include "cmd/cmd.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/units.h"
#include "engine/engine.h"
#include "core/formats.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 1024
#define MAX_DEPTH 1024

const char sm_frames_ft_usage[] =
	"usage: frametest [options] path\n"
	"Options:\n"
	"  -w size   write test with 'size' KiB frames, or a preset: sd hd 2k 4k\n"
	"            (stormark adds fullhd uhd 4kdci 8k ...: see 'stormark help frames')\n"
	"  -e        write test with empty frames (create/open/close only)\n"
	"  -r        read test of frames written earlier (default)\n"
	"  -s        streaming test to or from one file (path is then a file)\n"
	"  -n num    number of frames (default 1800; read: the frames present)\n"
	"  -a num    asynchronous I/O, 'num' frames in flight per thread\n"
	"  -t num    'num' threads\n"
	"  -o        handle completed I/Os out of order\n"
	"  -f rate   pace at 'rate' frames per second (capture / playback)\n"
	"  -q num    at most 'num' queued buffers before a frame is dropped\n"
	"  -b num    pre-buffer 'num' frames before playback starts (default 5)\n"
	"  -v        access files in reverse order\n"
	"  -m        access files in a random order\n"
	"  -l num    loop over the first 'num' frames (default 0: no loop)\n"
	"  -i num    I/Os per frame (default 1)\n"
	"  -z size   custom frame size in KiB for a read or write test\n"
	"  -d num    use directories of 'num' files each\n"
	"  -p secs   pause 'secs' before the test starts\n"
	"  -c perc   crop: read the middle 'perc'%% of each frame (read tests)\n"
	"  -u secs   progress update interval (default 1 s)\n"
	"  -h secs   histogram of the last 'secs' only (default: all)\n"
	"  -x file   write per-frame timing to 'file' (CSV)\n";

const char sm_frames_long_usage[] =
	"\nstormark frames also takes long options:\n"
	"  --write SIZE --empty --read --stream --frames N --async N --threads N\n"
	"  --out-of-order --fps RATE --queue N --prebuffer N --reverse --random\n"
	"  --loop N --ios N --size KIB --dirs N --pause SECS --crop PERC\n"
	"  --update SECS --hist-window SECS --csv FILE (the frametest options)\n"
	"  --json FILE      write the result as JSON ('-' for stdout)\n"
	"  --engine NAME    psync (default), uring (default with -a), null\n"
	"  --buffered       use the page cache (default: direct I/O)\n"
	"  --data MODE      random (default, incompressible) or zero\n"
	"  --seed N         data and random-order seed\n"
	"  --time SECS      stop after SECS\n"
	"  --quiet          no progress line\n"
	"  --format NAME --fps RATE --capture|--play\n"
	"                   paced check of one video format (e.g. dpx-2k at 24):\n"
	"                   exit 0 when it holds in real time, 1 when it does not\n"
	"  --list-formats   the built-in formats and frametest presets\n";

enum {
	OPT_JSON = 256, OPT_ENGINE, OPT_BUFFERED, OPT_DATA, OPT_SEED, OPT_TIME, OPT_QUIET,
	OPT_FORMAT, OPT_CAPTURE, OPT_PLAY, OPT_LIST, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "write", required_argument, NULL, 'w' }, { "empty", no_argument, NULL, 'e' },
	{ "read", no_argument, NULL, 'r' }, { "stream", no_argument, NULL, 's' },
	{ "frames", required_argument, NULL, 'n' }, { "async", required_argument, NULL, 'a' },
	{ "threads", required_argument, NULL, 't' }, { "out-of-order", no_argument, NULL, 'o' },
	{ "fps", required_argument, NULL, 'f' }, { "queue", required_argument, NULL, 'q' },
	{ "prebuffer", required_argument, NULL, 'b' }, { "reverse", no_argument, NULL, 'v' },
	{ "random", no_argument, NULL, 'm' }, { "loop", required_argument, NULL, 'l' },
	{ "ios", required_argument, NULL, 'i' }, { "size", required_argument, NULL, 'z' },
	{ "dirs", required_argument, NULL, 'd' }, { "pause", required_argument, NULL, 'p' },
	{ "crop", required_argument, NULL, 'c' }, { "update", required_argument, NULL, 'u' },
	{ "hist-window", required_argument, NULL, 'h' }, { "csv", required_argument, NULL, 'x' },
	{ "json", required_argument, NULL, OPT_JSON }, { "engine", required_argument, NULL, OPT_ENGINE },
	{ "buffered", no_argument, NULL, OPT_BUFFERED }, { "data", required_argument, NULL, OPT_DATA },
	{ "seed", required_argument, NULL, OPT_SEED }, { "time", required_argument, NULL, OPT_TIME },
	{ "quiet", no_argument, NULL, OPT_QUIET }, { "format", required_argument, NULL, OPT_FORMAT },
	{ "capture", no_argument, NULL, OPT_CAPTURE }, { "play", no_argument, NULL, OPT_PLAY },
	{ "list-formats", no_argument, NULL, OPT_LIST }, { "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Print a usage error (fmt with up to two string arguments); returns
 * SM_EXIT_USAGE. */
static int bad(struct sm_frames_opts *o, const char *fmt, const char *a, const char *b)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, a, b);
	return sm_usage_error(o->prog, o->hint, "%s", msg);
}

/* A count option: a whole number within [lo, hi]. */
static int count_arg(struct sm_frames_opts *o, int c, const char *arg, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	char opt[4] = { '-', (char)c, 0, 0 };

	if (sm_parse_u64(arg, out) || *out < lo || *out > hi) {
		char range[64];

		snprintf(range, sizeof(range), "a whole number from %llu to %llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		bad(o, "option %s needs %s", opt, range);
		return -1;
	}
	return 0;
}

static int secs_arg(struct sm_frames_opts *o, int c, const char *arg, int allow_zero, uint64_t *out)
{
	char opt[3] = { '-', (char)c, 0 };

	if (sm_parse_duration(arg, SM_NS_PER_S, out) || (!allow_zero && !*out)) {
		bad(o, "option %s needs a number of seconds, not '%s'", opt, arg);
		return -1;
	}
	return 0;
}

/* -w/-z value: KiB, or a preset name. */
static int size_arg(struct sm_frames_opts *o, int c, const char *arg, uint64_t *kib)
{
	uint64_t v;

	v = sm_ft_preset_kib(arg);
	if (!v && sm_parse_u64(arg, &v)) {
		char opt[3] = { '-', (char)c, 0 };

		bad(o, "option %s needs a size in KiB or a preset (sd, hd, 2k, 4k, ...), not '%s'", opt, arg);
		return -1;
	}
	if (v == 0 || v > SM_FRAMES_MAX_FRAME_BYTES / 1024) {
		bad(o, "frame size '%s' is out of range (1 KiB to %s)", arg, "1048576 KiB");
		return -1;
	}
	*kib = v;
	return 0;
}

static void add_param(struct sm_frames_opts *o, const char *fmt, unsigned long long v, int with_value)
{
	size_t len = strlen(o->params);
	char item[48];

	if (with_value)
		snprintf(item, sizeof(item), fmt, v);
	else
		snprintf(item, sizeof(item), "%s", fmt);
	snprintf(o->params + len, sizeof(o->params) - len, "%s%s", len ? " " : "", item);
}

void sm_frames_opts_params(struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;

	o->params[0] = '\0';
	if (p->kind == SM_FRAMES_WRITE)
		add_param(o, "-w%llu", p->frame_bytes / 1024, 1);
	else if (p->kind == SM_FRAMES_EMPTY)
		add_param(o, "-e", 0, 0);
	else
		add_param(o, "-r", 0, 0);
	if (p->stream)
		add_param(o, "-s", 0, 0);
	if (p->kind == SM_FRAMES_READ && o->z_kib)
		add_param(o, "-z%llu", o->z_kib, 1);
	add_param(o, "-n%llu", p->nframes, 1);
	if (p->depth)
		add_param(o, "-a%llu", p->depth, 1);
	if (p->threads > 1)
		add_param(o, "-t%llu", p->threads, 1);
	if (p->out_of_order)
		add_param(o, "-o", 0, 0);
	if (p->fps > 0) {
		size_t len = strlen(o->params);

		snprintf(o->params + len, sizeof(o->params) - len, " -f%g", p->fps);
		add_param(o, "-q%llu", p->queue, 1);
		add_param(o, "-b%llu", p->prebuffer, 1);
	}
	if (p->order == SM_ORDER_REVERSE)
		add_param(o, "-v", 0, 0);
	if (p->order == SM_ORDER_RANDOM)
		add_param(o, "-m", 0, 0);
	if (p->loop)
		add_param(o, "-l%llu", p->loop, 1);
	if (p->ios_per_frame > 1)
		add_param(o, "-i%llu", p->ios_per_frame, 1);
	if (p->files_per_dir)
		add_param(o, "-d%llu", p->files_per_dir, 1);
	if (p->pause_ns) {
		size_t len = strlen(o->params);

		snprintf(o->params + len, sizeof(o->params) - len, " -p%g", (double)p->pause_ns / 1e9);
	}
	if (p->crop_pct < 100)
		add_param(o, "-c%llu", p->crop_pct, 1);
}

/* Parse argv into o (the getopt loop). Returns as sm_frames_opts_parse(). */
static int parse(int argc, char **argv, struct sm_frames_opts *o, int compat)
{
	struct sm_frames_plan *p = &o->plan;
	uint64_t v;
	int c;

	opterr = 0;
	optind = 0;   /* GNU getopt: full reset, so a second parse starts afresh */
	while ((c = compat ? getopt(argc, argv, ":w:ersn:a:t:of:q:b:vml:i:z:d:p:c:u:h:x:")
			   : getopt_long(argc, argv, ":w:ersn:a:t:of:q:b:vml:i:z:d:p:c:u:h:x:",
					 long_opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (size_arg(o, c, optarg, &o->w_kib))
				return SM_EXIT_USAGE;
			p->kind = SM_FRAMES_WRITE;
			o->kind_set = 1;
			break;
		case 'e':
			p->kind = SM_FRAMES_EMPTY;
			o->kind_set = 1;
			break;
		case 'r':
			p->kind = SM_FRAMES_READ;
			o->kind_set = 1;
			break;
		case 's':
			p->stream = 1;
			break;
		case 'n':
			if (count_arg(o, c, optarg, 1, UINT32_MAX * 16ULL, &p->nframes))
				return SM_EXIT_USAGE;
			o->n_set = 1;
			break;
		case 'a':
			if (count_arg(o, c, optarg, 1, MAX_DEPTH, &v))
				return SM_EXIT_USAGE;
			p->depth = (unsigned)v;
			break;
		case 't':
			if (count_arg(o, c, optarg, 1, MAX_THREADS, &v))
				return SM_EXIT_USAGE;
			p->threads = (unsigned)v;
			break;
		case 'o':
			p->out_of_order = 1;
			break;
		case 'f':
			if (sm_parse_positive_double(optarg, &p->fps) || p->fps > 100000)
				return bad(o, "option -f needs a frame rate above 0, not '%s'%s", optarg, "");
			break;
		case 'q':
			if (count_arg(o, c, optarg, 1, 4096, &v))
				return SM_EXIT_USAGE;
			p->queue = (unsigned)v;
			o->q_set = 1;
			break;
		case 'b':
			if (count_arg(o, c, optarg, 1, 4096, &v))
				return SM_EXIT_USAGE;
			p->prebuffer = (unsigned)v;
			break;
		case 'v':
			p->order = SM_ORDER_REVERSE;
			break;
		case 'm':
			p->order = SM_ORDER_RANDOM;
			break;
		case 'l':
			if (count_arg(o, c, optarg, 0, UINT32_MAX * 16ULL, &p->loop))
				return SM_EXIT_USAGE;
			break;
		case 'i':
			if (count_arg(o, c, optarg, 1, 1024, &v))
				return SM_EXIT_USAGE;
			p->ios_per_frame = (unsigned)v;
			break;
		case 'z':
			if (size_arg(o, c, optarg, &o->z_kib))
				return SM_EXIT_USAGE;
			break;
		case 'd':
			if (count_arg(o, c, optarg, 1, UINT32_MAX, &v))
				return SM_EXIT_USAGE;
			p->files_per_dir = (unsigned)v;
			break;
		case 'p':
			if (secs_arg(o, c, optarg, 1, &p->pause_ns))
				return SM_EXIT_USAGE;
			break;
		case 'c':
			if (count_arg(o, c, optarg, 1, 100, &v))
				return SM_EXIT_USAGE;
			p->crop_pct = (unsigned)v;
			break;
		case 'u':
			if (secs_arg(o, c, optarg, 0, &p->update_ns))
				return SM_EXIT_USAGE;
			break;
		case 'h':
			if (secs_arg(o, c, optarg, 0, &p->hist_window_ns))
				return SM_EXIT_USAGE;
			break;
		case 'x':
			if (!*optarg)
				return bad(o, "option -x needs a file name%s%s", "", "");
			p->csv_path = optarg;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_ENGINE:
			p->engine = optarg;
			break;
		case OPT_BUFFERED:
			p->direct = 0;
			break;
		case OPT_DATA:
			if (!strcmp(optarg, "zero"))
				p->data = SM_DATA_ZERO;
			else if (!strcmp(optarg, "random"))
				p->data = SM_DATA_RANDOM;
			else
				return bad(o, "--data takes 'random' or 'zero', not '%s'%s", optarg, "");
			break;
		case OPT_SEED:
			if (sm_parse_u64(optarg, &p->seed) || !p->seed)
				return bad(o, "--seed needs a whole number above 0, not '%s'%s", optarg, "");
			break;
		case OPT_TIME:
			if (sm_parse_duration(optarg, SM_NS_PER_S, &p->time_limit_ns) || !p->time_limit_ns)
				return bad(o, "--time needs a duration above 0, not '%s'%s", optarg, "");
			break;
		case OPT_QUIET:
			p->quiet = 1;
			break;
		case OPT_FORMAT:
			o->format = optarg;
			break;
		case OPT_CAPTURE:
			o->capture = 1;
			break;
		case OPT_PLAY:
			o->play = 1;
			break;
		case OPT_LIST:
			return SM_FRAMES_OPTS_LIST;
		case OPT_HELP:
			return SM_FRAMES_OPTS_HELP;
		case ':':
		default: {
			char name[3] = { '-', (char)optopt, 0 };
			const char *what = optopt ? name : argv[optind - 1];

			return bad(o, c == ':' ? "option '%s' needs a value%s" : "unknown option '%s'%s",
				   what, "");
		}
		}
	}
	if (optind >= argc && !o->format)
		return bad(o, "missing path%s%s", "", "");
	if (optind < argc - 1)
		return bad(o, "one path only, not also '%s'%s", argv[optind + 1], "");
	p->path = optind < argc ? argv[optind] : NULL;
	return 0;
}

/* Turn parsed options into the plan: test kind, frame size, and --format's
 * paced check (10 s of video unless -n). */
static int resolve_kind(struct sm_frames_opts *o)
{
	struct sm_frames_plan *p = &o->plan;
	uint64_t kib = o->z_kib ? o->z_kib : o->w_kib;

	if (o->format) {
		struct sm_format fmt;

		if (sm_format_find(o->format, &fmt))
			return bad(o, "unknown format '%s' (see --list-formats)%s", o->format, "");
		if (o->capture == o->play)
			return bad(o, "--format needs one of --capture or --play%s%s", "", "");
		if (!(p->fps > 0))
			return bad(o, "--format needs --fps RATE%s%s", "", "");
		if (!p->path)
			return bad(o, "missing directory%s%s", "", "");
		p->kind = o->capture ? SM_FRAMES_WRITE : SM_FRAMES_READ;
		p->frame_bytes = fmt.frame_bytes;
		if (!o->n_set)
			p->nframes = (uint64_t)(p->fps * 10 + 0.5);   /* 10 s of video */
		if (p->nframes < p->prebuffer)
			p->nframes = p->prebuffer;
		return 0;
	}
	if (o->capture || o->play)
		return bad(o, "--capture and --play go with --format%s%s", "", "");
	if (p->kind == SM_FRAMES_EMPTY && kib && !o->z_kib)
		return bad(o, "-e writes empty frames; it takes no size%s%s", "", "");
	p->frame_bytes = kib * 1024;
	if (p->kind == SM_FRAMES_READ && !o->n_set)
		p->nframes = 0;  /* every frame present */
	return 0;
}

/* resolve_kind(), then the paced runs' buffer count: -q, or max(8, -b). */
static int resolve(struct sm_frames_opts *o)
{
	struct sm_frames_plan *p = &o->plan;
	int rc = resolve_kind(o);

	if (rc)
		return rc;
	if (p->fps > 0 && !p->queue)
		p->queue = p->prebuffer > 8 ? p->prebuffer : 8;
	return 0;
}

int sm_frames_opts_parse(int argc, char **argv, int compat, struct sm_frames_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->prog = compat ? "frametest" : "stormark frames";
	o->hint = compat ? "frametest with no arguments prints its options" : "stormark help frames";
	sm_frames_plan_defaults(&o->plan);
	if (compat && argc < 2)
		return SM_FRAMES_OPTS_HELP;   /* as frametest: no arguments, its help */
	rc = parse(argc, argv, o, compat);
	return rc ? rc : resolve(o);
}

int sm_frames_opts_validate(struct sm_frames_opts *o)
{
	const struct sm_frames_plan *p = &o->plan;
	uint64_t need = (uint64_t)p->threads * (p->depth ? p->depth : 1) * p->frame_bytes;
	uint64_t avail = sm_mem_available();

	if (p->engine && !sm_engine_find(p->engine))
		return bad(o, "unknown engine '%s' (psync, uring, null)%s", p->engine, "");
	if (p->csv_path) {
		char dir[4096];

		if (sm_parent_dir(p->csv_path, dir, sizeof(dir)) || sm_is_dir(dir) != 1)
			return bad(o, "directory of '%s' does not exist%s", p->csv_path, "");
		if (sm_is_dir(p->csv_path) == 1)
			return bad(o, "'%s' is a directory, not a CSV file%s", p->csv_path, "");
	}
	if (avail && need > avail / 4 * 3) {
		char a[32], b[32];

		return bad(o, "frame buffers need %s (threads x depth x frame), more than the free RAM allows (%s)",
			   sm_fmt_bytes(a, sizeof(a), (double)need), sm_fmt_bytes(b, sizeof(b), (double)avail));
	}
	return 0;
}

