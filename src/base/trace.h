/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live trace: one line per cache decision and RPC, sent to every
 * `nfsfusectl trace` that is listening.  With nobody listening a trace
 * point costs one atomic load.  A listener that does not keep up loses
 * lines (counted in the line it next receives), never slows the mount.
 */
#ifndef NFSFUSE_TRACE_H
#define NFSFUSE_TRACE_H

#include <stdbool.h>

bool trace_active(void);
void trace_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Start and stop sending lines to fd (a connected stream socket).  The
 * caller keeps ownership of fd and closes it after trace_unsubscribe. */
int trace_subscribe(int fd);
void trace_unsubscribe(int fd);

#define TRACE(...)                              \
	do {                                    \
		if (trace_active())             \
			trace_line(__VA_ARGS__); \
	} while (0)

#endif
