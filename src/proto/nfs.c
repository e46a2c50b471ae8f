/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/log.h"

/* How often a caller waiting in nfs_call_detach() for an asynchronous
 * call looks at its interrupt flag. */
#define NFS_DETACH_POLL_NS (100 * 1000 * 1000ll)

struct rpc_clnt *nfs_conn(struct nfs_client *c)
{
	unsigned n;

	if (c->nconns <= 1)
		return c->rpc;
	n = __atomic_fetch_add(&c->next_conn, 1, __ATOMIC_RELAXED);
	return c->conns[n % c->nconns];
}

int nfs_call(struct nfs_client *c, enum nfs3_proc proc,
	     const struct rpc_cred *cred, const void *args, void *res,
	     struct rpc_reply *reply, volatile int *interrupted)
{
	struct rpc_reply own = { NULL, 0 };
	const struct nfs_proc *p;
	int ret;

	if ((unsigned)proc >= NFS3PROC_COUNT)
		return -EINVAL;
	p = &c->v->procs[proc];
	if (proc != NFS3PROC_NULL && !p->dec)
		return -ENOTSUP;
	if (c->v->call)
		return c->v->call(c, proc, cred, args, res, reply, interrupted);
	if (!p->fixup)
		return rpc_clnt_call(nfs_conn(c), p->wire_proc, cred, p->enc, args,
				     p->dec, res, reply, interrupted);
	/* The fixup may need the reply buffer even when the caller does
	 * not (its results then hold no pointers it will use). */
	if (!reply)
		reply = &own;
	ret = rpc_clnt_call(nfs_conn(c), p->wire_proc, cred, p->enc, args, p->dec,
			    res, reply, interrupted);
	if (ret == 0)
		ret = p->fixup(args, res, reply);
	if (ret || reply == &own)
		rpc_reply_release(reply);
	return ret;
}

struct async_call {
	xdr_dec_fn dec;
	nfs_fixup_fn fixup;
	void *res;
	nfs_done_fn done;
	void *ctx;
	max_align_t args[]; /* args_size bytes, for the fixup */
};

static void async_done(void *ctx, int err, struct xdr_dec *results,
		       struct rpc_reply *reply)
{
	struct async_call *a = ctx;

	if (err == 0 && a->dec && a->dec(results, a->res))
		err = -EIO;
	if (err == 0 && a->fixup) {
		err = a->fixup(a->args, a->res, reply);
		if (err)
			rpc_reply_release(reply);
	}
	a->done(a->ctx, err, a->res, reply);
	free(a);
}

int nfs_call_async(struct nfs_client *c, enum nfs3_proc proc,
		   const struct rpc_cred *cred, const void *args, void *res,
		   nfs_done_fn done, void *ctx)
{
	const struct nfs_proc *p;
	struct async_call *a;
	int ret;

	if ((unsigned)proc >= NFS3PROC_COUNT)
		return -EINVAL;
	p = &c->v->procs[proc];
	if (proc != NFS3PROC_NULL && !p->dec)
		return -ENOTSUP;
	if (c->v->call_async)
		return c->v->call_async(c, proc, cred, args, res, done, ctx);
	a = malloc(sizeof(*a) + (p->fixup ? p->args_size : 0));
	if (!a)
		return -ENOMEM;
	*a = (struct async_call){ p->dec, p->fixup, res, done, ctx };
	if (p->fixup)
		memcpy(a->args, args, p->args_size);
	ret = rpc_clnt_call_async(nfs_conn(c), p->wire_proc, cred, p->enc, args,
				  async_done, a);
	if (ret)
		free(a);
	return ret;
}

/* nfs_call_detach() where the call cannot be made synchronous and then
 * detached: an asynchronous call that the caller waits for. */
struct detach_wait {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	unsigned refs;   /* the caller's and the call's */
	bool done, detached;
	int err;
	nfs_done_fn fn;
	void *ctx;
};

