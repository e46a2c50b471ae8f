/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the tests of wback.c, which fake the call layer (nfs_call_async()):
 * a WRITE that wback sends synchronously (when it would only wait for it)
 * goes through the same held replies as an asynchronous one and is
 * answered when they are, so the tests keep the order of answers in hand.
 * Their nfs_call() hands a WRITE to sync_write().
 */
#ifndef NFSFUSE_TEST_WBACK_SYNC_H
#define NFSFUSE_TEST_WBACK_SYNC_H

#include <pthread.h>
#include <stdbool.h>

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

#endif
