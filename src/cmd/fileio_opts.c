/* SPDX-License-Identifier: MIT */
/* stormark fileio's command line: a getopt_long table with sysbench
 * 1.0.20's option names and defaults, strict value parsing. */
#include "cmd/cmd.h"
#include "cmd/fileio_opts.h"
#include "core/clock.h"
#include "core/units.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 1024
#define MAX_BACKLOG 1024

const char sm_fileio_usage[] =
	"usage: stormark fileio [options] prepare|run|cleanup|help\n"
	"       sysbench fileio [options] prepare|run|cleanup|help   (through a 'sysbench' link)\n"
	"\n"
	"sysbench 1.0.20 fileio options (same defaults):\n"
	"  --file-num=N                  number of files to create [128]\n"
	"  --file-block-size=N           block size to use in all IO operations [16384]\n"
	"  --file-total-size=SIZE        total size of files to create [2G]\n"
	"  --file-test-mode=STRING       test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}\n"
	"  --file-io-mode=STRING         file operations mode {sync,async,mmap} [sync]\n"
	"                                (async runs on io_uring; no libaio needed)\n"
	"  --file-async-backlog=N        requests in flight per thread in async mode [128]\n"
	"  --file-extra-flags=[LIST,...] additional open flags {sync,dsync,direct} []\n"
	"  --file-fsync-freq=N           do fsync() after this number of requests (0 - don't use fsync()) [100]\n"
	"  --file-fsync-all[=on|off]     do fsync() after each write operation [off]\n"
	"  --file-fsync-end[=on|off]     do fsync() at the end of test [on]\n"
	"  --file-fsync-mode=STRING      which method to use for synchronization {fsync, fdatasync} [fsync]\n"
	"  --file-merged-requests=N      merge at most this number of IO requests if possible (0 - don't merge) [0]\n"
	"  --file-rw-ratio=N             reads/writes ratio for combined test [1.5]\n"
	"general options:\n"
	"  --threads=N --events=N --time=N --rate=N --report-interval=N\n"
	"  --histogram[=on|off] --percentile=P[,P...] (0 disables) [95]\n"
	"  --rand-seed=N (0: from the clock) --validate[=on|off] --verbosity=N\n"
	"  deprecated aliases: --num-threads --max-requests --max-time --tx-rate\n"
	"  accepted and ignored: --forced-shutdown --thread-stack-size --debug --rand-type\n"
	"    --rand-spec-iter --rand-spec-pct --rand-spec-res --rand-pareto-h --rand-zipfian-exp\n"
	"stormark additions:\n"
	"  --file-dir=DIR                where the test files live [current directory]\n"
	"  --file-data=random|zero       what prepare writes [random: incompressible]\n"
	"  --format=sysbench|stormark    report layout [sysbench]\n"
	"  --json[=FILE]                 write the result as JSON (stdout when no FILE)\n";

enum {
	O_FILE_NUM = 256, O_BLOCK, O_TOTAL, O_MODE, O_IOMODE, O_BACKLOG, O_FLAGS, O_FREQ,
	O_FALL, O_FEND, O_FMODE, O_MERGED, O_RATIO, O_DIR, O_DATA, O_THREADS, O_EVENTS, O_TIME,
	O_RATE, O_RI, O_HIST, O_PCT, O_SEED, O_VALIDATE, O_VERB, O_FORMAT, O_JSON, O_HELP,
	O_VERSION, O_IGNORE, O_IGNORE_BOOL, O_UNSUPPORTED, O_DEPR_THREADS, O_DEPR_EVENTS,
	O_DEPR_TIME, O_DEPR_RATE,
};

