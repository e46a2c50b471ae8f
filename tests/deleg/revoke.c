/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --revoke: the proxy revokes delegations instead of recalling them, as a
 * server does with a holder it gave up waiting for (RFC 8881 §10.2.1).
 *
 * Revoke: a conflict deleg.c would recall (another connection's WRITE,
 * SETATTR or open for writing) sends no CB_RECALL; the delegation moves
 * here, revoked, and the conflicting message goes on at once.
 *
 * Tell: while a connection has revoked delegations not yet freed, every
 * SEQUENCE result sent to it carries SEQ4_STATUS_RECALLABLE_STATE_REVOKED
 * (§18.46.3), which does not say which ones.
 *
 * Let go: the holder's DELEGRETURN of a revoked stateid is cut off its
 * compound (the server never knew that stateid) and answered
 * NFS4ERR_DELEG_REVOKED; the delegation stays revoked.  Its FREE_STATEID
 * of one, last in SEQUENCE PUTFH FREE_STATEID, is cut off the same way
 * and answered NFS4_OK: the delegation is forgotten, and with the last
 * one the flag goes.  Cut calls keep the server's slot and sequence in
 * step with the client's, as deleg.c's cut DELEGRETURN does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "revoke.h"
#include "rpc_msg.h"

/* The prefix of the proxy's stateids (deleg.c makes them). */
#define DLG_MAGIC "DLGP"

bool revoke_enabled;

struct revoked {
	unsigned int conn;   /* the holder */
	uint8_t other[NFS4_OTHER_SIZE];
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	struct revoked *next;
};

/* A call of the holder cut here, until the server's reply. */
struct cut {
	unsigned int conn;
	uint32_t xid;
	uint32_t op;         /* DELEGRETURN or FREE_STATEID */
	uint8_t other[NFS4_OTHER_SIZE];
	struct cut *next;
};

static struct revoked *revokeds;
static struct cut *cuts;
static struct {
	uint64_t revoked, flagged_replies, revoked_returns, freed;
} rst;

static struct revoked *find(unsigned int conn, const uint8_t *other)
{
	struct revoked *r;

	for (r = revokeds; r; r = r->next)
		if (r->conn == conn &&
		    !memcmp(r->other, other, NFS4_OTHER_SIZE))
			return r;
	return NULL;
}

static bool any_revoked(unsigned int conn)
{
	struct revoked *r;

	for (r = revokeds; r; r = r->next)
		if (r->conn == conn)
			return true;
	return false;
}

static const char *other_hex(const uint8_t *o, char *b, size_t bl)
{
	return dp_hex(o, NFS4_OTHER_SIZE, b, bl);
}

bool revoke_conflict(unsigned int holder, const uint8_t *other,
		     const uint8_t *fh, uint32_t fhlen, unsigned int by,
		     const char *what)
{
	char fb[2 * NFS4_FHSIZE + 1], ob[2 * NFS4_OTHER_SIZE + 1];
	struct revoked *r;

	if (!revoke_enabled)
		return false;
	r = calloc(1, sizeof(*r));
	if (!r) {
		dp_log("error out of memory revoking: recalled instead");
		dp_st.errors++;
		return false;
	}
	r->conn = holder;
	memcpy(r->other, other, NFS4_OTHER_SIZE);
	memcpy(r->fh, fh, fhlen);
	r->fhlen = fhlen;
	r->next = revokeds;
	revokeds = r;
	rst.revoked++;
	dp_log("revoke conn=%u fh=%s stateid=%s for=%s by=%u", holder,
	       dp_hex(fh, fhlen, fb, sizeof(fb)),
	       other_hex(other, ob, sizeof(ob)), what, by);
	dp_stats_changed();
	return true;
}

/* The call without its last operation to the server; the reply is
 * answered in revoke_reply(). */
static void cut(struct dp_conn *c, const struct dp_call *ci,
		const uint8_t *p, size_t len, const uint8_t *other)
{
	struct dp_call last = *ci;
	struct cut *k = calloc(1, sizeof(*k));
	uint8_t *out;
	size_t olen;

	last.op_last = true;
	if (!k || dp_strip_last(p, len, &last, &out, &olen)) {
		free(k);
		dp_log("error cannot cut op=%u xid=0x%08x: forwarded", ci->op,
		       ci->xid);
		dp_st.errors++;
		dp_send(c, &c->srv, p, len);
		return;
	}
	k->conn = c->id;
	k->xid = ci->xid;
	k->op = ci->op;
	memcpy(k->other, other, NFS4_OTHER_SIZE);
	k->next = cuts;
	cuts = k;
	dp_send(c, &c->srv, out, olen);
	free(out);
}

