/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "nfs4_cb.h"

/* What we ask for in CREATE_SESSION; the server may grant less. */
#define NFS4_WANT_SLOTS 64u
#define NFS4_WANT_MSG (1u << 20) + (64u << 10)
/* NFS4ERR_DELAY on SEQUENCE: wait this long before trying again. */
#define NFS4_DELAY_NS (100 * 1000 * 1000L)

/* Operations of a COMPOUND remembered to tell whether those before a
 * failed one had effects (nfs4_rec_op_pure); longer ones never wait. */
#define NFS4_REQ_OPS 16u
/* RETRY_UNCACHED_REP answers in a row before a call gives up. */
#define NFS4_MAX_UNCACHED 8u
/* A failed recovery is tried again this long after. */
#define NFS4_RETRY_RECOVERY_US (5u * 1000 * 1000)

/* One COMPOUND in flight: what the RPC encoder and decoder share. */
struct nfs4_req {
	struct nfs4_session *s;
	bool sequence;           /* starts with SEQUENCE (all but set-up) */
	bool cachethis;          /* ask the server to keep the reply */
	bool resendable;         /* async: build may run again */
	bool async;
	bool retried;            /* a SEQ_MISORDERED retry was made */
	unsigned uncached;       /* RETRY_UNCACHED_REP answers so far */
	unsigned flags;          /* NFS4_CALL_* */
	nfs4_build_fn build;
	nfs4_parse_fn parse;
	void *ctx;
	uint32_t slotid, seqid;
	uint32_t gen;            /* the session the slot was taken from */
	struct nfs4_sequence_res seq;
	uint32_t status;         /* the COMPOUND's */
	bool parsed;             /* SEQUENCE succeeded and parse ran */
	enum nfs4_rec_action action; /* what the reply asks */
	unsigned waits;          /* DELAY/GRACE waits so far */
	uint64_t wait_us;        /* before sending again */
	uint32_t nops;
	uint32_t ops[NFS4_REQ_OPS];
	/* asynchronous calls */
	nfs4_done_fn done;
	void *done_ctx;
	struct rpc_cred cred;
	uint64_t due_us;         /* parked: send again from then */
	struct nfs4_req *next;   /* parked list, or the slot queue */
};

static int enc_compound(struct xdr_enc *e, const void *arg)
{
	struct nfs4_req *q = (struct nfs4_req *)arg;
	struct nfs4_session *s = q->s;
	struct nfs4_compound cmp;
	int ret;

	nfs4_compound_start(&cmp, e, "", s->minor);
	if (q->sequence) {
		struct nfs4_sequence_args sa = {
			.sequenceid = q->seqid,
			.slotid = q->slotid,
			.cachethis = q->cachethis,
		};

		/* The session id changes during a recovery. */
		pthread_mutex_lock(&s->lock);
		memcpy(sa.sessionid, s->sessionid, NFS4_SESSIONID_SIZE);
		sa.highest_slotid = nfs4_slots_highest(&s->slots);
		pthread_mutex_unlock(&s->lock);
		nfs4_add_sequence(&cmp, &sa);
	}
	ret = q->build(&cmp, q->ctx);
	if (ret)
		return ret;
	q->nops = cmp.nops;
	for (uint32_t i = 0; i < cmp.nops && i < NFS4_REQ_OPS; i++)
		q->ops[i] = cmp.ops[i];
	for (uint32_t i = 0; i < cmp.nops; i++)
		if (cmp.ops[i] < NFS4_OPS_COUNTED)
			__atomic_fetch_add(&s->ops[cmp.ops[i]], 1,
					   __ATOMIC_RELAXED);
	return xdr_enc_error(e);
}

/* Did the operations before the failed one (the last result) change
 * nothing, so that the COMPOUND may go again? */
static bool pure_prefix(const struct nfs4_req *q, uint32_t nres)
{
	if (nres == 0 || q->nops > NFS4_REQ_OPS || nres > q->nops)
		return false;
	for (uint32_t i = 0; i + 1 < nres; i++)
		if (!nfs4_rec_op_pure(q->ops[i]))
			return false;
	return true;
}

/* The trace's line for a COMPOUND's reply: its operations, and the one
 * that failed.  The RPC's own line says only "COMPOUND". */
static void trace_compound(const struct nfs4_req *q,
			   const struct nfs4_compound_res *r)
{
	char ops[16 * NFS4_REQ_OPS] = "";
	size_t n = 0;
	uint32_t nops = q->nops < NFS4_REQ_OPS ? q->nops : NFS4_REQ_OPS;
	const char *st = nfs4_stat_name(r->status), *at;

	for (uint32_t i = 0; i < nops && n < sizeof(ops); i++) {
		const char *name = nfs4_op_name(q->ops[i]);
		int k = snprintf(ops + n, sizeof(ops) - n, "%s%s",
				 i ? " " : "", name ? name : "?");

		if (k > 0)
			n += (size_t)k;
	}
	if (r->status == NFS4_OK || r->nres == 0 || r->nres > nops) {
		trace_line("compound %s: %s", ops, st ? st : "?");
		return;
	}
	at = nfs4_op_name(q->ops[r->nres - 1]);
	trace_line("compound %s: %s at %s", ops, st ? st : "?", at ? at : "?");
}

static int dec_compound(struct xdr_dec *d, void *arg)
{
	struct nfs4_req *q = arg;
	struct nfs4_compound_res r;
	int ret;

	q->parsed = false;
	q->action = NFS4_REC_NONE;
	if (nfs4_dec_compound_res(d, &r))
		return -EBADMSG;
	q->status = r.status;
	if (trace_active())
		trace_compound(q, &r);
	if (q->sequence) {
		ret = nfs4_compound_next(&r, NFS4OP_SEQUENCE, &q->seq);
		if (ret == -ENODATA) {
			/* No result at all (e.g. MINOR_VERS_MISMATCH): the
			 * compound's status says why. */
			q->seq.status = r.status ? r.status : NFS4ERR_SERVERFAULT;
			return 0;
		}
		if (ret)
			return ret;
		q->action = nfs4_rec_classify(q->seq.status, r.status,
					      pure_prefix(q, r.nres));
		if (q->seq.status != NFS4_OK)
			return 0;
		/* A call that cannot go again takes the reply as it is. */
		if (q->async && !q->resendable)
			q->action = NFS4_REC_NONE;
		if (q->action != NFS4_REC_NONE)
			return 0;
	}
	ret = q->parse(&r, q->ctx);
	if (ret)
		return ret;
	q->parsed = true;
	return 0;
}

/* ---- slots ---- */

/* Gives q's slot back, unless a recovery replaced the table it came
 * from.  Lock held. */
