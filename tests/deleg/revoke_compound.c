/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What --revoke reads and rewrites in COMPOUNDs (RFC 8881 §16.2, §18.46,
 * §18.38), in compound.c's manner: every read through the bounds-checked
 * cursor, and a message that does not parse is left alone by the
 * caller.
 */
#include <stdlib.h>
#include <string.h>

#include "revoke.h"
#include "rpc_msg.h"

#define VERF_MAX 400u

/* An accepted, successful RPC reply and COMPOUND4res up to its results:
 * where its status and its result count are. */
static int reply_top(struct xdr_dec *d, const uint8_t *base,
		     size_t *status_at, size_t *nres_at, uint32_t *nres)
{
	uint32_t xid, type, stat, flavor, accept, status;
	const uint8_t *b;
	uint32_t n;

	if (xdr_dec_u32(d, &xid) || xdr_dec_u32(d, &type) ||
	    xdr_dec_u32(d, &stat) || type != RPC_REPLY ||
	    stat != MSG_ACCEPTED)
		return -1;
	if (xdr_dec_u32(d, &flavor) || xdr_dec_opaque(d, VERF_MAX, &b, &n) ||
	    xdr_dec_u32(d, &accept) || accept != RPC_SUCCESS)
		return -1;
	*status_at = (size_t)(d->p - base);
	if (xdr_dec_u32(d, &status) || xdr_dec_opaque(d, NFS4_MAXTAG, &b, &n))
		return -1;
	*nres_at = (size_t)(d->p - base);
	if (xdr_dec_u32(d, nres) || *nres > NFS4_MAXOPS)
		return -1;
	return 0;
}

/* SEQUENCE4resok: sessionid, sequenceid, slotid, highest_slotid,
 * target_highest_slotid, status_flags. */
int dp_seq_flags_at(const uint8_t *p, size_t len, size_t *at)
{
	struct xdr_dec d;
	size_t status_at, nres_at;
	uint32_t nres, op, st;

	xdr_dec_init(&d, p, len);
	if (reply_top(&d, p, &status_at, &nres_at, &nres) || nres == 0 ||
	    xdr_dec_u32(&d, &op) || xdr_dec_u32(&d, &st) ||
	    op != NFS4OP_SEQUENCE || st != NFS4_OK ||
	    !xdr_dec_inline(&d, NFS4_SESSIONID_SIZE + 4 * 4))
		return -1;
	*at = (size_t)(d.p - p);
	return xdr_dec_inline(&d, 4) ? 0 : -1;
}

/* FREE_STATEID4args: fsa_stateid. */
int dp_free_stateid_arg(const uint8_t *p, size_t len,
			const struct dp_call *ci, uint8_t stateid[16])
{
	struct xdr_dec d;
	const uint8_t *sid;
	uint32_t op;

	if (!ci->have_fh || ci->op != NFS4OP_FREE_STATEID || ci->nops != 3 ||
	    ci->op_at > len)
		return -1;
	xdr_dec_init(&d, p + ci->op_at, len - ci->op_at);
	if (xdr_dec_u32(&d, &op) || op != NFS4OP_FREE_STATEID ||
	    xdr_dec_opaque_fixed(&d, 16, &sid) || xdr_dec_left(&d) != 0)
		return -1;
	memcpy(stateid, sid, 16);
	return 0;
}

/* What is left of a cut call answered: SEQUENCE and PUTFH results, each
 * NFS4_OK, and nothing after them. */
static int seq_putfh_results(struct xdr_dec *d, uint32_t nres)
{
	uint32_t i, op, st;

	for (i = 0; i < nres; i++) {
		if (xdr_dec_u32(d, &op) || xdr_dec_u32(d, &st) ||
		    st != NFS4_OK)
			return -1;
		if (op == NFS4OP_SEQUENCE) {
			/* SEQUENCE4resok, flags included */
			if (!xdr_dec_inline(d, NFS4_SESSIONID_SIZE + 5 * 4))
				return -1;
		} else if (op != NFS4OP_PUTFH) {
			return -1;
		}
	}
	return xdr_dec_left(d) == 0 ? 0 : -1;
}

int dp_append_result(const uint8_t *p, size_t len, uint32_t op,
		     uint32_t status, uint8_t **out, size_t *outlen)
{
	struct xdr_dec d;
	size_t status_at, nres_at;
	uint32_t nres;
	uint8_t *b;

	xdr_dec_init(&d, p, len);
	if (reply_top(&d, p, &status_at, &nres_at, &nres) ||
	    nres >= NFS4_MAXOPS || seq_putfh_results(&d, nres))
		return -1;
	b = malloc(len + 8);
	if (!b)
		return -1;
	memcpy(b, p, len);
	xdr_put_u32(b + len, op);
	xdr_put_u32(b + len + 4, status);
	xdr_put_u32(b + nres_at, nres + 1);
	/* The status of a COMPOUND is that of its last result. */
	if (status != NFS4_OK)
		xdr_put_u32(b + status_at, status);
	*out = b;
	*outlen = len + 8;
	return 0;
}
