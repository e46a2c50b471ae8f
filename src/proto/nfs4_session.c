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
#include "nfs4_cb.h"

/* What we ask for in CREATE_SESSION; the server may grant less. */
#define NFS4_WANT_SLOTS 64u
#define NFS4_WANT_MSG (1u << 20) + (64u << 10)
/* NFS4ERR_DELAY on SEQUENCE: wait this long before trying again. */
#define NFS4_DELAY_NS (100 * 1000 * 1000L)

/* One COMPOUND in flight: what the RPC encoder and decoder share. */
struct nfs4_req {
	struct nfs4_session *s;
	bool sequence;           /* starts with SEQUENCE (all but set-up) */
	bool cachethis;          /* ask the server to keep the reply */
	bool resendable;         /* async: build may run again */
	bool retried;            /* a retry on the same slot was made */
	nfs4_build_fn build;
	nfs4_parse_fn parse;
	void *ctx;
	uint32_t slotid, seqid;
	struct nfs4_sequence_res seq;
	uint32_t status;         /* the COMPOUND's */
	bool parsed;             /* SEQUENCE succeeded and parse ran */
	/* asynchronous calls */
	nfs4_done_fn done;
	void *done_ctx;
	struct rpc_cred cred;
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

		memcpy(sa.sessionid, s->sessionid, NFS4_SESSIONID_SIZE);
		pthread_mutex_lock(&s->lock);
		sa.highest_slotid = nfs4_slots_highest(&s->slots);
		pthread_mutex_unlock(&s->lock);
		nfs4_add_sequence(&cmp, &sa);
	}
	ret = q->build(&cmp, q->ctx);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < cmp.nops; i++)
		if (cmp.ops[i] < NFS4_OPS_COUNTED)
			__atomic_fetch_add(&s->ops[cmp.ops[i]], 1,
					   __ATOMIC_RELAXED);
	return xdr_enc_error(e);
}

static int dec_compound(struct xdr_dec *d, void *arg)
{
	struct nfs4_req *q = arg;
	struct nfs4_compound_res r;
	int ret;

	q->parsed = false;
	if (nfs4_dec_compound_res(d, &r))
		return -EBADMSG;
	q->status = r.status;
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
		if (q->seq.status != NFS4_OK)
			return 0;
	}
	ret = q->parse(&r, q->ctx);
	if (ret)
		return ret;
	q->parsed = true;
	return 0;
}

/* ---- slots ---- */

