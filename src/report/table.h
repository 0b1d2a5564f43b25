/* SPDX-License-Identifier: MIT */
/* One table, three layouts: aligned text columns, a GitHub-flavoured
 * markdown table, or CSV (RFC 4180 quoting), from the same header and
 * rows, for reports that are lists of rows (history). Formats no figure:
 * cells are strings the caller made. */
#ifndef SM_REPORT_TABLE_H
#define SM_REPORT_TABLE_H

#include <stdio.h>

enum sm_table_style { SM_TABLE_TEXT, SM_TABLE_MARKDOWN, SM_TABLE_CSV };

/* The text layout's width: a row and a note fit an 80-column
 * terminal (text_row in table.c says how a row that would not is laid
 * out). */
#define SM_TABLE_WIDTH 79

/* A column: its header, and for text its width, alignment and the
 * separator printed before it ("" for the first, "  " for two blanks). */
struct sm_table_col {
	const char *name;
	int width;
	int left;            /* 1: left-aligned (text), and --- in markdown */
	const char *sep;
};

struct sm_table {
	FILE *f;
	enum sm_table_style style;
	const struct sm_table_col *cols;
	unsigned ncols;
};

/* A title line: text as is, markdown as a "## " heading with a blank line
 * after it, nothing in CSV (its first line is the header). */
void sm_table_title(const struct sm_table *t, const char *title);

/* The header row (markdown: and its |---| line). */
void sm_table_head(const struct sm_table *t);

/* One row of t->ncols cells (NULL: empty); a text row ends at its last
 * character, not in the padding of its last column. */
void sm_table_row(const struct sm_table *t, const char *const *cells);

/* A note under the table: text wrapped at SM_TABLE_WIDTH, markdown after a blank line,
 * nothing in CSV. */
void sm_table_note(const struct sm_table *t, const char *note);

#endif
