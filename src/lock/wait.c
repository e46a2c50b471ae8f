/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LOCK, and the wait of a blocked lock without a thread.
 *
 * The first LOCK is sent by the caller (a FUSE worker).  When the server
 * grants it, refuses it, or cannot be reached, that is the answer.  When
 * the lock must wait, the request becomes a waiter (heap memory only) and
 * the caller returns at once (-EINPROGRESS): a FUSE worker is not held for
 * the wait.  The one wait thread then
 *   - with callbacks: waits for the listener to match a GRANTED or
 *     GRANTED_MSG to the waiter, and sends the LOCK again (same cookie)
 *     every LK_REBLOCK_S in case a callback was lost;
 *   - without: retries the LOCK with backoff (LK_POLL_MIN_MS doubling up
 *     to LK_POLL_MAX_MS);
 *   - on an interrupt, or at the end of the session, sends CANCEL for a
 *     request the server queued (a grant that raced with it wins);
 * and answers each waiter through its done() exactly once.
 *
 * Exactly once: only the wait thread finishes a waiter, and only after
 * the caller armed it (lockmgr_wait_arm), so done() never runs before the
 * caller is ready for it.  The listener and interrupts only set flags
 * under lockmgr.mu.  A waiter stays in the list while it is finished, so
 * a grant arriving during the CANCEL is still seen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

#define LK_REBLOCK_S 1.0         /* re-send a blocked LOCK */
#define LK_POLL_MIN_MS 50
#define LK_POLL_MAX_MS 1000

/* The waiter as a lock request (pointing into the waiter). */
static void waiter_req(const struct lk_waiter *w, struct lock_req *r)
{
	memset(r, 0, sizeof(*r));
	r->fh = &w->fh;
	r->ino = w->ino;
	r->owner = w->owner;
	r->flock = w->flock;
	r->excl = w->excl;
	r->start = w->start;
	r->len = w->len;
	r->cred = w->has_cred ? &w->cred : NULL;
}

static struct lk_waiter *waiter_new(struct lockmgr *lm,
				    const struct lock_req *r,
				    const uint8_t *oh, uint32_t oh_len,
				    int32_t svid)
{
	struct lk_waiter *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fh = *r->fh;
	memcpy(w->oh, oh, oh_len);
	w->oh_len = oh_len;
	w->svid = svid;
	w->excl = r->excl;
	w->start = r->start;
	w->len = r->len;
	w->ino = r->ino;
	w->owner = r->owner;
	w->flock = r->flock;
	if (r->cred) {
		w->cred = *r->cred;
		w->cred.machinename = NULL;
		w->has_cred = true;
	}
	w->cb = lm->callbacks_on;
	w->delay_ms = LK_POLL_MIN_MS;
	lk_next_cookie(lm, w->cookie);
	w->since = lk_now();
	return w;
}

static void waiter_add(struct lockmgr *lm, struct lk_waiter *w)
{
	pthread_mutex_lock(&lm->mu);
	w->next = lm->waiting;
	lm->waiting = w;
	lm->nwaiting++;
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
	/* Before the LOCK goes out: the server may queue it. */
	if (w->cb)
		lk_journal_write(lm);
}

/* mu held. */
static void waiter_unlink(struct lockmgr *lm, struct lk_waiter *w)
{
	for (struct lk_waiter **pp = &lm->waiting; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			lm->nwaiting--;
			break;
		}
	lk_mark_dirty(lm);
	pthread_cond_broadcast(&lm->wait_cv);
}

/* One LOCK for w (the first, or a retry). */
static int send_lock(struct lockmgr *lm, struct lk_waiter *w, bool block,
		     uint32_t *stat)
{
	struct lock_req r;
	struct nlm_lock a;
	int ret;

	waiter_req(w, &r);
	lk_fill_alock(lm, &r, w->oh, w->oh_len, w->svid, &a);
	*stat = NLM4_FAILED;
	ret = lk_nlm_call(lm, NLMPROC_LOCK,
			  &(struct lk_call){ .a = &a, .excl = w->excl,
					     .block = block,
					     .cred = r.cred,
					     .cookie = w->cookie,
					     .cookie_len = sizeof(w->cookie) },
			  stat);
	return ret == -ETIMEDOUT ? -ENOLCK : ret;
}

