/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delegation rules of the proxy.
 *
 * Grant: a successful OPEN(CLAIM_FH) for reading only (share_access & 3
 * == READ: the 4.1 WANT bits are ignored) gets a read delegation in its
 * reply, with a stateid of our own ("DLGP" and a counter), when the
 * connection's session and callback program are known, the file has no
 * delegation yet, and no other connection has it open for writing.
 *
 * Recall: another connection's PUTFH(fh) followed by WRITE, SETATTR or
 * OPEN(CLAIM_FH) for writing is held, and the holder gets CB_RECALL on
 * its own connection (its backchannel); an OPEN by name for writing is
 * seen in its reply's GETFH, and that reply is held instead.  Held
 * messages go on when the holder's DELEGRETURN has been answered, or
 * after the recall timeout.  A connection never conflicts with itself.
 *
 * DELEGRETURN of one of our stateids never reaches the server, which
 * knows nothing of it: the operation is cut off the compound (the last
 * one, after SEQUENCE PUTFH), and its NFS4_OK result added to the reply,
 * so the server's slot and sequence stay in step with the client's.
 *
 * With --revoke, a conflict revokes instead of recalling (revoke.c).
 */
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"
#include "revoke.h"

#define DLG_MAGIC "DLGP"

struct deleg {
	uint8_t other[NFS4_OTHER_SIZE];
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	unsigned int holder;
	bool recalling;
	uint32_t cb_xid;
	bool revoked;        /* the recall timed out: conflicts pass */
	struct deleg *next;
};

struct held {
	unsigned int conn;
	bool to_server;      /* a call of the client; else a reply to it */
	uint8_t *msg;
	size_t len;
	uint32_t xid;
	uint8_t other[NFS4_OTHER_SIZE]; /* the delegation it waits for */
	uint64_t deadline;
	struct held *next;
};

/* An open for writing the server granted, until its CLOSE. */
struct wopen {
	unsigned int conn;
	uint8_t other[NFS4_OTHER_SIZE];
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	struct wopen *next;
};

static struct deleg *delegs;
static struct held *helds;
static struct wopen *wopens;
static uint64_t deleg_counter;
static uint32_t cb_xid_next = 0xd1e90001u;

/* ---- small helpers ---- */

static const char *fh_hex(const uint8_t *fh, uint32_t n, char *b, size_t bl)
{
	return dp_hex(fh, n, b, bl);
}

static const char *other_hex(const uint8_t *o, char *b, size_t bl)
{
	return dp_hex(o, NFS4_OTHER_SIZE, b, bl);
}

static bool same_fh(const uint8_t *a, uint32_t al, const uint8_t *b,
		    uint32_t bl)
{
	return al == bl && memcmp(a, b, al) == 0;
}

static struct deleg *deleg_by_fh(const uint8_t *fh, uint32_t fhlen)
{
	struct deleg *d;

	for (d = delegs; d; d = d->next)
		if (same_fh(d->fh, d->fhlen, fh, fhlen))
			return d;
	return NULL;
}

static struct deleg *deleg_by_other(const uint8_t *other)
{
	struct deleg *d;

	for (d = delegs; d; d = d->next)
		if (!memcmp(d->other, other, NFS4_OTHER_SIZE))
			return d;
	return NULL;
}

static void deleg_remove(struct deleg *x)
{
	struct deleg **pp;

	for (pp = &delegs; *pp; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			free(x);
			return;
		}
}

static bool pending_add(struct dp_conn *c, const struct dp_pending *p)
{
	if (c->npend == c->cappend) {
		size_t n = c->cappend ? 2 * c->cappend : 16;
		struct dp_pending *np = realloc(c->pend, n * sizeof(*np));

		if (!np)
			return false;
		c->pend = np;
		c->cappend = n;
	}
	c->pend[c->npend++] = *p;
	return true;
}

