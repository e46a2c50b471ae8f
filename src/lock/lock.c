/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lock manager's tables and its public API.
 *
 * The table of held locks mirrors what the server holds for us, with the
 * same POSIX rules (a lock replaces the owner's locks in its range, an
 * unlock may split one): it is what we reclaim after a server reboot, what
 * close releases, and what `nfsfusectl locks` lists.
 *
 * Owners: the NLM owner handle is "<fuse owner in hex>:<p|f>@<caller_name>"
 * ('f' for flock(2), whose owners are distinct from POSIX ones); the svid
 * is the pid of the owner's first request (reported by other clients'
 * F_GETLK as l_pid).
 *
 * A blocked lock: with callbacks, LOCK(block=true) is answered BLOCKED and
 * the worker sleeps until the listener matches a GRANTED/GRANTED_MSG to its
 * waiter (registered before the LOCK is sent, so an early callback is not
 * missed); it sends the LOCK again every LK_REBLOCK_S in case a callback
 * was lost.  Without callbacks it retries LOCK(block=false) with backoff.
 */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <arpa/inet.h>

#include "../base/log.h"
#include "../base/userns.h"
#include "../base/trace.h"
#include "lock_int.h"

#define LK_CALL_MS 15000         /* one NLM call */
#define LK_REBLOCK_S 1.0         /* re-send a blocked LOCK */
#define LK_POLL_MIN_MS 50
#define LK_POLL_MAX_MS 1000
#define LK_GRACE_RETRY_MS 1000
#define LK_SM_STAT_HELD_S 1.0    /* SM_STAT poll while locks are held */
#define LK_SM_STAT_IDLE_S 10.0

double lk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

void lk_mark_dirty(struct lockmgr *lm)
{
	lm->status_dirty = true; /* mu held by the caller or benign race */
}

static uint64_t range_end(uint64_t start, uint64_t len)
{
	if (len == 0 || start + len < start)
		return UINT64_MAX;
	return start + len;
}

static uint64_t end_to_len(uint64_t start, uint64_t end)
{
	return end == UINT64_MAX ? 0 : end - start;
}

