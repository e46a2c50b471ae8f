/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsfusectl's side of the control socket (src/ctl/ctl.h): connect, send
 * one command line, read "OK\n" and the answer or "ERR message\n".
 */
#ifndef NFSFUSECTL_CLIENT_H
#define NFSFUSECTL_CLIENT_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

/* The mount point as the user wrote it, for messages. */
extern const char *client_mnt;

/* "nfsfusectl: MNT: message" on stderr; returns 1 (the exit status). */
int client_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Send line (ending in '\n') to the socket sock and read the answer: into
 * collect when it is not NULL, else to stdout (as it comes, for a trace).
 * Returns 0, or 1 after saying why on stderr; with why non-NULL nothing
 * is printed and the reason goes to why instead.  A trace ends when
 * client_interrupted is set by a signal.
 */
int client_ask(const char *sock, const char *line, size_t len, bool trace,
	       GString *collect, char *why, size_t whylen);

extern volatile int client_interrupted;

#endif
