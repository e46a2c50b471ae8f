/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NFSv4.2 SEEK, ALLOCATE, DEALLOCATE and COPY: see nfs42_ops.h. */
#include "nfs42_ops.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../xdr/nfs4.h"
#include "../base/log.h"
#include "nfs4_open.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

/* A COPY whose destination's COMMIT shows another verifier (the server
 * restarted in between) is sent again, this many times at most. */
#define COPY_TRIES 3


/* The caller's open stateid of fh, with seqid 0 (the current one: an
 * OPEN of the same file by the same user may bump it meanwhile), as
 * READ and WRITE carry it; false (and the anonymous stateid) where the
 * caller has the file open nowhere. */
static bool io_stateid(struct nfs_client *c, const struct nfs_fh3 *fh,
		       const struct rpc_cred *cred, struct nfs4_stateid *sid)
{
	if (nfs4_open_stateid(c, fh, cred ? cred->uid : 0, sid) == 0) {
		sid->seqid = 0;
		return true;
	}
	*sid = nfs4_anon_stateid;
	return false;
}

bool nfs42_available(const struct nfs_client *c)
{
	return c && c->v4 && c->v4->minor >= 2;
}

/* NFSv4 statuses that mean "this server will not do it": the caller
 * does the work some other way. */
static bool means_notsupp(uint32_t st4)
{
	switch (st4) {
	case NFS4ERR_NOTSUPP: case NFS4ERR_OP_ILLEGAL:
	case NFS4ERR_OFFLOAD_NO_REQS: case NFS4ERR_OFFLOAD_DENIED:
	case NFS4ERR_PARTNER_NOTSUPP: case NFS4ERR_PARTNER_NO_AUTH:
	case NFS4ERR_XDEV: case NFS4ERR_UNION_NOTSUPP:
		return true;
	default:
		return false;
	}
}

static uint32_t status3(uint32_t st4)
{
	return means_notsupp(st4) ? NFS3ERR_NOTSUPP : nfs4_stat_to_nfs3(st4);
}

/* ---- SEEK ---- */

/*
 * SEEK carries the caller's open stateid.  A caller without an open of
 * the file (the anonymous stateid is allowed by RFC 7862, but
 * nfs-ganesha then answers NFS4_OK and offset 0 without looking at the
 * file) gets an open of its own: PUTFH OPEN(CLAIM_FH, read) SEEK CLOSE,
 * with the current stateid, as an open-owner of these calls only, so
 * that the CLOSE ends this open and no other.  A SEEK that fails (NXIO
 * past the last data) stops the COMPOUND before its CLOSE, which then
 * goes alone.  (A call interrupted before its reply may leave that open
 * on the server; the next SEEK of the file by the same user, same owner,
 * closes it.)
 */
struct seek_call {
	struct nfs_client *c;
	const struct nfs_fh3 *fh;
	char oo[32];                 /* the open-owner */
	bool own_open;               /* no open of the caller's: OPEN, CLOSE */
	struct nfs4_seek_args args;
	struct nfs42_seek_res *res;
	bool opened, closed;
	struct nfs4_stateid open_sid;
};


static int build_seek(struct nfs4_compound *cmp, void *ctx)
{
	struct seek_call *q = ctx;
	struct nfs4_open_args o = {
		.share_access = NFS4_SHARE_ACCESS_READ |
				NFS4_SHARE_WANT_NO_DELEG,
		.share_deny = NFS4_SHARE_DENY_NONE,
		.opentype = NFS4_OPEN_NOCREATE,
		.claim = NFS4_CLAIM_FH,
	};
	struct nfs4_close_args cl = { .stateid = nfs4_current_stateid };
	int ret = nfs4_add_putfh3(cmp, q->fh);

	if (ret)
		return ret;
	if (!q->own_open)
		return nfs4_add_seek(cmp, &q->args);
	o.owner.clientid = q->c->v4->clientid;
	o.owner.owner = (const uint8_t *)q->oo;
	o.owner.owner_len = (uint32_t)strlen(q->oo);
	nfs4_add_open(cmp, &o);
	nfs4_add_seek(cmp, &q->args);
	return nfs4_add_close(cmp, &cl);
}

static int parse_seek(struct nfs4_compound_res *r, void *ctx)
{
	struct seek_call *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs4_stateid_res cr;
	struct nfs4_status_res sr;
	struct nfs4_open_res or;
	struct nfs4_seek_res s;
	int ret;

	memset(q->res, 0, sizeof(*q->res));
	q->opened = q->closed = false;
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr)) <= 0)
		goto out;
	if (q->own_open) {
		if ((ret = nfs4_walk_next(r, &w, NFS4OP_OPEN, &or)) <= 0)
			goto out;
		q->opened = true;
		q->open_sid = or.stateid;
	}
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_SEEK, &s)) <= 0)
		goto out;
	q->res->eof = s.eof;
	q->res->offset = s.offset;
	if (!q->own_open)
		goto out;
	/* The CLOSE's outcome is not the SEEK's: only whether it ran. */
	ret = nfs4_compound_next(r, NFS4OP_CLOSE, &cr);
	if (ret == 0)
		q->closed = true;
	else if (ret == -ENODATA)
		ret = 0;
