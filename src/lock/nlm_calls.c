/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NLM calls of the lock manager (LOCK, CANCEL, UNLOCK) over its one
 * synchronous connection (nlm_client.c), and what their answers mean.
 */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "../base/userns.h"
#include "../base/trace.h"
#include "lock_int.h"


void lk_cred_for_call(struct lockmgr *lm, const struct rpc_cred *in,
			  struct rpc_cred *out)
{
	if (in) {
		*out = *in;
	} else {
		memset(out, 0, sizeof(*out));
		out->flavor = RPC_AUTH_SYS;
		out->uid = geteuid();
		out->gid = getegid();
		userns_cred_out(out);
	}
	if (out->flavor == RPC_AUTH_SYS)
		out->machinename = lm->caller_name;
}

/* ---- NLM calls ---- */

const struct xdr_proc_codec *lk_codec(struct lockmgr *lm, uint32_t proc)
{
	return nlm_proc_codec(lm->nlm_vers, proc);
}

struct rpc_addr lk_nlm_peer(struct lockmgr *lm,
			    const struct rpc_addr *server)
{
	struct rpc_addr peer = *server;

	rpc_addr_set_port(&peer, 0);
	if (lm->cfg.nlm_port && rpc_addr_same_host(server, &lm->cfg.server))
		rpc_addr_set_port(&peer, lm->cfg.nlm_port);
	return peer;
}

/* NLM v3 carries 32-bit ranges: refuse what it cannot say, as the Linux
 * NFSv2 client does (nfs_lock_check_bounds: EINVAL), rather than lock
 * something else than what was asked. */
int lk_check_range(struct lockmgr *lm, const struct lock_req *r)
{
	if (lm->nlm_vers == NLM_V4 || nlm_range_fits_v1(r->start, r->len))
		return 0;
	TRACE("lock ino=%" PRIu64 " %" PRIu64 "+%" PRIu64 ": beyond the "
	      "32-bit ranges of NLM v%u", r->ino, r->start, r->len,
	      lm->nlm_vers);
	return -EINVAL;
}

void lk_next_cookie(struct lockmgr *lm, uint8_t c[8])
{
	uint64_t v;

	pthread_mutex_lock(&lm->mu);
	v = ++lm->cookie;
	pthread_mutex_unlock(&lm->mu);
	for (int i = 0; i < 8; i++)
		c[i] = (uint8_t)(v >> (56 - 8 * i));
}

/*
 * LOCK, CANCEL or UNLOCK of c->a: one call, its arguments filled from c.
 * The three argument structures share the cookie and the lock, and
 * differ in the flags each carries.
 */
int lk_nlm_call(struct lockmgr *lm, uint32_t proc, const struct lk_call *c,
		uint32_t *stat)
{
	return lk_nlm_call_on(lm, &lm->nlm, lm->nlm_vers, proc, c, stat);
}

int lk_nlm_call_on(struct lockmgr *lm, struct lk_conn *conn, uint32_t vers,
		   uint32_t proc, const struct lk_call *c, uint32_t *stat)
{
	union {
		struct nlm_lockargs lock;
		struct nlm_cancargs canc;
		struct nlm_unlockargs unlock;
	} args;
	struct nlm_netobj cookie;
	struct nlm_res res;
	struct rpc_reply reply;
	struct rpc_cred cred;
	uint8_t fresh[8];
	int ret;

	if (c->cookie) {
		cookie.data = c->cookie;
		cookie.len = c->cookie_len;
	} else {
		lk_next_cookie(lm, fresh);
		cookie.data = fresh;
		cookie.len = sizeof(fresh);
	}
	lk_cred_for_call(lm, c->cred, &cred);
	memset(&args, 0, sizeof(args));
	switch (proc) {
	case NLMPROC_LOCK:
		args.lock.cookie = cookie;
		args.lock.block = c->block;
		args.lock.exclusive = c->excl;
		args.lock.alock = *c->a;
		args.lock.reclaim = c->reclaim;
		args.lock.state = lm->nsm_state;
		break;
	case NLMPROC_CANCEL:
		args.canc.cookie = cookie;
		args.canc.block = true;
		args.canc.exclusive = c->excl;
		args.canc.alock = *c->a;
		break;
	case NLMPROC_UNLOCK:
		args.unlock.cookie = cookie;
		args.unlock.alock = *c->a;
		break;
	default:
		return -EINVAL;
	}
	ret = lk_conn_call(conn, proc, &cred,
			   nlm_proc_codec(vers, proc)->enc_args, &args,
			   nlm_dec_res, &res, &reply, LK_CALL_MS);
	if (ret)
		return ret;
	*stat = res.stat;
	rpc_reply_release(&reply);
	return 0;
}

int lk_stat_errno(struct lockmgr *lm, uint32_t stat)
{
	int e = lm->nlm_vers == NLM_V4 ? nlm_stat_errno(stat)
				       : nlm_stat_errno_v1(stat);

	if (e == -EIO)
		nf_log(NF_LOG_WARNING, "NLM v%u: unknown status %u",
		       lm->nlm_vers, stat);
	return e;
}
