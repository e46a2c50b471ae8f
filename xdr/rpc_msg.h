/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ONC RPC version 2 message headers (RFC 5531) and the AUTH_NONE and
 * AUTH_SYS credentials.
 */
#ifndef NFSFUSE_XDR_RPC_MSG_H
#define NFSFUSE_XDR_RPC_MSG_H

#include "xdr.h"

#define RPC_VERSION 2u

enum rpc_msg_type { RPC_CALL = 0, RPC_REPLY = 1 };
enum rpc_reply_stat { MSG_ACCEPTED = 0, MSG_DENIED = 1 };
enum rpc_accept_stat {
	RPC_SUCCESS = 0,
	RPC_PROG_UNAVAIL = 1,
	RPC_PROG_MISMATCH = 2,
	RPC_PROC_UNAVAIL = 3,
	RPC_GARBAGE_ARGS = 4,
	RPC_SYSTEM_ERR = 5
};
enum rpc_reject_stat { RPC_MISMATCH = 0, RPC_AUTH_ERROR = 1 };
enum rpc_auth_stat {
	RPC_AUTH_OK = 0,
	RPC_AUTH_BADCRED = 1,
	RPC_AUTH_REJECTEDCRED = 2,
	RPC_AUTH_BADVERF = 3,
	RPC_AUTH_REJECTEDVERF = 4,
	RPC_AUTH_TOOWEAK = 5,
	RPC_AUTH_INVALIDRESP = 6,
	RPC_AUTH_FAILED = 7
};
enum rpc_auth_flavor { RPC_AUTH_NONE = 0, RPC_AUTH_SYS = 1 };

#define RPC_AUTH_MAXBODY 400u
#define RPC_AUTH_SYS_MAXNAME 255u
#define RPC_AUTH_SYS_MAXGIDS 16u

/* The credential of one call.  flavor RPC_AUTH_NONE ignores the rest. */
struct rpc_cred {
	uint32_t flavor;
	uint32_t stamp;
	const char *machinename; /* NUL-terminated; NULL means "" */
	uint32_t uid;
	uint32_t gid;
	uint32_t ngids; /* <= RPC_AUTH_SYS_MAXGIDS (extra ones are dropped) */
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS];
};

/* Call header up to and including the verifier (AUTH_NONE). */
int rpcmsg_enc_call(struct xdr_enc *e, uint32_t xid, uint32_t prog,
		    uint32_t vers, uint32_t proc, const struct rpc_cred *cred);

struct rpc_reply_hdr {
	uint32_t xid;
	uint32_t reply_stat;  /* enum rpc_reply_stat */
	uint32_t accept_stat; /* MSG_ACCEPTED */
	uint32_t mismatch_low, mismatch_high; /* PROG_MISMATCH / RPC_MISMATCH */
	uint32_t reject_stat; /* MSG_DENIED */
	uint32_t auth_stat;   /* MSG_DENIED, AUTH_ERROR */
	uint32_t verf_flavor;
};

/* Only the XID: the receiver uses it to find the call before decoding. */
int rpcmsg_dec_xid(const uint8_t *buf, size_t len, uint32_t *xid);
/*
 * A whole reply header.  On return 0 with MSG_ACCEPTED/RPC_SUCCESS the
 * cursor stands at the procedure's results.  -EBADMSG if malformed (including
 * a CALL where a REPLY was expected, or an unknown reply_stat).
 */
int rpcmsg_dec_reply(struct xdr_dec *d, struct rpc_reply_hdr *h);
/* 0 for accepted success; otherwise a negative errno for the failure:
 * PROG_UNAVAIL/PROG_MISMATCH -EPROTONOSUPPORT, PROC_UNAVAIL -EOPNOTSUPP,
 * GARBAGE_ARGS -EINVAL, SYSTEM_ERR -EIO, RPC_MISMATCH -EPROTO,
 * AUTH_ERROR -EACCES. */
int rpcmsg_reply_errno(const struct rpc_reply_hdr *h);
/* Text for logs: "program version mismatch (server has 2..3)". */
const char *rpcmsg_reply_str(const struct rpc_reply_hdr *h, char *buf,
			     size_t len);

/* Server side, for the callback listener and test proxies. */
struct rpc_call_hdr {
	uint32_t xid;
	uint32_t prog, vers, proc;
	uint32_t cred_flavor;
	struct rpc_cred cred; /* decoded when cred_flavor is AUTH_SYS;
				machinename is not kept */
};
int rpcmsg_dec_call(struct xdr_dec *d, struct rpc_call_hdr *h);
int rpcmsg_enc_accepted_reply(struct xdr_enc *e, uint32_t xid,
			      uint32_t accept_stat);

#endif
