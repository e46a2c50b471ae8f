/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ONC RPC version 2 message headers (RFC 5531 §9) and the AUTH_NONE and
 * AUTH_SYS flavors (RFC 5531 appendix A).
 */
#include "rpc_msg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * struct authsys_parms {
 *     unsigned int stamp;
 *     string machinename<255>;
 *     unsigned int uid;
 *     unsigned int gid;
 *     unsigned int gids<16>;
 * };
 */
static int enc_authsys_parms(struct xdr_enc *e, const struct rpc_cred *cred)
{
	const char *name = cred->machinename ? cred->machinename : "";
	size_t namelen = strlen(name);
	uint32_t ngids = cred->ngids;
	size_t body;

	if (namelen > RPC_AUTH_SYS_MAXNAME) {
		if (!e->err)
			e->err = -EINVAL;
		return e->err;
	}
	if (ngids > RPC_AUTH_SYS_MAXGIDS)
		ngids = RPC_AUTH_SYS_MAXGIDS;
	body = 4 + 4 + namelen + xdr_pad(namelen) + 4 + 4 + 4 + 4 * ngids;
	/* At most 4+4+256+12+64 = 340 bytes: always within the 400 limit. */
	xdr_enc_u32(e, RPC_AUTH_SYS);
	xdr_enc_u32(e, (uint32_t)body);
	xdr_enc_u32(e, cred->stamp);
	xdr_enc_opaque(e, RPC_AUTH_SYS_MAXNAME, name, namelen);
	xdr_enc_u32(e, cred->uid);
	xdr_enc_u32(e, cred->gid);
	xdr_enc_u32(e, ngids);
	for (uint32_t i = 0; i < ngids; i++)
		xdr_enc_u32(e, cred->gids[i]);
	return e->err;
}

/*
 * struct call_body {
 *     unsigned int rpcvers;       // must be equal to two (2)
 *     unsigned int prog;
 *     unsigned int vers;
 *     unsigned int proc;
 *     opaque_auth  cred;
 *     opaque_auth  verf;
 * };
 * struct opaque_auth { auth_flavor flavor; opaque body<400>; };
 */
int rpcmsg_enc_call(struct xdr_enc *e, uint32_t xid, uint32_t prog,
		    uint32_t vers, uint32_t proc, const struct rpc_cred *cred)
{
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, RPC_CALL);
	xdr_enc_u32(e, RPC_VERSION);
	xdr_enc_u32(e, prog);
	xdr_enc_u32(e, vers);
	xdr_enc_u32(e, proc);
	if (!cred || cred->flavor == RPC_AUTH_NONE) {
		xdr_enc_u32(e, RPC_AUTH_NONE);
		xdr_enc_u32(e, 0);
	} else if (cred->flavor == RPC_AUTH_SYS) {
		enc_authsys_parms(e, cred);
	} else if (!e->err) {
		e->err = -EINVAL;
	}
	/* verifier: AUTH_NONE */
	xdr_enc_u32(e, RPC_AUTH_NONE);
	xdr_enc_u32(e, 0);
	return e->err;
}

int rpcmsg_dec_xid(const uint8_t *buf, size_t len, uint32_t *xid)
{
	if (len < 4)
		return -EBADMSG;
	*xid = xdr_get_u32(buf);
	return 0;
}

/* An opaque_auth whose body is skipped (a verifier, or a credential we do
 * not decode).  A body over 400 bytes is malformed. */
static int dec_opaque_auth(struct xdr_dec *d, uint32_t *flavor,
			   const uint8_t **body, uint32_t *len)
{
	int ret = xdr_dec_u32(d, flavor);

	if (ret)
		return ret;
	return xdr_dec_opaque(d, RPC_AUTH_MAXBODY, body, len);
}

/*
 * struct rpc_msg { unsigned int xid; union switch (msg_type mtype) {
 *     case CALL: call_body cbody; case REPLY: reply_body rbody; } body; };
 *
 * union reply_body switch (reply_stat stat) {
 *     case MSG_ACCEPTED: accepted_reply areply;
 *     case MSG_DENIED:   rejected_reply rreply;
 * } reply;
 *
 * struct accepted_reply {
 *     opaque_auth verf;
 *     union switch (accept_stat stat) {
 *         case SUCCESS: opaque results[0];
 *         case PROG_MISMATCH: struct { unsigned int low;
 *                                      unsigned int high; } mismatch_info;
 *         default: void;
 *     } reply_data;
 * };
 *
 * union rejected_reply switch (reject_stat stat) {
 *     case RPC_MISMATCH: struct { unsigned int low;
 *                                 unsigned int high; } mismatch_info;
 *     case AUTH_ERROR: auth_stat stat;
 * };
 */
