/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Disk quotas without I/O: what statfs shows under -o quota_statfs, and
 * the report `nfsfusectl quota` prints.  The daemon asks the server
 * (proto/rquota_client.h) and hands the result to nfsfusectl as
 * "key value" lines (quota_report_write / quota_report_parse), and
 * nfsfusectl prints it as quota(1) does.  Pure functions, so that the
 * quota-present path is tested without a server that has quotas.
 */
#ifndef NFSFUSE_QUOTA_H
#define NFSFUSE_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/statvfs.h>

#include "../../xdr/rquota.h"

/* The server's answer about one user or group, as the control socket
 * carries it. */
struct quota_report {
	char where[1100];     /* "SERVER:/export" */
	uint32_t type;        /* enum rquota_type */
	uint32_t id;
	bool found;           /* false: Q_NOQUOTA */
	struct rquota_dqblk q; /* when found */
};

/* Bytes of `blocks` blocks of bsize bytes, in KiB rounded up (as quota(1)
 * shows them).  A bsize that is not positive is taken as 1024: no server
 * sends one, and 0 would hide the usage. */
uint64_t quota_kib(uint32_t blocks, int32_t bsize);

/*
 * Narrow what FSSTAT said (*sv, in f_frsize units) to the quota q:
 * the total is the hard limit (the soft one when there is no hard one),
 * and what is free is the limit less what is used, never below 0 and never
 * more than FSSTAT says is free.  A limit larger than the file system
 * leaves the total as FSSTAT says (as ext4 does for project quotas).
 * Blocks and files each, when they have a limit.  Returns true when
 * anything was narrowed, false when q limits nothing (sv untouched).
 */
bool quota_statfs_apply(const struct rquota_dqblk *q, struct statvfs *sv);

/* quota(1)'s grace column: time left ("6days", " 5:03") while over the
 * soft limit with grace left, else "none". */
void quota_grace_str(uint32_t used, uint32_t soft, uint32_t timeleft,
		     char *buf, size_t len);

/* A uid or gid as decimal digits only (no sign, blank or suffix) up to
 * UINT32_MAX.  0, or -EINVAL. */
int quota_parse_id(const char *s, uint32_t *id);

/* The report as "key value" lines into buf (always NUL-terminated).
 * Returns the length it needed, as snprintf. */
size_t quota_report_write(const struct quota_report *r, char *buf,
			  size_t len);
/* And back.  0, or -EBADMSG when a line is missing or malformed. */
int quota_report_parse(const char *text, struct quota_report *r);

/*
 * quota(1)'s report for r, name being the user's or group's name (or the
 * number as text): a header, the column titles and one line for the
 * export, usage marked '*' when over a limit.  Only for r->found.
 * Returns the length it needed, as snprintf.
 */
size_t quota_format(const struct quota_report *r, const char *name,
		    char *buf, size_t len);

#endif
