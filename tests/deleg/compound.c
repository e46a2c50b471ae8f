/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few parts of NFSv4.1 COMPOUNDs the delegation proxy reads and
 * rewrites (RFC 8881 §18, §20).  Every read goes through the project's
 * bounds-checked cursor; a message that does not parse is reported as
 * such and the caller forwards it untouched.  Only the operations that
 * come before the one of interest in this client's compounds are walked
 * (SEQUENCE, PUTFH), so an operation this file does not know ends a walk
 * rather than failing it.
 */
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"
#include "rpc_msg.h"

#define AUTH_MAX 400u
#define ATTRLIST_MAX (1u << 20)
#define BITMAP_MAX 8u

static size_t off(const struct xdr_dec *d, const uint8_t *base)
{
	return (size_t)(d->p - base);
}

static int skip(struct xdr_dec *d, size_t n)
{
	return xdr_dec_inline(d, n) ? 0 : -1;
}

static int skip_opaque(struct xdr_dec *d, uint32_t max)
{
	const uint8_t *p;
	uint32_t n;

	return xdr_dec_opaque(d, max, &p, &n) ? -1 : 0;
}

/* opaque_auth: flavor, body<400> */
static int skip_auth(struct xdr_dec *d, uint32_t *flavor)
{
	return xdr_dec_u32(d, flavor) || skip_opaque(d, AUTH_MAX) ? -1 : 0;
}

/* bitmap4: uint32_t<> */
static int skip_bitmap(struct xdr_dec *d)
{
	uint32_t n;

	if (xdr_dec_u32(d, &n) || n > BITMAP_MAX)
		return -1;
	return skip(d, (size_t)n * 4);
}

/* fattr4: bitmap4 attrmask; opaque attr_vals<> */
static int skip_fattr(struct xdr_dec *d)
{
	return skip_bitmap(d) || skip_opaque(d, ATTRLIST_MAX) ? -1 : 0;
}

/* nfs_fh4: opaque<NFS4_FHSIZE> */
static int dec_fh(struct xdr_dec *d, uint8_t *fh, uint32_t *fhlen)
{
	const uint8_t *p;
	uint32_t n;

	if (xdr_dec_opaque(d, NFS4_FHSIZE, &p, &n))
		return -1;
	memcpy(fh, p, n);
	*fhlen = n;
	return 0;
}

/* channel_attrs4: six counters and ca_rdma_ird<1> */
static int skip_channel_attrs(struct xdr_dec *d)
{
	uint32_t n;

	if (skip(d, 6 * 4) || xdr_dec_u32(d, &n) || n > 1)
		return -1;
	return skip(d, (size_t)n * 4);
}

/* nfsace4: type, flag, access_mask, who<> */
static int skip_ace(struct xdr_dec *d)
{
	return skip(d, 3 * 4) || skip_opaque(d, NFS4_MAXSTR) ? -1 : 0;
}

/*
 * fattr4 (bitmap4 attrmask; opaque attr_vals<>): where its CHANGE and
 * SIZE values sit, as offsets from base (0: absent).  The values come in
 * the order of their bits, so only those before SIZE are walked, and all
 * of them have a fixed form: supported_attrs (0) a bitmap4, type (1) and
 * fh_expire_type (2) 4 bytes, change (3) 8.  What follows SIZE is not
 * read, but must lie inside the values.
 */
static int fattr_find(struct xdr_dec *d, const uint8_t *base,
		      size_t *change_at, size_t *size_at)
{
	const uint8_t *vals;
	uint32_t n, w, w0 = 0, vlen, i, bit;
	struct xdr_dec v;

	*change_at = *size_at = 0;
	if (xdr_dec_u32(d, &n) || n > BITMAP_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (xdr_dec_u32(d, &w))
			return -1;
		if (i == 0)
			w0 = w;
	}
	if (xdr_dec_opaque(d, ATTRLIST_MAX, &vals, &vlen))
		return -1;
	xdr_dec_init(&v, vals, vlen);
	for (bit = 0; bit <= NFS4_FATTR_SIZE; bit++) {
		if (!(w0 >> bit & 1u))
			continue;
		switch (bit) {
		case NFS4_FATTR_SUPPORTED_ATTRS:
			if (skip_bitmap(&v))
				return -1;
			break;
		case NFS4_FATTR_TYPE:
		case NFS4_FATTR_FH_EXPIRE_TYPE:
			if (skip(&v, 4))
				return -1;
			break;
		case NFS4_FATTR_CHANGE:
			*change_at = off(&v, base);
			if (skip(&v, 8))
				return -1;
			break;
		default: /* NFS4_FATTR_SIZE */
			*size_at = off(&v, base);
			if (skip(&v, 8))
				return -1;
			break;
		}
	}
	return 0;
}