static void put_slot_locked(struct nfs4_session *s, struct nfs4_req *q,
			    bool advance, uint32_t target)
{
	if (q->gen == s->gen)
		nfs4_slots_release(&s->slots, q->slotid, advance, target);
	pthread_cond_broadcast(&s->slot_free);
	if (s->parked || s->slotq)
		pthread_cond_signal(&s->renew_wake);
}

static void put_slot(struct nfs4_session *s, struct nfs4_req *q, bool advance)
{
	pthread_mutex_lock(&s->lock);
	put_slot_locked(s, q, advance, UINT32_MAX);
	pthread_mutex_unlock(&s->lock);
}

/* Waits for *interrupted or at most 100 ms on cond (lock held). */
static int wait_tick(struct nfs4_session *s, pthread_cond_t *cond,
		     volatile int *interrupted)
{
	struct timespec ts = clock_mono_deadline(100 * 1000 * 1000L);

	if (interrupted && *interrupted)
		return -EINTR;
	pthread_cond_timedwait(cond, &s->lock, &ts);
	return interrupted && *interrupted ? -EINTR : 0;
}

/* A free slot; ordinary calls first wait for a recovery to end.  With
 * nowait, for a call that must not wait, -EAGAIN instead of either wait,
 * and behind calls queued for a slot already (they go first). */
static int take_slot(struct nfs4_session *s, struct nfs4_req *q,
		     volatile int *interrupted, bool nowait)
{
	bool own = q->flags & NFS4_CALL_RECOVERY;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		if (!own && (s->broken || s->stop)) {
			ret = -EIO;
			break;
		}
		if (nowait && s->slotq) {
			ret = -EAGAIN;
			break;
		}
		if (!own && (s->recovering || s->need != NFS4_REC_NONE)) {
			ret = nowait ? -EAGAIN
				     : wait_tick(s, &s->recovered, interrupted);
			if (ret)
				break;
			continue;
		}
		if (nfs4_slots_take(&s->slots, &q->slotid, &q->seqid) == 0) {
			q->gen = s->gen;
			break;
		}
		ret = nowait ? -EAGAIN
			     : wait_tick(s, &s->slot_free, interrupted);
		if (ret)
			break;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Asks the renewal thread for a recovery (lock held). */
static void ask_recovery_locked(struct nfs4_session *s, struct nfs4_req *q)
{
	/* A recovery since, or one that will make a new session: the call
	 * only waits for it, then goes again. */
	if (q->gen != s->gen || s->new_session)
		return;
	if (q->action > s->need)
		s->need = q->action;
	if (q->seq.status == NFS4ERR_EXPIRED)
		s->need_expired = true;
	pthread_cond_signal(&s->renew_wake);
}

/* Until the recovery asked for after session gen ended: 0 when the new
 * session is there, -EIO when it failed or the mount stops. */
static int await_recovery(struct nfs4_session *s, uint32_t gen,
			  volatile int *interrupted)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && !s->broken &&
	       (s->gen == gen || s->recovering || s->need != NFS4_REC_NONE)) {
		ret = wait_tick(s, &s->recovered, interrupted);
		if (ret)
			break;
	}
	if (!ret && (s->stop || s->broken))
		ret = -EIO;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static int sleep_us(uint64_t us, volatile int *interrupted)
{
	while (us > 0) {
		uint64_t step = us < 100000 ? us : 100000;
		struct timespec ts = { 0, (long)step * 1000 };

		if (interrupted && *interrupted)
			return -EINTR;
		nanosleep(&ts, NULL);
		us -= step;
	}
	return interrupted && *interrupted ? -EINTR : 0;
}

static void seq_flags(struct nfs4_session *s, uint32_t flags)
{
	static const struct {
		uint32_t bit;
		const char *what;
	} names[] = {
		{ NFS4_SEQ4_STATUS_CB_PATH_DOWN, "the backchannel is down" },
		{ NFS4_SEQ4_STATUS_CB_PATH_DOWN_SESSION,
		  "the session's backchannel is down" },
		{ NFS4_SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED,
		  "the lease expired: all state revoked" },
		{ NFS4_SEQ4_STATUS_EXPIRED_SOME_STATE_REVOKED,
		  "the lease expired: some state revoked" },
		{ NFS4_SEQ4_STATUS_ADMIN_STATE_REVOKED,
		  "state revoked by the administrator" },
		{ NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED,
		  "delegations revoked" },
		{ NFS4_SEQ4_STATUS_RESTART_RECLAIM_NEEDED,
		  "the server asks for state to be reclaimed" },
		{ NFS4_SEQ4_STATUS_BACKCHANNEL_FAULT, "backchannel fault" },
	};
	const uint32_t act = NFS4_SEQ4_STATUS_RESTART_RECLAIM_NEEDED |
			     NFS4_SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED |
			     NFS4_SEQ4_STATUS_EXPIRED_SOME_STATE_REVOKED |
			     NFS4_SEQ4_STATUS_ADMIN_STATE_REVOKED |
			     NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED;
	uint32_t was, fresh;

	pthread_mutex_lock(&s->lock);
	was = s->status_flags;
	s->status_flags = flags;
	fresh = flags & ~was;
	if (fresh & act) {
		/* The renewal thread reclaims, or tells the state lost. */
		s->need_flags |= fresh & act;
		pthread_cond_signal(&s->renew_wake);
	}
	pthread_mutex_unlock(&s->lock);
	/* Each condition is logged when it appears, not at every reply. */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fresh & names[i].bit)
			nf_log(NF_LOG_WARNING, "NFSv4 session: %s",
			       names[i].what);
	if ((fresh & (NFS4_SEQ4_STATUS_CB_PATH_DOWN |
		      NFS4_SEQ4_STATUS_CB_PATH_DOWN_SESSION)) &&
	    s->have_session) {
		/* The server lost our backchannel: offer this connection
		 * again.  Asynchronous: we may be on the transport thread. */
		nfs4_cb_rebind(s);
	}
}

/* What the caller does after finish_slot(). */
enum fin {
	FIN_DONE,     /* *err is the result */
	FIN_SLOT,     /* again on the same slot (still held), after wait_us */
	FIN_AGAIN,    /* again as a new call (slot given back), after wait_us */
	FIN_RECOVER,  /* again once the recovery ended (slot given back) */
};

/*
 * After a reply (*err 0) or a failure: the slot goes back, advanced when
 * the server may have executed the call, or is kept for a retry on it.
 */
