/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the tests of wback.c, which fake the call layer (nfs_call_async()):
 * a WRITE that wback sends synchronously (when it would only wait for it)
 * goes through the same held replies as an asynchronous one and is
 * answered when they are, so the tests keep the order of answers in hand.
 * Their nfs_call() hands a WRITE to sync_write(); nfs_call_detach() is
 * defined here for both.
 */
#ifndef NFSFUSE_TEST_WBACK_SYNC_H
#define NFSFUSE_TEST_WBACK_SYNC_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "../../src/proto/nfs.h"

struct sync_write {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
	int err;
};

static void sync_write_done(void *ctx, int err, void *res,
			    struct rpc_reply *reply)
{
	struct sync_write *w = ctx;

	(void)res;
	rpc_reply_release(reply);
	pthread_mutex_lock(&w->mu);
	w->done = true;
	w->err = err;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static int sync_write(struct nfs_client *c, const struct rpc_cred *cred,
		      const void *args, void *res)
{
	struct sync_write w = { PTHREAD_MUTEX_INITIALIZER,
				PTHREAD_COND_INITIALIZER, false, 0 };
	int ret = nfs_call_async(c, NFS3PROC_WRITE, cred, args, res,
				 sync_write_done, &w);

	if (ret)
		return ret;
	pthread_mutex_lock(&w.mu);
	while (!w.done)
		pthread_cond_wait(&w.cv, &w.mu);
	pthread_mutex_unlock(&w.mu);
	return w.err;
}

/*
 * nfs_call_detach() of the fake layer: a WRITE goes through
 * nfs_call_async() and is waited for until *interrupted is set; then the
 * wait ends with -EINPROGRESS and done(ctx) runs when the reply is
 * released, as the real one does.  A COMMIT is answered at once, as by
 * the test's nfs_call(): it never waits long enough to be stopped.
 */
struct sync_detach {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned refs;
	bool done, detached;
	int err;
	nfs_done_fn fn;
	void *ctx;
};

static void sync_detach_put_locked(struct sync_detach *w)
{
	bool last = --w->refs == 0;

	pthread_mutex_unlock(&w->mu);
	if (last)
		free(w);
}

static void sync_detach_done(void *ctx, int err, void *res,
			     struct rpc_reply *reply)
{
	struct sync_detach *w = ctx;
	nfs_done_fn fn = w->fn;
	void *fn_ctx = w->ctx;
	bool detached;

	pthread_mutex_lock(&w->mu);
	detached = w->detached;
	w->done = true;
	w->err = err;
	pthread_cond_signal(&w->cv);
	sync_detach_put_locked(w);
	if (detached)
		fn(fn_ctx, err, res, reply);
	else
		rpc_reply_release(reply);
}

int nfs_call_detach(struct nfs_client *c, enum nfs3_proc proc,
		    const struct rpc_cred *cred, const void *args, void *res,
		    volatile int *interrupted, nfs_done_fn done, void *ctx)
{
	struct sync_detach *w;
	int ret;

	if (proc != NFS3PROC_WRITE)
		return nfs_call(c, proc, cred, args, res, NULL, interrupted);
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->refs = 2;
	w->fn = done;
	w->ctx = ctx;
	ret = nfs_call_async(c, proc, cred, args, res, sync_detach_done, w);
	pthread_mutex_lock(&w->mu);
	if (ret) {
		w->refs = 1;
	} else {
		while (!w->done && !*interrupted) {
			struct timespec t;

			clock_gettime(CLOCK_REALTIME, &t);
			t.tv_nsec += 10 * 1000 * 1000;
			if (t.tv_nsec >= 1000000000) {
				t.tv_sec++;
				t.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&w->cv, &w->mu, &t);
		}
		if (w->done) {
			ret = w->err;
		} else {
			w->detached = true;
			ret = -EINPROGRESS;
		}
	}
	sync_detach_put_locked(w);
	return ret;
}

#endif
