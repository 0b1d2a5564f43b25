/* SPDX-License-Identifier: MIT */
/* stormark fileio: a drop-in for `sysbench fileio` (prepare, run, cleanup
 * with sysbench 1.0.20's options, defaults and report), plus --file-dir,
 * random data, io_uring, per-operation statistics and JSON. Also the
 * `sysbench` program name, which provides the fileio test only. */
#include "cmd/cmd.h"
#include "core/clock.h"
#include "core/fsx.h"
#include "core/units.h"
#include "core/worker.h"
#include "report/fileio.h"
#include "report/json.h"
#include "report/sysbench.h"
#include "workload/fileio.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 1024
#define MAX_BACKLOG 1024

static const char usage_text[] =
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

enum fmt { FMT_SYSBENCH, FMT_STORMARK };

struct opts {
	struct sm_fileio_cfg cfg;
	const char *prog;          /* "stormark fileio" or "sysbench" */
	const char *command;       /* prepare | run | cleanup | help */
	struct sm_pct_list pct;
	int histogram;
	int seed_given;
	int verbosity;
	enum fmt format;
	const char *json;          /* NULL, or a path ("-": stdout) */
	int help, version;
	const char *deprecated[4];
	unsigned ndeprecated;
};

static int bad(const struct opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(const struct opts *o, const char *fmt, ...)
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

static int parse_one(struct opts *o, int c, const char *arg, const char *name)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	uint64_t v;
	int b;

#define BAD_VALUE() bad(o, "invalid value '%s' for --%s", arg ? arg : "", name)
	switch (c) {
	case O_FILE_NUM:
		if (parse_u32(arg, 1, 1000000, &cfg->num_files))
			return bad(o, "invalid --file-num '%s': a whole number of files from 1 to 1000000", arg);
		break;
	case O_BLOCK:
		if (sm_parse_size(arg, 1, &v) || v == 0 || v > (1ULL << 30))
			return bad(o, "invalid --file-block-size '%s': a size in bytes (suffixes K, M, G), "
				   "from 1 to 1G", arg);
		cfg->block_size = v;
		break;
	case O_TOTAL:
		if (sm_parse_size(arg, 1, &v) || v == 0)
			return bad(o, "invalid --file-total-size '%s': a whole size in bytes with an "
				   "optional K, M, G or T suffix (no fractions)", arg);
		cfg->total_size = v;
		break;
	case O_MODE:
		cfg->mode = sm_fileio_mode_parse(arg);
		if (cfg->mode == SM_FIO_NONE)
			return bad(o, "unknown --file-test-mode '%s': seqwr, seqrewr, seqrd, rndrd, "
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
			return bad(o, "unknown --file-io-mode '%s': sync, async or mmap", arg);
		break;
	case O_BACKLOG:
		if (parse_u32(arg, 1, MAX_BACKLOG, &cfg->async_backlog))
			return bad(o, "invalid --file-async-backlog '%s': from 1 to %d", arg, MAX_BACKLOG);
		break;
	case O_FLAGS:
		if (parse_flags(arg, &cfg->extra_flags))
			return bad(o, "invalid --file-extra-flags '%s': a list of sync, dsync, direct", arg);
		break;
	case O_FREQ:
		if (parse_u32(arg, 0, UINT32_MAX, &cfg->fsync_freq))
			return bad(o, "invalid --file-fsync-freq '%s': a whole number, 0 for none", arg);
		break;
	case O_FALL:
	case O_FEND:
	case O_HIST:
	case O_VALIDATE:
	case O_IGNORE_BOOL:
		if (parse_bool(arg, &b))
			return bad(o, "invalid value '%s' for --%s: on or off", arg, name);
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
			return bad(o, "unknown --file-fsync-mode '%s': fsync or fdatasync", arg);
		break;
	case O_MERGED:
		if (parse_u32(arg, 0, 1u << 20, &cfg->merged))
			return bad(o, "invalid --file-merged-requests '%s': a whole number, 0 for none", arg);
		break;
	case O_RATIO:
		if (parse_double(arg, &cfg->rw_ratio))
			return bad(o, "invalid --file-rw-ratio '%s': a number >= 0", arg);
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
			return bad(o, "unknown --file-data '%s': random or zero", arg);
		break;
	case O_DEPR_THREADS:
	case O_THREADS:
		if (parse_u32(arg, 1, MAX_THREADS, &cfg->threads))
			return bad(o, "invalid --%s '%s': from 1 to %d", name, arg, MAX_THREADS);
		break;
	case O_DEPR_EVENTS:
	case O_EVENTS:
		if (sm_parse_u64(arg, &cfg->max_events))
			return bad(o, "invalid --%s '%s': a whole number, 0 for no limit", name, arg);
		break;
	case O_DEPR_TIME:
	case O_TIME:
		if (parse_secs(arg, &cfg->time_ns))
			return bad(o, "invalid --%s '%s': seconds, 0 for no limit", name, arg);
		break;
	case O_DEPR_RATE:
	case O_RATE:
		if (parse_double(arg, &cfg->rate))
			return bad(o, "invalid --%s '%s': events per second, 0 for no limit", name, arg);
		break;
	case O_RI:
		if (parse_secs(arg, &cfg->report_interval_ns))
			return bad(o, "invalid --report-interval '%s': seconds, 0 for none", arg);
		break;
	case O_PCT:
		if (parse_pcts(arg, &o->pct))
			return bad(o, "invalid --percentile '%s': numbers in (0, 100] separated by "
				   "commas, or 0 to disable", arg);
		break;
	case O_SEED:
		if (sm_parse_u64(arg, &cfg->seed))
			return bad(o, "invalid --rand-seed '%s': a whole number", arg);
		o->seed_given = cfg->seed != 0;
		break;
	case O_VERB:
		if (sm_parse_u64(arg, &v) || v > 5)
			return bad(o, "invalid --verbosity '%s': 0 to 5", arg);
		o->verbosity = (int)v;
		break;
	case O_FORMAT:
		if (!strcmp(arg, "sysbench"))
			o->format = FMT_SYSBENCH;
		else if (!strcmp(arg, "stormark"))
			o->format = FMT_STORMARK;
		else if (!strcmp(arg, "json"))
			o->json = "-";
		else
			return bad(o, "unknown --format '%s': sysbench, stormark or json", arg);
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
		return bad(o, "--%s is not supported by stormark", name);
	default:
		return bad(o, "unknown option");
	}
	if ((c == O_DEPR_THREADS || c == O_DEPR_EVENTS || c == O_DEPR_TIME || c == O_DEPR_RATE) &&
	    o->ndeprecated < 4)
		o->deprecated[o->ndeprecated++] = name;
	return 0;
#undef BAD_VALUE
}

static const char *depr_new(const char *old)
{
	return !strcmp(old, "num-threads") ? "threads" : !strcmp(old, "max-requests") ? "events"
	       : !strcmp(old, "max-time") ? "time" : "rate";
}

/* Parse argv (options anywhere; positionals: the command). Returns 0 or an
 * exit code. */
static int parse(struct opts *o, int argc, char **argv)
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
				return bad(o, "unexpected argument '%s' after '%s'", optarg, o->command);
			if (strcmp(optarg, "prepare") && strcmp(optarg, "run") && strcmp(optarg, "cleanup") &&
			    strcmp(optarg, "help"))
				return bad(o, "unknown command '%s': prepare, run, cleanup or help", optarg);
			o->command = optarg;
			continue;
		}
		if (c == ':')
			return bad(o, "option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return bad(o, "unknown option '%s'", argv[optind - 1]);
		rc = parse_one(o, c, optarg, long_opts[idx].name);
		if (rc)
			return rc;
	}
	return 0;
}

