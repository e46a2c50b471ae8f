/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A lock call made for a caller that may die while it is on the wire
 * (nfs4_lock.h: the `interrupted` flags).
 *
 * A LOCK given up by its caller may still be granted by the server, and
 * a lock nobody knows of would keep other clients out until the unmount.
 * So the call is not given up: it runs to its end on a thread of its
 * own, while its caller waits and may leave.  What a job left by its
 * caller ends with is undone: a lock granted is unlocked at once.  A
 * LOCKU or LOCKT left so simply ends.
 */
#include <errno.h>
#include <stdlib.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/workers.h"
#include "nfs4_lock_int.h"

/* Threads for the jobs: one per FUSE worker, and the poller's. */
#define NFS4_LK_JOB_THREADS (NF_FUSE_WORKERS + 1)

/* How often a caller waiting for its job looks at its flag. */
#define JOB_SLICE_NS (100 * 1000 * 1000ll)

struct lk_job {
	struct nfs4_locks *L;
	enum nfs4_lk_job_op op;
	struct nfs4_lock_req r;     /* its fh and cred point below */
	struct nfs_fh3 fh;
	struct rpc_cred cred;
	struct nfs4_lock_conflict c;
	int ret;
	bool done;                  /* [L->mu] ret and c are set */
	bool abandoned;             /* [L->mu] the caller left: free it */
};

static int job_call(struct lk_job *j)
{
	switch (j->op) {
	case NFS4_LK_JOB_LOCK:
		return nfs4_lk_lock_now(j->L, &j->r, false);
	case NFS4_LK_JOB_POLL:
		return nfs4_lk_lock_now(j->L, &j->r, true);
	case NFS4_LK_JOB_UNLOCK:
		return nfs4_lk_unlock_now(j->L, &j->r);
	case NFS4_LK_JOB_TEST:
		return nfs4_lk_test_now(j->L, &j->r, &j->c);
	}
	return -EINVAL;
}

/* A thread of the pool. */
static void job_run(void *data, void *user)
{
	struct lk_job *j = data;
	struct nfs4_locks *L = user;
	bool left;
	int ret;

	ret = job_call(j);
	pthread_mutex_lock(&L->mu);
	j->ret = ret;
	j->done = true;
	left = j->abandoned;
	pthread_cond_broadcast(&L->jobs_cv);
	pthread_cond_broadcast(&L->cv); /* the poller's */
	pthread_mutex_unlock(&L->mu);
	if (!left)
		return; /* the caller takes the result, and frees j */
	if ((j->op == NFS4_LK_JOB_LOCK || j->op == NFS4_LK_JOB_POLL) &&
	    ret == 0) {
		COUNT(L, undone);
		ret = nfs4_lk_unlock_now(L, &j->r);
		if (ret)
			nf_log(NF_LOG_WARNING, "a lock granted after its "
			       "caller died was not released: %s",
			       strerror(-ret));
	}
	free(j);
}

int nfs4_lk_jobs_start(struct nfs4_locks *L)
{
	clock_cond_init(&L->jobs_cv);
	/* A job holds a thread while its call is out, which on a server
	 * that stopped answering is until it answers or the unmount ends
	 * the call.  Its caller, a FUSE worker, waits for it unless it is
	 * interrupted: as many threads as there are workers, and one for
	 * the poller, serve every caller that still waits; past that, jobs
	 * left by their callers on a server that does not answer would
	 * otherwise take a thread each, without end. */
	L->jobs = g_thread_pool_new(job_run, L, NFS4_LK_JOB_THREADS, FALSE,
				    NULL);
	if (L->jobs)
		return 0;
	pthread_cond_destroy(&L->jobs_cv);
	return -ENOMEM;
}

void nfs4_lk_jobs_stop(struct nfs4_locks *L)
{
	if (!L->jobs)
		return;
	/* Waits for every job: their calls end with the session's
	 * teardown at the latest. */
	g_thread_pool_free(L->jobs, FALSE, TRUE);
	L->jobs = NULL;
	pthread_cond_destroy(&L->jobs_cv);
}

struct lk_job *nfs4_lk_job_start(struct nfs4_locks *L,
				 enum nfs4_lk_job_op op,
				 const struct nfs4_lock_req *r)
{
	struct lk_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->L = L;
	j->op = op;
	nfs4_lk_req_copy(&j->r, &j->fh, &j->cred, r);
	if (!g_thread_pool_push(L->jobs, j, NULL)) {
		free(j);
		return NULL;
	}
	return j;
}

bool nfs4_lk_job_take_locked(struct lk_job *j, int *ret,
			     struct nfs4_lock_conflict *c)
{
	if (!j->done)
		return false;
	*ret = j->ret;
	if (c)
		*c = j->c;
	free(j);
	return true;
}

void nfs4_lk_job_leave_locked(struct lk_job *j)
{
	if (j->done)
		free(j);
	else
		j->abandoned = true;
}

int nfs4_lk_job(struct nfs4_locks *L, enum nfs4_lk_job_op op,
		const struct nfs4_lock_req *r, struct nfs4_lock_conflict *c,
		volatile int *interrupted)
{
	struct lk_job *j = nfs4_lk_job_start(L, op, r);
	int ret = -EINTR;

	if (!j)
		return -ENOMEM;
	pthread_mutex_lock(&L->mu);
	while (!nfs4_lk_job_take_locked(j, &ret, c)) {
		struct timespec t = clock_mono_deadline(JOB_SLICE_NS);

		if (*interrupted) {
			nfs4_lk_job_leave_locked(j);
			ret = -EINTR;
			break;
		}
		pthread_cond_timedwait(&L->jobs_cv, &L->mu, &t);
	}
	pthread_mutex_unlock(&L->mu);
	return ret;
}