static enum fin finish_slot(struct nfs4_session *s, struct nfs4_req *q,
			    int *err)
{
	uint32_t st = q->seq.status;
	enum fin f = FIN_DONE;

	q->wait_us = 0;
	if (!q->sequence)
		return FIN_DONE;
	pthread_mutex_lock(&s->lock);
	if (*err) {
		/* No reply: the server may have executed it. */
		put_slot_locked(s, q, true, UINT32_MAX);
		pthread_mutex_unlock(&s->lock);
		return FIN_DONE;
	}
	if (st == NFS4_OK)
		s->renewed_us = s->lease_ok_us = clock_mono_us();
	switch (q->action) {
	case NFS4_REC_NONE:
		if (st == NFS4_OK) {
			put_slot_locked(s, q, true,
					q->seq.target_highest_slotid);
			break;
		}
		if (st == NFS4ERR_SEQ_MISORDERED && !q->retried &&
		    q->gen == s->gen) {
			/* A request we gave up on never reached the server. */
			q->retried = true;
			nfs4_slots_misordered(&s->slots, q->slotid, &q->seqid);
			f = FIN_SLOT;
			break;
		}
		put_slot_locked(s, q, false, UINT32_MAX);
		*err = -EIO;
		break;
	case NFS4_REC_SLOT_LATER:
		q->wait_us = NFS4_DELAY_NS / 1000;
		f = FIN_SLOT;
		break;
	case NFS4_REC_RESEND_NEW:
		/* A retransmission (after a reconnection) of a call the
		 * server executed without keeping its reply: the calls that
		 * may be repeated go again as new ones, on the next sequence
		 * id; those asked with cachethis never get here. */
		if (q->uncached++ < NFS4_MAX_UNCACHED && q->gen == s->gen) {
			s->slots.seqid[q->slotid]++;
			q->seqid = s->slots.seqid[q->slotid];
			f = FIN_SLOT;
			break;
		}
		put_slot_locked(s, q, true, UINT32_MAX);
		*err = -EIO;
		break;
	case NFS4_REC_LATER:
		/* SEQUENCE succeeded: the slot moves on. */
		put_slot_locked(s, q, true, q->seq.target_highest_slotid);
		q->wait_us = nfs4_rec_backoff_us(++q->waits);
		STAT_INC(nfs4_delay_waits);
		f = FIN_AGAIN;
		break;
	case NFS4_REC_SESSION:
	case NFS4_REC_CLIENT:
		put_slot_locked(s, q, st == NFS4_OK, UINT32_MAX);
		ask_recovery_locked(s, q);
		f = FIN_RECOVER;
		break;
	}
	pthread_mutex_unlock(&s->lock);
	if (st == NFS4_OK && f != FIN_RECOVER)
		seq_flags(s, q->seq.status_flags);
	if (f == FIN_DONE && *err)
		nf_log(NF_LOG_WARNING, "NFSv4 SEQUENCE failed: %s (%u)",
		       nfs4_stat_name(st) ? nfs4_stat_name(st) : "unknown",
		       st);
	return f;
}

int nfs4_session_call(struct nfs4_session *s, const struct rpc_cred *cred,
		      unsigned flags, nfs4_build_fn build, nfs4_parse_fn parse,
		      void *ctx, struct rpc_reply *reply,
		      volatile int *interrupted)
{
	struct nfs4_req q = { .s = s, .sequence = true, .build = build,
			      .parse = parse, .ctx = ctx, .flags = flags,
			      .cachethis = (flags & NFS4_CALL_CACHETHIS) &&
					   s->max_resp_cached >= 2048 };
	enum fin f = FIN_DONE;
	int ret;

	/* A call with no flag of its own (state operations, teardown)
	 * still ends when the time given to the teardown is up, even if
	 * it began before the teardown did. */
	if (!interrupted)
		interrupted = &s->teardown_over;
	for (;;) {
		ret = take_slot(s, &q, interrupted, false);
		if (ret)
			return ret;
		do {
			q.seq.status = NFS4_OK;
			q.action = NFS4_REC_NONE;
			ret = rpc_clnt_call(s->rpc, NFS4_PROC_COMPOUND, cred,
					    enc_compound, &q, dec_compound, &q,
					    reply, interrupted);
			f = finish_slot(s, &q, &ret);
			if (f == FIN_DONE)
				goto out;
			if (reply)
				rpc_reply_release(reply);
			ret = sleep_us(q.wait_us, interrupted);
			if (ret) {
				if (f == FIN_SLOT)
					put_slot(s, &q, false);
				return ret;
			}
		} while (f == FIN_SLOT);
		if (f == FIN_RECOVER) {
			/* The recovery's own calls cannot wait for it. */
			if (flags & NFS4_CALL_RECOVERY)
				return -EIO;
			ret = await_recovery(s, q.gen, interrupted);
			if (ret)
				return ret;
			STAT_INC(nfs4_calls_resent);
		}
	}
out:
	if (ret == 0 && !q.parsed)
		ret = -EIO;
	if (ret && reply)
		rpc_reply_release(reply);
	return ret;
}

/* An asynchronous call to send again from the renewal thread at due. */
static void park(struct nfs4_session *s, struct nfs4_req *q, uint64_t due)
{
	struct nfs4_req **p;

	q->due_us = due;
	q->next = NULL;
	pthread_mutex_lock(&s->lock);
	for (p = &s->parked; *p; p = &(*p)->next)
		;
	*p = q;
	pthread_cond_signal(&s->renew_wake);
	pthread_mutex_unlock(&s->lock);
}

static void async_done(void *ctx, int err, struct xdr_dec *results,
		       struct rpc_reply *reply)
{
	struct nfs4_req *q = ctx;
	enum fin f;

	if (err == 0 && dec_compound(results, q))
		err = -EIO;
	if (!q->resendable)
		q->retried = true; /* the arguments are gone: no retry */
	f = finish_slot(q->s, q, &err);
	if (f == FIN_SLOT && q->wait_us == 0 && q->resendable) {
		/* Again on the same slot, from the transport thread. */
		rpc_reply_release(reply);
		q->seq.status = NFS4_OK;
		if (rpc_clnt_call_async(q->s->rpc, NFS4_PROC_COMPOUND, &q->cred,
					enc_compound, q, async_done, q) == 0)
			return;
		put_slot(q->s, q, false);
		err = -EIO;
		f = FIN_DONE;
	}
	if (f != FIN_DONE) {
		if (f == FIN_SLOT)
			put_slot(q->s, q, false);
		if (q->resendable) {
			/* The transport thread must not wait: the renewal
			 * thread sends it again after the wait or the
			 * recovery. */
			rpc_reply_release(reply);
			park(q->s, q, clock_mono_us() + q->wait_us);
			return;
		}
		err = f == FIN_RECOVER ? -EIO : -EAGAIN;
	}
	if (err == 0 && !q->parsed)
		err = -EIO;
	if (err)
		rpc_reply_release(reply);
	q->done(q->done_ctx, err, reply);
	free(q);
}

/* A call that must not wait for a slot joins the slot queue's end. */
static void slotq_add(struct nfs4_session *s, struct nfs4_req *q)
{
	q->next = NULL;
	pthread_mutex_lock(&s->lock);
	if (!s->slotq)
		s->slotq_tail = &s->slotq;
	*s->slotq_tail = q;
	s->slotq_tail = &q->next;
	pthread_cond_signal(&s->renew_wake);
	pthread_mutex_unlock(&s->lock);
}

