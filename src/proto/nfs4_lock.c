/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 LOCK, LOCKU, LOCKT and the state they need (nfs4_lock.h):
 *
 *   LOCK (first)  PUTFH LOCK(open_to_lock_owner4)
 *   LOCK (later)  PUTFH LOCK(exist_lock_owner4)
 *   LOCKU         PUTFH LOCKU
 *   LOCKT         PUTFH LOCKT
 *   free          FREE_STATEID
 *   lock open     PUTFH OPEN(CLAIM_FH, no create)  ...  PUTFH CLOSE
 */
#include "nfs4_lock.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../xdr/nfs4.h"
#include "../base/clock.h"
#include "../base/log.h"
#include "../base/trace.h"
#include "nfs4_lock_int.h"
#include "nfs4_lockstate.h"
#include "nfs4_open.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

/* Polling a blocked lock: the first wait and the longest. */
#define POLL_FIRST_MS 100u
#define POLL_MAX_MS 2000u
/* NFS4ERR_DELAY and NFS4ERR_GRACE are waited out this many times. */
#define DELAY_TRIES 40

static int lk_build(struct nfs4_compound *cmp, void *ctx)
{
	struct nfs4_lkcall *k = ctx;

	if (k->fh) {
		struct nfs4_putfh_args p;

		if (k->fh->len == 0 || k->fh->len > NFS3_FHSIZE)
			return -EINVAL;
		p.fh.len = k->fh->len;
		memcpy(p.fh.data, k->fh->data, k->fh->len);
		nfs4_add_putfh(cmp, &p);
	}
	switch (k->op) {
	case NFS4OP_LOCK:
		return nfs4_add_lock(cmp, &k->a.lock);
	case NFS4OP_LOCKT:
		return nfs4_add_lockt(cmp, &k->a.lockt);
	case NFS4OP_LOCKU:
		return nfs4_add_locku(cmp, &k->a.locku);
	case NFS4OP_OPEN:
		return nfs4_add_open(cmp, &k->a.open);
	case NFS4OP_CLOSE:
		return nfs4_add_close(cmp, &k->a.close);
	case NFS4OP_FREE_STATEID:
		return nfs4_add_free_stateid(cmp, &k->a.sid);
	default:
		return -EINVAL;
	}
}

static void take_denied(struct nfs4_lkcall *k,
			const struct nfs4_lock_denied *d)
{
	k->denied.found = true;
	k->denied.excl = d->locktype == NFS4_WRITE_LT ||
			 d->locktype == NFS4_WRITEW_LT;
	nfs4_lock_range_from4(d->offset, d->length, &k->denied.start,
			      &k->denied.len);
}

static int lk_parse(struct nfs4_compound_res *r, void *ctx)
{
	struct nfs4_lkcall *k = ctx;
	union {
		struct nfs4_status_res st;
		struct nfs4_lock_res lock;
		struct nfs4_lockt_res lockt;
		struct nfs4_stateid_res sid;
		struct nfs4_open_res open;
	} res;
	int ret;

	memset(&k->denied, 0, sizeof(k->denied));
	if (k->fh) {
		ret = nfs4_compound_next(r, NFS4OP_PUTFH, &res.st);
		if (ret == -ENODATA || (ret == 0 && res.st.status != NFS4_OK)) {
			k->status = ret ? (r->status ? r->status
					   : NFS4ERR_SERVERFAULT)
					: res.st.status;
			return 0;
		}
		if (ret)
			return ret;
	}
	memset(&res, 0, sizeof(res));
	ret = nfs4_compound_next(r, k->op, &res);
	if (ret == -ENODATA) {
		k->status = r->status ? r->status : NFS4ERR_SERVERFAULT;
		return 0;
	}
	if (ret)
		return ret;
	k->status = res.st.status;
	switch (k->op) {
	case NFS4OP_LOCK:
		if (res.lock.status == NFS4_OK)
			k->stateid = res.lock.stateid;
		else if (res.lock.status == NFS4ERR_DENIED)
			take_denied(k, &res.lock.denied);
		break;
	case NFS4OP_LOCKT:
		if (res.lockt.status == NFS4ERR_DENIED)
			take_denied(k, &res.lockt.denied);
		break;
	case NFS4OP_LOCKU:
	case NFS4OP_CLOSE:
		if (res.sid.status == NFS4_OK)
			k->stateid = res.sid.stateid;
		break;
	case NFS4OP_OPEN:
		if (res.open.status == NFS4_OK)
			k->stateid = res.open.stateid;
		break;
	default:
		break;
	}
	return 0;
}

