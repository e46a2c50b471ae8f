/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "quota.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t quota_kib(uint32_t blocks, int32_t bsize)
{
	uint64_t b = bsize > 0 ? (uint64_t)bsize : 1024;

	return ((uint64_t)blocks * b + 1023) / 1024;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* One dimension (blocks or files), all in the same unit: the total
 * becomes the limit unless FSSTAT's is smaller, and the free counts
 * shrink to what the limit leaves. */
static void narrow(uint64_t limit, uint64_t used, fsblkcnt_t *total,
		   fsblkcnt_t *free_, fsblkcnt_t *avail)
{
	uint64_t left = limit > used ? limit - used : 0;

	*total = min_u64(*total, limit);
	*free_ = min_u64(*free_, left);
	*avail = min_u64(*avail, left);
}

bool quota_statfs_apply(const struct rquota_dqblk *q, struct statvfs *sv)
{
	uint32_t blim = q->bhardlimit ? q->bhardlimit : q->bsoftlimit;
	uint32_t flim = q->fhardlimit ? q->fhardlimit : q->fsoftlimit;
	uint64_t bsize = q->bsize > 0 ? (uint64_t)q->bsize : 1024;
	uint64_t frsize = sv->f_frsize ? sv->f_frsize : sv->f_bsize;

	if (blim && frsize) {
		/* The limit rounds down and the usage up: statfs never
		 * promises a block the server would refuse. */
		uint64_t limit = (uint64_t)blim * bsize / frsize;
		uint64_t used = ((uint64_t)q->curblocks * bsize + frsize - 1) /
				frsize;

		narrow(limit, used, &sv->f_blocks, &sv->f_bfree,
		       &sv->f_bavail);
	}
	if (flim) {
		fsfilcnt_t favail = sv->f_favail;

		narrow(flim, q->curfiles, &sv->f_files, &sv->f_ffree, &favail);
		sv->f_favail = favail;
	}
	return (blim && frsize) || flim;
}

void quota_grace_str(uint32_t used, uint32_t soft, uint32_t timeleft,
		     char *buf, size_t len)
{
	uint64_t minutes, hours;

	if (!soft || used <= soft || timeleft == 0) {
		snprintf(buf, len, "none");
		return;
	}
	/* quota(1)'s rounding: to the minute, then to the day. */
	minutes = ((uint64_t)timeleft + 30) / 60;
	hours = minutes / 60;
	if (hours >= 24)
		snprintf(buf, len, "%" PRIu64 "days", (hours + 12) / 24);
	else
		snprintf(buf, len, "%2" PRIu64 ":%02" PRIu64, hours,
			 minutes % 60);
}

struct out {
	char *buf;
	size_t len, at;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->at < o->len ? o->buf + o->at : NULL,
		      o->at < o->len ? o->len - o->at : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->at += (size_t)n;
}

static const char *type_word(uint32_t type)
{
	return type == RQUOTA_GRPQUOTA ? "group" : "user";
}

size_t quota_report_write(const struct quota_report *r, char *buf,
			  size_t len)
{
	struct out o = { buf, len, 0 };
	const struct rquota_dqblk *q = &r->q;

	if (len)
		buf[0] = '\0';
	put(&o, "where %s\ntype %s\nid %" PRIu32 "\nstatus %s\n", r->where,
	    type_word(r->type), r->id, r->found ? "ok" : "noquota");
	if (!r->found)
		return o.at;
	put(&o, "bsize %" PRId32 "\nactive %d\n", q->bsize, q->active ? 1 : 0);
	put(&o, "blocks %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
	    q->curblocks, q->bsoftlimit, q->bhardlimit, q->btimeleft);
	put(&o, "files %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
	    q->curfiles, q->fsoftlimit, q->fhardlimit, q->ftimeleft);
	return o.at;
}

/* Up to n unsigned 32-bit decimal numbers separated by one space, and
 * nothing else. */
static int parse_u32s(const char *s, uint32_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned long long x;
		char *end;

		if (*s < '0' || *s > '9')
			return -EBADMSG;
		errno = 0;
		x = strtoull(s, &end, 10);
		if (errno || x > UINT32_MAX)
			return -EBADMSG;
		v[i] = (uint32_t)x;
		s = end;
		if (i + 1 < n && *s++ != ' ')
			return -EBADMSG;
	}
	return *s ? -EBADMSG : 0;
}

int quota_parse_id(const char *s, uint32_t *id)
{
	return parse_u32s(s, id, 1) ? -EINVAL : 0;
}