/* The slot queue, emptied (lock held): to fail. */
static struct nfs4_req *slotq_take_all(struct nfs4_session *s)
{
	struct nfs4_req *list = s->slotq;

	s->slotq = NULL;
	s->slotq_tail = &s->slotq;
	return list;
}

/* A parked call goes again, or a queued one goes with the slot taken for
 * it (renewal thread, lock not held). */
static void resend_parked(struct nfs4_session *s, struct nfs4_req *q)
{
	q->seq.status = NFS4_OK;
	q->action = NFS4_REC_NONE;
	q->retried = false;
	if (rpc_clnt_call_async(s->rpc, NFS4_PROC_COMPOUND, &q->cred,
				enc_compound, q, async_done, q) == 0)
		return;
	put_slot(s, q, false);
	q->done(q->done_ctx, -EIO, &(struct rpc_reply){ NULL, 0 });
	free(q);
}

static void fail_parked(struct nfs4_req *list)
{
	while (list) {
		struct nfs4_req *q = list;

		list = q->next;
		q->done(q->done_ctx, -EIO, &(struct rpc_reply){ NULL, 0 });
		free(q);
	}
}

int nfs4_session_call_async(struct nfs4_session *s,
			    const struct rpc_cred *cred, unsigned flags,
			    nfs4_build_fn build, nfs4_parse_fn parse, void *ctx,
			    nfs4_done_fn done, void *done_ctx)
{
	struct nfs4_req *q = calloc(1, sizeof(*q));
	int ret;

	if (!q)
		return -ENOMEM;
	*q = (struct nfs4_req){ .s = s, .sequence = true, .build = build,
				.parse = parse, .ctx = ctx, .done = done,
				.done_ctx = done_ctx, .async = true,
				.flags = flags,
				.cachethis = (flags & NFS4_CALL_CACHETHIS) &&
					     s->max_resp_cached >= 2048,
				.resendable = flags & NFS4_CALL_RESENDABLE };
	if (cred)
		q->cred = *cred;
	ret = take_slot(s, q, NULL, true);
	if (ret == -EAGAIN) {
		/* Never a wait for a slot here: only the transport thread
		 * gives slots back, as it reads replies and runs their
		 * callbacks, and the caller may hold a lock that one of
		 * them takes (the write-back's, sending a WRITE).  The
		 * renewal thread sends it once one comes back. */
		STAT_INC(nfs4_calls_queued);
		slotq_add(s, q);
		return 0;
	}
	if (ret) {
		free(q);
		return ret;
	}
	ret = rpc_clnt_call_async(s->rpc, NFS4_PROC_COMPOUND, cred,
				  enc_compound, q, async_done, q);
	if (ret) {
		/* Never sent: the slot's sequence id stays. */
		put_slot(s, q, false);
		free(q);
	}
	return ret;
}

/* A COMPOUND without SEQUENCE (EXCHANGE_ID, CREATE_SESSION, the
 * DESTROYs): 0 with q.status, or a negative errno. */
static int call_plain(struct nfs4_session *s, nfs4_build_fn build,
		      nfs4_parse_fn parse, void *ctx, uint32_t *status)
{
	struct nfs4_req q = { .s = s, .sequence = false, .build = build,
			      .parse = parse, .ctx = ctx };
	/* After the unmount (the DESTROYs), bounded by the teardown. */
	volatile int *stop = __atomic_load_n(&s->teardown, __ATOMIC_ACQUIRE)
				     ? &s->teardown_over
				     : &s->stopping;
	int ret = rpc_clnt_call(s->rpc, NFS4_PROC_COMPOUND, &s->cred,
				enc_compound, &q, dec_compound, &q, NULL,
				stop);

	*status = q.status;
	return ret;
}

/* ---- set-up and tear-down ---- */

struct exid_ctx {
	struct nfs4_session *s;
	struct nfs4_exchange_id_res res;
};

static int build_exid(struct nfs4_compound *cmp, void *ctx)
{
	struct exid_ctx *x = ctx;
	struct nfs4_exchange_id_args a = {
		.ownerid = (const uint8_t *)x->s->owner,
		.ownerid_len = (uint32_t)strlen(x->s->owner),
		.flags = NFS4_EXCHGID_FLAG_USE_NON_PNFS |
			 NFS4_EXCHGID_FLAG_SUPP_MOVED_REFER,
		.has_impl_id = true,
		.impl_id = { .domain = nfs4_str("nfsfuse.invalid"),
			     .name = nfs4_str("nfsfuse") },
	};

	memcpy(a.verifier, x->s->verifier, NFS4_VERIFIER_SIZE);
	return nfs4_add_exchange_id(cmp, &a);
}

static int parse_exid(struct nfs4_compound_res *r, void *ctx)
{
	struct exid_ctx *x = ctx;
	int ret = nfs4_compound_next(r, NFS4OP_EXCHANGE_ID, &x->res);

	if (ret == -ENODATA) {
		x->res.status = r->status;
		return 0;
	}
	return ret;
}

struct cs_ctx {
	struct nfs4_session *s;
	uint32_t sequenceid;
	struct nfs4_create_session_res res;
};

static int build_cs(struct nfs4_compound *cmp, void *ctx)
{
	struct cs_ctx *x = ctx;
	struct nfs4_session *s = x->s;
	struct nfs4_create_session_args a = {
		.clientid = s->clientid,
		.sequenceid = x->sequenceid,
		.flags = NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN,
		.fore = { .maxrequestsize = NFS4_WANT_MSG,
			  .maxresponsesize = NFS4_WANT_MSG,
			  .maxresponsesize_cached = 8192,
			  .maxoperations = NFS4_MAXOPS,
			  .maxrequests = NFS4_WANT_SLOTS },
		.back = { .maxrequestsize = 16384,
			  .maxresponsesize = 16384,
			  .maxresponsesize_cached = 0,
			  .maxoperations = 8,
			  .maxrequests = 1 },
		.cb_program = NFS4_CB_PROGRAM,
		.nsec = 1,
		.sec = { { .flavor = RPC_AUTH_NONE } },
	};

	return nfs4_add_create_session(cmp, &a);
}

static int parse_cs(struct nfs4_compound_res *r, void *ctx)
{
	struct cs_ctx *x = ctx;
	int ret = nfs4_compound_next(r, NFS4OP_CREATE_SESSION, &x->res);

	if (ret == -ENODATA) {
		x->res.status = r->status;
		return 0;
	}
	return ret;
}

struct simple_ctx {
	struct nfs4_session *s;
	uint32_t op;
	struct nfs4_status_res res;
	struct nfs4_getattr_res attr; /* lease time */
};