/* 0 with k->status set, or the transport's negative errno. */
static int lk_call(struct nfs4_locks *L, struct nfs4_lkcall *k,
		   const struct rpc_cred *cred)
{
	struct nfs4_session *s = L->c->v4;
	unsigned flags = k->op == NFS4OP_LOCKT ? 0 : NFS4_CALL_CACHETHIS;

	k->L = L;
	k->status = NFS4ERR_SERVERFAULT;
	/* LOCK, LOCKU, OPEN and CLOSE change state: a retransmission is
	 * answered from the server's reply cache, not run again.  The
	 * reclaim's calls go out in the recovery, and end when it is
	 * stopped. */
	if (k->recovery)
		flags |= NFS4_CALL_RECOVERY;
	return nfs4_session_call(s, cred, flags, lk_build, lk_parse, k, NULL,
				 k->recovery ? &s->stopping : NULL);
}

const char *nfs4_lk_stname(uint32_t st)
{
	const char *n = nfs4_stat_name(st);

	return n ? n : "unknown status";
}

static int lk_errno(uint32_t st)
{
	switch (st) {
	case NFS4_OK:
		return 0;
	case NFS4ERR_DENIED:
		return -EAGAIN;
	case NFS4ERR_DEADLOCK:
		return -EDEADLK;
	case NFS4ERR_STALE:
	case NFS4ERR_FHEXPIRED:
		return -ESTALE;
	case NFS4ERR_ACCESS:
	case NFS4ERR_PERM:
		return -EACCES;
	case NFS4ERR_OPENMODE:
		return -EBADF;
	case NFS4ERR_INVAL:
	case NFS4ERR_BAD_RANGE:
	case NFS4ERR_LOCK_RANGE:
		return -EINVAL;
	default:
		return -ENOLCK;
	}
}

