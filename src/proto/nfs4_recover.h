/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an NFSv4.1 reply asks of the session (RFC 8881 §2.10.6, §8.4.2),
 * and the steps of a recovery, as pure functions of statuses: the
 * session (nfs4_session.c) sends the calls, these say what comes next.
 *
 *   a reply's SEQUENCE status or the COMPOUND's status  -> nfs4_rec_classify
 *     BADSESSION, DEADSESSION, CONN_NOT_BOUND           new session
 *     STALE_CLIENTID, EXPIRED                           new client id
 *     DELAY (SEQUENCE)                                  same slot, later
 *     DELAY, GRACE (an operation whose earlier
 *       operations changed nothing)                     resend, later
 *     RETRY_UNCACHED_REP (SEQUENCE, or the operation
 *       after it: a server that keeps a stub reply)     resend as new
 *
 *   a recovery                                         -> nfs4_rec_next
 *     new session:   CREATE_SESSION on the client id; STALE_CLIENTID,
 *                    EXPIRED or SEQ_MISORDERED there -> new client id
 *     new client id: EXCHANGE_ID (the same owner and verifier), then
 *                    CREATE_SESSION, then the reclaim hook (in grace:
 *                    reclaim; after EXPIRED: the state is lost), then
 *                    RECLAIM_COMPLETE
 *     DELAY or a transport error on a step: the step again after a wait;
 *     a lost session during RECLAIM_COMPLETE: from CREATE_SESSION again;
 *     any other status: the recovery failed (calls then answer EIO).
 */
#ifndef NFSFUSE_PROTO_NFS4_RECOVER_H
#define NFSFUSE_PROTO_NFS4_RECOVER_H

#include <stdbool.h>
#include <stdint.h>

enum nfs4_rec_action {
	NFS4_REC_NONE,        /* the reply stands */
	NFS4_REC_SLOT_LATER,  /* the same slot and sequence id, after a wait */
	NFS4_REC_RESEND_NEW,  /* on the slot's next sequence id, at once */
	NFS4_REC_LATER,       /* a new call, after a backoff */
	NFS4_REC_SESSION,     /* the session is gone: a new one, then resend */
	NFS4_REC_CLIENT,      /* the client id is gone: new client id too */
};

/* seq_status: SEQUENCE's (NFS4_OK when it succeeded); cmp_status: the
 * COMPOUND's (that of its last result); pure_prefix: every operation
 * before the failed one changes nothing on the server (PUTFH, LOOKUP,
 * GETATTR...), so that sending the COMPOUND again repeats no effect. */
enum nfs4_rec_action nfs4_rec_classify(uint32_t seq_status,
				       uint32_t cmp_status, bool pure_prefix);

/* Does op change nothing on the server (see pure_prefix)? */
bool nfs4_rec_op_pure(uint32_t op);

enum nfs4_rec_step {
	NFS4_REC_EXCHANGE_ID,
	NFS4_REC_CREATE_SESSION,
	NFS4_REC_RECLAIM,          /* the reclaim hook */
	NFS4_REC_RECLAIM_COMPLETE,
	NFS4_REC_DONE,
	NFS4_REC_FAILED,
};

/* What the reclaim hook is told. */
enum nfs4_reclaim_kind {
	NFS4_RECLAIM_GRACE,  /* a new client id: reclaim (CLAIM_PREVIOUS,
			      * reclaim LOCKs) while the server's grace
			      * period lasts */
	NFS4_RECLAIM_LOST,   /* the lease expired or the server revoked the
			      * state: it is gone, its files answer EIO */
	NFS4_RECLAIM_DELEGS, /* the server revoked delegations only: they
			      * go back, the opens and locks stand */
};

struct nfs4_rec {
	enum nfs4_rec_step step;
	bool new_client;      /* EXCHANGE_ID was sent */
	bool expired;         /* the lease expired: nothing to reclaim */
	unsigned waits;       /* consecutive steps that asked for a wait */
	unsigned restarts;    /* sessions lost again during this recovery */
};

/* A recovery for need (NFS4_REC_SESSION or NFS4_REC_CLIENT); expired:
 * it started from NFS4ERR_EXPIRED. */
void nfs4_rec_begin(struct nfs4_rec *r, enum nfs4_rec_action need,
		    bool expired);
/* The current step ended: err is its transport error (0: a reply), st
 * the status of the step's operation (ignored for NFS4_REC_RECLAIM).
 * Returns the next step; r->waits > 0 when it should wait first. */
enum nfs4_rec_step nfs4_rec_next(struct nfs4_rec *r, int err, uint32_t st);
/* The wait before a step retried after waits waits: 100 ms doubling up
 * to 2 s (microseconds). */
uint64_t nfs4_rec_backoff_us(unsigned waits);
/* The reclaim hook's kind for this recovery. */
enum nfs4_reclaim_kind nfs4_rec_kind(const struct nfs4_rec *r);

/* What the answer st to a reclaim of a lock (LOCK reclaim=true) or of a
 * lock open (OPEN CLAIM_PREVIOUS) means; reclaim: it was sent as a reclaim
 * (else as an ordinary LOCK or OPEN); lapsed: the lease ran out before
 * the recovery. */
enum nfs4_lkrec_verdict {
	NFS4_LKREC_HELD,        /* granted: held again */
	NFS4_LKREC_AS_NEW,      /* no grace period, and the lease held: ask
				 * again as an ordinary LOCK (OPEN CLAIM_FH) */
	NFS4_LKREC_LOST,        /* refused, or no grace after the lease ran
				 * out (another client may have had it) */
};
enum nfs4_lkrec_verdict nfs4_rec_lock_verdict(uint32_t st, bool reclaim,
					      bool lapsed);
/* A short hash of a file handle that names a file in log lines. */
uint32_t nfs4_rec_fh_hash(const uint8_t *fh, uint32_t len);

#endif
