/* SPDX-License-Identifier: MIT */
/* The output flags shared by the commands: the layouts' resolution
 * against what a command can render, and the report file. */
#include "args/out_opts.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/fsx.h"
#include "core/outfile.h"

int sm_out_json_next(const char *arg)
{
	size_t n = strlen(arg);

	return !strcmp(arg, "-") || (n > 5 && !strcmp(arg + n - 5, ".json"));
}

/* "frametest or json", "text, timeit, csv or json" */
static void list_layouts(unsigned have, char *buf, size_t len)
{
	unsigned k = 0, total = 0;
	size_t n = 0;

	for (unsigned i = 1; sm_layout_name((enum sm_layout)i)[0] != '?'; i++)
		total += !!(have & SM_LAYOUT_BIT(i));
	buf[0] = '\0';
	for (unsigned i = 1; sm_layout_name((enum sm_layout)i)[0] != '?' && n < len; i++) {
		if (!(have & SM_LAYOUT_BIT(i)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k == 0 ? "" : k + 1 == total ? " or " : ", ",
				      sm_layout_name((enum sm_layout)i));
		k++;
	}
}

int sm_out_resolve(struct sm_out_opts *o, const char *cmd, unsigned have, enum sm_layout dflt,
		   char *msg, size_t len)
{
	int json_report = o->json && (!*o->json || !strcmp(o->json, "-"));
	enum sm_layout l = dflt;
	char list[128];

	list_layouts(have, list, sizeof(list));
	if (o->format) {
		l = sm_layout_find(o->format);
		if (!l) {
			char expected[160];

			snprintf(expected, sizeof(expected), "a report layout: %s", list);
			sm_opt_bad_value(msg, len, "--format", o->format, expected);
			return -EINVAL;
		}
		if (!(have & SM_LAYOUT_BIT(l))) {
			snprintf(msg, len, "the %s layout is not available for %s (%s)", o->format, cmd, list);
			return -EINVAL;
		}
	}
	if (o->json && !(have & SM_LAYOUT_BIT(SM_LAYOUT_JSON))) {
		snprintf(msg, len, "the json layout is not available for %s (%s)", cmd, list);
		return -EINVAL;
	}
	if (o->json && !json_report && o->format && l == SM_LAYOUT_JSON) {
		snprintf(msg, len, "--format json makes the JSON the report; it cannot go with "
			 "--json=FILE (use -o FILE to put the report in a file)");
		return -EINVAL;
	}
	if (json_report && o->format && l != SM_LAYOUT_JSON) {
		snprintf(msg, len, "--json with no FILE makes JSON the report; it cannot go with "
			 "--format %s (use --json=FILE)", o->format);
		return -EINVAL;
	}
	if (o->html && !(have & (SM_OUT_HTML_FILE | SM_LAYOUT_BIT(SM_LAYOUT_HTML)))) {
		snprintf(msg, len, "--html is not available for %s (yet)", cmd);
		return -EINVAL;
	}
	o->layout = json_report ? SM_LAYOUT_JSON : l;
	o->json_file = o->json && !json_report ? o->json : NULL;
	if (o->output && strcmp(o->output, "-") && sm_out_check_path("-o/--output", o->output, msg, len))
		return -EINVAL;
	if (o->json_file && sm_out_check_path("--json", o->json_file, msg, len))
		return -EINVAL;
	if (o->html && sm_out_check_path("--html", o->html, msg, len))
		return -EINVAL;
	if (o->live && strcmp(o->live, "-") && sm_out_check_path("--live", o->live, msg, len))
		return -EINVAL;
	if (o->live && !strcmp(o->live, "-") && (!o->output || !strcmp(o->output, "-"))) {
		snprintf(msg, len, "--live - and the report would both go to stdout; give the report "
			 "a file with -o FILE, or --live a file");
		return -EINVAL;
	}
	return sm_out_apart(o, NULL, 0, NULL, msg, len);
}

/* path with its directory resolved: "/abs/dir/name" (the whole path
 * resolved when it exists, a symbolic link followed). Returns 0 or
 * -errno. */
static int canon(const char *path, char *out, size_t len)
{
	char dir[4096], real[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (realpath(path, real))
		return snprintf(out, len, "%s", real) >= (int)len ? -ENAMETOOLONG : 0;
	if (sm_parent_dir(path, dir, sizeof(dir)) || !realpath(dir, real))
		return -ENOENT;
	return snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path) >= (int)len
	       ? -ENAMETOOLONG : 0;
}

/* 1 when f exists, its identity in *st: the file at its path, or for an
 * is_stdin input the file open as standard input */
static int file_stat(const struct sm_out_file *f, struct stat *st)
{
	return f->is_stdin ? !fstat(STDIN_FILENO, st) : !stat(f->path, st);
}

/* 1 when a and b are one file (sm_out_apart()); both_out: two outputs, which
 * /dev/null or a FIFO may take together */
static int same_file(const struct sm_out_file *a, const struct sm_out_file *b, int both_out)
{
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	struct stat sa, sb;
	int ea = file_stat(a, &sa), eb = file_stat(b, &sb);

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !(both_out && !S_ISREG(sa.st_mode));
	if (ea || eb || a->is_stdin || b->is_stdin)
		return 0;
	return !canon(a->path, ca, sizeof(ca)) && !canon(b->path, cb, sizeof(cb)) && !strcmp(ca, cb);
}

/* 1 when path is one of area's names */
static int in_area(const char *path, const struct sm_out_area *area)
{
	char cp[PATH_MAX + 256], dir[PATH_MAX];
	size_t n;

	if (!area || !area->dir || !realpath(area->dir, dir) || canon(path, cp, sizeof(cp)))
		return 0;
	n = strlen(dir);
	if (n == 1)
		n = 0;   /* "/" */
	return !strncmp(cp, dir, n) && cp[n] == '/' && area->own(cp + n + 1);
}

int sm_out_apart(const struct sm_out_opts *o, const struct sm_out_file *files, unsigned n,
		 const struct sm_out_area *area, char *msg, size_t len)
{
	struct sm_out_file all[4 + 8];
	unsigned k = 0;

	if (o->output && strcmp(o->output, "-"))
		all[k++] = (struct sm_out_file){ "-o/--output", o->output, 1, 0 };
	if (o->json_file)
		all[k++] = (struct sm_out_file){ "--json", o->json_file, 1, 0 };
	if (o->html)
		all[k++] = (struct sm_out_file){ "--html", o->html, 1, 0 };
	if (o->live && strcmp(o->live, "-"))
		all[k++] = (struct sm_out_file){ "--live", o->live, 1, 0 };
	for (unsigned i = 0; i < n && k < sizeof(all) / sizeof(all[0]); i++)
		if (files[i].is_stdin ? !files[i].written
		    : files[i].path && *files[i].path && strcmp(files[i].path, "-"))
			all[k++] = files[i];
	for (unsigned i = 0; i < k; i++) {
		if (!all[i].written)
			continue;
		for (unsigned j = 0; j < k; j++) {
			if (j == i || (all[j].written && j < i) || !same_file(&all[i], &all[j], all[j].written))
				continue;
			if (all[j].is_stdin)
				snprintf(msg, len, "cannot write %s '%s': it is %s, read from standard input; "
					 "an output never replaces an input or another output", all[i].what,
					 all[i].path, all[j].what);
			else
				snprintf(msg, len, "cannot write %s '%s': it is %s%s '%s'; an output never "
					 "replaces an input or another output", all[i].what, all[i].path,
					 all[j].what[0] == '-' ? "the file of " : "", all[j].what, all[j].path);
			return -EINVAL;
		}
		if (in_area(all[i].path, area)) {
			snprintf(msg, len, "cannot write %s '%s': it is the name of %s in '%s'", all[i].what,
				 all[i].path, area->what, area->dir);
			return -EINVAL;
		}
	}
	return 0;
}

int sm_out_check_path(const char *flag, const char *path, char *msg, size_t len)
{
	const char *why;
	char dir[4096];
	int d = 0;

	if (!*path) {
		snprintf(msg, len, "%s needs a file name, not an empty one", flag);
		return -EINVAL;
	}
	if (sm_parent_dir(path, dir, sizeof(dir)) || (d = sm_is_dir(dir)) != 1) {
		snprintf(msg, len, "cannot write %s '%s': %s", flag, path,
			 d == -ENOTDIR ? "its parent is not a directory" : "its directory does not exist");
		return -EINVAL;
	}
	if ((why = sm_outfile_kind_problem(path))) {
		snprintf(msg, len, "cannot write %s '%s': %s (an output is a new or regular file, a FIFO "
			 "or /dev/null)", flag, path, why);
		return -EINVAL;
	}
	/* access() answers for the real user and reports EROFS even to root */
	if (access(path, F_OK) == 0 ? access(path, W_OK) : access(dir, W_OK | X_OK)) {
		snprintf(msg, len, "cannot write %s '%s': %s", flag, path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}