static void take_slot(struct nfs4_session *s, struct nfs4_req *q)
{
	pthread_mutex_lock(&s->lock);
	while (nfs4_slots_take(&s->slots, &q->slotid, &q->seqid))
		pthread_cond_wait(&s->slot_free, &s->lock);
	pthread_mutex_unlock(&s->lock);
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
	uint32_t was, fresh;

	pthread_mutex_lock(&s->lock);
	was = s->status_flags;
	s->status_flags = flags;
	pthread_mutex_unlock(&s->lock);
	/* Each condition is logged when it appears, not at every reply. */
	fresh = flags & ~was;
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

/*
 * After a reply (err 0) or a failure: the slot goes back, advanced when
 * the server may have executed the call.  Returns what the caller should
 * do: 0 done, 1 try again on the same slot (still held), or a negative
 * errno (slot released).
 */
static int finish_slot(struct nfs4_session *s, struct nfs4_req *q, int err,
		       bool *retried)
{
	uint32_t st = q->seq.status;

	if (!q->sequence)
		return err;
	if (err == 0 && st == NFS4_OK) {
		pthread_mutex_lock(&s->lock);
		s->renewed_us = clock_mono_us();
		nfs4_slots_release(&s->slots, q->slotid, true,
				   q->seq.target_highest_slotid);
		pthread_cond_broadcast(&s->slot_free);
		pthread_mutex_unlock(&s->lock);
		seq_flags(s, q->seq.status_flags);
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	if (err == 0 && st == NFS4ERR_SEQ_MISORDERED && !*retried) {
		/* A request we gave up on never reached the server. */
		*retried = true;
		nfs4_slots_misordered(&s->slots, q->slotid, &q->seqid);
		pthread_mutex_unlock(&s->lock);
		return 1;
	}
	if (err == 0 && st == NFS4ERR_RETRY_UNCACHED_REP && !*retried) {
		/* A retransmission (after a reconnection) of a call the server
		 * executed without keeping its reply: the calls that may be
		 * repeated go again as new ones, on the next sequence id;
		 * those asked with cachethis never get here. */
		*retried = true;
		s->slots.seqid[q->slotid]++;
		q->seqid = s->slots.seqid[q->slotid];
		pthread_mutex_unlock(&s->lock);
		return 1;
	}
	if (err == 0 && st == NFS4ERR_DELAY) {
		pthread_mutex_unlock(&s->lock);
		return 1;
	}
	/* No reply: the server may have executed it. */
	nfs4_slots_release(&s->slots, q->slotid, err != 0, UINT32_MAX);
	pthread_cond_broadcast(&s->slot_free);
	pthread_mutex_unlock(&s->lock);
	if (err)
		return err;
	nf_log(NF_LOG_WARNING, "NFSv4 SEQUENCE failed: %s (%u)",
	       nfs4_stat_name(st) ? nfs4_stat_name(st) : "unknown", st);
	return -EIO;
}

int nfs4_session_call(struct nfs4_session *s, const struct rpc_cred *cred,
		      unsigned flags, nfs4_build_fn build, nfs4_parse_fn parse,
		      void *ctx, struct rpc_reply *reply,
		      volatile int *interrupted)
{
	struct nfs4_req q = { .s = s, .sequence = true, .build = build,
			      .parse = parse, .ctx = ctx,
			      .cachethis = (flags & NFS4_CALL_CACHETHIS) &&
					   s->max_resp_cached >= 2048 };
	bool retried = false;
	int ret;

	take_slot(s, &q);
	for (;;) {
		q.seq.status = NFS4_OK;
		ret = rpc_clnt_call(s->rpc, NFS4_PROC_COMPOUND, cred,
				    enc_compound, &q, dec_compound, &q, reply,
				    interrupted);
		ret = finish_slot(s, &q, ret, &retried);
		if (ret != 1)
			break;
		if (reply)
			rpc_reply_release(reply);
		if (q.seq.status == NFS4ERR_DELAY) {
			struct timespec ts = { 0, NFS4_DELAY_NS };

			nanosleep(&ts, NULL);
		}
	}
	if (ret == 0 && !q.parsed)
		ret = -EIO;
	if (ret && reply)
		rpc_reply_release(reply);
	return ret;
}

static void async_done(void *ctx, int err, struct xdr_dec *results,
		       struct rpc_reply *reply)
{
	struct nfs4_req *q = ctx;

	if (err == 0 && dec_compound(results, q))
		err = -EIO;
	if (!q->resendable)
		q->retried = true; /* the arguments are gone: no retry */
	err = finish_slot(q->s, q, err, &q->retried);
	if (err == 1 && q->seq.status != NFS4ERR_DELAY) {
		/* Again on the same slot, from the transport thread. */
		rpc_reply_release(reply);
		if (rpc_clnt_call_async(q->s->rpc, NFS4_PROC_COMPOUND, &q->cred,
					enc_compound, q, async_done, q) == 0)
			return;
	}
	if (err == 1) {
		/* DELAY: give the slot back untouched and fail this one;
		 * the callers of asynchronous calls retry or report. */
		pthread_mutex_lock(&q->s->lock);
		nfs4_slots_release(&q->s->slots, q->slotid, false, UINT32_MAX);
		pthread_cond_broadcast(&q->s->slot_free);
		pthread_mutex_unlock(&q->s->lock);
		err = -EAGAIN;
	}
	if (err == 0 && !q->parsed)
		err = -EIO;
	if (err)
		rpc_reply_release(reply);
	q->done(q->done_ctx, err, reply);
	free(q);
}

int nfs4_session_call_async(struct nfs4_session *s,
			    const struct rpc_cred *cred, unsigned flags,
			    nfs4_build_fn build, nfs4_parse_fn parse, void *ctx,
			    nfs4_done_fn done, void *done_ctx)
{
	struct nfs4_req *q = calloc(1, sizeof(*q));
	bool retried = true;
	int ret;

	if (!q)
		return -ENOMEM;
	*q = (struct nfs4_req){ .s = s, .sequence = true, .build = build,
				.parse = parse, .ctx = ctx, .done = done,
				.done_ctx = done_ctx,
				.cachethis = (flags & NFS4_CALL_CACHETHIS) &&
					     s->max_resp_cached >= 2048,
				.resendable = flags & NFS4_CALL_RESENDABLE };
	if (cred)
		q->cred = *cred;
	take_slot(s, q);
	ret = rpc_clnt_call_async(s->rpc, NFS4_PROC_COMPOUND, cred,
				  enc_compound, q, async_done, q);
	if (ret) {
		/* Never sent: the slot's sequence id stays. */
		q->seq.status = NFS4ERR_SERVERFAULT;
		pthread_mutex_lock(&s->lock);
		nfs4_slots_release(&s->slots, q->slotid, false, UINT32_MAX);
		pthread_cond_broadcast(&s->slot_free);
		pthread_mutex_unlock(&s->lock);
		(void)retried;
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
	int ret = rpc_clnt_call(s->rpc, NFS4_PROC_COMPOUND, &s->cred,
				enc_compound, &q, dec_compound, &q, NULL, NULL);

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

static int exchange_id(struct nfs4_session *s, uint32_t *create_seq,
		       char *err, size_t errlen)
{
	struct exid_ctx x = { .s = s };
	uint32_t st;
	int ret = call_plain(s, build_exid, parse_exid, &x, &st);

	if (ret) {
		snprintf(err, errlen, "EXCHANGE_ID: %s", strerror(-ret));
		return ret;
	}
	if (st == NFS4ERR_MINOR_VERS_MISMATCH ||
	    x.res.status == NFS4ERR_MINOR_VERS_MISMATCH) {
		snprintf(err, errlen, "the server does not speak NFSv4.%u",
			 s->minor);
		return -EPROTONOSUPPORT;
	}
	if (x.res.status != NFS4_OK) {
		snprintf(err, errlen, "EXCHANGE_ID: %s", stat_str(x.res.status));
		return -EIO;
	}
	s->clientid = x.res.clientid;
	*create_seq = x.res.sequenceid;
	s->have_client = true;
	return 0;
}

static int create_session(struct nfs4_session *s, uint32_t create_seq,
			  char *err, size_t errlen)
{
	struct cs_ctx x = { .s = s, .sequenceid = create_seq };
	uint32_t st;
	int ret = call_plain(s, build_cs, parse_cs, &x, &st);

	if (ret) {
		snprintf(err, errlen, "CREATE_SESSION: %s", strerror(-ret));
		return ret;
	}
	if (x.res.status != NFS4_OK) {
		snprintf(err, errlen, "CREATE_SESSION: %s",
			 stat_str(x.res.status));
		return -EIO;
	}
	memcpy(s->sessionid, x.res.sessionid, NFS4_SESSIONID_SIZE);
	s->max_req = x.res.fore.maxrequestsize;
	s->max_resp = x.res.fore.maxresponsesize;
	s->max_resp_cached = x.res.fore.maxresponsesize_cached;
	pthread_mutex_lock(&s->lock);
	nfs4_slots_init(&s->slots, x.res.fore.maxrequests);
	pthread_mutex_unlock(&s->lock);
	s->have_session = true;
	nf_log(NF_LOG_INFO, "NFSv4.%u session: %u slots, requests up to %u "
	       "bytes, replies up to %u%s", s->minor, s->slots.n, s->max_req,
	       s->max_resp, x.res.flags & NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN
	       ? ", backchannel on this connection" : ", no backchannel");
	return 0;
}

static int simple(struct nfs4_session *s, uint32_t op, bool sequence,
		  struct simple_ctx *x)
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
	return nfs4_session_call(s, &s->cred, 0, build_simple, parse_simple,
				 x, NULL, NULL);
}

/* Renews the lease while nothing else does: a SEQUENCE alone when half
 * of it passed since the last successful one. */
static void *renew_main(void *arg)
{
	struct nfs4_session *s = arg;
	uint64_t half_us = (uint64_t)s->lease_s * 1000000u / 2;
	struct simple_ctx x;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t due = s->renewed_us + half_us, now = clock_mono_us();
		struct timespec ts;

		if (now < due) {
			ts = clock_mono_deadline((int64_t)(due - now) * 1000);
			pthread_cond_timedwait(&s->renew_wake, &s->lock, &ts);
			continue;
		}
		pthread_mutex_unlock(&s->lock);
		if (simple(s, NFS4OP_SEQUENCE, true, &x) == 0)
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
	pthread_condattr_t ca;
	struct simple_ctx x;
	uint32_t create_seq = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	s->rpc = rpc;
	s->minor = minor;
	s->cred = *cred;
	snprintf(s->owner, sizeof(s->owner), "%s", owner);
	new_verifier(s->verifier);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->renew_wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&s->slot_free, NULL);
	nfs4_slots_init(&s->slots, 1);
	rpc_clnt_set_callback(rpc, nfs4_cb_dispatch, s);
	rpc_clnt_set_reconnect(rpc, nfs4_cb_reconnected, s);

	ret = exchange_id(s, &create_seq, err, errlen);
	if (!ret)
		ret = create_session(s, create_seq, err, errlen);
	if (ret)
		return ret;
	s->renewed_us = clock_mono_us();
	/* RECLAIM_COMPLETE at once: this client never reclaims (a restart
	 * is a new client owner verifier, its old state is gone). */
	ret = simple(s, NFS4OP_RECLAIM_COMPLETE, true, &x);
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
	if (simple(s, NFS4OP_GETATTR, true, &x) == 0 &&
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

void nfs4_session_stop(struct nfs4_session *s)
{
	struct simple_ctx x;

	if (s->renew_running) {
		pthread_mutex_lock(&s->lock);
		s->stop = true;
		pthread_cond_broadcast(&s->renew_wake);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->renew_thread, NULL);
		s->renew_running = false;
	}
	if (s->have_session) {
		if (simple(s, NFS4OP_DESTROY_SESSION, false, &x) ||
		    x.res.status != NFS4_OK)
			nf_log(NF_LOG_INFO, "DESTROY_SESSION failed: %s",
			       stat_str(x.res.status));
		s->have_session = false;
	}
	if (s->have_client) {
		if (simple(s, NFS4OP_DESTROY_CLIENTID, false, &x) ||
		    x.res.status != NFS4_OK)
			nf_log(NF_LOG_INFO, "DESTROY_CLIENTID failed: %s",
			       stat_str(x.res.status));
		s->have_client = false;
	}
	if (s->rpc) {
		rpc_clnt_set_callback(s->rpc, NULL, NULL);
		rpc_clnt_set_reconnect(s->rpc, NULL, NULL);
	}
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
		nf_log(NF_LOG_WARNING, "BIND_CONN_TO_SESSION: %s",
		       stat_str(x->res.status));
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
