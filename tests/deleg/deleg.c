/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delegation rules of the proxy.
 *
 * Grant: a successful OPEN(CLAIM_FH) for reading only (share_access & 3
 * == READ: the 4.1 WANT bits are ignored) gets a read delegation in its
 * reply, with a stateid of our own ("DLGP" and a counter), when the
 * connection's session and callback program are known, the file has no
 * delegation yet, and no other connection has it open for writing.
 * With --write-delegations, one that includes WRITE and wants a write
 * delegation (WANT_WRITE_DELEG or WANT_ANY_DELEG) gets a write
 * delegation on the same terms, and only while no other connection has
 * the file open at all (opens.c).
 *
 * Recall: another connection's PUTFH(fh) followed by WRITE, SETATTR or
 * OPEN(CLAIM_FH) for writing is held, and the holder gets CB_RECALL on
 * its own connection (its backchannel); so are READ and an OPEN of any
 * access when the delegation is a write one.  An OPEN by name is seen in
 * its reply's GETFH, and that reply is held instead.  Held messages go on
 * when the holder's DELEGRETURN has been answered, or after the recall
 * timeout.  A connection never conflicts with itself.
 *
 * CB_GETATTR (RFC 8881 §10.4.3): another connection's PUTFH(fh) GETATTR
 * on a file with a write delegation is held, and the holder is asked for
 * CHANGE and SIZE; with its answer the GETATTR goes on, and the size in
 * the server's reply is replaced by the holder's, which counts the bytes
 * it has not written yet.  Unanswered within the recall timeout, the
 * GETATTR goes on unchanged.  While the delegation is being recalled a
 * GETATTR waits for its return instead.  A LOOKUP (PUTFH(dir) LOOKUP
 * GETFH GETATTR) whose reply names such a file is treated the same, its
 * reply held.
 *
 * Callbacks: one of ours at a time per connection (slot 0); a recall or
 * CB_GETATTR due while one is out waits for its answer, and goes before
 * any CB_NOTIFY_LOCK waiting too.
 *
 * DELEGRETURN of one of our stateids never reaches the server, which
 * knows nothing of it: the operation is cut off the compound (the last
 * one, after SEQUENCE PUTFH), and its NFS4_OK result added to the reply,
 * so the server's slot and sequence stay in step with the client's.
 *
 * With --revoke, a conflict revokes instead of recalling (revoke.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"
#include "deleg_int.h"
#include "revoke.h"

#define DLG_MAGIC "DLGP"
/* OPEN4_SHARE_ACCESS_WANT_*: the delegation an OPEN asks for. */
#define WANT_MASK 0xff00u

struct held {
	unsigned int conn;
	bool to_server;      /* a call of the client; else a reply to it */
	bool getattr;        /* a GETATTR waiting for CB_GETATTR's answer */
	uint8_t *msg;
	size_t len;
	uint32_t xid;
	uint8_t other[NFS4_OTHER_SIZE]; /* the delegation it waits for */
	uint64_t deadline;
	struct held *next;
};

struct deleg *delegs;
static struct held *helds;
static uint64_t deleg_counter;

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

struct deleg *deleg_by_other(const uint8_t *other)
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

static void forward(struct dp_conn *c, bool to_server, const uint8_t *p,
		    size_t len)
{
	dp_send(c, to_server ? &c->srv : &c->cli, p, len);
}

/* ---- held messages ---- */

/* Hold c's message until d is given back, or (getattr) its holder has
 * told its attributes; or until the timeout. */
static void hold(struct dp_conn *c, bool to_server, const uint8_t *p,
		 size_t len, uint32_t xid, struct deleg *d, bool getattr,
		 const char *what)
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
	h->getattr = getattr;
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
}

static void forward_patched(struct dp_conn *c, uint32_t xid, uint64_t size,
			    const struct dp_reply *ri, const uint8_t *p,
			    size_t len);