static bool pending_take(struct dp_conn *c, uint32_t xid,
			 struct dp_pending *out)
{
	size_t i;

	for (i = 0; i < c->npend; i++)
		if (c->pend[i].xid == xid) {
			*out = c->pend[i];
			c->pend[i] = c->pend[--c->npend];
			return true;
		}
	return false;
}

static void wopen_add(unsigned int conn, const uint8_t *stateid,
		      const uint8_t *fh, uint32_t fhlen)
{
	struct wopen *w = calloc(1, sizeof(*w));

	if (!w) {
		dp_log("error out of memory noting a write open");
		dp_st.errors++;
		return;
	}
	w->conn = conn;
	memcpy(w->other, stateid + 4, NFS4_OTHER_SIZE);
	memcpy(w->fh, fh, fhlen);
	w->fhlen = fhlen;
	w->next = wopens;
	wopens = w;
}

/* CLOSE of an open stateid (with its 4-byte seqid in front). */
static void wopen_close(unsigned int conn, const uint8_t *stateid)
{
	struct wopen **pp = &wopens, *w;

	while ((w = *pp)) {
		if (w->conn == conn &&
		    !memcmp(w->other, stateid + 4, NFS4_OTHER_SIZE)) {
			*pp = w->next;
			free(w);
		} else {
			pp = &w->next;
		}
	}
}

static bool written_by_other(unsigned int conn, const uint8_t *fh,
			     uint32_t fhlen)
{
	struct wopen *w;

	for (w = wopens; w; w = w->next)
		if (w->conn != conn && same_fh(w->fh, w->fhlen, fh, fhlen))
			return true;
	return false;
}

static void forward(struct dp_conn *c, bool to_server, const uint8_t *p,
		    size_t len)
{
	dp_send(c, to_server ? &c->srv : &c->cli, p, len);
}

/* ---- recall and held messages ---- */

static void recall(struct deleg *d)
{
	struct dp_conn *h = dp_conn_by_id(d->holder);
	uint8_t sid[16], *msg;
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	size_t len;
	uint32_t xid;

	if (d->recalling)
		return;
	if (!h || h->dead || !h->have_cb) {
		dp_log("error no backchannel to recall stateid=%s from conn=%u",
		       other_hex(d->other, ob, sizeof(ob)), d->holder);
		dp_st.errors++;
		return;
	}
	xdr_put_u32(sid, 1);
	memcpy(sid + 4, d->other, NFS4_OTHER_SIZE);
	xid = cb_xid_next++;
	if (dp_cb_recall(xid, h->cb_prog, h->sessionid, h->cb_seq, sid,
			 d->fh, d->fhlen, &msg, &len)) {
		dp_log("error cannot build CB_RECALL");
		dp_st.errors++;
		return;
	}
	d->recalling = true;
	d->cb_xid = xid;
	dp_log("recall conn=%u fh=%s stateid=%s xid=0x%08x seq=%u", h->id,
	       fh_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       other_hex(d->other, ob, sizeof(ob)), xid, h->cb_seq);
	h->cb_seq++;
	dp_st.recalls_sent++;
	dp_send(h, &h->cli, msg, len);
	free(msg);
}

/* Hold c's message until d is given back (or the timeout). */
static void hold(struct dp_conn *c, bool to_server, const uint8_t *p,
		 size_t len, uint32_t xid, struct deleg *d, const char *what)
{
	struct held *h = calloc(1, sizeof(*h)), **pp;
	char ob[2 * NFS4_OTHER_SIZE + 1];

	if (h)
		h->msg = malloc(len ? len : 1);
	if (!h || !h->msg) {
		free(h);
		dp_log("error out of memory holding xid=0x%08x", xid);
		dp_st.errors++;
		forward(c, to_server, p, len);
		return;
	}
	memcpy(h->msg, p, len);
	h->len = len;
	h->conn = c->id;
	h->to_server = to_server;
	h->xid = xid;
	memcpy(h->other, d->other, NFS4_OTHER_SIZE);
	h->deadline = dp_now_ms() + (uint64_t)dp_recall_timeout_s * 1000;
	for (pp = &helds; *pp; pp = &(*pp)->next)
		;
	*pp = h;
	dp_st.held++;
	dp_log("hold conn=%u %s xid=0x%08x %s stateid=%s holder=%u", c->id,
	       to_server ? "call" : "reply", xid, what,
	       other_hex(d->other, ob, sizeof(ob)), d->holder);
	recall(d);
}

