/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_reclaim.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "nfs4_deleg.h"
#include "nfs4_lock.h"
#include "nfs4_open.h"
#include "nfs4_session.h"

struct rreq {
	struct nfs_client *c;
	const struct nfs4_open_info *o;
	uint32_t claim;             /* NFS4_CLAIM_PREVIOUS or _FH */
	char oo[NFS4_OPEN_OWNER_MAX];
	uint32_t st4;               /* the first failure */
	struct nfs4_open_res open;
};

static int build_reclaim(struct nfs4_compound *cmp, void *ctx)
{
	struct rreq *q = ctx;
	struct nfs4_putfh_args pa;
	struct nfs4_open_args a = {
		.share_access = q->o->access | NFS4_SHARE_WANT_NO_DELEG,
		.share_deny = NFS4_SHARE_DENY_NONE,
		.opentype = NFS4_OPEN_NOCREATE,
		.claim = q->claim,
		.delegate_type = NFS4_OPEN_DELEGATE_NONE,
	};

	if (q->o->fh.len == 0 || q->o->fh.len > NFS3_FHSIZE)
		return -EINVAL;
	pa.fh.len = q->o->fh.len;
	memcpy(pa.fh.data, q->o->fh.data, q->o->fh.len);
	/* The client id of the new session, read at each encoding. */
	a.owner.clientid = q->c->v4->clientid;
	a.owner.owner = (const uint8_t *)q->oo;
	a.owner.owner_len = (uint32_t)strlen(q->oo);
	nfs4_add_putfh(cmp, &pa);
	return nfs4_add_open(cmp, &a);
}

static int parse_reclaim(struct nfs4_compound_res *r, void *ctx)
{
	struct rreq *q = ctx;
	struct nfs4_status_res sr;
	int ret;

	q->st4 = NFS4_OK;
	memset(&q->open, 0, sizeof(q->open));
	ret = nfs4_compound_next(r, NFS4OP_PUTFH, &sr);
	if (ret == 0 && sr.status != NFS4_OK) {
		q->st4 = sr.status;
		return 0;
	}
	if (ret == 0)
		ret = nfs4_compound_next(r, NFS4OP_OPEN, &q->open);
	if (ret == -ENODATA) {
		q->st4 = r->status ? r->status : NFS4ERR_SERVERFAULT;
		return 0;
	}
	if (ret)
		return ret;
	q->st4 = q->open.status;
	return 0;
}

/* One OPEN of the reclaim: 0 with q->st4, or the session's error. */
static int reclaim_one(struct rreq *q)
{
	struct nfs4_session *s = q->c->v4;
	struct rpc_cred cred = s->cred;

	/* As the open-owner's user, who could open the file. */
	cred.uid = q->o->uid;
	return nfs4_session_call(s, &cred,
				 NFS4_CALL_RECOVERY | NFS4_CALL_CACHETHIS,
				 build_reclaim, parse_reclaim, q, NULL,
				 &s->stopping);
}

static void mark_lost(struct nfs_client *c, const struct nfs4_open_info *o,
		      const char *why)
{
	uint32_t h = nfs4_rec_fh_hash(o->fh.data, o->fh.len);

	nfs4_opens_mark_lost(c->v4opens, &o->fh, o->uid);
	STAT_INC(nfs4_state_lost);
	nf_log(NF_LOG_WARNING, "NFSv4 recovery: the open of file %08x by uid "
	       "%u is lost (%s): its reads and writes answer EIO until it is "
	       "opened again", h, o->uid, why);
	TRACE("nfs4 recovery: open of %08x by uid %u lost (%s)", h, o->uid,
	      why);
}

struct walk_ctx {
	struct nfs_client *c;
	enum nfs4_reclaim_kind kind;
	bool lapsed;
	unsigned reclaimed, reopened, lost;
};

static int reclaim_open(const struct nfs4_open_info *o, void *ctx)
{
	struct walk_ctx *w = ctx;
	struct rreq q = { .c = w->c, .o = o, .claim = NFS4_CLAIM_PREVIOUS };
	const char *name;
	int ret;

	if (w->kind == NFS4_RECLAIM_LOST) {
		mark_lost(w->c, o, "the lease expired or the server revoked "
			  "it");
		w->lost++;
		return 0;
	}
	nfs4_open_owner_name(o->uid, q.oo);
	ret = reclaim_one(&q);
	if (ret == 0 && q.st4 == NFS4ERR_NO_GRACE) {
		/* No grace period.  Had the lease run out, another client
		 * may have had the file meanwhile: lost.  Otherwise (a
		 * server restarted without one) open it again. */
		if (w->lapsed) {
			mark_lost(w->c, o, "no grace period, and the lease "
				  "ran out");
			w->lost++;
			return 0;
		}
		q.claim = NFS4_CLAIM_FH;
		ret = reclaim_one(&q);
	}
	if (ret)
		return ret; /* the session is gone again: the recovery
			     * starts over and walks again */
	if (q.st4 == NFS4_OK) {
		nfs4_opens_set_stateid(w->c->v4opens, &o->fh, o->uid,
				       &q.open.stateid);
		STAT_INC(nfs4_reclaims);
		if (q.claim == NFS4_CLAIM_PREVIOUS)
			w->reclaimed++;
		else
			w->reopened++;
		return 0;
	}
	name = nfs4_stat_name(q.st4);
	mark_lost(w->c, o, name ? name : "refused");
	w->lost++;
	return 0;
}

static void reclaim_all(void *ctx, struct nfs4_session *s,
			enum nfs4_reclaim_kind kind)
{
	struct walk_ctx w = { .c = ctx, .kind = kind,
			      .lapsed = s->lease_lapsed };
	int ret;

	if (kind == NFS4_RECLAIM_DELEGS) {
		nfs4_delegs_revoked(w.c);
		return;
	}
	/* Delegations are not reclaimed: the server forgot them, and their
	 * files are simply asked about again. */
	nfs4_delegs_lost(w.c);
	ret = nfs4_opens_walk(w.c->v4opens, reclaim_open, &w);
	if (w.reclaimed + w.reopened + w.lost || ret)
		nf_log(NF_LOG_WARNING, "NFSv4 recovery: %u open(s) reclaimed, "
		       "%u opened again (no grace period), %u lost%s%s",
		       w.reclaimed, w.reopened, w.lost, ret ? "; stopped: " : "",
		       ret ? strerror(-ret) : "");
	/* The locks after the opens they are made from, and before
	 * RECLAIM_COMPLETE (RFC 8881 §8.4.2).  A session lost again: the
	 * recovery starts over and walks everything again. */
	if (ret == 0)
		nfs4_lock_reclaim(w.c, kind, w.lapsed);
}

void nfs4_reclaim_register(struct nfs_client *c)
{
	nfs4_session_set_reclaim(c->v4, reclaim_all, c);
}
