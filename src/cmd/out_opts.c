/* SPDX-License-Identifier: MIT */
/* The output flags shared by the commands: the layouts' resolution
 * against what a command can render, and the report file. */
#include "cmd/out_opts.h"

#include <errno.h>
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
