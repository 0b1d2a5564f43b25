/* SPDX-License-Identifier: MIT */
/* Monotonic clock helpers. */
#include "core/clock.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

int sm_sleep_until_ns(uint64_t deadline_ns)
{
	return sm_os_sleep_until_ns(deadline_ns);
}

void sm_utc_iso8601_at(char *buf, unsigned len, int64_t s)
{
	/* Worked out here rather than by gmtime_r(), which reads the time zone
	 * file (tzset) although UTC needs none: a cost on `stormark time`'s
	 * path. */
	int64_t days, sod, era, doe, yoe, y, doy, mp, d, m;

	days = s >= 0 ? s / 86400 : (s - 86399) / 86400;
	sod = s - days * 86400;
	/* days since 1970-01-01 to a proleptic Gregorian date, counted in
	 * 400-year eras that begin on 0000-03-01 (so February is last) */
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	snprintf(buf, len, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y, (long long)m,
		 (long long)d, (long long)(sod / 3600), (long long)(sod % 3600 / 60),
		 (long long)(sod % 60));
}

void sm_utc_iso8601(char *buf, unsigned len)
{
	/* CLOCK_REALTIME, not time(): glibc's time() reads the coarse clock,
	 * which can lag the second `date` shows by a tick */
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	sm_utc_iso8601_at(buf, len, (int64_t)ts.tv_sec);
}
