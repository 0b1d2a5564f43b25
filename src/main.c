/* SPDX-License-Identifier: MIT */
/* stormark: the command table, and dispatch by program name (a link named
 * frametest or sysbench runs that tool's compatible command). */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/emit.h"
#include "cmd/features.h"
#include "args/out_opts.h"
#include "core/formats.h"
#include "engine/engine.h"
#include "mpi/job.h"

struct sm_command {
	const char *name;
	int (*fn)(int argc, char **argv, struct sm_job *job);
	const char *summary;
};

static const struct sm_command commands[] = {
	{ "run", cmd_run, "profile the storage here; verdicts for video formats (default)" },
	{ "frames", cmd_frames, "frame-sequence and streaming tests (frametest-compatible)" },
	{ "fileio", cmd_fileio, "file I/O test (sysbench fileio-compatible)" },
	{ "streams", cmd_streams, "how many real-time streams of a video format the storage holds" },
	{ "meta", cmd_meta, "metadata work of image sequences: create, stat, probe, list, delete" },
	{ "time", cmd_time, "time a command and account for its I/O" },
	{ "history", cmd_history, "list the runs saved by --save, a key's runs, as text or JSON" },
	{ "compare", cmd_compare, "compare two saved results or history keys, figure by figure" },
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
		   "sysbench's 'fileio' test. Under mpirun or srun, frames, fileio, run,\n"
		   "streams and meta run as one job across the ranks (--stonewall,\n"
		   "--mpi-wait=SECS, --mpi-rank-detail=FILE; each rank in DIR/rank.N,\n"
		   "or one set in DIR with --mpi-files=shared, meta's --shared-dir;\n"
		   "docs/mpi.md).\n"
		   "See stormark(1) and docs/.\n");
}

static const struct sm_command *find(const char *name)
{
	for (unsigned i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * The hidden lists for shell completion (scripts/stormark.bash-completion)
 * and the tests that keep it and the man page in step with the tables, one
 * name a line: --list-commands, --list-options CMD (the command's table:
 * sm_opt_list(); CMD may be frametest or sysbench), --list-video-formats,
 * --list-presets (frametest's -w sizes), --list-engines, --list-layouts
 * (every layout; with CMD, those CMD's --format takes, from its render
 * table).
 * Returns -1 when argv[1] is none of them, else the exit code.
 */
static int list(int argc, char **argv, struct sm_job *job)
{
	const char *what = argv[1];
	struct sm_format f;

	if (strncmp(what, "--list-", 7))
		return -1;
	if (!strcmp(what, "--list-options")) {
		char *sub[] = { argc > 2 ? argv[2] : NULL, "--list-options", NULL };
		const struct sm_command *c = argc == 3 ? find(argv[2]) : NULL;

		if (argc == 3 && !strcmp(argv[2], "frametest"))
			return cmd_frames(2, sub, job);
		if (argc == 3 && !strcmp(argv[2], "sysbench")) {
			sub[0] = "fileio";   /* the same table, values attached */
			return cmd_fileio(2, sub, job);
		}
		if (argc != 3)
			return sm_usage_error("stormark", "stormark --help", "--list-options takes one command");
		if (!c)
			return sm_usage_error("stormark", "stormark --help", "unknown command '%s'", argv[2]);
		return c->fn(2, sub, job);
	}
	if (argc == 3 && !strcmp(what, "--list-layouts")) {
		/* CMD's, from its render table, as its --format takes them */
		const struct sm_render *r = sm_render_command(strcmp(argv[2], "frametest") ? argv[2] : "frames");

		if (!r)
			return sm_usage_error("stormark", "stormark --help", "--list-layouts: '%s' has no "
					      "render table", argv[2]);
		for (const struct sm_layout_row *row = r->rows; row->layout; row++)
			if (!(row->flags & SM_ROW_SAVED))
				printf("%s\n", sm_layout_name(row->layout));
		return 0;
	}
	if (argc > 2) {   /* --list-layouts takes one command: the next is the extra one */
		int extra = strcmp(what, "--list-layouts") ? 2 : 3;

		return sm_usage_error("stormark", "stormark --help", "unexpected argument '%s' after '%s'",
				      argv[extra], argv[extra - 1]);
	}
	if (!strcmp(what, "--list-commands")) {
		for (unsigned i = 0; i < NCOMMANDS; i++)
			printf("%s\n", commands[i].name);
		printf("help\n");
	} else if (!strcmp(what, "--list-video-formats")) {
		for (unsigned i = 0; sm_format_at(i, &f) == 0; i++)
			printf("%s\n", f.name);
	} else if (!strcmp(what, "--list-presets")) {
		for (unsigned i = 0; i < sm_nft_presets; i++)
			printf("%s\n", sm_ft_presets[i].name);
	} else if (!strcmp(what, "--list-engines")) {
		for (unsigned i = 0; sm_engines[i]; i++)
			printf("%s\n", sm_engines[i]->name);
	} else if (!strcmp(what, "--list-layouts")) {
		for (enum sm_layout l = SM_LAYOUT_FRAMETEST; sm_layout_name(l)[0] != '?'; l++)
			printf("%s\n", sm_layout_name(l));
	} else {
		return -1;
	}
	return 0;
}

/* Pick the command by program name or first argument and run it. */
static int dispatch(int argc, char **argv, struct sm_job *job)
{
	const char *prog = strrchr(argv[0], '/');
	const struct sm_command *c;
	int rc;

	prog = prog ? prog + 1 : argv[0];
	if (!strcmp(prog, "frametest"))
		return cmd_frames(argc, argv, job);
	if (!strcmp(prog, "sysbench"))
		return cmd_sysbench(argc, argv, job);

	if (argc < 2) {
		char *run_argv[] = { "run", NULL };

		return cmd_run(1, run_argv, job);
	}
	rc = list(argc, argv, job);
	if (rc >= 0)
		return rc;
	if (argc > 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version") ||
			 !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return sm_usage_error("stormark", "stormark --help", "unexpected argument '%s' after '%s'",
				      argv[2], argv[1]);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		sm_features_print(stdout, 1);
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
		return c->fn(2, help_argv, job);
	}
	c = find(argv[1]);
	if (!c) {
		if (argv[1][0] == '-' || argv[1][0] == '/' || argv[1][0] == '.') {
			/* options or a directory alone: they belong to `run` */
			argv[0] = "run";
			return cmd_run(argc, argv, job);
		}
		return sm_usage_error("stormark", "stormark --help", "unknown command '%s'", argv[1]);
	}
	return c->fn(argc - 1, argv + 1, job);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const char *prog = !strcmp(base ? base + 1 : argv[0], "frametest") ? "frametest" : "stormark";
	struct sm_job job;
	int rc = sm_job_start(&job, &argc, argv);   /* alone, or a rank of an MPI job */

	if (rc)
		return sm_out_finish(prog, rc);
	return sm_out_finish(prog, sm_job_finish(&job, dispatch(argc, argv, &job)));
}
