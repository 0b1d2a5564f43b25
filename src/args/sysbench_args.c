/* SPDX-License-Identifier: MIT */
/* The `sysbench` name's command line, checked in the order sysbench 1.0.20
 * checks it, so that a script sees the same lines and exit codes:
 *  1. words: the test name, then the command; a third word is refused;
 *     general options (--threads ...) are taken, others wait for step 5;
 *  2. --help, --version;
 *  3. the general values (deprecated aliases, limits, seed, rate ...);
 *  4. --verbosity and --percentile, then the banner;
 *  5. the test name and the test's own options (an unknown one is refused);
 *  6. the command; 7. the fileio values (file-num, sizes, modes ...).
 * Before step 4 sysbench prints its FATAL and WARNING lines whatever the
 * verbosity; after it they obey --verbosity. Numbers are read as sysbench
 * reads them: integers whole (no unit, no fraction), sizes as digits and
 * one of K M G T (anything else makes the size 0). */
#include "args/sysbench_args.h"
#include "core/msg.h"
#include "report/sysbench.h"
#include "args/fileio_opts.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum sb_type { T_BOOL, T_INT, T_SIZE, T_DOUBLE, T_STRING, T_LIST, T_FILE, T_OURS };
enum sb_scope { S_GENERAL, S_TEST };

struct sb_opt {
	const char *name;
	enum sb_type type;
	enum sb_scope scope;
	const char *value;     /* the last value given (NULL: none); "" clears */
	int given;
};

/* sysbench 1.0.20's options (general, then fileio's), and stormark's
 * additions, which sysbench treats as the test's options. */
enum {
	O_THREADS, O_EVENTS, O_TIME, O_FORCED, O_STACK, O_RATE, O_INTERVAL, O_CHECKPOINTS, O_DEBUG,
	O_VALIDATE, O_HELP, O_VERSION, O_CONFIG, O_TX_RATE, O_MAX_REQ, O_MAX_TIME, O_NUM_THREADS,
	O_RAND_TYPE, O_RAND_ITER, O_RAND_PCT, O_RAND_RES, O_RAND_SEED, O_PARETO_H, O_VERBOSITY,
	O_PERCENTILE, O_HISTOGRAM,
	O_FILE_NUM, O_BLOCK, O_TOTAL, O_MODE, O_IO_MODE, O_BACKLOG, O_EXTRA, O_FSYNC_FREQ,
	O_FSYNC_ALL, O_FSYNC_END, O_FSYNC_MODE, O_MERGED, O_RW_RATIO,
	O_DIR, O_DATA, O_FORMAT, O_OUTPUT, O_JSON, O_QUIET, O_VERIFY, O_FORCE, O_COUNT
};

