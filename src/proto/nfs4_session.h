/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.1 client state below the operations table (RFC 8881 §2.4,
 * §2.10): one client id and one session per mount.
 *
 *   start:  EXCHANGE_ID (the client owner of nfs4_owner.h and a verifier
 *           new at every start), CREATE_SESSION (fore channel slots as
 *           many as the server grants, up to NFS4_SLOTS_MAX; the
 *           backchannel on the same connection), RECLAIM_COMPLETE;
 *   calls:  every COMPOUND starts with SEQUENCE on a free slot; the
 *           server's target for the highest slot and its status flags are
 *           taken from every reply;
 *   idle:   a thread sends a SEQUENCE alone when nothing renewed the
 *           lease for half of it;
 *   reconnect: BIND_CONN_TO_SESSION puts the backchannel on the new
 *           connection (the fore channel binds itself at the first
 *           SEQUENCE, since the session uses no state protection); the
 *           calls in flight go again with the slot and sequence id they
 *           had, so the server answers them from its reply cache, runs
 *           them if they never reached it, or (a reply it did not keep)
 *           says NFS4ERR_RETRY_UNCACHED_REP: they then go again as new
 *           calls (the calls that must not run twice ask for the cache);
 *   recovery (nfs4_recover.h): a lost session (BADSESSION, DEADSESSION)
 *           means CREATE_SESSION on the client id; a lost client id
 *           (STALE_CLIENTID, EXPIRED: the server restarted, or the lease
 *           ran out during a partition) EXCHANGE_ID with the same owner
 *           and verifier, CREATE_SESSION, the reclaim hook (reclaim in
 *           the grace period, or state lost) and RECLAIM_COMPLETE.  One
 *           recovery at a time, on the renewal thread; the calls that
 *           met the loss wait for it and are sent again whole (on the new
 *           session nothing of the old reply cache is left: a call that
 *           must not run twice may then run twice, as an NFSv3 call
 *           retransmitted after a server restart); new calls wait too.
 *           A recovery that fails makes calls answer EIO and is tried
 *           again later.  Each is logged, traced and counted
 *           (nfs4_recoveries, nfs4_clientid_recoveries in the stats);
 *   waits:  NFS4ERR_DELAY on SEQUENCE, and NFS4ERR_DELAY or NFS4ERR_GRACE
 *           from an operation that follows only operations without
 *           effect, are waited out (100 ms doubling to 2 s, interruptible)
 *           and the call sent again, never turned into EIO;
 *   stop:   DESTROY_SESSION, DESTROY_CLIENTID.
 *
 * Server calls on the backchannel (nfs4_cb.c) are answered as far as
 * this client has state: CB_SEQUENCE, CB_RECALL and CB_GETATTR through
 * their hooks (nfs4_deleg.h), CB_NOTIFY_LOCK through the
 * lock-notification hook (nfs4_lock.h), and NFS4ERR_NOTSUPP for the rest
 * (no layouts are ever kept).
 *
 * The reclaim hook of a mount (nfs4_reclaim.c) has its opens again, then
 * its byte-range locks (nfs4_lock_reclaim.c).
 *
 * Locks: s->lock protects the slot table, the renewal times and the
 * flags; it is never held across an RPC.
 */
#ifndef NFSFUSE_PROTO_NFS4_SESSION_H
#define NFSFUSE_PROTO_NFS4_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs4.h"
#include "../rpc/rpc.h"
#include "nfs4_owner.h"
#include "nfs4_recover.h"
#include "nfs4_slots.h"

/* Operation numbers counted for statistics (every op up to CLONE). */
#define NFS4_OPS_COUNTED NFS4_OP_NAMES
/* The program number our backchannel answers to (the server uses it in
 * every callback it sends on this session). */
#define NFS4_CB_PROGRAM 0x40000000u

struct nfs4_req;
struct nfs4_session;

/*
 * The reclaim hook: runs on the renewal thread during a recovery, after
 * the new session exists and before RECLAIM_COMPLETE.  NFS4_RECLAIM_GRACE:
 * reclaim each open (CLAIM_PREVIOUS) and lock (reclaim LOCK) with calls
 * flagged NFS4_CALL_RECOVERY; what cannot be reclaimed is logged once and
 * its file answers EIO until reopened (a server without a grace period
 * answers NFS4ERR_NO_GRACE: an open may then be made again, unless
 * s->lease_lapsed).  NFS4_RECLAIM_LOST: the state is
 * gone (lease expired, revoked): mark it so, logged, and never use its
 * stateids again.
 */
typedef void (*nfs4_reclaim_fn)(void *ctx, struct nfs4_session *s,
				enum nfs4_reclaim_kind kind);

/* The recall hook: CB_RECALL's arguments, on the transport thread; the
 * status to answer.  It must not wait for an RPC. */
struct nfs4_cb_recall_args;
typedef uint32_t (*nfs4_recall_fn)(void *ctx,
				   const struct nfs4_cb_recall_args *a);
