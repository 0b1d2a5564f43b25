/* SPDX-License-Identifier: MIT */
/* Parse and format sizes, counts and durations strictly: a value that is
 * not entirely understood is an error, never a silent zero. */
#ifndef SM_UNITS_H
#define SM_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parse a non-negative decimal integer (no sign, no suffix, no spaces) into
 * *out. Returns 0, or -EINVAL when s is not such a number, -ERANGE when it
 * does not fit in 64 bits. */
int sm_parse_u64(const char *s, uint64_t *out);

/* Parse a size with an optional suffix that multiplies by powers of 1024:
 * b (x1), k/K/KiB, m/M/MiB, g/G/GiB, t/T/TiB ("KB" and "MB" are read as
 * KiB/MiB, the convention of the tools stormark replaces). unit is what a
 * bare number means (1 for bytes, 1024 when the option is in KiB).
 * Fractions are rejected (-EINVAL), like sysbench. Returns 0 or -errno. */
int sm_parse_size(const char *s, uint64_t unit, uint64_t *out);

/* Parse a duration: a number with an optional suffix ns, us, ms, s, m, h;
 * a bare number is in units of `unit_ns` (e.g. SM_NS_PER_S). A decimal
 * fraction is allowed ("0.5s"). Returns 0 or -errno. */
int sm_parse_duration(const char *s, uint64_t unit_ns, uint64_t *out_ns);

/* Parse a positive decimal number with an optional fraction ("23.976").
 * Returns 0, or -EINVAL for anything else, including 0 and negatives. */
int sm_parse_positive_double(const char *s, double *out);

/* Format bytes with binary units ("12.2 MiB") into buf; returns buf. */
char *sm_fmt_bytes(char *buf, size_t len, double bytes);

/* Format a duration in ns with a unit chosen for readability ("1.25 ms"). */
char *sm_fmt_ns(char *buf, size_t len, double ns);

/* Format v with "%.5g" and a binary prefix (Ki, Mi, ...), the way sysbench
 * prints sizes ("1.0625Mi", "16Mi"); returns buf. */
char *sm_fmt_size_g5(char *buf, size_t len, double v);

#endif