static int dec_accepted_reply(struct xdr_dec *d, struct rpc_reply_hdr *h)
{
	const uint8_t *body;
	uint32_t len;
	int ret;

	ret = dec_opaque_auth(d, &h->verf_flavor, &body, &len);
	if (ret)
		return ret;
	ret = xdr_dec_u32(d, &h->accept_stat);
	if (ret)
		return ret;
	if (h->accept_stat == RPC_PROG_MISMATCH) {
		ret = xdr_dec_u32(d, &h->mismatch_low);
		if (ret == 0)
			ret = xdr_dec_u32(d, &h->mismatch_high);
	}
	/* default: void -- an accept_stat we do not know is still well
	 * formed; rpcmsg_reply_errno() maps it to -EIO. */
	return ret;
}

static int dec_rejected_reply(struct xdr_dec *d, struct rpc_reply_hdr *h)
{
	int ret = xdr_dec_u32(d, &h->reject_stat);

	if (ret)
		return ret;
	switch (h->reject_stat) {
	case RPC_MISMATCH:
		ret = xdr_dec_u32(d, &h->mismatch_low);
		if (ret == 0)
			ret = xdr_dec_u32(d, &h->mismatch_high);
		return ret;
	case RPC_AUTH_ERROR:
		/* Values past AUTH_FAILED (RPCSEC_GSS) are kept as data. */
		return xdr_dec_u32(d, &h->auth_stat);
	default:
		return -EBADMSG; /* the union has no default arm */
	}
}

int rpcmsg_dec_reply(struct xdr_dec *d, struct rpc_reply_hdr *h)
{
	uint32_t mtype;
	int ret;

	memset(h, 0, sizeof(*h));
	ret = xdr_dec_u32(d, &h->xid);
	if (ret)
		return ret;
	ret = xdr_dec_u32(d, &mtype);
	if (ret)
		return ret;
	if (mtype != RPC_REPLY)
		return -EBADMSG;
	ret = xdr_dec_u32(d, &h->reply_stat);
	if (ret)
		return ret;
	switch (h->reply_stat) {
	case MSG_ACCEPTED:
		return dec_accepted_reply(d, h);
	case MSG_DENIED:
		return dec_rejected_reply(d, h);
	default:
		return -EBADMSG;
	}
}

int rpcmsg_reply_errno(const struct rpc_reply_hdr *h)
{
	if (h->reply_stat == MSG_ACCEPTED) {
		switch (h->accept_stat) {
		case RPC_SUCCESS:
			return 0;
		case RPC_PROG_UNAVAIL:
		case RPC_PROG_MISMATCH:
			return -EPROTONOSUPPORT;
		case RPC_PROC_UNAVAIL:
			return -EOPNOTSUPP;
		case RPC_GARBAGE_ARGS:
			return -EINVAL;
		case RPC_SYSTEM_ERR:
		default:
			return -EIO;
		}
	}
	if (h->reply_stat == MSG_DENIED) {
		if (h->reject_stat == RPC_MISMATCH)
			return -EPROTO;
		if (h->reject_stat == RPC_AUTH_ERROR)
			return -EACCES;
	}
	return -EIO;
}

static const char *auth_stat_str(uint32_t s)
{
	static const char *const names[] = {
		[RPC_AUTH_OK] = "AUTH_OK",
		[RPC_AUTH_BADCRED] = "bad credential (AUTH_BADCRED)",
		[RPC_AUTH_REJECTEDCRED] =
			"credential rejected (AUTH_REJECTEDCRED)",
		[RPC_AUTH_BADVERF] = "bad verifier (AUTH_BADVERF)",
		[RPC_AUTH_REJECTEDVERF] =
			"verifier rejected (AUTH_REJECTEDVERF)",
		[RPC_AUTH_TOOWEAK] = "security too weak (AUTH_TOOWEAK)",
		[RPC_AUTH_INVALIDRESP] = "invalid response (AUTH_INVALIDRESP)",
		[RPC_AUTH_FAILED] = "unknown failure (AUTH_FAILED)",
	};

	if (s < sizeof(names) / sizeof(names[0]))
		return names[s];
	return NULL;
}