/* The CB_GETATTR hook, on the transport thread: the status to answer
 * and, with NFS4_OK, the attributes (*out, its mask saying which).  It
 * must not wait for an RPC. */
struct nfs4_cb_getattr_args;
struct nfs4_fattr;
typedef uint32_t (*nfs4_cb_getattr_fn)(void *ctx,
				       const struct nfs4_cb_getattr_args *a,
				       struct nfs4_fattr *out);
/* The lock-notification hook: CB_NOTIFY_LOCK's arguments, on the
 * transport thread (a lock a wait of ours asked for may now be free);
 * it must not wait for an RPC.  Answered NFS4_OK whatever it does. */
struct nfs4_cb_notify_lock_args;
typedef void (*nfs4_notify_lock_fn)(void *ctx,
				    const struct nfs4_cb_notify_lock_args *a);

struct nfs4_session {
	struct rpc_clnt *rpc;   /* not owned */
	uint32_t minor;
	struct rpc_cred cred;   /* the daemon's, for state operations */
	char owner[NFS4_OWNER_MAX + 1];
	uint8_t verifier[NFS4_VERIFIER_SIZE];
	uint64_t clientid;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t lease_s;       /* lease time (seconds) */
	uint32_t max_req, max_resp; /* fore channel sizes granted */
	uint32_t max_resp_cached;   /* largest reply the server keeps */
	bool have_client, have_session;
	uint32_t create_seq;    /* the next CREATE_SESSION's sequence id */

	pthread_mutex_t lock;
	pthread_cond_t slot_free;   /* [lock] a slot was given back */
	struct nfs4_slots slots;    /* [lock] */
	uint64_t renewed_us;        /* [lock] last SEQUENCE that succeeded
				     * (or renewal attempt that failed) */
	uint64_t lease_ok_us;       /* [lock] last SEQUENCE that succeeded */
	uint32_t status_flags;      /* [lock] of the last SEQUENCE reply */
	bool stop;                  /* [lock] the renewal thread must end */
	pthread_cond_t renew_wake;  /* [lock] */
	pthread_t renew_thread;
	bool renew_running;
	uint32_t cb_seqid;          /* backchannel slot 0 (transport thread) */

	/* recovery, [lock] */
	uint32_t gen;               /* sessions made: a slot taken under an
				     * older one is not given back */
	enum nfs4_rec_action need;  /* NFS4_REC_SESSION or _CLIENT asked */
	bool need_expired;          /* ... because the lease expired */
	uint32_t need_flags;        /* SEQ4_STATUS flags to act on */
	bool recovering;            /* the renewal thread recovers */
	bool new_session;           /* ... and will make a new session */
	bool broken;                /* the last recovery failed */
	uint64_t retry_us;          /* when to try a failed one again */
	pthread_cond_t recovered;   /* a recovery ended */
	struct nfs4_req *parked;    /* asynchronous calls to send again */
	/* Asynchronous calls that found no slot free (or a recovery under
	 * way), in the order they came: the renewal thread sends them. */
	struct nfs4_req *slotq, **slotq_tail;
	volatile int stopping;      /* interrupts the renewal thread's calls */
	nfs4_reclaim_fn reclaim;
	void *reclaim_ctx;
	nfs4_recall_fn recall;      /* [lock] */
	void *recall_ctx;           /* [lock] */
	nfs4_cb_getattr_fn cb_getattr; /* [lock] */
	void *cb_getattr_ctx;       /* [lock] */
	nfs4_notify_lock_fn notify_lock; /* [lock] */
	void *notify_lock_ctx;      /* [lock] */
	/* The last recovery began after a lease's time without a renewal:
	 * the server may have expired this client and let others in, so
	 * what cannot be reclaimed in a grace period is lost (renewal
	 * thread only). */
	bool lease_lapsed;

	/* The teardown at unmount (nfs4_session_teardown_begin): calls
	 * given no interruption flag of their own take teardown_over,
	 * which its timer sets when the time allowed is up. */
	bool teardown;              /* [lock] */
	volatile int teardown_over;
	bool teardown_done;         /* [lock] the timer may end */
	pthread_cond_t teardown_wake; /* [lock] ... signalled */
	pthread_t teardown_timer;
	bool teardown_timer_running;
	uint32_t teardown_s;        /* [lock] the time allowed */

	/* statistics, relaxed atomics */
	uint64_t ops[NFS4_OPS_COUNTED];
	uint64_t renewals;
	uint64_t cb_calls;
};

/*
 * A COMPOUND after the SEQUENCE: build appends the operations (it may
 * fail with a negative errno); parse walks their results after SEQUENCE
 * succeeded and returns 0 or -EBADMSG (malformed).  Both get ctx.
 */
typedef int (*nfs4_build_fn)(struct nfs4_compound *cmp, void *ctx);
typedef int (*nfs4_parse_fn)(struct nfs4_compound_res *r, void *ctx);

/*
 * Client id, session, RECLAIM_COMPLETE and the renewal thread over rpc.
 * owner is the client owner (nfs4_owner_make).  0, or a negative errno
 * with one line in err; nfs4_session_stop() undoes what was done in both
 * cases.
 */
