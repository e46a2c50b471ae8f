/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte-range locks again after a server restart (nfs4_lock.h,
 * nfs4_lock_reclaim): RFC 8881 §8.4.2.1, §18.10.
 *
 *   lock opens  PUTFH OPEN(CLAIM_PREVIOUS as "lock-open-UID", the access
 *               held); CLAIM_FH where the server has no grace period
 *   each range  PUTFH LOCK(reclaim=true, its type and range): the first
 *               of an owner on a file names the reclaimed open
 *               (open_to_lock_owner4), the next ones the new lock
 *               stateid; an ordinary LOCK where there is no grace period
 *
 * It runs on the renewal thread while every other call waits for the
 * recovery, so its calls are flagged as the recovery's own.  An entry
 * busy with a call of its own (that call waits for the recovery, then
 * goes again with the old stateid) is reclaimed all the same: the entry's
 * generation tells that call to go once more with the new stateid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "nfs4_lock_int.h"
#include "nfs4_open.h"
#include "nfs4_session.h"

/* One entry to reclaim: a copy, looked up again (by fh, owner, kind)
 * to store the outcome. */
struct rec_item {
	struct nfs_fh3 fh;
	uint64_t ino;
	uint64_t owner;
	bool flock;
	uint32_t uid;
	struct nfs4_lkranges ranges;
	struct rec_item *next;
};

struct rec {
	struct nfs4_locks *L;
	enum nfs4_reclaim_kind kind;
	bool lapsed;
	bool as_new;            /* the server said NO_GRACE: ordinary LOCKs */
	unsigned reclaimed, retaken, lost;
};

static bool ending(struct nfs4_locks *L)
{
	bool e;

	pthread_mutex_lock(&L->mu);
	e = L->ending;
	pthread_mutex_unlock(&L->mu);
	return e;
}

static struct rpc_cred cred_of(struct nfs4_locks *L, uint32_t uid)
{
	struct rpc_cred cred = L->c->v4->cred;

	/* As the owner's user, who could open and lock the file. */
	cred.uid = uid;
	cred.ngids = 0;
	return cred;
}

/* ---- lock opens ---- */

/* CLOSE of a lock open whose last reference the reclaim dropped. */
static void rec_open_put(struct nfs4_locks *L, struct nfs4_lkopen *o)
{
	struct nfs4_lkcall k = { .op = NFS4OP_CLOSE, .recovery = true };
	bool last;

	if (!o)
		return;
	pthread_mutex_lock(&L->mu);
	last = nfs4_lkopen_put(&L->t, o);
	pthread_mutex_unlock(&L->mu);
	if (!last)
		return;
	k.fh = &o->fh;
	k.a.close.stateid = o->stateid;
	if (nfs4_lk_call_patient(L, &k, &o->cred) == 0)
		COUNT(L, close_calls);
	pthread_mutex_lock(&L->mu);
	nfs4_lkopen_free(&L->t, o);
	pthread_mutex_unlock(&L->mu);
}

/* One OPEN of o again: the verdict. */
static enum nfs4_lkrec_verdict reopen_one(struct rec *R,
					  struct nfs4_lkopen *o,
					  uint32_t access, bool reclaim,
					  struct nfs4_stateid *sid, int *err)
{
	struct nfs4_locks *L = R->L;
	struct nfs4_lkcall k = { .op = NFS4OP_OPEN, .fh = &o->fh,
				 .recovery = true };
	struct nfs4_open_args *a = &k.a.open;
	struct rpc_cred cred = cred_of(L, o->uid);

	nfs4_lk_open_owner(o->uid, k.owner, sizeof(k.owner));
	a->share_access = access | NFS4_SHARE_WANT_NO_DELEG;
	a->share_deny = NFS4_SHARE_DENY_NONE;
	a->owner.clientid = L->c->v4->clientid;
	a->owner.owner = (const uint8_t *)k.owner;
	a->owner.owner_len = (uint32_t)strlen(k.owner);
	a->opentype = NFS4_OPEN_NOCREATE;
	a->claim = reclaim ? NFS4_CLAIM_PREVIOUS : NFS4_CLAIM_FH;
	a->delegate_type = NFS4_OPEN_DELEGATE_NONE;
	*err = nfs4_lk_call_patient(L, &k, &cred);
	COUNT(L, open_calls);
	if (*err)
		return NFS4_LKREC_LOST;
	*sid = k.stateid;
	return nfs4_rec_lock_verdict(k.status, reclaim, R->lapsed);
}

