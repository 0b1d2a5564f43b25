/* SPDX-License-Identifier: MIT */
/* Fuzz target: the size, count and duration parsers of core/units.c and
 * the formatters their values go to. Besides crashes and undefined
 * behaviour it checks what the parsers promise: a value accepted is the
 * whole input understood (a count prints back as itself, a bare size is
 * the count times its unit, a duration is within the range stated, a
 * positive number is above 0), and formatting always ends its string. */
#include "core/clock.h"
#include "core/units.h"
#include "fuzz_util.h"

#include <errno.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void formats(double v)
{
	char small[8], big[64];

	/* a buffer too small must still hold a terminated string */
	sm_fmt_bytes(small, sizeof(small), v);
	sm_fmt_ns(small, sizeof(small), v);
	sm_fmt_size_g5(small, sizeof(small), v);
	if (!memchr(small, '\0', sizeof(small)))
		abort();
	sm_fmt_bytes(big, sizeof(big), v);
	sm_fmt_ns(big, sizeof(big), v);
	sm_fmt_size_g5(big, sizeof(big), v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t units[] = { 1, 1024, 1ULL << 20 };
	static const uint64_t ns_units[] = { 1, 1000, SM_NS_PER_S };
	char *s = malloc(size + 1), back[32];
	uint64_t v, w;
	double d;

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';

	if (sm_parse_u64(s, &v) == 0) {
		uint64_t again;

		snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
		if (sm_parse_u64(back, &again) || again != v)
			abort();
		formats((double)v);
	}
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		int rc = sm_parse_size(s, units[i], &v);

		if (rc == 0) {
			/* digits alone: the count in the option's unit */
			if (sm_parse_u64(s, &w) == 0 && (w > UINT64_MAX / units[i] || v != w * units[i]))
				abort();
			formats((double)v);
		} else if (rc != -EINVAL && rc != -ERANGE) {
			abort();
		}
	}
	for (unsigned i = 0; i < sizeof(ns_units) / sizeof(ns_units[0]); i++) {
		int rc = sm_parse_duration(s, ns_units[i], &v);

		if (rc == 0)
			formats((double)v);
		else if (rc != -EINVAL && rc != -ERANGE)
			abort();
	}
	if (sm_parse_positive_double(s, &d) == 0) {
		if (!(d > 0) || !isfinite(d))
			abort();
		formats(d);
	}
	free(s);
	return 0;
}