/* (designated, so the per-run fields start empty without a warning) */
#define SB(n, t, s) { .name = (n), .type = (t), .scope = (s) }
static const struct sb_opt sb_table[O_COUNT] = {
	[O_THREADS] = SB("threads", T_INT, S_GENERAL),
	[O_EVENTS] = SB("events", T_INT, S_GENERAL),
	[O_TIME] = SB("time", T_INT, S_GENERAL),
	[O_FORCED] = SB("forced-shutdown", T_STRING, S_GENERAL),
	[O_STACK] = SB("thread-stack-size", T_SIZE, S_GENERAL),
	[O_RATE] = SB("rate", T_INT, S_GENERAL),
	[O_INTERVAL] = SB("report-interval", T_INT, S_GENERAL),
	[O_CHECKPOINTS] = SB("report-checkpoints", T_LIST, S_GENERAL),
	[O_DEBUG] = SB("debug", T_BOOL, S_GENERAL),
	[O_VALIDATE] = SB("validate", T_BOOL, S_GENERAL),
	[O_HELP] = SB("help", T_BOOL, S_GENERAL),
	[O_VERSION] = SB("version", T_BOOL, S_GENERAL),
	[O_CONFIG] = SB("config-file", T_FILE, S_GENERAL),
	[O_TX_RATE] = SB("tx-rate", T_INT, S_GENERAL),
	[O_MAX_REQ] = SB("max-requests", T_INT, S_GENERAL),
	[O_MAX_TIME] = SB("max-time", T_INT, S_GENERAL),
	[O_NUM_THREADS] = SB("num-threads", T_INT, S_GENERAL),
	[O_RAND_TYPE] = SB("rand-type", T_STRING, S_GENERAL),
	[O_RAND_ITER] = SB("rand-spec-iter", T_INT, S_GENERAL),
	[O_RAND_PCT] = SB("rand-spec-pct", T_INT, S_GENERAL),
	[O_RAND_RES] = SB("rand-spec-res", T_INT, S_GENERAL),
	[O_RAND_SEED] = SB("rand-seed", T_INT, S_GENERAL),
	[O_PARETO_H] = SB("rand-pareto-h", T_DOUBLE, S_GENERAL),
	[O_VERBOSITY] = SB("verbosity", T_INT, S_GENERAL),
	[O_PERCENTILE] = SB("percentile", T_INT, S_GENERAL),
	[O_HISTOGRAM] = SB("histogram", T_BOOL, S_GENERAL),
	[O_FILE_NUM] = SB("file-num", T_INT, S_TEST),
	[O_BLOCK] = SB("file-block-size", T_INT, S_TEST),
	[O_TOTAL] = SB("file-total-size", T_SIZE, S_TEST),
	[O_MODE] = SB("file-test-mode", T_STRING, S_TEST),
	[O_IO_MODE] = SB("file-io-mode", T_STRING, S_TEST),
	[O_BACKLOG] = SB("file-async-backlog", T_INT, S_TEST),
	[O_EXTRA] = SB("file-extra-flags", T_LIST, S_TEST),
	[O_FSYNC_FREQ] = SB("file-fsync-freq", T_INT, S_TEST),
	[O_FSYNC_ALL] = SB("file-fsync-all", T_BOOL, S_TEST),
	[O_FSYNC_END] = SB("file-fsync-end", T_BOOL, S_TEST),
	[O_FSYNC_MODE] = SB("file-fsync-mode", T_STRING, S_TEST),
	[O_MERGED] = SB("file-merged-requests", T_INT, S_TEST),
	[O_RW_RATIO] = SB("file-rw-ratio", T_DOUBLE, S_TEST),
	[O_DIR] = SB("file-dir", T_OURS, S_TEST),
	[O_DATA] = SB("file-data", T_OURS, S_TEST),
	[O_FORMAT] = SB("format", T_OURS, S_TEST),
	[O_OUTPUT] = SB("output", T_OURS, S_TEST),
	[O_JSON] = SB("json", T_OURS, S_TEST),
	[O_QUIET] = SB("quiet", T_OURS, S_TEST),
	[O_VERIFY] = SB("verify", T_OURS, S_TEST),
	[O_FORCE] = SB("force", T_OURS, S_TEST),
};

/* Option names compare with '-' and '_' as one character, as in sysbench. */
static int name_eq(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; a[i] && i < blen; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') && (b[i] == '-' || b[i] == '_')))
			return 0;
	return !a[i] && i == blen;
}

static int find_opt(const char *name, size_t len)
{
	for (int i = 0; i < O_COUNT; i++)
		if (name_eq(sb_table[i].name, name, len))
			return i;
	return -1;
}

/* sysbench's booleans: none, on, true, 1 / off, false, 0. */
static int bool_ok(const char *v)
{
	static const char *const ok[] = { "on", "true", "1", "off", "false", "0" };

	if (!v)
		return 1;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(v, ok[i]))
			return 1;
	return 0;
}

/* Take "--name[=value]" into opts when its name is one of scope's (any
 * scope when scope < 0). Returns 1 when taken. */
static int take(struct sb_opt *opts, const char *arg, int scope)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	const char *value = eq ? eq + 1 : NULL;
	int i = find_opt(name, eq ? (size_t)(eq - name) : strlen(name));

	if (i < 0 || (scope >= 0 && (int)opts[i].scope != scope))
		return 0;
	if (opts[i].type == T_BOOL && !bool_ok(value))
		return 0;
	opts[i].value = value;
	opts[i].given = 1;
	return 1;
}

static int is_on(const struct sb_opt *o)
{
	return o->given && (!o->value || !strcmp(o->value, "on") || !strcmp(o->value, "true") ||
			    !strcmp(o->value, "1"));
}

/* sysbench's option names in its messages have '_' for '-'. */
static const char *underscored(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	buf[i] = 0;
	return buf;
}

/* An integer option's value; 0 when unset or empty. A value that is not a
 * whole decimal int is refused as sysbench refuses it: *bad is set after
 * one line on stderr. */
