/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reclaim after a server reboot (called on the monitor thread when
 * statmon.c or the listener learns of one): every held lock is asked for
 * again, in the server's grace period if it has one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

#define LK_RECLAIM_WAIT_S 90.0   /* for the server's NLM to come back */

/* mu held.  Is h (a snapshot copy) still in the table? */
static struct lk_held *held_find(struct lockmgr *lm, const struct lk_held *h)
{
	for (struct lk_held *x = lm->held; x; x = x->next)
		if (x->owner == h->owner && x->flock == h->flock &&
		    x->excl == h->excl && x->start == h->start &&
		    x->len == h->len && lk_fh_eq(&x->fh, &h->fh))
			return x;
	return NULL;
}

static bool held_still(struct lockmgr *lm, const struct lk_held *h)
{
	bool found;

	pthread_mutex_lock(&lm->mu);
	found = held_find(lm, h) != NULL;
	pthread_mutex_unlock(&lm->mu);
	return found;
}

/*
 * One lock, again.  A server in its grace period takes reclaims only, and
 * refuses new locks with DENIED_GRACE_PERIOD; out of it (a server that
 * restarted without one, or whose grace ended) it refuses reclaims the
 * same way and takes new locks (nfs-ganesha and Linux lockd alike).  So a
 * refusal for grace flips the reclaim flag, and the request is repeated
 * (after a pause once both were refused) until the server answers
 * otherwise.  While the server's NLM is not back yet (statd answers
 * before the NFS server is up), transport errors are retried too, for up
 * to LK_RECLAIM_WAIT_S.  *as_new says the lock was taken as a new one.
 */
static int reclaim_one(struct lockmgr *lm, const struct lk_held *h,
		       uint32_t *stat, bool *as_new)
{
	struct lock_req r = {
		.fh = &h->fh, .ino = h->ino, .owner = h->owner,
		.flock = h->flock, .excl = h->excl, .start = h->start,
		.len = h->len,
		.cred = h->cred.flavor == RPC_AUTH_SYS ? &h->cred : NULL,
	};
	struct nlm_lock a;
	double until = lk_now() + LK_RECLAIM_WAIT_S;
	bool reclaim = true, refused_other = false;
	int ret;

	lk_fill_alock(lm, &r, h->oh, h->oh_len, h->svid, &a);
	for (;;) {
		bool stopping;

		pthread_mutex_lock(&lm->mu);
		stopping = lm->stopping;
		pthread_mutex_unlock(&lm->mu);
		if (stopping)
			return -EINTR;
		if (!held_still(lm, h))
			return -ENOENT; /* released meanwhile: nothing to do */
		*stat = NLM4_FAILED;
		ret = lk_nlm_call(lm, NLMPROC_LOCK,
				  &(struct lk_call){ .a = &a, .excl = h->excl,
						     .reclaim = reclaim,
						     .cred = r.cred },
				  stat);
		if (ret) {
			if (lk_now() >= until)
				return ret;
			TRACE("lock RECLAIM ino=%" PRIu64 ": %s; the server's "
			      "NLM may not be up yet, retrying", h->ino,
			      strerror(-ret));
			lk_sleep_ms(LK_GRACE_RETRY_MS);
			continue;
		}
		if (*stat != NLM_DENIED_GRACE_PERIOD) {
			*as_new = !reclaim;
			return 0;
		}
		LK_INC(lm, grace_retries);
		if (lk_now() >= until)
			return 0;
		if (refused_other)
			lk_sleep_ms(LK_GRACE_RETRY_MS);
		refused_other = !refused_other;
		reclaim = !reclaim;
	}
}

