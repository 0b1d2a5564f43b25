/* SPDX-License-Identifier: MIT */
/* Tests of the option module: every kind, ranges, the one error wording,
 * argument forms (attached, separate, optional), stop options, repeat
 * parses, and the usage printed from the table. */
#include "core/opt.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/compiler.h"

#define SEC 1000000000ULL

/* Everything one table can fill. */
struct vals {
	int flag, on, mode, help, n_seen, t_seen;
	unsigned threads;
	uint64_t frames, bytes, ns, kib;
	double fps, ratio;
	const char *name, *json;
	char cb_arg[32];
};

static const struct sm_opt_choice modes[] = {
	{ "sync", 1 }, { "async", 2 }, { "mmap", 3 }, { NULL, 0 },
};

/* A callback for a recognised option that is refused. */
static int refuse_cb(SM_UNUSED const struct sm_opt *opt, SM_UNUSED const char *arg,
		SM_UNUSED char *exp, SM_UNUSED size_t len)
{
	return -ENOTSUP;
}

/* A callback: only even numbers. */
static int even_cb(const struct sm_opt *opt, const char *arg, char *exp, size_t len)
{
	struct vals *v = opt->dest;
	char *end;
	long x = strtol(arg, &end, 10);

	if (*end || x % 2) {
		snprintf(exp, len, "an even number");
		return -EINVAL;
	}
	snprintf(v->cb_arg, sizeof(v->cb_arg), "%s", arg);
	return 0;
}

static struct vals v;
static char msg[512];
static char out_buf[8192];

/* SM_OPT_NEXT_IF on --json when set: the next word is its value when it
 * ends in ".json". */
static int json_next;

static int ends_json(const char *s)
{
	size_t n = strlen(s);

	return n > 5 && !strcmp(s + n - 5, ".json");
}

/* Build the test table over v (dest pointers into it). */
static void table(struct sm_opt *t, size_t cap)
{
	struct sm_opt tab[] = {
		SM_OPT_HEAD("Test options:"),
		SM_OPT_FLAG_SET('o', "out-of-order", v.flag, 7, "complete out of order"),
		SM_OPT_BOOL_OPT(0, "histogram", v.on, "print a histogram"),
		SM_OPT_UINT_RANGE('t', "threads", v.threads, 1, 1024, "N", "number of threads"),
		SM_OPT_UINT_RANGE('n', "frames", v.frames, 1, 0, "N", "frames"),
		SM_OPT_SIZE_RANGE(0, "block-size", v.bytes, 1, 1, 1ULL << 30, "SIZE", "block size"),
		SM_OPT_SIZE_RANGE('z', NULL, v.kib, 1024, 1024, 0, "KIB", "size in KiB"),
		SM_OPT_DURATION_RANGE('u', "update", v.ns, SEC, 1, 0, "SECS",
				      "update interval\nsecond line"),
		SM_OPT_DOUBLE_RANGE('f', "fps", v.fps, 0, 100000, "RATE", "frame rate"),
		SM_OPT_DOUBLE_RANGE(0, "rw-ratio", v.ratio, 0, INFINITY, "R", "ratio"),
		SM_OPT_STR('x', "csv", v.name, "FILE", "per-frame CSV"),
		SM_OPT_CHOOSE(0, "io-mode", v.mode, modes, "MODE", "I/O mode"),
		SM_OPT_CALL(0, "even", SM_OPT_REQUIRED, even_cb, &v, "N", "an even number"),
		SM_OPT_STR(0, "json", v.json, "FILE", "JSON"),
		SM_OPT_FLAG_SET('H', "help", v.help, 5, "this help"),
		SM_OPT_STR(0, "secret", v.name, "X", "never shown"),
		SM_OPT_FLAG_SET(0, "long-help", v.flag, 1, "a help line long enough to need wrapping at a word "
				"end, so that it stays within seventy-nine columns on the terminal"),
		SM_OPT_CALL(0, "config-file", SM_OPT_REQUIRED, refuse_cb, &v, "FILE", NULL),
		SM_OPT_LIST_OPTIONS(v.help),
		SM_OPT_END,
	};

	assert_true(sizeof(tab) / sizeof(tab[0]) <= cap);
	memcpy(t, tab, sizeof(tab));
	t[8].flags |= SM_OPT_GT_MIN;              /* --fps above 0 */
	t[3].seen = &v.t_seen;
	t[4].seen = &v.n_seen;
	t[13].arg = SM_OPT_OPTIONAL;              /* --json[=FILE] */
	t[13].dflt = "-";
	if (json_next) {
		t[13].flags |= SM_OPT_NEXT_IF;
		t[13].next_ok = ends_json;
	}
	t[14].flags |= SM_OPT_STOP;               /* --help stops */
	t[15].flags |= SM_OPT_HIDDEN;
}