/*
 * What a LOCK answer means for a waiting lock: 1 done (w->result set),
 * 0 go on waiting (w->next_send set).  mu not held; w->busy.
 */
static int lock_answer(struct lockmgr *lm, struct lk_waiter *w, int ret,
		       uint32_t stat)
{
	double now = lk_now();

	if (ret) {
		w->result = ret;
		return 1;
	}
	switch (stat) {
	case NLM_GRANTED:
		w->result = 0;
		w->how = w->blocked ? LOCK_GRANT_POLL : LOCK_GRANT_IMMEDIATE;
		return 1;
	case NLM_DENIED_GRACE_PERIOD:
		LK_INC(lm, grace_retries);
		w->next_send = now + LK_GRACE_RETRY_MS / 1000.0;
		return 0;
	case NLM_BLOCKED:
		if (!w->cb) {
			w->result = -EAGAIN;
			return 1;
		}
		if (!w->blocked) {
			LK_INC(lm, locks_blocked);
			TRACE("lock BLOCKED ino=%" PRIu64 " svid=%d %" PRIu64
			      "+%" PRIu64 ": waiting for GRANTED", w->ino,
			      w->svid, w->start, w->len);
		}
		w->blocked = true;
		w->queued = true;
		w->next_send = now + LK_REBLOCK_S;
		return 0;
	case NLM_DENIED:
		/* Poll: the server will not (or cannot) call us. */
		if (!w->blocked)
			LK_INC(lm, locks_blocked);
		w->blocked = true;
		w->next_send = now + w->delay_ms / 1000.0;
		w->delay_ms = w->delay_ms * 2 > LK_POLL_MAX_MS
				      ? LK_POLL_MAX_MS : w->delay_ms * 2;
		return 0;
	default:
		w->result = lk_stat_errno(lm, stat);
		return 1;
	}
}

/* The end of a waiter: CANCEL if it was ended while the server holds it
 * queued, the grant into the table, counters, done(), free.  mu not
 * held; the waiter is still listed, marked finishing. */
static void finish(struct lockmgr *lm, struct lk_waiter *w)
{
	struct lock_req r;
	bool granted;

	waiter_req(w, &r);
	pthread_mutex_lock(&lm->mu);
	granted = w->granted;
	pthread_mutex_unlock(&lm->mu);
	if (granted) {
		w->result = 0;
		w->how = LOCK_GRANT_CALLBACK;
	} else if (w->result == -EINPROGRESS) {
		/* Interrupted, or the session ends. */
		w->result = -EINTR;
		if (w->queued) {
			struct nlm_lock a;
			uint32_t cstat = 0;

			lk_fill_alock(lm, &r, w->oh, w->oh_len, w->svid, &a);
			lk_nlm_call(lm, NLMPROC_CANCEL,
				    &(struct lk_call){ .a = &a,
						       .excl = w->excl,
						       .cred = r.cred },
				    &cstat);
			/* Counted once answered: the server has it. */
			LK_INC(lm, cancels);
			TRACE("lock CANCEL ino=%" PRIu64 " svid=%d -> %s",
			      w->ino, w->svid, nlm_stat_name(cstat) ?: "?");
			/* A grant that raced with the interrupt wins. */
			pthread_mutex_lock(&lm->mu);
			granted = w->granted;
			pthread_mutex_unlock(&lm->mu);
			if (granted) {
				w->result = 0;
				w->how = LOCK_GRANT_CALLBACK;
			}
		}
	}
	if (w->result == 0) {
		lk_record_grant(lm, &r, w->svid, w->oh, w->oh_len);
		if (w->how == LOCK_GRANT_CALLBACK)
			LK_INC(lm, granted_callback);
		else if (w->how == LOCK_GRANT_POLL)
			LK_INC(lm, granted_poll);
		else
			LK_INC(lm, locks_granted);
	} else if (w->result == -EAGAIN) {
		LK_INC(lm, locks_denied);
	}
	TRACE("lock LOCK ino=%" PRIu64 " svid=%d %s %" PRIu64 "+%" PRIu64
	      " wait -> %s%s%s (after %.3f s)", w->ino, w->svid,
	      w->excl ? "write" : "read", w->start, w->len,
	      w->result ? strerror(-w->result) : "granted",
	      w->result ? "" : " by ",
	      w->result ? "" : lockmgr_grant_name(w->how),
	      lk_now() - w->since);
	w->done(w->ctx, w->result, w->how);
	/* Unlisted only now: lockmgr_end_waits() returns when every
	 * done() has returned. */
	pthread_mutex_lock(&lm->mu);
	waiter_unlink(lm, w);
	pthread_mutex_unlock(&lm->mu);
	free(w);
}

