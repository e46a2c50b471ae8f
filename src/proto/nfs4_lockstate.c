/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_lockstate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t nfs4_lkowner_name(uint64_t owner, bool flock,
			 char out[NFS4_LKOWNER_NAME_MAX])
{
	int n = snprintf(out, NFS4_LKOWNER_NAME_MAX, "%s:%016" PRIx64,
			 flock ? "flock" : "posix", owner);

	return n < 0 ? 0 : (size_t)n;
}

void nfs4_lock_range_to4(uint64_t start, uint64_t len, uint64_t *offset,
			 uint64_t *length)
{
	*offset = start;
	/* RFC 8881 §18.10.3: a length that would pass 2^64 - 1 is refused
	 * (NFS4ERR_INVAL) unless it is all ones, which means the rest. */
	if (len == 0 || len > UINT64_MAX - start)
		*length = UINT64_MAX;
	else
		*length = len;
}

void nfs4_lock_range_from4(uint64_t offset, uint64_t length, uint64_t *start,
			   uint64_t *len)
{
	bool clamped = offset > (uint64_t)INT64_MAX;

	if (clamped)
		offset = (uint64_t)INT64_MAX;
	*start = offset;
	if (clamped || length == 0 || length == UINT64_MAX ||
	    length - 1 > (uint64_t)INT64_MAX - offset)
		*len = 0;
	else
		*len = length;
}

bool nfs4_stateid_newer(const struct nfs4_stateid *a,
			const struct nfs4_stateid *b)
{
	if (memcmp(a->other, b->other, NFS4_OTHER_SIZE))
		return true;
	return (int32_t)(a->seqid - b->seqid) > 0;
}

void nfs4_lktable_init(struct nfs4_lktable *t)
{
	memset(t, 0, sizeof(*t));
}

void nfs4_lktable_clear(struct nfs4_lktable *t)
{
	while (t->states) {
		struct nfs4_lkstate *e = t->states;

		t->states = e->next;
		nfs4_lkranges_free(&e->ranges);
		free(e);
	}
	while (t->opens) {
		struct nfs4_lkopen *o = t->opens;

		t->opens = o->next;
		free(o);
	}
	free(t->lost);
	t->lost = NULL;
	t->nlost = 0;
	t->nstates = 0;
	t->nopens = 0;
}

static bool fh_ok(const struct nfs_fh3 *fh)
{
	return fh && fh->len > 0 && fh->len <= NFS3_FHSIZE;
}

