/* SPDX-License-Identifier: MIT */
/* Table-driven option parsing on top of getopt_long, one error wording for
 * every command, and the usage text printed from the same table. */
#include "core/opt.h"

#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's val for table entry i with a long name: above any char. */
#define LONG_VAL(i) (256 + (i))

static unsigned count_opts(const struct sm_opt *opts)
{
	unsigned n = 0;

	while (opts[n].kind != SM_OPT_GROUP || opts[n].help)
		n++;
	return n;
}

/* The option as the user wrote it: "--threads" or "-t". */
static void opt_name(const struct sm_opt *o, int as_long, char *buf, size_t len)
{
	if (as_long && o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

char *sm_opt_bad_value(char *msg, size_t len, const char *name, const char *arg,
		       const char *expected)
{
	snprintf(msg, len, "invalid value '%s' for %s: expected %s", arg ? arg : "", name, expected);
	return msg;
}

/* A size in the plainest unit that shows it exactly ("1 GiB", "1536 KiB"). */
static void fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char *const u[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned i = 0;

	while (i < 4 && v && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)v, i == 0 && v == 1 ? "byte" : u[i]);
}

static void fmt_dur(char *buf, size_t len, uint64_t ns)
{
	static const struct { uint64_t div; const char *u; } t[] = {
		{ 3600000000000ULL, "h" }, { 60000000000ULL, "min" }, { 1000000000ULL, "s" },
		{ 1000000ULL, "ms" }, { 1000ULL, "us" }, { 1, "ns" },
	};
	unsigned i = 0;

	while (ns && ns % t[i].div)
		i++;
	snprintf(buf, len, "%llu %s", (unsigned long long)(ns ? ns / t[i].div : 0), ns ? t[i].u : "s");
}

/* A lower and upper bound as words: " from A to B", " of at least A", "". */
static void range_words(char *buf, size_t len, const char *lo, const char *hi, int has_lo, int has_hi)
{
	if (has_lo && has_hi)
		snprintf(buf, len, " from %s to %s", lo, hi);
	else if (has_lo)
		snprintf(buf, len, " of at least %s", lo);
	else if (has_hi)
		snprintf(buf, len, " of at most %s", hi);
	else
		buf[0] = '\0';
}

/* What a good value of o looks like, for the error message. */
static void expected_text(const struct sm_opt *o, char *buf, size_t len)
{
	char lo[48], hi[48], range[128];
	uint64_t cap = o->kind == SM_OPT_UINT && o->size == 4 ? UINT32_MAX : UINT64_MAX;
	uint64_t max = o->max && o->max < cap ? o->max : cap;

	if (o->expected) {
		snprintf(buf, len, "%s", o->expected);
		return;
	}
	switch (o->kind) {
	case SM_OPT_BOOL:
		snprintf(buf, len, "on or off");
		break;
	case SM_OPT_UINT:
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)max);
		range_words(range, sizeof(range), lo, hi, o->min > 0, max < cap);
		snprintf(buf, len, "%s%s", o->min || max < cap ? "an integer" : "a non-negative integer",
			 range);
		break;
	case SM_OPT_SIZE:
		fmt_size(lo, sizeof(lo), o->min);
		fmt_size(hi, sizeof(hi), max);
		range_words(range, sizeof(range), lo, hi, o->min > 0, max < cap);
		snprintf(buf, len, "a whole size%s (a number with an optional K, M, G or T suffix%s)",
			 range, o->unit == 1024 ? "; a bare number is KiB" : "");
		break;
	case SM_OPT_DURATION:
		fmt_dur(lo, sizeof(lo), o->min);
		fmt_dur(hi, sizeof(hi), max);
		if (o->min == 1 && max == cap)
			snprintf(range, sizeof(range), " above 0");
		else
			range_words(range, sizeof(range), lo, hi, o->min > 0, max < cap);
		snprintf(buf, len, "%s%s (or with a unit: ms, s, m, h)",
			 o->unit == 1000000000ULL ? "a number of seconds" : "a duration", range);
		break;
	case SM_OPT_DOUBLE:
		snprintf(lo, sizeof(lo), "%g", o->dmin);
		snprintf(hi, sizeof(hi), "%g", o->dmax);
		if (o->flags & SM_OPT_GT_MIN)
			snprintf(range, sizeof(range), " above %s%s%s", lo, isinf(o->dmax) ? "" : " and at most ",
				 isinf(o->dmax) ? "" : hi);
		else
			range_words(range, sizeof(range), lo, hi, 1, !isinf(o->dmax));
		snprintf(buf, len, "a number%s", range);
		break;
	case SM_OPT_CHOICE: {
		size_t n = 0;
		unsigned k = 0;

		while (o->choices[k].name)
			k++;
		buf[0] = '\0';
		for (unsigned i = 0; i < k && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%s", i == 0 ? "" : i + 1 == k ? " or " : ", ",
				      o->choices[i].name);
		break;
	}
	default:
		snprintf(buf, len, "a value that is not empty");
		break;
	}
}