/* o (busy, a reference held) again, in grace or as a new open. */
static int reopen(struct rec *R, struct nfs4_lkopen *o, uint32_t access)
{
	struct nfs4_stateid sid;
	enum nfs4_lkrec_verdict v = NFS4_LKREC_LOST;
	int err = 0;

	if (R->kind == NFS4_RECLAIM_GRACE && access) {
		v = reopen_one(R, o, access, !R->as_new, &sid, &err);
		if (!err && v == NFS4_LKREC_AS_NEW) {
			R->as_new = true;
			v = reopen_one(R, o, access, false, &sid, &err);
		}
	}
	if (err)
		return err;
	pthread_mutex_lock(&R->L->mu);
	/* What was held under the old stateid is gone with it. */
	o->has_stateid = v == NFS4_LKREC_HELD;
	o->access = v == NFS4_LKREC_HELD ? access : 0;
	if (v == NFS4_LKREC_HELD)
		o->stateid = sid;
	else
		memset(&o->stateid, 0, sizeof(o->stateid));
	pthread_mutex_unlock(&R->L->mu);
	TRACE("nfs4 recovery: lock open of %08x by uid %u %s",
	      nfs4_rec_fh_hash(o->fh.data, o->fh.len), (unsigned)o->uid,
	      v == NFS4_LKREC_HELD ? "had again" : "lost");
	return 0;
}

/* Every lock open with a stateid, had again (or forgotten).  An open
 * busy with its own OPEN or CLOSE is left to it. */
static int reopen_all(struct rec *R)
{
	struct nfs4_locks *L = R->L;
	int ret = 0;

	for (;;) {
		struct nfs4_lkopen *o;
		uint32_t access = 0;

		pthread_mutex_lock(&L->mu);
		for (o = L->t.opens; o; o = o->next)
			if (o->has_stateid && !o->closing && !o->busy &&
			    !o->reclaimed)
				break;
		if (o) {
			o->busy = true;
			o->reclaimed = true;
			o->refs++;
			access = o->access;
		}
		pthread_mutex_unlock(&L->mu);
		if (!o)
			break;
		ret = reopen(R, o, access);
		pthread_mutex_lock(&L->mu);
		o->busy = false;
		pthread_cond_broadcast(&L->cv);
		pthread_mutex_unlock(&L->mu);
		rec_open_put(L, o);
		if (ret)
			break;
	}
	pthread_mutex_lock(&L->mu);
	for (struct nfs4_lkopen *o = L->t.opens; o; o = o->next)
		o->reclaimed = false;
	pthread_mutex_unlock(&L->mu);
	return ret;
}

/* ---- lock ranges ---- */

static void log_lost(struct rec *R, const struct rec_item *it,
		     const struct nfs4_lkrange *r, const char *why)
{
	uint32_t h = nfs4_rec_fh_hash(it->fh.data, it->fh.len);

	R->lost++;
	STAT_INC(nfs4_locks_lost);
	nf_log(NF_LOG_WARNING, "NFSv4 recovery: the %s lock of file %08x "
	       "by owner %016" PRIx64 " (%s, range %" PRIu64 "+%" PRIu64
	       ") is lost (%s): the file's reads and writes answer EIO "
	       "until it is opened again", r->excl ? "write" : "read", h,
	       it->owner, it->flock ? "flock" : "posix", r->start,
	       nfs4_lkrange_len(r), why);
	TRACE("nfs4 recovery: lock of %08x owner %016" PRIx64 " %" PRIu64
	      "+%" PRIu64 " lost (%s)", h, it->owner, r->start,
	      nfs4_lkrange_len(r), why);
}

/* The open stateid the owner's locks on the file come from: its lock
 * open's, or its user's own open's (both reclaimed before). */
static bool open_for(struct rec *R, const struct rec_item *it, uint32_t need,
		     struct nfs4_stateid *sid)
{
	struct nfs4_locks *L = R->L;
	struct nfs4_lkstate *e;
	bool found = false, own = false;

	pthread_mutex_lock(&L->mu);
	e = nfs4_lkstate_get(&L->t, &it->fh, it->ino, it->owner, it->flock,
			     false);
	if (e && e->open) {
		found = e->open->has_stateid &&
			(e->open->access & need) == need;
		if (found)
			*sid = e->open->stateid;
	} else if (e) {
		own = true;
	}
	pthread_mutex_unlock(&L->mu);
	if (own && L->c->v4opens &&
	    (nfs4_opens_access(L->c->v4opens, &it->fh, it->uid) & need) ==
		    need)
		found = nfs4_opens_stateid(L->c->v4opens, &it->fh, it->uid,
					   sid) == 0;
	return found;
}

