/* SPDX-License-Identifier: MIT */
/* Monotonic nanosecond clock and sleeping until a deadline. */
#ifndef SM_CLOCK_H
#define SM_CLOCK_H

#include "os/os.h"

#include <stdint.h>
#include <time.h>

#define SM_NS_PER_S  1000000000ULL

/* n per second over ns nanoseconds; 0 over no time: the one rate every
 * figure of stormark is computed with. */
static inline double sm_per_s(double n, uint64_t ns)
{
	return ns ? n / ((double)ns / 1e9) : 0;
}
#define SM_NS_PER_MS 1000000ULL
#define SM_NS_PER_US 1000ULL

/* Nanoseconds on the monotonic clock (os/os.h); cheap, never goes
 * backwards. */
static inline uint64_t sm_now_ns(void)
{
	return sm_os_mono_ns();
}

/* Sleep until sm_now_ns() >= deadline_ns; returns at once if it has passed.
 * Wakes early (returning -EINTR) when a signal interrupts the sleep. */
int sm_sleep_until_ns(uint64_t deadline_ns);

/* Wall-clock time as an ISO 8601 UTC string ("2026-12-02T10:00:00Z") in buf. */
void sm_utc_iso8601(char *buf, unsigned len);
/* The same for s seconds since the epoch (UTC). */
void sm_utc_iso8601_at(char *buf, unsigned len, int64_t s);

#endif
