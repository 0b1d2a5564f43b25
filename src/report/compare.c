/* SPDX-License-Identifier: MIT */
/* The comparison of two sets of runs as text, markdown and JSON: every
 * figure with both sides' means, the ratio B/A and Welch's p-value. */
#include "report/compare.h"
#include "report/streams.h"
#include "core/units.h"
#include "result/json.h"

#include <math.h>
#include <string.h>

char *sm_cmp_fmt(char *buf, size_t len, enum sm_cmp_unit u, double v)
{
	char t[48];

	switch (u) {
	case SM_CU_NS:
		return sm_fmt_ns(buf, len, v);
	case SM_CU_BPS:
		snprintf(buf, len, "%s/s", sm_fmt_bytes(t, sizeof(t), v));
		return buf;
	case SM_CU_BYTES:
		return sm_fmt_bytes(buf, len, v);
	case SM_CU_RATE:
		snprintf(buf, len, "%.*f/s", v < 100 ? 2 : 1, v);
		return buf;
	case SM_CU_PCT:
		snprintf(buf, len, "%.1f%%", v);
		return buf;
	case SM_CU_MS:
		snprintf(buf, len, "%.0f ms", v);
		return buf;
	case SM_CU_COUNT:
		snprintf(buf, len, v == floor(v) ? "%.0f" : "%.2f", v);
		return buf;
	default:
		snprintf(buf, len, "%g", v);
		return buf;
	}
}

const char *sm_cmp_unit_name(enum sm_cmp_unit u)
{
	static const char *const names[] = { "ns", "bytes_per_s", "per_s", "count", "bytes", "pct",
					     "ms", "verdict" };

	return (unsigned)u < sizeof(names) / sizeof(names[0]) ? names[u] : "?";
}

/* A side's cell: the verdict, the mean (with its deviation over several
 * runs), or "-" when the side lacks the figure. */
const char *sm_cmp_side_cell(char *buf, size_t len, const struct sm_cmp_row *r, int b, int sd)
{
	unsigned n = b ? r->nb : r->na;
	char m[48], s[48];

	if (!n)
		return "-";
	if (r->unit == SM_CU_VERDICT)
		return b ? r->verdict_b : r->verdict_a;
	sm_cmp_fmt(m, sizeof(m), r->unit, b ? r->mean_b : r->mean_a);
	if (sd && n > 1) {
		sm_cmp_fmt(s, sizeof(s), r->unit, b ? r->sd_b : r->sd_a);
		snprintf(buf, len, "%s +- %s", m, s);
	} else {
		snprintf(buf, len, "%s", m);
	}
	return buf;
}

const char *sm_cmp_ratio_cell(char *buf, size_t len, const struct sm_cmp_row *r)
{
	if (r->unit == SM_CU_VERDICT)
		return !r->na || !r->nb ? "-" : strcmp(r->verdict_a, r->verdict_b) ? "changed" : "same";
	if (isnan(r->ratio))
		return "-";
	snprintf(buf, len, "%.3f", r->ratio);
	return buf;
}

const char *sm_cmp_p_cell(char *buf, size_t len, const struct sm_cmp_row *r)
{
	if (!r->tested)
		return "-";
	if (isnan(r->w.p))
		return "no spread";
	if (r->w.p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", r->w.p);
	return buf;
}

const char *sm_cmp_judge_cell(const struct sm_cmp_row *r)
{
	if (!r->tested)
		return "";
	if (!r->significant)
		return "n.s.";
	return r->change > 0 ? "better" : r->change < 0 ? "worse" : "differs";
}

static void heading(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n, const char *bullet)
{
	fprintf(f, "%sA: %s '%s' (%u result%s, %u run%s)\n", bullet, n->is_key[0] ? "key" : "file",
		n->name[0], c->ndocs_a, c->ndocs_a == 1 ? "" : "s", c->nruns_a, c->nruns_a == 1 ? "" : "s");
	fprintf(f, "%sB: %s '%s' (%u result%s, %u run%s)\n", bullet, n->is_key[1] ? "key" : "file",
		n->name[1], c->ndocs_b, c->ndocs_b == 1 ? "" : "s", c->nruns_b, c->nruns_b == 1 ? "" : "s");
}

/* The text's width: every line fits an 80-column terminal. */
#define CMP_WIDTH 79

/* The widest of w and s. */
static int wider(int w, const char *s)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

/* The standard deviation of side b of r as the text shows it ("-" when
 * it has none), into buf. */
static const char *sd_cell(char *buf, size_t len, const struct sm_cmp_row *r, int b)
{
	char t[64];
	const char *pm = strstr(sm_cmp_side_cell(t, sizeof(t), r, b, 1), " +- ");

	snprintf(buf, len, "%s", pm ? pm + 4 : "-");
	return buf;
}

/* The column widths of the text's table: each as wide as its widest cell
 * (sd: the means with their deviations). Returns the width of the
 * columns after the label. */
static int widths(const struct sm_cmp *c, int sd, int w[6])
{
	char a[64], b[64], r[32], p[32];

	w[0] = 6, w[1] = 1, w[2] = 1, w[3] = 3, w[4] = 1, w[5] = 0;
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct sm_cmp_row *x = &c->rows[i];

		w[0] = wider(w[0], x->label);
		w[1] = wider(w[1], sm_cmp_side_cell(a, sizeof(a), x, 0, sd));
		w[2] = wider(w[2], sm_cmp_side_cell(b, sizeof(b), x, 1, sd));
		w[3] = wider(w[3], sm_cmp_ratio_cell(r, sizeof(r), x));
		w[4] = wider(w[4], sm_cmp_p_cell(p, sizeof(p), x));
		w[5] = wider(w[5], sm_cmp_judge_cell(x));
	}
	return 2 + w[1] + 2 + w[2] + 2 + w[3] + 2 + w[4] + (w[5] ? 1 + w[5] : 0);
}