/* Everything that can be checked before touching a file. */
static int check_plan(struct opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	int rc;

	if (cfg->total_size < cfg->block_size)
		return bad(o, "--file-total-size %llu is smaller than one block (--file-block-size %llu)",
			   (unsigned long long)cfg->total_size, (unsigned long long)cfg->block_size);
	cfg->file_size = cfg->total_size / cfg->num_files;
	if (cfg->file_size == 0)
		return bad(o, "--file-total-size %llu is less than one byte per file for --file-num %u",
			   (unsigned long long)cfg->total_size, cfg->num_files);
	if (cfg->validate && cfg->block_size < 2 * SM_FIO_TRAILER)
		return bad(o, "--validate needs --file-block-size of at least %u bytes", 2 * SM_FIO_TRAILER);
	if (cfg->validate && cfg->file_size % cfg->block_size)
		return bad(o, "--validate needs files of whole blocks: %llu bytes per file is not a "
			   "multiple of --file-block-size %llu", (unsigned long long)cfg->file_size,
			   (unsigned long long)cfg->block_size);
	if (sm_fileio_request_size(cfg) > (1ULL << 30))
		return bad(o, "--file-merged-requests %u makes requests larger than 1 GiB", cfg->merged);
	if (cfg->fsync_all) {
		cfg->fsync_end = 0;
		cfg->fsync_freq = 0;
	}
	if (!strcmp(o->command, "run") && cfg->mode == SM_FIO_NONE)
		return bad(o, "missing required argument: --file-test-mode");
	rc = sm_is_dir(cfg->dir);
	if (rc != 1)
		return bad(o, "--file-dir '%s': %s", cfg->dir, rc == 0 ? "no such directory" : "not a directory");
	if (!cfg->seed) {
		cfg->seed = sm_now_ns() ^ ((uint64_t)getpid() << 32);
		if (!cfg->seed)
			cfg->seed = 1;
	}
	return 0;
}