static void mark_lost(struct lockmgr *lm, const struct lk_held *h)
{
	struct lk_held *x;

	pthread_mutex_lock(&lm->mu);
	x = held_find(lm, h);
	if (x)
		x->lost = true;
	for (size_t i = 0; i < lm->nlost; i++)
		if (lm->lost_inos[i] == h->ino)
			goto out;
	if (lm->nlost < 1024) {
		uint64_t *n2 = realloc(lm->lost_inos,
				       (lm->nlost + 1) * sizeof(*n2));
		if (n2) {
			lm->lost_inos = n2;
			n2[lm->nlost++] = h->ino;
		}
	}
out:
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
}

void lk_reclaim_all(struct lockmgr *lm)
{
	struct lk_held *copy = NULL, *h;
	size_t n = 0, lost = 0, in_grace = 0, as_new = 0;

	/* Snapshot: the table may change while we call the server. */
	pthread_mutex_lock(&lm->mu);
	for (h = lm->held; h; h = h->next) {
		struct lk_held *c;

		if (h->lost)
			continue; /* lost before: the server has nothing */
		c = malloc(sizeof(*c));
		if (!c)
			break;
		*c = *h;
		c->next = copy;
		copy = c;
		n++;
	}
	pthread_mutex_unlock(&lm->mu);
	if (!n)
		return;
	nf_log(NF_LOG_WARNING, "server %s rebooted: reclaiming %zu lock(s)",
	       lm->server_name, n);
	TRACE("lock server %s rebooted: reclaiming %zu lock(s)",
	      lm->server_name, n);
	while ((h = copy)) {
		uint32_t stat = NLM4_FAILED;
		bool new_lock = false;
		int ret;

		copy = h->next;
		ret = reclaim_one(lm, h, &stat, &new_lock);
		TRACE("lock RECLAIM ino=%" PRIu64 " svid=%d %" PRIu64
		      "+%" PRIu64 " -> %s%s", h->ino, h->svid, h->start, h->len,
		      ret ? strerror(-ret) : (nlm_stat_name(stat) ?: "?"),
		      new_lock ? " (as a new lock)" : "");
		if (ret == -ENOENT || ret == -EINTR) {
			free(h);
			continue;
		}
		LK_INC(lm, reclaims);
		if (ret == 0 && stat == NLM_GRANTED) {
			if (new_lock)
				as_new++;
			else
				in_grace++;
			if (!held_still(lm, h)) {
				/* Released while we were asking: give the
				 * server's copy back. */
				struct lock_req r = {
					.fh = &h->fh, .ino = h->ino,
					.owner = h->owner, .flock = h->flock,
					.start = h->start, .len = h->len,
					.cred = h->cred.flavor == RPC_AUTH_SYS
							? &h->cred : NULL,
				};
				struct nlm_lock a;
				uint32_t ust = 0;

				lk_fill_alock(lm, &r, h->oh, h->oh_len, h->svid,
					   &a);
				lk_nlm_call(lm, NLMPROC_UNLOCK,
					    &(struct lk_call){ .a = &a,
							       .cred = r.cred },
					    &ust);
			}
			free(h);
			continue;
		}
		lost++;
		LK_INC(lm, locks_lost);
		nf_log(NF_LOG_ERR, "lock LOST after server reboot: "
		       "node %" PRIu64 " range %" PRIu64 "+%" PRIu64
		       " (svid %d): %s", h->ino, h->start, h->len,
		       h->svid, ret ? strerror(-ret)
				    : (nlm_stat_name(stat) ?: "?"));
		mark_lost(lm, h);
		free(h);
	}
	pthread_mutex_lock(&lm->mu);
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
	nf_log(lost ? NF_LOG_ERR : NF_LOG_WARNING,
	       "server %s rebooted: %zu lock(s) reclaimed in its grace "
	       "period, %zu taken again as new locks (no grace period), "
	       "%zu lost", lm->server_name, in_grace, as_new, lost);
	if (lost)
		nf_log(NF_LOG_ERR, "%zu lock(s) lost on %s; I/O on those "
		       "files fails with EIO until they are reopened", lost,
		       lm->server_name);
}
