/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "attr.h"

enum acache_change acache_compare(const struct fattr3 *old,
				  const struct fattr3 *cur)
{
	/* NFSv4: an equal change attribute is proof of no change, even
	 * where timestamps are too coarse to show one. */
	if (old->change && cur->change && old->change == cur->change)
		return ACACHE_SAME;
	if (old->size != cur->size || !nfstime_eq(&old->mtime, &cur->mtime))
		return ACACHE_DATA;
	if (!nfstime_eq(&old->ctime, &cur->ctime) ||
	    old->change != cur->change)
		return ACACHE_META;
	return ACACHE_SAME;
}

static void limits(const struct acache_params *p, uint32_t type,
		   int64_t *min, int64_t *max)
{
	bool dir = type == NF3DIR;

	*min = (int64_t)(dir ? p->dirmin : p->regmin) * NS_PER_SEC;
	*max = (int64_t)(dir ? p->dirmax : p->regmax) * NS_PER_SEC;
}

enum acache_change acache_update(struct attr_state *s, const struct fattr3 *a,
				 const struct acache_params *p,
				 int64_t mono_now, int64_t real_now,
				 int64_t *server_skew)
{
	enum acache_change change;
	int64_t min, max, server_now, newest;

	change = s->valid ? acache_compare(&s->attr, a) : ACACHE_NEW;
	limits(p, a->type, &min, &max);

	newest = nfstime_ns(&a->ctime) - real_now;
	if (newest > *server_skew)
		*server_skew = newest;
	server_now = real_now + *server_skew;

	if (p->noac)
		s->timeo = 0;
	else if (change == ACACHE_SAME && s->timeo > 0)
		s->timeo = s->timeo * 2 > max ? max : s->timeo * 2;
	else
		s->timeo = min;
	/* Changed within the timestamp granularity of now: another change
	 * in the same tick would leave mtime and ctime as they are.  Not
	 * with a change attribute, which moves whatever the clock does. */
	if (!a->change &&
	    (server_now - nfstime_ns(&a->mtime) < p->time_delta_ns ||
	     server_now - nfstime_ns(&a->ctime) < p->time_delta_ns))
		s->timeo = 0;

	s->attr = *a;
	s->valid = true;
	s->atime_moved = false;
	s->fetched = mono_now;
	return change;
}

bool acache_fresh(const struct attr_state *s, int64_t mono_now)
{
	return s->valid && mono_now - s->fetched < s->timeo;
}

double acache_remaining(const struct attr_state *s, int64_t mono_now)
{
	int64_t left;

	if (!s->valid)
		return 0.0;
	left = s->fetched + s->timeo - mono_now;
	return left > 0 ? (double)left / NS_PER_SEC : 0.0;
}

bool acache_renew(struct attr_state *s, int64_t mono_now)
{
	if (!s->valid || s->timeo == 0)
		return false;
	s->fetched = mono_now;
	return true;
}

void acache_atime_moved(struct attr_state *s)
{
	s->atime_moved = s->valid;
}

void acache_expire(struct attr_state *s)
{
	s->timeo = 0;
}

void acache_invalidate(struct attr_state *s)
{
	s->valid = false;
	s->timeo = 0;
}

bool acache_wcc_matches(const struct attr_state *s, const struct wcc_attr *pre)
{
	return s->valid && wcc_attr_is(pre, &s->attr);
}
