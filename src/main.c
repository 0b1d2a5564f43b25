/* SPDX-License-Identifier: MIT */
/* stormark: the command table, and dispatch by program name (a link named
 * frametest or sysbench runs that tool's compatible command). */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

struct sm_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct sm_command commands[] = {
	{ "run", cmd_run, "profile the storage here; verdicts for video formats (default)" },
	{ "frames", cmd_frames, "frame-sequence and streaming tests (frametest-compatible)" },
	{ "fileio", cmd_fileio, "file I/O test (sysbench fileio-compatible)" },
	{ "streams", cmd_streams, "how many real-time streams of a video format the storage holds" },
	{ "time", cmd_time, "time a command and account for its I/O" },
	{ "history", cmd_history, "list and compare runs saved by 'time --save'" },
	{ "report", cmd_report, "render a saved --json result again, in any of its layouts" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: stormark [--version] [--help] [COMMAND [ARGS]]\n\n"
		   "How fast is this storage for the work you will put on it?\n\n"
		   "Commands:\n");
	for (unsigned i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-9s %s\n", "help", "help on a command: stormark help frames");
	fprintf(f, "\nWith no command, 'stormark' runs 'stormark run' on the current directory.\n"
		   "Run as 'frametest' it takes frametest's command line; as 'sysbench',\n"
		   "sysbench's 'fileio' test. See stormark(1) and docs/.\n");
}

static const struct sm_command *find(const char *name)
{
	for (unsigned i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Pick the command by program name or first argument and run it. */
static int dispatch(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/');
	const struct sm_command *c;

	prog = prog ? prog + 1 : argv[0];
	if (!strcmp(prog, "frametest"))
		return cmd_frames(argc, argv);
	if (!strcmp(prog, "sysbench"))
		return cmd_sysbench(argc, argv);

	if (argc < 2) {
		char *run_argv[] = { "run", NULL };

		return cmd_run(1, run_argv);
	}
	if (argc > 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version") ||
			 !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return sm_usage_error("stormark", "stormark --help", "unexpected argument '%s' after '%s'",
				      argv[2], argv[1]);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("stormark %s\n", SM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		char *help_argv[] = { NULL, "--help", NULL };

		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		c = find(argv[2]);
		if (!c)
			return sm_usage_error("stormark", "stormark --help",
					      "unknown command '%s'", argv[2]);
		if (argc > 3)
			return sm_usage_error("stormark", "stormark --help",
					      "help takes one command, not also '%s'", argv[3]);
		help_argv[0] = (char *)c->name;
		return c->fn(2, help_argv);
	}
	c = find(argv[1]);
	if (!c) {
		if (argv[1][0] == '-' || argv[1][0] == '/' || argv[1][0] == '.') {
			/* options or a directory alone: they belong to `run` */
			argv[0] = "run";
			return cmd_run(argc, argv);
		}
		return sm_usage_error("stormark", "stormark --help", "unknown command '%s'", argv[1]);
	}
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return sm_out_finish(dispatch(argc, argv));
}