int nfs4_session_start(struct nfs4_session *s, struct rpc_clnt *rpc,
		       uint32_t minor, const struct rpc_cred *cred,
		       const char *owner, char *err, size_t errlen);
/* DESTROY_SESSION, DESTROY_CLIENTID, and the renewal thread stopped. */
void nfs4_session_stop(struct nfs4_session *s);
/*
 * The mount is gone: what is left to give back (delegations, opens,
 * locks, the session and client id) gets seconds in all.  Past them,
 * every call given no interruption flag of its own ends at once with
 * -EINTR, so that a dead server cannot keep the daemon alive after the
 * unmount (it frees our state at the end of the lease anyway).  Logged
 * once when the time runs out.  nfs4_session_stop() ends the timer.
 */
void nfs4_session_teardown_begin(struct nfs4_session *s, uint32_t seconds);
/* The time the daemon gives it after an unmount: hundreds of calls to a
 * live server, little enough that a dead one is not waited for long. */
#define NFS4_TEARDOWN_S 10u

/*
 * One COMPOUND: SEQUENCE, then what build adds.  Returns 0 when parse
 * ran (the operations' statuses are in what it filled), or a negative
 * errno: the transport's, -EINTR, -EIO for a malformed reply or a
 * session that could not be recovered.  *reply (may be NULL when nothing
 * parsed points into it) owns the reply buffer.  A lost session or client
 * id is recovered and the call sent again; NFS4ERR_DELAY and GRACE are
 * waited out (see above); NFS4ERR_SEQ_MISORDERED after a call given up on
 * is retried once, NFS4ERR_RETRY_UNCACHED_REP as a new call.
 */
/* flags: the server keeps the reply, so that a retransmission after a
 * reconnection is answered from it instead of executed again (the
 * calls that must not run twice: creations, removals, renames, links,
 * SETATTR); only where the session caches replies that large. */
#define NFS4_CALL_CACHETHIS 0x1u
/* nfs4_session_call_async(): ctx stays valid and build may run again
 * until done runs, so that a retry can be sent from the reply. */
#define NFS4_CALL_RESENDABLE 0x2u
/* A call of the recovery itself (the reclaim hook's): it does not wait
 * for the recovery, and a lost session fails it with -EIO. */
#define NFS4_CALL_RECOVERY 0x4u
int nfs4_session_call(struct nfs4_session *s, const struct rpc_cred *cred,
		      unsigned flags, nfs4_build_fn build, nfs4_parse_fn parse,
		      void *ctx, struct rpc_reply *reply,
		      volatile int *interrupted);

/* The same without waiting: done(done_ctx, err, reply) runs on the
 * transport thread (or the renewal thread) once parse ran (err 0) or the
 * call failed.  Nothing is retried unless flags has NFS4_CALL_RESENDABLE
 * (then a wait or a recovery parks the call, and the renewal thread
 * sends it again): a call whose arguments are gone and that must survive
 * a reconnection asks for NFS4_CALL_CACHETHIS, and fails with -EIO on a
 * lost session. */
typedef void (*nfs4_done_fn)(void *done_ctx, int err,
			     struct rpc_reply *reply);
int nfs4_session_call_async(struct nfs4_session *s,
			    const struct rpc_cred *cred, unsigned flags,
			    nfs4_build_fn build, nfs4_parse_fn parse, void *ctx,
			    nfs4_done_fn done, void *done_ctx);

/* Registers the reclaim hook (one per session; fn NULL removes it). */
void nfs4_session_set_reclaim(struct nfs4_session *s, nfs4_reclaim_fn fn,
			      void *ctx);
/* The lock-notification hook (NULL: CB_NOTIFY_LOCK is NFS4ERR_NOTSUPP).
 * Its ctx must outlive the session. */
void nfs4_session_set_notify_lock(struct nfs4_session *s,
				  nfs4_notify_lock_fn fn, void *ctx);
/* The recall hook (NULL: every CB_RECALL is NFS4ERR_BADHANDLE). */
void nfs4_session_set_recall(struct nfs4_session *s, nfs4_recall_fn fn,
			     void *ctx);
/* The CB_GETATTR hook (NULL: every CB_GETATTR is NFS4ERR_BADHANDLE). */
void nfs4_session_set_cb_getattr(struct nfs4_session *s,
				 nfs4_cb_getattr_fn fn, void *ctx);

/* Operations sent, by operation number, for `nfsfusectl stats` (a
 * program "nfs4ops" beside "nfs"); s may be NULL (not an NFSv4 mount:
 * all zeros). */
int nfs4_session_op_stats(struct nfs4_session *s, unsigned op,
			  struct rpc_proc_stats *st);

/* A status from a reply to a negative errno (the NFSv4 side of
 * nfs_stat_errno()), and the NFSv3 status that says the same. */
uint32_t nfs4_stat_to_nfs3(uint32_t status);

#endif
