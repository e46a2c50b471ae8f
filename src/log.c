/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <syslog.h>

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
	if (use_syslog)
		syslog(level, "%s", line);
	else
		fprintf(stderr, "nfsfuse: %s\n", line);
}