/* Let go every message waiting for other (or, timed_out, only those past
 * their deadline); why names the event in the log. */
static void release(const uint8_t *other, uint64_t now, const char *why)
{
	struct held **pp = &helds, *h;
	struct dp_conn *c;

	while ((h = *pp)) {
		if (other ? memcmp(h->other, other, NFS4_OTHER_SIZE) != 0 :
			    h->deadline > now) {
			pp = &h->next;
			continue;
		}
		*pp = h->next;
		c = dp_conn_by_id(h->conn);
		dp_log("release conn=%u xid=0x%08x on=%s", h->conn, h->xid,
		       why);
		if (!strcmp(why, "return"))
			dp_st.released_on_return++;
		else if (!strcmp(why, "timeout"))
			dp_st.released_on_timeout++;
		else
			dp_st.released_on_close++;
		if (c && !c->dead)
			forward(c, h->to_server, h->msg, h->len);
		free(h->msg);
		free(h);
	}
}

/* A conflicting use of fh by c: 1 when the message was held. */
static int conflict(struct dp_conn *c, bool to_server, const uint8_t *p,
		    size_t len, uint32_t xid, const uint8_t *fh,
		    uint32_t fhlen, const char *what)
{
	struct deleg *d = deleg_by_fh(fh, fhlen);

	if (!d || d->holder == c->id || d->revoked)
		return 0;
	if (revoke_conflict(d->holder, d->other, d->fh, d->fhlen, c->id,
			    what)) {
		deleg_remove(d);
		return 0;
	}
	hold(c, to_server, p, len, xid, d, what);
	return 1;
}

/* ---- from the client ---- */

static void cb_reply(struct dp_conn *c, struct deleg *d, const uint8_t *p,
		     size_t len)
{
	int64_t st = dp_cb_reply_status(p, len);
	char ob[2 * NFS4_OTHER_SIZE + 1];

	d->cb_xid = 0;
	dp_st.recall_replies++;
	if (st == NFS4_OK)
		dp_st.recall_replies_ok++;
	dp_log("recall-reply conn=%u stateid=%s status=%lld", c->id,
	       other_hex(d->other, ob, sizeof(ob)), (long long)st);
	dp_stats_changed();
}

static void delegreturn(struct dp_conn *c, const struct dp_call *ci,
			const uint8_t *p, size_t len)
{
	const uint8_t *other = ci->stateid + 4;
	char ob[2 * NFS4_OTHER_SIZE + 1];
	struct dp_pending pe = { .xid = ci->xid, .kind = PEND_RETURN };
	uint8_t *out;
	size_t olen;

	if (!deleg_by_other(other) || !ci->op_last) {
		dp_log("error DELEGRETURN conn=%u stateid=%s %s: forwarded",
		       c->id, other_hex(other, ob, sizeof(ob)),
		       ci->op_last ? "of no delegation of ours" :
				     "not last in its compound");
		dp_st.errors++;
		dp_stats_changed();
		forward(c, true, p, len);
		return;
	}
	memcpy(pe.other, other, NFS4_OTHER_SIZE);
	if (dp_strip_last(p, len, ci, &out, &olen) || !pending_add(c, &pe)) {
		dp_log("error cannot cut DELEGRETURN xid=0x%08x", ci->xid);
		dp_st.errors++;
		forward(c, true, p, len);
		return;
	}
	forward(c, true, out, olen);
	free(out);
}