/* ---- calls ---- */

/* The call header of an NFSv4 COMPOUND with AUTH_NONE or AUTH_SYS: a
 * flavor that wraps the body (RPCSEC_GSS integrity, privacy) is left
 * alone. */
static int dec_call_head(struct xdr_dec *d, uint32_t *xid)
{
	uint32_t type, rpcvers, prog, vers, proc, flavor, vflavor;

	if (xdr_dec_u32(d, xid) || xdr_dec_u32(d, &type) ||
	    xdr_dec_u32(d, &rpcvers) || xdr_dec_u32(d, &prog) ||
	    xdr_dec_u32(d, &vers) || xdr_dec_u32(d, &proc))
		return -1;
	if (type != RPC_CALL || rpcvers != RPC_VERSION ||
	    prog != NFS4_PROGRAM || vers != NFS4_VERSION ||
	    proc != NFS4_PROC_COMPOUND)
		return -1;
	if (skip_auth(d, &flavor) || skip_auth(d, &vflavor))
		return -1;
	return flavor == RPC_AUTH_NONE || flavor == RPC_AUTH_SYS ? 0 : -1;
}

/* CREATE_SESSION4args up to csa_cb_program. */
static int dec_create_session(struct xdr_dec *d, struct dp_call *ci)
{
	if (skip(d, 8 + 4 + 4) || skip_channel_attrs(d) ||
	    skip_channel_attrs(d))
		return -1;
	return xdr_dec_u32(d, &ci->cb_prog) ? -1 : 0;
}

/* OPEN4args up to the claim's type (what follows it is not needed). */
static int dec_open_args(struct xdr_dec *d, struct dp_call *ci)
{
	uint32_t opentype, mode;

	if (skip(d, 4) || xdr_dec_u32(d, &ci->share_access) || skip(d, 4))
		return -1;
	/* open_owner4: clientid, owner<> */
	if (skip(d, 8) || skip_opaque(d, NFS4_OPAQUE_LIMIT))
		return -1;
	if (xdr_dec_u32(d, &opentype))
		return -1;
	if (opentype == NFS4_OPEN_CREATE) {
		if (xdr_dec_u32(d, &mode))
			return -1;
		switch (mode) {
		case NFS4_CREATE_UNCHECKED:
		case NFS4_CREATE_GUARDED:
			if (skip_fattr(d))
				return -1;
			break;
		case NFS4_CREATE_EXCLUSIVE:
			if (skip(d, NFS4_VERIFIER_SIZE))
				return -1;
			break;
		case NFS4_CREATE_EXCLUSIVE4_1:
			if (skip(d, NFS4_VERIFIER_SIZE) || skip_fattr(d))
				return -1;
			break;
		default:
			return -1;
		}
	} else if (opentype != NFS4_OPEN_NOCREATE) {
		return -1;
	}
	return xdr_dec_u32(d, &ci->claim) ? -1 : 0;
}

/* LOCK4args: locktype, reclaim, offset, length, then locker4: a new
 * lock-owner (open_to_lock_owner4: open_seqid, open_stateid, lock_seqid,
 * lock_owner4) or an existing one (exist_lock_owner4: lock_stateid,
 * lock_seqid). */
