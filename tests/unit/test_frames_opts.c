/* SPDX-License-Identifier: MIT */
/* Unit tests of the `stormark frames` / `frametest` command line: every
 * option in separate and attached form, presets and size/time units, long
 * options, --format resolution, bad values, and the "Test parameters" line. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "args/frames_opts.h"
#include "workload/memneed.h"
#include "core/compiler.h"
#include "helpers.h"
#include "core/fsx.h"
#include "core/formats.h"
#include "workload/frames.h"

#define SEC (1000000000ULL)   /* ns per second */

/* What the last parse printed (it must print nothing but usage errors). */
static char out_text[4096], err_text[4096];
static char cmdline[1024];

static void read_back(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static FILE *cap_out, *cap_err;
static int save_out = -1, save_err = -1;

/* Send stdout and stderr to temporary files until end_capture(). */
static void begin_capture(void)
{
	cap_out = tmpfile();
	cap_err = tmpfile();
	assert_non_null(cap_out);
	assert_non_null(cap_err);
	fflush(stdout);
	fflush(stderr);
	save_out = dup(STDOUT_FILENO);
	save_err = dup(STDERR_FILENO);
	assert_true(save_out >= 0 && save_err >= 0);
	assert_true(dup2(fileno(cap_out), STDOUT_FILENO) >= 0);
	assert_true(dup2(fileno(cap_err), STDERR_FILENO) >= 0);
}

/* Restore stdout and stderr; what was printed goes to out_text, err_text. */
static void end_capture(void)
{
	fflush(stdout);
	fflush(stderr);
	dup2(save_out, STDOUT_FILENO);
	dup2(save_err, STDERR_FILENO);
	close(save_out);
	close(save_err);
	read_back(cap_out, out_text, sizeof(out_text));
	read_back(cap_err, err_text, sizeof(err_text));
}

/* Parse NULL-terminated arguments (after the program name), capturing
 * what is printed. */
static int parse_va(int compat, struct sm_frames_opts *o, va_list ap)
{
	static char *argv[64];
	int argc = 0, rc;
	const char *a;

	argv[argc++] = compat ? "frametest" : "frames";
	snprintf(cmdline, sizeof(cmdline), "%s", argv[0]);
	while ((a = va_arg(ap, const char *)) && argc < 63) {
		size_t len = strlen(cmdline);

		argv[argc++] = (char *)a;
		snprintf(cmdline + len, sizeof(cmdline) - len, " '%s'", a);
	}
	argv[argc] = NULL;
	begin_capture();
	rc = sm_frames_opts_parse(argc, argv, compat, o);
	end_capture();
	return rc;
}

/* sm_frames_opts_validate(), capturing what is printed. */
static int validate(struct sm_frames_opts *o)
{
	int rc;

	begin_capture();
	rc = sm_frames_opts_validate(o);
	end_capture();
	return rc;
}

static int parse(int compat, struct sm_frames_opts *o, ...)
{
	va_list ap;
	int rc;

	va_start(ap, o);
	rc = parse_va(compat, o, ap);
	va_end(ap);
	return rc;
}

#define FT(o, ...) parse(1, (o), __VA_ARGS__, (const char *)NULL)
#define SM(o, ...) parse(0, (o), __VA_ARGS__, (const char *)NULL)

/* A parse that must succeed silently. */
static void expect_ok(int rc)
{
	if (rc != 0 || out_text[0] || err_text[0])
		fail_msg("%s: rc %d, stderr '%s'", cmdline, rc, err_text);
}

/* A usage error: exit code 2, one line on stderr naming the program and
 * the help hint, nothing on stdout. */
static void expect_usage_rc(int compat, int rc)
{
	const char *nl = strchr(err_text, '\n');
	const char *prog = compat ? "frametest: " : "stormark frames: ";

	if (rc != SM_EXIT_USAGE)
		fail_msg("%s: rc %d, expected %d", cmdline, rc, SM_EXIT_USAGE);
	if (!nl || nl[1] || strncmp(err_text, prog, strlen(prog)) || !strstr(err_text, "(try '"))
		fail_msg("%s: not one usage line: '%s'", cmdline, err_text);
	if (out_text[0])
		fail_msg("%s: printed to stdout: '%s'", cmdline, out_text);
}

#define FT_OK(o, ...) expect_ok(FT((o), __VA_ARGS__))
#define SM_OK(o, ...) expect_ok(SM((o), __VA_ARGS__))
#define FT_BAD(...) do { struct sm_frames_opts bad_; \
	expect_usage_rc(1, FT(&bad_, __VA_ARGS__)); } while (0)
#define SM_BAD(...) do { struct sm_frames_opts bad_; \
	expect_usage_rc(0, SM(&bad_, __VA_ARGS__)); } while (0)

