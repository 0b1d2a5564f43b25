/* SPDX-License-Identifier: MIT */
/* The checker's shared helpers (util.h), under every body's checks and
 * calling nothing of check/ but the registry (inv.c): tolerant readers of
 * a document's figures, comparisons that count themselves, figures as a
 * text layout prints them (a line found by its label, the numbers of a
 * line with their units, a CSV field by its column's name, a printed
 * figure judged within its rounding) and the helpers of the layout checks. */
#include "check/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading ---- */

const cJSON *ck_at(const cJSON *o, const char *path)
{
	char key[96];

	while (o && *path) {
		size_t n = strcspn(path, ".");
		char *end;

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		path += n + (path[n] == '.');
		if (cJSON_IsArray(o) && key[0] >= '0' && key[0] <= '9') {
			unsigned long i = strtoul(key, &end, 10);

			o = *end || i > 1000000 ? NULL : cJSON_GetArrayItem(o, (int)i);
		} else {
			o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
		}
	}
	return o;
}

int ck_num(const cJSON *o, const char *path, double *v)
{
	const cJSON *x = ck_at(o, path);

	if (!cJSON_IsNumber(x))
		return 0;
	*v = x->valuedouble;
	return 1;
}

int ck_bool(const cJSON *o, const char *path, int *v)
{
	const cJSON *x = ck_at(o, path);

	if (!cJSON_IsBool(x))
		return 0;
	*v = cJSON_IsTrue(x);
	return 1;
}

const char *ck_str(const cJSON *o, const char *path)
{
	const cJSON *x = ck_at(o, path);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

int ck_u64(double x, uint64_t *v)
{
	if (!(x >= 0) || x >= 18446744073709551616.0 || x != floor(x))
		return 0;
	*v = (uint64_t)x;
	return 1;
}

int ck_sum(const cJSON *a, double *sum, unsigned *n)
{
	const cJSON *it;

	*sum = 0;
	*n = 0;
	if (!cJSON_IsArray(a))
		return 0;
	cJSON_ArrayForEach(it, a) {
		if (cJSON_IsNumber(it))
			*sum += it->valuedouble;
		(*n)++;
	}
	return 1;
}

/* ---- comparing ---- */

const char *ck_fmt(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
		return buf;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* Count one comparison; on failure record "AN is A, <rel> BN (B)" or, for
 * equality, "AN is A, BN is B". */
static int judge(struct sm_check *c, int ok, const char *id, const char *an, double a,
		 const char *rel, const char *bn, double b)
{
	char x[40], y[40];

	c->evaluated++;
	if (ok)
		return 1;
	if (rel)
		sm_check_fail(c, id, "%s is %s, %s %s (%s)", an, ck_fmt(x, sizeof(x), a), rel, bn,
			      ck_fmt(y, sizeof(y), b));
	else
		sm_check_fail(c, id, "%s is %s, %s is %s", an, ck_fmt(x, sizeof(x), a), bn,
			      ck_fmt(y, sizeof(y), b));
	return 0;
}

int ck_eq(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b)
{
	return judge(c, a == b, id, an, a, NULL, bn, b);
}

int ck_le(struct sm_check *c, const char *id, const char *an, double a, const char *bn, double b)
{
	return judge(c, a <= b, id, an, a, "above", bn, b);
}

int ck_near(struct sm_check *c, const char *id, const char *an, double a, const char *bn,
	    double b, double rel)
{
	double d = fabs(a - b), m = fmax(fabs(a), fabs(b));

	return judge(c, d <= rel * m || d <= 1e-9, id, an, a, NULL, bn, b);
}

double ck_per_s(double n, double ns)
{
	double secs = ns / 1e9;

	return secs > 0 ? n / secs : 0;
}

int ck_rate(struct sm_check *c, const char *id, const char *gn, double got, const char *nn,
	    double n, const char *dn, double ns)
{
	char want[200];

	snprintf(want, sizeof(want), "%s / %s", nn, dn);
	return ck_near(c, id, gn, got, want, ck_per_s(n, ns), 1e-9);
}

/* ---- printed figures ---- */

/* Units a layout prints after a number (attached or after one blank),
 * scaled to ns, bytes or bytes/s; the others as printed. */
static const struct { const char *name; double scale; } units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "secs", 1e9 },
	{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
	{ "TiB", 1099511627776.0 }, { "PiB", 1125899906842624.0 }, { "KB", 1024.0 },
	{ "MB", 1048576.0 },
	{ "B/s", 1 }, { "KiB/s", 1024.0 }, { "MiB/s", 1048576.0 }, { "GiB/s", 1073741824.0 },
	{ "TiB/s", 1099511627776.0 }, { "MB/s", 1048576.0 }, { "bytes/s", 1 }, { "bytes", 1 },
	{ "fps", 1 }, { "%", 1 }, { "/s", 1 },
};

/* The unit named by the n bytes at u, or -1. */
static int unit(const char *u, size_t n)
{
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && !strncmp(u, units[i].name, n))
			return (int)i;
	return -1;
}