/* A plain decimal with an optional fraction ("23.976"), nothing else. */
static int parse_decimal(const char *s, double *out)
{
	size_t i = 0, digits = 0;
	int dot = 0;
	char *end;

	for (; s[i]; i++) {
		if (isdigit((unsigned char)s[i]))
			digits++;
		else if (s[i] == '.' && !dot)
			dot = 1;
		else
			return -EINVAL;
	}
	if (!digits)
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	return errno || *end || !isfinite(*out) ? -EINVAL : 0;
}

static int parse_bool(const char *s, int *out)
{
	static const char *const on[] = { "on", "true", "yes", "1" };
	static const char *const off[] = { "off", "false", "no", "0" };

	for (unsigned i = 0; i < 4; i++) {
		if (!strcmp(s, on[i]) || !strcmp(s, off[i])) {
			*out = !strcmp(s, on[i]);
			return 0;
		}
	}
	return -EINVAL;
}

/* Parse arg for o and store it. Returns 0, a positive stop code, or
 * -EINVAL with expected (what a good value is) filled. */
static int store(const struct sm_opt *o, const char *arg, char *exp, size_t len)
{
	uint64_t v = 0;
	double d;
	int b, rc = 0;

	switch (o->kind) {
	case SM_OPT_FLAG:
		*(int *)o->dest = o->ival;
		break;
	case SM_OPT_BOOL:
		if (!arg)
			b = 1;
		else if (parse_bool(arg, &b))
			rc = -EINVAL;
		if (!rc)
			*(int *)o->dest = b;
		break;
	case SM_OPT_UINT:
	case SM_OPT_SIZE:
	case SM_OPT_DURATION: {
		uint64_t cap = o->kind == SM_OPT_UINT && o->size == 4 ? UINT32_MAX : UINT64_MAX;
		uint64_t max = o->max && o->max < cap ? o->max : cap;

		if (o->kind == SM_OPT_UINT)
			rc = sm_parse_u64(arg, &v);
		else if (o->kind == SM_OPT_SIZE)
			rc = sm_parse_size(arg, o->unit ? o->unit : 1, &v);
		else
			rc = sm_parse_duration(arg, o->unit ? o->unit : 1000000000ULL, &v);
		if (rc || v < o->min || v > max) {
			rc = -EINVAL;
			break;
		}
		if (o->kind == SM_OPT_UINT && o->size == 4)
			*(uint32_t *)o->dest = (uint32_t)v;
		else
			*(uint64_t *)o->dest = v;
		break;
	}
	case SM_OPT_DOUBLE:
		if (parse_decimal(arg, &d) || d < o->dmin || d > o->dmax ||
		    ((o->flags & SM_OPT_GT_MIN) && d == o->dmin))
			rc = -EINVAL;
		else
			*(double *)o->dest = d;
		break;
	case SM_OPT_STRING:
		if (!arg)
			*(const char **)o->dest = o->dflt;
		else if (!*arg && !(o->flags & SM_OPT_EMPTY_OK))
			rc = -EINVAL;
		else
			*(const char **)o->dest = arg;
		break;
	case SM_OPT_CHOICE:
		rc = -EINVAL;
		if (!arg) {
			*(int *)o->dest = o->ival;
			rc = 0;
			break;
		}
		for (unsigned i = 0; o->choices[i].name; i++) {
			if (!strcmp(arg, o->choices[i].name)) {
				*(int *)o->dest = o->choices[i].value;
				rc = 0;
				break;
			}
		}
		break;
	case SM_OPT_CALLBACK:
		exp[0] = '\0';
		rc = o->cb(o, arg, exp, len);
		if (rc == -ENOTSUP)
			return rc;
		if (rc < 0 && exp[0] && !o->expected)
			return -EINVAL;
		break;
	default:
		rc = -EINVAL;
		break;
	}
	if (rc < 0) {
		expected_text(o, exp, len);
		return -EINVAL;
	}
	if (!rc && (o->flags & SM_OPT_STOP))
		return o->ival;
	return rc;
}

