/* SPDX-License-Identifier: MIT */
/* Command-line options from one table per command: each option is declared
 * once (names, argument, kind, range, destination, help line), parsed with
 * getopt_long underneath, and the usage text is printed from the same table
 * so help cannot drift from behaviour. */
#ifndef SM_OPT_H
#define SM_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether an option takes a value, in getopt_long's sense: an optional
 * value is only ever attached (--json=FILE), never the next word. */
enum sm_opt_arg { SM_OPT_NOARG, SM_OPT_REQUIRED, SM_OPT_OPTIONAL };

/* What the value is and where it goes (dest). */
enum sm_opt_kind {
	SM_OPT_GROUP,     /* no option: a heading line in the usage */
	SM_OPT_FLAG,      /* int: set to ival */
	SM_OPT_BOOL,      /* int: on|off|yes|no|true|false|1|0; no value: 1 */
	SM_OPT_UINT,      /* unsigned or uint64_t (size): plain decimal in [min, max] */
	SM_OPT_SIZE,      /* uint64_t bytes: suffixes K M G T; a bare number is `unit` */
	SM_OPT_DURATION,  /* uint64_t ns: suffixes ns us ms s m h; a bare number is `unit` ns */
	SM_OPT_DOUBLE,    /* double: plain decimal with a fraction, in [dmin, dmax] */
	SM_OPT_STRING,    /* const char *: the value itself (points into argv), not empty */
	SM_OPT_CHOICE,    /* int: the value of the matching name in `choices` */
	SM_OPT_CALLBACK,  /* cb decides */
};

/* Bits of sm_opt.flags. */
#define SM_OPT_HIDDEN 1u       /* parsed, left out of the usage */
#define SM_OPT_STOP 2u         /* stop parsing when seen: sm_opt_parse() returns ival */
#define SM_OPT_GT_MIN 4u       /* DOUBLE: the value must be above dmin, not equal */
#define SM_OPT_EMPTY_OK 8u     /* STRING: an empty value is accepted */
#define SM_OPT_NEXT_IF 16u     /* optional value given as the next argument when
				* next_ok() accepts it (an older form, kept) */

/* One name of a choice and the int stored for it. */
struct sm_opt_choice {
	const char *name;
	int value;
};

struct sm_opt;

/*
 * A callback option: parse arg (NULL when an optional value was not given)
 * into opt->dest. Returns 0; a positive number to stop parsing (that
 * number is what sm_opt_parse() returns); -EINVAL after writing into
 * `expected` what a good value looks like ("a size in KiB or a preset"),
 * from which the module composes its one error wording; or -ENOTSUP for an
 * option that is recognised but refused ("option '--x' is not supported").
 */
typedef int (*sm_opt_cb)(const struct sm_opt *opt, const char *arg, char *expected, size_t len);

/*
 * One option. Tables are arrays ended by an entry with kind GROUP and no
 * help (SM_OPT_END), usually built in the function that parses so that
 * dest can point into the caller's struct. An option has a short name, a
 * long name, or both.
 */
struct sm_opt {
	enum sm_opt_kind kind;
	int short_name;                /* 0: none */
	const char *long_name;         /* NULL: none */
	enum sm_opt_arg arg;
	void *dest;                    /* where the value goes; see the kinds */
	size_t size;                   /* UINT: sizeof(*dest), 4 or 8 */
	uint64_t min, max;             /* UINT, SIZE (bytes), DURATION (ns) */
	uint64_t unit;                 /* SIZE, DURATION: what a bare number means */
	double dmin, dmax;             /* DOUBLE */
	int ival;                      /* FLAG: value stored; STOP: value returned */
	const struct sm_opt_choice *choices;  /* CHOICE: ended by a NULL name */
	sm_opt_cb cb;                  /* CALLBACK */
	int *seen;                     /* if set: 1 once the option was given */
	const char *dflt;              /* STRING with an optional value: stored when none is given */
	int (*next_ok)(const char *next);  /* SM_OPT_NEXT_IF: 1 when the argument
					    * after the option is its value */
	const char *argh;              /* the value's name in the usage ("N", "SECS") */
	const char *help;              /* usage text, one paragraph (a newline in it
					* is a space: sm_opt_usage() wraps it); NULL: hidden */
	const char *expected;          /* replaces the generated "expected ..." text */
	unsigned flags;                /* SM_OPT_HIDDEN | SM_OPT_STOP | ... */
};

/* Table helpers: short name (0 for none), long name (NULL for none),
 * destination lvalue, then the kind's own fields, the value's name and
 * the help line. */
#define SM_OPT_END { .kind = SM_OPT_GROUP }
#define SM_OPT_HEAD(text) { .kind = SM_OPT_GROUP, .help = (text) }
#define SM_OPT_FLAG_SET(s, l, d, v, h) \
	{ .kind = SM_OPT_FLAG, .short_name = (s), .long_name = (l), .dest = &(d), .ival = (v), .help = (h) }
#define SM_OPT_HELP(s, l, d, h) \
	{ .kind = SM_OPT_FLAG, .short_name = (s), .long_name = (l), .dest = &(d), .ival = 1, \
	  .flags = SM_OPT_STOP, .help = (h) }
#define SM_OPT_BOOL_OPT(s, l, d, h) \
	{ .kind = SM_OPT_BOOL, .short_name = (s), .long_name = (l), .arg = SM_OPT_OPTIONAL, \
	  .dest = &(d), .argh = "on|off", .help = (h) }