void deleg_from_client(struct dp_conn *c, const uint8_t *p, size_t len)
{
	struct dp_pending pe = { 0 };
	struct dp_call ci;
	struct deleg *d;
	uint32_t xid, type, acc;

	if (dp_msg_head(p, len, &xid, &type) == 0 && type == 1) {
		/* A reply on the backchannel: ours, or the server's. */
		for (d = delegs; d; d = d->next)
			if (d->holder == c->id && d->recalling &&
			    d->cb_xid && d->cb_xid == xid) {
				cb_reply(c, d, p, len);
				return;
			}
		if (!notify_cb_reply(c, xid, p, len))
			forward(c, true, p, len);
		return;
	}
	if (dp_parse_call(p, len, &ci)) {
		forward(c, true, p, len);
		return;
	}
	pe.xid = ci.xid;
	if (ci.first_op == NFS4OP_CREATE_SESSION) {
		pe.kind = PEND_CREATE_SESSION;
		pe.cb_prog = ci.cb_prog;
		if (!pending_add(c, &pe))
			dp_st.errors++;
		forward(c, true, p, len);
		return;
	}
	if (!ci.have_fh) {
		forward(c, true, p, len);
		return;
	}
	if (revoke_call(c, &ci, p, len)) {
		dp_stats_changed();
		return;
	}
	acc = ci.share_access & NFS4_SHARE_ACCESS_BOTH;
	switch (ci.op) {
	case NFS4OP_OPEN:
		pe.share_access = acc;
		if (ci.claim == NFS4_CLAIM_FH) {
			pe.kind = PEND_OPEN_FH;
			memcpy(pe.fh, ci.fh, ci.fhlen);
			pe.fhlen = ci.fhlen;
		} else if (ci.claim == NFS4_CLAIM_NULL &&
			   (acc & NFS4_SHARE_ACCESS_WRITE)) {
			pe.kind = PEND_OPEN_NAME_W;
		}
		if (pe.kind && !pending_add(c, &pe))
			dp_st.errors++;
		if (ci.claim == NFS4_CLAIM_FH &&
		    (acc & NFS4_SHARE_ACCESS_WRITE) &&
		    conflict(c, true, p, len, ci.xid, ci.fh, ci.fhlen,
			     "OPEN"))
			break;
		forward(c, true, p, len);
		break;
	case NFS4OP_WRITE:
	case NFS4OP_SETATTR:
		if (!conflict(c, true, p, len, ci.xid, ci.fh, ci.fhlen,
			      ci.op == NFS4OP_WRITE ? "WRITE" : "SETATTR"))
			forward(c, true, p, len);
		break;
	case NFS4OP_CLOSE:
		wopen_close(c->id, ci.stateid);
		/* fall through */
	case NFS4OP_LOCK:
	case NFS4OP_LOCKU:
		notify_call(c, &ci, &pe);
		if (pe.kind && !pending_add(c, &pe))
			dp_st.errors++;
		forward(c, true, p, len);
		break;
	case NFS4OP_DELEGRETURN:
		if (!memcmp(ci.stateid + 4, DLG_MAGIC, 4)) {
			delegreturn(c, &ci, p, len);
			break;
		}
		forward(c, true, p, len);
		break;
	default:
		forward(c, true, p, len);
		break;
	}
	dp_stats_changed();
}

/* ---- from the server ---- */

static bool grantable(struct dp_conn *c, const struct dp_pending *pe,
		      const struct dp_reply *ri)
{
	return pe->share_access == NFS4_SHARE_ACCESS_READ && ri->have_open &&
	       (ri->deleg_type == NFS4_OPEN_DELEGATE_NONE ||
		ri->deleg_type == NFS4_OPEN_DELEGATE_NONE_EXT) &&
	       c->have_cb && !deleg_by_fh(pe->fh, pe->fhlen) &&
	       !written_by_other(c->id, pe->fh, pe->fhlen);
}