static const struct option long_opts[] = {
	{ "file-num", required_argument, NULL, O_FILE_NUM },
	{ "file-block-size", required_argument, NULL, O_BLOCK },
	{ "file-total-size", required_argument, NULL, O_TOTAL },
	{ "file-test-mode", required_argument, NULL, O_MODE },
	{ "file-io-mode", required_argument, NULL, O_IOMODE },
	{ "file-async-backlog", required_argument, NULL, O_BACKLOG },
	{ "file-extra-flags", required_argument, NULL, O_FLAGS },
	{ "file-fsync-freq", required_argument, NULL, O_FREQ },
	{ "file-fsync-all", optional_argument, NULL, O_FALL },
	{ "file-fsync-end", optional_argument, NULL, O_FEND },
	{ "file-fsync-mode", required_argument, NULL, O_FMODE },
	{ "file-merged-requests", required_argument, NULL, O_MERGED },
	{ "file-rw-ratio", required_argument, NULL, O_RATIO },
	{ "file-dir", required_argument, NULL, O_DIR },
	{ "file-data", required_argument, NULL, O_DATA },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "events", required_argument, NULL, O_EVENTS },
	{ "time", required_argument, NULL, O_TIME },
	{ "rate", required_argument, NULL, O_RATE },
	{ "report-interval", required_argument, NULL, O_RI },
	{ "histogram", optional_argument, NULL, O_HIST },
	{ "percentile", required_argument, NULL, O_PCT },
	{ "rand-seed", required_argument, NULL, O_SEED },
	{ "validate", optional_argument, NULL, O_VALIDATE },
	{ "verbosity", required_argument, NULL, O_VERB },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "json", optional_argument, NULL, O_JSON },
	{ "help", optional_argument, NULL, O_HELP },
	{ "version", optional_argument, NULL, O_VERSION },
	{ "num-threads", required_argument, NULL, O_DEPR_THREADS },
	{ "max-requests", required_argument, NULL, O_DEPR_EVENTS },
	{ "max-time", required_argument, NULL, O_DEPR_TIME },
	{ "tx-rate", required_argument, NULL, O_DEPR_RATE },
	{ "forced-shutdown", required_argument, NULL, O_IGNORE },
	{ "thread-stack-size", required_argument, NULL, O_IGNORE },
	{ "rand-type", required_argument, NULL, O_IGNORE },
	{ "rand-spec-iter", required_argument, NULL, O_IGNORE },
	{ "rand-spec-pct", required_argument, NULL, O_IGNORE },
	{ "rand-spec-res", required_argument, NULL, O_IGNORE },
	{ "rand-pareto-h", required_argument, NULL, O_IGNORE },
	{ "rand-zipfian-exp", required_argument, NULL, O_IGNORE },
	{ "debug", optional_argument, NULL, O_IGNORE_BOOL },
	{ "report-checkpoints", required_argument, NULL, O_UNSUPPORTED },
	{ "config-file", required_argument, NULL, O_UNSUPPORTED },
	{ NULL, 0, NULL, 0 },
};

int sm_fileio_bad(const struct sm_fileio_opts *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sm_usage_error(o->prog, !strcmp(o->prog, "sysbench") ? "sysbench fileio help"
								      : "stormark help fileio",
			      "%s", msg);
}

static int parse_bool(const char *s, int *out)
{
	static const char *const on[] = { "on", "true", "yes", "1" };
	static const char *const off[] = { "off", "false", "no", "0" };

	if (!s) {
		*out = 1;
		return 0;
	}
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, on[i])) {
			*out = 1;
			return 0;
		}
		if (!strcmp(s, off[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

/* A positive-or-zero number with an optional fraction, nothing else. */
static int parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s || !(s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out))
		return -EINVAL;
	return 0;
}

static int parse_u32(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t v;

	if (sm_parse_u64(s, &v) || v < lo || v > hi)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

static int parse_flags(const char *s, unsigned *out)
{
	char buf[128], *save = NULL, *tok;

	*out = 0;
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "sync"))
			*out |= SM_FIO_FLAG_SYNC;
		else if (!strcmp(tok, "dsync"))
			*out |= SM_FIO_FLAG_DSYNC;
		else if (!strcmp(tok, "direct"))
			*out |= SM_FIO_FLAG_DIRECT;
		else
			return -EINVAL;
	}
	return 0;
}

static int parse_pcts(const char *s, struct sm_pct_list *p)
{
	char buf[128], *save = NULL, *tok;

	p->n = 0;
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (parse_double(tok, &v) || v > 100 || p->n == SM_FIO_MAX_PCT)
			return -EINVAL;
		if (v == 0) {
			if (p->n || strtok_r(NULL, ",", &save))
				return -EINVAL;   /* 0 disables: alone only */
			return 0;
		}
		p->p[p->n++] = v;
	}
	return p->n ? 0 : -EINVAL;
}

/* Seconds as sysbench takes them ("10"), or a duration ("500ms"). */
static int parse_secs(const char *s, uint64_t *ns)
{
	return sm_parse_duration(s, SM_NS_PER_S, ns);
}

