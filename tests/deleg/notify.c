/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CB_NOTIFY_LOCK (RFC 8881 §20.11), which the server behind the proxy
 * never sends.
 *
 * Waiters: a LOCK of a blocking type (READW_LT, WRITEW_LT) answered
 * NFS4ERR_DENIED makes (connection, fh, lock-owner) a waiter; a LOCK of
 * the same owner on that file granted ends it.  The lock-owner is in the
 * LOCK when it names a new one (open_to_lock_owner4, which is what this
 * client sends until the owner holds a lock stateid); an existing one
 * (exist_lock_owner4) is found by its lock stateid, learnt from the reply
 * that granted the stateid's first LOCK.
 *
 * Notify: a LOCKU or CLOSE on fh that succeeds sends every waiter on fh
 * of another connection CB_COMPOUND [CB_SEQUENCE, CB_NOTIFY_LOCK] on its
 * backchannel.  One callback of ours at a time per connection (slot 0,
 * shared with deleg.c's): a waiter due while one is out is sent when the
 * slot is free and no recall or CB_GETATTR waits for it.
 * The client's answer is counted and consumed here.
 */
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"

struct waiter {
	unsigned int conn;
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	struct dp_owner owner;
	bool due;            /* to be notified when the connection is free */
	struct waiter *next;
};

/* The owner of a lock stateid, for LOCKs of an existing lock-owner. */
struct lockid {
	unsigned int conn;
	uint8_t other[NFS4_OTHER_SIZE];
	struct dp_owner owner;
	struct lockid *next;
};

/* Past this many, new lock stateids are not remembered (a test makes a
 * handful; the bound keeps a long run from growing without end). */
#define LOCKIDS_MAX 4096u

static struct waiter *waiters;
static struct lockid *lockids;
static unsigned int nlockids;
static uint32_t notify_xid_next = 0x4e4c0001u;

static bool same_fh(const uint8_t *a, uint32_t al, const uint8_t *b,
		    uint32_t bl)
{
	return al == bl && memcmp(a, b, al) == 0;
}

static bool same_owner(const struct dp_owner *a, const struct dp_owner *b)
{
	return a->clientid == b->clientid && a->len == b->len &&
	       memcmp(a->owner, b->owner, a->len) == 0;
}

static const char *owner_hex(const struct dp_owner *o, char *b, size_t bl)
{
	return dp_hex(o->owner, o->len, b, bl);
}

static struct lockid *lockid_find(unsigned int conn, const uint8_t *other)
{
	struct lockid *l;

	for (l = lockids; l; l = l->next)
		if (l->conn == conn &&
		    !memcmp(l->other, other, NFS4_OTHER_SIZE))
			return l;
	return NULL;
}

static void lockid_learn(unsigned int conn, const uint8_t *stateid,
			 const struct dp_owner *o)
{
	struct lockid *l;

	if (lockid_find(conn, stateid + 4) || nlockids >= LOCKIDS_MAX)
		return;
	l = calloc(1, sizeof(*l));
	if (!l) {
		dp_log("error out of memory noting a lock stateid");
		dp_st.errors++;
		return;
	}
	l->conn = conn;
	memcpy(l->other, stateid + 4, NFS4_OTHER_SIZE);
	l->owner = *o;
	l->next = lockids;
	lockids = l;
	nlockids++;
}

void notify_call(struct dp_conn *c, const struct dp_call *ci,
		 struct dp_pending *pe)
{
	struct lockid *l;

	memcpy(pe->fh, ci->fh, ci->fhlen);
	pe->fhlen = ci->fhlen;
	if (ci->op == NFS4OP_LOCKU || ci->op == NFS4OP_CLOSE) {
		pe->kind = PEND_UNLOCK;
		return;
	}
	if (ci->op != NFS4OP_LOCK)
		return;
	pe->kind = PEND_LOCK;
	pe->locktype = ci->locktype;
	if (ci->new_lock_owner) {
		pe->have_owner = ci->owner_fits;
		pe->owner = ci->lock_owner;
	} else if ((l = lockid_find(c->id, ci->stateid + 4))) {
		pe->have_owner = true;
		pe->owner = l->owner;
	}
}

static struct waiter *waiter_find(unsigned int conn, const uint8_t *fh,
				  uint32_t fhlen, const struct dp_owner *o)
{
	struct waiter *w;

	for (w = waiters; w; w = w->next)
		if (w->conn == conn && same_fh(w->fh, w->fhlen, fh, fhlen) &&
		    same_owner(&w->owner, o))
			return w;
	return NULL;
}

static void waiter_add(struct dp_conn *c, const struct dp_pending *pe)
{
	struct waiter *w;
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * DP_OWNER_MAX + 1];

	dp_st.blocked_denied++;
	dp_log("blocked conn=%u fh=%s owner=%s locktype=%u", c->id,
	       dp_hex(pe->fh, pe->fhlen, fb, sizeof(fb)),
	       owner_hex(&pe->owner, ob, sizeof(ob)), pe->locktype);
	if (waiter_find(c->id, pe->fh, pe->fhlen, &pe->owner))
		return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		dp_log("error out of memory noting a lock waiter");
		dp_st.errors++;
		return;
	}
	w->conn = c->id;
	memcpy(w->fh, pe->fh, pe->fhlen);
	w->fhlen = pe->fhlen;
	w->owner = pe->owner;
	w->next = waiters;
	waiters = w;
}