struct lock_out {
	bool have;                      /* a lock stateid made */
	struct nfs4_stateid stateid;
	uint32_t seqid;
	struct nfs4_lkranges held;      /* what was had again */
};

/* One LOCK of r: 0 with *v, or the session's error. */
static int lock_one(struct rec *R, const struct rec_item *it,
		    const struct nfs4_lkrange *r, bool reclaim,
		    const struct nfs4_stateid *open_sid, struct lock_out *out,
		    enum nfs4_lkrec_verdict *v, uint32_t *st)
{
	struct nfs4_locks *L = R->L;
	struct nfs4_lkcall k = { .op = NFS4OP_LOCK, .fh = &it->fh,
				 .recovery = true };
	struct nfs4_lock_args *a = &k.a.lock;
	struct rpc_cred cred = cred_of(L, it->uid);
	int ret;

	a->locktype = r->excl ? NFS4_WRITE_LT : NFS4_READ_LT;
	a->reclaim = reclaim;
	nfs4_lock_range_to4(r->start, nfs4_lkrange_len(r), &a->offset,
			    &a->length);
	nfs4_lkowner_name(it->owner, it->flock, k.owner);
	a->lock_seqid = out->seqid;
	if (out->have) {
		a->lock_stateid = out->stateid;
	} else {
		a->new_lock_owner = true;
		a->open_seqid = 0;
		a->open_stateid = *open_sid;
		a->lock_owner.clientid = L->c->v4->clientid;
		a->lock_owner.owner = (const uint8_t *)k.owner;
		a->lock_owner.owner_len = (uint32_t)strlen(k.owner);
	}
	ret = nfs4_lk_call_patient(L, &k, &cred);
	if (ret)
		return ret;
	*st = k.status;
	*v = nfs4_rec_lock_verdict(k.status, reclaim, R->lapsed);
	if (*v == NFS4_LKREC_HELD) {
		out->have = true;
		out->stateid = k.stateid;
		out->seqid++;
	}
	return 0;
}

/* Each range of it again: 0 with *out, or the session's error. */
static int lock_ranges(struct rec *R, const struct rec_item *it,
		       struct lock_out *out)
{
	struct nfs4_stateid open_sid;
	bool any_excl = false;

	for (size_t i = 0; i < it->ranges.n; i++)
		any_excl |= it->ranges.r[i].excl;
	if (R->kind != NFS4_RECLAIM_GRACE) {
		for (size_t i = 0; i < it->ranges.n; i++)
			log_lost(R, it, &it->ranges.r[i], "the lease expired "
				 "or the server revoked it");
		return 0;
	}
	if (!open_for(R, it, any_excl ? NFS4_SHARE_ACCESS_WRITE
				      : NFS4_SHARE_ACCESS_READ, &open_sid)) {
		for (size_t i = 0; i < it->ranges.n; i++)
			log_lost(R, it, &it->ranges.r[i], "its open could not "
				 "be had again");
		return 0;
	}
	for (size_t i = 0; i < it->ranges.n; i++) {
		const struct nfs4_lkrange *r = &it->ranges.r[i];
		enum nfs4_lkrec_verdict v;
		bool reclaim = !R->as_new;
		uint32_t st = NFS4_OK;
		const char *name;
		int ret;

		ret = lock_one(R, it, r, reclaim, &open_sid, out, &v, &st);
		if (ret == 0 && v == NFS4_LKREC_AS_NEW) {
			R->as_new = true;
			reclaim = false;
			ret = lock_one(R, it, r, reclaim, &open_sid, out, &v,
				       &st);
		}
		if (ret)
			return ret;
		name = nfs4_stat_name(st);
		TRACE("nfs4 recovery: LOCK%s of %08x owner %016" PRIx64 " %s %"
		      PRIu64 "+%" PRIu64 " -> %s",
		      reclaim ? " reclaim" : "",
		      nfs4_rec_fh_hash(it->fh.data, it->fh.len), it->owner,
		      r->excl ? "write" : "read", r->start,
		      nfs4_lkrange_len(r), name ? name : "?");
		if (v != NFS4_LKREC_HELD) {
			log_lost(R, it, r, name ? name : "refused");
			continue;
		}
		STAT_INC(nfs4_lock_reclaims);
		if (reclaim)
			R->reclaimed++;
		else
			R->retaken++;
		if (nfs4_lkranges_apply(&out->held, r->start,
					nfs4_lkrange_len(r), true, r->excl))
			nf_log(NF_LOG_WARNING, "out of memory recording a "
			       "reclaimed NFSv4 lock");
	}
	return 0;
}