/* O_DIRECT: refuse sizes the file system would reject, naming the minimum. */
static int check_direct(struct opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	uint64_t need;
	int a;

	if (!(cfg->extra_flags & SM_FIO_FLAG_DIRECT) || cfg->io_mode == SM_FIO_IO_MMAP)
		return 0;
	a = sm_direct_probe(cfg->dir);
	if (a == -EINVAL)
		return bad(o, "--file-extra-flags=direct: the file system of '%s' does not support O_DIRECT",
			   cfg->dir);
	if (a < 0) {
		sm_error("cannot probe O_DIRECT in '%s': %s", cfg->dir, strerror(-a));
		return SM_EXIT_FAIL;
	}
	need = (uint64_t)a;
	if (cfg->block_size % need)
		return bad(o, "--file-block-size %llu does not suit O_DIRECT on '%s': use a multiple of "
			   "%llu bytes", (unsigned long long)cfg->block_size, cfg->dir,
			   (unsigned long long)need);
	if (cfg->file_size % need)
		return bad(o, "--file-total-size / --file-num gives %llu bytes per file, which O_DIRECT on "
			   "'%s' cannot end on: use a multiple of %llu bytes per file",
			   (unsigned long long)cfg->file_size, cfg->dir, (unsigned long long)need);
	return 0;
}

static int quiet(const struct opts *o)
{
	return o->verbosity < 3 || (o->json && !strcmp(o->json, "-"));
}

static int do_cleanup(struct opts *o)
{
	int rc;

	if (!quiet(o)) {
		sm_sb_banner(stdout);
		printf("Removing test files...\n");
	}
	rc = sm_fileio_cleanup(&o->cfg);
	if (rc < 0) {
		sm_error("cannot remove test files in '%s': %s", o->cfg.dir, strerror(-rc));
		return SM_EXIT_FAIL;
	}
	return SM_EXIT_OK;
}

static int do_prepare(struct opts *o)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	struct sm_fileio_prep p;
	char path[4096], a[32], b[32];
	int rc = sm_fileio_prep_scan(cfg, &p), out = SM_EXIT_OK;

	if (rc) {
		sm_error("cannot examine test files in '%s': %s", cfg->dir,
			 rc == -EEXIST ? "a test_file.N there is not a regular file" : strerror(-rc));
		sm_fileio_prep_release(&p);
		return SM_EXIT_FAIL;
	}
	if (!quiet(o)) {
		sm_sb_banner(stdout);
		sm_sb_prepare_head(stdout, cfg);
		for (unsigned i = 0; i < cfg->num_files; i++)
			sm_sb_prepare_file(stdout, p.state[i], i);
		fflush(stdout);
	}
	sm_signals_install();
	rc = sm_fileio_prepare(cfg, &p);
	if (rc == -EINTR || p.err == -EINTR) {
		sm_error("interrupted: %llu bytes written; the incomplete files were removed or cut back",
			 (unsigned long long)p.written);
		out = SM_EXIT_INTERRUPTED;
	} else if (rc) {
		sm_fileio_path(cfg, (unsigned)p.err_file, path, sizeof(path));
		if (p.err)
			sm_error("%s while writing '%s': %s; %llu bytes (%s) of %s written in all%s",
				 p.disk_full ? "disk full" : "write failed", path, strerror(-p.err),
				 (unsigned long long)p.written, sm_fmt_bytes(a, sizeof(a), (double)p.written),
				 sm_fmt_bytes(b, sizeof(b), (double)cfg->file_size * cfg->num_files),
				 p.err_removed == 1 ? "; the incomplete file was removed"
				 : p.err_removed == 2 ? "; the file was cut back to its previous size" : "");
		else
			sm_error("prepare failed: %s", strerror(-rc));
		out = SM_EXIT_FAIL;
	} else if (!quiet(o)) {
		sm_sb_prepare_done(stdout, p.written, p.duration_ns);
	}
	sm_fileio_prep_release(&p);
	return out;
}