static int build_simple(struct nfs4_compound *cmp, void *ctx)
{
	struct simple_ctx *x = ctx;
	struct nfs4_reclaim_complete_args rc = { .one_fs = false };
	struct nfs4_destroy_session_args ds;
	struct nfs4_destroy_clientid_args dc = { .clientid = x->s->clientid };
	struct nfs4_getattr_args ga = { { { 0 } } };

	switch (x->op) {
	case NFS4OP_RECLAIM_COMPLETE:
		return nfs4_add_reclaim_complete(cmp, &rc);
	case NFS4OP_DESTROY_SESSION:
		memcpy(ds.sessionid, x->s->sessionid, NFS4_SESSIONID_SIZE);
		return nfs4_add_destroy_session(cmp, &ds);
	case NFS4OP_DESTROY_CLIENTID:
		return nfs4_add_destroy_clientid(cmp, &dc);
	case NFS4OP_GETATTR: /* the lease time, from the pseudo root */
		nfs4_bitmap_set(&ga.request, NFS4_FATTR_LEASE_TIME);
		nfs4_add_putrootfh(cmp);
		return nfs4_add_getattr(cmp, &ga);
	case NFS4OP_SEQUENCE: /* renewal: the SEQUENCE alone */
		return 0;
	}
	return -EINVAL;
}

static int parse_simple(struct nfs4_compound_res *r, void *ctx)
{
	struct simple_ctx *x = ctx;
	int ret;

	x->res.status = r->status;
	switch (x->op) {
	case NFS4OP_SEQUENCE:
		return 0;
	case NFS4OP_GETATTR:
		ret = nfs4_compound_next(r, NFS4OP_PUTROOTFH, &x->res);
		if (ret == 0 && x->res.status == NFS4_OK)
			ret = nfs4_compound_next(r, NFS4OP_GETATTR, &x->attr);
		break;
	default:
		ret = nfs4_compound_next(r, x->op, &x->res);
	}
	return ret == -ENODATA ? 0 : ret;
}

static const char *stat_str(uint32_t st)
{
	const char *n = nfs4_stat_name(st);

	return n ? n : "unknown status";
}

/* EXCHANGE_ID: 0 with *st (the client id taken when NFS4_OK), or the
 * transport's error. */
static int exchange_id(struct nfs4_session *s, uint32_t *st)
{
	struct exid_ctx x = { .s = s };
	uint32_t cst;
	int ret = call_plain(s, build_exid, parse_exid, &x, &cst);

	if (ret)
		return ret;
	*st = cst == NFS4ERR_MINOR_VERS_MISMATCH ? cst : x.res.status;
	if (*st != NFS4_OK)
		return 0;
	if (s->have_client)
		nf_log(NF_LOG_INFO, "NFSv4 client id %s%s",
		       x.res.clientid == s->clientid ? "kept" : "new",
		       x.res.flags & NFS4_EXCHGID_FLAG_CONFIRMED_R
		       ? " (the server still knew it)" : "");
	s->clientid = x.res.clientid;
	s->create_seq = x.res.sequenceid;
	s->have_client = true;
	return 0;
}

/* CREATE_SESSION on the client id: 0 with *st (the session in place,
 * its slots fresh, when NFS4_OK), or the transport's error. */
static int create_session(struct nfs4_session *s, uint32_t *st)
{
	struct cs_ctx x = { .s = s, .sequenceid = s->create_seq };
	uint32_t cst;
	int ret = call_plain(s, build_cs, parse_cs, &x, &cst);

	if (ret)
		return ret;
	*st = x.res.status;
	if (*st != NFS4_OK)
		return 0;
	/* RFC 8881 §18.36.3: the next CREATE_SESSION of this client id
	 * sends the next sequence id. */
	s->create_seq++;
	s->max_req = x.res.fore.maxrequestsize;
	s->max_resp = x.res.fore.maxresponsesize;
	s->max_resp_cached = x.res.fore.maxresponsesize_cached;
	pthread_mutex_lock(&s->lock);
	memcpy(s->sessionid, x.res.sessionid, NFS4_SESSIONID_SIZE);
	nfs4_slots_init(&s->slots, x.res.fore.maxrequests);
	s->gen++;
	s->cb_seqid = 0;
	s->status_flags = 0;
	s->lease_ok_us = clock_mono_us();
	pthread_cond_broadcast(&s->slot_free);
	pthread_mutex_unlock(&s->lock);
	s->have_session = true;
	nf_log(NF_LOG_INFO, "NFSv4.%u session: %u slots, requests up to %u "
	       "bytes, replies up to %u (kept up to %u)%s", s->minor,
	       s->slots.n, s->max_req, s->max_resp, s->max_resp_cached,
	       x.res.flags & NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN
	       ? ", backchannel on this connection" : ", no backchannel");
	return 0;
}

static int simple(struct nfs4_session *s, uint32_t op, bool sequence,
		  unsigned flags, struct simple_ctx *x)
{
	uint32_t st;
	int ret;

	*x = (struct simple_ctx){ .s = s, .op = op };
	if (!sequence) {
		ret = call_plain(s, build_simple, parse_simple, x, &st);
		if (ret == 0 && x->res.status == NFS4_OK)
			x->res.status = st;
		return ret;
	}
	return nfs4_session_call(s, &s->cred, flags, build_simple,
				 parse_simple, x, NULL,
				 (flags & NFS4_CALL_RECOVERY) ? &s->stopping
							      : NULL);
}

/* ---- recovery (renewal thread) ---- */

static const char *rec_step_name(enum nfs4_rec_step st)
{
	switch (st) {
	case NFS4_REC_EXCHANGE_ID: return "EXCHANGE_ID";
	case NFS4_REC_CREATE_SESSION: return "CREATE_SESSION";
	case NFS4_REC_RECLAIM: return "reclaim";
	case NFS4_REC_RECLAIM_COMPLETE: return "RECLAIM_COMPLETE";
	case NFS4_REC_DONE: return "done";
	case NFS4_REC_FAILED: return "failed";
	}
	return "?";
}

static void run_reclaim(struct nfs4_session *s, enum nfs4_reclaim_kind kind)
{
	nfs4_reclaim_fn fn;
	void *ctx;

	pthread_mutex_lock(&s->lock);
	fn = s->reclaim;
	ctx = s->reclaim_ctx;
	pthread_mutex_unlock(&s->lock);
	if (kind == NFS4_RECLAIM_LOST)
		nf_log(NF_LOG_WARNING, "NFSv4 recovery: the server no longer "
		       "holds this client's open and lock state (lease "
		       "expired or revoked): files that held it answer EIO "
		       "until opened again");
	TRACE("nfs4 recovery: reclaim hook (%s)",
	      kind == NFS4_RECLAIM_GRACE    ? "reclaim in grace"
	      : kind == NFS4_RECLAIM_DELEGS ? "delegations revoked"
					    : "state lost");
	if (fn)
		fn(ctx, s, kind);
}