/* The seed's command: presets resolved, the parameters line exact. */
static void test_seed_command(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_OK(&o, "-w", "2k", "-t", "4", "-n", "9000", "-x", "DPX_write.csv", "/data/set1");
	assert_int_equal(o.plan.kind, SM_FRAMES_WRITE);
	assert_int_equal(o.plan.frame_bytes, 12812288);
	assert_int_equal(o.plan.threads, 4);
	assert_int_equal(o.plan.nframes, 9000);
	assert_string_equal(o.plan.csv_path, "DPX_write.csv");
	assert_string_equal(o.plan.path, "/data/set1");
	assert_int_equal(o.plan.stream, 0);
	assert_int_equal(o.plan.depth, 0);
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w12512 -n9000 -t4");

	/* the same, attached, and with the path first (getopt permutes) */
	FT_OK(&o, "/data/set1", "-w2k", "-t4", "-n9000", "-xDPX_write.csv");
	assert_string_equal(o.plan.path, "/data/set1");
	assert_string_equal(o.plan.csv_path, "DPX_write.csv");
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w12512 -n9000 -t4");
	FT_OK(&o, "-w12512", "-n9000", "-t4", "/data/set1");
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w12512 -n9000 -t4");
}

/* Without options: a read of every frame present, frametest's defaults. */
static void test_defaults(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_OK(&o, "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.nframes, 0);
	assert_int_equal(o.plan.frame_bytes, 0);
	assert_int_equal(o.plan.threads, 1);
	assert_int_equal(o.plan.prebuffer, 5);
	assert_int_equal(o.plan.queue, 0);
	assert_int_equal(o.plan.ios_per_frame, 1);
	assert_int_equal(o.plan.crop_pct, 100);
	assert_int_equal(o.plan.update_ns, SEC);
	assert_int_equal(o.plan.direct, 1);
	assert_null(o.plan.csv_path);
	assert_null(o.plan.engine);
	assert_string_equal(o.prog, "frametest");
	FT_OK(&o, "-w", "64", "d");
	assert_int_equal(o.plan.nframes, 1800);
	assert_int_equal(o.plan.frame_bytes, 65536);
	SM_OK(&o, "d");
	assert_string_equal(o.prog, "stormark frames");
}

/* Every preset, frametest's four and stormark's, to exact bytes, by -w and -z. */
static void test_presets(SM_UNUSED void **state)
{
	static const struct { const char *name; uint64_t bytes; } tab[] = {
		{ "sd", 1449984 }, { "hd", 8359936 }, { "2k", 12812288 }, { "4k", 51052544 },
		{ "pal", 1724416 }, { "hd720", 3751936 }, { "fullhd", 8359936 },
		{ "2kdci", 8912896 }, { "uhd", 33243136 }, { "4kdci", 35454976 },
		{ "8k", 132775936 }, { "8kdci", 141623296 },
	};
	struct sm_frames_opts o;

	assert_int_equal(sizeof(tab) / sizeof(tab[0]), sm_nft_presets);
	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		char attached[32];

		FT_OK(&o, "-w", tab[i].name, "d");
		assert_int_equal(o.plan.kind, SM_FRAMES_WRITE);
		assert_int_equal(o.plan.frame_bytes, tab[i].bytes);
		assert_int_equal(o.w_kib * 1024, tab[i].bytes);
		snprintf(attached, sizeof(attached), "-w%s", tab[i].name);
		FT_OK(&o, attached, "d");
		assert_int_equal(o.plan.frame_bytes, tab[i].bytes);
		FT_OK(&o, "-r", "-z", tab[i].name, "d");
		assert_int_equal(o.plan.kind, SM_FRAMES_READ);
		assert_int_equal(o.plan.frame_bytes, tab[i].bytes);
		assert_int_equal(o.z_kib * 1024, tab[i].bytes);
	}
	FT_OK(&o, "-w", "2K", "d");   /* names are case-insensitive */
	assert_int_equal(o.plan.frame_bytes, 12812288);
	FT_OK(&o, "-w", "UHD", "d");
	assert_int_equal(o.plan.frame_bytes, 33243136);
	FT_BAD("-w", "2kk", "d");
	FT_BAD("-w", "16k", "d");
}

/* Sizes are frametest's KiB: no suffixes, no fractions, 1 KiB to 1 GiB. */
static void test_size_units(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_OK(&o, "-w", "1", "d");
	assert_int_equal(o.plan.frame_bytes, 1024);
	FT_OK(&o, "-w", "1048576", "d");
	assert_int_equal(o.plan.frame_bytes, SM_FRAMES_MAX_FRAME_BYTES);
	FT_OK(&o, "-w", "0008192", "d");
	assert_int_equal(o.plan.frame_bytes, 8192 * 1024);
	/* -z overrides -w's size; the test stays a write ("-w 1 -z 40000") */
	FT_OK(&o, "-w", "1", "-z", "40000", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_WRITE);
	assert_int_equal(o.plan.frame_bytes, 40000ULL * 1024);
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w40000 -n1800");
	/* -e with -z: empty frames, accepted ("-e -n 3000 -t 4 -z 4") */
	FT_OK(&o, "-e", "-n", "3000", "-t", "4", "-z", "4", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_EMPTY);
	assert_int_equal(o.plan.nframes, 3000);

	static const char *const bad[] = {
		"", "0", "1048577", "99999999999999999999999", "8M", "8m", "64k", "64KiB",
		"64b", "1.5", "-64", "+64", " 64", "64 ", "0x40", "huge",
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FT_BAD("-w", bad[i], "d");
		FT_BAD("-r", "-z", bad[i], "d");
		SM_BAD("--write", bad[i], "d");
		SM_BAD("--size", bad[i], "d");
	}
}

