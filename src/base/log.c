/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <syslog.h>
#include <time.h>

int nf_log_level = NF_LOG_WARNING;
static bool use_syslog;

void nf_log_to_syslog(const char *ident)
{
	openlog(ident, LOG_PID, LOG_DAEMON);
	use_syslog = true;
}

void nf_log(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > nf_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (use_syslog) {
		syslog(level, "%s", line);
	} else if (nf_log_level >= NF_LOG_DEBUG) {
		/* A debug log is read for the order and spacing of events
		 * (a stalled reconnect, a late callback): time them. */
		struct timespec ts;
		struct tm tm;

		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		fprintf(stderr, "nfsfuse: %02d:%02d:%02d.%03ld %s\n", tm.tm_hour,
			tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, line);
	} else {
		fprintf(stderr, "nfsfuse: %s\n", line);
	}
}