static bool fh_eq(const struct nfs_fh3 *a, const struct nfs_fh3 *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

static void make_oh(struct lockmgr *lm, uint64_t owner, bool flock,
		    uint8_t *oh, uint32_t *len)
{
	int n = snprintf((char *)oh, LK_OH_MAX, "%016" PRIx64 ":%c@%s", owner,
			 flock ? 'f' : 'p', lm->caller_name);

	*len = n < 0 ? 0 : (n >= LK_OH_MAX ? LK_OH_MAX - 1 : (uint32_t)n);
}

/* mu held.  The svid of an owner that already holds a lock, else pid. */
static int32_t owner_svid(struct lockmgr *lm, uint64_t owner, bool flock,
			  pid_t pid)
{
	static int32_t counter = 1 << 22;

	for (struct lk_held *h = lm->held; h; h = h->next)
		if (h->owner == owner && h->flock == flock)
			return h->svid;
	return pid > 0 ? (int32_t)pid : counter++;
}

static void fill_alock(struct lockmgr *lm, const struct lock_req *r,
		       const uint8_t *oh, uint32_t oh_len, int32_t svid,
		       struct nlm_lock *a)
{
	memset(a, 0, sizeof(*a));
	a->caller_name = lm->caller_name;
	a->caller_name_len = (uint32_t)strlen(lm->caller_name);
	a->fh.data = r->fh->data;
	a->fh.len = r->fh->len;
	a->oh.data = oh;
	a->oh.len = oh_len;
	a->svid = svid;
	a->l_offset = r->start;
	a->l_len = r->len;
}

/* mu held.  Apply a grant or an unlock of [start, start+len) by owner on
 * fh to the table, POSIX style. */
static void held_apply(struct lockmgr *lm, const struct lock_req *r,
		       int32_t svid, const uint8_t *oh, uint32_t oh_len,
		       bool lock)
{
	uint64_t s = r->start, e = range_end(r->start, r->len);
	struct lk_held **pp = &lm->held, *h;

	while ((h = *pp)) {
		uint64_t hs = h->start, he = range_end(h->start, h->len);

		if (h->owner != r->owner || h->flock != r->flock ||
		    !fh_eq(&h->fh, r->fh) || he <= s || hs >= e) {
			pp = &h->next;
			continue;
		}
		if (hs < s && he > e) { /* split in two */
			struct lk_held *tail = malloc(sizeof(*tail));

			if (tail) {
				*tail = *h;
				tail->start = e;
				tail->len = end_to_len(e, he);
				tail->next = h->next;
				h->next = tail;
			}
			h->len = s - hs;
			pp = &h->next;
		} else if (hs < s) {
			h->len = s - hs;
			pp = &h->next;
		} else if (he > e) {
			h->start = e;
			h->len = end_to_len(e, he);
			pp = &h->next;
		} else {
			*pp = h->next;
			free(h);
		}
	}
	if (lock) {
		h = calloc(1, sizeof(*h));
		if (!h) {
			nf_log(NF_LOG_ERR, "out of memory recording a lock");
			return;
		}
		h->fh = *r->fh;
		h->ino = r->ino;
		h->owner = r->owner;
		h->flock = r->flock;
		h->excl = r->excl;
		h->svid = svid;
		h->start = r->start;
		h->len = r->len;
		memcpy(h->oh, oh, oh_len);
		h->oh_len = oh_len;
		if (r->cred) {
			h->cred = *r->cred;
			h->cred.machinename = NULL;
		} else {
			h->cred.flavor = RPC_AUTH_NONE;
		}
		h->next = lm->held;
		lm->held = h;
	}
	lk_mark_dirty(lm);
}

static void cred_for_call(struct lockmgr *lm, const struct rpc_cred *in,
			  struct rpc_cred *out)
{
	if (in) {
		*out = *in;
	} else {
		memset(out, 0, sizeof(*out));
		out->flavor = RPC_AUTH_SYS;
		out->uid = geteuid();
		out->gid = getegid();
		userns_cred_out(out);
	}
	if (out->flavor == RPC_AUTH_SYS)
		out->machinename = lm->caller_name;
}

/* ---- NLM calls ---- */

const struct xdr_proc_codec *lk_codec(struct lockmgr *lm, uint32_t proc)
{
	return nlm_proc_codec(lm->nlm_vers, proc);
}

struct rpc_addr lk_nlm_peer(struct lockmgr *lm,
			    const struct rpc_addr *server)
{
	struct rpc_addr peer = *server;

	rpc_addr_set_port(&peer, 0);
	if (lm->cfg.nlm_port && rpc_addr_same_host(server, &lm->cfg.server))
		rpc_addr_set_port(&peer, lm->cfg.nlm_port);
	return peer;
}

/* NLM v3 carries 32-bit ranges: refuse what it cannot say, as the Linux
 * NFSv2 client does (nfs_lock_check_bounds: EINVAL), rather than lock
 * something else than what was asked. */
static int check_range(struct lockmgr *lm, const struct lock_req *r)
{
	if (lm->nlm_vers == NLM_V4 || nlm_range_fits_v1(r->start, r->len))
		return 0;
	TRACE("lock ino=%" PRIu64 " %" PRIu64 "+%" PRIu64 ": beyond the "
	      "32-bit ranges of NLM v%u", r->ino, r->start, r->len,
	      lm->nlm_vers);
	return -EINVAL;
}

static void next_cookie(struct lockmgr *lm, uint8_t c[8])
{
	uint64_t v;

	pthread_mutex_lock(&lm->mu);
	v = ++lm->cookie;
	pthread_mutex_unlock(&lm->mu);
	for (int i = 0; i < 8; i++)
		c[i] = (uint8_t)(v >> (56 - 8 * i));
}

static int nlm_lock_call(struct lockmgr *lm, const struct nlm_lock *a,
			 bool excl, bool block, bool reclaim,
			 const struct rpc_cred *cred, uint32_t *stat)
{
	struct nlm_lockargs args;
	struct nlm_res res;
	struct rpc_reply reply;
	struct rpc_cred c;
	uint8_t cookie[8];
	int ret;

	next_cookie(lm, cookie);
	cred_for_call(lm, cred, &c);
	memset(&args, 0, sizeof(args));
	args.cookie.data = cookie;
	args.cookie.len = sizeof(cookie);
	args.block = block;
	args.exclusive = excl;
	args.alock = *a;
	args.reclaim = reclaim;
	args.state = lm->nsm_state;
	ret = lk_conn_call(&lm->nlm, NLMPROC_LOCK, &c,
			   lk_codec(lm, NLMPROC_LOCK)->enc_args, &args,
			   nlm_dec_res, &res, &reply, LK_CALL_MS);
	if (ret)
		return ret;
	*stat = res.stat;
	rpc_reply_release(&reply);
	return 0;
}

static int nlm_simple_call(struct lockmgr *lm, uint32_t proc,
			   const struct nlm_lock *a, bool excl,
			   const struct rpc_cred *cred, uint32_t *stat)
{
	struct nlm_unlockargs ua;
	struct nlm_cancargs ca;
	struct nlm_res res;
	struct rpc_reply reply;
	struct rpc_cred c;
	uint8_t cookie[8];
	int ret;

	next_cookie(lm, cookie);
	cred_for_call(lm, cred, &c);
	if (proc == NLMPROC_UNLOCK) {
		memset(&ua, 0, sizeof(ua));
		ua.cookie.data = cookie;
		ua.cookie.len = sizeof(cookie);
		ua.alock = *a;
		ret = lk_conn_call(&lm->nlm, proc, &c,
				   lk_codec(lm, proc)->enc_args, &ua,
				   nlm_dec_res, &res, &reply, LK_CALL_MS);
	} else {
		memset(&ca, 0, sizeof(ca));
		ca.cookie.data = cookie;
		ca.cookie.len = sizeof(cookie);
		ca.block = true;
		ca.exclusive = excl;
		ca.alock = *a;
		ret = lk_conn_call(&lm->nlm, proc, &c,
				   lk_codec(lm, proc)->enc_args, &ca,
				   nlm_dec_res, &res, &reply, LK_CALL_MS);
	}
	if (ret)
		return ret;
	*stat = res.stat;
	rpc_reply_release(&reply);
	return 0;
}

static int stat_errno(struct lockmgr *lm, uint32_t stat)
{
	int e = lm->nlm_vers == NLM_V4 ? nlm_stat_errno(stat)
				       : nlm_stat_errno_v1(stat);

	if (e == -EIO)
		nf_log(NF_LOG_WARNING, "NLM v%u: unknown status %u",
		       lm->nlm_vers, stat);
	return e;
}

/* ---- public API ---- */

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
	ret = check_range(lm, r);
	if (ret)
		return ret;
	make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	svid = owner_svid(lm, r->owner, r->flock, r->pid);
	pthread_mutex_unlock(&lm->mu);
	fill_alock(lm, r, oh, oh_len, svid, &a);
	next_cookie(lm, cookie);
	cred_for_call(lm, r->cred, &cred);
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
		sleep_ms(LK_GRACE_RETRY_MS);
	}
	if (res.stat == NLM_DENIED) {
		c->found = true;
		c->excl = res.holder.exclusive;
		c->svid = res.holder.svid;
		c->start = res.holder.l_offset;
		c->len = res.holder.l_len;
		ret = 0;
	} else {
		ret = res.stat == NLM_GRANTED ? 0 : stat_errno(lm, res.stat);
	}
	rpc_reply_release(&reply);
	TRACE("lock TEST ino=%" PRIu64 " %s %" PRIu64 "+%" PRIu64
	      " -> %s", r->ino, r->excl ? "write" : "read", r->start, r->len,
	      c->found ? "conflict" : (ret ? strerror(-ret) : "free"));
	return ret;
}

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