/* Send h on and free it; why names the event in the log.  With size, h
 * is a GETATTR whose reply gets that size: a call, whose reply is
 * patched when it comes, or a reply (of a LOOKUP) patched now. */
static void let_go(struct held *h, const char *why, const uint64_t *size)
{
	struct dp_conn *c = dp_conn_by_id(h->conn);
	struct dp_pending pe = { .xid = h->xid, .kind = PEND_GETATTR };
	struct dp_reply ri;

	dp_log("release conn=%u xid=0x%08x on=%s", h->conn, h->xid, why);
	if (!strcmp(why, "return"))
		dp_st.released_on_return++;
	else if (!strcmp(why, "timeout"))
		dp_st.released_on_timeout++;
	else if (!strcmp(why, "close"))
		dp_st.released_on_close++;
	else if (!strcmp(why, "cb-getattr-timeout"))
		dp_st.cb_getattr_timeouts++;
	if (c && !c->dead && size && !h->to_server) {
		if (dp_parse_reply(h->msg, h->len, &ri) == 0)
			forward_patched(c, h->xid, *size, &ri, h->msg, h->len);
		else
			forward(c, false, h->msg, h->len);
	} else if (c && !c->dead) {
		if (size) {
			pe.patch_size = true;
			pe.size = *size;
			if (!pending_add(c, &pe)) {
				dp_log("error out of memory: xid=0x%08x goes "
				       "on unpatched", h->xid);
				dp_st.errors++;
			}
		}
		forward(c, h->to_server, h->msg, h->len);
	}
	free(h->msg);
	free(h);
}

void release(const uint8_t *other, const char *why, bool getattr_only,
	     const uint64_t *size)
{
	struct held **pp = &helds, *h;

	while ((h = *pp)) {
		if (memcmp(h->other, other, NFS4_OTHER_SIZE) != 0 ||
		    (getattr_only && !h->getattr)) {
			pp = &h->next;
			continue;
		}
		*pp = h->next;
		let_go(h, why, h->getattr ? size : NULL);
	}
}

/* Does op of another connection (OPEN: with share access acc) conflict
 * with d? */
static bool conflicts(const struct deleg *d, uint32_t op, uint32_t acc)
{
	switch (op) {
	case NFS4OP_WRITE:
	case NFS4OP_SETATTR:
		return true;
	case NFS4OP_OPEN:
		return d->type == NFS4_OPEN_DELEGATE_WRITE ||
		       (acc & NFS4_SHARE_ACCESS_WRITE);
	case NFS4OP_READ:
		return d->type == NFS4_OPEN_DELEGATE_WRITE;
	default:
		return false;
	}
}

/* A use of fh by c: 1 when it conflicts and the message was held. */
static int conflict(struct dp_conn *c, bool to_server, const uint8_t *p,
		    size_t len, uint32_t xid, const uint8_t *fh,
		    uint32_t fhlen, uint32_t op, uint32_t acc,
		    const char *what)
{
	struct deleg *d = deleg_by_fh(fh, fhlen);

	if (!d || d->holder == c->id || d->revoked || !conflicts(d, op, acc))
		return 0;
	if (revoke_conflict(d->holder, d->other, d->fh, d->fhlen, c->id,
			    what)) {
		deleg_remove(d);
		return 0;
	}
	hold(c, to_server, p, len, xid, d, false, what);
	recall(d);
	return 1;
}

/* A GETATTR of c on a file another connection may be writing under a
 * write delegation: true when held. */
static bool getattr_held(struct dp_conn *c, const struct dp_call *ci,
			 const uint8_t *p, size_t len)
{
	struct deleg *d = deleg_by_fh(ci->fh, ci->fhlen);

	if (!d || d->type != NFS4_OPEN_DELEGATE_WRITE ||
	    d->holder == c->id || d->revoked)
		return false;
	if (d->recalling) {
		/* The holder is writing back: its return tells the truth. */
		hold(c, true, p, len, ci->xid, d, false, "GETATTR");
		return true;
	}
	hold(c, true, p, len, ci->xid, d, true, "GETATTR");
	cb_getattr(d);
	return true;
}

