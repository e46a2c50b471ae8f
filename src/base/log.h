/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Logging for every layer of the daemon.  Quiet in normal operation:
 * warnings and errors only, unless -d raised the level.  Each message is
 * written with one call so that lines from threads do not interleave.
 */
#ifndef NFSFUSE_LOG_H
#define NFSFUSE_LOG_H

enum {
	NF_LOG_ERR = 3,
	NF_LOG_WARNING = 4,
	NF_LOG_INFO = 6,
	NF_LOG_DEBUG = 7
};

extern int nf_log_level;

/* Messages above nf_log_level are dropped.  Once the daemon is detached
 * from its terminal, nf_log_to_syslog() sends them to syslog instead. */
void nf_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nf_log_to_syslog(const char *ident);

#endif