/* -p -u -h take seconds, fractions and the units ns us ms s m h. */
static void test_time_units(SM_UNUSED void **state)
{
	static const struct { const char *arg; uint64_t ns; } tab[] = {
		{ "2", 2 * SEC }, { "0.5", SEC / 2 }, { "1.25", 1250000000ULL }, { "250ms", 250000000ULL },
		{ "1500us", 1500000ULL }, { "5ns", 5 }, { "3s", 3 * SEC }, { "2m", 120 * SEC },
		{ "1min", 60 * SEC }, { "1h", 3600 * SEC }, { "0.5s", SEC / 2 }, { "007", 7 * SEC },
	};
	struct sm_frames_opts o;

	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		char att[32];

		FT_OK(&o, "-p", tab[i].arg, "d");
		assert_int_equal(o.plan.pause_ns, tab[i].ns);
		snprintf(att, sizeof(att), "-u%s", tab[i].arg);
		FT_OK(&o, att, "d");
		assert_int_equal(o.plan.update_ns, tab[i].ns);
		FT_OK(&o, "-h", tab[i].arg, "d");
		assert_int_equal(o.plan.hist_window_ns, tab[i].ns);
		SM_OK(&o, "--time", tab[i].arg, "d");
		assert_int_equal(o.plan.time_limit_ns, tab[i].ns);
	}
	/* -p 0 is no pause; -u, -h and --time need more than 0 */
	FT_OK(&o, "-p", "0", "d");
	assert_int_equal(o.plan.pause_ns, 0);
	FT_OK(&o, "-p0ms", "d");
	assert_int_equal(o.plan.pause_ns, 0);
	FT_BAD("-u", "0", "d");
	FT_BAD("-h", "0", "d");
	FT_BAD("-u", "0.0", "d");
	SM_BAD("--time", "0", "d");
	SM_BAD("--time", "0s", "d");

	static const char *const bad[] = {
		"", "-1", "-0.5", "x", "1x", "1sec", "1 s", "1S", ".", "1..2", "1e3",
		"99999999999",   /* 1e20 ns: out of range */
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FT_BAD("-p", bad[i], "d");
		FT_BAD("-u", bad[i], "d");
		FT_BAD("-h", bad[i], "d");
		SM_BAD("--pause", bad[i], "d");
		SM_BAD("--update", bad[i], "d");
		SM_BAD("--hist-window", bad[i], "d");
		SM_BAD("--time", bad[i], "d");
	}
}

/* Parse "frametest OPT VAL d" and "frametest OPTVAL d" into o[0] and o[1].
 * The plan keeps pointers into argv (path, csv_path), as a program's argv
 * lives as long as it does: the attached argument must outlive this call. */
static void both_forms(const char *opt, const char *val, struct sm_frames_opts o[2])
{
	static char att[64];

	snprintf(att, sizeof(att), "%s%s", opt, val);
	FT_OK(&o[0], opt, val, "d");
	FT_OK(&o[1], att, "d");
	assert_string_equal(o[0].plan.path, "d");
	assert_string_equal(o[1].plan.path, "d");
}

/* Every frametest option with a value, separate and attached. */
static void test_value_options(SM_UNUSED void **state)
{
	struct sm_frames_opts o[2];

	both_forms("-w", "12512", o);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(o[i].plan.kind, SM_FRAMES_WRITE);
		assert_int_equal(o[i].plan.frame_bytes, 12812288);
		assert_int_equal(o[i].w_set, 1);
	}
	both_forms("-n", "9000", o);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(o[i].plan.nframes, 9000);
		assert_int_equal(o[i].n_set, 1);
		assert_int_equal(o[i].plan.kind, SM_FRAMES_READ);
	}
	both_forms("-a", "4", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.depth, 4);
	both_forms("-t", "16", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.threads, 16);
	both_forms("-f", "23.976", o);
	for (int i = 0; i < 2; i++) {
		assert_true(o[i].plan.fps == 23.976);
		assert_int_equal(o[i].plan.queue, 8);   /* max(8, -b 5) */
		assert_int_equal(o[i].plan.prebuffer, 5);
	}
	both_forms("-q", "3", o);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(o[i].plan.queue, 3);
		assert_int_equal(o[i].q_set, 1);
	}
	both_forms("-b", "12", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.prebuffer, 12);
	both_forms("-l", "5", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.loop, 5);
	both_forms("-l", "0", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.loop, 0);
	both_forms("-i", "4", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.ios_per_frame, 4);
	both_forms("-z", "8192", o);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(o[i].z_kib, 8192);
		assert_int_equal(o[i].plan.frame_bytes, 8388608);
		assert_int_equal(o[i].plan.kind, SM_FRAMES_READ);
	}
	both_forms("-d", "100", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.files_per_dir, 100);
	both_forms("-p", "2", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.pause_ns, 2 * SEC);
	both_forms("-c", "50", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.crop_pct, 50);
	both_forms("-u", "2", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.update_ns, 2 * SEC);
	both_forms("-h", "30", o);
	for (int i = 0; i < 2; i++)
		assert_int_equal(o[i].plan.hist_window_ns, 30 * SEC);
	both_forms("-x", "frames.csv", o);
	for (int i = 0; i < 2; i++)
		assert_string_equal(o[i].plan.csv_path, "frames.csv");
}