/* One recovery: true when the new session is in place. */
static bool recover(struct nfs4_session *s, enum nfs4_rec_action need,
		    bool expired)
{
	struct nfs4_rec r;
	uint64_t t0 = clock_mono_us();

	nfs4_rec_begin(&r, need, expired);
	pthread_mutex_lock(&s->lock);
	s->lease_lapsed = s->lease_s && t0 - s->lease_ok_us >
					(uint64_t)s->lease_s * 1000000u;
	pthread_mutex_unlock(&s->lock);
	STAT_INC(nfs4_recoveries);
	nf_log(NF_LOG_WARNING, "NFSv4 recovery: the server lost this "
	       "client's %s; %s", need == NFS4_REC_CLIENT ? "client id"
	       : "session", need == NFS4_REC_CLIENT ?
	       "a new client id and session" : "a new session");
	while (r.step != NFS4_REC_DONE && r.step != NFS4_REC_FAILED) {
		enum nfs4_rec_step step = r.step;
		struct simple_ctx x;
		uint32_t st = NFS4_OK;
		int err = 0;

		if (r.waits && sleep_us(nfs4_rec_backoff_us(r.waits),
					&s->stopping))
			return false;
		if (s->stopping)
			return false;
		switch (step) {
		case NFS4_REC_EXCHANGE_ID:
			err = exchange_id(s, &st);
			if (!err && st == NFS4_OK)
				STAT_INC(nfs4_clientid_recoveries);
			break;
		case NFS4_REC_CREATE_SESSION:
			err = create_session(s, &st);
			break;
		case NFS4_REC_RECLAIM:
			run_reclaim(s, nfs4_rec_kind(&r));
			break;
		case NFS4_REC_RECLAIM_COMPLETE:
			err = simple(s, NFS4OP_RECLAIM_COMPLETE, true,
				     NFS4_CALL_RECOVERY, &x);
			st = x.res.status;
			if (err == -EIO && s->need != NFS4_REC_NONE) {
				/* The new session was lost again. */
				err = 0;
				st = s->need == NFS4_REC_CLIENT
					     ? NFS4ERR_STALE_CLIENTID
					     : NFS4ERR_BADSESSION;
				pthread_mutex_lock(&s->lock);
				s->need = NFS4_REC_NONE;
				pthread_mutex_unlock(&s->lock);
			}
			break;
		default:
			break;
		}
		nfs4_rec_next(&r, err, st);
		TRACE("nfs4 recovery: %s: %s%s -> %s", rec_step_name(step),
		      err ? strerror(-err) : stat_str(st),
		      r.waits ? " (again later)" : "", rec_step_name(r.step));
		if (r.step == NFS4_REC_FAILED)
			nf_log(NF_LOG_ERR, "NFSv4 recovery failed at %s: %s",
			       rec_step_name(step),
			       err ? strerror(-err) : stat_str(st));
	}
	if (r.step == NFS4_REC_DONE)
		nf_log(NF_LOG_WARNING, "NFSv4 recovery done in %llu ms",
		       (unsigned long long)(clock_mono_us() - t0) / 1000);
	return r.step == NFS4_REC_DONE;
}

/* What the SEQUENCE flags asked: reclaim on the same client id, or
 * state lost; then RECLAIM_COMPLETE after a reclaim. */
static void act_on_flags(struct nfs4_session *s, uint32_t flags)
{
	struct simple_ctx x;

	if (flags & NFS4_SEQ4_STATUS_RESTART_RECLAIM_NEEDED) {
		run_reclaim(s, NFS4_RECLAIM_GRACE);
		simple(s, NFS4OP_RECLAIM_COMPLETE, true, NFS4_CALL_RECOVERY,
		       &x);
	}
	/* Revoked delegations alone leave every open and lock standing. */
	if (flags & ~(NFS4_SEQ4_STATUS_RESTART_RECLAIM_NEEDED |
		      NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED))
		run_reclaim(s, NFS4_RECLAIM_LOST);
	else if (flags & NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED)
		run_reclaim(s, NFS4_RECLAIM_DELEGS);
}

/* The renewal thread, lock held: the recovery asked for, if any.  True
 * when it did something (the lock was dropped meanwhile). */
static bool recovery_work(struct nfs4_session *s)
{
	enum nfs4_rec_action need = s->need;
	bool expired = s->need_expired, ok;
	uint32_t flags = s->need_flags;

	if (need == NFS4_REC_NONE && !flags)
		return false;
	if (need != NFS4_REC_NONE && s->broken &&
	    clock_mono_us() < s->retry_us)
		return false;
	s->recovering = true;
	s->new_session = need != NFS4_REC_NONE;
	s->need = NFS4_REC_NONE;
	s->need_expired = false;
	s->need_flags = 0;
	pthread_mutex_unlock(&s->lock);
	ok = true;
	if (need != NFS4_REC_NONE)
		ok = recover(s, need, expired);
	else
		act_on_flags(s, flags);
	pthread_mutex_lock(&s->lock);
	s->recovering = false;
	s->new_session = false;
	if (!ok && !s->stopping) {
		s->broken = true;
		if (s->need < need)
			s->need = need;
		s->retry_us = clock_mono_us() + NFS4_RETRY_RECOVERY_US;
	} else if (ok) {
		s->broken = false;
		s->renewed_us = clock_mono_us();
	}
	pthread_cond_broadcast(&s->recovered);
	pthread_cond_broadcast(&s->slot_free);
	return true;
}

/* The renewal thread, lock held: the first parked call that is due, with
 * a slot taken for it, or NULL (*wake: when to look again). */
static struct nfs4_req *parked_due(struct nfs4_session *s, uint64_t *wake)
{
	uint64_t now = clock_mono_us();
	struct nfs4_req **p, *q;

	for (p = &s->parked; (q = *p); p = &q->next) {
		if (q->due_us > now) {
			if (q->due_us < *wake)
				*wake = q->due_us;
			continue;
		}
		if (nfs4_slots_take(&s->slots, &q->slotid, &q->seqid)) {
			/* No slot: look again when one comes back. */
			if (now + 20000 < *wake)
				*wake = now + 20000;
			return NULL;
		}
		q->gen = s->gen;
		*p = q->next;
		q->next = NULL;
		return q;
	}
	return NULL;
}

/* Renews the lease while nothing else does (a SEQUENCE alone when half
 * of it passed since the last successful one), recovers lost sessions
 * and sends parked asynchronous calls again. */