/* A row's label: beside its figures, or on a line of its own above them
 * when it is wider than the label column (lw). */
static void label_cell(FILE *f, int lw, const char *label)
{
	if ((int)strlen(label) > lw)
		fprintf(f, "%s\n%-*s", label, lw, "");
	else
		fprintf(f, "%-*s", lw, label);
}

void sm_cmp_print_text(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n)
{
	char a[64], b[64], r[32], p[32];
	int w[6], figs, sd = 1, lw;

	fprintf(f, "stormark compare: %s runs\n", c->command);
	heading(f, c, n, "  ");
	for (unsigned i = 0; i < c->nnotes; i++)
		sm_streams_wrapf(f, 6, "note: %s", c->notes[i]);
	/* The table fits 80 columns: when the means with their deviations
	 * do not, the deviations go in a second table; a label that still
	 * does not fit stands on a line of its own above its figures. */
	figs = widths(c, sd, w);
	if (w[0] + figs > CMP_WIDTH) {
		sd = 0;
		figs = widths(c, sd, w);
	}
	lw = w[0] + figs > CMP_WIDTH ? (CMP_WIDTH - figs > 6 ? CMP_WIDTH - figs : 6) : w[0];
	fprintf(f, "\n%-*s  %*s  %*s  %*s  %*s\n", lw, "figure", w[1], "A", w[2], "B", w[3], "B/A", w[4], "p");
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct sm_cmp_row *x = &c->rows[i];
		const char *j = sm_cmp_judge_cell(x);

		label_cell(f, lw, x->label);
		fprintf(f, "  %*s  %*s  %*s  %*s%s%s\n", w[1], sm_cmp_side_cell(a, sizeof(a), x, 0, sd),
			w[2], sm_cmp_side_cell(b, sizeof(b), x, 1, sd), w[3], sm_cmp_ratio_cell(r, sizeof(r), x),
			w[4], sm_cmp_p_cell(p, sizeof(p), x), *j ? " " : "", j);
	}
	if (!sd) {
		int da = 4, db = 4;

		for (unsigned i = 0; i < c->nrows; i++) {
			da = wider(da, sd_cell(a, sizeof(a), &c->rows[i], 0));
			db = wider(db, sd_cell(b, sizeof(b), &c->rows[i], 1));
		}
		lw = w[0] + 2 + da + 2 + db > CMP_WIDTH ? CMP_WIDTH - 4 - da - db : w[0];
		fprintf(f, "\n%-*s  %*s  %*s\n", lw, "standard deviation", da, "A", db, "B");
		for (unsigned i = 0; i < c->nrows; i++) {
			label_cell(f, lw, c->rows[i].label);
			fprintf(f, "  %*s  %*s\n", da, sd_cell(a, sizeof(a), &c->rows[i], 0), db,
				sd_cell(b, sizeof(b), &c->rows[i], 1));
		}
	}
	fputc('\n', f);
	sm_streams_wrapf(f, 0, "A and B are means (+- the standard deviation over repeated runs%s); B/A "
			 "is their ratio; p is Welch's two-sided t-test, shown when both sides have 2 or "
			 "more runs: better or worse at p < %g, n.s. (not significant) otherwise.",
			 sd ? "" : ", in the second table", c->alpha);
}

