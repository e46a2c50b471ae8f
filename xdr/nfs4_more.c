/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_more.h"

#include <errno.h>

/*
 * struct CB_COMPOUND4args {
 *	utf8str_cs	tag;
 *	uint32_t	minorversion;
 *	uint32_t	callback_ident;
 *	nfs_cb_argop4	argarray<>;
 * };
 */
int nfs4more_dec_cb_head(struct xdr_dec *d, struct nfs4more_cb_head *h)
{
	const uint8_t *tag;

	if (xdr_dec_opaque(d, NFS4_MAXTAG, &tag, &h->tag.len) ||
	    xdr_dec_u32(d, &h->minorversion) ||
	    xdr_dec_u32(d, &h->callback_ident) || xdr_dec_u32(d, &h->nops))
		return -EBADMSG;
	h->tag.s = (const char *)tag;
	return h->nops > NFS4_MAXOPS ? -EBADMSG : 0;
}

/*
 * struct CB_SEQUENCE4args {
 *	sessionid4		csa_sessionid;
 *	sequenceid4		csa_sequenceid;
 *	slotid4			csa_slotid;
 *	slotid4			csa_highest_slotid;
 *	bool			csa_cachethis;
 *	referring_call_list4	csa_referring_call_lists<>;
 * };
 * struct referring_call_list4 {
 *	sessionid4	rcl_sessionid;
 *	referring_call4	rcl_referring_calls<>;	(sequenceid4, slotid4)
 * };
 */
int nfs4more_dec_cb_sequence_args(struct xdr_dec *d,
				  struct nfs4more_cb_sequence_args *a)
{
	const uint8_t *sid;
	uint32_t nlists, ncalls;

	if (xdr_dec_opaque_fixed(d, NFS4_SESSIONID_SIZE, &sid) ||
	    xdr_dec_u32(d, &a->sequenceid) || xdr_dec_u32(d, &a->slotid) ||
	    xdr_dec_u32(d, &a->highest_slotid) ||
	    xdr_dec_bool(d, &a->cachethis) || xdr_dec_u32(d, &nlists))
		return -EBADMSG;
	memcpy(a->sessionid, sid, NFS4_SESSIONID_SIZE);
	if (nlists > NFS4_MAXREFCALLS)
		return -EBADMSG;
	for (uint32_t i = 0; i < nlists; i++) {
		if (!xdr_dec_inline(d, NFS4_SESSIONID_SIZE) ||
		    xdr_dec_u32(d, &ncalls) || ncalls > NFS4_MAXREFCALLS ||
		    !xdr_dec_inline(d, (size_t)ncalls * 8))
			return -EBADMSG;
	}
	return 0;
}

int nfs4more_enc_cb_res_head(struct xdr_enc *e, uint32_t status,
			     const struct nfs4_str *tag, uint32_t nres)
{
	xdr_enc_u32(e, status);
	xdr_enc_opaque(e, NFS4_MAXTAG, tag->s, tag->len);
	return xdr_enc_u32(e, nres);
}

/*
 * struct CB_SEQUENCE4resok {
 *	sessionid4	csr_sessionid;
 *	sequenceid4	csr_sequenceid;
 *	slotid4		csr_slotid;
 *	slotid4		csr_highest_slotid;
 *	slotid4		csr_target_highest_slotid;
 * };
 */
int nfs4more_enc_cb_sequence_res(struct xdr_enc *e, uint32_t status,
				 const struct nfs4more_cb_sequence_args *a,
				 uint32_t target_highest_slotid)
{
	xdr_enc_u32(e, NFS4CBOP_SEQUENCE);
	xdr_enc_u32(e, status);
	if (status != NFS4_OK)
		return xdr_enc_error(e);
	xdr_enc_opaque_fixed(e, a->sessionid, NFS4_SESSIONID_SIZE);
	xdr_enc_u32(e, a->sequenceid);
	xdr_enc_u32(e, a->slotid);
	xdr_enc_u32(e, a->highest_slotid);
	return xdr_enc_u32(e, target_highest_slotid);
}

int nfs4more_enc_cb_status_res(struct xdr_enc *e, uint32_t op,
			       uint32_t status)
{
	xdr_enc_u32(e, op);
	return xdr_enc_u32(e, status);
}
