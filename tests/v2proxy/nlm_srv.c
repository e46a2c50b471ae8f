/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NLM versions 1 and 3 of nfs2to3proxy, each call made of one NLM v4 call
 * to the server's lock manager.  What changes between the versions:
 *   - the file handle: the 32-byte v2 handle this proxy made becomes the
 *     server's v3 handle again (maps.c);
 *   - offsets and lengths: 32 bits go up to 64 as they are; a holder's
 *     range that does not fit 32 bits comes back clamped to
 *     NLM_V1_OFFSET_MAX, as Linux lockd answers a v1/v3 TEST (len 0, "to
 *     end of file", stays 0);
 *   - the status: v4's own values have no v1/v3 name: DEADLCK becomes
 *     DENIED and the rest DENIED_NOLOCKS (Linux lockd's cast_status).
 * The caller name, owner handle, svid and cookie pass through untouched,
 * so the server sees each client as itself.  Only the procedures a client
 * calls synchronously are served (NULL, TEST, LOCK, CANCEL, UNLOCK, and
 * FREE_ALL in v3): the _MSG/_RES ones, GRANTED and SHARE get PROC_UNAVAIL.
 * GRANTED callbacks from the server are not translated: a client of this
 * proxy polls its blocked locks.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nlm.h"
#include "v2proxy.h"

static uint32_t stat_to_v1(uint32_t s)
{
	if (s <= NLM_DENIED_GRACE_PERIOD)
		return s;
	return s == NLM4_DEADLCK ? NLM_DENIED : NLM_DENIED_NOLOCKS;
}

static uint64_t clamp32(uint64_t v)
{
	return v > NLM_V1_OFFSET_MAX ? NLM_V1_OFFSET_MAX : v;
}

/* The v2 handle in a->fh becomes the server's handle in *fh3; a->fh then
 * points at it.  -ESTALE for a handle of the wrong size or not ours. */
static int lock_to_v4(struct nlm_lock *a, struct nfs_fh3 *fh3)
{
	struct nfs2_fh fh2;

	if (a->fh.len != NFS2_FHSIZE)
		return -ESTALE;
	memcpy(fh2.data, a->fh.data, NFS2_FHSIZE);
	if (map_fh_to_v3(&fh2, fh3))
		return -ESTALE;
	a->fh.data = fh3->data;
	a->fh.len = fh3->len;
	return 0;
}

/* Where the lock is in the arguments of LOCK, CANCEL and UNLOCK (each
 * begins with its cookie). */
static const size_t alock_at[] = {
	[NLMPROC_LOCK] = offsetof(struct nlm_lockargs, alock),
	[NLMPROC_CANCEL] = offsetof(struct nlm_cancargs, alock),
	[NLMPROC_UNLOCK] = offsetof(struct nlm_unlockargs, alock),
};

/* LOCK, CANCEL, UNLOCK: the v1/v3 arguments, the v4 call, struct nlm_res
 * back (the same in every version). */
static uint32_t serve_res(struct conn *c, uint32_t vers, uint32_t proc,
			  const struct rpc_cred *cred, struct xdr_dec *d,
			  struct xdr_enc *e)
{
	union {
		struct nlm_lockargs lock;
		struct nlm_cancargs cancel;
		struct nlm_unlockargs unlock;
	} a;
	struct nlm_netobj *cookie = &a.unlock.cookie;
	struct nlm_lock *alock = (struct nlm_lock *)((char *)&a +
						     alock_at[proc]);
	struct nlm_res res = { { NULL, 0 }, NLM_DENIED_NOLOCKS };
	struct nfs_fh3 fh3;
	uint8_t *buf = NULL;

	if (nlm_proc_codec(vers, proc)->dec_args(d, &a))
		return RPC_GARBAGE_ARGS;
	/* A handle that is not ours: no STALE_FH in v1/v3. */
	if (lock_to_v4(alock, &fh3) == 0) {
		if (up_call(&c->nlm, proc, cred,
			    nlm_proc_codec(NLM_V4, proc)->enc_args, &a,
			    nlm_dec_res, &res, &buf)) {
			free(buf);
			return RPC_SYSTEM_ERR;
		}
		res.stat = stat_to_v1(res.stat);
	}
	res.cookie = *cookie;
	nlm_enc_res(e, &res);
	free(buf);
	return RPC_SUCCESS;
}

static uint32_t serve_test(struct conn *c, const struct rpc_cred *cred,
			   struct xdr_dec *d, struct xdr_enc *e)
{
	struct nlm_testargs a;
	struct nlm_testres r;
	struct nfs_fh3 fh3;
	uint8_t *buf = NULL;
	int ret;

	if (nlm_dec_testargs_v1(d, &a))
		return RPC_GARBAGE_ARGS;
	if (lock_to_v4(&a.alock, &fh3)) {
		memset(&r, 0, sizeof(r));
		r.cookie = a.cookie;
		r.stat = NLM_DENIED_NOLOCKS;
		nlm_enc_testres_v1(e, &r);
		return RPC_SUCCESS;
	}
	ret = up_call(&c->nlm, NLMPROC_TEST, cred, nlm_enc_testargs_v4, &a,
		      nlm_dec_testres_v4, &r, &buf);
	if (ret) {
		free(buf);
		return RPC_SYSTEM_ERR;
	}
	r.stat = stat_to_v1(r.stat);
	if (r.stat == NLM_DENIED) {
		r.holder.l_offset = clamp32(r.holder.l_offset);
		r.holder.l_len = clamp32(r.holder.l_len);
	}
	nlm_enc_testres_v1(e, &r);
	free(buf);
	return RPC_SUCCESS;
}

uint32_t nlm1_serve(struct conn *c, uint32_t vers, uint32_t proc,
		    const struct rpc_cred *cred, struct xdr_dec *d,
		    struct xdr_enc *e)
{
	switch (proc) {
	case NLMPROC_NULL:
		return RPC_SUCCESS;
	case NLMPROC_TEST:
		return serve_test(c, cred, d, e);
	case NLMPROC_LOCK:
	case NLMPROC_CANCEL:
	case NLMPROC_UNLOCK:
		return serve_res(c, vers, proc, cred, d, e);
	case NLMPROC_FREE_ALL: {
		struct nlm_notify a;
		uint8_t *buf = NULL;
		int ret;

		if (vers != NLM_V3)
			break;
		if (nlm_dec_notify(d, &a))
			return RPC_GARBAGE_ARGS;
		ret = up_call(&c->nlm, proc, cred, nlm_enc_notify, &a, NULL,
			      NULL, &buf);
		free(buf);
		return ret ? RPC_SYSTEM_ERR : RPC_SUCCESS;
	}
	}
	return RPC_PROC_UNAVAIL;
}