void sm_cmp_print_md(FILE *f, const struct sm_cmp *c, const struct sm_cmp_names *n)
{
	char a[64], b[64], r[32], p[32];

	fprintf(f, "### stormark compare: %s runs\n\n", c->command);
	heading(f, c, n, "- ");
	for (unsigned i = 0; i < c->nnotes; i++)
		fprintf(f, "- **note:** %s\n", c->notes[i]);
	fprintf(f, "\n| figure | A | B | B/A | p | |\n|---|--:|--:|--:|--:|---|\n");
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct sm_cmp_row *x = &c->rows[i];

		fprintf(f, "| %s | %s | %s | %s | %s | %s |\n", x->label,
			sm_cmp_side_cell(a, sizeof(a), x, 0, 1), sm_cmp_side_cell(b, sizeof(b), x, 1, 1),
			sm_cmp_ratio_cell(r, sizeof(r), x), sm_cmp_p_cell(p, sizeof(p), x), sm_cmp_judge_cell(x));
	}
	fprintf(f, "\nMeans (+- standard deviation over repeated runs); p: Welch's two-sided t-test "
		"(significant at p < %g).\n", c->alpha);
}

static cJSON *side_json(const struct sm_cmp_row *r, int b)
{
	cJSON *o = cJSON_CreateObject();
	unsigned n = b ? r->nb : r->na;

	if (!o)
		return NULL;
	sm_json_add_u64(o, "n", n);
	if (r->unit == SM_CU_VERDICT) {
		if (n)
			cJSON_AddStringToObject(o, "verdict", b ? r->verdict_b : r->verdict_a);
		else
			cJSON_AddNullToObject(o, "verdict");
	} else if (n) {
		sm_json_add_double(o, "mean", b ? r->mean_b : r->mean_a);
		sm_json_add_double(o, "stddev", b ? r->sd_b : r->sd_a);
	} else {
		cJSON_AddNullToObject(o, "mean");
		cJSON_AddNullToObject(o, "stddev");
	}
	return o;
}

cJSON *sm_cmp_json(const struct sm_cmp *c, const struct sm_cmp_names *n)
{
	cJSON *doc = cJSON_CreateObject(), *t, *arr;

	if (!doc)
		return NULL;
	sm_json_add_u64(doc, "schema_version", 1);
	t = cJSON_AddObjectToObject(doc, "tool");
	cJSON_AddStringToObject(t, "name", "stormark");
	cJSON_AddStringToObject(t, "version", SM_VERSION);
	cJSON_AddStringToObject(doc, "compare", c->command);
	sm_json_add_double(doc, "alpha", c->alpha);
	for (int i = 0; i < 2; i++) {
		t = cJSON_AddObjectToObject(doc, i ? "b" : "a");
		cJSON_AddStringToObject(t, "kind", n->is_key[i] ? "key" : "file");
		cJSON_AddStringToObject(t, "name", n->name[i]);
		sm_json_add_u64(t, "results", i ? c->ndocs_b : c->ndocs_a);
		sm_json_add_u64(t, "runs", i ? c->nruns_b : c->nruns_a);
	}
	arr = cJSON_AddArrayToObject(doc, "notes");
	for (unsigned i = 0; arr && i < c->nnotes; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(c->notes[i]));
	arr = cJSON_AddArrayToObject(doc, "figures");
	for (unsigned i = 0; arr && i < c->nrows; i++) {
		const struct sm_cmp_row *r = &c->rows[i];
		cJSON *o = cJSON_CreateObject(), *w;

		if (!o)
			break;
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", r->name);
		cJSON_AddStringToObject(o, "label", r->label);
		cJSON_AddStringToObject(o, "unit", sm_cmp_unit_name(r->unit));
		cJSON_AddNumberToObject(o, "better", r->better);
		cJSON_AddItemToObject(o, "a", side_json(r, 0));
		cJSON_AddItemToObject(o, "b", side_json(r, 1));
		if (r->unit == SM_CU_VERDICT)
			cJSON_AddItemToObject(o, "changed", r->na && r->nb ?
					      cJSON_CreateBool(strcmp(r->verdict_a, r->verdict_b) != 0)
					      : cJSON_CreateNull());
		else
			sm_json_add_double(o, "ratio", r->ratio);
		if (r->tested) {
			w = cJSON_AddObjectToObject(o, "welch");
			sm_json_add_double(w, "t", r->w.t);
			sm_json_add_double(w, "df", r->w.df);
			sm_json_add_double(w, "p", r->w.p);
			cJSON_AddBoolToObject(w, "significant", r->significant);
			cJSON_AddStringToObject(w, "change", r->change > 0 ? "better" : r->change < 0
						? "worse" : r->significant ? "differs" : "none");
		} else {
			cJSON_AddNullToObject(o, "welch");
		}
	}
	return doc;
}