/* The limits that are documented: edges accepted, one past refused. */
static void test_value_limits(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_OK(&o, "-n", "68719476720", "d");   /* 16 x UINT32_MAX */
	assert_int_equal(o.plan.nframes, 68719476720ULL);
	FT_OK(&o, "-a", "1024", "-t", "1024", "-i", "1024", "d");
	assert_int_equal(o.plan.depth, 1024);
	assert_int_equal(o.plan.threads, 1024);
	assert_int_equal(o.plan.ios_per_frame, 1024);
	FT_OK(&o, "-q", "4096", "-b", "4096", "-f", "100000", "d");
	assert_int_equal(o.plan.queue, 4096);
	assert_int_equal(o.plan.prebuffer, 4096);
	assert_true(o.plan.fps == 100000);
	FT_OK(&o, "-c", "1", "-d", "4294967295", "-l", "68719476720", "d");
	assert_int_equal(o.plan.crop_pct, 1);
	assert_int_equal(o.plan.files_per_dir, 4294967295U);
	assert_int_equal(o.plan.loop, 68719476720ULL);
	FT_OK(&o, "-c", "100", "-f", "0.001", "d");
	assert_int_equal(o.plan.crop_pct, 100);
	assert_true(o.plan.fps == 0.001);
}

/* Bad values of every numeric option: non-numeric, negative, zero where
 * not allowed, past the limit, fractions, empty; short and long forms. */
static void test_bad_values(SM_UNUSED void **state)
{
	static const struct {
		const char *opt, *lopt;
		const char *bad[8];
	} tab[] = {
		{ "-n", "--frames", { "0", "68719476721", "99999999999999999999999" } },
		{ "-a", "--async", { "0", "1025" } },
		{ "-t", "--threads", { "0", "1025" } },
		{ "-q", "--queue", { "0", "4097" } },
		{ "-b", "--prebuffer", { "0", "4097" } },
		{ "-l", "--loop", { "68719476721" } },
		{ "-i", "--ios", { "0", "1025" } },
		{ "-d", "--dirs", { "0", "4294967296" } },
		{ "-c", "--crop", { "0", "101", "150" } },
		{ "-f", "--fps", { "0", "0.0", "100000.5", "100001", "1e3", "24fps", "23,976", "." } },
	};
	/* what no numeric option takes */
	static const char *const common[] = { "", "x", "many", "-1", "-5", "1.5", "+3", "3 ", "0x10", "2k" };

	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		int is_fps = !strcmp(tab[i].opt, "-f");

		for (unsigned j = 0; j < sizeof(tab[i].bad) / sizeof(tab[i].bad[0]) && tab[i].bad[j]; j++) {
			char att[64];

			snprintf(att, sizeof(att), "%s%s", tab[i].opt, tab[i].bad[j]);
			FT_BAD(tab[i].opt, tab[i].bad[j], "d");
			FT_BAD(att, "d");
			SM_BAD(tab[i].lopt, tab[i].bad[j], "d");
		}
		for (unsigned j = 0; j < sizeof(common) / sizeof(common[0]); j++) {
			if (is_fps && !strcmp(common[j], "1.5"))
				continue;   /* a rate may be fractional */
			FT_BAD(tab[i].opt, common[j], "d");
			SM_BAD(tab[i].lopt, common[j], "d");
		}
		/* the option last, without its value */
		FT_BAD("d", tab[i].opt);
		SM_BAD("d", tab[i].lopt);
	}
	FT_BAD("-x", "", "d");
	SM_BAD("--csv", "", "d");
	FT_BAD("-w");
	FT_BAD("d", "-x");
	/* the value-less options refuse attached text: it is read as more options */
	FT_BAD("-rk", "d");
	FT_BAD("-ek", "d");
}

/* Flags alone and clustered; the last test kind and order win. */
static void test_flags(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_OK(&o, "-e", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_EMPTY);
	assert_int_equal(o.plan.frame_bytes, 0);
	assert_int_equal(o.plan.nframes, 1800);
	assert_int_equal(o.e_set, 1);
	FT_OK(&o, "-r", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.r_set, 1);
	FT_OK(&o, "-s", "file");
	assert_int_equal(o.plan.stream, 1);
	assert_string_equal(o.plan.path, "file");
	FT_OK(&o, "-o", "d");
	assert_int_equal(o.plan.out_of_order, 1);
	FT_OK(&o, "-v", "d");
	assert_int_equal(o.plan.order, SM_ORDER_REVERSE);
	FT_OK(&o, "-m", "d");
	assert_int_equal(o.plan.order, SM_ORDER_RANDOM);

	FT_OK(&o, "-sro", "f");
	assert_int_equal(o.plan.stream, 1);
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.out_of_order, 1);
	FT_OK(&o, "-son9000", "f");   /* a cluster ending in an attached value */
	assert_int_equal(o.plan.stream, 1);
	assert_int_equal(o.plan.out_of_order, 1);
	assert_int_equal(o.plan.nframes, 9000);
	FT_OK(&o, "-sw", "64", "f");
	assert_int_equal(o.plan.stream, 1);
	assert_int_equal(o.plan.frame_bytes, 65536);
	/* one test and one order at a time, whatever the order given */
	FT_BAD("-e", "-w", "64", "d");
	FT_BAD("-w", "64", "-e", "d");
	FT_BAD("-w", "64", "-r", "d");
	FT_BAD("-r", "-w", "64", "d");
	FT_BAD("-e", "-r", "d");
	FT_BAD("-r", "-e", "d");
	FT_BAD("-v", "-m", "d");
	FT_BAD("-m", "-v", "d");
	FT_OK(&o, "-e", "-z", "4", "d");   /* a quoted frametest line: -z with -e is taken */
}