static int parse_args(unsigned flags, int *first, const char *const *args)
{
	static char *argv[64];
	struct sm_opt t[32];
	int argc = 0;

	memset(&v, 0, sizeof(v));
	table(t, 32);
	argv[argc++] = "prog";
	while (*args && argc < 63)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return sm_opt_parse(t, argc, argv, flags, first, msg, sizeof(msg));
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define OK(...) do { int f_; int r_ = parse_args(0, &f_, ARGS(__VA_ARGS__)); \
	if (r_) fail_msg("rc %d: %s", r_, msg); } while (0)
/* A bad command line: -EINVAL and exactly the message m. */
#define BAD(m, ...) do { int f_; int r_ = parse_args(0, &f_, ARGS(__VA_ARGS__)); \
	if (r_ != -EINVAL) fail_msg("rc %d, wanted -EINVAL (%s)", r_, m); \
	assert_string_equal(msg, m); } while (0)

static void test_kinds(SM_UNUSED void **state)
{
	OK("-o", "--histogram", "-t", "8", "--frames=9000", "--block-size", "16K", "-z", "2",
	   "-u", "250ms", "-f", "23.976", "--rw-ratio", "1.5", "-x", "a.csv", "--io-mode", "mmap",
	   "--even", "42");
	assert_int_equal(v.flag, 7);
	assert_int_equal(v.on, 1);
	assert_int_equal(v.threads, 8);
	assert_int_equal(v.frames, 9000);
	assert_int_equal(v.bytes, 16384);
	assert_int_equal(v.kib, 2048);                 /* a bare number is KiB */
	assert_int_equal(v.ns, 250000000ULL);
	assert_true(fabs(v.fps - 23.976) < 1e-12);
	assert_true(v.ratio == 1.5);
	assert_string_equal(v.name, "a.csv");
	assert_int_equal(v.mode, 3);
	assert_string_equal(v.cb_arg, "42");
	OK("--histogram=off", "-u", "2");
	assert_int_equal(v.on, 0);
	assert_int_equal(v.ns, 2 * SEC);
	OK("--histogram=yes", "--frames", "18446744073709551615");
	assert_int_equal(v.on, 1);
	assert_true(v.frames == UINT64_MAX);
	/* attached short values, as frametest writes them */
	OK("-t4", "-n9000", "-f50", "-xout.csv");
	assert_int_equal(v.threads, 4);
	assert_int_equal(v.frames, 9000);
	assert_true(v.fps == 50);
	assert_string_equal(v.name, "out.csv");
	/* a prefix of a long name */
	OK("--thr", "3");
	assert_int_equal(v.threads, 3);
}

/* One wording for every bad value, naming the option as typed. */
static void test_bad_values(SM_UNUSED void **state)
{
	BAD("invalid value 'x' for --threads: expected an integer from 1 to 1024", "--threads", "x");
	BAD("invalid value '0' for -t: expected an integer from 1 to 1024", "-t", "0");
	BAD("invalid value '1025' for -t: expected an integer from 1 to 1024", "-t1025");
	BAD("invalid value '-1' for --threads: expected an integer from 1 to 1024", "--threads=-1");
	BAD("invalid value '0' for -n: expected an integer of at least 1", "-n", "0");
	BAD("invalid value '18446744073709551616' for -n: expected an integer of at least 1",
	    "-n", "18446744073709551616");
	BAD("invalid value '2G' for --block-size: expected a whole size from 1 byte to 1 GiB "
	    "(a number with an optional K, M, G or T suffix)", "--block-size", "2G");
	BAD("invalid value '1.5K' for --block-size: expected a whole size from 1 byte to 1 GiB "
	    "(a number with an optional K, M, G or T suffix)", "--block-size", "1.5K");
	BAD("invalid value '0' for -z: expected a whole size of at least 1 KiB "
	    "(a number with an optional K, M, G or T suffix; a bare number is KiB)", "-z", "0");
	BAD("invalid value '0' for -u: expected a number of seconds above 0 (or with a unit: ms, s, m, h)",
	    "-u", "0");
	BAD("invalid value '1x' for --update: expected a number of seconds above 0 (or with a unit: ms, s, m, h)",
	    "--update", "1x");
	BAD("invalid value '0' for -f: expected a number above 0 and at most 100000", "-f", "0");
	BAD("invalid value '1e3' for -f: expected a number above 0 and at most 100000", "-f", "1e3");
	BAD("invalid value '100000.5' for --fps: expected a number above 0 and at most 100000",
	    "--fps", "100000.5");
	BAD("invalid value '-1' for --rw-ratio: expected a number of at least 0", "--rw-ratio", "-1");
	BAD("invalid value '' for -x: expected a value that is not empty", "-x", "");
	BAD("invalid value 'MMAP' for --io-mode: expected sync, async or mmap", "--io-mode", "MMAP");
	BAD("invalid value 'maybe' for --histogram: expected on or off", "--histogram=maybe");
	BAD("invalid value '3' for --even: expected an even number", "--even", "3");
	/* nothing is stored for a bad value */
	BAD("invalid value '0' for -t: expected an integer from 1 to 1024", "-t", "5", "-t", "0");
	assert_int_equal(v.threads, 5);
}