static void waiter_remove(struct waiter *x)
{
	struct waiter **pp;

	for (pp = &waiters; *pp; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			free(x);
			return;
		}
}

/* Send w its CB_NOTIFY_LOCK, or mark it due when its connection has one
 * out already. */
static void notify_one(struct waiter *w)
{
	struct dp_conn *h = dp_conn_by_id(w->conn);
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * DP_OWNER_MAX + 1];
	uint8_t *msg;
	size_t len;
	uint32_t xid;

	if (!h || h->dead || !h->have_cb) {
		dp_log("error no backchannel to notify conn=%u", w->conn);
		dp_st.errors++;
		return;
	}
	if (h->cb_xid) {
		w->due = true;
		return;
	}
	xid = notify_xid_next++;
	if (dp_cb_notify_lock(xid, h->cb_prog, h->sessionid, h->cb_seq, w->fh,
			      w->fhlen, &w->owner, &msg, &len)) {
		dp_log("error cannot build CB_NOTIFY_LOCK");
		dp_st.errors++;
		return;
	}
	w->due = false;
	h->notify_xid = xid;
	dp_log("notify conn=%u fh=%s owner=%s xid=0x%08x seq=%u", h->id,
	       dp_hex(w->fh, w->fhlen, fb, sizeof(fb)),
	       owner_hex(&w->owner, ob, sizeof(ob)), xid, h->cb_seq);
	h->cb_xid = xid;
	h->cb_seq++;
	dp_st.notifies_sent++;
	dp_send(h, &h->cli, msg, len);
	free(msg);
}

static void unlocked(struct dp_conn *c, const struct dp_pending *pe)
{
	struct waiter *w;

	for (w = waiters; w; w = w->next)
		if (w->conn != c->id && same_fh(w->fh, w->fhlen, pe->fh,
						 pe->fhlen))
			notify_one(w);
}

void notify_reply(struct dp_conn *c, const struct dp_pending *pe,
		  const struct dp_reply *ri)
{
	struct waiter *w;
	char fb[2 * NFS4_FHSIZE + 1];
	bool blocking = pe->locktype == NFS4_READW_LT ||
			pe->locktype == NFS4_WRITEW_LT;

	if (pe->kind == PEND_UNLOCK) {
		if ((ri->last_op == NFS4OP_LOCKU || ri->last_op == NFS4OP_CLOSE)
		    && ri->last_status == NFS4_OK)
			unlocked(c, pe);
		return;
	}
	if (pe->kind != PEND_LOCK || ri->last_op != NFS4OP_LOCK)
		return;
	if (!pe->have_owner) {
		if (blocking && ri->last_status == NFS4ERR_DENIED) {
			dp_log("error blocked conn=%u fh=%s of an unknown "
			       "lock-owner: not tracked", c->id,
			       dp_hex(pe->fh, pe->fhlen, fb, sizeof(fb)));
			dp_st.errors++;
		}
		return;
	}
	if (ri->last_status == NFS4_OK && ri->have_stateid) {
		lockid_learn(c->id, ri->stateid, &pe->owner);
		w = waiter_find(c->id, pe->fh, pe->fhlen, &pe->owner);
		if (w) {
			dp_log("waiter-granted conn=%u fh=%s", c->id,
			       dp_hex(pe->fh, pe->fhlen, fb, sizeof(fb)));
			waiter_remove(w);
		}
	} else if (blocking && ri->last_status == NFS4ERR_DENIED) {
		waiter_add(c, pe);
	}
}

bool notify_cb_reply(struct dp_conn *c, uint32_t xid, const uint8_t *p,
		     size_t len)
{
	int64_t st;

	if (!c->notify_xid || c->notify_xid != xid)
		return false;
	st = dp_cb_reply_status(p, len);
	c->notify_xid = 0;
	dp_st.notify_replies++;
	if (st == NFS4_OK)
		dp_st.notify_replies_ok++;
	dp_log("notify-reply conn=%u status=%lld", c->id, (long long)st);
	dp_stats_changed();
	return true;
}

void notify_cb_next(struct dp_conn *c)
{
	struct waiter *w;

	for (w = waiters; w; w = w->next)
		if (w->conn == c->id && w->due) {
			notify_one(w);
			return;
		}
}

void notify_conn_closed(struct dp_conn *c)
{
	struct waiter **wp = &waiters, *w;
	struct lockid **lp = &lockids, *l;

	while ((w = *wp)) {
		if (w->conn == c->id) {
			*wp = w->next;
			free(w);
		} else {
			wp = &w->next;
		}
	}
	while ((l = *lp)) {
		if (l->conn == c->id) {
			*lp = l->next;
			free(l);
			nlockids--;
		} else {
			lp = &l->next;
		}
	}
	c->notify_xid = 0;
}

void notify_free_all(void)
{
	struct waiter *w;
	struct lockid *l;

	while ((w = waiters)) {
		waiters = w->next;
		free(w);
	}
	while ((l = lockids)) {
		lockids = l->next;
		free(l);
	}
	nlockids = 0;
}
