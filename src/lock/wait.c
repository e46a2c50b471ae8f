/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LOCK, and the wait of a blocked lock.
 *
 * With callbacks, LOCK(block=true) is answered BLOCKED and the worker
 * sleeps until the listener matches a GRANTED/GRANTED_MSG to its waiter
 * (registered before the LOCK is sent, so an early callback is not
 * missed); it sends the LOCK again every LK_REBLOCK_S in case a callback
 * was lost.  Without callbacks it retries LOCK(block=false) with backoff.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

#define LK_REBLOCK_S 1.0         /* re-send a blocked LOCK */
#define LK_POLL_MIN_MS 50
#define LK_POLL_MAX_MS 1000

static void waiter_add(struct lockmgr *lm, struct lk_waiter *w)
{
	pthread_cond_init(&w->cv, NULL);
	w->since = lk_now();
	pthread_mutex_lock(&lm->mu);
	w->next = lm->waiting;
	lm->waiting = w;
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
}

static void waiter_remove(struct lockmgr *lm, struct lk_waiter *w)
{
	pthread_mutex_lock(&lm->mu);
	for (struct lk_waiter **pp = &lm->waiting; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
	pthread_cond_destroy(&w->cv);
}

bool lk_granted(struct lockmgr *lm, const struct nlm_testargs *a)
{
	bool found = false;

	pthread_mutex_lock(&lm->mu);
	for (struct lk_waiter *w = lm->waiting; w; w = w->next) {
		if (w->granted || w->svid != a->alock.svid ||
		    w->oh_len != a->alock.oh.len ||
		    memcmp(w->oh, a->alock.oh.data, w->oh_len) ||
		    w->fh->len != a->alock.fh.len ||
		    memcmp(w->fh->data, a->alock.fh.data, w->fh->len) ||
		    w->start != a->alock.l_offset || w->len != a->alock.l_len)
			continue;
		w->granted = true;
		pthread_cond_signal(&w->cv);
		found = true;
		break;
	}
	pthread_mutex_unlock(&lm->mu);
	return found;
}

/* Wait (mu not held) up to ms for w->granted or an interrupt. */
static bool wait_granted(struct lockmgr *lm, struct lk_waiter *w, int ms,
			 volatile int *interrupted)
{
	struct timespec until;
	bool granted;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)ms * 1000000;
	until.tv_sec += until.tv_nsec / 1000000000;
	until.tv_nsec %= 1000000000;
	pthread_mutex_lock(&lm->mu);
	while (!w->granted && !lm->stopping &&
	       !(interrupted && *interrupted))
		if (pthread_cond_timedwait(&w->cv, &lm->mu, &until))
			break;
	granted = w->granted;
	pthread_mutex_unlock(&lm->mu);
	return granted;
}