out:
	if (ret < 0)
		return ret;
	q->res->status = status3(w.st4);
	return 0;
}

static int build_close(struct nfs4_compound *cmp, void *ctx)
{
	struct seek_call *q = ctx;
	struct nfs4_close_args cl = { .stateid = q->open_sid };
	int ret = nfs4_add_putfh3(cmp, q->fh);

	return ret ? ret : nfs4_add_close(cmp, &cl);
}

static int parse_close(struct nfs4_compound_res *r, void *ctx)
{
	struct nfs4_status_res sr;
	struct nfs4_stateid_res cr;
	int ret;

	(void)ctx;
	if ((ret = nfs4_compound_next(r, NFS4OP_PUTFH, &sr)) ||
	    sr.status != NFS4_OK)
		return ret == -ENODATA ? 0 : ret;
	ret = nfs4_compound_next(r, NFS4OP_CLOSE, &cr);
	if (ret == 0 && cr.status != NFS4_OK)
		nf_log(NF_LOG_INFO, "CLOSE after SEEK: %s",
		       nfs4_stat_name(cr.status));
	return ret == -ENODATA ? 0 : ret;
}

int nfs42_seek(struct nfs_client *c, const struct rpc_cred *cred,
	       const struct nfs_fh3 *fh, uint64_t offset, bool hole,
	       struct nfs42_seek_res *res, volatile int *interrupted)
{
	struct seek_call q = {
		.c = c,
		.fh = fh,
		.args = { nfs4_current_stateid, offset,
			  hole ? NFS4_CONTENT_HOLE : NFS4_CONTENT_DATA },
		.res = res,
	};
	int ret;

	if (!nfs42_available(c))
		return -ENOTSUP;
	q.own_open = !io_stateid(c, fh, cred, &q.args.stateid);
	if (q.own_open)
		q.args.stateid = nfs4_current_stateid;
	snprintf(q.oo, sizeof(q.oo), "seek-uid-%u",
		 cred ? (unsigned)cred->uid : 0u);
	ret = nfs4_session_call(c->v4, cred, q.own_open ?
				NFS4_CALL_CACHETHIS : 0, build_seek,
				parse_seek, &q, NULL, interrupted);
	/* Even when this call was interrupted: the open must not stay. */
	if (q.opened && !q.closed &&
	    nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS, build_close,
			      parse_close, &q, NULL, NULL))
		nf_log(NF_LOG_INFO, "CLOSE after SEEK not sent");
	return ret;
}

int64_t nfs42_seek_answer(const struct nfs42_seek_res *res, bool hole)
{
	if (res->status != NFS3_OK)
		return nfs_stat_errno(res->status);
	/* Data asked for and the end reached: there is none after offset
	 * (the offset a server gives then is no data's). */
	if (!hole && res->eof)
		return -ENXIO;
	if (res->offset > (uint64_t)INT64_MAX)
		return -EOVERFLOW;
	return (int64_t)res->offset;
}

/* ---- ALLOCATE, DEALLOCATE ---- */

struct space_call {
	const struct nfs_fh3 *fh;
	bool dealloc;
	struct nfs4_allocate_args args;
	struct nfs42_space_res *res;
};

static int build_space(struct nfs4_compound *cmp, void *ctx)
{
	struct space_call *q = ctx;
	int ret = nfs4_add_putfh3(cmp, q->fh);

	if (ret)
		return ret;
	nfs4_add_getattr3(cmp);
	if (q->dealloc)
		nfs4_add_deallocate(cmp, &q->args);
	else
		nfs4_add_allocate(cmp, &q->args);
	return nfs4_add_getattr3(cmp);
}

static int parse_space(struct nfs4_compound_res *r, void *ctx)
{
	struct space_call *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs42_space_res *res = q->res;
	struct nfs4_status_res sr;
	struct post_op_attr before = { .present = false };
	int ret;

	memset(res, 0, sizeof(*res));
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr)) <= 0)
		goto out;
	if ((ret = nfs4_walk_attr(r, &w, &before)) < 0)
		return ret;
	if (before.present) {
		res->wcc.before.present = true;
		res->wcc.before.attr.size = before.attr.size;
		res->wcc.before.attr.mtime = before.attr.mtime;
		res->wcc.before.attr.ctime = before.attr.ctime;
	}
	if ((ret = nfs4_walk_next(r, &w, q->dealloc ? NFS4OP_DEALLOCATE
					  : NFS4OP_ALLOCATE, &sr)) <= 0)
		goto out;
	ret = nfs4_walk_attr(r, &w, &res->wcc.after);