static bool fh_eq(const struct nfs_fh3 *a, const struct nfs_fh3 *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

struct nfs4_lkstate *nfs4_lkstate_get(struct nfs4_lktable *t,
				      const struct nfs_fh3 *fh, uint64_t ino,
				      uint64_t owner, bool flock, bool create)
{
	struct nfs4_lkstate *e;

	if (!fh_ok(fh))
		return NULL;
	for (e = t->states; e; e = e->next)
		if (e->owner == owner && e->flock == flock &&
		    fh_eq(&e->fh, fh))
			return e;
	if (!create)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->fh.len = fh->len;
	memcpy(e->fh.data, fh->data, fh->len);
	e->ino = ino;
	e->owner = owner;
	e->flock = flock;
	e->next = t->states;
	t->states = e;
	t->nstates++;
	return e;
}

void nfs4_lkstate_granted(struct nfs4_lkstate *e,
			  const struct nfs4_stateid *sid)
{
	/* Replies of one owner on one file arrive in order (the entry is
	 * busy meanwhile), but an older seqid is never taken back. */
	if (!e->has_stateid || nfs4_stateid_newer(sid, &e->stateid))
		e->stateid = *sid;
	e->has_stateid = true;
	e->held = true;
	e->lock_seqid++;
}

void nfs4_lkstate_unlocked(struct nfs4_lkstate *e,
			   const struct nfs4_stateid *sid, bool whole)
{
	if (e->has_stateid && nfs4_stateid_newer(sid, &e->stateid))
		e->stateid = *sid;
	e->lock_seqid++;
	if (whole)
		e->held = false;
}

int nfs4_lkstate_record(struct nfs4_lkstate *e, uint64_t start, uint64_t len,
			bool lock, bool excl)
{
	return nfs4_lkranges_apply(&e->ranges, start, len, lock, excl);
}

void nfs4_lkstate_lost(struct nfs4_lkstate *e)
{
	nfs4_lkranges_free(&e->ranges);
	e->has_stateid = false;
	e->held = false;
	e->lock_seqid = 0;
	memset(&e->stateid, 0, sizeof(e->stateid));
}

struct nfs4_lkopen *nfs4_lkstate_put(struct nfs4_lktable *t,
				     struct nfs4_lkstate *e, bool *removed)
{
	struct nfs4_lkstate **pp;
	struct nfs4_lkopen *o;

	*removed = false;
	if (e->has_stateid || e->busy)
		return NULL;
	for (pp = &t->states; *pp && *pp != e; pp = &(*pp)->next)
		;
	if (!*pp)
		return NULL;
	*pp = e->next;
	t->nstates--;
	o = e->open;
	nfs4_lkranges_free(&e->ranges);
	free(e);
	*removed = true;
	return o;
}

bool nfs4_lkstate_holds(const struct nfs4_lktable *t, uint64_t ino,
			uint64_t owner, bool flock)
{
	for (const struct nfs4_lkstate *e = t->states; e; e = e->next)
		if (e->ino == ino && e->owner == owner && e->flock == flock &&
		    (e->held || e->busy))
			return true;
	return false;
}

int nfs4_lktable_mark_lost(struct nfs4_lktable *t, uint64_t ino)
{
	uint64_t *n2;

	if (nfs4_lktable_ino_lost(t, ino))
		return 0;
	n2 = realloc(t->lost, (t->nlost + 1) * sizeof(*n2));
	if (!n2)
		return -ENOMEM;
	t->lost = n2;
	n2[t->nlost++] = ino;
	return 0;
}

bool nfs4_lktable_ino_lost(const struct nfs4_lktable *t, uint64_t ino)
{
	for (size_t i = 0; i < t->nlost; i++)
		if (t->lost[i] == ino)
			return true;
	return false;
}

void nfs4_lktable_reopened(struct nfs4_lktable *t, uint64_t ino)
{
	for (size_t i = 0; i < t->nlost; i++)
		if (t->lost[i] == ino)
			t->lost[i--] = t->lost[--t->nlost];
}

struct nfs4_lkopen *nfs4_lkopen_get(struct nfs4_lktable *t,
				    const struct nfs_fh3 *fh, uint32_t uid)
{
	struct nfs4_lkopen *o;

	if (!fh_ok(fh))
		return NULL;
	for (o = t->opens; o; o = o->next)
		if (!o->closing && o->uid == uid && fh_eq(&o->fh, fh)) {
			o->refs++;
			return o;
		}
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->fh.len = fh->len;
	memcpy(o->fh.data, fh->data, fh->len);
	o->uid = uid;
	o->refs = 1;
	o->next = t->opens;
	t->opens = o;
	t->nopens++;
	return o;
}

bool nfs4_lkopen_put(struct nfs4_lktable *t, struct nfs4_lkopen *o)
{
	if (o->refs > 0)
		o->refs--;
	if (o->refs > 0)
		return false;
	if (o->has_stateid) {
		o->closing = true;
		return true;
	}
	nfs4_lkopen_free(t, o);
	return false;
}

void nfs4_lkopen_free(struct nfs4_lktable *t, struct nfs4_lkopen *o)
{
	struct nfs4_lkopen **pp;

	for (pp = &t->opens; *pp && *pp != o; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	*pp = o->next;
	t->nopens--;
	free(o);
}