/* mu held.  A waiter ready to be finished, or NULL. */
static struct lk_waiter *ready_waiter(struct lockmgr *lm)
{
	for (struct lk_waiter *w = lm->waiting; w; w = w->next) {
		if (w->finishing || w->busy || !w->armed)
			continue;
		if (w->granted || w->interrupted || lm->waits_ending ||
		    w->result != -EINPROGRESS)
			return w;
	}
	return NULL;
}

/* mu held.  A waiter whose LOCK is due, or NULL; *next: the earliest
 * time another one is due. */
static struct lk_waiter *due_waiter(struct lockmgr *lm, double now,
				    double *next)
{
	struct lk_waiter *due = NULL;

	*next = now + 1.0;
	for (struct lk_waiter *w = lm->waiting; w; w = w->next) {
		if (w->finishing || w->busy || !w->armed)
			continue;
		if (w->next_send <= now && !due)
			due = w;
		else if (w->next_send < *next)
			*next = w->next_send;
	}
	return due;
}

void *lk_wait_main(void *arg)
{
	struct lockmgr *lm = arg;

	pthread_mutex_lock(&lm->mu);
	for (;;) {
		struct lk_waiter *w = ready_waiter(lm);
		struct timespec until;
		double next, wait_s;
		uint32_t stat;
		int ret;

		if (w) {
			w->finishing = true;
			pthread_mutex_unlock(&lm->mu);
			finish(lm, w);
			pthread_mutex_lock(&lm->mu);
			continue;
		}
		if (lm->waits_ending && !lm->waiting)
			break;
		w = due_waiter(lm, lk_now(), &next);
		if (w && !lm->waits_ending) {
			w->busy = true;
			pthread_mutex_unlock(&lm->mu);
			LK_INC(lm, polls);
			ret = send_lock(lm, w, w->cb, &stat);
			if (lock_answer(lm, w, ret, stat) == 0 && !w->cb)
				TRACE("lock poll ino=%" PRIu64 " svid=%d: %s, "
				      "again in %d ms", w->ino, w->svid,
				      nlm_stat_name(stat) ?: "?", w->delay_ms);
			pthread_mutex_lock(&lm->mu);
			w->busy = false;
			continue;
		}
		wait_s = next - lk_now();
		if (wait_s < 0.001)
			wait_s = 0.001;
		until = clock_mono_deadline((int64_t)(wait_s * 1e9));
		pthread_cond_timedwait(&lm->wait_cv, &lm->mu, &until);
	}
	pthread_mutex_unlock(&lm->mu);
	return NULL;
}