static void on_tick(const struct sm_fileio_tick *t, void *arg)
{
	const struct opts *o = arg;

	sm_sb_tick(o->json && !strcmp(o->json, "-") ? stderr : stdout, t, &o->pct);
}

static void collect_warnings(const struct opts *o, const struct sm_env *env, struct sm_warnings *w)
{
	const struct sm_fileio_cfg *cfg = &o->cfg;
	uint64_t total = cfg->file_size * cfg->num_files;
	char a[32], b[32];

	if (!env->direct_io && env->mem_available_bytes && total <= env->mem_available_bytes)
		sm_warn(w, "page_cache",
			"buffered I/O on a %s file set that fits in free RAM (%s): this measures the "
			"page cache, not the storage; use --file-extra-flags=direct or a larger set",
			sm_fmt_bytes(a, sizeof(a), (double)total),
			sm_fmt_bytes(b, sizeof(b), (double)env->mem_available_bytes));
	if (cfg->time_ns && cfg->time_ns < 5 * SM_NS_PER_S && !cfg->max_events)
		sm_warn(w, "short_run", "a run under 5 s mostly measures caches and ramp-up");
}

static int do_run(struct opts *o, int argc, char **argv)
{
	struct sm_fileio_cfg *cfg = &o->cfg;
	struct sm_fileio_result r;
	struct sm_warnings w;
	struct sm_env env;
	char msg[600];
	int *fds = NULL, missing = 0, rc, out = SM_EXIT_OK;
	FILE *txt = stdout;

	memset(&w, 0, sizeof(w));
	rc = check_direct(o);
	if (rc)
		return rc;
	if (!quiet(o) && o->format == FMT_SYSBENCH) {
		sm_sb_banner(txt);
		sm_sb_run_head(txt, cfg, o->seed_given, cfg->seed);
		fflush(txt);
	}
	rc = sm_fileio_open(cfg, &fds, msg, sizeof(msg), &missing);
	if (rc) {
		/* sysbench's two lines (scripts look for them), then ours */
		if (!quiet(o) && o->format == FMT_SYSBENCH) {
			printf("FATAL: %s\n", msg);
			if (missing)
				printf("WARNING: Did you forget to run the prepare step?\n");
			else if (rc == -EFBIG)
				printf("WARNING: Did you run 'prepare' with different --file-total-size or "
				       "--file-num values?\n");
			fflush(stdout);
		}
		if (missing)
			sm_error("cannot open test files in '%s': %s (run 'prepare' first)", cfg->dir,
				 strerror(-rc));
		else
			sm_error("%s", msg);
		return SM_EXIT_FAIL;
	}
	if (sm_fileio_result_init(&r, cfg)) {
		sm_error("out of memory");
		sm_fileio_close(cfg, fds);
		return SM_EXIT_FAIL;
	}
	sm_env_collect(&env, cfg->dir);
	env.direct_io = (cfg->extra_flags & SM_FIO_FLAG_DIRECT) && cfg->io_mode != SM_FIO_IO_MMAP;
	collect_warnings(o, &env, &w);
	/* the native and JSON reports carry the warnings themselves */
	for (unsigned i = 0; i < w.count && o->format == FMT_SYSBENCH && !o->json &&
	     o->verbosity >= 1; i++)
		fprintf(stderr, "stormark: warning: %s\n", w.item[i].message);
	if (!quiet(o) && o->format == FMT_SYSBENCH)
		sm_sb_run_started(txt);
	sm_signals_install();
	rc = sm_fileio_run(cfg, fds, o->pct.n ? o->pct.p[0] : 0, on_tick, o, &r);
	sm_fileio_close(cfg, fds);
	snprintf(env.engine, sizeof(env.engine), "%s", r.engine);
	if (r.notice[0])
		fprintf(stderr, "stormark: note: %s\n", r.notice);
	if (rc && !r.failed) {
		sm_error("%s", r.error[0] ? r.error : strerror(-rc));
		out = SM_EXIT_FAIL;
		goto done;
	}
	if (o->json) {
		cJSON *doc = sm_fileio_json(cfg, &r, &env, &w, &o->pct, argc, argv);
		int jr = doc ? sm_json_write(doc, o->json) : -ENOMEM;

		cJSON_Delete(doc);
		if (jr) {
			sm_error("cannot write JSON to '%s': %s", o->json, strerror(-jr));
			out = SM_EXIT_FAIL;
		}
	}
	if (r.failed) {
		sm_error("%s", r.error);
		out = SM_EXIT_FAIL;
		goto done;
	}
	if (!quiet(o)) {
		if (o->format == FMT_STORMARK) {
			sm_fileio_text(txt, cfg, &r, &env, &w, &o->pct);
		} else {
			if (o->histogram)
				sm_sb_histogram(txt, &r.events_lat);
			sm_sb_report(txt, cfg, &r, &o->pct);
		}
	}
	if (r.interrupted) {
		sm_error("interrupted: the figures above cover %.2f s", (double)r.duration_ns / 1e9);
		out = SM_EXIT_INTERRUPTED;
	}
done:
	sm_fileio_result_release(&r);
	return out;
}

