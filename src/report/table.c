/* SPDX-License-Identifier: MIT */
/* A table as aligned text, markdown or CSV. */
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

void sm_table_title(const struct sm_table *t, const char *title)
{
	if (t->style == SM_TABLE_TEXT)   /* as is: it may carry a long path */
		fprintf(t->f, "%s\n", title);
	else if (t->style == SM_TABLE_MARKDOWN)
		fprintf(t->f, "## %s\n\n", title);
}

/* A markdown cell: a '|' would end it early, a line break the row. */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc(' ', f);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Words of s from column col on, wrapped at SM_TABLE_WIDTH, continuation
 * lines indented by indent; a word longer than a line (a path) stays
 * whole. */
static void wrap(FILE *f, const char *s, unsigned col, unsigned indent)
{
	while (*s) {
		size_t gap = strspn(s, " "), n = strcspn(s + gap, " ");

		if (!n)
			break;
		if (col > indent && col + gap + n > SM_TABLE_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			s += gap;
			gap = 0;
		}
		fwrite(s, 1, gap + n, f);
		col += (unsigned)(gap + n);
		s += gap + n;
	}
	fputc('\n', f);
}

/* The length of the longest word of s. */
static size_t longest_word(const char *s)
{
	size_t most = 0;

	while (*s) {
		size_t n;

		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (n > most)
			most = n;
		s += n;
	}
	return most;
}

/* An aligned text row, without the blanks that padding leaves at its end.
 * It fits SM_TABLE_WIDTH columns: a first cell longer than its column
 * stands on a line of its own (the row below it, that column empty), and
 * the free columns at the end (width 0) wrap under where they start, or
 * under column 4 when that leaves too little room. */
static void text_row(const struct sm_table *t, const char *const *cells)
{
	char *line = NULL;
	size_t len = 0, fixed = 0;
	unsigned free_from = t->ncols;
	const char *first = cells[0] ? cells[0] : "";
	FILE *m;

	if (t->ncols > 1 && t->cols[0].left && t->cols[0].width > 0 &&
	    strlen(first) > (size_t)t->cols[0].width) {
		const char *rest[32];

		fprintf(t->f, "%s\n", first);
		for (unsigned i = 0; i < t->ncols && i < 32; i++)
			rest[i] = i ? cells[i] : "";
		text_row(&(struct sm_table){ t->f, t->style, t->cols, t->ncols < 32 ? t->ncols : 32 }, rest);
		return;
	}
	while (free_from > 0 && !t->cols[free_from - 1].width && t->cols[free_from - 1].left)
		free_from--;
	m = open_memstream(&line, &len);
	for (unsigned i = 0; m && i < t->ncols; i++) {
		const struct sm_table_col *c = &t->cols[i];

		if (i == free_from) {
			fflush(m);
			fixed = len;
		}
		fprintf(m, c->left ? "%s%-*s" : "%s%*s", c->sep ? c->sep : "", c->width,
			cells[i] ? cells[i] : "");
	}
	if (!m || fclose(m)) {   /* out of memory: the cells as they come */
		for (unsigned i = 0; i < t->ncols; i++)
			fprintf(t->f, "%s%s", i ? " " : "", cells[i] ? cells[i] : "");
		fputc('\n', t->f);
		free(line);
		return;
	}
	while (len && line[len - 1] == ' ')
		len--;
	if (len > SM_TABLE_WIDTH && free_from < t->ncols && fixed < len) {
		size_t start = fixed, lead = 0;

		/* the free columns start after their separator */
		if (t->cols[free_from].sep)
			lead = strlen(t->cols[free_from].sep);
		start = fixed + lead;
		line[len] = '\0';
		/* too little room after the fixed columns, or a word (a path)
		 * that does not fit there: the free text on the lines below */
		if (start + 24 > SM_TABLE_WIDTH || start + longest_word(line + start) > SM_TABLE_WIDTH) {
			while (fixed && line[fixed - 1] == ' ')
				fixed--;
			fprintf(t->f, "%.*s\n    ", (int)fixed, line);
			wrap(t->f, line + start, 4, 4);
		} else {
			fprintf(t->f, "%.*s", (int)start, line);
			wrap(t->f, line + start, (unsigned)start, (unsigned)start);
		}
		free(line);
		return;
	}
	fprintf(t->f, "%.*s\n", (int)len, line);
	free(line);
}

static void row(const struct sm_table *t, const char *const *cells)
{
	if (t->style == SM_TABLE_TEXT) {
		text_row(t, cells);
		return;
	}
	for (unsigned i = 0; i < t->ncols; i++) {
		const char *s = cells[i] ? cells[i] : "";

		if (t->style == SM_TABLE_MARKDOWN) {
			md_cell(t->f, s);
		} else {
			if (i)
				fputc(',', t->f);
			csv_cell(t->f, s);
		}
	}
	fputs(t->style == SM_TABLE_MARKDOWN ? "|\n" : "\n", t->f);
}

void sm_table_head(const struct sm_table *t)
{
	const char *names[32] = { NULL };
	unsigned n = t->ncols < 32 ? t->ncols : 32;

	for (unsigned i = 0; i < n; i++)
		names[i] = t->cols[i].name;
	row(&(struct sm_table){ t->f, t->style, t->cols, n }, names);
	if (t->style != SM_TABLE_MARKDOWN)
		return;
	for (unsigned i = 0; i < n; i++)
		fputs(t->cols[i].left ? "|---" : "|--:", t->f);
	fputs("|\n", t->f);
}

void sm_table_row(const struct sm_table *t, const char *const *cells)
{
	row(t, cells);
}

void sm_table_note(const struct sm_table *t, const char *note)
{
	if (t->style == SM_TABLE_TEXT)
		wrap(t->f, note, 0, 0);
	else if (t->style == SM_TABLE_MARKDOWN)
		fprintf(t->f, "\n%s\n", note);
}