/* Build getopt's short option string and long table for opts. */
static int build(const struct sm_opt *opts, unsigned n, unsigned flags, char *shorts,
		 struct option *longs)
{
	size_t k = 0;
	unsigned l = 0;

	if (flags & SM_OPT_IN_ORDER)
		shorts[k++] = '+';
	shorts[k++] = ':';
	for (unsigned i = 0; i < n; i++) {
		const struct sm_opt *o = &opts[i];

		if (o->kind == SM_OPT_GROUP)
			continue;
		if (o->short_name) {
			shorts[k++] = (char)o->short_name;
			if (o->arg != SM_OPT_NOARG)
				shorts[k++] = ':';
			if (o->arg == SM_OPT_OPTIONAL)
				shorts[k++] = ':';
		}
		if (o->long_name && !(flags & SM_OPT_SHORT_ONLY)) {
			longs[l].name = o->long_name;
			longs[l].has_arg = o->arg == SM_OPT_NOARG ? no_argument
					   : o->arg == SM_OPT_REQUIRED ? required_argument
					   : optional_argument;
			longs[l].flag = NULL;
			longs[l].val = LONG_VAL(i);
			l++;
		}
	}
	shorts[k] = '\0';
	memset(&longs[l], 0, sizeof(longs[l]));
	return 0;
}

