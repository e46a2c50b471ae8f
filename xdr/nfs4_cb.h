/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 callbacks on the backchannel (nfs4_cb.c): the arguments of the
 * callbacks the client answers, the CB_COMPOUND walk and the reply.
 * Included by nfs4.h, whose conventions hold here.
 */
#ifndef NFSFUSE_XDR_NFS4_CB_H
#define NFSFUSE_XDR_NFS4_CB_H

#ifndef NFSFUSE_XDR_NFS4_H
#error "include nfs4.h, not nfs4_cb.h"
#endif

/* ---- callbacks (the backchannel) ---- */

/* A referring call of CB_SEQUENCE: a call of ours the callback follows. */
struct nfs4_cb_referring {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
};
/*
 * CB_SEQUENCE4args.  Decoded: nreferring calls in all, walked with
 * nfs4_cb_referring_next() from nfs4_cb_referring_start(); `raw` the
 * bytes of the lists (nlists of them).  To encode: `referring` (one list
 * per call) or, when it is NULL, raw as decoded.
 */
struct nfs4_cb_sequence_args {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
	uint32_t highest_slotid;
	bool cachethis;
	uint32_t nreferring;
	const struct nfs4_cb_referring *referring;
	uint32_t nlists;
	const uint8_t *raw;
	uint32_t raw_len;
};
struct nfs4_cb_referring_it {
	struct xdr_dec d;
	uint32_t lists_left;
	uint32_t calls_left;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
};
void nfs4_cb_referring_start(const struct nfs4_cb_sequence_args *a,
			     struct nfs4_cb_referring_it *it);
/* 1: *c filled; 0: no more.  Only after a successful decode. */
int nfs4_cb_referring_next(struct nfs4_cb_referring_it *it,
			   struct nfs4_cb_referring *c);

struct nfs4_cb_sequence_res {
	uint32_t status;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
	uint32_t highest_slotid;
	uint32_t target_highest_slotid;
};

struct nfs4_cb_recall_args {
	struct nfs4_stateid stateid;
	bool truncate;
	struct nfs4_fh fh;
};

/* CB_GETATTR: answered with a struct nfs4_getattr_res. */
struct nfs4_cb_getattr_args {
	struct nfs4_fh fh;
	struct nfs4_bitmap request;
};

struct nfs4_cb_notify_lock_args {
	struct nfs4_fh fh;
	struct nfs4_owner lock_owner; /* owner bytes into the request */
};

/* CB_RECALL_ANY type mask bits */
#define NFS4_RCA4_TYPE_MASK_RDATA_DLG 0
#define NFS4_RCA4_TYPE_MASK_WDATA_DLG 1
#define NFS4_RCA4_TYPE_MASK_DIR_DLG 2
struct nfs4_cb_recall_any_args {
	uint32_t objects_to_keep;
	struct nfs4_bitmap type_mask;
};

enum nfs4_layoutrecall_type { NFS4_LAYOUTRECALL_FILE = 1,
			      NFS4_LAYOUTRECALL_FSID = 2,
			      NFS4_LAYOUTRECALL_ALL = 3 };
/* Decoded so that it can be answered (this client holds no layouts). */
struct nfs4_cb_layoutrecall_args {
	uint32_t layout_type;
	uint32_t iomode;
	bool changed;
	uint32_t recall_type;        /* enum nfs4_layoutrecall_type */
	struct nfs4_fh fh;           /* FILE */
	uint64_t offset, length;     /* FILE */
	struct nfs4_stateid stateid; /* FILE */
	struct nfs4_fsid fsid;       /* FSID */
};

union nfs4_cb_args {
	struct nfs4_cb_sequence_args sequence;
	struct nfs4_cb_recall_args recall;
	struct nfs4_cb_getattr_args getattr;
	struct nfs4_cb_notify_lock_args notify_lock;
	struct nfs4_cb_recall_any_args recall_any;
	struct nfs4_cb_layoutrecall_args layoutrecall;
};

/* CB_COMPOUND4args as received: tag, minor version, callback_ident, then
 * the operations, walked with nfs4_cb_next_op(). */
struct nfs4_cb_compound_args {
	struct nfs4_str tag;     /* into the request: echo it in the reply */
	uint32_t minorversion;
	uint32_t callback_ident;
	uint32_t nops;
	uint32_t next;
	struct xdr_dec d;
};
/* -EBADMSG if malformed or over NFS4_MAXOPS operations. */
int nfs4_cb_dec_compound_args(struct xdr_dec *d,
			      struct nfs4_cb_compound_args *a);
/*
 * The next operation: *op its number and *args its arguments.  1: decoded;
 * 0: no more; -EOPNOTSUPP: an operation this code does not decode (its
 * arguments are not read: answer it with nfs4_cb_reply_unsupported() and
 * stop); -EBADMSG: malformed.
 */
int nfs4_cb_next_op(struct nfs4_cb_compound_args *a, uint32_t *op,
		    union nfs4_cb_args *args);

/* CB_COMPOUND4res being built: status (kept that of the last result),
 * tag, results. */
struct nfs4_cb_reply {
	struct xdr_enc *e;
	size_t status_at;
	size_t nops_at;
	uint32_t nops;
};
int nfs4_cb_reply_start(struct nfs4_cb_reply *r, struct xdr_enc *e,
			const struct nfs4_str *tag);
/* The compound status without any result (NFS4ERR_MINOR_VERS_MISMATCH). */
int nfs4_cb_reply_status(struct nfs4_cb_reply *r, uint32_t status);
/* One result: res is the result structure for op (nfs4_status_res,
 * nfs4_cb_sequence_res, nfs4_getattr_res for CB_GETATTR). */
int nfs4_cb_reply_add(struct nfs4_cb_reply *r, uint32_t op, const void *res);
/* The answer to an operation nfs4_cb_next_op() did not decode:
 * NFS4ERR_NOTSUPP for a callback of the protocol, CB_ILLEGAL with
 * NFS4ERR_OP_ILLEGAL for any other number. */
int nfs4_cb_reply_unsupported(struct nfs4_cb_reply *r, uint32_t op);

/* The server's side, for tests and test servers: CB_COMPOUND4args built
 * as a COMPOUND is, and the reply walked with nfs4_compound_next(). */
int nfs4_cb_compound_start(struct nfs4_compound *c, struct xdr_enc *e,
			   const char *tag, uint32_t minorversion,
			   uint32_t callback_ident);
int nfs4_cb_compound_add(struct nfs4_compound *c, uint32_t op,
			 const void *args);
int nfs4_cb_dec_compound_res(struct xdr_dec *d, struct nfs4_compound_res *r);

int nfs4_enc_cb_sequence_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_sequence_args(struct xdr_dec *d, void *args);
int nfs4_enc_cb_sequence_res(struct xdr_enc *e, const void *res);
int nfs4_dec_cb_sequence_res(struct xdr_dec *d, void *res);
int nfs4_enc_cb_recall_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_recall_args(struct xdr_dec *d, void *args);
int nfs4_enc_cb_getattr_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_getattr_args(struct xdr_dec *d, void *args);
int nfs4_enc_cb_notify_lock_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_notify_lock_args(struct xdr_dec *d, void *args);
int nfs4_enc_cb_recall_any_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_recall_any_args(struct xdr_dec *d, void *args);
int nfs4_enc_cb_layoutrecall_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cb_layoutrecall_args(struct xdr_dec *d, void *args);

#endif