static int fileio_main(const char *prog, int argc, char **argv)
{
	struct opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.prog = prog;
	rc = parse(&o, argc, argv);
	if (rc)
		return rc;
	if (o.version) {
		printf(!strcmp(prog, "sysbench") ? "sysbench 1.0.20-compatible (stormark %s)\n"
						  : "stormark %s\n", SM_VERSION);
		return SM_EXIT_OK;
	}
	if (o.help || (o.command && !strcmp(o.command, "help"))) {
		fputs(usage_text, stdout);
		return SM_EXIT_OK;
	}
	if (!o.command)
		return bad(&o, "missing command: prepare, run or cleanup");
	for (unsigned i = 0; i < o.ndeprecated; i++)
		fprintf(stderr, "WARNING: --%s is deprecated, use --%s instead\n", o.deprecated[i],
			depr_new(o.deprecated[i]));
	rc = check_plan(&o);
	if (rc)
		return rc;
	if (!strcmp(o.command, "cleanup"))
		return do_cleanup(&o);
	if (!strcmp(o.command, "prepare")) {
		rc = check_direct(&o);
		return rc ? rc : do_prepare(&o);
	}
	return do_run(&o, argc, argv);
}

/* `stormark fileio ...`: see usage_text; returns the exit code. */
int cmd_fileio(int argc, char **argv)
{
	return fileio_main("stormark fileio", argc, argv);
}

/* The `sysbench` program name: `sysbench [options] fileio [options]
 * command` runs fileio; any other test name is refused (exit 1, as
 * sysbench does for an unknown test). Returns the exit code. */
int cmd_sysbench(int argc, char **argv)
{
	int test = 0;

	/* sysbench [options] testname [options] command: find the test name
	 * (the first argument that is not an option) and drop it. */
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			test = i;
			break;
		}
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "--version=on")) {
			printf("sysbench 1.0.20-compatible (stormark %s)\n", SM_VERSION);
			return SM_EXIT_OK;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "--help=on")) {
			fputs(usage_text, stdout);
			return SM_EXIT_OK;
		}
	}
	if (!test) {
		sm_error("sysbench: no test name given: stormark provides the 'fileio' test only "
			 "(sysbench fileio [options] prepare|run|cleanup)");
		return SM_EXIT_FAIL;
	}
	if (strcmp(argv[test], "fileio")) {
		/* sysbench exits 1 for an unknown test; so do we */
		sm_error("sysbench: test '%s' is not provided: stormark provides the 'fileio' test only",
			 argv[test]);
		return SM_EXIT_FAIL;
	}
	memmove(argv + test, argv + test + 1, (size_t)(argc - test) * sizeof(*argv));
	return fileio_main("sysbench", argc - 1, argv);
}