#define SM_OPT_UINT_RANGE(s, l, d, lo, hi, a, h) \
	{ .kind = SM_OPT_UINT, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .size = sizeof(d), .min = (lo), .max = (hi), .argh = (a), .help = (h) }
#define SM_OPT_SIZE_RANGE(s, l, d, u, lo, hi, a, h) \
	{ .kind = SM_OPT_SIZE, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .unit = (u), .min = (lo), .max = (hi), .argh = (a), .help = (h) }
#define SM_OPT_DURATION_RANGE(s, l, d, u, lo, hi, a, h) \
	{ .kind = SM_OPT_DURATION, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .unit = (u), .min = (lo), .max = (hi), .argh = (a), .help = (h) }
#define SM_OPT_DOUBLE_RANGE(s, l, d, lo, hi, a, h) \
	{ .kind = SM_OPT_DOUBLE, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .dmin = (lo), .dmax = (hi), .argh = (a), .help = (h) }
#define SM_OPT_STR(s, l, d, a, h) \
	{ .kind = SM_OPT_STRING, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .argh = (a), .help = (h) }
#define SM_OPT_CHOOSE(s, l, d, list, a, h) \
	{ .kind = SM_OPT_CHOICE, .short_name = (s), .long_name = (l), .arg = SM_OPT_REQUIRED, \
	  .dest = &(d), .choices = (list), .argh = (a), .help = (h) }
#define SM_OPT_CALL(s, l, ar, fn, d, a, h) \
	{ .kind = SM_OPT_CALLBACK, .short_name = (s), .long_name = (l), .arg = (ar), .cb = (fn), \
	  .dest = (d), .argh = (a), .help = (h) }

/* Bits of sm_opt_parse()'s flags. */
#define SM_OPT_SHORT_ONLY 1u   /* long names are unknown (frametest's command line) */
#define SM_OPT_IN_ORDER 2u     /* stop at the first word that is not an option */
#define SM_OPT_USAGE_EQ 4u     /* usage shows values attached: --file-num=N (sysbench) */

/*
 * Parse argv[1..argc-1] against opts, storing each value as its kind says;
 * options may come after the positional words unless SM_OPT_IN_ORDER.
 * Unambiguous prefixes of long names are accepted (getopt_long). On
 * return *first_arg is the index in argv of the first positional word
 * (argv is permuted so that they all come last). Can be called again in
 * the same process. Returns 0; the ival of an SM_OPT_STOP option, or a
 * callback's positive return, when parsing stopped there; or -EINVAL
 * with one line in msg and nothing stored for the offending option, e.g.
 * "invalid value 'x' for --threads: expected an integer from 1 to 1024",
 * "unknown option '--bogus'", "option '-w' needs a value". Prints nothing.
 */
int sm_opt_parse(const struct sm_opt *opts, int argc, char **argv, unsigned flags,
		 int *first_arg, char *msg, size_t msglen);

/*
 * Write the option lines of opts to f ("  -t, --threads N   help"), with
 * the headings, in table order; hidden options are left out. Each help
 * text is one paragraph (a newline in it is a space), wrapped once, at
 * word ends, to lines of at most 79 columns (an 80-column terminal), its
 * continuation lines indented under its first. A heading is printed as
 * written. With
 * SM_OPT_SHORT_ONLY only the short names are shown ("  -t N ..."), and
 * options without one are left out; with SM_OPT_USAGE_EQ values are shown
 * attached ("--file-num=N"). Returns nothing; a write error shows
 * in ferror(f).
 */
void sm_opt_usage(FILE *f, const struct sm_opt *opts, unsigned flags);

/* What an SM_OPT_LIST_OPTIONS entry makes sm_opt_parse() return. */
#define SM_OPT_LIST_CODE 64

/* The hidden --list-options of a command's table: parsing stops there and
 * returns SM_OPT_LIST_CODE (dest, an int, receives it), and the command
 * prints sm_opt_list(). */
#define SM_OPT_LIST_OPTIONS(d) \
	{ .kind = SM_OPT_FLAG, .long_name = "list-options", .dest = &(d), .ival = SM_OPT_LIST_CODE, \
	  .flags = SM_OPT_STOP | SM_OPT_HIDDEN, .help = "" }

/*
 * Write the options the usage shows, one name a line, for shell completion
 * and the tests that keep the man page and the completion in step with the
 * tables: "-n N" and "--runs N" (a value in the next word, or attached),
 * "--file-num=N" (attached only: SM_OPT_USAGE_EQ), "--json[=FILE]" (an
 * optional value, attached), "--quiet" (none); a choice's long name is
 * followed by a tab and its values ("--data MODE\trandom|zero"). A short
 * name comes before its long one; the order is the table's; hidden options
 * are left out. flags as for sm_opt_usage().
 * Returns nothing; a write error shows in ferror(f).
 */
void sm_opt_list(FILE *f, const struct sm_opt *opts, unsigned flags);

/*
 * Compose "invalid value 'arg' for NAME: expected EXPECTED" into msg, the
 * one wording of a bad value, for checks a command makes after parsing
 * (NAME is what the user typed, e.g. "--fps" or "-f"). Returns msg.
 */
char *sm_opt_bad_value(char *msg, size_t len, const char *name, const char *arg,
		       const char *expected);

/* Call fn(name, arg) for each name of list, comma-separated ("a,b,c";
 * empty names are skipped), until one returns non-zero. Returns 0; fn's
 * return with that name copied into bad; -ENODATA (no name at all; bad:
 * list) or -ENOMEM. */
int sm_opt_each(const char *list, int (*fn)(const char *name, void *arg), void *arg, char *bad,
		size_t badlen);

#endif