/* 0 when the reply went out with a delegation in it. */
static int grant(struct dp_conn *c, const struct dp_pending *pe,
		 const struct dp_reply *ri, const uint8_t *p, size_t len)
{
	struct deleg *d = calloc(1, sizeof(*d));
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	uint64_t n = ++deleg_counter;
	uint8_t *out;
	size_t olen;
	int i;

	if (!d)
		return -1;
	memcpy(d->other, DLG_MAGIC, 4);
	for (i = 0; i < 8; i++)
		d->other[4 + i] = (uint8_t)(n >> (56 - 8 * i));
	if (dp_grant_read(p, len, ri, d->other, &out, &olen)) {
		free(d);
		return -1;
	}
	memcpy(d->fh, pe->fh, pe->fhlen);
	d->fhlen = pe->fhlen;
	d->holder = c->id;
	d->next = delegs;
	delegs = d;
	dp_st.granted++;
	dp_log("grant conn=%u fh=%s stateid=%s", c->id,
	       fh_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       other_hex(d->other, ob, sizeof(ob)));
	forward(c, false, out, olen);
	free(out);
	return 0;
}

static void returned(struct dp_conn *c, const struct dp_pending *pe,
		     const struct dp_reply *ri, const uint8_t *p, size_t len)
{
	struct deleg *d = deleg_by_other(pe->other);
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	uint8_t *out;
	size_t olen;

	if (ri->status != NFS4_OK) {
		/* The compound failed before our cut (SEQUENCE, PUTFH): the
		 * client sends the DELEGRETURN again. */
		dp_log("return-failed conn=%u stateid=%s status=%u", c->id,
		       other_hex(pe->other, ob, sizeof(ob)), ri->status);
		forward(c, false, p, len);
		return;
	}
	if (dp_append_ok(p, len, ri, NFS4OP_DELEGRETURN, &out, &olen)) {
		dp_log("error cannot add the DELEGRETURN result xid=0x%08x",
		       ri->xid);
		dp_st.errors++;
		forward(c, false, p, len);
		return;
	}
	forward(c, false, out, olen);
	free(out);
	if (!d) {
		/* Dropped meanwhile (its holder's connection closed). */
		dp_log("return conn=%u stateid=%s (already dropped)", c->id,
		       other_hex(pe->other, ob, sizeof(ob)));
		return;
	}
	dp_st.returned++;
	dp_log("return conn=%u fh=%s stateid=%s%s", c->id,
	       fh_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       other_hex(d->other, ob, sizeof(ob)),
	       d->recalling ? " recalled" : "");
	release(d->other, 0, "return");
	deleg_remove(d);
}