static const struct sm_opt *find_short(const struct sm_opt *opts, unsigned n, int c)
{
	for (unsigned i = 0; i < n; i++)
		if (opts[i].kind != SM_OPT_GROUP && opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

/* "unknown option '--f'", or "ambiguous option" naming the candidates. */
static void unknown_long(const struct sm_opt *opts, unsigned n, unsigned flags, const char *word,
			 char *msg, size_t len)
{
	const char *name = word + 2;
	size_t nl = strcspn(name, "="), m;
	unsigned hits = 0;

	if (!(flags & SM_OPT_SHORT_ONLY))
		for (unsigned i = 0; i < n; i++)
			if (opts[i].kind != SM_OPT_GROUP && opts[i].long_name &&
			    !strncmp(opts[i].long_name, name, nl))
				hits++;
	/* "--=x" names no option at all: unknown, not a prefix of every one;
	 * the name alone is quoted, not the value given with it */
	if (hits < 2 || nl == 0) {
		snprintf(msg, len, "unknown option '%.*s'", nl ? (int)nl + 2 : (int)strlen(word), word);
		return;
	}
	m = (size_t)snprintf(msg, len, "ambiguous option '%.*s' (could be", (int)nl + 2, word);
	for (unsigned i = 0; i < n && m < len; i++)
		if (opts[i].kind != SM_OPT_GROUP && opts[i].long_name &&
		    !strncmp(opts[i].long_name, name, nl))
			m += (size_t)snprintf(msg + m, len - m, " --%s", opts[i].long_name);
	if (m < len)
		snprintf(msg + m, len - m, ")");
}

int sm_opt_parse(const struct sm_opt *opts, int argc, char **argv, unsigned flags,
		 int *first_arg, char *msg, size_t msglen)
{
	unsigned n = count_opts(opts);
	struct option *longs = calloc(n + 1, sizeof(*longs));
	char *shorts = malloc(3 * n + 3);
	int c, rc = 0;

	msg[0] = '\0';
	if (!longs || !shorts) {
		snprintf(msg, msglen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	build(opts, n, flags, shorts, longs);
	opterr = 0;
	optind = 0;   /* glibc: a full reset, so a second parse starts afresh */
	for (;;) {
		const struct sm_opt *o;
		char name[80], exp[256];
		int longidx = -1;

		c = getopt_long(argc, argv, shorts, longs, &longidx);
		if (c == -1)
			break;
		if (c == '?') {
			if (optopt >= 256) {
				opt_name(&opts[optopt - 256], 1, name, sizeof(name));
				snprintf(msg, msglen, "option '%s' takes no value", name);
			} else if (optopt) {
				snprintf(msg, msglen, "unknown option '-%c'", optopt);
			} else {
				unknown_long(opts, n, flags, argv[optind - 1], msg, msglen);
			}
			rc = -EINVAL;
			goto out;
		}
		if (c == ':') {
			o = optopt >= 256 ? &opts[optopt - 256] : find_short(opts, n, optopt);
			opt_name(o, optopt >= 256, name, sizeof(name));
			snprintf(msg, msglen, "option '%s' needs a value", name);
			rc = -EINVAL;
			goto out;
		}
		o = c >= 256 ? &opts[c - 256] : find_short(opts, n, c);
		opt_name(o, c >= 256, name, sizeof(name));
		/* an optional value in the next argument (an older form that
		 * scripts use): consumed as getopt consumes a required one */
		if (!optarg && (o->flags & SM_OPT_NEXT_IF) && o->next_ok && optind < argc &&
		    o->next_ok(argv[optind]))
			optarg = argv[optind++];
		rc = store(o, optarg, exp, sizeof(exp));
		if (rc == -ENOTSUP) {
			snprintf(msg, msglen, "option '%s' is not supported", name);
			rc = -EINVAL;
			goto out;
		}
		if (rc < 0) {
			sm_opt_bad_value(msg, msglen, name, optarg, exp);
			goto out;
		}
		if (o->seen)
			*o->seen = 1;
		if (rc > 0)
			goto out;
	}
out:
	*first_arg = optind;
	free(longs);
	free(shorts);
	return rc;
}

/* The left column of an option's usage line. */
static void usage_left(const struct sm_opt *o, unsigned flags, char *buf, size_t len)
{
	const char *a = o->argh ? o->argh : "VALUE";
	size_t k;

	if (flags & SM_OPT_SHORT_ONLY) {
		snprintf(buf, len, "  -%c%s%s", o->short_name, o->arg == SM_OPT_NOARG ? "" : " ",
			 o->arg == SM_OPT_NOARG ? "" : a);
		return;
	}
	if (o->short_name && o->long_name)
		k = (size_t)snprintf(buf, len, "  -%c, --%s", o->short_name, o->long_name);
	else if (o->long_name)
		k = (size_t)snprintf(buf, len, "      --%s", o->long_name);
	else
		k = (size_t)snprintf(buf, len, "  -%c", o->short_name);
	if (k >= len || o->arg == SM_OPT_NOARG)
		return;
	if (o->arg == SM_OPT_OPTIONAL)
		snprintf(buf + k, len - k, "[=%s]", a);
	else
		snprintf(buf + k, len - k, "%s%s", (flags & SM_OPT_USAGE_EQ) && o->long_name ? "=" : " ", a);
}

static int shown(const struct sm_opt *o, unsigned flags)
{
	if (o->kind == SM_OPT_GROUP)
		return 0;
	if (!o->help || (o->flags & SM_OPT_HIDDEN))
		return 0;
	return !(flags & SM_OPT_SHORT_ONLY) || o->short_name;
}

/* Write an option's help text (n bytes of h, one paragraph) from column
 * col, wrapped at word ends so that lines stay within 79 columns (an
 * 80-column terminal), each continuation indented to col: the one place
 * a description is broken into lines. */
static void help_line(FILE *f, const char *h, size_t n, size_t col)
{
	size_t room = col < 59 ? 79 - col : 20;

	while (n > room) {
		size_t cut = room;

		while (cut > 0 && h[cut] != ' ')
			cut--;
		if (cut == 0)   /* one word longer than the room: leave it whole */
			for (cut = room; cut < n && h[cut] != ' '; cut++)
				;
		if (cut >= n)
			break;
		fprintf(f, "%.*s\n%*s", (int)cut, h, (int)col, "");
		h += cut + 1;
		n -= cut + 1;
	}
	fprintf(f, "%.*s", (int)n, h);
}

void sm_opt_usage(FILE *f, const struct sm_opt *opts, unsigned flags)
{
	unsigned n = count_opts(opts);
	size_t col = 8;
	char left[128];

	for (unsigned i = 0; i < n; i++) {
		if (!shown(&opts[i], flags))
			continue;
		usage_left(&opts[i], flags, left, sizeof(left));
		if (strlen(left) + 2 > col && strlen(left) + 2 <= 32)
			col = strlen(left) + 2;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct sm_opt *o = &opts[i];
		char *help;

		if (o->kind == SM_OPT_GROUP) {
			unsigned j = i + 1;

			/* a heading over no shown option (short names only) is left out */
			while (j < n && opts[j].kind != SM_OPT_GROUP && !shown(&opts[j], flags))
				j++;
			if (o->help && j < n && opts[j].kind != SM_OPT_GROUP)
				fprintf(f, "%s\n", o->help);
			continue;
		}
		if (!shown(o, flags))
			continue;
		usage_left(o, flags, left, sizeof(left));
		if (strlen(left) + 2 > col)   /* two blanks at least before the text */
			fprintf(f, "%s\n%*s", left, (int)col, "");
		else
			fprintf(f, "%-*s", (int)col, left);
		/* one paragraph, wrapped once: a newline in the table's text is a
		 * space, so no line is broken by hand and again by the wrapper */
		help = strdup(o->help);
		if (help)
			for (char *nl = help; (nl = strchr(nl, '\n')); )
				*nl = ' ';
		help_line(f, help ? help : o->help, strlen(o->help), col);
		free(help);
		fputc('\n', f);
	}
}

void sm_opt_list(FILE *f, const struct sm_opt *opts, unsigned flags)
{
	unsigned n = count_opts(opts);

	for (unsigned i = 0; i < n; i++) {
		const struct sm_opt *o = &opts[i];
		const char *a = o->argh ? o->argh : "VALUE";

		if (!shown(o, flags))
			continue;
		if (o->short_name)
			fprintf(f, "-%c%s%s\n", o->short_name, o->arg == SM_OPT_NOARG ? "" : " ",
				o->arg == SM_OPT_NOARG ? "" : a);
		if (!o->long_name || (flags & SM_OPT_SHORT_ONLY))
			continue;
		if (o->arg == SM_OPT_NOARG)
			fprintf(f, "--%s", o->long_name);
		else if (o->arg == SM_OPT_OPTIONAL)
			fprintf(f, "--%s[=%s]", o->long_name, a);
		else
			fprintf(f, "--%s%s%s", o->long_name, (flags & SM_OPT_USAGE_EQ) ? "=" : " ", a);
		for (unsigned k = 0; o->kind == SM_OPT_CHOICE && o->choices[k].name; k++)
			fprintf(f, "%c%s", k ? '|' : '\t', o->choices[k].name);
		fputc('\n', f);
	}
}

int sm_opt_each(const char *list, int (*fn)(const char *name, void *arg), void *arg, char *bad,
		size_t badlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned n = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save), n++)
		if ((rc = fn(tok, arg)))
			snprintf(bad, badlen, "%s", tok);
	free(copy);
	if (!rc && !n) {
		snprintf(bad, badlen, "%s", list);
		rc = -ENODATA;
	}
	return rc;
}