/* Path rules, unknown options, help. */
static void test_paths_and_help(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	FT_BAD("-w", "64");
	FT_BAD("-w", "64", "a", "b");
	SM_BAD("-w", "64");
	SM_BAD((const char *)NULL);
	FT_BAD("-k", "d");
	FT_BAD("-W", "64", "d");
	SM_BAD("--bogus", "d");
	SM_BAD("-k", "d");
	/* frametest with no arguments prints its help; frametest's -h takes a value */
	assert_int_equal(FT(&o, NULL), SM_FRAMES_OPTS_HELP);
	assert_string_equal(err_text, "");
	FT_BAD("-h");
	assert_int_equal(SM(&o, "--help"), SM_FRAMES_OPTS_HELP);
	assert_int_equal(SM(&o, "--list-formats"), SM_FRAMES_OPTS_LIST);
	assert_int_equal(SM(&o, "-w", "64", "--list-formats", "d"), SM_FRAMES_OPTS_LIST);
	assert_string_equal(out_text, "");
	assert_string_equal(err_text, "");
	/* a usage text for each name */
	assert_non_null(strstr(sm_frames_ft_usage, "usage: frametest [options] path\n"));
	assert_non_null(strstr(sm_frames_long_usage, "--format NAME"));
}

/* Every long option of `stormark frames`, and the short ones it also takes. */
static void test_long_options(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	SM_OK(&o, "--write", "2k", "--frames", "9000", "--threads", "4", "--csv", "x.csv", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_WRITE);
	assert_int_equal(o.plan.frame_bytes, 12812288);
	assert_int_equal(o.plan.nframes, 9000);
	assert_int_equal(o.plan.threads, 4);
	assert_string_equal(o.plan.csv_path, "x.csv");
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w12512 -n9000 -t4");
	SM_OK(&o, "--write=8192", "--stream", "f");
	assert_int_equal(o.plan.frame_bytes, 8388608);
	assert_int_equal(o.plan.stream, 1);
	SM_OK(&o, "--empty", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_EMPTY);
	SM_OK(&o, "--read", "--size", "40", "--async", "8", "--out-of-order", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.frame_bytes, 40960);
	assert_int_equal(o.plan.depth, 8);
	assert_int_equal(o.plan.out_of_order, 1);
	SM_OK(&o, "--fps", "25", "--queue", "3", "--prebuffer", "2", "d");
	assert_true(o.plan.fps == 25);
	assert_int_equal(o.plan.queue, 3);
	assert_int_equal(o.plan.prebuffer, 2);
	SM_OK(&o, "--fps=50", "--prebuffer=20", "d");
	assert_int_equal(o.plan.queue, 20);   /* max(8, -b) */
	SM_OK(&o, "--reverse", "d");
	assert_int_equal(o.plan.order, SM_ORDER_REVERSE);
	SM_OK(&o, "--random", "d");
	assert_int_equal(o.plan.order, SM_ORDER_RANDOM);
	SM_OK(&o, "--loop", "7", "--ios", "3", "--dirs", "50", "--crop", "25", "d");
	assert_int_equal(o.plan.loop, 7);
	assert_int_equal(o.plan.ios_per_frame, 3);
	assert_int_equal(o.plan.files_per_dir, 50);
	assert_int_equal(o.plan.crop_pct, 25);
	SM_OK(&o, "--pause", "1.5", "--update", "250ms", "--hist-window", "10", "d");
	assert_int_equal(o.plan.pause_ns, 1500000000ULL);
	assert_int_equal(o.plan.update_ns, 250000000ULL);
	assert_int_equal(o.plan.hist_window_ns, 10 * SEC);
	SM_OK(&o, "--json", "out.json", "--engine", "null", "--buffered", "--quiet", "d");
	assert_string_equal(o.json, "out.json");
	assert_string_equal(o.plan.engine, "null");
	assert_int_equal(o.plan.direct, 0);
	assert_int_equal(o.plan.quiet, 1);
	SM_OK(&o, "--json=-", "d");
	assert_string_equal(o.json, "-");
	SM_OK(&o, "--data", "zero", "--seed", "42", "--time", "90s", "d");
	assert_int_equal(o.plan.data, SM_DATA_ZERO);
	assert_int_equal(o.plan.seed, 42);
	assert_int_equal(o.plan.time_limit_ns, 90 * SEC);
	SM_OK(&o, "--data=random", "--seed=18446744073709551615", "d");
	assert_int_equal(o.plan.data, SM_DATA_RANDOM);
	assert_true(o.plan.seed == UINT64_MAX);
	/* short options and attached forms work in stormark frames too */
	SM_OK(&o, "-w2k", "-t4", "-n9000", "d");
	assert_int_equal(o.plan.frame_bytes, 12812288);
	assert_int_equal(o.plan.threads, 4);
	/* an unambiguous prefix is accepted (getopt_long) */
	SM_OK(&o, "--thr", "3", "d");
	assert_int_equal(o.plan.threads, 3);

	SM_BAD("--data", "one", "d");
	SM_BAD("--data", "", "d");
	SM_BAD("--data", "ZERO", "d");
	SM_BAD("--seed", "0", "d");
	SM_BAD("--seed", "-1", "d");
	SM_BAD("--seed", "x", "d");
	SM_BAD("--seed", "18446744073709551616", "d");
	SM_BAD("--empty=1", "d");          /* flags take no value */
	SM_BAD("--f", "24", "d");          /* ambiguous: --fps, --frames, --format */
	/* --json[=FILE] as in every command: with no FILE the JSON is the
	 * report; the older separate form still takes "-" or a *.json name */
	SM_OK(&o, "d", "--json");
	assert_string_equal(o.json, "-");
	assert_string_equal(o.plan.path, "d");
	SM_OK(&o, "--json", "d");
	assert_string_equal(o.json, "-");
	assert_string_equal(o.plan.path, "d");
	SM_OK(&o, "--json", "-", "d");
	assert_string_equal(o.json, "-");
	SM_OK(&o, "--json=r", "d");
	assert_string_equal(o.json, "r");
	SM_BAD("d", "--engine");
}