int quota_report_parse(const char *text, struct quota_report *r)
{
	enum { WHERE = 1, TYPE = 2, ID = 4, STATUS = 8, BSIZE = 16,
	       ACTIVE = 32, BLOCKS = 64, FILES = 128 };
	unsigned seen = 0;
	const char *line = text;

	memset(r, 0, sizeof(*r));
	while (*line) {
		size_t n = strcspn(line, "\n");
		char l[1200], *val;
		uint32_t v[4];

		if (n >= sizeof(l))
			return -EBADMSG;
		memcpy(l, line, n);
		l[n] = '\0';
		line += n + (line[n] == '\n');
		val = strchr(l, ' ');
		if (!val)
			return -EBADMSG;
		*val++ = '\0';
		if (!strcmp(l, "where")) {
			if (strlen(val) >= sizeof(r->where))
				return -EBADMSG;
			strcpy(r->where, val);
			seen |= WHERE;
		} else if (!strcmp(l, "type")) {
			if (!strcmp(val, "user"))
				r->type = RQUOTA_USRQUOTA;
			else if (!strcmp(val, "group"))
				r->type = RQUOTA_GRPQUOTA;
			else
				return -EBADMSG;
			seen |= TYPE;
		} else if (!strcmp(l, "id")) {
			if (parse_u32s(val, &r->id, 1))
				return -EBADMSG;
			seen |= ID;
		} else if (!strcmp(l, "status")) {
			if (strcmp(val, "ok") && strcmp(val, "noquota"))
				return -EBADMSG;
			r->found = !strcmp(val, "ok");
			seen |= STATUS;
		} else if (!strcmp(l, "bsize")) {
			/* signed on the wire: passed on as the server sent
			 * it, and quota_kib() copes */
			bool neg = *val == '-';

			if (parse_u32s(val + neg, v, 1) ||
			    v[0] > (uint32_t)INT32_MAX + neg)
				return -EBADMSG;
			r->q.bsize = neg ? (int32_t)(-(int64_t)v[0])
					 : (int32_t)v[0];
			seen |= BSIZE;
		} else if (!strcmp(l, "active")) {
			if (parse_u32s(val, v, 1) || v[0] > 1)
				return -EBADMSG;
			r->q.active = v[0] == 1;
			seen |= ACTIVE;
		} else if (!strcmp(l, "blocks")) {
			if (parse_u32s(val, v, 4))
				return -EBADMSG;
			r->q.curblocks = v[0];
			r->q.bsoftlimit = v[1];
			r->q.bhardlimit = v[2];
			r->q.btimeleft = v[3];
			seen |= BLOCKS;
		} else if (!strcmp(l, "files")) {
			if (parse_u32s(val, v, 4))
				return -EBADMSG;
			r->q.curfiles = v[0];
			r->q.fsoftlimit = v[1];
			r->q.fhardlimit = v[2];
			r->q.ftimeleft = v[3];
			seen |= FILES;
		}
		/* Unknown keys are skipped: a newer daemon may say more. */
	}
	if ((seen & (WHERE | TYPE | ID | STATUS)) != (WHERE | TYPE | ID | STATUS))
		return -EBADMSG;
	if (r->found && (seen & (BSIZE | BLOCKS | FILES)) !=
				(BSIZE | BLOCKS | FILES))
		return -EBADMSG;
	return 0;
}

/* A usage over its soft or hard limit gets quota(1)'s '*'. */
static const char *over(uint32_t used, uint32_t soft, uint32_t hard)
{
	return (soft && used > soft) || (hard && used > hard) ? "*" : "";
}

size_t quota_format(const struct quota_report *r, const char *name,
		    char *buf, size_t len)
{
	const struct rquota_dqblk *q = &r->q;
	struct out o = { buf, len, 0 };
	char bgrace[32], fgrace[32], bused[32], fused[32];

	if (len)
		buf[0] = '\0';
	quota_grace_str(q->curblocks, q->bsoftlimit, q->btimeleft, bgrace,
			sizeof(bgrace));
	quota_grace_str(q->curfiles, q->fsoftlimit, q->ftimeleft, fgrace,
			sizeof(fgrace));
	snprintf(bused, sizeof(bused), "%" PRIu64 "%s",
		 quota_kib(q->curblocks, q->bsize),
		 over(q->curblocks, q->bsoftlimit, q->bhardlimit));
	snprintf(fused, sizeof(fused), "%" PRIu32 "%s", q->curfiles,
		 over(q->curfiles, q->fsoftlimit, q->fhardlimit));
	put(&o, "Disk quotas for %s %s (%cid %" PRIu32 "):\n",
	    type_word(r->type), name, r->type == RQUOTA_GRPQUOTA ? 'g' : 'u',
	    r->id);
	put(&o, "%15s %8s %8s %8s %8s %8s %8s %8s %8s\n", "Filesystem",
	    "blocks", "quota", "limit", "grace", "files", "quota", "limit",
	    "grace");
	/* A long name on a line of its own, as quota(1) does. */
	if (strlen(r->where) > 15)
		put(&o, "%s\n%15s", r->where, "");
	else
		put(&o, "%15s", r->where);
	put(&o, " %8s %8" PRIu64 " %8" PRIu64 " %8s %8s %8" PRIu32
		" %8" PRIu32 " %8s\n",
	    bused, quota_kib(q->bsoftlimit, q->bsize),
	    quota_kib(q->bhardlimit, q->bsize), bgrace, fused, q->fsoftlimit,
	    q->fhardlimit, fgrace);
	return o.at;
}
