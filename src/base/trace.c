/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#define TRACE_MAX_SUBS 8

struct sub {
	int fd;
	uint64_t lost;
};

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sub subs[TRACE_MAX_SUBS]; /* trace_lock */
static int nsubs;                      /* written under trace_lock */

bool trace_active(void)
{
	return __atomic_load_n(&nsubs, __ATOMIC_RELAXED) > 0;
}

void trace_line(const char *fmt, ...)
{
	char line[768];
	struct timespec ts;
	struct tm tm;
	va_list ap;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = snprintf(line, sizeof(line), "%02d:%02d:%02d.%03ld ", tm.tm_hour,
		     tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';

	pthread_mutex_lock(&trace_lock);
	for (int i = 0; i < nsubs; i++) {
		struct sub *s = &subs[i];

		if (s->lost) {
			char note[64];
			int m = snprintf(note, sizeof(note),
					 "(%llu trace lines lost)\n",
					 (unsigned long long)s->lost);

			if (send(s->fd, note, (size_t)m,
				 MSG_DONTWAIT | MSG_NOSIGNAL) == m)
				s->lost = 0;
		}
		if (send(s->fd, line, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) !=
		    n)
			s->lost++;
	}
	pthread_mutex_unlock(&trace_lock);
}

int trace_subscribe(int fd)
{
	int ret = -EBUSY;

	pthread_mutex_lock(&trace_lock);
	if (nsubs < TRACE_MAX_SUBS) {
		subs[nsubs].fd = fd;
		subs[nsubs].lost = 0;
		__atomic_store_n(&nsubs, nsubs + 1, __ATOMIC_RELAXED);
		ret = 0;
	}
	pthread_mutex_unlock(&trace_lock);
	return ret;
}

void trace_unsubscribe(int fd)
{
	pthread_mutex_lock(&trace_lock);
	for (int i = 0; i < nsubs; i++) {
		if (subs[i].fd != fd)
			continue;
		subs[i] = subs[nsubs - 1];
		__atomic_store_n(&nsubs, nsubs - 1, __ATOMIC_RELAXED);
		break;
	}
	pthread_mutex_unlock(&trace_lock);
}