static void record_grant(struct lockmgr *lm, const struct lock_req *r,
			 int32_t svid, const uint8_t *oh, uint32_t oh_len)
{
	bool first;

	pthread_mutex_lock(&lm->mu);
	held_apply(lm, r, svid, oh, oh_len, true);
	first = !lm->monitored;
	lm->monitored = true;
	pthread_mutex_unlock(&lm->mu);
	if (first)
		lk_monitor_server(lm);
}

int lockmgr_lock(struct lockmgr *lm, const struct lock_req *r, bool wait,
		 volatile int *interrupted, const char **granted_by)
{
	struct lk_waiter w;
	struct nlm_lock a;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len, stat = NLM4_FAILED;
	int32_t svid;
	bool cb = wait && lm->callbacks_on, blocked = false;
	int ret, delay = LK_POLL_MIN_MS;
	double last_send;
	const char *how = "immediate";

	ret = check_range(lm, r);
	if (ret)
		return ret;
	make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	svid = owner_svid(lm, r->owner, r->flock, r->pid);
	pthread_mutex_unlock(&lm->mu);
	fill_alock(lm, r, oh, oh_len, svid, &a);

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
		ret = nlm_lock_call(lm, &a, r->excl, cb, false, r->cred,
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
			sleep_ms(LK_GRACE_RETRY_MS);
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
				how = "callback";
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
			how = "poll";
			for (int slept = 0; slept < delay; slept += 50) {
				if ((interrupted && *interrupted) ||
				    lm->stopping)
					break;
				sleep_ms(50);
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
		ret = stat == NLM_BLOCKED ? -EAGAIN : stat_errno(lm, stat);
		break;
	}

	if (ret == -EINTR && cb && blocked) {
		/* The server queued our request: take it back.  A grant
		 * that raced with the interrupt wins. */
		uint32_t cstat = 0;

		LK_INC(lm, cancels);
		nlm_simple_call(lm, NLMPROC_CANCEL, &a, r->excl, r->cred,
				&cstat);
		TRACE("lock CANCEL ino=%" PRIu64 " svid=%d -> %s", r->ino,
		      svid, nlm_stat_name(cstat) ? nlm_stat_name(cstat) : "?");
		if (w.granted) {
			ret = 0;
			stat = NLM_GRANTED;
			how = "callback";
		}
	}
	if (wait)
		waiter_remove(lm, &w);

	if (ret == 0 && stat == NLM_GRANTED) {
		record_grant(lm, r, svid, oh, oh_len);
		if (!blocked)
			LK_INC(lm, locks_granted);
		else if (!strcmp(how, "callback"))
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
	      ret ? "" : how);
	pthread_mutex_lock(&lm->mu);
	lk_mark_dirty(lm);
	pthread_mutex_unlock(&lm->mu);
	return ret;
}

static bool owner_overlaps(struct lockmgr *lm, const struct lock_req *r,
			   int32_t *svid)
{
	uint64_t s = r->start, e = range_end(r->start, r->len);

	for (struct lk_held *h = lm->held; h; h = h->next)
		if (h->owner == r->owner && h->flock == r->flock &&
		    fh_eq(&h->fh, r->fh) &&
		    range_end(h->start, h->len) > s && h->start < e) {
			*svid = h->svid;
			return true;
		}
	return false;
}

int lockmgr_unlock(struct lockmgr *lm, const struct lock_req *r)
{
	struct nlm_lock a;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len, stat = 0;
	int32_t svid;
	int ret;

	ret = check_range(lm, r);
	if (ret)
		return ret;
	make_oh(lm, r->owner, r->flock, oh, &oh_len);
	pthread_mutex_lock(&lm->mu);
	if (!owner_overlaps(lm, r, &svid)) {
		pthread_mutex_unlock(&lm->mu);
		return 0; /* nothing of ours there: nothing to tell */
	}
	pthread_mutex_unlock(&lm->mu);
	fill_alock(lm, r, oh, oh_len, svid, &a);
	for (;;) {
		ret = nlm_simple_call(lm, NLMPROC_UNLOCK, &a, false, r->cred,
				      &stat);
		if (ret || stat != NLM_DENIED_GRACE_PERIOD)
			break;
		LK_INC(lm, grace_retries);
		sleep_ms(LK_GRACE_RETRY_MS);
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
	held_apply(lm, r, svid, oh, oh_len, false);
	pthread_mutex_unlock(&lm->mu);
	return stat == NLM_GRANTED ? 0 : stat_errno(lm, stat);
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

const char *lockmgr_mode(struct lockmgr *lm)
{
	return lm->mode;
}

void lockmgr_format_stats(struct lockmgr *lm, GString *out)
{
	g_string_append_printf(out, "lock_mode %s\n", lm->mode);
	g_string_append_printf(out, "lock_nlm_version %u\n", lm->nlm_vers);
	g_string_append_printf(out, "lock_caller_name %s\n", lm->caller_name);
	g_string_append_printf(out, "lock_nsm_state %d\n", lm->nsm_state);
	pthread_mutex_lock(&lm->mu);
	if (!lm->monitored || !lm->sm_stat_watch)
		g_string_append(out, "lock_server_watch none (no lock yet)\n");
	else
		g_string_append_printf(out,
				       "lock_server_watch sm_stat%s "
				       "(server state %d)\n",
				       lm->nlm_registered ? "+statd" : "",
				       lm->server_state);
	pthread_mutex_unlock(&lm->mu);
#define X(n)                                                                \
	g_string_append_printf(out, "lock_" #n " %" PRIu64 "\n",            \
			       (uint64_t)atomic_load(&lm->stats.n));
	LOCK_COUNTERS(X)
#undef X
}

void lockmgr_format_locks(struct lockmgr *lm, GString *out)
{
	double now = lk_now();

	pthread_mutex_lock(&lm->mu);
	for (struct lk_held *h = lm->held; h; h = h->next)
		g_string_append_printf(out,
				       "held ino=%" PRIu64 " owner=%016" PRIx64
				       " kind=%s type=%s start=%" PRIu64
				       " len=%" PRIu64 " svid=%d%s\n",
				       h->ino, h->owner,
				       h->flock ? "flock" : "posix",
				       h->excl ? "write" : "read", h->start,
				       h->len, h->svid, h->lost ? " LOST" : "");
	for (struct lk_waiter *w = lm->waiting; w; w = w->next)
		g_string_append_printf(out,
				       "waiting ino=%" PRIu64 " type=%s start=%"
				       PRIu64 " len=%" PRIu64
				       " svid=%d for=%.1fs\n",
				       w->ino, w->excl ? "write" : "read",
				       w->start, w->len, w->svid,
				       now - w->since);
	pthread_mutex_unlock(&lm->mu);
}

/* ---- reclaim (called by statmon.c on the monitor thread) ---- */

#define LK_RECLAIM_WAIT_S 90.0   /* for the server's NLM to come back */

/* mu held.  Is h (a snapshot copy) still in the table? */
static struct lk_held *held_find(struct lockmgr *lm, const struct lk_held *h)
{
	for (struct lk_held *x = lm->held; x; x = x->next)
		if (x->owner == h->owner && x->flock == h->flock &&
		    x->excl == h->excl && x->start == h->start &&
		    x->len == h->len && fh_eq(&x->fh, &h->fh))
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

	fill_alock(lm, &r, h->oh, h->oh_len, h->svid, &a);
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
		ret = nlm_lock_call(lm, &a, h->excl, false, reclaim, r.cred,
				    stat);
		if (ret) {
			if (lk_now() >= until)
				return ret;
			TRACE("lock RECLAIM ino=%" PRIu64 ": %s; the server's "
			      "NLM may not be up yet, retrying", h->ino,
			      strerror(-ret));
			sleep_ms(LK_GRACE_RETRY_MS);
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
			sleep_ms(LK_GRACE_RETRY_MS);
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
				};
				struct nlm_lock a;
				uint32_t ust = 0;

				fill_alock(lm, &r, h->oh, h->oh_len, h->svid,
					   &a);
				nlm_simple_call(lm, NLMPROC_UNLOCK, &a, false,
						h->cred.flavor == RPC_AUTH_SYS
							? &h->cred : NULL,
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

/* ---- the monitor thread ---- */

static void *monitor_main(void *arg)
{
	struct lockmgr *lm = arg;
	double last_stat = 0, last_status = 0;

	pthread_mutex_lock(&lm->mu);
	while (!lm->stopping) {
		struct timespec until;
		bool reboot, watch, dirty;
		double stat_every;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 200 * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000;
		until.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&lm->wake, &lm->mu, &until);
		if (lm->stopping)
			break;
		reboot = lm->reboot_pending;
		lm->reboot_pending = false;
		watch = lm->sm_stat_watch;
		/* Once a second while locks are held; otherwise now and then,
		 * only to keep the baseline current. */
		stat_every = lm->held ? LK_SM_STAT_HELD_S : LK_SM_STAT_IDLE_S;
		if (watch && lm->server_state == 0)
			stat_every = LK_SM_STAT_HELD_S; /* no baseline yet */
		dirty = lm->status_dirty;
		pthread_mutex_unlock(&lm->mu);

		if (reboot)
			lk_reclaim_all(lm);
		if (watch && lk_now() - last_stat >= stat_every) {
			last_stat = lk_now();
			lk_check_server_state(lm);
		}
		if (dirty && lk_now() - last_status >= 0.1) {
			last_status = lk_now();
			pthread_mutex_lock(&lm->mu);
			lm->status_dirty = false;
			pthread_mutex_unlock(&lm->mu);
			lk_statedir_write_status(lm);
		}
		pthread_mutex_lock(&lm->mu);
	}
	pthread_mutex_unlock(&lm->mu);
	return NULL;
}

/* From SM_STAT polling (statmon.c) or a statd callback (listener.c): the
 * one seen second, for the same new state, is no news. */
void lk_server_rebooted(struct lockmgr *lm, int32_t state)
{
	pthread_mutex_lock(&lm->mu);
	if (state != 0 && state == lm->server_state && lm->sm_stat_watch &&
	    !lm->reboot_pending) {
		pthread_mutex_unlock(&lm->mu);
		return;
	}
	lm->server_state = state;
	lm->reboot_pending = true;
	pthread_cond_signal(&lm->wake);
	pthread_mutex_unlock(&lm->mu);
	LK_INC(lm, server_reboots);
}

/* A home directory of ours: mount(8) runs the helper of an fstab "user"
 * mount as the user but with root's HOME. */
static bool own_home(const char *home)
{
	struct stat st;

	return home && *home == '/' && strcmp(home, "/") &&
	       stat(home, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

static char *default_statedir(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	uint32_t uid = geteuid();
	struct passwd *pw;
	char *p = NULL;
	int n;

	if (!own_home(home)) {
		pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	/* Root of a user namespace is an ordinary user of the machine. */
	userns_uid_out(uid, &uid);
	if (xdg && *xdg == '/')
		n = asprintf(&p, "%s/nfsfuse/%s", xdg, name);
	else if (own_home(home))
		n = asprintf(&p, "%s/.local/state/nfsfuse/%s", home, name);
	else if (uid == 0)
		n = asprintf(&p, "/var/lib/nfsfuse/%s", name);
	else
		n = asprintf(&p, "/tmp/nfsfuse-%u/%s", (unsigned)uid, name);
	return n < 0 ? NULL : p;
}

int lockmgr_start(const struct lockmgr_config *cfg, struct lockmgr **out,
		  char *err, size_t errlen)
{
	struct lockmgr *lm = calloc(1, sizeof(*lm));

	*out = NULL;
	if (!lm) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	lm->cfg = *cfg;
	lm->statedir_fd = -1;
	lm->nlm_tcp_fd = lm->nlm_udp_fd = lm->sm_fd = -1;
	lm->wake_pipe[0] = lm->wake_pipe[1] = -1;
	lm->server_name = strdup(cfg->server_name);
	lm->caller_name = strdup(cfg->caller_name);
	lm->statedir = cfg->statedir ? strdup(cfg->statedir)
				     : default_statedir(cfg->caller_name);
	if (!lm->server_name || !lm->caller_name || !lm->statedir) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (cfg->clientaddr && rpc_addr_parse(&lm->src, cfg->clientaddr, 0)) {
		snprintf(err, errlen, "clientaddr=%s: not a numeric IPv4 or "
			 "IPv6 address", cfg->clientaddr);
		goto fail;
	}
	/* Our calls leave from it and callbacks come to it: it must be of
	 * the family the server is reached by. */
	if (cfg->clientaddr &&
	    rpc_addr_family(&lm->src) != rpc_addr_family(&cfg->server)) {
		snprintf(err, errlen, "clientaddr=%s: the server is reached "
			 "over %s", cfg->clientaddr,
			 rpc_addr_family(&cfg->server) == AF_INET6 ? "IPv6"
								    : "IPv4");
		goto fail;
	}
	pthread_mutex_init(&lm->mu, NULL);
	pthread_cond_init(&lm->wake, NULL);
	/* NFSv2 goes with NLM v3 (v1 lacks FREE_ALL), NFSv3 with NLM v4. */
	lm->nlm_vers = cfg->nfs_vers == 2 ? NLM_V3 : NLM_V4;
	{
		struct rpc_addr peer = lk_nlm_peer(lm, &cfg->server);

		lk_conn_init(&lm->nlm, &peer, &lm->src, NLM_PROGRAM,
			     lm->nlm_vers, IPPROTO_TCP);
	}
	if (lk_statedir_open(lm, err, errlen))
		goto fail_conn;
	lk_notify_servers(lm);
	if (lk_listener_start(lm, err, errlen))
		goto fail_statedir;
	if (pthread_create(&lm->monitor, NULL, monitor_main, lm)) {
		snprintf(err, errlen, "cannot start the lock monitor thread");
		goto fail_listener;
	}
	lm->monitor_running = true;
	lk_statedir_write_status(lm);
	nf_log(NF_LOG_INFO, "locks: NLM v%u, caller_name %s, NSM state %d, "
	       "%s", lm->nlm_vers, lm->caller_name, lm->nsm_state, lm->mode);
	*out = lm;
	return 0;
fail_listener:
	lk_listener_stop(lm);
fail_statedir:
	lk_statedir_close(lm);
fail_conn:
	lk_conn_close(&lm->nlm);
	pthread_cond_destroy(&lm->wake);
	pthread_mutex_destroy(&lm->mu);
fail:
	free(lm->server_name);
	free(lm->caller_name);
	free(lm->statedir);
	free(lm);
	return -1;
}

void lockmgr_stop(struct lockmgr *lm)
{
	struct lk_held *h;
	bool had_locks;

	if (!lm)
		return;
	pthread_mutex_lock(&lm->mu);
	lm->stopping = true;
	pthread_cond_broadcast(&lm->wake);
	for (struct lk_waiter *w = lm->waiting; w; w = w->next)
		pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&lm->mu);
	if (lm->monitor_running)
		pthread_join(lm->monitor, NULL);

	/* The kernel forgets a dead mount's locks: so must the server. */
	pthread_mutex_lock(&lm->mu);
	had_locks = lm->monitored;
	pthread_mutex_unlock(&lm->mu);
	while ((h = lm->held)) {
		struct lock_req r = { .fh = &h->fh, .ino = h->ino,
				      .owner = h->owner, .flock = h->flock,
				      .start = h->start, .len = h->len };
		struct nlm_lock a;
		uint32_t stat;

		lm->held = h->next;
		fill_alock(lm, &r, h->oh, h->oh_len, h->svid, &a);
		nlm_simple_call(lm, NLMPROC_UNLOCK, &a, false,
				h->cred.flavor == RPC_AUTH_SYS ? &h->cred
							       : NULL,
				&stat);
		free(h);
	}
	if (had_locks)
		lk_unmonitor_server(lm);
	lk_listener_stop(lm);
	lk_statedir_set_servers(lm, NULL, 0);
	lk_statedir_write_status(lm);
	lk_statedir_close(lm);
	lk_conn_close(&lm->nlm);
	free(lm->lost_inos);
	pthread_cond_destroy(&lm->wake);
	pthread_mutex_destroy(&lm->mu);
	free(lm->server_name);
	free(lm->caller_name);
	free(lm->statedir);
	free(lm);
}