/* Under the frametest name every long option of stormark frames is known
 * too (frametest's own command line had none); the short ones stay
 * frametest's. */
static void test_compat_takes_long(SM_UNUSED void **state)
{
	static const char *const names[] = {
		"--write=64", "--empty", "--read", "--stream", "--frames=5", "--async=2",
		"--threads=2", "--out-of-order", "--fps=24", "--queue=2", "--prebuffer=2",
		"--reverse", "--random", "--loop=2", "--ios=2", "--size=64", "--dirs=2",
		"--pause=1", "--crop=50", "--update=1", "--hist-window=1", "--csv=x.csv",
		"--json=x.json", "--engine=null", "--buffered", "--data=zero", "--seed=1",
		"--time=1", "--quiet", "--format=dpx-2k", "--capture", "--play",
		"--list-formats", "--help",
	};
	struct sm_frames_opts o;

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		err_text[0] = '\0';
		FT(&o, "-w", "64", names[i], "d");
		if (strstr(err_text, "unknown option"))
			fail_msg("%s: %s", cmdline, err_text);
		err_text[0] = '\0';
		SM(&o, "-w", "64", names[i], "d");
		if (strstr(err_text, "unknown option"))
			fail_msg("%s: %s", cmdline, err_text);
	}
	FT_OK(&o, "--write", "64", "d");
	assert_int_equal(o.plan.frame_bytes, 65536);
	FT_OK(&o, "-w", "64", "--quiet", "--buffered", "d");
	assert_int_equal(o.plan.quiet, 1);
	assert_int_equal(o.plan.direct, 0);
	FT_BAD("--bogus", "d");
	/* -o is frametest's out-of-order (no value), -h its histogram window */
	FT_OK(&o, "-w", "64", "-o", "-h", "5", "d");
	assert_int_equal(o.plan.out_of_order, 1);
	assert_int_equal(o.plan.hist_window_ns, 5000000000ULL);
}

/* --format NAME --fps F --capture|--play: the format's frame, 10 s of video. */
static void test_format(SM_UNUSED void **state)
{
	struct sm_frames_opts o;
	struct sm_format f;

	SM_OK(&o, "--format", "dpx-2k", "--fps", "24", "--capture", "d");
	assert_string_equal(o.format, "dpx-2k");
	assert_int_equal(o.capture, 1);
	assert_int_equal(o.plan.kind, SM_FRAMES_WRITE);
	assert_int_equal(o.plan.frame_bytes, 12750848);   /* docs/formats.md */
	assert_int_equal(o.plan.nframes, 240);
	assert_true(o.plan.fps == 24);
	assert_int_equal(o.plan.queue, 8);
	assert_int_equal(o.plan.prebuffer, 5);
	assert_string_equal(o.plan.path, "d");
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w12452 -n240 -f24 -q8 -b5");

	SM_OK(&o, "--format=DPX-2K", "--fps=23.976", "--play", "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.frame_bytes, 12750848);
	assert_int_equal(o.plan.nframes, 240);   /* 239.76 rounded */
	SM_OK(&o, "--format", "dpx-hd", "-f", "29.97", "--play", "d");
	assert_int_equal(o.plan.nframes, 300);
	SM_OK(&o, "--format", "dpx-hd", "--fps", "24", "--capture", "-n", "50", "d");
	assert_int_equal(o.plan.nframes, 50);
	/* at least the prebuffer; the queue follows -b */
	SM_OK(&o, "--format", "dpx-hd", "--fps", "24", "--play", "-n", "3", "-b", "12", "d");
	assert_int_equal(o.plan.nframes, 12);
	assert_int_equal(o.plan.queue, 12);
	SM_OK(&o, "--format", "dpx-hd", "--fps", "24", "--play", "-q", "2", "d");
	assert_int_equal(o.plan.queue, 2);

	/* every format of the table resolves to its frame size */
	for (unsigned i = 0; sm_format_at(i, &f) == 0; i++) {
		SM_OK(&o, "--format", f.name, "--fps", "25", "--capture", "d");
		assert_int_equal(o.plan.frame_bytes, f.frame_bytes);
		assert_int_equal(o.plan.nframes, 250);
	}
	assert_true(sm_format_count() > 10);

	SM_BAD("--format", "dpx-99k", "--fps", "24", "--capture", "d");
	SM_BAD("--format", "", "--fps", "24", "--capture", "d");
	SM_BAD("--format", "dpx-2k", "--fps", "24", "d");              /* neither */
	SM_BAD("--format", "dpx-2k", "--fps", "24", "--capture", "--play", "d");
	SM_BAD("--format", "dpx-2k", "--capture", "d");                /* no --fps */
	SM_BAD("--format", "dpx-2k", "--fps", "0", "--capture", "d");
	SM_BAD("--format", "dpx-2k", "--fps", "24", "--capture");      /* no directory */
	SM_BAD("--capture", "-w", "64", "d");
	SM_BAD("--play", "d");
	SM_BAD("d", "--format");
}

/* The parser can run again in one process: nothing of the last parse
 * (options, getopt's place in a cluster) leaks into the next. */
static void test_repeated_parse(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	/* stops inside the cluster "-kn5": the rest must not be read later */
	FT_BAD("-kn5", "d");
	FT_OK(&o, "-w", "64", "d");
	assert_int_equal(o.plan.nframes, 1800);
	assert_int_equal(o.plan.frame_bytes, 65536);
	assert_string_equal(o.plan.path, "d");

	FT_BAD("-sn");
	FT_OK(&o, "-o", "d");
	assert_int_equal(o.plan.out_of_order, 1);
	assert_int_equal(o.plan.stream, 0);

	assert_int_equal(SM(&o, "--help", "-w", "64", "d"), SM_FRAMES_OPTS_HELP);
	SM_OK(&o, "-w", "8", "e");
	assert_int_equal(o.plan.frame_bytes, 8192);
	assert_string_equal(o.plan.path, "e");

	FT_OK(&o, "-e", "-n", "4", "-t", "2", "-x", "a.csv", "d");
	FT_OK(&o, "d");
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.threads, 1);
	assert_null(o.plan.csv_path);
	assert_int_equal(o.w_set + o.e_set + o.r_set, 0);
	assert_int_equal(o.n_set, 0);
}