static long get_int(const struct sb_opt *o, int *bad, long dflt)
{
	char nm[64], *end;
	long v;

	if (*bad)
		return 0;
	if (!o->given)
		return dflt;
	if (!o->value || !*o->value)
		return 0;
	errno = 0;
	v = strtol(o->value, &end, 10);
	if (*end || errno || v > INT_MAX || v < INT_MIN) {
		fprintf(stderr, "Invalid value for the '%s' option: '%s'\n",
			underscored(o->name, nm, sizeof(nm)), o->value);
		*bad = 1;
		return 0;
	}
	return v;
}

/* A size as sysbench reads it: leading digits, then K, M, G or T (any
 * case; what follows is ignored); any other character after the digits
 * makes it 0, and so does a value not starting with a digit. */
static unsigned long long get_size(const struct sb_opt *o, unsigned long long dflt)
{
	static const char mods[] = "KMGT";
	unsigned long long v = 0;
	const char *c;

	if (!o->given)
		return dflt;
	if (!o->value)
		return 0;
	for (c = o->value; *c >= '0' && *c <= '9'; c++)
		v = v * 10 + (unsigned)(*c - '0');
	if (c == o->value)
		return 0;
	if (*c) {
		const char *m = strchr(mods, *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);

		if (!m || !*m)
			return 0;
		for (long i = 0; i <= m - mods; i++)
			v *= 1024;
	}
	return v;
}

static const char *get_str(const struct sb_opt *o, const char *dflt)
{
	if (!o->given)
		return dflt;
	return o->value && *o->value ? o->value : NULL;
}