/* ---- from the client ---- */

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

/* OPEN: noted for its reply, held when it conflicts. */
static void open_call(struct dp_conn *c, const struct dp_call *ci,
		      const uint8_t *p, size_t len)
{
	struct dp_pending pe = { .xid = ci->xid };
	uint32_t acc = ci->share_access & NFS4_SHARE_ACCESS_BOTH;

	pe.share_access = ci->share_access;
	if (ci->claim == NFS4_CLAIM_FH) {
		pe.kind = PEND_OPEN_FH;
		memcpy(pe.fh, ci->fh, ci->fhlen);
		pe.fhlen = ci->fhlen;
	} else if (ci->claim == NFS4_CLAIM_NULL) {
		pe.kind = PEND_OPEN_NAME;
	}
	if (pe.kind && !pending_add(c, &pe))
		dp_st.errors++;
	if (ci->claim == NFS4_CLAIM_FH &&
	    conflict(c, true, p, len, ci->xid, ci->fh, ci->fhlen, NFS4OP_OPEN,
		     acc, "OPEN"))
		return;
	forward(c, true, p, len);
}

void deleg_from_client(struct dp_conn *c, const uint8_t *p, size_t len)
{
	struct dp_pending pe = { 0 };
	struct dp_call ci;
	uint32_t xid, type;

	if (dp_msg_head(p, len, &xid, &type) == 0 && type == 1) {
		cb_client_reply(c, xid, p, len);
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
	switch (ci.op) {
	case NFS4OP_OPEN:
		open_call(c, &ci, p, len);
		break;
	case NFS4OP_READ:
	case NFS4OP_WRITE:
	case NFS4OP_SETATTR:
		if (!conflict(c, true, p, len, ci.xid, ci.fh, ci.fhlen, ci.op,
			      0, ci.op == NFS4OP_READ ? "READ" :
				 ci.op == NFS4OP_WRITE ? "WRITE" : "SETATTR"))
			forward(c, true, p, len);
		break;
	case NFS4OP_GETATTR:
		if (!getattr_held(c, &ci, p, len))
			forward(c, true, p, len);
		break;
	case NFS4OP_LOOKUP:
		pe.kind = PEND_LOOKUP;
		if (!pending_add(c, &pe))
			dp_st.errors++;
		forward(c, true, p, len);
		break;
	case NFS4OP_CLOSE:
		opens_close(c->id, ci.stateid);
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

/* The delegation an OPEN(CLAIM_FH) that succeeded may get: 0 for none. */
static uint32_t grantable(struct dp_conn *c, const struct dp_pending *pe,
			  const struct dp_reply *ri)
{
	uint32_t acc = pe->share_access & NFS4_SHARE_ACCESS_BOTH;
	uint32_t want = pe->share_access & WANT_MASK;

	if (!ri->have_open ||
	    (ri->deleg_type != NFS4_OPEN_DELEGATE_NONE &&
	     ri->deleg_type != NFS4_OPEN_DELEGATE_NONE_EXT) ||
	    !c->have_cb || deleg_by_fh(pe->fh, pe->fhlen))
		return 0;
	if (acc == NFS4_SHARE_ACCESS_READ)
		return opens_other(c->id, pe->fh, pe->fhlen, true) ? 0 :
		       NFS4_OPEN_DELEGATE_READ;
	if (dp_grant_writes && (acc & NFS4_SHARE_ACCESS_WRITE) &&
	    (want == NFS4_SHARE_WANT_WRITE_DELEG ||
	     want == NFS4_SHARE_WANT_ANY_DELEG) &&
	    !opens_other(c->id, pe->fh, pe->fhlen, false))
		return NFS4_OPEN_DELEGATE_WRITE;
	return 0;
}

/* 0 when the reply went out with a delegation of type in it. */
static int grant(struct dp_conn *c, const struct dp_pending *pe,
		 const struct dp_reply *ri, uint32_t type, const uint8_t *p,
		 size_t len)
{
	struct deleg *d = calloc(1, sizeof(*d));
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	uint64_t n = ++deleg_counter;
	bool write = type == NFS4_OPEN_DELEGATE_WRITE;
	uint8_t *out;
	size_t olen;
	int i;

	if (!d)
		return -1;
	memcpy(d->other, DLG_MAGIC, 4);
	for (i = 0; i < 8; i++)
		d->other[4 + i] = (uint8_t)(n >> (56 - 8 * i));
	if ((write ? dp_grant_write : dp_grant_read)(p, len, ri, d->other,
						     &out, &olen)) {
		free(d);
		return -1;
	}
	d->type = type;
	memcpy(d->fh, pe->fh, pe->fhlen);
	d->fhlen = pe->fhlen;
	d->holder = c->id;
	d->next = delegs;
	delegs = d;
	dp_st.granted++;
	if (write)
		dp_st.granted_write++;
	/* The stateid last: tests read it to the end of the line. */
	dp_log("grant conn=%u type=%s fh=%s stateid=%s", c->id,
	       write ? "write" : "read",
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
	dp_log("return conn=%u type=%s fh=%s stateid=%s%s", c->id,
	       d->type == NFS4_OPEN_DELEGATE_WRITE ? "write" : "read",
	       fh_hex(d->fh, d->fhlen, fb, sizeof(fb)),
	       other_hex(d->other, ob, sizeof(ob)),
	       d->recalling ? " recalled" : "");
	release(d->other, "return", false, NULL);
	deleg_remove(d);
}

/* A reply with a GETATTR result, sent on with size put in it. */
static void forward_patched(struct dp_conn *c, uint32_t xid, uint64_t size,
			    const struct dp_reply *ri, const uint8_t *p,
			    size_t len)
{
	uint8_t *out;
	size_t olen;
	int r;

	r = ri->have_getattr ? dp_patch_size(p, len, ri, size, &out, &olen) :
			       1;
	if (r) {
		dp_log("%s conn=%u xid=0x%08x: GETATTR result left unpatched",
		       r < 0 ? "error malformed fattr4" : "no size", c->id,
		       xid);
		if (r < 0)
			dp_st.errors++;
		forward(c, false, p, len);
		return;
	}
	dp_log("patch conn=%u xid=0x%08x size=%llu", c->id, xid,
	       (unsigned long long)size);
	forward(c, false, out, olen);
	free(out);
}

/* The server's reply to a GETATTR held for CB_GETATTR. */
static void patched(struct dp_conn *c, const struct dp_pending *pe,
		    const struct dp_reply *ri, const uint8_t *p, size_t len)
{
	if (!pe->patch_size) {
		forward(c, false, p, len);
		return;
	}
	forward_patched(c, pe->xid, pe->size, ri, p, len);
}

/* A LOOKUP's reply with the file's handle and attributes: held like a
 * GETATTR of that file (a real server asks the holder of a write
 * delegation whatever compound the GETATTR comes in). */
static void lookup_reply(struct dp_conn *c, const struct dp_reply *ri,
			 const uint8_t *p, size_t len)
{
	struct deleg *d;

	if (!ri->have_getfh || !ri->have_getattr ||
	    ri->getattr_at < ri->getfh_end)
		goto out;
	d = deleg_by_fh(ri->fh, ri->fhlen);
	if (!d || d->type != NFS4_OPEN_DELEGATE_WRITE ||
	    d->holder == c->id || d->revoked)
		goto out;
	if (d->recalling) {
		hold(c, false, p, len, ri->xid, d, false, "LOOKUP");
		return;
	}
	hold(c, false, p, len, ri->xid, d, true, "LOOKUP");
	cb_getattr(d);
	return;
out:
	forward(c, false, p, len);
}

static void open_fh_reply(struct dp_conn *c, const struct dp_pending *pe,
			  const struct dp_reply *ri, const uint8_t *p,
			  size_t len)
{
	uint32_t type;

	if (ri->have_open)
		opens_add(c->id, ri->open_stateid, pe->fh, pe->fhlen,
			  pe->share_access & NFS4_SHARE_ACCESS_BOTH);
	type = grantable(c, pe, ri);
	if (type && grant(c, pe, ri, type, p, len) == 0)
		return;
	forward(c, false, p, len);
}

static void open_name_reply(struct dp_conn *c, const struct dp_pending *pe,
			    const struct dp_reply *ri, const uint8_t *p,
			    size_t len)
{
	uint32_t acc = pe->share_access & NFS4_SHARE_ACCESS_BOTH;

	if (ri->have_open && ri->have_getfh) {
		opens_add(c->id, ri->open_stateid, ri->fh, ri->fhlen, acc);
		if (conflict(c, false, p, len, ri->xid, ri->fh, ri->fhlen,
			     NFS4OP_OPEN, acc, "OPEN-by-name"))
			return;
	}
	forward(c, false, p, len);
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
		if (pe.kind == PEND_RETURN || pe.kind == PEND_GETATTR) {
			dp_log("error unreadable reply to %s xid=0x%08x",
			       pe.kind == PEND_RETURN ? "a cut DELEGRETURN" :
							"a held GETATTR", xid);
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
		forward(c, false, p, len);
		break;
	case PEND_OPEN_FH:
		open_fh_reply(c, &pe, &ri, p, len);
		break;
	case PEND_OPEN_NAME:
		open_name_reply(c, &pe, &ri, p, len);
		break;
	case PEND_RETURN:
		returned(c, &pe, &ri, p, len);
		break;
	case PEND_GETATTR:
		patched(c, &pe, &ri, p, len);
		break;
	case PEND_LOOKUP:
		lookup_reply(c, &ri, p, len);
		break;
	case PEND_LOCK:
	case PEND_UNLOCK:
		notify_reply(c, &pe, &ri);
		forward(c, false, p, len);
		break;
	default:
		forward(c, false, p, len);
		break;
	}
	dp_stats_changed();
}

/* ---- timers and the end of a connection ---- */

uint64_t deleg_timers(uint64_t now)
{
	struct held **pp = &helds, *h;
	struct deleg *d;
	uint64_t next = 0;
	char ob[2 * NFS4_OTHER_SIZE + 1];
	bool any = false;

	while ((h = *pp)) {
		if (h->deadline > now) {
			pp = &h->next;
			continue;
		}
		any = true;
		*pp = h->next;
		d = deleg_by_other(h->other);
		if (h->getattr) {
			/* Unanswered: the server's attributes will do. */
			let_go(h, "cb-getattr-timeout", NULL);
			continue;
		}
		if (d && !d->revoked) {
			/* Conflicts pass from now on; a late DELEGRETURN is
			 * still answered. */
			d->revoked = true;
			dp_log("timeout stateid=%s holder=%u: no DELEGRETURN "
			       "after %u s",
			       other_hex(d->other, ob, sizeof(ob)), d->holder,
			       dp_recall_timeout_s);
		}
		let_go(h, "timeout", NULL);
	}
	if (any)
		dp_stats_changed();
	for (h = helds; h; h = h->next)
		if (!next || h->deadline < next)
			next = h->deadline;
	return next;
}

void deleg_conn_closed(struct dp_conn *c)
{
	struct deleg **pp = &delegs, *d;
	struct held **hp = &helds, *h;
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
		release(d->other, "close", false, NULL);
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
	opens_conn_closed(c->id);
	free(c->pend);
	c->pend = NULL;
	c->npend = c->cappend = 0;
	c->cb_xid = 0;
	notify_conn_closed(c);
	dp_stats_changed();
}

void deleg_free_all(void)
{
	struct deleg *d;
	struct held *h;

	while ((d = delegs)) {
		delegs = d->next;
		free(d);
	}
	while ((h = helds)) {
		helds = h->next;
		free(h->msg);
		free(h);
	}
	opens_free_all();
	notify_free_all();
}