static void detach_wait_put_locked(struct detach_wait *w)
{
	bool last = --w->refs == 0;

	pthread_mutex_unlock(&w->mu);
	if (!last)
		return;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

static void detach_wait_done(void *ctx, int err, void *res,
			     struct rpc_reply *reply)
{
	struct detach_wait *w = ctx;
	nfs_done_fn fn = w->fn;
	void *fn_ctx = w->ctx;
	bool detached;

	pthread_mutex_lock(&w->mu);
	detached = w->detached;
	w->done = true;
	w->err = err;
	pthread_cond_signal(&w->cond);
	detach_wait_put_locked(w);
	if (detached)
		fn(fn_ctx, err, res, reply);
	else
		rpc_reply_release(reply);
}

static int call_detach_waiting(struct nfs_client *c, enum nfs3_proc proc,
			       const struct rpc_cred *cred, const void *args,
			       void *res, volatile int *interrupted,
			       nfs_done_fn done, void *ctx)
{
	struct detach_wait *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->mu, NULL);
	clock_cond_init(&w->cond);
	w->refs = 2;
	w->fn = done;
	w->ctx = ctx;
	ret = nfs_call_async(c, proc, cred, args, res, detach_wait_done, w);
	pthread_mutex_lock(&w->mu);
	if (ret) {
		w->refs = 1;
	} else {
		while (!w->done &&
		       !__atomic_load_n(interrupted, __ATOMIC_RELAXED)) {
			struct timespec t = clock_mono_deadline(
				NFS_DETACH_POLL_NS);

			pthread_cond_timedwait(&w->cond, &w->mu, &t);
		}
		if (w->done) {
			ret = w->err;
		} else {
			w->detached = true;
			ret = -EINPROGRESS;
		}
	}
	detach_wait_put_locked(w);
	return ret;
}

int nfs_call_detach(struct nfs_client *c, enum nfs3_proc proc,
		    const struct rpc_cred *cred, const void *args, void *res,
		    volatile int *interrupted, nfs_done_fn done, void *ctx)
{
	const struct nfs_proc *p;
	struct async_call *a;
	int ret;

	if ((unsigned)proc >= NFS3PROC_COUNT || !interrupted || !done)
		return -EINVAL;
	p = &c->v->procs[proc];
	if (proc != NFS3PROC_NULL && !p->dec)
		return -ENOTSUP;
	/* NFSv4.1's calls finish their session slot after the reply, and a
	 * fixup needs the reply buffer: neither is left to a caller that
	 * went away, so those wait for an asynchronous call instead of
	 * reading their reply themselves. */
	if (c->v->call || p->fixup)
		return call_detach_waiting(c, proc, cred, args, res,
					   interrupted, done, ctx);
	a = malloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct async_call){ p->dec, NULL, res, done, ctx };
	ret = rpc_clnt_call_detach(nfs_conn(c), p->wire_proc, cred, p->enc,
				   args, p->dec, res, interrupted, async_done,
				   a);
	if (ret != -EINPROGRESS)
		free(a);
	return ret;
}

static const struct {
	uint32_t status;
	int err;
} stat_errno[] = {
	{ NFS3_OK, 0 },
	{ NFS3ERR_PERM, EPERM },
	{ NFS3ERR_NOENT, ENOENT },
	{ NFS3ERR_IO, EIO },
	{ NFS3ERR_NXIO, ENXIO },
	{ NFS3ERR_ACCES, EACCES },
	{ NFS3ERR_EXIST, EEXIST },
	{ NFS3ERR_XDEV, EXDEV },
	{ NFS3ERR_NODEV, ENODEV },
	{ NFS3ERR_NOTDIR, ENOTDIR },
	{ NFS3ERR_ISDIR, EISDIR },
	{ NFS3ERR_INVAL, EINVAL },
	{ NFS3ERR_FBIG, EFBIG },
	{ NFS3ERR_NOSPC, ENOSPC },
	{ NFS3ERR_ROFS, EROFS },
	{ NFS3ERR_MLINK, EMLINK },
	{ NFS3ERR_NAMETOOLONG, ENAMETOOLONG },
	{ NFS3ERR_NOTEMPTY, ENOTEMPTY },
	{ NFS3ERR_DQUOT, EDQUOT },
	{ NFS3ERR_STALE, ESTALE },
	{ NFS3ERR_REMOTE, EREMOTE },
	{ NFS3ERR_BADHANDLE, ESTALE },
	{ NFS3ERR_NOT_SYNC, EIO },
	{ NFS3ERR_BAD_COOKIE, EINVAL },
	{ NFS3ERR_NOTSUPP, ENOTSUP },
	{ NFS3ERR_TOOSMALL, EINVAL },
	{ NFS3ERR_SERVERFAULT, EREMOTEIO },
	{ NFS3ERR_BADTYPE, EOPNOTSUPP },
	{ NFS3ERR_JUKEBOX, EAGAIN },
};

int nfs_stat_errno(uint32_t status)
{
	static int warned;

	for (size_t i = 0; i < sizeof(stat_errno) / sizeof(stat_errno[0]); i++)
		if (stat_errno[i].status == status)
			return -stat_errno[i].err;
	if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		nf_log(NF_LOG_WARNING, "unknown NFS status %u from server, "
		       "reported as EIO", status);
	return -EIO;
}