bool nfs4_lk_stateid_gone(uint32_t st)
{
	/* STALE_STATEID: of a client id the server no longer has (it
	 * restarted; the session made a new one). */
	return st == NFS4ERR_BAD_STATEID || st == NFS4ERR_OLD_STATEID ||
	       st == NFS4ERR_STALE_STATEID || st == NFS4ERR_EXPIRED ||
	       st == NFS4ERR_ADMIN_REVOKED || st == NFS4ERR_DELEG_REVOKED;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* lk_call again while the server says later (DELAY, GRACE). */
int nfs4_lk_call_patient(struct nfs4_locks *L, struct nfs4_lkcall *k,
			   const struct rpc_cred *cred)
{
	unsigned ms = 100;
	int ret;

	for (int i = 0;; i++) {
		ret = lk_call(L, k, cred);
		if (ret || (k->status != NFS4ERR_DELAY &&
			    k->status != NFS4ERR_GRACE) || i == DELAY_TRIES)
			return ret;
		sleep_ms(ms);
		if (ms < 1000)
			ms *= 2;
	}
}

/* ---- lock opens ---- */

void nfs4_lk_open_owner(uint32_t uid, char *out, size_t len)
{
	/* Not the open-owner of the file's other opens: OPENs of one owner
	 * on one file share a stateid, which the lock open must not move
	 * under them. */
	snprintf(out, len, "lock-open-%u", (unsigned)uid);
}

static int close_open(struct nfs4_locks *L, struct nfs4_lkopen *o)
{
	struct nfs4_lkcall k = { .op = NFS4OP_CLOSE, .fh = &o->fh };
	int ret;

	k.a.close.stateid = o->stateid;
	ret = nfs4_lk_call_patient(L, &k, &o->cred);
	COUNT(L, close_calls);
	if (ret == 0 && k.status != NFS4_OK &&
	    !nfs4_lk_stateid_gone(k.status))
		nf_log(NF_LOG_INFO, "CLOSE of a lock open: %s",
		       nfs4_lk_stname(k.status));
	return ret;
}

/* Drops a reference on o; the last one closes it. */
static void open_put(struct nfs4_locks *L, struct nfs4_lkopen *o)
{
	bool last;

	if (!o)
		return;
	pthread_mutex_lock(&L->mu);
	last = nfs4_lkopen_put(&L->t, o);
	pthread_mutex_unlock(&L->mu);
	if (!last)
		return;
	close_open(L, o);
	pthread_mutex_lock(&L->mu);
	nfs4_lkopen_free(&L->t, o);
	pthread_mutex_unlock(&L->mu);
}

/*
 * An open stateid of r's caller on r's file that allows need
 * (NFS4_SHARE_ACCESS_READ or _WRITE): the lock open of (file, uid),
 * opened or upgraded as needed.  *op gets a reference the caller gives
 * back with open_put().
 */
static int open_get(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		    uint32_t need, struct nfs4_lkopen **op,
		    struct nfs4_stateid *sid)
{
	struct nfs4_lkopen *o;
	struct nfs4_lkcall k = { .op = NFS4OP_OPEN, .fh = r->fh };
	uint32_t want;
	int ret;

	*op = NULL;
	pthread_mutex_lock(&L->mu);
	o = nfs4_lkopen_get(&L->t, r->fh, r->cred->uid);
	if (!o) {
		pthread_mutex_unlock(&L->mu);
		return -ENOMEM;
	}
	while (o->busy)
		pthread_cond_wait(&L->cv, &L->mu);
	if (o->has_stateid && (o->access & need) == need) {
		*sid = o->stateid;
		*op = o;
		pthread_mutex_unlock(&L->mu);
		return 0;
	}
	o->busy = true;
	/* Read and write at once where the caller may, so that a later
	 * lock of the other type needs no upgrade. */
	want = o->has_stateid ? (o->access | need) : NFS4_SHARE_ACCESS_BOTH;
	pthread_mutex_unlock(&L->mu);

	nfs4_lk_open_owner(r->cred->uid, k.owner, sizeof(k.owner));
	k.a.open.share_access = NFS4_SHARE_WANT_NO_DELEG;
	k.a.open.share_deny = NFS4_SHARE_DENY_NONE;
	k.a.open.owner.clientid = L->c->v4->clientid;
	k.a.open.owner.owner = (const uint8_t *)k.owner;
	k.a.open.owner.owner_len = (uint32_t)strlen(k.owner);
	k.a.open.opentype = NFS4_OPEN_NOCREATE;
	k.a.open.claim = NFS4_CLAIM_FH;
	for (;;) {
		k.a.open.share_access = want | NFS4_SHARE_WANT_NO_DELEG;
		ret = nfs4_lk_call_patient(L, &k, r->cred);
		COUNT(L, open_calls);
		if (ret || k.status == NFS4_OK)
			break;
		if ((k.status != NFS4ERR_ACCESS &&
		     k.status != NFS4ERR_OPENMODE) ||
		    want == ((o->has_stateid ? o->access : 0) | need))
			break;
		want = (o->has_stateid ? o->access : 0) | need;
	}
	pthread_mutex_lock(&L->mu);
	o->busy = false;
	if (ret == 0 && k.status == NFS4_OK) {
		if (!o->has_stateid || nfs4_stateid_newer(&k.stateid,
							  &o->stateid))
			o->stateid = k.stateid;
		o->has_stateid = true;
		o->access |= want;
		o->cred = *r->cred;
		o->cred.ngids = 0;
		*sid = o->stateid;
		*op = o;
	}
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	if (*op)
		return 0;
	open_put(L, o);
	if (ret)
		return ret;
	nf_log(NF_LOG_INFO, "OPEN for a lock: %s", nfs4_lk_stname(k.status));
	return lk_errno(k.status);
}

/* The open stateid of the caller's own open of r's file (nfs4_open.h),
 * when it allows need: what open_to_lock_owner4 should name. */
static bool caller_open(struct nfs4_locks *L, const struct nfs4_lock_req *r,
			uint32_t need, struct nfs4_stateid *sid)
{
	struct nfs_client *c = L->c;

	if (!c->v4opens ||
	    (nfs4_opens_access(c->v4opens, r->fh, r->cred->uid) & need) !=
		    need)
		return false;
	return nfs4_open_stateid(c, r->fh, r->cred->uid, sid) == 0;
}

/* ---- lock stateids ---- */

/* The entry of r, made if missing, marked busy (waits for its turn). */
static struct nfs4_lkstate *state_take(struct nfs4_locks *L,
				       const struct nfs4_lock_req *r,
				       bool create)
{
	struct nfs4_lkstate *e;

	pthread_mutex_lock(&L->mu);
	for (;;) {
		e = nfs4_lkstate_get(&L->t, r->fh, r->ino, r->owner, r->flock,
				     create);
		if (!e || !e->busy)
			break;
		pthread_cond_wait(&L->cv, &L->mu);
	}
	if (e)
		e->busy = true;
	pthread_mutex_unlock(&L->mu);
	return e;
}

/* Ends the turn taken by state_take(); an entry left without a stateid
 * goes, and the lock open it held with it. */
static void state_give(struct nfs4_locks *L, struct nfs4_lkstate *e)
{
	struct nfs4_lkopen *o;
	bool removed;

	pthread_mutex_lock(&L->mu);
	e->busy = false;
	o = nfs4_lkstate_put(&L->t, e, &removed);
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	open_put(L, o);
}

/* FREE_STATEID of e's stateid (nothing held under it any more); e is
 * busy, and loses it either way. */
static void state_free(struct nfs4_locks *L, struct nfs4_lkstate *e,
		       const struct rpc_cred *cred)
{
	struct nfs4_lkcall k = { .op = NFS4OP_FREE_STATEID };
	int ret;

	k.a.sid.stateid = e->stateid;
	ret = nfs4_lk_call_patient(L, &k, cred);
	if (ret == 0 && k.status == NFS4_OK)
		COUNT(L, stateids_freed);
	else if (ret == 0 && k.status != NFS4_OK &&
		 !nfs4_lk_stateid_gone(k.status))
		nf_log(NF_LOG_INFO, "FREE_STATEID of a lock stateid: %s",
		       nfs4_lk_stname(k.status));
	pthread_mutex_lock(&L->mu);
	nfs4_lkstate_lost(e);
	pthread_mutex_unlock(&L->mu);
}

/* Did a reclaim replace e's stateid since gen was read?  Then a call that
 * named the old one is answered "gone" and goes again with the new. */
static bool reclaimed_since(struct nfs4_locks *L, struct nfs4_lkstate *e,
			    uint32_t gen)
{
	bool again;

	pthread_mutex_lock(&L->mu);
	again = e->gen != gen && e->has_stateid;
	pthread_mutex_unlock(&L->mu);
	return again;
}

/*
 * One LOCK for r (blocking: the W lock types, a hint that we will ask
 * again).  0 (granted), -EAGAIN with *c filled (conflict), or an error.
 */
static int lock_once(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     bool blocking, struct nfs4_lock_conflict *c)
{
	struct nfs4_lkstate *e;
	bool avoid_caller = false;
	int ret = 0;

	if (c)
		memset(c, 0, sizeof(*c));
	e = state_take(L, r, true);
	if (!e)
		return -ENOMEM;
	/* Twice at most: a stateid the server forgot is made again. */
	for (int pass = 0; pass < 2; pass++) {
		struct nfs4_lkcall k = { .op = NFS4OP_LOCK, .fh = r->fh };
		struct nfs4_lock_args *a = &k.a.lock;
		struct nfs4_lkopen *o = NULL;
		bool fresh, used_caller = false;
		uint32_t gen;

		a->locktype = r->excl ? (blocking ? NFS4_WRITEW_LT
						  : NFS4_WRITE_LT)
				      : (blocking ? NFS4_READW_LT
						  : NFS4_READ_LT);
		nfs4_lock_range_to4(r->start, r->len, &a->offset, &a->length);
		nfs4_lkowner_name(r->owner, r->flock, k.owner);
		/* A reclaim may replace the stateid while e is busy. */
		pthread_mutex_lock(&L->mu);
		fresh = !e->has_stateid;
		a->lock_seqid = e->lock_seqid;
		a->lock_stateid = e->stateid;
		gen = e->gen;
		pthread_mutex_unlock(&L->mu);
		if (fresh) {
			uint32_t need = r->excl ? NFS4_SHARE_ACCESS_WRITE
						: NFS4_SHARE_ACCESS_READ;

			/* The caller's open where it has one that allows
			 * the lock; else (a flock LOCK_EX on a file opened
			 * read-only, or no open held) one of our own. */
			if (!avoid_caller &&
			    caller_open(L, r, need, &a->open_stateid)) {
				used_caller = true;
				COUNT(L, from_caller_open);
			} else {
				ret = open_get(L, r, need, &o,
					       &a->open_stateid);
				if (ret)
					break;
				COUNT(L, from_lock_open);
			}
			a->new_lock_owner = true;
			a->open_seqid = 0;
			a->lock_owner.clientid = L->c->v4->clientid;
			a->lock_owner.owner = (const uint8_t *)k.owner;
			a->lock_owner.owner_len = (uint32_t)strlen(k.owner);
		}
		ret = nfs4_lk_call_patient(L, &k, r->cred);
		if (ret == 0 && k.status == NFS4_OK) {
			pthread_mutex_lock(&L->mu);
			nfs4_lkstate_granted(e, &k.stateid);
			if (nfs4_lkstate_record(e, r->start, r->len, true,
						r->excl))
				nf_log(NF_LOG_WARNING, "out of memory "
				       "recording an NFSv4 lock: it will not "
				       "be reclaimed after a server restart");
			if (fresh) {
				e->uid = r->cred->uid;
				e->open = o;
				o = NULL;
			}
			pthread_mutex_unlock(&L->mu);
		}
		if (o && ret == 0 && nfs4_lk_stateid_gone(k.status)) {
			/* The open stateid it named: open again next time. */
			pthread_mutex_lock(&L->mu);
			o->has_stateid = false;
			o->access = 0;
			pthread_mutex_unlock(&L->mu);
		}
		open_put(L, o);
		if (ret)
			break;
		if (k.status == NFS4ERR_DENIED && c)
			*c = k.denied;
		if (!fresh && nfs4_lk_stateid_gone(k.status) &&
		    reclaimed_since(L, e, gen) && pass == 0) {
			/* Sent before a recovery that reclaimed the
			 * owner's locks: again with the new stateid. */
			continue;
		}
		if (nfs4_lk_stateid_gone(k.status) && pass == 0) {
			/* Our lock stateid, or the open it came from. */
			struct nfs4_lkopen *old;

			avoid_caller = used_caller;
			pthread_mutex_lock(&L->mu);
			if (!fresh)
				nfs4_lkstate_lost(e);
			old = fresh ? NULL : e->open;
			e->open = NULL;
			pthread_mutex_unlock(&L->mu);
			open_put(L, old);
			nf_log(NF_LOG_INFO, "LOCK: %s; starting the lock-owner "
			       "again", nfs4_lk_stname(k.status));
			continue;
		}
		ret = lk_errno(k.status);
		if (ret && ret != -EAGAIN)
			nf_log(NF_LOG_INFO, "LOCK: %s",
			       nfs4_lk_stname(k.status));
		break;
	}
	state_give(L, e);
	return ret;
}

/* ---- waiting ---- */

/* A finished wait leaves the list (whoever waits for the list to empty,
 * an unmount, is woken) and is freed. */
static void wait_end(struct nfs4_locks *L, struct nfs4_lock_wait *w)
{
	pthread_mutex_lock(&L->mu);
	for (struct nfs4_lock_wait **pp = &L->waits; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			L->nwaits--;
			break;
		}
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	free(w);
}

static void due_in(struct timespec *t, unsigned ms)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Runs done() and ends w; called without L->mu. */
static void wait_finish(struct nfs4_locks *L, struct nfs4_lock_wait *w,
			int ret)
{
	if (ret == 0)
		COUNT(L, granted_poll);
	else if (ret == -EINTR)
		COUNT(L, interrupted);
	else
		COUNT(L, errors);
	w->done(w->ctx, ret);
	wait_end(L, w);
}

/* The poll on the wire has ended: its wait goes on or ends. [L->mu] */
static void poll_ended(struct nfs4_locks *L, int ret)
{
	struct nfs4_lock_wait *w = L->poll_wait;

	L->poll_job = NULL;
	L->poll_wait = NULL;
	if (ret == -EAGAIN && !w->interrupted && !L->ending) {
		if (w->ms < POLL_MAX_MS)
			w->ms = w->ms * 2 > POLL_MAX_MS ? POLL_MAX_MS
							: w->ms * 2;
		due_in(&w->due, w->ms);
		w->armed = true;
		return;
	}
	/* A grant wins over an interrupt that came while it was out. */
	if (ret == -EAGAIN)
		ret = -EINTR;
	pthread_mutex_unlock(&L->mu);
	wait_finish(L, w, ret);
	pthread_mutex_lock(&L->mu);
}

/*
 * The poller: an interrupted wait (or every wait, once they must end)
 * ends with -EINTR; otherwise the wait due first sends its LOCK when its
 * time comes, and waits twice as long for the next one, up to 2 s.  One
 * LOCK at a time: a poll is one short round trip, and the waits are
 * answered in the order they fall due.  The LOCK runs as a job, so that
 * on a server that stopped answering, a wait interrupted meanwhile (its
 * own included: its LOCK goes on, and is undone if granted) is answered
 * all the same.
 */
static void *poller_main(void *arg)
{
	struct nfs4_locks *L = arg;

	pthread_mutex_lock(&L->mu);
	while (!L->quit) {
		struct nfs4_lock_wait *w, *first = NULL, *stop = NULL;
		struct timespec now;
		int ret;

		if (L->poll_job &&
		    nfs4_lk_job_take_locked(L->poll_job, &ret, NULL)) {
			poll_ended(L, ret);
			continue;
		}
		for (w = L->waits; w; w = w->next) {
			if (!w->armed && w != L->poll_wait)
				continue;
			if (w->interrupted || L->ending) {
				stop = w;
				break;
			}
			if (w->armed && (!first || before(&w->due, &first->due)))
				first = w;
		}
		if (stop) {
			if (stop == L->poll_wait) {
				nfs4_lk_job_leave_locked(L->poll_job);
				L->poll_job = NULL;
				L->poll_wait = NULL;
			}
			stop->armed = false;
			pthread_mutex_unlock(&L->mu);
			wait_finish(L, stop, -EINTR);
			pthread_mutex_lock(&L->mu);
			continue;
		}
		if (L->poll_job || !first) {
			pthread_cond_wait(&L->cv, &L->mu);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (before(&now, &first->due)) {
			pthread_cond_timedwait(&L->cv, &L->mu, &first->due);
			continue;
		}
		/* Not armed while its LOCK is out. */
		first->armed = false;
		COUNT(L, polls);
		L->poll_job = nfs4_lk_job_start(L, NFS4_LK_JOB_POLL,
						&first->req);
		if (L->poll_job) {
			L->poll_wait = first;
			continue;
		}
		pthread_mutex_unlock(&L->mu);
		wait_finish(L, first, -ENOMEM);
		pthread_mutex_lock(&L->mu);
	}
	/* Waits all ended before quit; a poll still out goes on alone. */
	if (L->poll_job)
		nfs4_lk_job_leave_locked(L->poll_job);
	L->poll_job = NULL;
	L->poll_wait = NULL;
	pthread_mutex_unlock(&L->mu);
	return NULL;
}

/* CB_NOTIFY_LOCK (RFC 8881 §20.11): a lock on fh that a blocking LOCK
 * of ours was denied may be free now.  Every wait for fh polls at once,
 * and from the shortest delay again: a poll that finds it taken again
 * costs one round trip, a notification missed would cost up to the
 * longest delay.  The lock-owner named is not compared (a wait of
 * another owner on the same file polling early is harmless). */
static void wake_waits(struct nfs4_locks *L, const struct nfs_fh3 *fh)
{
	unsigned n = 0;

	pthread_mutex_lock(&L->mu);
	for (struct nfs4_lock_wait *w = L->waits; w; w = w->next) {
		if (!w->armed || w->fh.len != fh->len ||
		    memcmp(w->fh.data, fh->data, fh->len))
			continue;
		w->ms = POLL_FIRST_MS;
		clock_gettime(CLOCK_MONOTONIC, &w->due);
		n++;
	}
	if (n)
		pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	COUNT(L, notified);
	TRACE("CB_NOTIFY_LOCK: %u waiting lock(s) on the file poll now", n);
}

static void on_notify_lock(void *ctx, const struct nfs4_cb_notify_lock_args *a)
{
	struct nfs_client *c = ctx;
	struct nfs4_session *s = c->v4;
	struct nfs4_locks *L;
	struct nfs_fh3 fh;

	if (nfs4_fh_to_fh3(&a->fh, &fh))
		return;
	/* nfs4_locks_stop() waits while this uses L. */
	pthread_mutex_lock(&s->lock);
	L = c->v4locks;
	if (L)
		L->notifying++;
	pthread_mutex_unlock(&s->lock);
	if (!L)
		return;
	wake_waits(L, &fh);
	pthread_mutex_lock(&s->lock);
	L->notifying--;
	pthread_cond_broadcast(&L->reclaimed);
	pthread_mutex_unlock(&s->lock);
}

int nfs4_lk_lock_now(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     bool blocking)
{
	return lock_once(L, r, blocking, NULL);
}

int nfs4_lock_lock(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		   bool wait, nfs4_lock_done_fn done, void *ctx,
		   struct nfs4_lock_wait **wp, volatile int *interrupted)
{
	struct nfs4_lock_wait *w;
	int ret = interrupted ? nfs4_lk_job(L, NFS4_LK_JOB_LOCK, r, NULL,
					    interrupted)
			      : lock_once(L, r, false, NULL);

	if (ret == 0)
		COUNT(L, granted_immediate);
	else if (ret == -EAGAIN)
		COUNT(L, denied);
	else if (ret == -EINTR)
		COUNT(L, interrupted);
	else
		COUNT(L, errors);
	if (ret != -EAGAIN || !wait)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->L = L;
	nfs4_lk_req_copy(&w->req, &w->fh, &w->cred, r);
	w->done = done;
	w->ctx = ctx;
	pthread_mutex_lock(&L->mu);
	w->next = L->waits;
	L->waits = w;
	L->nwaits++;
	pthread_mutex_unlock(&L->mu);
	*wp = w;
	return -EINPROGRESS;
}

void nfs4_lock_wait_arm(struct nfs4_locks *L, struct nfs4_lock_wait *w)
{
	int e = 0;

	pthread_mutex_lock(&L->mu);
	if (!L->poller_started) {
		e = pthread_create(&L->poller, NULL, poller_main, L);
		L->poller_started = e == 0;
	}
	if (e == 0) {
		w->ms = POLL_FIRST_MS;
		due_in(&w->due, w->ms);
		w->armed = true;
		pthread_cond_broadcast(&L->cv);
	}
	pthread_mutex_unlock(&L->mu);
	if (e) {
		/* No poller: the wait ends at once, as after a signal. */
		nf_log(NF_LOG_WARNING, "no thread to poll for a blocked "
		       "NFSv4 lock: %s", strerror(e));
		w->done(w->ctx, -ENOLCK);
		wait_end(L, w);
	}
}

void nfs4_lock_wait_interrupt(struct nfs4_locks *L, struct nfs4_lock_wait *w)
{
	pthread_mutex_lock(&L->mu);
	w->interrupted = true;
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
}

void nfs4_lock_end_waits(struct nfs4_locks *L)
{
	if (!L)
		return;
	pthread_mutex_lock(&L->mu);
	L->ending = true;
	pthread_cond_broadcast(&L->cv);
	while (L->waits)
		pthread_cond_wait(&L->cv, &L->mu);
	pthread_mutex_unlock(&L->mu);
}

/* ---- test, unlock ---- */

int nfs4_lock_test(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		   struct nfs4_lock_conflict *c, volatile int *interrupted)
{
	if (interrupted)
		return nfs4_lk_job(L, NFS4_LK_JOB_TEST, r, c, interrupted);
	return nfs4_lk_test_now(L, r, c);
}

int nfs4_lk_test_now(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     struct nfs4_lock_conflict *c)
{
	struct nfs4_lkcall k = { .op = NFS4OP_LOCKT, .fh = r->fh };
	int ret;

	memset(c, 0, sizeof(*c));
	k.a.lockt.locktype = r->excl ? NFS4_WRITE_LT : NFS4_READ_LT;
	nfs4_lock_range_to4(r->start, r->len, &k.a.lockt.offset,
			    &k.a.lockt.length);
	nfs4_lkowner_name(r->owner, r->flock, k.owner);
	k.a.lockt.owner.clientid = L->c->v4->clientid;
	k.a.lockt.owner.owner = (const uint8_t *)k.owner;
	k.a.lockt.owner.owner_len = (uint32_t)strlen(k.owner);
	ret = nfs4_lk_call_patient(L, &k, r->cred);
	if (ret)
		return ret;
	if (k.status == NFS4ERR_DENIED) {
		*c = k.denied;
		return 0;
	}
	return lk_errno(k.status);
}

static int unlock_entry(struct nfs4_locks *L, struct nfs4_lkstate *e,
			const struct nfs4_lock_req *r)
{
	struct nfs4_lkcall k = { .op = NFS4OP_LOCKU, .fh = &e->fh };
	bool whole = r->start == 0 && r->len == 0;
	uint32_t gen;
	int ret;

again:
	/* A lock lost in a recovery has no stateid: its unlock succeeds
	 * here, and nothing goes to the server, which holds nothing. */
	pthread_mutex_lock(&L->mu);
	if (!e->has_stateid) {
		pthread_mutex_unlock(&L->mu);
		return 0;
	}
	k.a.locku.locktype = NFS4_WRITE_LT;
	k.a.locku.seqid = e->lock_seqid;
	k.a.locku.stateid = e->stateid;
	gen = e->gen;
	pthread_mutex_unlock(&L->mu);
	nfs4_lock_range_to4(r->start, r->len, &k.a.locku.offset,
			    &k.a.locku.length);
	ret = nfs4_lk_call_patient(L, &k, r->cred);
	if (ret)
		return ret;
	COUNT(L, unlocks);
	if (nfs4_lk_stateid_gone(k.status) && reclaimed_since(L, e, gen))
		goto again; /* sent before a reclaim replaced the stateid */
	if (nfs4_lk_stateid_gone(k.status)) {
		/* Nothing of ours is held under a stateid the server forgot. */
		pthread_mutex_lock(&L->mu);
		nfs4_lkstate_lost(e);
		pthread_mutex_unlock(&L->mu);
		return 0;
	}
	if (k.status != NFS4_OK) {
		nf_log(NF_LOG_INFO, "LOCKU: %s", nfs4_lk_stname(k.status));
		return lk_errno(k.status);
	}
	pthread_mutex_lock(&L->mu);
	nfs4_lkstate_unlocked(e, &k.stateid, whole);
	if (nfs4_lkstate_record(e, r->start, r->len, false, false))
		nf_log(NF_LOG_WARNING, "out of memory recording an NFSv4 "
		       "unlock: the range may be reclaimed after a server "
		       "restart");
	pthread_mutex_unlock(&L->mu);
	if (whole)
		state_free(L, e, r->cred);
	return 0;
}

int nfs4_lock_unlock(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     volatile int *interrupted)
{
	if (interrupted)
		return nfs4_lk_job(L, NFS4_LK_JOB_UNLOCK, r, NULL, interrupted);
	return nfs4_lk_unlock_now(L, r);
}

int nfs4_lk_unlock_now(struct nfs4_locks *L, const struct nfs4_lock_req *r)
{
	struct nfs4_lkstate *e = state_take(L, r, false);
	int ret;

	if (!e)
		return 0;
	ret = unlock_entry(L, e, r);
	state_give(L, e);
	return ret;
}

bool nfs4_lock_owner_holds(struct nfs4_locks *L, uint64_t ino,
			   uint64_t owner, bool flock)
{
	bool h;

	pthread_mutex_lock(&L->mu);
	h = nfs4_lkstate_holds(&L->t, ino, owner, flock);
	pthread_mutex_unlock(&L->mu);
	return h;
}

bool nfs4_lock_ino_lost(struct nfs4_locks *L, uint64_t ino)
{
	bool lost;

	pthread_mutex_lock(&L->mu);
	lost = nfs4_lktable_ino_lost(&L->t, ino);
	pthread_mutex_unlock(&L->mu);
	return lost;
}

void nfs4_lock_reopened(struct nfs4_locks *L, uint64_t ino)
{
	pthread_mutex_lock(&L->mu);
	nfs4_lktable_reopened(&L->t, ino);
	pthread_mutex_unlock(&L->mu);
}

/* ---- start, stop ---- */

int nfs4_locks_start(struct nfs_client *c, struct nfs4_locks **out)
{
	struct nfs4_locks *L;

	*out = NULL;
	if (!c->v4)
		return -EINVAL;
	L = calloc(1, sizeof(*L));
	if (!L)
		return -ENOMEM;
	L->c = c;
	pthread_mutex_init(&L->mu, NULL);
	/* The poll waits are timed on the monotonic clock. */
	clock_cond_init(&L->cv);
	pthread_cond_init(&L->reclaimed, NULL);
	nfs4_lktable_init(&L->t);
	if (nfs4_lk_jobs_start(L)) {
		pthread_cond_destroy(&L->reclaimed);
		pthread_cond_destroy(&L->cv);
		pthread_mutex_destroy(&L->mu);
		free(L);
		return -ENOMEM;
	}
	/* Found by the reclaim hook of the session from now on. */
	pthread_mutex_lock(&c->v4->lock);
	c->v4locks = L;
	pthread_mutex_unlock(&c->v4->lock);
	/* c outlives the session; L is found through it, or not at all. */
	nfs4_session_set_notify_lock(c->v4, on_notify_lock, c);
	*out = L;
	return 0;
}

void nfs4_locks_stop(struct nfs4_locks *L)
{
	struct nfs4_session *s;

	if (!L)
		return;
	s = L->c->v4;
	/* No reclaim finds L any more, and one under way ends first (at
	 * its next lock: it sees ending). */
	pthread_mutex_lock(&L->mu);
	L->ending = true;
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	pthread_mutex_lock(&s->lock);
	L->c->v4locks = NULL;
	while (L->reclaiming || L->notifying)
		pthread_cond_wait(&L->reclaimed, &s->lock);
	pthread_mutex_unlock(&s->lock);
	nfs4_lock_end_waits(L);
	pthread_mutex_lock(&L->mu);
	L->quit = true;
	pthread_cond_broadcast(&L->cv);
	pthread_mutex_unlock(&L->mu);
	if (L->poller_started)
		pthread_join(L->poller, NULL);
	nfs4_lk_jobs_stop(L);
	/* Whatever is still held (a daemon stopped with files open): the
	 * client id cannot be destroyed while it holds state. */
	for (;;) {
		struct nfs4_lkstate *e;
		struct nfs4_lock_req r = { 0 };

		pthread_mutex_lock(&L->mu);
		for (e = L->t.states; e && e->busy; e = e->next)
			;
		if (e) {
			r.fh = &e->fh;
			r.ino = e->ino;
			r.owner = e->owner;
			r.flock = e->flock;
		}
		pthread_mutex_unlock(&L->mu);
		if (!e)
			break;
		r.cred = &L->c->v4->cred;
		e = state_take(L, &r, false);
		if (!e)
			continue;
		if (unlock_entry(L, e, &r) || e->has_stateid) {
			pthread_mutex_lock(&L->mu);
			nfs4_lkstate_lost(e);
			pthread_mutex_unlock(&L->mu);
		}
		state_give(L, e);
	}
	nfs4_lktable_clear(&L->t);
	pthread_cond_destroy(&L->reclaimed);
	pthread_cond_destroy(&L->cv);
	pthread_mutex_destroy(&L->mu);
	free(L);
}

/* ---- text ---- */

void nfs4_lock_format_stats(struct nfs4_locks *L, GString *out)
{
	pthread_mutex_lock(&L->mu);
	g_string_append_printf(out, "lock_waiting %zu\n", L->nwaits);
	g_string_append_printf(out, "lock_v4_stateids %zu\n", L->t.nstates);
	g_string_append_printf(out, "lock_v4_opens %zu\n", L->t.nopens);
	pthread_mutex_unlock(&L->mu);
#define X(n)                                                                \
	g_string_append_printf(out, "lock_v4_" #n " %" PRIu64 "\n",         \
			       (uint64_t)atomic_load(&L->stats.n));
	NFS4_LOCK_COUNTERS(X)
#undef X
}

void nfs4_lock_format_locks(struct nfs4_locks *L, GString *out)
{
	pthread_mutex_lock(&L->mu);
	for (const struct nfs4_lkstate *e = L->t.states; e; e = e->next) {
		g_string_append_printf(out,
				       "%s ino=%" PRIu64 " owner=%016" PRIx64
				       " kind=%s uid=%u stateid=",
				       e->held ? "held" : "state", e->ino,
				       e->owner, e->flock ? "flock" : "posix",
				       (unsigned)e->uid);
		for (unsigned i = 0; i < NFS4_OTHER_SIZE; i++)
			g_string_append_printf(out, "%02x",
					       e->stateid.other[i]);
		g_string_append_printf(out, " seqid=%u%s",
				       (unsigned)e->stateid.seqid,
				       e->busy ? " busy" : "");
		/* The ranges held, as a reclaim would ask for them. */
		for (size_t i = 0; i < e->ranges.n; i++) {
			const struct nfs4_lkrange *r = &e->ranges.r[i];

			g_string_append_printf(out, "%s%s:%" PRIu64 "+%" PRIu64,
					       i ? "," : " ranges=",
					       r->excl ? "w" : "r", r->start,
					       nfs4_lkrange_len(r));
		}
		g_string_append_c(out, '\n');
	}
	for (const struct nfs4_lock_wait *w = L->waits; w; w = w->next)
		g_string_append_printf(out,
				       "waiting ino=%" PRIu64 " owner=%016"
				       PRIx64 " kind=%s type=%s start=%"
				       PRIu64 " len=%" PRIu64 "%s\n",
				       w->req.ino, w->req.owner,
				       w->req.flock ? "flock" : "posix",
				       w->req.excl ? "write" : "read",
				       w->req.start, w->req.len,
				       w->interrupted ? " interrupted" : "");
	pthread_mutex_unlock(&L->mu);
}