static void test_bad_forms(SM_UNUSED void **state)
{
	BAD("unknown option '--bogus'", "--bogus");
	BAD("unknown option '-k'", "-k", "d");
	BAD("unknown option '-k'", "-ok");
	BAD("option '--threads' needs a value", "d", "--threads");
	BAD("option '-t' needs a value", "d", "-t");
	BAD("option '--out-of-order' takes no value", "--out-of-order=1");
	BAD("ambiguous option '--f' (could be --frames --fps)", "--f", "24");
	BAD("option '--config-file' is not supported", "--config-file=x");
	/* the hidden option still parses */
	OK("--secret", "s");
	assert_string_equal(v.name, "s");
}

/* Optional values are attached only; positional words; stop options. */
static void test_forms(SM_UNUSED void **state)
{
	const char *const *a;
	int first, rc;

	rc = parse_args(0, &first, a = ARGS("--json", "d"));
	assert_int_equal(rc, 0);
	assert_string_equal(v.json, "-");              /* no value: the default */
	assert_int_equal(first, 2);                    /* "d" is positional */
	rc = parse_args(0, &first, ARGS("--json=r.json", "d"));
	assert_int_equal(rc, 0);
	assert_string_equal(v.json, "r.json");
	rc = parse_args(0, &first, ARGS("--json", "r.json", "d"));
	assert_int_equal(rc, 0);
	assert_string_equal(v.json, "-");              /* not without NEXT_IF */
	assert_int_equal(first, 2);                    /* "r.json" is positional */
	/* NEXT_IF: the next word is the value when next_ok() says so, even
	 * after a positional word (GNU order); otherwise it stays positional */
	json_next = 1;
	rc = parse_args(0, &first, ARGS("d", "--json", "r.json", "-t", "2"));
	assert_int_equal(rc, 0);
	assert_string_equal(v.json, "r.json");
	assert_int_equal(v.threads, 2);
	assert_int_equal(first, 5);                    /* "d" alone is positional */
	rc = parse_args(0, &first, ARGS("--json", "d"));
	assert_int_equal(rc, 0);
	assert_string_equal(v.json, "-");
	assert_int_equal(first, 2);
	json_next = 0;
	/* options after positional words (GNU order), unless in order */
	rc = parse_args(0, &first, ARGS("d", "-t", "2"));
	assert_int_equal(rc, 0);
	assert_int_equal(v.threads, 2);
	assert_int_equal(first, 3);
	rc = parse_args(SM_OPT_IN_ORDER, &first, ARGS("cmd", "-t", "2"));
	assert_int_equal(rc, 0);
	assert_int_equal(v.threads, 0);
	assert_int_equal(first, 1);
	rc = parse_args(0, &first, ARGS("-t", "2", "--", "-t", "3"));
	assert_int_equal(rc, 0);
	assert_int_equal(v.threads, 2);
	assert_int_equal(first, 4);
	/* --help stops at once with its value, even before a bad option */
	rc = parse_args(0, &first, ARGS("-t", "2", "--help", "--bogus"));
	assert_int_equal(rc, 5);
	assert_int_equal(v.help, 5);
	/* seen: 1 once given */
	OK("-n", "5", "-t", "1", "-n", "6");
	assert_int_equal(v.n_seen, 1);
	assert_int_equal(v.t_seen, 1);
	assert_int_equal(v.frames, 6);
	OK("-o");
	assert_int_equal(v.n_seen, 0);
	/* short names only: long ones are unknown */
	rc = parse_args(SM_OPT_SHORT_ONLY, &first, ARGS("--threads=2", "d"));
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(msg, "unknown option '--threads'");   /* the name, not its value */
	rc = parse_args(0, &first, ARGS("--=2", "d"));   /* no name: not a prefix of every one */
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(msg, "unknown option '--=2'");
	rc = parse_args(SM_OPT_SHORT_ONLY, &first, ARGS("-t2", "d"));
	assert_int_equal(rc, 0);
	assert_int_equal(v.threads, 2);
}