static int dec_lock_args(struct xdr_dec *d, struct dp_call *ci)
{
	const uint8_t *sid, *o;
	uint32_t olen;
	bool reclaim;
	uint64_t v;

	if (xdr_dec_u32(d, &ci->locktype) || xdr_dec_bool(d, &reclaim) ||
	    xdr_dec_u64(d, &v) || xdr_dec_u64(d, &v) ||
	    xdr_dec_bool(d, &ci->new_lock_owner))
		return -1;
	if (!ci->new_lock_owner) {
		if (xdr_dec_opaque_fixed(d, 16, &sid) || skip(d, 4))
			return -1;
		memcpy(ci->stateid, sid, 16);
		return 0;
	}
	if (skip(d, 4 + 16 + 4) ||
	    xdr_dec_u64(d, &ci->lock_owner.clientid) ||
	    xdr_dec_opaque(d, NFS4_OPAQUE_LIMIT, &o, &olen))
		return -1;
	if (olen <= DP_OWNER_MAX) {
		memcpy(ci->lock_owner.owner, o, olen);
		ci->lock_owner.len = olen;
		ci->owner_fits = true;
	}
	return 0;
}

int dp_parse_call(const uint8_t *p, size_t len, struct dp_call *ci)
{
	struct xdr_dec d;
	uint32_t minor, op;
	const uint8_t *sid;

	memset(ci, 0, sizeof(*ci));
	xdr_dec_init(&d, p, len);
	if (dec_call_head(&d, &ci->xid) || skip_opaque(&d, NFS4_MAXTAG) ||
	    xdr_dec_u32(&d, &minor) || (minor != 1 && minor != 2))
		return -1;
	ci->nops_at = off(&d, p);
	if (xdr_dec_u32(&d, &ci->nops) || ci->nops > NFS4_MAXOPS)
		return -1;
	if (ci->nops == 0 || xdr_dec_u32(&d, &ci->first_op))
		return 0;
	if (ci->first_op == NFS4OP_CREATE_SESSION)
		return dec_create_session(&d, ci) ? -1 : 0;
	/* SEQUENCE4args: sessionid, sequenceid, slotid, highest, cachethis */
	if (ci->first_op != NFS4OP_SEQUENCE || ci->nops < 3 ||
	    skip(&d, NFS4_SESSIONID_SIZE + 16))
		return 0;
	if (xdr_dec_u32(&d, &op) || op != NFS4OP_PUTFH)
		return 0;
	if (dec_fh(&d, ci->fh, &ci->fhlen))
		return -1;
	ci->have_fh = true;
	ci->op_at = off(&d, p);
	ci->op_index = 2;
	if (xdr_dec_u32(&d, &ci->op))
		return -1;
	switch (ci->op) {
	case NFS4OP_OPEN:
		if (dec_open_args(&d, ci))
			return -1;
		break;
	case NFS4OP_CLOSE:
		/* CLOSE4args: seqid, open_stateid */
		if (skip(&d, 4))
			return -1;
		/* fall through */
	case NFS4OP_DELEGRETURN:
		if (xdr_dec_opaque_fixed(&d, 16, &sid))
			return -1;
		memcpy(ci->stateid, sid, 16);
		ci->op_last = ci->nops == 3 && xdr_dec_left(&d) == 0;
		break;
	case NFS4OP_LOCK:
		if (dec_lock_args(&d, ci))
			return -1;
		break;
	case NFS4OP_LOCKU:
		/* LOCKU4args: locktype, seqid, lock_stateid, offset, length */
		if (xdr_dec_u32(&d, &ci->locktype) || skip(&d, 4) ||
		    xdr_dec_opaque_fixed(&d, 16, &sid) || skip(&d, 16))
			return -1;
		memcpy(ci->stateid, sid, 16);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- replies ---- */

static int dec_reply_head(struct xdr_dec *d, uint32_t *xid)
{
	uint32_t type, stat, flavor, accept;

	if (xdr_dec_u32(d, xid) || xdr_dec_u32(d, &type) ||
	    xdr_dec_u32(d, &stat))
		return -1;
	if (type != RPC_REPLY || stat != MSG_ACCEPTED)
		return -1;
	if (skip_auth(d, &flavor) || xdr_dec_u32(d, &accept))
		return -1;
	return flavor == RPC_AUTH_NONE && accept == RPC_SUCCESS ? 0 : -1;
}

/* open_delegation4 */
static int skip_open_delegation(struct xdr_dec *d, uint32_t *type)
{
	uint32_t why, limitby;

	if (xdr_dec_u32(d, type))
		return -1;
	switch (*type) {
	case NFS4_OPEN_DELEGATE_NONE:
		return 0;
	case NFS4_OPEN_DELEGATE_READ:
		return skip(d, 16 + 4) || skip_ace(d) ? -1 : 0;
	case NFS4_OPEN_DELEGATE_WRITE:
		/* stateid, recall, nfs_space_limit4, permissions */
		if (skip(d, 16 + 4) || xdr_dec_u32(d, &limitby))
			return -1;
		if (limitby != NFS4_LIMIT_SIZE && limitby != NFS4_LIMIT_BLOCKS)
			return -1;
		return skip(d, 8) || skip_ace(d) ? -1 : 0;
	case NFS4_OPEN_DELEGATE_NONE_EXT:
		if (xdr_dec_u32(d, &why))
			return -1;
		if (why == NFS4_WND_CONTENTION || why == NFS4_WND_RESOURCE)
			return skip(d, 4);
		return 0;
	default:
		return -1;
	}
}

/* OPEN4resok */
static int dec_open_res(struct xdr_dec *d, const uint8_t *base,
			struct dp_reply *ri)
{
	const uint8_t *sid;

	if (xdr_dec_opaque_fixed(d, 16, &sid))
		return -1;
	memcpy(ri->open_stateid, sid, 16);
	/* change_info4 (atomic, before, after), rflags, attrset */
	if (skip(d, 4 + 8 + 8 + 4) || skip_bitmap(d))
		return -1;
	ri->deleg_at = off(d, base);
	if (skip_open_delegation(d, &ri->deleg_type))
		return -1;
	ri->deleg_end = off(d, base);
	ri->have_open = true;
	return 0;
}

int dp_parse_reply(const uint8_t *p, size_t len, struct dp_reply *ri)
{
	struct xdr_dec d;
	uint32_t i, op, st;
	const uint8_t *sid;

	memset(ri, 0, sizeof(*ri));
	xdr_dec_init(&d, p, len);
	if (dec_reply_head(&d, &ri->xid) || xdr_dec_u32(&d, &ri->status) ||
	    skip_opaque(&d, NFS4_MAXTAG))
		return -1;
	ri->nres_at = off(&d, p);
	if (xdr_dec_u32(&d, &ri->nres) || ri->nres > NFS4_MAXOPS)
		return -1;
	for (i = 0; i < ri->nres; i++) {
		if (xdr_dec_u32(&d, &op) || xdr_dec_u32(&d, &st))
			return -1;
		ri->last_op = op;
		ri->last_status = st;
		if (st != NFS4_OK)
			return 0;
		switch (op) {
		case NFS4OP_SEQUENCE:
			/* sessionid, sequenceid, slotid, highest, target,
			 * status_flags */
			if (skip(&d, NFS4_SESSIONID_SIZE + 20))
				return -1;
			break;
		case NFS4OP_PUTFH:
		case NFS4OP_PUTROOTFH:
		case NFS4OP_LOOKUP:
			break;
		case NFS4OP_OPEN:
			if (dec_open_res(&d, p, ri))
				return -1;
			break;
		case NFS4OP_GETFH:
			if (dec_fh(&d, ri->fh, &ri->fhlen))
				return -1;
			ri->have_getfh = true;
			ri->getfh_end = off(&d, p);
			break;
		case NFS4OP_GETATTR:
			if (!ri->have_getattr) {
				ri->getattr_at = off(&d, p);
				ri->have_getattr = true;
			}
			if (skip_fattr(&d))
				return -1;
			break;
		case NFS4OP_LOCK:
		case NFS4OP_LOCKU:
		case NFS4OP_CLOSE:
			/* LOCK4resok, LOCKU4res, CLOSE4res: a stateid */
			if (xdr_dec_opaque_fixed(&d, 16, &sid))
				return -1;
			memcpy(ri->stateid, sid, 16);
			ri->have_stateid = true;
			break;
		case NFS4OP_CREATE_SESSION:
			if (xdr_dec_opaque_fixed(&d, NFS4_SESSIONID_SIZE, &sid))
				return -1;
			memcpy(ri->sessionid, sid, NFS4_SESSIONID_SIZE);
			ri->have_session = true;
			return 0;
		default:
			return 0;
		}
	}
	return 0;
}

int dp_msg_head(const uint8_t *p, size_t len, uint32_t *xid, uint32_t *type)
{
	if (len < 8)
		return -1;
	*xid = xdr_get_u32(p);
	*type = xdr_get_u32(p + 4);
	return 0;
}

int64_t dp_cb_reply_status(const uint8_t *p, size_t len)
{
	struct xdr_dec d;
	uint32_t xid, status;

	xdr_dec_init(&d, p, len);
	if (dec_reply_head(&d, &xid) || xdr_dec_u32(&d, &status))
		return -1;
	return status;
}

/* ---- rewrites ---- */

/* p[0..at) + mid[0..midlen) + p[resume..len) into a new buffer. */
static int splice(const uint8_t *p, size_t len, size_t at, size_t resume,
		  const uint8_t *mid, size_t midlen, uint8_t **out,
		  size_t *outlen)
{
	size_t n;
	uint8_t *b;

	if (at > resume || resume > len)
		return -1;
	n = at + midlen + (len - resume);
	b = malloc(n ? n : 1);
	if (!b)
		return -1;
	memcpy(b, p, at);
	if (midlen)
		memcpy(b + at, mid, midlen);
	memcpy(b + at + midlen, p + resume, len - resume);
	*out = b;
	*outlen = n;
	return 0;
}

/* open_read_delegation4 {stateid, recall, permissions} or
 * open_write_delegation4 {stateid, recall, space_limit, permissions}:
 * the stateid given, recall false, no limit on the size, and an ACE
 * letting everyone read (the one the read grant has always sent). */
static int grant(const uint8_t *p, size_t len, const struct dp_reply *ri,
		 uint32_t type, const uint8_t other[NFS4_OTHER_SIZE],
		 uint8_t **out, size_t *outlen)
{
	static const char who[] = "EVERYONE@";
	uint8_t d[96];
	size_t n = 0, wl = sizeof(who) - 1;

	if (!ri->have_open)
		return -1;
	xdr_put_u32(d + n, type), n += 4;
	xdr_put_u32(d + n, 1), n += 4;
	memcpy(d + n, other, NFS4_OTHER_SIZE), n += NFS4_OTHER_SIZE;
	xdr_put_u32(d + n, 0), n += 4;
	if (type == NFS4_OPEN_DELEGATE_WRITE) {
		/* nfs_space_limit4: NFS_LIMIT_SIZE, filesize all ones */
		xdr_put_u32(d + n, NFS4_LIMIT_SIZE), n += 4;
		xdr_put_u32(d + n, UINT32_MAX), n += 4;
		xdr_put_u32(d + n, UINT32_MAX), n += 4;
	}
	xdr_put_u32(d + n, NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE), n += 4;
	xdr_put_u32(d + n, 0), n += 4;
	xdr_put_u32(d + n, NFS4_ACE_READ_DATA | NFS4_ACE_READ_ATTRIBUTES |
			   NFS4_ACE_READ_ACL | NFS4_ACE_EXECUTE |
			   NFS4_ACE_SYNCHRONIZE), n += 4;
	xdr_put_u32(d + n, (uint32_t)wl), n += 4;
	memset(d + n, 0, wl + xdr_pad(wl));
	memcpy(d + n, who, wl), n += wl + xdr_pad(wl);
	return splice(p, len, ri->deleg_at, ri->deleg_end, d, n, out, outlen);
}

int dp_grant_read(const uint8_t *p, size_t len, const struct dp_reply *ri,
		  const uint8_t other[NFS4_OTHER_SIZE], uint8_t **out,
		  size_t *outlen)
{
	return grant(p, len, ri, NFS4_OPEN_DELEGATE_READ, other, out, outlen);
}

int dp_grant_write(const uint8_t *p, size_t len, const struct dp_reply *ri,
		   const uint8_t other[NFS4_OTHER_SIZE], uint8_t **out,
		   size_t *outlen)
{
	return grant(p, len, ri, NFS4_OPEN_DELEGATE_WRITE, other, out,
		     outlen);
}

int dp_strip_last(const uint8_t *p, size_t len, const struct dp_call *ci,
		  uint8_t **out, size_t *outlen)
{
	if (!ci->op_last || ci->nops == 0 || ci->nops_at + 4 > ci->op_at)
		return -1;
	if (splice(p, len, ci->op_at, len, NULL, 0, out, outlen))
		return -1;
	xdr_put_u32(*out + ci->nops_at, ci->nops - 1);
	return 0;
}

int dp_append_ok(const uint8_t *p, size_t len, const struct dp_reply *ri,
		 uint32_t op, uint8_t **out, size_t *outlen)
{
	uint8_t r[8];

	if (ri->nres_at + 4 > len)
		return -1;
	xdr_put_u32(r, op);
	xdr_put_u32(r + 4, NFS4_OK);
	if (splice(p, len, len, len, r, sizeof(r), out, outlen))
		return -1;
	xdr_put_u32(*out + ri->nres_at, ri->nres + 1);
	return 0;
}

/* The RPC call header of a CB_COMPOUND of two operations, and its first:
 * CB_SEQUENCE on slot 0. */
static int cb_start(struct xdr_enc *e, uint32_t xid, uint32_t prog,
		    const uint8_t sessionid[NFS4_SESSIONID_SIZE], uint32_t seq)
{
	if (xdr_enc_init(e, 256, 0))
		return -1;
	/* RPC call header, AUTH_NONE credential and verifier */
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, RPC_CALL);
	xdr_enc_u32(e, RPC_VERSION);
	xdr_enc_u32(e, prog);
	xdr_enc_u32(e, 1);
	xdr_enc_u32(e, NFS4_CB_PROC_COMPOUND);
	xdr_enc_u32(e, RPC_AUTH_NONE);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, RPC_AUTH_NONE);
	xdr_enc_u32(e, 0);
	/* CB_COMPOUND4args: tag "", minorversion 1, callback_ident 0 */
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 1);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 2);
	/* CB_SEQUENCE4args, no referring calls */
	xdr_enc_u32(e, NFS4CBOP_SEQUENCE);
	xdr_enc_opaque_fixed(e, sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, seq);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 0);
	xdr_enc_bool(e, false);
	xdr_enc_u32(e, 0);
	return 0;
}