/* Append "--name=value" to the fileio argument vector. */
static void emit(struct sm_sb_args *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emit(struct sm_sb_args *out, const char *name, const char *fmt, ...)
{
	char val[48];
	va_list ap;
	int k = out->argc;

	if (k >= SM_SB_MAX_ARGS - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	snprintf(out->store[k], sizeof(out->store[k]), "--%s=%s", name, val);
	out->argv[out->argc++] = out->store[k];
}

/* FATAL and WARNING lines: before the logger starts (step 4) sysbench
 * prints them whatever the verbosity; after, only up to --verbosity. */
static void say(int level, int verbosity, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(int level, int verbosity, const char *fmt, ...)
{
	va_list ap;

	if (level > verbosity)
		return;
	fputs(level == 0 ? "FATAL: " : level == 2 ? "WARNING: " : "", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

#define EARLY 5   /* "verbosity" before the logger starts: everything shows */

/* Step 4: the logger's own options (--verbosity, --percentile,
 * --histogram). Returns 0, or 1 after sysbench's message. */
static int logger_values(struct sb_opt *o, struct sm_sb_args *out)
{
	int bad = 0;
	long v, pct;

	v = get_int(&o[O_VERBOSITY], &bad, 3);
	if (bad)
		return 1;
	if (v > 5) {
		printf("Invalid value for verbosity: %ld\n", v);
		return 1;
	}
	if (out->verbosity < 5)
		out->verbosity = v < 0 ? 0 : (int)v;
	pct = get_int(&o[O_PERCENTILE], &bad, 95);
	if (bad)
		return 1;
	if (pct < 0 || pct > 100) {
		say(0, EARLY, "Invalid value for --percentile: %ld", pct);
		return 1;
	}
	if (pct == 0 && is_on(&o[O_HISTOGRAM])) {
		say(0, EARLY, "--histogram cannot be used with --percentile=0");
		return 1;
	}
	emit(out, "verbosity", "%d", out->verbosity);
	emit(out, "percentile", "%ld", pct);
	emit(out, "histogram", "%s", is_on(&o[O_HISTOGRAM]) ? "on" : "off");
	return 0;
}

/* Steps 3 and 4: the general values, in sysbench's order. Returns 0 or 1. */
static int general_values(struct sb_opt *o, struct sm_sb_args *out)
{
	int bad = 0;
	long threads, events, tm, rate, v;
	const char *s;

	threads = get_int(&o[O_NUM_THREADS], &bad, 1);
	if (!bad && threads > 1)
		say(2, EARLY, "--num-threads is deprecated, use --threads instead");
	else
		threads = get_int(&o[O_THREADS], &bad, 1);
	if (!bad && threads <= 0) {
		say(0, EARLY, "Invalid value for --threads: %ld.\n", threads);
		return 1;
	}
	events = get_int(&o[O_MAX_REQ], &bad, 0);
	if (!bad && events > 0)
		say(2, EARLY, "--max-requests is deprecated, use --events instead");
	else
		events = get_int(&o[O_EVENTS], &bad, 0);
	tm = get_int(&o[O_MAX_TIME], &bad, 0);
	if (!bad && tm > 0)
		say(2, EARLY, "--max-time is deprecated, use --time instead");
	else
		tm = get_int(&o[O_TIME], &bad, 10);
	if (bad)
		return 1;
	if (!events && !tm)
		say(2, EARLY, "Both event and time limits are disabled, running an endless test");
	s = get_str(&o[O_FORCED], "off");
	if (tm > 0 && s && strcasecmp(s, "off")) {
		char *end;

		(void)strtol(s, &end, 10);
		if (*end != '%' && (!*s || *end)) {
			say(0, EARLY, "Invalid value for --forced-shutdown: '%s'", s);
			return 1;
		}
	}
	if (is_on(&o[O_DEBUG]))
		out->verbosity = 5;
	v = get_int(&o[O_RAND_SEED], &bad, 0);
	s = get_str(&o[O_RAND_TYPE], "special");
	if (!bad && s && strcmp(s, "uniform") && strcmp(s, "gaussian") && strcmp(s, "special") &&
	    strcmp(s, "pareto")) {
		say(0, EARLY, "Invalid random numbers distribution: %s.", s);
		return 1;
	}
	(void)get_int(&o[O_RAND_ITER], &bad, 0);
	(void)get_int(&o[O_RAND_PCT], &bad, 0);
	(void)get_int(&o[O_RAND_RES], &bad, 0);
	rate = get_int(&o[O_TX_RATE], &bad, 0);
	if (!bad && rate > 0)
		say(2, EARLY, "--tx-rate is deprecated, use --rate instead");
	else
		rate = get_int(&o[O_RATE], &bad, 0);
	(void)get_int(&o[O_INTERVAL], &bad, 0);
	if (bad)
		return 1;
	if (o[O_CHECKPOINTS].given && o[O_CHECKPOINTS].value) {
		char buf[256], *save = NULL, *tok, *end;

		snprintf(buf, sizeof(buf), "%s", o[O_CHECKPOINTS].value);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			long c = strtol(tok, &end, 10);

			if (*end || c < 0 || c > INT_MAX) {
				say(0, EARLY, "Invalid value for --report-checkpoints: '%s'", tok);
				return 1;
			}
		}
	}
	emit(out, "threads", "%ld", threads);
	emit(out, "events", "%ld", events);
	emit(out, "time", "%ld", tm);
	emit(out, "rate", "%ld", rate);
	if (o[O_INTERVAL].given)
		emit(out, "report-interval", "%ld", get_int(&o[O_INTERVAL], &bad, 0));
	if (o[O_RAND_SEED].given)
		emit(out, "rand-seed", "%ld", v);
	if (o[O_VALIDATE].given)
		emit(out, "validate", "%s", is_on(&o[O_VALIDATE]) ? "on" : "off");
	return logger_values(o, out);
}


/* Step 7: fileio's values, in the order its init reads them. Returns 0 or 1. */
/* run's --file-test-mode, which it needs. Returns 0, or 1 after
 * sysbench's message (and its options' list when it is missing). */
static int test_mode(struct sb_opt *o, struct sm_sb_args *out, int vb)
{
	const char *s = get_str(&o[O_MODE], NULL);

	if (!s) {
		say(0, vb, "Missing required argument: --file-test-mode\n");
		say(3, vb, "fileio options:");
		sm_sb_fileio_options(stdout);
		return 1;
	}
	if (strcmp(s, "seqwr") && strcmp(s, "seqrewr") && strcmp(s, "seqrd") && strcmp(s, "rndrd") &&
	    strcmp(s, "rndwr") && strcmp(s, "rndrw")) {
		say(0, vb, "Invalid IO operations mode: %s.", s);
		return 1;
	}
	emit(out, "file-test-mode", "%s", s);
	return 0;
}

/* --file-extra-flags: sync, dsync and direct only. Returns 0, or 1 after
 * sysbench's message. */
static int extra_flags(struct sb_opt *o, int vb)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", o[O_EXTRA].value);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "sync") && strcmp(tok, "dsync") && strcmp(tok, "direct")) {
			/* sysbench names the first item of the list, whichever was bad */
			char first[128];

			snprintf(first, sizeof(first), "%s", o[O_EXTRA].value);
			first[strcspn(first, ",")] = 0;
			say(0, vb, "Invalid value for file-extra-flags: %s", first);
			return 1;
		}
	return 0;
}

static int fileio_values(struct sb_opt *o, struct sm_sb_args *out, const char *cmd)
{
	int bad = 0, vb = out->verbosity;
	long num, merged, block, freq, backlog;
	unsigned long long total;
	const char *s, *io;
	double ratio;

	num = get_int(&o[O_FILE_NUM], &bad, 128);
	if (bad)
		return 1;
	if (num <= 0) {
		say(0, vb, "Invalid value for file-num: %ld", num);
		return 1;
	}
	total = get_size(&o[O_TOTAL], 2ULL << 30);
	if (!total) {
		say(0, vb, "Invalid value for file-total-size: 0");
		return 1;
	}
	if (!strcmp(cmd, "run") && test_mode(o, out, vb))
		return 1;
	io = get_str(&o[O_IO_MODE], "sync");
	if (!io)
		io = "sync";
	if (strcmp(io, "sync") && strcmp(io, "async") && strcmp(io, "mmap")) {
		say(0, vb, "unknown I/O mode: %s", io);
		return 1;
	}
	emit(out, "file-io-mode", "%s", io);
	merged = get_int(&o[O_MERGED], &bad, 0);
	if (bad)
		return 1;
	if (merged < 0) {
		say(0, vb, "Invalid value for file-merged-requests: %ld.", merged);
		return 1;
	}
	block = (long)get_size(&o[O_BLOCK], 16384);
	if (block <= 0 || block > INT_MAX) {
		say(0, vb, "Invalid value for file-block-size: %d.", (int)block);
		return 1;
	}
	if (o[O_EXTRA].given && o[O_EXTRA].value && *o[O_EXTRA].value) {
		if (extra_flags(o, vb))
			return 1;
		emit(out, "file-extra-flags", "%s", o[O_EXTRA].value);
	}
	freq = get_int(&o[O_FSYNC_FREQ], &bad, 100);
	if (bad)
		return 1;
	if (freq < 0) {
		say(0, vb, "Invalid value for file-fsync-freq: %ld.", freq);
		return 1;
	}
	s = get_str(&o[O_FSYNC_MODE], "fsync");
	if (!s || (strcmp(s, "fsync") && strcmp(s, "fdatasync"))) {
		say(0, vb, "Invalid fsync mode: %s.", s ? s : "(null)");
		return 1;
	}
	ratio = o[O_RW_RATIO].given ? (o[O_RW_RATIO].value ? strtod(o[O_RW_RATIO].value, NULL) : 0) : 1.5;
	if (ratio < 0) {
		say(0, vb, "Invalid value for --file-rw-ratio: %f.", ratio);
		return 1;
	}
	if (!strcmp(io, "async")) {
		backlog = get_int(&o[O_BACKLOG], &bad, 128);
		if (bad)
			return 1;
		if (backlog <= 0) {
			say(0, vb, "Invalid value of file-async-backlog: %ld", backlog);
			return 1;
		}
		emit(out, "file-async-backlog", "%ld", backlog);
	}
	emit(out, "file-num", "%ld", num);
	emit(out, "file-total-size", "%llu", total);
	emit(out, "file-block-size", "%ld", block);
	emit(out, "file-merged-requests", "%ld", merged);
	emit(out, "file-fsync-freq", "%ld", freq);
	emit(out, "file-fsync-mode", "%s", s);
	emit(out, "file-rw-ratio", "%.17g", ratio);
	emit(out, "file-fsync-all", "%s", is_on(&o[O_FSYNC_ALL]) ? "on" : "off");
	if (o[O_FSYNC_END].given)
		emit(out, "file-fsync-end", "%s", is_on(&o[O_FSYNC_END]) ? "on" : "off");
	return 0;
}

/* The test named on the command line is fileio, with a command. Returns
 * 1, or 0 after the message sysbench (or stormark, for its own tests) gives. */
static int test_ok(const char *test, const char *cmd, int vb)
{
	if (!test || !strcmp(test, "-")) {
		sm_error("sysbench: no test name given: stormark provides the 'fileio' test only "
			 "(sysbench fileio [options] prepare|run|cleanup)");
		return 0;
	}
	if (!strcmp(test, "cpu") || !strcmp(test, "memory") || !strcmp(test, "threads") ||
	    !strcmp(test, "mutex")) {
		sm_error("sysbench: test '%s' is not provided: stormark provides the 'fileio' test only", test);
		return 0;
	}
	if (strcmp(test, "fileio")) {
		say(0, vb, "Cannot find benchmark '%s': no such built-in test, file or module", test);
		return 0;
	}
	if (!cmd) {
		fprintf(stderr, "The 'fileio' test requires a command argument. See 'sysbench fileio help'\n");
		return 0;
	}
	return 1;
}

/* 1 when stormark's output flags among argv make the report a document a
 * parser reads whole (--format=json, openmetrics or prometheus, --json or --json=-, the
 * last --format counting): sysbench's banner stays off stdout then. */
static int parsed_report(int argc, char **argv)
{
	const char *format = NULL;
	int json = 0;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--format=", 9))
			format = argv[i] + 9;
		else if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--json="))
			json = 1;
		else if (!strcmp(argv[i], "--json=-"))
			json = 1;
	}
	return json || (format && (!strcmp(format, "json") || !strcmp(format, "openmetrics") ||
				   !strcmp(format, "prometheus")));
}

int sm_sb_args(int argc, char **argv, struct sm_sb_args *out)
{
	struct sb_opt o[O_COUNT];
	const char *test = NULL, *cmd = NULL;
	char taken[256] = { 0 };
	struct sigaction sa;

	memcpy(o, sb_table, sizeof(o));
	memset(out, 0, sizeof(*out));
	if (!sigaction(SIGINT, NULL, &sa) && sa.sa_handler == SIG_IGN)
		out->sigint_ignored = 1;
	if (argc > 255)
		argc = 255;
	out->argv[out->argc++] = argv[0];

	/* 1: words and general options */
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2)) {
			if (!test) {
				test = argv[i];
			} else if (!cmd) {
				cmd = argv[i];
			} else {
				fprintf(stderr, "Unrecognized command line argument: %s\n", argv[i]);
				return SM_EXIT_FAIL;
			}
			taken[i] = 1;
		} else if (!strncmp(argv[i] + 2, "test=", 5)) {
			fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a script name or "
				"path on the command line without any options.\n");
			test = argv[i] + 7;
			taken[i] = 1;
		} else {
			taken[i] = (char)take(o, argv[i], S_GENERAL);
		}
	}

	/* 2 */
	if (is_on(&o[O_HELP])) {
		sm_fileio_usage(stdout);
		return SM_EXIT_OK;
	}
	if (is_on(&o[O_VERSION])) {
		printf("sysbench 1.0.20 (stormark %s fileio drop-in)\n", SM_VERSION);
		return SM_EXIT_OK;
	}

	/* 3, 4 and the banner */
	if (general_values(o, out))
		return SM_EXIT_FAIL;
	if (out->verbosity >= 3 && !parsed_report(argc, argv)) {
		sm_sb_banner(stdout);
		out->banner_done = 1;
	}

	/* 5: the test and its options */
	if (!test_ok(test, cmd, out->verbosity))
		return SM_EXIT_FAIL;
	for (int i = 1; i < argc; i++) {
		if (taken[i])
			continue;
		if (!take(o, argv[i], S_TEST)) {
			fprintf(stderr, "invalid option: %s\n", argv[i]);
			return SM_EXIT_FAIL;
		}
		if (find_opt(argv[i] + 2, strcspn(argv[i] + 2, "=")) >= O_DIR && out->argc < SM_SB_MAX_ARGS - 1)
			out->argv[out->argc++] = argv[i];   /* stormark's own: passed as given */
	}

	/* 6 */
	if (!strcmp(cmd, "help")) {
		sm_fileio_usage(stdout);
		return SM_EXIT_OK;
	}
	if (strcmp(cmd, "prepare") && strcmp(cmd, "run") && strcmp(cmd, "cleanup")) {
		fprintf(stderr, "Unknown command: %s\n", cmd);
		return SM_EXIT_FAIL;
	}

	/* 7 */
	if (fileio_values(o, out, cmd))
		return SM_EXIT_FAIL;
	if (o[O_CONFIG].given)
		emit(out, "config-file", "%s", o[O_CONFIG].value ? o[O_CONFIG].value : "");
	if (o[O_CHECKPOINTS].given && o[O_CHECKPOINTS].value && *o[O_CHECKPOINTS].value)
		emit(out, "report-checkpoints", "%s", o[O_CHECKPOINTS].value);
	out->argv[out->argc++] = (char *)cmd;
	out->argv[out->argc] = NULL;
	return -1;
}
