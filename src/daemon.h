/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Detaching from the terminal.  The daemon forks before it starts any
 * thread (threads do not survive fork), and the parent waits until the
 * child says whether the mount exists: the command then exits 0 only once
 * the mount is usable, and non-zero, after the child's one-line error on
 * the shared stderr, when it is not.
 */
#ifndef NFSFUSE_DAEMON_H
#define NFSFUSE_DAEMON_H

/* Fork; returns 0 in the child (and only there).  The parent exits with
 * the status the child reports.  -1 if fork failed. */
int daemon_start(void);
/* In the child: tell the waiting parent how the mount went (0 ok), and on
 * success detach stdin/stdout/stderr.  A no-op without daemon_start. */
void daemon_ready(int status);

#endif
