/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's one clock for ages, timeouts and deadlines: CLOCK_MONOTONIC,
 * which neither jumps with settimeofday nor stops counting on suspend in a
 * way that matters to a cache.  Three units of the same clock, so that
 * each caller keeps the unit it stores.  CLOCK_REALTIME appears only where
 * a time is compared with the server's (clock_real_ns) or written on the
 * wire.
 *
 * pthread_cond_timedwait() measures against the condition's clock: wait on
 * a condition made by clock_cond_init() and a deadline from
 * clock_mono_deadline().
 */
#ifndef NFSFUSE_BASE_CLOCK_H
#define NFSFUSE_BASE_CLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define CLOCK_NS_PER_SEC 1000000000ll

static inline int64_t clock_ns_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * CLOCK_NS_PER_SEC + ts.tv_nsec;
}

static inline int64_t clock_mono_ns(void)
{
	return clock_ns_of(CLOCK_MONOTONIC);
}

static inline uint64_t clock_mono_us(void)
{
	return (uint64_t)clock_mono_ns() / 1000u;
}

static inline int64_t clock_mono_ms(void)
{
	return clock_mono_ns() / 1000000;
}

/* Wall-clock nanoseconds, for comparing with server times only. */
static inline int64_t clock_real_ns(void)
{
	return clock_ns_of(CLOCK_REALTIME);
}

/* The CLOCK_MONOTONIC instant ns from now, as pthread_cond_timedwait()
 * wants it. */
static inline struct timespec clock_mono_deadline(int64_t ns)
{
	int64_t at = clock_mono_ns() + ns;

	return (struct timespec){ .tv_sec = at / CLOCK_NS_PER_SEC,
				  .tv_nsec = at % CLOCK_NS_PER_SEC };
}

/* A condition variable whose timed waits count on CLOCK_MONOTONIC. */
static inline void clock_cond_init(pthread_cond_t *cond)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &ca);
	pthread_condattr_destroy(&ca);
}

#endif