static void with_unit(struct ck_shown *s, int u, const char *gap)
{
	size_t len = strlen(s->text);

	s->v *= units[u].scale;
	s->half *= units[u].scale;
	s->unit = 1;
	snprintf(s->text + len, sizeof(s->text) - len, "%s%s", gap, units[u].name);
}

/* Token separators within a line (a number never spans them). */
static int sep(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '|' || ch == '(' || ch == ')' || ch == ',' ||
	       ch == ';' || ch == '=' || ch == '[' || ch == ']' || ch == '*' || ch == '!';
}

static int digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Read a number at the start of tok (n bytes): 1 with *s set (its decimals
 * and an attached unit taken in) and *used the bytes it took; 0 when tok
 * does not start with a plain decimal number or runs on into a word. */
static int number(const char *tok, size_t n, struct ck_shown *s, size_t *used)
{
	char buf[64], *end;
	size_t len = 0, rn;
	int decimals = 0, u;

	if (!n || n >= sizeof(buf))
		return 0;
	/* [sign] digits [. digits]: nothing else (no exponent, hex, inf) */
	if (tok[len] == '-' || tok[len] == '+')
		len++;
	while (len < n && digit(tok[len]))
		len++;
	if (len < n && tok[len] == '.') {
		size_t d = ++len;

		while (len < n && digit(tok[len]))
			len++;
		decimals = (int)(len - d);
	}
	if (!len || !(digit(tok[len - 1]) || (len >= 2 && digit(tok[len - 2]))))
		return 0;
	/* "1.2e+09" (run's tables print huge figures so): the last digit is
	 * worth 10^(exponent - decimals) */
	if (len + 2 < n && tok[len] == 'e' && (tok[len + 1] == '+' || tok[len + 1] == '-') &&
	    digit(tok[len + 2])) {
		int neg = tok[len + 1] == '-', x = 0;

		len += 2;
		while (len < n && digit(tok[len]) && x < 1000)
			x = x * 10 + (tok[len++] - '0');
		decimals -= neg ? -x : x;
	}
	memcpy(buf, tok, len);
	buf[len] = '\0';
	memset(s, 0, sizeof(*s));
	s->v = strtod(buf, &end);
	if (end == buf)
		return 0;
	s->half = 0.5 * pow(10, -decimals);
	snprintf(s->text, sizeof(s->text), "%s", buf);
	rn = n - len;
	*used = n;
	if (!rn || tok[len] == ':')
		return 1;             /* "1s:" ends a row label */
	if (tok[len] == '/' && rn > 1 && digit(tok[len + 1])) {
		*used = len + 1;      /* "26116.0000/0.00": two numbers */
		return 1;
	}
	u = unit(tok + len, rn);
	if (u < 0)
		return 0;             /* "4k", "2026-12-02T18:21:29Z": a word */
	with_unit(s, u, "");
	return 1;
}

unsigned ck_numbers(const char *line, struct ck_shown *s, unsigned max)
{
	const char *p = line;
	unsigned k = 0;

	while (p && *p && *p != '\n' && k < max) {
		const char *t;
		size_t n, used;

		while (*p && *p != '\n' && sep(*p))
			p++;
		/* a row of dots leading to a figure ("Overall frame rate .... 70.00") */
		while (*p == '.' && (p[1] == '.' || p[1] == ' '))
			p++;
		t = p;
		while (*p && *p != '\n' && !sep(*p))
			p++;
		n = (size_t)(p - t);
		if (!n)
			continue;
		if ((n == 1 && t[0] == '-') || (n == 3 && !strncmp(t, "n/a", 3))) {
			memset(&s[k], 0, sizeof(s[k]));
			s[k].absent = 1;
			snprintf(s[k].text, sizeof(s[k].text), "%.*s", (int)n, t);
			k++;
			continue;
		}
		if (!number(t, n, &s[k], &used))
			continue;
		if (used < n) {
			p = t + used;         /* the number after the '/' comes next */
		} else if (!s[k].unit && *p == ' ') {
			/* a unit after one blank */
			const char *u = p + 1;
			size_t un = 0;
			int i;

			while (u[un] && u[un] != '\n' && !sep(u[un]))
				un++;
			if (un && (i = unit(u, un)) >= 0 && strcmp(units[i].name, "/s")) {
				with_unit(&s[k], i, " ");
				p = u + un;
			}
		}
		k++;
	}
	return k;
}

unsigned ck_numbers_wrapped(const char *line, struct ck_shown *s, unsigned max)
{
	unsigned k = ck_numbers(line, s, max);
	const char *nl = line ? strchr(line, '\n') : NULL;

	while (nl && nl[1] == ' ' && k < max) {
		k += ck_numbers(nl + 1, s + k, max - k);
		nl = strchr(nl + 1, '\n');
	}
	return k;
}