static int parse_one(struct sm_fileio_opts *o, int c, const char *arg, const char *name)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	uint64_t v;
	int b;

#define BAD_VALUE() sm_fileio_bad(o, "invalid value '%s' for --%s", arg ? arg : "", name)
	switch (c) {
	case O_FILE_NUM:
		if (parse_u32(arg, 1, 1000000, &cfg->num_files))
			return sm_fileio_bad(o, "invalid --file-num '%s': a whole number of files from 1 to 1000000", arg);
		break;
	case O_BLOCK:
		if (sm_parse_size(arg, 1, &v) || v == 0 || v > (1ULL << 30))
			return sm_fileio_bad(o, "invalid --file-block-size '%s': a size in bytes (suffixes K, M, G), "
				   "from 1 to 1G", arg);
		cfg->block_size = v;
		break;
	case O_TOTAL:
		if (sm_parse_size(arg, 1, &v) || v == 0)
			return sm_fileio_bad(o, "invalid --file-total-size '%s': a whole size in bytes with an "
				   "optional K, M, G or T suffix (no fractions)", arg);
		cfg->total_size = v;
		break;
	case O_MODE:
		cfg->mode = sm_fileio_mode_parse(arg);
		if (cfg->mode == SM_FIO_NONE)
			return sm_fileio_bad(o, "unknown --file-test-mode '%s': seqwr, seqrewr, seqrd, rndrd, "
				   "rndwr or rndrw", arg);
		break;
	case O_IOMODE:
		if (!strcmp(arg, "sync"))
			cfg->io_mode = SM_FIO_IO_SYNC;
		else if (!strcmp(arg, "async"))
			cfg->io_mode = SM_FIO_IO_ASYNC;
		else if (!strcmp(arg, "mmap"))
			cfg->io_mode = SM_FIO_IO_MMAP;
		else
			return sm_fileio_bad(o, "unknown --file-io-mode '%s': sync, async or mmap", arg);
		break;
	case O_BACKLOG:
		if (parse_u32(arg, 1, MAX_BACKLOG, &cfg->async_backlog))
			return sm_fileio_bad(o, "invalid --file-async-backlog '%s': from 1 to %d", arg, MAX_BACKLOG);
		break;
	case O_FLAGS:
		if (parse_flags(arg, &cfg->extra_flags))
			return sm_fileio_bad(o, "invalid --file-extra-flags '%s': a list of sync, dsync, direct", arg);
		break;
	case O_FREQ:
		if (parse_u32(arg, 0, UINT32_MAX, &cfg->fsync_freq))
			return sm_fileio_bad(o, "invalid --file-fsync-freq '%s': a whole number, 0 for none", arg);
		break;
	case O_FALL:
	case O_FEND:
	case O_HIST:
	case O_VALIDATE:
	case O_IGNORE_BOOL:
		if (parse_bool(arg, &b))
			return sm_fileio_bad(o, "invalid value '%s' for --%s: on or off", arg, name);
		if (c == O_FALL)
			cfg->fsync_all = b;
		else if (c == O_FEND)
			cfg->fsync_end = b;
		else if (c == O_HIST)
			o->histogram = b;
		else if (c == O_VALIDATE)
			cfg->validate = b;
		break;
	case O_FMODE:
		if (!strcmp(arg, "fsync"))
			cfg->fsync_data = 0;
		else if (!strcmp(arg, "fdatasync"))
			cfg->fsync_data = 1;
		else
			return sm_fileio_bad(o, "unknown --file-fsync-mode '%s': fsync or fdatasync", arg);
		break;
	case O_MERGED:
		if (parse_u32(arg, 0, 1u << 20, &cfg->merged))
			return sm_fileio_bad(o, "invalid --file-merged-requests '%s': a whole number, 0 for none", arg);
		break;
	case O_RATIO:
		if (parse_double(arg, &cfg->rw_ratio))
			return sm_fileio_bad(o, "invalid --file-rw-ratio '%s': a number >= 0", arg);
		break;
	case O_DIR:
		if (!*arg)
			return BAD_VALUE();
		cfg->dir = arg;
		break;
	case O_DATA:
		if (!strcmp(arg, "random"))
			cfg->data = SM_DATA_RANDOM;
		else if (!strcmp(arg, "zero"))
			cfg->data = SM_DATA_ZERO;
		else
			return sm_fileio_bad(o, "unknown --file-data '%s': random or zero", arg);
		break;
	case O_DEPR_THREADS:
	case O_THREADS:
		if (parse_u32(arg, 1, MAX_THREADS, &cfg->threads))
			return sm_fileio_bad(o, "invalid --%s '%s': from 1 to %d", name, arg, MAX_THREADS);
		break;
	case O_DEPR_EVENTS:
	case O_EVENTS:
		if (sm_parse_u64(arg, &cfg->max_events))
			return sm_fileio_bad(o, "invalid --%s '%s': a whole number, 0 for no limit", name, arg);
		break;
	case O_DEPR_TIME:
	case O_TIME:
		if (parse_secs(arg, &cfg->time_ns))
			return sm_fileio_bad(o, "invalid --%s '%s': seconds, 0 for no limit", name, arg);
		break;
	case O_DEPR_RATE:
	case O_RATE:
		if (parse_double(arg, &cfg->rate))
			return sm_fileio_bad(o, "invalid --%s '%s': events per second, 0 for no limit", name, arg);
		break;
	case O_RI:
		if (parse_secs(arg, &cfg->report_interval_ns))
			return sm_fileio_bad(o, "invalid --report-interval '%s': seconds, 0 for none", arg);
		break;
	case O_PCT:
		if (parse_pcts(arg, &o->pct))
			return sm_fileio_bad(o, "invalid --percentile '%s': numbers in (0, 100] separated by "
				   "commas, or 0 to disable", arg);
		break;
	case O_SEED:
		if (sm_parse_u64(arg, &cfg->seed))
			return sm_fileio_bad(o, "invalid --rand-seed '%s': a whole number", arg);
		o->seed_given = cfg->seed != 0;
		break;
	case O_VERB:
		if (sm_parse_u64(arg, &v) || v > 5)
			return sm_fileio_bad(o, "invalid --verbosity '%s': 0 to 5", arg);
		o->verbosity = (int)v;
		break;
	case O_FORMAT:
		if (!strcmp(arg, "sysbench"))
			o->format = SM_FIO_FMT_SYSBENCH;
		else if (!strcmp(arg, "stormark"))
			o->format = SM_FIO_FMT_STORMARK;
		else if (!strcmp(arg, "json"))
			o->json = "-";
		else
			return sm_fileio_bad(o, "unknown --format '%s': sysbench, stormark or json", arg);
		break;
	case O_JSON:
		o->json = arg && *arg ? arg : "-";
		break;
	case O_HELP:
		o->help = 1;
		break;
	case O_VERSION:
		o->version = 1;
		break;
	case O_IGNORE:
		if (!arg || !*arg)
			return BAD_VALUE();
		break;
	case O_UNSUPPORTED:
		return sm_fileio_bad(o, "--%s is not supported by stormark", name);
	default:
		return sm_fileio_bad(o, "unknown option");
	}
	if ((c == O_DEPR_THREADS || c == O_DEPR_EVENTS || c == O_DEPR_TIME || c == O_DEPR_RATE) &&
	    o->ndeprecated < 4)
		o->deprecated[o->ndeprecated++] = name;
	return 0;