void deleg_from_server(struct dp_conn *c, const uint8_t *p, size_t len)
{
	struct dp_pending pe;
	struct dp_reply ri;
	uint32_t xid, type;
	char sb[2 * NFS4_SESSIONID_SIZE + 1];

	if (revoke_reply(c, p, len)) {
		dp_stats_changed();
		return;
	}
	if (dp_msg_head(p, len, &xid, &type) || type != 1 ||
	    !pending_take(c, xid, &pe)) {
		forward(c, false, p, len);
		return;
	}
	if (dp_parse_reply(p, len, &ri)) {
		if (pe.kind == PEND_RETURN) {
			dp_log("error unreadable reply to a cut DELEGRETURN "
			       "xid=0x%08x", xid);
			dp_st.errors++;
		}
		forward(c, false, p, len);
		dp_stats_changed();
		return;
	}
	switch (pe.kind) {
	case PEND_CREATE_SESSION:
		if (ri.have_session) {
			c->have_cb = true;
			c->cb_prog = pe.cb_prog;
			memcpy(c->sessionid, ri.sessionid, NFS4_SESSIONID_SIZE);
			c->cb_seq = 1;
			dp_log("session conn=%u cb_program=0x%x sessionid=%s",
			       c->id, c->cb_prog,
			       dp_hex(c->sessionid, NFS4_SESSIONID_SIZE, sb,
				      sizeof(sb)));
		}
		break;
	case PEND_OPEN_FH:
		if (ri.have_open &&
		    (pe.share_access & NFS4_SHARE_ACCESS_WRITE))
			wopen_add(c->id, ri.open_stateid, pe.fh, pe.fhlen);
		if (grantable(c, &pe, &ri) && grant(c, &pe, &ri, p, len) == 0)
			goto out;
		break;
	case PEND_OPEN_NAME_W:
		if (!ri.have_open || !ri.have_getfh)
			break;
		wopen_add(c->id, ri.open_stateid, ri.fh, ri.fhlen);
		if (conflict(c, false, p, len, xid, ri.fh, ri.fhlen,
			     "OPEN-by-name"))
			goto out;
		break;
	case PEND_RETURN:
		returned(c, &pe, &ri, p, len);
		goto out;
	case PEND_LOCK:
	case PEND_UNLOCK:
		notify_reply(c, &pe, &ri);
		break;
	default:
		break;
	}
	forward(c, false, p, len);
out:
	dp_stats_changed();
}

/* ---- timers and the end of a connection ---- */

uint64_t deleg_timers(uint64_t now)
{
	struct held *h;
	struct deleg *d;
	uint64_t next = 0;
	char ob[2 * NFS4_OTHER_SIZE + 1];
	bool any = false;

	for (h = helds; h; h = h->next)
		if (h->deadline <= now) {
			any = true;
			d = deleg_by_other(h->other);
			if (d && !d->revoked) {
				/* Conflicts pass from now on; a late
				 * DELEGRETURN is still answered. */
				d->revoked = true;
				dp_log("timeout stateid=%s holder=%u: no "
				       "DELEGRETURN after %u s",
				       other_hex(d->other, ob, sizeof(ob)),
				       d->holder, dp_recall_timeout_s);
			}
		}
	if (any) {
		release(NULL, now, "timeout");
		dp_stats_changed();
	}
	for (h = helds; h; h = h->next)
		if (!next || h->deadline < next)
			next = h->deadline;
	return next;
}

void deleg_conn_closed(struct dp_conn *c)
{
	struct deleg **pp = &delegs, *d;
	struct held **hp = &helds, *h;
	struct wopen **wp = &wopens, *w;
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];

	while ((d = *pp)) {
		if (d->holder != c->id) {
			pp = &d->next;
			continue;
		}
		dp_log("drop conn=%u fh=%s stateid=%s (connection closed)",
		       c->id, fh_hex(d->fh, d->fhlen, fb, sizeof(fb)),
		       other_hex(d->other, ob, sizeof(ob)));
		dp_st.dropped_on_close++;
		release(d->other, 0, "close");
		*pp = d->next;
		free(d);
	}
	while ((h = *hp)) {
		if (h->conn != c->id) {
			hp = &h->next;
			continue;
		}
		dp_log("discard conn=%u xid=0x%08x (connection closed)",
		       c->id, h->xid);
		*hp = h->next;
		free(h->msg);
		free(h);
	}
	while ((w = *wp)) {
		if (w->conn == c->id) {
			*wp = w->next;
			free(w);
		} else {
			wp = &w->next;
		}
	}
	free(c->pend);
	c->pend = NULL;
	c->npend = c->cappend = 0;
	notify_conn_closed(c);
	dp_stats_changed();
}

void deleg_free_all(void)
{
	struct deleg *d;
	struct held *h;
	struct wopen *w;

	while ((d = delegs)) {
		delegs = d->next;
		free(d);
	}
	while ((h = helds)) {
		helds = h->next;
		free(h->msg);
		free(h);
	}
	while ((w = wopens)) {
		wopens = w->next;
		free(w);
	}
	notify_free_all();
}