bool lk_granted(struct lockmgr *lm, const struct nlm_testargs *a)
{
	bool found = false;

	pthread_mutex_lock(&lm->mu);
	for (struct lk_waiter *w = lm->waiting; w; w = w->next) {
		if (w->granted || w->svid != a->alock.svid ||
		    w->oh_len != a->alock.oh.len ||
		    memcmp(w->oh, a->alock.oh.data, w->oh_len) ||
		    w->fh.len != a->alock.fh.len ||
		    memcmp(w->fh.data, a->alock.fh.data, w->fh.len) ||
		    w->start != a->alock.l_offset || w->len != a->alock.l_len)
			continue;
		w->granted = true;
		pthread_cond_broadcast(&lm->wait_cv);
		found = true;
		break;
	}
	pthread_mutex_unlock(&lm->mu);
	return found;
}

int lockmgr_lock(struct lockmgr *lm, const struct lock_req *r, bool wait,
		 lock_done_fn done, void *ctx, struct lock_wait **wp,
		 enum lock_grant *granted_by)
{
	struct lk_waiter *w;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len, stat;
	int32_t svid;
	int ret;

	ret = lk_check_range(lm, r);
	if (ret)
		return ret;
	lk_make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	svid = lk_owner_svid(lm, r->owner, r->flock, r->pid);
	pthread_mutex_unlock(&lm->mu);
	w = waiter_new(lm, r, oh, oh_len, svid);
	if (!w)
		return -ENOMEM;
	w->cb = wait && lm->callbacks_on;
	w->done = done;
	w->ctx = ctx;
	w->result = -EINPROGRESS;
	/* Listed before the LOCK goes out: a GRANTED may beat its reply. */
	if (wait)
		waiter_add(lm, w);
	for (;;) {
		ret = send_lock(lm, w, w->cb, &stat);
		if (!ret && stat == NLM_DENIED && !wait) {
			w->result = -EAGAIN;
			break;
		}
		if (lock_answer(lm, w, ret, stat))
			break;
		if (wait) {
			/* It waits: from here on the wait thread has it. */
			*wp = (struct lock_wait *)w;
			return -EINPROGRESS;
		}
		lk_sleep_ms(LK_GRACE_RETRY_MS); /* grace, without wait */
	}
	if (wait) {
		pthread_mutex_lock(&lm->mu);
		waiter_unlink(lm, w);
		pthread_mutex_unlock(&lm->mu);
	}
	ret = w->result;
	if (ret == 0) {
		lk_record_grant(lm, r, svid, oh, oh_len);
		LK_INC(lm, locks_granted);
		if (granted_by)
			*granted_by = LOCK_GRANT_IMMEDIATE;
	} else if (ret == -EAGAIN) {
		LK_INC(lm, locks_denied);
	}
	TRACE("lock LOCK ino=%" PRIu64 " svid=%d %s %" PRIu64 "+%" PRIu64
	      "%s -> %s", r->ino, svid, r->excl ? "write" : "read", r->start,
	      r->len, wait ? " wait" : "",
	      ret ? strerror(-ret) : "granted by immediate");
	free(w);
	return ret;
}

void lockmgr_wait_arm(struct lockmgr *lm, struct lock_wait *lw)
{
	struct lk_waiter *w = (struct lk_waiter *)lw;

	pthread_mutex_lock(&lm->mu);
	w->armed = true;
	pthread_cond_broadcast(&lm->wait_cv);
	pthread_mutex_unlock(&lm->mu);
}

void lockmgr_wait_interrupt(struct lockmgr *lm, struct lock_wait *lw)
{
	struct lk_waiter *w = (struct lk_waiter *)lw;

	pthread_mutex_lock(&lm->mu);
	w->interrupted = true;
	pthread_cond_broadcast(&lm->wait_cv);
	pthread_mutex_unlock(&lm->mu);
}

void lockmgr_end_waits(struct lockmgr *lm)
{
	if (!lm)
		return;
	pthread_mutex_lock(&lm->mu);
	lm->waits_ending = true;
	for (struct lk_waiter *w = lm->waiting; w; w = w->next)
		w->armed = true;
	pthread_cond_broadcast(&lm->wait_cv);
	while (lm->waiting && lm->wait_running)
		pthread_cond_wait(&lm->wait_cv, &lm->mu);
	pthread_mutex_unlock(&lm->mu);
}
