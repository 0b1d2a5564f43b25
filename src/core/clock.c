/* SPDX-License-Identifier: MIT */
/* Monotonic clock helpers. */
#include "core/clock.h"

#include <errno.h>

int sm_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / SM_NS_PER_S),
		.tv_nsec = (long)(deadline_ns % SM_NS_PER_S),
	};
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return rc ? -rc : 0;
}

void sm_utc_iso8601(char *buf, unsigned len)
{
	/* CLOCK_REALTIME, not time(): glibc's time() reads the coarse clock,
	 * which can lag the second `date` shows by a tick. */
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