static int cb_finish(struct xdr_enc *e, uint8_t **out, size_t *outlen)
{
	if (xdr_enc_error(e)) {
		xdr_enc_release(e);
		return -1;
	}
	*out = e->buf;
	*outlen = e->len;
	return 0;
}

int dp_cb_recall(uint32_t xid, uint32_t prog,
		 const uint8_t sessionid[NFS4_SESSIONID_SIZE], uint32_t seq,
		 const uint8_t stateid[16], const uint8_t *fh, uint32_t fhlen,
		 uint8_t **out, size_t *outlen)
{
	struct xdr_enc e;

	if (cb_start(&e, xid, prog, sessionid, seq))
		return -1;
	/* CB_RECALL4args: stateid, truncate, fh */
	xdr_enc_u32(&e, NFS4CBOP_RECALL);
	xdr_enc_opaque_fixed(&e, stateid, 16);
	xdr_enc_bool(&e, false);
	xdr_enc_opaque(&e, NFS4_FHSIZE, fh, fhlen);
	return cb_finish(&e, out, outlen);
}

int dp_cb_notify_lock(uint32_t xid, uint32_t prog,
		      const uint8_t sessionid[NFS4_SESSIONID_SIZE],
		      uint32_t seq, const uint8_t *fh, uint32_t fhlen,
		      const struct dp_owner *owner, uint8_t **out,
		      size_t *outlen)
{
	struct xdr_enc e;

	if (owner->len > DP_OWNER_MAX ||
	    cb_start(&e, xid, prog, sessionid, seq))
		return -1;
	/* CB_NOTIFY_LOCK4args: fh, lock_owner4 (clientid, owner<>) */
	xdr_enc_u32(&e, NFS4CBOP_NOTIFY_LOCK);
	xdr_enc_opaque(&e, NFS4_FHSIZE, fh, fhlen);
	xdr_enc_u64(&e, owner->clientid);
	xdr_enc_opaque(&e, NFS4_OPAQUE_LIMIT, owner->owner, owner->len);
	return cb_finish(&e, out, outlen);
}

