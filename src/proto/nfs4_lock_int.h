/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What nfs4_lock.c (locking) and nfs4_lock_reclaim.c (reclaiming the
 * locks after a server restart) share: the lock state of a mount and one
 * COMPOUND of PUTFH and a lock operation.  Not for other modules.
 */
#ifndef NFSFUSE_PROTO_NFS4_LOCK_INT_H
#define NFSFUSE_PROTO_NFS4_LOCK_INT_H

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../../xdr/nfs4.h"
#include "nfs4_lock.h"
#include "nfs4_lockstate.h"

#define NFS4_LOCK_COUNTERS(X)                                               \
	X(granted_immediate) X(granted_poll) X(denied) X(polls)              \
	X(interrupted) X(unlocks) X(stateids_freed) X(open_calls) X(close_calls)       \
	X(from_caller_open) X(from_lock_open) X(errors) X(notified)         \
	X(undone)

/* *dst: r, with its handle and credentials copied into *fh and *cred,
 * for a request that outlives its caller's (a wait, a job), where all
 * three live together. */
static inline void nfs4_lk_req_copy(struct nfs4_lock_req *dst,
				    struct nfs_fh3 *fh, struct rpc_cred *cred,
				    const struct nfs4_lock_req *r)
{
	*dst = *r;
	*fh = *r->fh;
	dst->fh = fh;
	*cred = *r->cred;
	dst->cred = cred;
}

struct nfs4_lock_wait {
	struct nfs4_locks *L;
	struct nfs4_lock_req req;
	struct nfs_fh3 fh;          /* req.fh points here */
	struct rpc_cred cred;       /* req.cred points here */
	nfs4_lock_done_fn done;
	void *ctx;
	bool interrupted;           /* [L->mu] */
	bool armed;                 /* [L->mu] the poller may take it */
	struct timespec due;        /* [L->mu] its next LOCK, monotonic */
	unsigned ms;                /* [L->mu] the delay after that one */
	struct nfs4_lock_wait *next; /* [L->mu] */
};

struct nfs4_locks {
	struct nfs_client *c;
	pthread_mutex_t mu;
	pthread_cond_t cv;          /* [mu] an entry or an open not busy,
				     * a wait ended, an interrupt */
	struct nfs4_lktable t;      /* [mu] */
	struct nfs4_lock_wait *waits; /* [mu] */
	size_t nwaits;              /* [mu] */
	bool ending;                /* [mu] no wait may go on */
	/* One thread polls for every wait, so that a thousand blocked
	 * locks cost a thousand small entries, not a thousand threads;
	 * made by the first wait, ended by nfs4_locks_stop(). */
	pthread_t poller;
	bool poller_started;        /* [mu] */
	bool quit;                  /* [mu] the poller is to end */
	/* The poller's LOCK on the wire, for poll_wait ([mu]): it runs as
	 * a job, so that the poller answers interrupted waits meanwhile. */
	struct lk_job *poll_job;
	struct nfs4_lock_wait *poll_wait;
	/* A reclaim (nfs4_lock_reclaim.c) uses L: stop waits for its end.
	 * Both under c->v4->lock, the lock that also guards c->v4locks. */
	bool reclaiming;
	unsigned notifying;         /* CB_NOTIFY_LOCKs using L */
	pthread_cond_t reclaimed;   /* either ended */
	/* The calls of callers that may die (nfs4_lock_job.c); a job's
	 * end is broadcast on jobs_cv, under mu. */
	GThreadPool *jobs;
	pthread_cond_t jobs_cv;
	struct {
#define X(n) atomic_uint_fast64_t n;
		NFS4_LOCK_COUNTERS(X)
#undef X
	} stats;
};

/* ---- one COMPOUND: PUTFH (when fh) and one operation ---- */

struct nfs4_lkcall {
	struct nfs4_locks *L;
	uint32_t op;
	const struct nfs_fh3 *fh;
	union {
		struct nfs4_lock_args lock;
		struct nfs4_lockt_args lockt;
		struct nfs4_locku_args locku;
		struct nfs4_open_args open;
		struct nfs4_close_args close;
		struct nfs4_stateid_args sid;
	} a;
	char owner[NFS4_LKOWNER_NAME_MAX]; /* the lock- or open-owner */
	bool recovery;              /* sent by the reclaim */
	/* results */
	uint32_t status;
	struct nfs4_stateid stateid;
	uint32_t access;            /* OPEN: what was asked, when granted */
	struct nfs4_lock_conflict denied;
};

#define COUNT(L, n) atomic_fetch_add_explicit(&(L)->stats.n, 1, \
					      memory_order_relaxed)

/* 0 with k->status set, or the transport's negative errno; NFS4ERR_DELAY
 * and NFS4ERR_GRACE are waited out.  k->recovery: a call of the recovery
 * itself (the reclaim), which must not wait for the recovery. */
int nfs4_lk_call_patient(struct nfs4_locks *L, struct nfs4_lkcall *k,
			 const struct rpc_cred *cred);
const char *nfs4_lk_stname(uint32_t st);
/* The server no longer knows the stateid named. */
bool nfs4_lk_stateid_gone(uint32_t st);
/* The open-owner of the lock opens of uid. */
void nfs4_lk_open_owner(uint32_t uid, char *out, size_t len);

/* What nfs4_lock_lock() (without a wait), nfs4_lock_unlock() and
 * nfs4_lock_test() do, on the calling thread whatever happens. */
int nfs4_lk_lock_now(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     bool blocking);
int nfs4_lk_unlock_now(struct nfs4_locks *L, const struct nfs4_lock_req *r);
int nfs4_lk_test_now(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     struct nfs4_lock_conflict *c);

/* ---- calls whose caller may die (nfs4_lock_job.c) ---- */

enum nfs4_lk_job_op {
	NFS4_LK_JOB_LOCK,
	NFS4_LK_JOB_POLL,   /* a LOCK of the blocking lock types */
	NFS4_LK_JOB_UNLOCK,
	NFS4_LK_JOB_TEST,
};
struct lk_job;
int nfs4_lk_jobs_start(struct nfs4_locks *L);
/* Returns once every job has ended. */
void nfs4_lk_jobs_stop(struct nfs4_locks *L);
/* One of the *_now calls on a thread of the pool: its result, or
 * -EINTR once *interrupted is set (the job then goes on, and a lock it
 * is granted is unlocked). */
int nfs4_lk_job(struct nfs4_locks *L, enum nfs4_lk_job_op op,
		const struct nfs4_lock_req *r, struct nfs4_lock_conflict *c,
		volatile int *interrupted);
/* The same in parts, for the poller, which must not wait for its call:
 * start (NULL: out of memory); then under L->mu, take its result (true,
 * the job freed, once it has ended: L->cv is broadcast then) or leave
 * it (it goes on, and a lock it is granted is unlocked). */
struct lk_job *nfs4_lk_job_start(struct nfs4_locks *L,
				 enum nfs4_lk_job_op op,
				 const struct nfs4_lock_req *r);
bool nfs4_lk_job_take_locked(struct lk_job *j, int *ret,
			     struct nfs4_lock_conflict *c);
void nfs4_lk_job_leave_locked(struct lk_job *j);

#endif