const char *ck_line(const char *text, const char *from, const char *label)
{
	size_t n = strlen(label);
	const char *l = from ? from : text;

	if (!l)
		return NULL;
	/* from may point inside a line: start at the next one */
	if (from && from != text && from[-1] != '\n') {
		l = strchr(from, '\n');
		l = l ? l + 1 : NULL;
	}
	while (l && *l) {
		const char *q = l;

		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '|' && label[0] != '|')
			for (q++; *q == ' '; q++)
				;
		if (!strncmp(q, label, n))
			return q + n;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return NULL;
}

/* The n-th comma-separated field of line into buf (a quoted field keeps
 * its quotes: no figure is quoted); 0 when the line has fewer. */
static int csv_field(const char *line, unsigned n, char *buf, size_t len)
{
	const char *p = line;
	size_t k;

	for (unsigned i = 0; i < n; i++) {
		p = strpbrk(p, ",\n");
		if (!p || *p == '\n')
			return 0;
		p++;
	}
	k = strcspn(p, ",\n");
	if (k >= len)
		k = len - 1;
	memcpy(buf, p, k);
	buf[k] = '\0';
	return 1;
}

const char *ck_csv_row(const char *text, const char *const *keys, unsigned nkeys)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned i;
		char f[128];

		for (i = 0; i < nkeys; i++)
			if (!csv_field(l, i, f, sizeof(f)) || strcmp(f, keys[i]))
				break;
		if (i == nkeys)
			return l;
	}
	return NULL;
}

int ck_csv_str(const char *text, const char *row, const char *col, char *buf, size_t len)
{
	char f[128];
	unsigned i;

	if (!text || !row)
		return 0;
	for (i = 0; csv_field(text, i, f, sizeof(f)); i++)
		if (!strcmp(f, col))
			break;
	return csv_field(text, i, f, sizeof(f)) && csv_field(row, i, buf, len);
}

int ck_csv_get(const char *text, const char *row, const char *col, struct ck_shown *s)
{
	char f[128];
	unsigned i;
	size_t used;

	if (!text || !row)
		return -1;
	for (i = 0; csv_field(text, i, f, sizeof(f)); i++)
		if (!strcmp(f, col))
			break;
	if (!csv_field(text, i, f, sizeof(f)) || !csv_field(row, i, f, sizeof(f)))
		return -1;
	if (!f[0])
		return 0;
	if (!number(f, strlen(f), s, &used) || used != strlen(f))
		return -1;
	return 1;
}

int ck_shown_eq(struct sm_check *c, const char *id, const char *where, const struct ck_shown *s,
		const char *jn, double exact)
{
	double d = fabs(s->v - exact);
	char x[40];
	int ok = d <= s->half * (1 + 1e-9) + 1e-9 * fabs(exact) + 1e-12;

	c->evaluated++;
	if (!ok)
		sm_check_fail(c, id, "%s shows %s, %s is %s", where, s->text, jn,
			      ck_fmt(x, sizeof(x), exact));
	return ok;
}

/* ---- the layout checks' helpers ---- */

int ck_lay_nums(struct ck_lay *L, const char *from, const char *label, int must,
		struct ck_shown *s, unsigned max, const char **at)
{
	const char *p = ck_line(L->text, from, label);

	if (at)
		*at = p;
	if (!p) {
		L->c->evaluated += must != 0;
		if (must)
			sm_check_fail(L->c, "layout.line", "%s has no line '%s'", L->layout, label);
		return -1;
	}
	return (int)ck_numbers(p, s, max);
}

void ck_lay_val(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *what,
		double v)
{
	char where[160];

	if (s->absent)
		return;
	snprintf(where, sizeof(where), "%s '%s'", L->layout, label);
	ck_shown_eq(L->c, L->id, where, s, what, v);
}

void ck_lay_path(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *path,
		 double scale)
{
	double v;
	char what[160];

	if (s->absent || !ck_num(L->doc, path, &v))
		return;
	if (scale != 1)
		snprintf(what, sizeof(what), "%s (x %g)", path, scale);
	else
		snprintf(what, sizeof(what), "%s", path);
	ck_lay_val(L, label, s, what, v * scale);
}

void ck_lay_same(struct ck_lay *L, const char *id, const char *an, const struct ck_shown *a,
		 const char *bn, const struct ck_shown *b)
{
	L->c->evaluated++;
	if (a->absent || b->absent)
		return;
	if (fabs(a->v - b->v) > (a->half + b->half) * (1 + 1e-9) + 1e-9 * fabs(a->v))
		sm_check_fail(L->c, id, "%s '%s' shows %s, its '%s' shows %s: one value", L->layout, an,
			      a->text, bn, b->text);
}

/* Six printed latency figures (mean, p50, p95, p99, p99.9, max) against
 * the latency object at lat. */
void ck_lay_latrow(struct ck_lay *L, const char *label, const struct ck_shown *s, const char *lat)
{
	static const char *const k[] = { "mean", "p50", "p95", "p99", "p99_9", "max" };
	char path[128], lab[96];

	for (unsigned i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "%s.%s", lat, k[i]);
		snprintf(lab, sizeof(lab), "%s' %s", label, k[i]);
		ck_lay_path(L, lab, &s[i], path, 1);
	}
}
