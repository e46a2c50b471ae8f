/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attribute cache rules, as the Linux client has them.
 *
 * Attributes are believed for a timeout that starts at acregmin (files) or
 * acdirmin (directories) and doubles each time the server confirms that
 * nothing changed, up to acregmax/acdirmax; any change starts it again at
 * the minimum.  noac makes every timeout zero.
 *
 * A file whose mtime or ctime lies within the server's time_delta of the
 * server's "now" may change again without its timestamps moving, so its
 * attributes are not believed beyond this moment.  The server's clock is
 * estimated from the newest ctime we have seen (no reply carries the
 * server's time): the estimate can only be late, which errs toward asking
 * again, never toward believing stale data.
 *
 * NFSv4 attributes carry the change attribute (fattr3.change, 0 for v2
 * and v3): an equal value proves the file unchanged and a different one
 * changed, and the time_delta rule does not apply to them.
 *
 * The functions are pure: the caller passes the clock, so tests can drive
 * time.  Locking is the caller's (the inode lock).
 */
#ifndef NFSFUSE_CACHE_ATTR_H
#define NFSFUSE_CACHE_ATTR_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"

#define NS_PER_SEC 1000000000ll

static inline bool nfstime_eq(const struct nfstime3 *a,
			      const struct nfstime3 *b)
{
	return a->seconds == b->seconds && a->nseconds == b->nseconds;
}

static inline int64_t nfstime_ns(const struct nfstime3 *t)
{
	return (int64_t)t->seconds * NS_PER_SEC + t->nseconds;
}

/* Do wcc pre-op attributes describe the file as a says it is?  NFSv4's
 * come as a change attribute, which moves at every change. */
static inline bool wcc_attr_is(const struct wcc_attr *pre,
			       const struct fattr3 *a)
{
	if (pre->change)
		return pre->change == a->change;
	return pre->size == a->size && nfstime_eq(&pre->mtime, &a->mtime) &&
	       nfstime_eq(&pre->ctime, &a->ctime);
}

struct acache_params {
	unsigned regmin, regmax, dirmin, dirmax; /* seconds */
	bool noac;
	int64_t time_delta_ns;                   /* FSINFO time_delta */
};

struct attr_state {
	struct fattr3 attr;
	bool valid;
	int64_t fetched;   /* monotonic ns: when the server last said so */
	int64_t timeo;     /* ns the attributes are believed after fetched */
	/* A READ the server served since asked for no attributes (NFSv4):
	 * the server's atime may have moved as a local read moves it. */
	bool atime_moved;
};

enum acache_change {
	ACACHE_NEW,        /* nothing was cached */
	ACACHE_SAME,       /* size, mtime and ctime as cached */
	ACACHE_META,       /* ctime moved, size and mtime did not: metadata */
	ACACHE_DATA,       /* size or mtime moved: the data changed */
	ACACHE_REFUSED     /* not cached: no file type, or not the file's */
};

/* What changed between two sets of attributes of one file. */
enum acache_change acache_compare(const struct fattr3 *old,
				  const struct fattr3 *cur);

/*
 * Fresh attributes arrived.  mono_now is CLOCK_MONOTONIC, real_now the
 * wall clock (for the time_delta rule), both in ns.  server_skew is the
 * shared estimate of (server clock - our clock), updated here.
 */
enum acache_change acache_update(struct attr_state *s, const struct fattr3 *a,
				 const struct acache_params *p,
				 int64_t mono_now, int64_t real_now,
				 int64_t *server_skew);

/* Are the cached attributes still to be believed at mono_now? */
bool acache_fresh(const struct attr_state *s, int64_t mono_now);

/* Seconds left to believe them (for the kernel's attr_timeout), >= 0. */
double acache_remaining(const struct attr_state *s, int64_t mono_now);

/* Forget the attributes (the next use asks the server). */
void acache_invalidate(struct attr_state *s);
/* A READ that brought no attributes went: their atime is the server's
 * no longer, until the next attributes arrive (acache_update). */
void acache_atime_moved(struct attr_state *s);
/* Known current at mono_now (a delegation vouches for them): believed
 * again for their timeout.  Not after acache_expire() or with a timeout
 * of 0 (noac): those ask for the server's word.  Whether renewed. */
bool acache_renew(struct attr_state *s, int64_t mono_now);
/* Stop believing them but keep them, so that the answer of the next ask
 * is still compared with them (a change of data is still seen as one). */
void acache_expire(struct attr_state *s);

/* wcc: were the cached attributes exactly those the server had before
 * our change?  Then the change was ours alone. */
bool acache_wcc_matches(const struct attr_state *s, const struct wcc_attr *pre);

#endif