int dp_cb_getattr(uint32_t xid, uint32_t prog,
		  const uint8_t sessionid[NFS4_SESSIONID_SIZE], uint32_t seq,
		  const uint8_t *fh, uint32_t fhlen, uint8_t **out,
		  size_t *outlen)
{
	struct xdr_enc e;

	if (cb_start(&e, xid, prog, sessionid, seq))
		return -1;
	/* CB_GETATTR4args: fh, attr_request (one word: CHANGE, SIZE) */
	xdr_enc_u32(&e, NFS4CBOP_GETATTR);
	xdr_enc_opaque(&e, NFS4_FHSIZE, fh, fhlen);
	xdr_enc_u32(&e, 1);
	xdr_enc_u32(&e, 1u << NFS4_FATTR_CHANGE | 1u << NFS4_FATTR_SIZE);
	return cb_finish(&e, out, outlen);
}

/*
 * CB_COMPOUND4res {status, tag, resarray<>} of [CB_SEQUENCE, CB_GETATTR]:
 * CB_SEQUENCE4resok is sessionid, sequenceid, slotid, highest_slotid,
 * target_highest_slotid; CB_GETATTR4resok is a fattr4.  A result that
 * failed ends the array; the message must end with the last one.
 */
int dp_cb_getattr_reply(const uint8_t *p, size_t len, struct dp_cb_attrs *a)
{
	struct xdr_dec d;
	uint32_t xid, nres, op, st;
	size_t change_at, size_at;

	memset(a, 0, sizeof(*a));
	xdr_dec_init(&d, p, len);
	if (dec_reply_head(&d, &xid) || xdr_dec_u32(&d, &a->status) ||
	    skip_opaque(&d, NFS4_MAXTAG) || xdr_dec_u32(&d, &nres) ||
	    nres == 0 || nres > 2)
		return -1;
	if (xdr_dec_u32(&d, &op) || op != NFS4CBOP_SEQUENCE ||
	    xdr_dec_u32(&d, &st))
		return -1;
	if (st != NFS4_OK)
		return nres == 1 && xdr_dec_left(&d) == 0 ? 0 : -1;
	if (skip(&d, NFS4_SESSIONID_SIZE + 16))
		return -1;
	if (nres == 1)
		return xdr_dec_left(&d) == 0 ? 0 : -1;
	if (xdr_dec_u32(&d, &op) || op != NFS4CBOP_GETATTR ||
	    xdr_dec_u32(&d, &st))
		return -1;
	if (st != NFS4_OK)
		return xdr_dec_left(&d) == 0 ? 0 : -1;
	if (fattr_find(&d, p, &change_at, &size_at) || xdr_dec_left(&d) != 0)
		return -1;
	if (change_at) {
		a->have_change = true;
		a->change = xdr_get_u64(p + change_at);
	}
	if (size_at) {
		a->have_size = true;
		a->size = xdr_get_u64(p + size_at);
	}
	return 0;
}

int dp_patch_size(const uint8_t *p, size_t len, const struct dp_reply *ri,
		  uint64_t size, uint8_t **out, size_t *outlen)
{
	struct xdr_dec d;
	size_t change_at, size_at;
	uint8_t *b;

	if (!ri->have_getattr || ri->getattr_at > len)
		return -1;
	xdr_dec_init(&d, p + ri->getattr_at, len - ri->getattr_at);
	if (fattr_find(&d, p, &change_at, &size_at))
		return -1;
	if (!size_at)
		return 1;
	b = malloc(len);
	if (!b)
		return -1;
	memcpy(b, p, len);
	xdr_put_u32(b + size_at, (uint32_t)(size >> 32));
	xdr_put_u32(b + size_at + 4, (uint32_t)size);
	*out = b;
	*outlen = len;
	return 0;
}