/* The "Test parameters" line: attached form, fixed order, presets in KiB,
 * display options left out. */
static void test_params(SM_UNUSED void **state)
{
	static const struct { const char *args[24]; const char *want; } tab[] = {
		{ { "-s", "-w", "8192", "/data/set1/testfile1" }, "-w8192 -s -n1800" },
		{ { "-w", "64", "-n", "4", "-f", "50", "-q", "3", "-b", "2", "-a", "2", "-o", "-i", "2",
		    "-d", "2", "d" }, "-w64 -n4 -a2 -o -f50 -q3 -b2 -i2 -d2" },
		{ { "-w64", "-n4", "-a2", "-o", "-f500", "-q3", "-b2", "-i2", "-d2", "-p0.1", "-v",
		    "-t2", "-l2", "d" }, "-w64 -n4 -a2 -t2 -o -f500 -q3 -b2 -v -l2 -i2 -d2 -p0.1" },
		{ { "-e", "-n", "4", "-t", "2", "d" }, "-e -n4 -t2" },
		{ { "-r", "-n", "4", "-c", "50", "-u", "2", "-h", "3", "-x", "r.csv", "-m", "d" },
		  "-r -n4 -m -c50" },
		{ { "-w", "hd", "-f", "23.976", "d" }, "-w8164 -n1800 -f23.976 -q8 -b5" },
		{ { "-w", "sd", "-p", "1.5", "-t", "1", "d" }, "-w1416 -n1800 -p1.5" },
		{ { "-w", "4k", "-p", "250ms", "d" }, "-w49856 -n1800 -p0.25" },
		{ { "-r", "-z", "2k", "-n", "10", "-c", "100", "d" }, "-r -z12512 -n10" },
		{ { "-w", "uhd", "-l", "0", "-i", "1", "d" }, "-w32464 -n1800" },
	};
	struct sm_frames_opts o;

	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		const char *const *a = tab[i].args;

		FT_OK(&o, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
		      a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]);
		sm_frames_opts_params(&o);
		if (strcmp(o.params, tab[i].want))
			fail_msg("%s: '%s', expected '%s'", cmdline, o.params, tab[i].want);
	}
	/* the long names give the same line */
	SM_OK(&o, "--write", "64", "--frames", "4", "--async", "2", "--out-of-order", "--fps", "50",
	      "--queue", "3", "--prebuffer", "2", "--ios", "2", "--dirs", "2", "--update", "5",
	      "--json", "x.json", "--quiet", "d");
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-w64 -n4 -a2 -o -f50 -q3 -b2 -i2 -d2");
}

/* --video-format, the old --format spelling with its notice, and the
 * output flags of docs/options.md. */
