/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lock manager's public calls that answer at once: TEST, UNLOCK and
 * the questions the FUSE layer asks of the table.  LOCK (which may wait)
 * is in wait.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

int lockmgr_test(struct lockmgr *lm, const struct lock_req *r,
		 struct lock_conflict *c)
{
	struct nlm_testargs args;
	struct nlm_testres res;
	struct rpc_reply reply;
	struct rpc_cred cred;
	struct nlm_lock a;
	uint8_t oh[LK_OH_MAX], cookie[8];
	uint32_t oh_len;
	int32_t svid;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = lk_check_range(lm, r);
	if (ret)
		return ret;
	lk_make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	svid = lk_owner_svid(lm, r->owner, r->flock, r->pid);
	pthread_mutex_unlock(&lm->mu);
	lk_fill_alock(lm, r, oh, oh_len, svid, &a);
	lk_next_cookie(lm, cookie);
	lk_cred_for_call(lm, r->cred, &cred);
	memset(&args, 0, sizeof(args));
	args.cookie.data = cookie;
	args.cookie.len = sizeof(cookie);
	args.exclusive = r->excl;
	args.alock = a;
	LK_INC(lm, tests);
	for (;;) {
		ret = lk_conn_call(&lm->nlm, NLMPROC_TEST, &cred,
				   lk_codec(lm, NLMPROC_TEST)->enc_args, &args,
				   lk_codec(lm, NLMPROC_TEST)->dec_res, &res,
				   &reply, LK_CALL_MS);
		if (ret)
			return ret == -ETIMEDOUT ? -ENOLCK : ret;
		if (res.stat != NLM_DENIED_GRACE_PERIOD)
			break;
		rpc_reply_release(&reply);
		LK_INC(lm, grace_retries);
		lk_sleep_ms(LK_GRACE_RETRY_MS);
	}
	if (res.stat == NLM_DENIED) {
		c->found = true;
		c->excl = res.holder.exclusive;
		c->svid = res.holder.svid;
		c->start = res.holder.l_offset;
		c->len = res.holder.l_len;
		ret = 0;
	} else {
		ret = res.stat == NLM_GRANTED ? 0 : lk_stat_errno(lm, res.stat);
	}
	rpc_reply_release(&reply);
	TRACE("lock TEST ino=%" PRIu64 " %s %" PRIu64 "+%" PRIu64
	      " -> %s", r->ino, r->excl ? "write" : "read", r->start, r->len,
	      c->found ? "conflict" : (ret ? strerror(-ret) : "free"));
	return ret;
}

int lockmgr_unlock(struct lockmgr *lm, const struct lock_req *r)
{
	struct nlm_lock a;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len, stat = 0;
	int32_t svid;
	int ret;

	ret = lk_check_range(lm, r);
	if (ret)
		return ret;
	lk_make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	if (!lk_owner_overlaps(lm, r, &svid)) {
		pthread_mutex_unlock(&lm->mu);
		return 0; /* nothing of ours there: nothing to tell */
	}
	pthread_mutex_unlock(&lm->mu);
	lk_fill_alock(lm, r, oh, oh_len, svid, &a);
	for (;;) {
		ret = lk_nlm_call(lm, NLMPROC_UNLOCK,
				  &(struct lk_call){ .a = &a, .cred = r->cred },
				  &stat);
		if (ret || stat != NLM_DENIED_GRACE_PERIOD)
			break;
		LK_INC(lm, grace_retries);
		lk_sleep_ms(LK_GRACE_RETRY_MS);
	}
	LK_INC(lm, unlocks);
	TRACE("lock UNLOCK ino=%" PRIu64 " svid=%d %" PRIu64 "+%" PRIu64
	      " -> %s", r->ino, svid, r->start, r->len,
	      ret ? strerror(-ret) : (nlm_stat_name(stat) ?: "?"));
	if (ret)
		return ret == -ETIMEDOUT ? -ENOLCK : ret;
	/* Whatever the server said, it holds nothing of ours there now
	 * (UNLOCK of a lock it does not know is GRANTED too). */
	pthread_mutex_lock(&lm->mu);
	lk_held_apply(lm, r, svid, oh, oh_len, false);
	pthread_mutex_unlock(&lm->mu);
	return stat == NLM_GRANTED ? 0 : lk_stat_errno(lm, stat);
}

bool lockmgr_owner_holds(struct lockmgr *lm, uint64_t ino, uint64_t owner,
			 bool flock)
{
	bool found = false;

	pthread_mutex_lock(&lm->mu);
	for (struct lk_held *h = lm->held; h && !found; h = h->next)
		found = h->ino == ino && h->owner == owner &&
			h->flock == flock;
	pthread_mutex_unlock(&lm->mu);
	return found;
}

bool lockmgr_ino_lost(struct lockmgr *lm, uint64_t ino)
{
	bool lost = false;

	pthread_mutex_lock(&lm->mu);
	for (size_t i = 0; i < lm->nlost && !lost; i++)
		lost = lm->lost_inos[i] == ino;
	pthread_mutex_unlock(&lm->mu);
	return lost;
}

void lockmgr_reopened(struct lockmgr *lm, uint64_t ino)
{
	pthread_mutex_lock(&lm->mu);
	for (size_t i = 0; i < lm->nlost; i++)
		if (lm->lost_inos[i] == ino)
			lm->lost_inos[i--] = lm->lost_inos[--lm->nlost];
	pthread_mutex_unlock(&lm->mu);
}

const char *lockmgr_grant_name(enum lock_grant g)
{
	switch (g) {
	case LOCK_GRANT_IMMEDIATE:
		return "immediate";
	case LOCK_GRANT_CALLBACK:
		return "callback";
	case LOCK_GRANT_POLL:
		return "poll";
	}
	return "?";
}

const char *lockmgr_mode(struct lockmgr *lm)
{
	return lm->mode;
}