out:
	if (ret < 0)
		return ret;
	/* The first GETATTR failed: the operation itself was never run. */
	if (w.st4 == NFS4_OK && !before.present)
		w.st4 = r->status ? r->status : NFS4ERR_SERVERFAULT;
	res->status = status3(w.st4);
	return 0;
}

int nfs42_space(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, bool dealloc, uint64_t offset,
		uint64_t length, struct nfs42_space_res *res,
		volatile int *interrupted)
{
	struct space_call q = {
		.fh = fh,
		.dealloc = dealloc,
		.args = { nfs4_anon_stateid, offset, length },
		.res = res,
	};

	if (!nfs42_available(c))
		return -ENOTSUP;
	io_stateid(c, fh, cred, &q.args.stateid);
	return nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS,
				 build_space, parse_space, &q, NULL,
				 interrupted);
}

/* ---- COPY ---- */

struct copy_call {
	const struct nfs_fh3 *src, *dst;
	struct nfs4_copy_args args;
	struct nfs42_copy_res *res;
	bool verf_differs;   /* COMMIT's verifier is not COPY's */
};

static int build_copy(struct nfs4_compound *cmp, void *ctx)
{
	struct copy_call *q = ctx;
	/* count 0 commits from the offset to the end of the file */
	struct nfs4_commit_args ca = { q->args.dst_offset, 0 };
	int ret = nfs4_add_putfh3(cmp, q->src);

	if (ret)
		return ret;
	nfs4_add_savefh(cmp);
	if ((ret = nfs4_add_putfh3(cmp, q->dst)))
		return ret;
	nfs4_add_copy(cmp, &q->args);
	nfs4_add_commit(cmp, &ca);
	return nfs4_add_getattr3(cmp);
}

static int parse_copy(struct nfs4_compound_res *r, void *ctx)
{
	static int warned;
	struct copy_call *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs42_copy_res *res = q->res;
	struct nfs4_status_res sr;
	struct nfs4_commit_res cm;
	struct nfs4_copy_res cp;
	int ret;

	memset(res, 0, sizeof(*res));
	q->verf_differs = false;
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr)) <= 0 ||
	    (ret = nfs4_walk_next(r, &w, NFS4OP_SAVEFH, &sr)) <= 0 ||
	    (ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr)) <= 0 ||
	    (ret = nfs4_walk_next(r, &w, NFS4OP_COPY, &cp)) <= 0)
		goto out;
	if (cp.has_callback_id) {
		/* Asked for a synchronous copy, the server started one in
		 * the background, whose end only a callback would tell:
		 * the caller copies the bytes itself (the same bytes). */
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			nf_log(NF_LOG_WARNING, "server answered a synchronous "
			       "COPY with an asynchronous one: copying "
			       "through the client instead");
		w.st4 = NFS4ERR_OFFLOAD_NO_REQS;
		w.stopped = true;
		goto out;
	}
	res->count = cp.count;
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_COMMIT, &cm)) <= 0)
		goto out;
	q->verf_differs = cp.committed != NFS4_FILE_SYNC &&
			  memcmp(cp.verifier, cm.verifier, NFS4_VERIFIER_SIZE);
	ret = nfs4_walk_attr(r, &w, &res->dst_attr);
out:
	if (ret < 0)
		return ret;
	res->status = status3(w.st4);
	return 0;
}

int nfs42_copy(struct nfs_client *c, const struct rpc_cred *cred,
	       const struct nfs_fh3 *src, uint64_t src_off,
	       const struct nfs_fh3 *dst, uint64_t dst_off, uint64_t count,
	       struct nfs42_copy_res *res, volatile int *interrupted)
{
	struct copy_call q = {
		.src = src,
		.dst = dst,
		.args = { .src_stateid = nfs4_anon_stateid,
			  .dst_stateid = nfs4_anon_stateid,
			  .src_offset = src_off, .dst_offset = dst_off,
			  .count = count, .consecutive = true,
			  .synchronous = true },
		.res = res,
	};
	int ret;

	if (!nfs42_available(c))
		return -ENOTSUP;
	io_stateid(c, src, cred, &q.args.src_stateid);
	io_stateid(c, dst, cred, &q.args.dst_stateid);
	for (int i = 0; i < COPY_TRIES; i++) {
		ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS,
					build_copy, parse_copy, &q, NULL,
					interrupted);
		if (ret || res->status != NFS3_OK || !q.verf_differs)
			return ret;
		nf_log(NF_LOG_INFO, "write verifier changed between COPY and "
		       "COMMIT (server restarted?): copying again");
	}
	res->status = NFS3ERR_IO;
	return 0;
}