static void usage_text(unsigned flags)
{
	struct sm_opt t[32];
	FILE *f = fmemopen(out_buf, sizeof(out_buf), "w");

	assert_non_null(f);
	table(t, 32);
	sm_opt_usage(f, t, flags);
	fclose(f);
	if (getenv("SM_SHOW_USAGE"))
		fputs(out_buf, stderr);
}

/* The usage is the table: every shown option once, aligned. */
static void test_usage(SM_UNUSED void **state)
{
	usage_text(0);
	assert_non_null(strstr(out_buf, "Test options:\n"));
	assert_non_null(strstr(out_buf, "  -t, --threads N           number of threads\n"));
	assert_non_null(strstr(out_buf, "      --histogram[=on|off]  print a histogram\n"));
	assert_non_null(strstr(out_buf, "  -z KIB                    size in KiB\n"));
	/* a newline in a table's text is a space: one paragraph, wrapped once */
	assert_non_null(strstr(out_buf, "update interval second line\n"));
	assert_non_null(strstr(out_buf, "      --json[=FILE]         JSON\n"));
	assert_null(strstr(out_buf, "secret"));
	usage_text(SM_OPT_SHORT_ONLY);
	assert_non_null(strstr(out_buf, "  -t N     number of threads\n"));
	assert_non_null(strstr(out_buf, "  -o       complete out of order\n"));
	assert_null(strstr(out_buf, "--"));
	assert_null(strstr(out_buf, "histogram"));
	assert_non_null(strstr(out_buf, "Test options:\n"));
	/* no line past 79 columns: long help is wrapped at word ends */
	for (const char *l = out_buf, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		assert_true(e - l <= 79);
	}
	usage_text(SM_OPT_USAGE_EQ);
	assert_non_null(strstr(out_buf, "--threads=N "));
}

/* The completion list: the names the usage shows, one a line, values as
 * the usage writes them, a choice's values after a tab; hidden options and
 * --list-options itself left out, and --list-options stops the parse. */
static void test_list(SM_UNUSED void **state)
{
	struct sm_opt t[32];
	FILE *f;
	int first, rc;

	table(t, 32);
	f = fmemopen(out_buf, sizeof(out_buf), "w");
	assert_non_null(f);
	sm_opt_list(f, t, 0);
	fclose(f);
	assert_string_equal(out_buf, "-o\n--out-of-order\n--histogram[=on|off]\n-t N\n--threads N\n-n N\n"
			    "--frames N\n--block-size SIZE\n-z KIB\n-u SECS\n--update SECS\n-f RATE\n"
			    "--fps RATE\n--rw-ratio R\n-x FILE\n--csv FILE\n--io-mode MODE\tsync|async|mmap\n"
			    "--even N\n--json[=FILE]\n-H\n--help\n--long-help\n");
	f = fmemopen(out_buf, sizeof(out_buf), "w");
	sm_opt_list(f, t, SM_OPT_SHORT_ONLY);
	fclose(f);
	assert_string_equal(out_buf, "-o\n-t N\n-n N\n-z KIB\n-u SECS\n-f RATE\n-x FILE\n-H\n");
	f = fmemopen(out_buf, sizeof(out_buf), "w");
	sm_opt_list(f, t, SM_OPT_USAGE_EQ);
	fclose(f);
	assert_non_null(strstr(out_buf, "\n--threads=N\n"));
	assert_null(strstr(out_buf, "list-options"));
	/* the hidden --list-options stops the parse */
	rc = parse_args(0, &first, ARGS("-t", "2", "--list-options", "d"));
	assert_int_equal(rc, SM_OPT_LIST_CODE);
}

static int take_name(const char *name, void *arg)
{
	char *seen = arg;

	if (!strcmp(name, "stop"))
		return -E2BIG;
	strcat(seen, name);
	strcat(seen, ";");
	return 0;
}

/* A comma-separated list: each name in order, empty ones skipped; the
 * callback's refusal names the entry; no name at all is -ENODATA. */
static void test_each(SM_UNUSED void **state)
{
	char seen[64] = "", bad[32];

	assert_int_equal(sm_opt_each("a,,b", take_name, seen, bad, sizeof(bad)), 0);
	assert_string_equal(seen, "a;b;");
	seen[0] = '\0';
	assert_int_equal(sm_opt_each("a,stop,c", take_name, seen, bad, sizeof(bad)), -E2BIG);
	assert_string_equal(seen, "a;");
	assert_string_equal(bad, "stop");
	assert_int_equal(sm_opt_each(",,", take_name, seen, bad, sizeof(bad)), -ENODATA);
	assert_string_equal(bad, ",,");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_bad_forms),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
