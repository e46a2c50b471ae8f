/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_recover.h"

#include "../../xdr/nfs4.h"

/* Sessions lost again in the middle of one recovery before it gives up. */
#define NFS4_REC_MAX_RESTARTS 8u

bool nfs4_rec_op_pure(uint32_t op)
{
	switch (op) {
	case NFS4OP_SEQUENCE: case NFS4OP_PUTFH: case NFS4OP_PUTROOTFH:
	case NFS4OP_PUTPUBFH: case NFS4OP_SAVEFH: case NFS4OP_RESTOREFH:
	case NFS4OP_GETFH: case NFS4OP_GETATTR: case NFS4OP_LOOKUP:
	case NFS4OP_LOOKUPP: case NFS4OP_ACCESS: case NFS4OP_READ:
	case NFS4OP_READLINK: case NFS4OP_READDIR: case NFS4OP_VERIFY:
	case NFS4OP_NVERIFY: case NFS4OP_SECINFO:
	case NFS4OP_SECINFO_NO_NAME:
		return true;
	}
	return false;
}

static enum nfs4_rec_action lost(uint32_t st)
{
	switch (st) {
	case NFS4ERR_BADSESSION: case NFS4ERR_DEADSESSION:
	case NFS4ERR_CONN_NOT_BOUND_TO_SESSION:
		return NFS4_REC_SESSION;
	case NFS4ERR_STALE_CLIENTID: case NFS4ERR_EXPIRED:
		return NFS4_REC_CLIENT;
	}
	return NFS4_REC_NONE;
}

enum nfs4_rec_action nfs4_rec_classify(uint32_t seq_status,
				       uint32_t cmp_status, bool pure_prefix)
{
	enum nfs4_rec_action a;

	if (seq_status != NFS4_OK) {
		a = lost(seq_status);
		if (a != NFS4_REC_NONE)
			return a;
		if (seq_status == NFS4ERR_DELAY)
			return NFS4_REC_SLOT_LATER;
		if (seq_status == NFS4ERR_RETRY_UNCACHED_REP)
			return NFS4_REC_RESEND_NEW;
		return NFS4_REC_NONE;
	}
	/* A server that keeps a stub for replies it was not asked to
	 * cache answers a retransmission with SEQUENCE's result and this
	 * status in the next operation. */
	if (cmp_status == NFS4ERR_RETRY_UNCACHED_REP)
		return NFS4_REC_RESEND_NEW;
	if ((cmp_status == NFS4ERR_DELAY || cmp_status == NFS4ERR_GRACE) &&
	    pure_prefix)
		return NFS4_REC_LATER;
	/* An operation may say the client id is gone too (a stateid of a
	 * client the server no longer knows); NFS4ERR_EXPIRED there is
	 * that stateid's, not the client id's. */
	if (cmp_status == NFS4ERR_STALE_CLIENTID && pure_prefix)
		return NFS4_REC_CLIENT;
	return NFS4_REC_NONE;
}

void nfs4_rec_begin(struct nfs4_rec *r, enum nfs4_rec_action need,
		    bool expired)
{
	*r = (struct nfs4_rec){ .step = need == NFS4_REC_CLIENT
					? NFS4_REC_EXCHANGE_ID
					: NFS4_REC_CREATE_SESSION,
				.expired = expired };
}

static enum nfs4_rec_step wait_again(struct nfs4_rec *r)
{
	r->waits++;
	return r->step;
}

enum nfs4_rec_step nfs4_rec_next(struct nfs4_rec *r, int err, uint32_t st)
{
	if (r->step == NFS4_REC_DONE || r->step == NFS4_REC_FAILED)
		return r->step;
	if (r->step == NFS4_REC_RECLAIM) {
		/* What the hook could not reclaim it marked itself. */
		r->waits = 0;
		return r->step = NFS4_REC_RECLAIM_COMPLETE;
	}
	if (err)
		return wait_again(r); /* no answer: the same step, later */
	if (st == NFS4ERR_DELAY)
		return wait_again(r);
	r->waits = 0;
	switch (r->step) {
	case NFS4_REC_EXCHANGE_ID:
		if (st != NFS4_OK)
			return r->step = NFS4_REC_FAILED;
		r->new_client = true;
		return r->step = NFS4_REC_CREATE_SESSION;
	case NFS4_REC_CREATE_SESSION:
		if (st == NFS4_OK)
			return r->step = r->new_client ? NFS4_REC_RECLAIM
						       : NFS4_REC_DONE;
		if (st == NFS4ERR_EXPIRED)
			r->expired = true;
		if ((st == NFS4ERR_STALE_CLIENTID || st == NFS4ERR_EXPIRED ||
		     st == NFS4ERR_SEQ_MISORDERED) && !r->new_client)
			return r->step = NFS4_REC_EXCHANGE_ID;
		return r->step = NFS4_REC_FAILED;
	case NFS4_REC_RECLAIM_COMPLETE:
		if (st == NFS4_OK || st == NFS4ERR_COMPLETE_ALREADY)
			return r->step = NFS4_REC_DONE;
		if (lost(st) != NFS4_REC_NONE &&
		    ++r->restarts <= NFS4_REC_MAX_RESTARTS) {
			if (st == NFS4ERR_EXPIRED)
				r->expired = true;
			return r->step = lost(st) == NFS4_REC_CLIENT
						 ? NFS4_REC_EXCHANGE_ID
						 : NFS4_REC_CREATE_SESSION;
		}
		return r->step = NFS4_REC_FAILED;
	default:
		return r->step = NFS4_REC_FAILED;
	}
}

uint64_t nfs4_rec_backoff_us(unsigned waits)
{
	uint64_t us = 100000;

	while (waits-- > 1 && us < 2000000)
		us *= 2;
	return us < 2000000 ? us : 2000000;
}

enum nfs4_reclaim_kind nfs4_rec_kind(const struct nfs4_rec *r)
{
	return r->expired ? NFS4_RECLAIM_LOST : NFS4_RECLAIM_GRACE;
}

enum nfs4_lkrec_verdict nfs4_rec_lock_verdict(uint32_t st, bool reclaim,
					      bool lapsed)
{
	if (st == NFS4_OK)
		return NFS4_LKREC_HELD;
	/* RFC 8881 §8.4.2.1: a server without a grace period takes no
	 * reclaim.  If the lease held, nobody else can have had the range
	 * meanwhile: taking it as a new lock keeps what was held. */
	if (st == NFS4ERR_NO_GRACE && reclaim && !lapsed)
		return NFS4_LKREC_AS_NEW;
	/* DENIED (someone has it now), RECLAIM_BAD, RECLAIM_CONFLICT, a
	 * stale open stateid, or anything else: it is not held. */
	return NFS4_LKREC_LOST;
}

uint32_t nfs4_rec_fh_hash(const uint8_t *fh, uint32_t len)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ fh[i]) * 16777619u;
	return h;
}