static void test_output_flags(SM_UNUSED void **state)
{
	struct sm_frames_opts o;

	SM_OK(&o, "--video-format", "dpx-2k", "--fps", "24", "--capture", "d");
	assert_string_equal(o.format, "dpx-2k");
	assert_null(o.notice);
	assert_int_equal(o.plan.frame_bytes, 12750848);
	assert_int_equal(o.out.layout, SM_LAYOUT_FRAMETEST);
	SM_OK(&o, "--format", "dpx-2k", "--fps", "24", "--capture", "d");
	assert_non_null(o.notice);                 /* printed by the command */
	assert_non_null(strstr(o.notice, "--video-format"));
	SM_OK(&o, "-w", "64", "--format", "json", "d");
	assert_null(o.format);
	assert_int_equal(o.out.layout, SM_LAYOUT_JSON);
	assert_null(o.out.json_file);
	SM_OK(&o, "-w", "64", "--format=frametest", "--json", "r.json", "--output", "rep.txt", "d");
	assert_int_equal(o.out.layout, SM_LAYOUT_FRAMETEST);
	assert_string_equal(o.out.json_file, "r.json");
	assert_string_equal(o.out.output, "rep.txt");
	SM_OK(&o, "-w", "64", "--json", "-", "d");
	assert_int_equal(o.out.layout, SM_LAYOUT_JSON);
	assert_null(o.out.json_file);
	SM_OK(&o, "-w", "64", "--quiet", "d");
	assert_int_equal(o.out.quiet, 1);
	SM_OK(&o, "-w", "64", "--format", "markdown", "d");
	assert_int_equal(o.out.layout, SM_LAYOUT_MARKDOWN);
	SM_OK(&o, "-w", "64", "--format=csv", "d");
	assert_int_equal(o.out.layout, SM_LAYOUT_CSV);
	SM_BAD("-w", "64", "--format", "timeit", "d");            /* not a frames layout */
	SM_BAD("-w", "64", "--format", "sysbench", "d");
	SM_BAD("-w", "64", "--format", "frametest", "--json", "-", "d");
	SM_BAD("--video-format", "json", "--fps", "24", "--capture", "d");
	SM_BAD("--video-format", "dpx-99k", "--fps", "24", "--capture", "d");
	FT_BAD("--video-format=dpx-2k", "d");   /* without --fps */
	FT_OK(&o, "--output=x", "d");             /* stormark's long options, frametest name */
	assert_string_equal(o.out.output, "x");
	/* the help: frametest's short options only; stormark's also long */
	assert_non_null(strstr(sm_frames_long_usage, "--video-format NAME"));
}

static char tmpdir[PATH_MAX];

static int make_tmpdir(SM_UNUSED void **state)
{
	t_tmpdir(tmpdir, sizeof(tmpdir), "frames_opts");
	return 0;
}

/* The seed's stream read "-s -z 8192 -r FILE": without -n the frames are
 * counted from the file's size (here a sparse file of 5 frames). */
static void test_stream_read_params(SM_UNUSED void **state)
{
	struct sm_frames_opts o;
	char path[PATH_MAX + 32], msg[512];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/testfile1", tmpdir);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 5 * 8388608LL), 0);
	close(fd);
	FT_OK(&o, "-s", "-z", "8192", "-r", path);
	assert_int_equal(o.plan.kind, SM_FRAMES_READ);
	assert_int_equal(o.plan.stream, 1);
	assert_int_equal(o.plan.frame_bytes, 8388608);
	assert_int_equal(o.plan.nframes, 0);
	rc = sm_frames_check(&o.plan, msg, sizeof(msg));
	if (rc)
		fail_msg("check: %d %s", rc, msg);
	assert_int_equal(o.plan.nframes, 5);
	sm_frames_opts_params(&o);
	assert_string_equal(o.params, "-r -s -z8192 -n5");
	unlink(path);
}

/* Checks after parsing: engine name, the CSV's directory, buffer memory. */
static void test_validate(SM_UNUSED void **state)
{
	struct sm_frames_opts o;
	char csv[PATH_MAX + 32];

	SM_OK(&o, "-w", "64", "--engine", "null", "d");
	assert_int_equal(validate(&o), 0);
	assert_string_equal(err_text, "");
	SM_OK(&o, "-w", "64", "--engine", "psync", "-a", "4", "-t", "2", "d");
	assert_int_equal(validate(&o), 0);
	SM_OK(&o, "-w", "64", "--engine", "bogus", "d");
	expect_usage_rc(0, validate(&o));
	assert_non_null(strstr(err_text, "'bogus'"));

	snprintf(csv, sizeof(csv), "%s/x.csv", tmpdir);
	FT_OK(&o, "-w", "64", "-x", csv, "d");
	assert_int_equal(validate(&o), 0);
	snprintf(csv, sizeof(csv), "%s/nodir/x.csv", tmpdir);
	FT_OK(&o, "-w", "64", "-x", csv, "d");
	expect_usage_rc(1, validate(&o));
	FT_OK(&o, "-w", "64", "-x", tmpdir, "d");
	expect_usage_rc(1, validate(&o));

	/* 1024 threads x 1024 frames in flight x 1 GiB: more than any RAM,
	 * refused by cmd/frames.c's memory check (tests/cli/memlimit.sh), on
	 * the need counted here */
	FT_OK(&o, "-w", "1048576", "-a", "1024", "-t", "1024", "d");
	assert_int_equal(validate(&o), 0);
	{
		char what[160];

		assert_true(sm_frames_mem_need(&o.plan, what, sizeof(what)) >= 1ULL << 50);
		assert_string_equal(what, "the frame buffers (1.00 GiB x 1024 threads x 1024 frames in flight)");
	}
}

static int remove_tmpdir(SM_UNUSED void **state)
{
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_command),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_size_units),
		cmocka_unit_test(test_time_units),
		cmocka_unit_test(test_value_options),
		cmocka_unit_test(test_value_limits),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_paths_and_help),
		cmocka_unit_test(test_long_options),
		cmocka_unit_test(test_compat_takes_long),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_output_flags),
		cmocka_unit_test(test_repeated_parse),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_stream_read_params),
		cmocka_unit_test(test_validate),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