int lockmgr_lock(struct lockmgr *lm, const struct lock_req *r, bool wait,
		 volatile int *interrupted, enum lock_grant *granted_by)
{
	struct lk_waiter w;
	struct nlm_lock a;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len, stat = NLM4_FAILED;
	int32_t svid;
	bool cb = wait && lm->callbacks_on, blocked = false;
	int ret, delay = LK_POLL_MIN_MS;
	double last_send;
	enum lock_grant how = LOCK_GRANT_IMMEDIATE;

	ret = lk_check_range(lm, r);
	if (ret)
		return ret;
	lk_make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	svid = lk_owner_svid(lm, r->owner, r->flock, r->pid);
	pthread_mutex_unlock(&lm->mu);
	lk_fill_alock(lm, r, oh, oh_len, svid, &a);

	memset(&w, 0, sizeof(w));
	w.fh = r->fh;
	w.oh = oh;
	w.oh_len = oh_len;
	w.svid = svid;
	w.excl = r->excl;
	w.start = r->start;
	w.len = r->len;
	w.ino = r->ino;
	if (wait)
		waiter_add(lm, &w);

	for (;;) {
		last_send = lk_now();
		ret = lk_nlm_call(lm, NLMPROC_LOCK,
				  &(struct lk_call){ .a = &a, .excl = r->excl,
						     .block = cb,
						     .cred = r->cred },
				  &stat);
		if (ret) {
			if (ret == -ETIMEDOUT)
				ret = -ENOLCK;
			break;
		}
		if (stat == NLM_GRANTED)
			break;
		if (stat == NLM_DENIED_GRACE_PERIOD) {
			LK_INC(lm, grace_retries);
			if (interrupted && *interrupted) {
				ret = -EINTR;
				break;
			}
			lk_sleep_ms(LK_GRACE_RETRY_MS);
			continue;
		}
		if (stat == NLM_BLOCKED && cb) {
			if (!blocked)
				LK_INC(lm, locks_blocked);
			blocked = true;
			TRACE("lock BLOCKED ino=%" PRIu64 " svid=%d %" PRIu64
			      "+%" PRIu64 ": waiting for GRANTED", r->ino,
			      svid, r->start, r->len);
			while (!w.granted && lk_now() - last_send < LK_REBLOCK_S &&
			       !(interrupted && *interrupted) && !lm->stopping)
				wait_granted(lm, &w, 200, interrupted);
			if (w.granted) {
				how = LOCK_GRANT_CALLBACK;
				stat = NLM_GRANTED;
				break;
			}
			if ((interrupted && *interrupted) || lm->stopping) {
				ret = -EINTR;
				break;
			}
			LK_INC(lm, polls); /* no callback yet: ask again */
			continue;
		}
		if (stat == NLM_DENIED && wait) {
			/* Poll: the server will not (or cannot) call us. */
			if (!blocked)
				LK_INC(lm, locks_blocked);
			blocked = true;
			how = LOCK_GRANT_POLL;
			for (int slept = 0; slept < delay; slept += 50) {
				if ((interrupted && *interrupted) ||
				    lm->stopping)
					break;
				lk_sleep_ms(50);
			}
			if ((interrupted && *interrupted) || lm->stopping) {
				ret = -EINTR;
				break;
			}
			delay = delay * 2 > LK_POLL_MAX_MS ? LK_POLL_MAX_MS
							   : delay * 2;
			LK_INC(lm, polls);
			continue;
		}
		ret = stat == NLM_BLOCKED ? -EAGAIN : lk_stat_errno(lm, stat);
		break;
	}

	if (ret == -EINTR && cb && blocked) {
		/* The server queued our request: take it back.  A grant
		 * that raced with the interrupt wins. */
		uint32_t cstat = 0;

		LK_INC(lm, cancels);
		lk_nlm_call(lm, NLMPROC_CANCEL,
			    &(struct lk_call){ .a = &a, .excl = r->excl,
					       .cred = r->cred },
			    &cstat);
		TRACE("lock CANCEL ino=%" PRIu64 " svid=%d -> %s", r->ino,
		      svid, nlm_stat_name(cstat) ? nlm_stat_name(cstat) : "?");
		if (w.granted) {
			ret = 0;
			stat = NLM_GRANTED;
			how = LOCK_GRANT_CALLBACK;
		}
	}
	if (wait)
		waiter_remove(lm, &w);

	if (ret == 0 && stat == NLM_GRANTED) {
		lk_record_grant(lm, r, svid, oh, oh_len);
		if (!blocked)
			LK_INC(lm, locks_granted);
		else if (how == LOCK_GRANT_CALLBACK)
			LK_INC(lm, granted_callback);
		else
			LK_INC(lm, granted_poll);
		if (granted_by)
			*granted_by = how;
	} else if (ret == 0) {
		ret = -ENOLCK;
	}
	if (ret == -EAGAIN)
		LK_INC(lm, locks_denied);
	TRACE("lock LOCK ino=%" PRIu64 " svid=%d %s %" PRIu64 "+%" PRIu64
	      "%s -> %s%s%s", r->ino, svid, r->excl ? "write" : "read",
	      r->start, r->len, wait ? " wait" : "",
	      ret ? strerror(-ret) : "granted", ret ? "" : " by ",
	      ret ? "" : lockmgr_grant_name(how));
	pthread_mutex_lock(&lm->mu);
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
	return ret;
}
