/* SPDX-License-Identifier: MIT */
/* A table as aligned text, markdown or CSV. */
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

void sm_table_title(const struct sm_table *t, const char *title)
{
	if (t->style == SM_TABLE_TEXT)
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

/* An aligned text row, without the blanks that padding leaves at its end. */
static void text_row(const struct sm_table *t, const char *const *cells)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	for (unsigned i = 0; m && i < t->ncols; i++) {
		const struct sm_table_col *c = &t->cols[i];

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
		fprintf(t->f, "%s\n", note);
	else if (t->style == SM_TABLE_MARKDOWN)
		fprintf(t->f, "\n%s\n", note);
}