static void *renew_main(void *arg)
{
	struct nfs4_session *s = arg;
	uint64_t half_us = (uint64_t)s->lease_s * 1000000u / 2;
	struct simple_ctx x;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t due = s->renewed_us + half_us, now = clock_mono_us();
		uint64_t wake = due;
		struct nfs4_req *q;
		struct timespec ts;

		if (recovery_work(s))
			continue;
		if (s->broken && (s->parked || s->slotq)) {
			/* The recovery failed: their callers hear EIO. */
			struct nfs4_req *queued = slotq_take_all(s);

			q = s->parked;
			s->parked = NULL;
			pthread_mutex_unlock(&s->lock);
			fail_parked(q);
			fail_parked(queued);
			pthread_mutex_lock(&s->lock);
			continue;
		}
		if (s->need == NFS4_REC_NONE && !s->broken && s->slotq &&
		    nfs4_slots_take(&s->slots, &s->slotq->slotid,
				    &s->slotq->seqid) == 0) {
			/* First in, first sent: a free slot is the queue
			 * head's. */
			q = s->slotq;
			s->slotq = q->next;
			if (!s->slotq)
				s->slotq_tail = &s->slotq;
			q->gen = s->gen;
			pthread_mutex_unlock(&s->lock);
			resend_parked(s, q);
			pthread_mutex_lock(&s->lock);
			continue;
		}
		if (s->need == NFS4_REC_NONE && !s->broken &&
		    (q = parked_due(s, &wake))) {
			pthread_mutex_unlock(&s->lock);
			STAT_INC(nfs4_calls_resent);
			resend_parked(s, q);
			pthread_mutex_lock(&s->lock);
			continue;
		}
		if (s->broken && s->retry_us < wake)
			wake = s->retry_us;
		now = clock_mono_us();
		if (now < wake) {
			ts = clock_mono_deadline((int64_t)(wake - now) * 1000);
			pthread_cond_timedwait(&s->renew_wake, &s->lock, &ts);
			continue;
		}
		if (now < due || s->broken)
			continue;
		pthread_mutex_unlock(&s->lock);
		if (simple(s, NFS4OP_SEQUENCE, true, NFS4_CALL_RECOVERY,
			   &x) == 0)
			__atomic_fetch_add(&s->renewals, 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&s->lock);
		/* After a failure, not again at once. */
		if (s->renewed_us + half_us <= clock_mono_us())
			s->renewed_us = clock_mono_us();
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void new_verifier(uint8_t v[NFS4_VERIFIER_SIZE])
{
	uint64_t t = (uint64_t)clock_ns_of(CLOCK_REALTIME) ^
		     (uint64_t)getpid() << 40;

	if (getrandom(v, NFS4_VERIFIER_SIZE, GRND_NONBLOCK) !=
	    NFS4_VERIFIER_SIZE)
		memcpy(v, &t, NFS4_VERIFIER_SIZE);
}

int nfs4_session_start(struct nfs4_session *s, struct rpc_clnt *rpc,
		       uint32_t minor, const struct rpc_cred *cred,
		       const char *owner, char *err, size_t errlen)
{
	struct simple_ctx x;
	uint32_t st = NFS4_OK;
	int ret;

	memset(s, 0, sizeof(*s));
	s->rpc = rpc;
	s->minor = minor;
	s->cred = *cred;
	snprintf(s->owner, sizeof(s->owner), "%s", owner);
	/* New at every start of the daemon, kept across recoveries: the
	 * server then knows a restarted client from a recovering one. */
	new_verifier(s->verifier);
	pthread_mutex_init(&s->lock, NULL);
	clock_cond_init(&s->renew_wake);
	clock_cond_init(&s->slot_free);
	clock_cond_init(&s->recovered);
	nfs4_slots_init(&s->slots, 1);
	rpc_clnt_set_callback(rpc, nfs4_cb_dispatch, s);
	rpc_clnt_set_reconnect(rpc, nfs4_cb_reconnected, s);

	ret = exchange_id(s, &st);
	if (ret) {
		snprintf(err, errlen, "EXCHANGE_ID: %s", strerror(-ret));
		return ret;
	}
	if (st == NFS4ERR_MINOR_VERS_MISMATCH) {
		snprintf(err, errlen, "the server does not speak NFSv4.%u",
			 s->minor);
		return -EPROTONOSUPPORT;
	}
	if (st != NFS4_OK) {
		snprintf(err, errlen, "EXCHANGE_ID: %s", stat_str(st));
		return -EIO;
	}
	ret = create_session(s, &st);
	if (ret) {
		snprintf(err, errlen, "CREATE_SESSION: %s", strerror(-ret));
		return ret;
	}
	if (st != NFS4_OK) {
		snprintf(err, errlen, "CREATE_SESSION: %s", stat_str(st));
		return -EIO;
	}
	s->renewed_us = clock_mono_us();
	/* RECLAIM_COMPLETE at once: a new daemon has nothing to reclaim (a
	 * restart is a new verifier, its old state is gone). */
	ret = simple(s, NFS4OP_RECLAIM_COMPLETE, true, 0, &x);
	if (ret == 0 && x.res.status != NFS4_OK &&
	    x.res.status != NFS4ERR_COMPLETE_ALREADY) {
		snprintf(err, errlen, "RECLAIM_COMPLETE: %s",
			 stat_str(x.res.status));
		return -EIO;
	}
	if (ret) {
		snprintf(err, errlen, "RECLAIM_COMPLETE: %s", strerror(-ret));
		return ret;
	}
	s->lease_s = 90;
	if (simple(s, NFS4OP_GETATTR, true, 0, &x) == 0 &&
	    x.attr.status == NFS4_OK &&
	    nfs4_bitmap_isset(&x.attr.attrs.mask, NFS4_FATTR_LEASE_TIME) &&
	    x.attr.attrs.lease_time >= 2)
		s->lease_s = x.attr.attrs.lease_time;
	ret = -pthread_create(&s->renew_thread, NULL, renew_main, s);
	if (ret) {
		snprintf(err, errlen, "cannot start the lease renewal: %s",
			 strerror(-ret));
		return ret;
	}
	s->renew_running = true;
	return 0;
}

void nfs4_session_set_reclaim(struct nfs4_session *s, nfs4_reclaim_fn fn,
			      void *ctx)
{
	pthread_mutex_lock(&s->lock);
	s->reclaim = fn;
	s->reclaim_ctx = ctx;
	pthread_mutex_unlock(&s->lock);
}

void nfs4_session_set_notify_lock(struct nfs4_session *s,
				  nfs4_notify_lock_fn fn, void *ctx)
{
	pthread_mutex_lock(&s->lock);
	s->notify_lock = fn;
	s->notify_lock_ctx = ctx;
	pthread_mutex_unlock(&s->lock);
}

void nfs4_session_set_recall(struct nfs4_session *s, nfs4_recall_fn fn,
			     void *ctx)
{
	pthread_mutex_lock(&s->lock);
	s->recall = fn;
	s->recall_ctx = ctx;
	pthread_mutex_unlock(&s->lock);
}

void nfs4_session_set_cb_getattr(struct nfs4_session *s,
				 nfs4_cb_getattr_fn fn, void *ctx)
{
	pthread_mutex_lock(&s->lock);
	s->cb_getattr = fn;
	s->cb_getattr_ctx = ctx;
	pthread_mutex_unlock(&s->lock);
}

static void *teardown_timer(void *arg)
{
	struct nfs4_session *s = arg;
	struct timespec until;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	until = clock_mono_deadline((int64_t)s->teardown_s * CLOCK_NS_PER_SEC);
	while (!s->teardown_done && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&s->teardown_wake, &s->lock,
					     &until);
	pthread_mutex_unlock(&s->lock);
	if (ret == ETIMEDOUT) {
		__atomic_store_n(&s->teardown_over, 1, __ATOMIC_RELAXED);
		nf_log(NF_LOG_WARNING, "NFSv4: the server did not take back "
		       "this mount's state within %u s of the unmount: the "
		       "rest is left to its lease", s->teardown_s);
	}
	return NULL;
}

void nfs4_session_teardown_begin(struct nfs4_session *s, uint32_t seconds)
{
	pthread_mutex_lock(&s->lock);
	if (s->teardown) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	s->teardown_s = seconds;
	clock_cond_init(&s->teardown_wake);
	s->teardown_timer_running =
		pthread_create(&s->teardown_timer, NULL, teardown_timer, s) ==
		0;
	/* Without a timer the calls end at once rather than never. */
	if (!s->teardown_timer_running)
		s->teardown_over = 1;
	__atomic_store_n(&s->teardown, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
}

/* The teardown is over: its timer ended. */
static void teardown_end(struct nfs4_session *s)
{
	if (!s->teardown_timer_running)
		return;
	pthread_mutex_lock(&s->lock);
	s->teardown_done = true;
	pthread_cond_broadcast(&s->teardown_wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->teardown_timer, NULL);
	s->teardown_timer_running = false;
	pthread_cond_destroy(&s->teardown_wake);
}

void nfs4_session_stop(struct nfs4_session *s)
{
	struct simple_ctx x;
	struct nfs4_req *parked, *queued;

	if (s->renew_running) {
		pthread_mutex_lock(&s->lock);
		s->stop = true;
		s->stopping = 1;
		pthread_cond_broadcast(&s->renew_wake);
		pthread_cond_broadcast(&s->recovered);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->renew_thread, NULL);
		s->renew_running = false;
		s->stopping = 0;
	}
	pthread_mutex_lock(&s->lock);
	parked = s->parked;
	s->parked = NULL;
	queued = slotq_take_all(s);
	pthread_mutex_unlock(&s->lock);
	fail_parked(parked);
	fail_parked(queued);
	if (s->have_session) {
		if (simple(s, NFS4OP_DESTROY_SESSION, false, 0, &x) ||
		    x.res.status != NFS4_OK)
			nf_log(NF_LOG_INFO, "DESTROY_SESSION failed: %s",
			       stat_str(x.res.status));
		s->have_session = false;
	}
	if (s->have_client) {
		if (simple(s, NFS4OP_DESTROY_CLIENTID, false, 0, &x) ||
		    x.res.status != NFS4_OK)
			nf_log(NF_LOG_INFO, "DESTROY_CLIENTID failed: %s",
			       stat_str(x.res.status));
		s->have_client = false;
	}
	if (s->rpc) {
		rpc_clnt_set_callback(s->rpc, NULL, NULL);
		rpc_clnt_set_reconnect(s->rpc, NULL, NULL);
	}
	teardown_end(s);
}

/* ---- BIND_CONN_TO_SESSION (nfs4_cb.h) ---- */

struct bind_ctx {
	struct nfs4_session *s;
	struct nfs4_bind_conn_res res;
};

static int build_bind(struct nfs4_compound *cmp, void *ctx)
{
	struct bind_ctx *x = ctx;
	struct nfs4_bind_conn_args a = { .dir = NFS4_CDFC4_BACK_OR_BOTH };

	memcpy(a.sessionid, x->s->sessionid, NFS4_SESSIONID_SIZE);
	return nfs4_add_bind_conn_to_session(cmp, &a);
}

static int parse_bind(struct nfs4_compound_res *r, void *ctx)
{
	struct bind_ctx *x = ctx;
	int ret = nfs4_compound_next(r, NFS4OP_BIND_CONN_TO_SESSION, &x->res);

	if (ret == -ENODATA) {
		x->res.status = r->status;
		return 0;
	}
	return ret;
}

static void bind_done(void *ctx, int err, struct xdr_dec *results,
		      struct rpc_reply *reply)
{
	struct nfs4_req *q = ctx;
	struct bind_ctx *x = q->ctx;

	if (err == 0 && dec_compound(results, q))
		err = -EIO;
	if (err)
		nf_log(NF_LOG_WARNING, "BIND_CONN_TO_SESSION: %s",
		       strerror(-err));
	else if (x->res.status != NFS4_OK)
		/* A lost session is the recovery's to report. */
		nf_log(x->res.status == NFS4ERR_BADSESSION ||
		       x->res.status == NFS4ERR_DEADSESSION ? NF_LOG_DEBUG
							    : NF_LOG_WARNING,
		       "BIND_CONN_TO_SESSION: %s", stat_str(x->res.status));
	else
		nf_log(NF_LOG_INFO, "NFSv4 session bound to the new "
		       "connection (%s)", x->res.dir == NFS4_CDFS4_BOTH ?
		       "both channels" : "fore channel only");
	rpc_reply_release(reply);
	free(x);
	free(q);
}

void nfs4_cb_rebind(struct nfs4_session *s)
{
	struct nfs4_req *q = calloc(1, sizeof(*q));
	struct bind_ctx *x = calloc(1, sizeof(*x));

	if (!q || !x || !s->have_session) {
		free(q);
		free(x);
		return;
	}
	x->s = s;
	*q = (struct nfs4_req){ .s = s, .sequence = false, .build = build_bind,
				.parse = parse_bind, .ctx = x };
	if (rpc_clnt_call_async(s->rpc, NFS4_PROC_COMPOUND, &s->cred,
				enc_compound, q, bind_done, q)) {
		free(x);
		free(q);
	}
}

void nfs4_cb_reconnected(void *ctx)
{
	nfs4_cb_rebind(ctx);
}

int nfs4_session_op_stats(struct nfs4_session *s, unsigned op,
			  struct rpc_proc_stats *st)
{
	if (op >= NFS4_OPS_COUNTED)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (s)
		st->calls = __atomic_load_n(&s->ops[op], __ATOMIC_RELAXED);
	return 0;
}
