/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The least of the NFSv4.1 callback program (RFC 8881 §20) a client must
 * speak on its backchannel: the head of CB_COMPOUND, CB_SEQUENCE's
 * arguments and results, and the result of an operation refused with a
 * status.  Until the full callback codec (nfs4_cb.c) answers more, every
 * other callback is refused with NFS4ERR_NOTSUPP.
 */
#ifndef NFSFUSE_XDR_NFS4_MORE_H
#define NFSFUSE_XDR_NFS4_MORE_H

#include "nfs4.h"

/* CB_COMPOUND4args up to its argument array's count. */
struct nfs4more_cb_head {
	struct nfs4_str tag;      /* into the call */
	uint32_t minorversion;
	uint32_t callback_ident;
	uint32_t nops;
};
int nfs4more_dec_cb_head(struct xdr_dec *d, struct nfs4more_cb_head *h);

/* CB_SEQUENCE4args; the referring call lists are checked and skipped. */
struct nfs4more_cb_sequence_args {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
	uint32_t highest_slotid;
	bool cachethis;
};
int nfs4more_dec_cb_sequence_args(struct xdr_dec *d,
				  struct nfs4more_cb_sequence_args *a);

/* CB_COMPOUND4res's head: status, tag, count of results. */
int nfs4more_enc_cb_res_head(struct xdr_enc *e, uint32_t status,
			     const struct nfs4_str *tag, uint32_t nres);
/* One CB_SEQUENCE4res (op number included); NFS4_OK sends the rest. */
int nfs4more_enc_cb_sequence_res(struct xdr_enc *e, uint32_t status,
				 const struct nfs4more_cb_sequence_args *a,
				 uint32_t target_highest_slotid);
/* An operation's result that is its status alone (op number included). */
int nfs4more_enc_cb_status_res(struct xdr_enc *e, uint32_t op,
			       uint32_t status);

#endif
