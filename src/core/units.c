/* SPDX-License-Identifier: MIT */
/* Strict parsing and readable formatting of sizes and durations. */
#include "core/units.h"
#include "core/clock.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sm_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return 0;
}

/* Split s into its leading digits and the rest; the rest goes to suffix. */
static int split_number(const char *s, char *num, size_t numlen, const char **suffix,
			int allow_fraction)
{
	size_t n = 0;
	int dot = 0;

	if (!s || !*s)
		return -EINVAL;
	while (s[n] && (isdigit((unsigned char)s[n]) || (allow_fraction && s[n] == '.' && !dot))) {
		if (s[n] == '.')
			dot = 1;
		n++;
	}
	if (n == 0 || n >= numlen || (n == 1 && dot))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	*suffix = s + n;
	return 0;
}

int sm_parse_size(const char *s, uint64_t unit, uint64_t *out)
{
	static const struct { const char *sfx; uint64_t mult; } tab[] = {
		{ "", 0 }, { "b", 1 },
		{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
		{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
		{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
		{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	};
	char num[32];
	const char *sfx;
	uint64_t v, mult = 0;
	int rc;
	unsigned i;

	rc = split_number(s, num, sizeof(num), &sfx, 0);
	if (rc)
		return rc;
	rc = sm_parse_u64(num, &v);
	if (rc)
		return rc;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!strcasecmp(sfx, tab[i].sfx)) {
			mult = tab[i].mult ? tab[i].mult : unit;
			break;
		}
	}
	if (i == sizeof(tab) / sizeof(tab[0]))
		return -EINVAL;
	if (mult && v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int sm_parse_duration(const char *s, uint64_t unit_ns, uint64_t *out_ns)
{
	static const struct { const char *sfx; double mult; } tab[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	char num[48];
	const char *sfx;
	double v, mult = (double)unit_ns;
	char *end;
	int rc;

	rc = split_number(s, num, sizeof(num), &sfx, 1);
	if (rc)
		return rc;
	errno = 0;
	v = strtod(num, &end);
	if (errno || *end)
		return -EINVAL;
	if (*sfx) {
		unsigned i;

		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (!strcmp(sfx, tab[i].sfx))
				break;
		if (i == sizeof(tab) / sizeof(tab[0]))
			return -EINVAL;
		mult = tab[i].mult;
	}
	if (v * mult > 1.8e19)
		return -ERANGE;
	*out_ns = (uint64_t)(v * mult + 0.5);
	return 0;
}

int sm_parse_positive_double(const char *s, double *out)
{
	char num[48];
	const char *sfx;
	char *end;
	double v;

	if (split_number(s, num, sizeof(num), &sfx, 1) || *sfx)
		return -EINVAL;
	v = strtod(num, &end);
	if (*end || !(v > 0))
		return -EINVAL;
	*out = v;
	return 0;
}

char *sm_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	const unsigned last = sizeof(units) / sizeof(units[0]) - 1;
	unsigned u = 0;

	/* Choose the unit on the value as printed, so 1023.7 B is "1.00 KiB"
	 * rather than "1024 B", and 9.999 KiB is "10.0 KiB", not "10.00". */
	while (u < last && bytes >= 1023.5) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f %s", bytes, units[u]);
	else
		snprintf(buf, len, "%.*f %s", bytes < 9.995 ? 2 : bytes < 99.95 ? 1 : 0, bytes,
			 units[u]);
	return buf;
}

char *sm_fmt_ns(char *buf, size_t len, double ns)
{
	/* Thresholds on the rounded value: 999.96 us is "1.00 ms". */
	if (ns < 999.5)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 999.95e3)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 999.995e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

char *sm_fmt_size_g5(char *buf, size_t len, double v)
{
	static const char mods[] = "KMGTPE";
	unsigned i = 0;

	while (i < sizeof(mods) - 1 && v >= 1024) {
		v /= 1024;
		i++;
	}
	if (i)
		snprintf(buf, len, "%.5g%ci", v, mods[i - 1]);
	else
		snprintf(buf, len, "%.5g", v);
	return buf;
}
