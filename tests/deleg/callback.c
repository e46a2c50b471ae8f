/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proxy's callbacks about delegations, on the holder's backchannel:
 * CB_RECALL, and CB_GETATTR for the size and change a write delegation's
 * holder knows and the server not yet (deleg.c says when each is sent).
 * Each is CB_COMPOUND [CB_SEQUENCE on slot 0, the callback]; one callback
 * of ours is out per connection at a time (c->cb_xid), the others wait
 * their turn: recalls first, then CB_GETATTRs, then notify.c's
 * CB_NOTIFY_LOCKs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"
#include "deleg_int.h"

static uint32_t cb_xid_next = 0xd1e90001u;

/* Our callback xid on h's slot 0, whose sequence moves on. */
static void cb_send(struct dp_conn *h, uint32_t xid, uint8_t *msg,
		    size_t len)
{
	h->cb_xid = xid;
	h->cb_seq++;
	dp_send(h, &h->cli, msg, len);
	free(msg);
}

static struct dp_conn *backchannel(const struct deleg *d, const char *what)
{
	struct dp_conn *h = dp_conn_by_id(d->holder);
	char ob[2 * NFS4_OTHER_SIZE + 1];

	if (h && !h->dead && h->have_cb)
		return h;
	dp_log("error no backchannel to %s stateid=%s from conn=%u", what,
	       dp_hex(d->other, NFS4_OTHER_SIZE, ob, sizeof(ob)), d->holder);
	dp_st.errors++;
	return NULL;
}

static void send_recall(struct deleg *d, struct dp_conn *h)
{
	uint8_t sid[16], *msg;
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	size_t len;
	uint32_t xid;

	xdr_put_u32(sid, 1);
	memcpy(sid + 4, d->other, NFS4_OTHER_SIZE);
	xid = cb_xid_next++;
	if (dp_cb_recall(xid, h->cb_prog, h->sessionid, h->cb_seq, sid,
			 d->fh, d->fhlen, &msg, &len)) {
		dp_log("error cannot build CB_RECALL");
		dp_st.errors++;
		return;
	}
	d->recall_due = false;
	d->cb_xid = xid;
	dp_log("recall conn=%u fh=%s stateid=%s xid=0x%08x seq=%u", h->id,
	       dp_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       dp_hex(d->other, NFS4_OTHER_SIZE, ob, sizeof(ob)), xid,
	       h->cb_seq);
	dp_st.recalls_sent++;
	cb_send(h, xid, msg, len);
}

void recall(struct deleg *d)
{
	struct dp_conn *h;

	if (d->recalling)
		return;
	h = backchannel(d, "recall");
	if (!h)
		return;
	d->recalling = true;
	if (h->cb_xid) {
		d->recall_due = true;
		return;
	}
	send_recall(d, h);
}

static void send_cb_getattr(struct deleg *d, struct dp_conn *h)
{
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	uint8_t *msg;
	size_t len;
	uint32_t xid = cb_xid_next++;

	if (dp_cb_getattr(xid, h->cb_prog, h->sessionid, h->cb_seq, d->fh,
			  d->fhlen, &msg, &len)) {
		dp_log("error cannot build CB_GETATTR");
		dp_st.errors++;
		return;
	}
	d->getattr_due = false;
	d->ga_xid = xid;
	dp_log("cb-getattr conn=%u fh=%s stateid=%s xid=0x%08x seq=%u",
	       h->id, dp_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       dp_hex(d->other, NFS4_OTHER_SIZE, ob, sizeof(ob)), xid,
	       h->cb_seq);
	dp_st.cb_getattrs_sent++;
	cb_send(h, xid, msg, len);
}

void cb_getattr(struct deleg *d)
{
	struct dp_conn *h;

	if (d->ga_xid || d->getattr_due)
		return;
	h = backchannel(d, "ask (CB_GETATTR)");
	if (!h)
		return;
	if (h->cb_xid) {
		d->getattr_due = true;
		return;
	}
	send_cb_getattr(d, h);
}

bool deleg_cb_next(struct dp_conn *c)
{
	struct deleg *d;

	if (c->cb_xid || !c->have_cb)
		return c->cb_xid != 0;
	for (d = delegs; d; d = d->next)
		if (d->holder == c->id && d->recall_due) {
			send_recall(d, c);
			return true;
		}
	for (d = delegs; d; d = d->next)
		if (d->holder == c->id && d->getattr_due) {
			send_cb_getattr(d, c);
			return true;
		}
	return false;
}

static void recall_reply(struct dp_conn *c, struct deleg *d,
			 const uint8_t *p, size_t len)
{
	int64_t st = dp_cb_reply_status(p, len);
	char ob[2 * NFS4_OTHER_SIZE + 1];

	d->cb_xid = 0;
	dp_st.recall_replies++;
	if (st == NFS4_OK)
		dp_st.recall_replies_ok++;
	dp_log("recall-reply conn=%u stateid=%s status=%lld", c->id,
	       dp_hex(d->other, NFS4_OTHER_SIZE, ob, sizeof(ob)),
	       (long long)st);
}

static void getattr_reply(struct dp_conn *c, struct deleg *d,
			  const uint8_t *p, size_t len)
{
	struct dp_cb_attrs a;
	char sz[24] = "-", ch[24] = "-";
	bool ok;

	d->ga_xid = 0;
	dp_st.cb_getattr_replies++;
	if (dp_cb_getattr_reply(p, len, &a)) {
		dp_log("error cb-getattr-reply conn=%u unreadable: GETATTRs "
		       "go on unpatched", c->id);
		dp_st.errors++;
		release(d->other, "cb-getattr", true, NULL);
		return;
	}
	if (a.have_size)
		snprintf(sz, sizeof(sz), "%llu", (unsigned long long)a.size);
	if (a.have_change)
		snprintf(ch, sizeof(ch), "%llu", (unsigned long long)a.change);
	dp_log("cb-getattr-reply conn=%u status=%u size=%s change=%s", c->id,
	       a.status, sz, ch);
	ok = a.status == NFS4_OK;
	if (ok) {
		dp_st.cb_getattr_replies_ok++;
		if (a.have_size)
			dp_st.cb_getattr_size = a.size;
		if (a.have_change)
			dp_st.cb_getattr_change = a.change;
	}
	release(d->other, "cb-getattr", true, ok && a.have_size ? &a.size :
							       NULL);
}

/* An answer on c's backchannel to our callback xid. */
static void cb_answered(struct dp_conn *c, uint32_t xid, const uint8_t *p,
			size_t len)
{
	struct deleg *d;

	for (d = delegs; d; d = d->next) {
		if (d->holder != c->id)
			continue;
		if (d->cb_xid == xid) {
			recall_reply(c, d, p, len);
			return;
		}
		if (d->ga_xid == xid) {
			getattr_reply(c, d, p, len);
			return;
		}
	}
	if (!notify_cb_reply(c, xid, p, len))
		dp_log("late-reply conn=%u xid=0x%08x (its delegation is gone)",
		       c->id, xid);
}

void cb_client_reply(struct dp_conn *c, uint32_t xid, const uint8_t *p,
		     size_t len)
{
	if (!c->cb_xid || c->cb_xid != xid) {
		dp_send(c, &c->srv, p, len);
		return;
	}
	c->cb_xid = 0;
	cb_answered(c, xid, p, len);
	if (!deleg_cb_next(c))
		notify_cb_next(c);
	dp_stats_changed();
}