bool revoke_call(struct dp_conn *c, const struct dp_call *ci,
		 const uint8_t *p, size_t len)
{
	char ob[2 * NFS4_OTHER_SIZE + 1];
	uint8_t sid[16];

	if (!revoke_enabled || !ci->have_fh)
		return false;
	if (ci->op == NFS4OP_DELEGRETURN) {
		if (!find(c->id, ci->stateid + 4))
			return false;
		if (!ci->op_last) {
			dp_log("error DELEGRETURN conn=%u stateid=%s not last "
			       "in its compound: forwarded", c->id,
			       other_hex(ci->stateid + 4, ob, sizeof(ob)));
			dp_st.errors++;
			dp_send(c, &c->srv, p, len);
			return true;
		}
		cut(c, ci, p, len, ci->stateid + 4);
		return true;
	}
	if (ci->op != NFS4OP_FREE_STATEID ||
	    dp_free_stateid_arg(p, len, ci, sid) ||
	    memcmp(sid + 4, DLG_MAGIC, 4))
		return false;
	if (!find(c->id, sid + 4)) {
		/* The server answers NFS4ERR_BAD_STATEID: it is not its. */
		dp_log("error FREE_STATEID conn=%u stateid=%s of no delegation "
		       "revoked from it: forwarded", c->id,
		       other_hex(sid + 4, ob, sizeof(ob)));
		dp_st.errors++;
		return false;
	}
	cut(c, ci, p, len, sid + 4);
	return true;
}

static struct cut *cut_take(unsigned int conn, uint32_t xid)
{
	struct cut **pp, *k;

	for (pp = &cuts; (k = *pp); pp = &k->next)
		if (k->conn == conn && k->xid == xid) {
			*pp = k->next;
			return k;
		}
	return NULL;
}

static void forget(struct revoked *x)
{
	struct revoked **pp;

	for (pp = &revokeds; *pp; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			free(x);
			return;
		}
}

bool revoke_reply(struct dp_conn *c, const uint8_t *p, size_t len)
{
	char ob[2 * NFS4_OTHER_SIZE + 1];
	struct dp_reply ri;
	struct revoked *r;
	uint32_t xid, type, status;
	struct cut *k;
	uint8_t *out;
	size_t olen;

	if (dp_msg_head(p, len, &xid, &type) || type != RPC_REPLY ||
	    !(k = cut_take(c->id, xid)))
		return false;
	other_hex(k->other, ob, sizeof(ob));
	if (dp_parse_reply(p, len, &ri) || ri.status != NFS4_OK) {
		/* SEQUENCE or PUTFH failed before the cut: the client
		 * sends the call again. */
		dp_log("revoke-cut-failed conn=%u op=%u stateid=%s", c->id,
		       k->op, ob);
		dp_send(c, &c->cli, p, len);
		free(k);
		return true;
	}
	status = NFS4_OK;
	r = find(c->id, k->other);
	if (k->op == NFS4OP_DELEGRETURN) {
		status = NFS4ERR_DELEG_REVOKED;
		rst.revoked_returns++;
		dp_log("revoked-return conn=%u stateid=%s", c->id, ob);
	} else {
		/* Forgotten before the reply goes: no flag on it. */
		if (r) {
			forget(r);
			rst.freed++;
		}
		dp_log("free conn=%u stateid=%s%s", c->id, ob,
		       r ? "" : " (freed already)");
	}
	if (dp_append_result(p, len, k->op, status, &out, &olen)) {
		dp_log("error cannot add the result of op=%u xid=0x%08x",
		       k->op, xid);
		dp_st.errors++;
		dp_send(c, &c->cli, p, len);
	} else {
		dp_send(c, &c->cli, out, olen);
		free(out);
	}
	free(k);
	return true;
}

void revoke_outgoing(struct dp_conn *c, uint8_t *p, size_t len)
{
	size_t at;

	if (!revokeds || !any_revoked(c->id) ||
	    dp_seq_flags_at(p, len, &at))
		return;
	xdr_put_u32(p + at, xdr_get_u32(p + at) |
		    NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED);
	rst.flagged_replies++;
	dp_stats_changed();
}

void revoke_conn_closed(struct dp_conn *c)
{
	struct revoked **rp = &revokeds, *r;
	struct cut **kp = &cuts, *k;
	char ob[2 * NFS4_OTHER_SIZE + 1];

	while ((r = *rp)) {
		if (r->conn != c->id) {
			rp = &r->next;
			continue;
		}
		dp_log("drop-revoked conn=%u stateid=%s (connection closed)",
		       c->id, other_hex(r->other, ob, sizeof(ob)));
		*rp = r->next;
		free(r);
	}
	while ((k = *kp)) {
		if (k->conn == c->id) {
			*kp = k->next;
			free(k);
		} else {
			kp = &k->next;
		}
	}
}

void revoke_free_all(void)
{
	struct revoked *r;
	struct cut *k;

	while ((r = revokeds)) {
		revokeds = r->next;
		free(r);
	}
	while ((k = cuts)) {
		cuts = k->next;
		free(k);
	}
}

void revoke_stats_text(char *b, size_t bl, const char *sep)
{
	size_t n = strnlen(b, bl);

	if (n >= bl)
		return;
	snprintf(b + n, bl - n,
		 "revoked %llu%sflagged_replies %llu%srevoked_returns %llu%s"
		 "freed %llu%s",
		 (unsigned long long)rst.revoked, sep,
		 (unsigned long long)rst.flagged_replies, sep,
		 (unsigned long long)rst.revoked_returns, sep,
		 (unsigned long long)rst.freed, sep);
}