#undef BAD_VALUE
}

const char *sm_fileio_depr_new(const char *old)
{
	return !strcmp(old, "num-threads") ? "threads" : !strcmp(old, "max-requests") ? "events"
	       : !strcmp(old, "max-time") ? "time" : "rate";
}

int sm_fileio_parse(struct sm_fileio_opts *o, int argc, char **argv)
{
	int c, idx;

	sm_fileio_cfg_defaults(&o->cfg);
	o->pct.n = 1;
	o->pct.p[0] = 95;
	o->verbosity = 3;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "-:", long_opts, &idx)) != -1) {
		int rc;

		if (c == 1) {
			if (o->command)
				return sm_fileio_bad(o, "unexpected argument '%s' after '%s'", optarg, o->command);
			if (strcmp(optarg, "prepare") && strcmp(optarg, "run") && strcmp(optarg, "cleanup") &&
			    strcmp(optarg, "help"))
				return sm_fileio_bad(o, "unknown command '%s': prepare, run, cleanup or help", optarg);
			o->command = optarg;
			continue;
		}
		if (c == ':')
			return sm_fileio_bad(o, "option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return sm_fileio_bad(o, "unknown option '%s'", argv[optind - 1]);
		rc = parse_one(o, c, optarg, long_opts[idx].name);
		if (rc)
			return rc;
	}
	return 0;
}
