/* SPDX-License-Identifier: MIT */
/* Figures as a text layout prints them: finding a line by its label,
 * reading the numbers of a line with their units, reading a CSV field by
 * its column's name, and judging a printed figure against the document's
 * exact one within the rounding it was printed with. */
#include "check/check_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