/* The outcome of it into its entry (if it is still there). */
static void store(struct rec *R, const struct rec_item *it,
		  struct lock_out *out, bool some_lost)
{
	struct nfs4_locks *L = R->L;
	struct nfs4_lkopen *drop = NULL;
	struct nfs4_lkstate *e;

	pthread_mutex_lock(&L->mu);
	e = nfs4_lkstate_get(&L->t, &it->fh, it->ino, it->owner, it->flock,
			     false);
	if (e) {
		e->gen++;
		nfs4_lkstate_lost(e);
		if (out->have) {
			e->has_stateid = true;
			e->held = true;
			e->stateid = out->stateid;
			e->lock_seqid = out->seqid;
			e->ranges = out->held;
			nfs4_lkranges_init(&out->held);
		} else {
			/* Nothing held: the next LOCK starts from an open
			 * again. */
			drop = e->open;
			e->open = NULL;
		}
	}
	if (some_lost && nfs4_lktable_mark_lost(&L->t, it->ino))
		nf_log(NF_LOG_WARNING, "out of memory marking a lost lock");
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	rec_open_put(L, drop);
}

/* A copy of every entry with ranges held. */
static struct rec_item *snapshot(struct nfs4_locks *L, size_t *n)
{
	struct rec_item *list = NULL;

	*n = 0;
	pthread_mutex_lock(&L->mu);
	for (struct nfs4_lkstate *e = L->t.states; e; e = e->next) {
		struct rec_item *it;

		if (!e->ranges.n)
			continue;
		it = calloc(1, sizeof(*it));
		if (!it || nfs4_lkranges_copy(&it->ranges, &e->ranges)) {
			free(it);
			nf_log(NF_LOG_WARNING, "out of memory reclaiming "
			       "NFSv4 locks");
			break;
		}
		it->fh = e->fh;
		it->ino = e->ino;
		it->owner = e->owner;
		it->flock = e->flock;
		it->uid = e->uid;
		it->next = list;
		list = it;
		(*n)++;
	}
	pthread_mutex_unlock(&L->mu);
	return list;
}

static void free_items(struct rec_item *it)
{
	while (it) {
		struct rec_item *next = it->next;

		nfs4_lkranges_free(&it->ranges);
		free(it);
		it = next;
	}
}

static int reclaim_locks(struct rec *R)
{
	struct rec_item *list, *it;
	size_t n;
	int ret;

	list = snapshot(R->L, &n);
	ret = reopen_all(R);
	for (it = list; it && !ret && !ending(R->L); it = it->next) {
		struct lock_out out = { 0 };
		unsigned lost0 = R->lost;

		nfs4_lkranges_init(&out.held);
		ret = lock_ranges(R, it, &out);
		if (ret == 0)
			store(R, it, &out, R->lost > lost0);
		nfs4_lkranges_free(&out.held);
	}
	if (n || ret)
		nf_log(NF_LOG_WARNING, "NFSv4 recovery: %u lock(s) reclaimed, "
		       "%u taken again (no grace period), %u lost%s%s",
		       R->reclaimed, R->retaken, R->lost,
		       ret ? "; stopped: " : "", ret ? strerror(-ret) : "");
	free_items(list);
	return ret;
}

int nfs4_lock_reclaim(struct nfs_client *c, enum nfs4_reclaim_kind kind,
		      bool lapsed)
{
	struct nfs4_session *s = c->v4;
	struct rec R = { .kind = kind, .lapsed = lapsed };
	int ret;

	/* nfs4_locks_stop() waits while this runs. */
	pthread_mutex_lock(&s->lock);
	R.L = c->v4locks;
	if (R.L)
		R.L->reclaiming = true;
	pthread_mutex_unlock(&s->lock);
	if (!R.L)
		return 0;
	ret = reclaim_locks(&R);
	pthread_mutex_lock(&s->lock);
	R.L->reclaiming = false;
	pthread_cond_broadcast(&R.L->reclaimed);
	pthread_mutex_unlock(&s->lock);
	return ret;
}
