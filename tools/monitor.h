/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitoring commands of nfsfusectl: iostat (per-operation rates, as
 * nfsiostat prints them) and list (every nfsfuse mount, like nfsstat -m).
 * Each returns the exit status.
 */
#ifndef NFSFUSECTL_MONITOR_H
#define NFSFUSECTL_MONITOR_H

/* interval 0: one report, since the mount; count 0: until interrupted. */
int monitor_iostat(const char *sock, const char *canon, unsigned interval,
		   unsigned count);
int monitor_list(void);

#endif