const char *rpcmsg_reply_str(const struct rpc_reply_hdr *h, char *buf,
			     size_t len)
{
	const char *s;

	if (!buf || len == 0)
		return "";
	if (h->reply_stat == MSG_ACCEPTED) {
		switch (h->accept_stat) {
		case RPC_SUCCESS:
			snprintf(buf, len, "success");
			break;
		case RPC_PROG_UNAVAIL:
			snprintf(buf, len, "program unavailable");
			break;
		case RPC_PROG_MISMATCH:
			snprintf(buf, len,
				 "program version mismatch (server has %u..%u)",
				 h->mismatch_low, h->mismatch_high);
			break;
		case RPC_PROC_UNAVAIL:
			snprintf(buf, len, "procedure unavailable");
			break;
		case RPC_GARBAGE_ARGS:
			snprintf(buf, len, "garbage arguments");
			break;
		case RPC_SYSTEM_ERR:
			snprintf(buf, len, "system error on the server");
			break;
		default:
			snprintf(buf, len, "unknown accept status %u",
				 h->accept_stat);
			break;
		}
	} else if (h->reply_stat == MSG_DENIED) {
		if (h->reject_stat == RPC_MISMATCH) {
			snprintf(buf, len,
				 "RPC version mismatch (server has %u..%u)",
				 h->mismatch_low, h->mismatch_high);
		} else if (h->reject_stat == RPC_AUTH_ERROR) {
			s = auth_stat_str(h->auth_stat);
			if (s)
				snprintf(buf, len, "authentication error: %s",
					 s);
			else
				snprintf(buf, len,
					 "authentication error: status %u",
					 h->auth_stat);
		} else {
			snprintf(buf, len, "unknown reject status %u",
				 h->reject_stat);
		}
	} else {
		snprintf(buf, len, "unknown reply status %u", h->reply_stat);
	}
	return buf;
}

static int dec_authsys_parms(const uint8_t *body, uint32_t len,
			     struct rpc_cred *cred)
{
	struct xdr_dec d;
	const uint8_t *name;
	uint32_t namelen, ngids;
	int ret;

	xdr_dec_init(&d, body, len);
	ret = xdr_dec_u32(&d, &cred->stamp);
	if (ret)
		return ret;
	/* The machine name is opaque to us: not a file name, so a NUL in it
	 * is not a reason to refuse the call. */
	ret = xdr_dec_opaque(&d, RPC_AUTH_SYS_MAXNAME, &name, &namelen);
	if (ret)
		return ret;
	if (xdr_dec_u32(&d, &cred->uid) || xdr_dec_u32(&d, &cred->gid) ||
	    xdr_dec_u32(&d, &ngids))
		return -EBADMSG;
	if (ngids > RPC_AUTH_SYS_MAXGIDS)
		return -EBADMSG;
	for (uint32_t i = 0; i < ngids; i++)
		if (xdr_dec_u32(&d, &cred->gids[i]))
			return -EBADMSG;
	cred->ngids = ngids;
	/* The body length must match its contents exactly. */
	if (xdr_dec_left(&d) != 0)
		return -EBADMSG;
	return 0;
}

/*
 * Returns 0 with the cursor at the procedure's arguments; -EBADMSG when
 * malformed; -EPROTO when rpcvers is not 2 (h->xid is then set, so that a
 * server may answer MSG_DENIED/RPC_MISMATCH).
 */
int rpcmsg_dec_call(struct xdr_dec *d, struct rpc_call_hdr *h)
{
	uint32_t mtype, rpcvers, flavor, len;
	const uint8_t *body;
	int ret;

	memset(h, 0, sizeof(*h));
	ret = xdr_dec_u32(d, &h->xid);
	if (ret)
		return ret;
	if (xdr_dec_u32(d, &mtype) || xdr_dec_u32(d, &rpcvers))
		return -EBADMSG;
	if (mtype != RPC_CALL)
		return -EBADMSG;
	if (rpcvers != RPC_VERSION)
		return -EPROTO;
	if (xdr_dec_u32(d, &h->prog) || xdr_dec_u32(d, &h->vers) ||
	    xdr_dec_u32(d, &h->proc))
		return -EBADMSG;
	ret = dec_opaque_auth(d, &h->cred_flavor, &body, &len);
	if (ret)
		return ret;
	h->cred.flavor = h->cred_flavor;
	if (h->cred_flavor == RPC_AUTH_SYS) {
		ret = dec_authsys_parms(body, len, &h->cred);
		if (ret)
			return ret;
	}
	h->cred.machinename = NULL;
	return dec_opaque_auth(d, &flavor, &body, &len);
}

/*
 * An accepted reply with an AUTH_NONE verifier.  For RPC_SUCCESS the caller
 * appends the results; for RPC_PROG_MISMATCH it appends low and high.
 */
int rpcmsg_enc_accepted_reply(struct xdr_enc *e, uint32_t xid,
			      uint32_t accept_stat)
{
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, RPC_REPLY);
	xdr_enc_u32(e, MSG_ACCEPTED);
	xdr_enc_u32(e, RPC_AUTH_NONE);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, accept_stat);
	return e->err;
}
