/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * OPEN, OPEN_DOWNGRADE, CLOSE and DELEGRETURN on the wire, keeping the
 * table of nfs4_open.c (and offering nfs4_deleg.c what an OPEN brought).
 *
 *   open of a file    PUTFH OPEN(CLAIM_FH) [ACCESS] GETATTR
 *   create            PUTFH(dir) SAVEFH OPEN(CLAIM_NULL, OPEN4_CREATE)
 *                     GETFH [SETATTR] GETATTR RESTOREFH GETATTR(dir)
 *   downgrade         PUTFH OPEN_DOWNGRADE
 *   last release      PUTFH CLOSE
 *
 * Each asks the server to keep its reply (a retransmission must not open
 * or close twice).
 */
#include "nfs4_open.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "nfs4_deleg.h"
#include "nfs4_idmap.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

struct oreq {
	struct nfs_client *c;
	const struct nfs_fh3 *fh;           /* the file, or create's dir */
	const struct nfs3_create_args *create; /* NULL: open by handle */
	/* Set on the new file in the same COMPOUND (an exclusive create's
	 * mode and times); NULL: none. */
	const struct sattr3 *then_set;
	uint32_t access;
	uint32_t want;                      /* NFS4_SHARE_WANT_* */
	char oo[NFS4_OPEN_OWNER_MAX];
	char owner[NFS4_IDMAP_NAME_MAX];
	char group[NFS4_IDMAP_NAME_MAX];
	/* results */
	uint32_t st4;
	struct nfs4_open_res open;
	struct nfs_fh3 newfh;
	bool has_newfh;
	bool then_set_done;
	struct post_op_attr attr;
	struct wcc_data dir_wcc;            /* create's */
	struct nfs4_access_ask *ask;        /* open's, or NULL */
};

static int create_how(struct oreq *q, struct nfs4_open_args *o)
{
	const struct nfs3_create_args *a = q->create;
	const struct sattr3 *s = &a->obj_attributes;
	size_t n = a->where.name ? strnlen(a->where.name, NFS4_MAXNAMLEN + 1)
				 : 0;

	if (n == 0)
		return -EINVAL;
	if (n > NFS4_MAXNAMLEN)
		return -ENAMETOOLONG;
	o->opentype = NFS4_OPEN_CREATE;
	o->claim = NFS4_CLAIM_NULL;
	o->name = nfs4_str(a->where.name);
	switch (a->mode) {
	case UNCHECKED:
	case GUARDED:
		o->createmode = a->mode == UNCHECKED ? NFS4_CREATE_UNCHECKED
						     : NFS4_CREATE_GUARDED;
		if (s->set_uid)
			nfs4_idmap_user(s->uid, q->owner, sizeof(q->owner));
		if (s->set_gid)
			nfs4_idmap_group(s->gid, q->group, sizeof(q->group));
		return nfs4_fattr_from_sattr3(s, s->set_uid ? q->owner : NULL,
					      s->set_gid ? q->group : NULL,
					      &o->createattrs);
	case EXCLUSIVE:
		/* The attributes follow in a SETATTR, as with v3 (in the
		 * same COMPOUND with then_set). */
		o->createmode = NFS4_CREATE_EXCLUSIVE4_1;
		memcpy(o->verifier, a->verf, NFS4_VERIFIER_SIZE);
		return 0;
	default:
		return -EINVAL;
	}
}

static int build_open(struct nfs4_compound *cmp, void *ctx)
{
	struct oreq *q = ctx;
	struct nfs4_open_args o = {
		.share_access = q->access | q->want,
		.share_deny = NFS4_SHARE_DENY_NONE,
		.opentype = NFS4_OPEN_NOCREATE,
		.claim = NFS4_CLAIM_FH,
	};
	int ret;

	o.owner.clientid = q->c->v4->clientid;
	o.owner.owner = (const uint8_t *)q->oo;
	o.owner.owner_len = (uint32_t)strlen(q->oo);
	if (q->create && (ret = create_how(q, &o)))
		return ret;
	if ((ret = nfs4_add_putfh3(cmp, q->fh)))
		return ret;
	if (!q->create) {
		nfs4_add_open(cmp, &o);
		if (q->ask)
			nfs4_add_access(cmp, &(struct nfs4_access_args){
						     q->ask->asked & 0x3f });
		return nfs4_add_getattr3(cmp);
	}
	/* The directory's attributes after, as every create reads them
	 * (nfs4_procs.c says why). */
	nfs4_add_savefh(cmp);
	nfs4_add_open(cmp, &o);
	nfs4_add_getfh(cmp);
	if (q->then_set) {
		/* No size: the anonymous stateid will do (RFC 8881
		 * §18.30.3). */
		struct nfs4_setattr_args sa = { .stateid = nfs4_anon_stateid };

		if ((ret = nfs4_fattr_from_sattr3(q->then_set, NULL, NULL,
						  &sa.attrs)))
			return ret;
		nfs4_add_setattr(cmp, &sa);
	}
	nfs4_add_getattr3(cmp);
	nfs4_add_restorefh(cmp);
	return nfs4_add_getattr3(cmp);
}

static int parse_open(struct nfs4_compound_res *r, void *ctx)
{
	struct oreq *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs4_status_res sr;
	int ret;

	q->has_newfh = false;
	q->then_set_done = false;
	q->attr.present = false;
	memset(&q->dir_wcc, 0, sizeof(q->dir_wcc));
	memset(&q->open, 0, sizeof(q->open));
	ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr);
	if (ret > 0 && q->create)
		ret = nfs4_walk_next(r, &w, NFS4OP_SAVEFH, &sr);
	if (ret > 0)
		ret = nfs4_walk_next(r, &w, NFS4OP_OPEN, &q->open);
	q->st4 = w.st4;
	if (ret <= 0)
		return ret;
	if (q->create) {
		/* A walk of its own: a failed GETFH leaves the OPEN done,
		 * but the file cannot be named. */
		struct nfs4_walk fw = NFS4_WALK_INIT;
		struct nfs4_getfh_res gf;

		if ((ret = nfs4_walk_next(r, &fw, NFS4OP_GETFH, &gf)) <= 0)
			return ret;
		q->has_newfh = nfs4_fh_to_fh3(&gf.fh, &q->newfh) == 0;
		/* Optional as well: the caller sets what it could not. */
		if (q->then_set) {
			struct nfs4_setattr_res sa;

			if ((ret = nfs4_walk_optional(r, &fw, NFS4OP_SETATTR,
						      &sa)) <= 0)
				return ret;
			q->then_set_done = true;
		}
	}
	if (q->ask) {
		/* Optional too: without it the caller asks on its own. */
		struct nfs4_access_res ar;

		q->ask->answered = false;
		if ((ret = nfs4_walk_optional(r, &w, NFS4OP_ACCESS, &ar)) <= 0)
			return ret;
		q->ask->answered = true;
		q->ask->granted = ar.access;
	}
	/* The attributes are optional: the open stands without them. */
	if ((ret = nfs4_walk_attr(r, &w, &q->attr)) || !q->create)
		return ret;
	return nfs4_walk_dir_after(r, &w, &q->open.cinfo, &q->dir_wcc);
}

struct sreq {      /* OPEN_DOWNGRADE, CLOSE, DELEGRETURN, FREE_STATEID */
	const struct nfs_fh3 *fh;
	uint32_t op;
	struct nfs4_stateid sid;
	uint32_t want;
	uint32_t st4;
	struct nfs4_stateid out;
};

static int build_state(struct nfs4_compound *cmp, void *ctx)
{
	struct sreq *q = ctx;
	int ret = nfs4_add_putfh3(cmp, q->fh);

	if (ret)
		return ret;
	if (q->op == NFS4OP_OPEN_DOWNGRADE) {
		struct nfs4_open_downgrade_args a = {
			.stateid = q->sid, .share_access = q->want,
			.share_deny = NFS4_SHARE_DENY_NONE };

		return nfs4_add_open_downgrade(cmp, &a);
	}
	if (q->op == NFS4OP_CLOSE) {
		struct nfs4_close_args a = { .stateid = q->sid };

		return nfs4_add_close(cmp, &a);
	}
	if (q->op == NFS4OP_FREE_STATEID)
		return nfs4_add_free_stateid(cmp, &(struct nfs4_stateid_args){
							  q->sid });
	return nfs4_add_delegreturn(cmp, &(struct nfs4_stateid_args){ q->sid });
}

static int parse_state(struct nfs4_compound_res *r, void *ctx)
{
	struct sreq *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs4_status_res sr;
	struct nfs4_stateid_res res;
	int ret;

	ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr);
	if (ret > 0 && (q->op == NFS4OP_DELEGRETURN ||
			q->op == NFS4OP_FREE_STATEID)) {
		ret = nfs4_walk_next(r, &w, q->op, &sr);
	} else if (ret > 0) {
		ret = nfs4_walk_next(r, &w, q->op, &res);
		if (ret > 0)
			q->out = res.stateid;
	}
	q->st4 = w.st4;
	return ret < 0 ? ret : 0;
}

/* One of OPEN_DOWNGRADE, CLOSE, DELEGRETURN: 0 or a negative errno. */
static int state_call(struct nfs_client *c, const struct rpc_cred *cred,
		      struct sreq *q)
{
	int ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS,
				    build_state, parse_state, q, NULL, NULL);

	if (ret == 0 && q->st4 != NFS4_OK)
		ret = nfs_stat_errno(nfs4_stat_to_nfs3(q->st4));
	return ret;
}

/* One stateid operation, with its status in *st4 (0), or no answer. */
static int state_op(struct nfs_client *c, const struct rpc_cred *cred,
		    const struct nfs_fh3 *fh, uint32_t op,
		    const struct nfs4_stateid *sid, uint32_t *st4)
{
	struct sreq q = { .fh = fh, .op = op, .sid = *sid };
	int ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS,
				    build_state, parse_state, &q, NULL, NULL);

	*st4 = q.st4;
	return ret;
}

int nfs4_delegreturn(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs_fh3 *fh, const struct nfs4_stateid *sid,
		     uint32_t *st4)
{
	return state_op(c, cred, fh, NFS4OP_DELEGRETURN, sid, st4);
}

int nfs4_free_stateid(struct nfs_client *c, const struct rpc_cred *cred,
		      const struct nfs_fh3 *fh, const struct nfs4_stateid *sid,
		      uint32_t *st4)
{
	return state_op(c, cred, fh, NFS4OP_FREE_STATEID, sid, st4);
}

int nfs4_open_stateid(struct nfs_client *c, const struct nfs_fh3 *fh,
		      uint32_t uid, struct nfs4_stateid *out)
{
	if (!c || !c->v4 || !c->v4opens)
		return -ENOENT;
	return nfs4_opens_stateid(c->v4opens, fh, uid, out);
}

static void oreq_init(struct oreq *q, struct nfs_client *c,
		      const struct rpc_cred *cred, uint32_t access)
{
	memset(q, 0, sizeof(*q));
	q->c = c;
	q->access = access & NFS4_SHARE_ACCESS_BOTH;
	q->want = NFS4_SHARE_WANT_NO_DELEG;
	nfs4_open_owner_name(cred ? cred->uid : 0, q->oo);
}

int nfs4_open_fh(struct nfs_client *c, const struct rpc_cred *cred,
		 const struct nfs_fh3 *fh, uint32_t access,
		 struct nfs4_open **out, struct post_op_attr *attr,
		 struct nfs4_access_ask *ask, volatile int *interrupted)
{
	uint32_t uid = cred ? cred->uid : 0;
	struct nfs4_open *o;
	struct oreq q;
	int ret;

	*out = NULL;
	attr->present = false;
	if (!c->v4 || !c->v4opens)
		return -ENOTSUP;
	if (ask)
		ask->answered = false;
	oreq_init(&q, c, cred, access);
	q.fh = fh;
	q.ask = ask;
	q.want = nfs4_deleg_want(c, q.access);
	if (q.access == 0)
		return -EINVAL;
	if (q.access & NFS4_SHARE_ACCESS_WRITE)
		nfs4_deleg_before_write(c, fh);
	/* Under a delegation, an open the server already holds for this
	 * user is counted here: no OPEN, and no attributes (the delegation
	 * vouches for those we have). */
	if (nfs4_deleg_held(c, fh) &&
	    (*out = nfs4_opens_reuse(c->v4opens, fh, uid, q.access))) {
		STAT_INC(deleg_local_opens);
		TRACE("open under a delegation: the server's open reused → "
		      "no OPEN");
		return 0;
	}
	ret = nfs4_opens_begin_open(c->v4opens, fh, uid, interrupted, &o);
	if (ret)
		return ret;
	/* Interrupted, the OPEN may still have been carried out: the
	 * server then holds an open of this owner that the owner's next
	 * CLOSE of the file (one stateid per owner and file), or the
	 * unmount, takes back. */
	ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS, build_open,
				parse_open, &q, NULL, interrupted);
	if (ret == 0 && q.st4 != NFS4_OK)
		ret = nfs_stat_errno(nfs4_stat_to_nfs3(q.st4));
	*out = nfs4_opens_end_open(c->v4opens, o, q.access, ret == 0,
				   &q.open.stateid);
	if (ret)
		return ret;
	*attr = q.attr;
	nfs4_deleg_offered(c, fh, &q.open.delegation,
			   q.want != NFS4_SHARE_WANT_NO_DELEG);
	return 0;
}

int nfs4_open_create(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs3_create_args *a, uint32_t access,
		     const struct sattr3 *then_set, bool *then_set_done,
		     struct nfs3_diropres *res, struct nfs4_open **out,
		     volatile int *interrupted)
{
	struct nfs4_open *o;
	struct oreq q;
	int ret;

	*out = NULL;
	*then_set_done = false;
	memset(res, 0, sizeof(*res));
	if (!c->v4 || !c->v4opens)
		return -ENOTSUP;
	oreq_init(&q, c, cred, access);
	q.fh = a->where.dir;
	q.create = a;
	q.then_set = then_set;
	if (q.access == 0)
		return -EINVAL;
	ret = nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS, build_open,
				parse_open, &q, NULL, interrupted);
	if (ret)
		return ret;
	res->status = nfs4_stat_to_nfs3(q.st4);
	if (q.st4 != NFS4_OK)
		return 0;
	res->dir_wcc = q.dir_wcc;
	if (!q.has_newfh) {
		/* Opened, but without its handle nothing can use the open:
		 * the caller looks the name up and opens it again. */
		res->obj.present = false;
		return 0;
	}
	/* The handle is known only now: the entry is made after the
	 * OPEN (a new file has no other open of ours to race with). */
	if (nfs4_opens_begin_open(c->v4opens, &q.newfh,
				  cred ? cred->uid : 0, NULL, &o) == 0)
		*out = nfs4_opens_end_open(c->v4opens, o, q.access, true,
					   &q.open.stateid);
	if (!*out) {
		struct sreq cq = { .fh = &q.newfh, .op = NFS4OP_CLOSE,
				   .sid = q.open.stateid };

		state_call(c, cred, &cq);
		return -ENOMEM;
	}
	res->obj.present = true;
	res->obj.fh = q.newfh;
	res->obj_attributes = q.attr;
	*then_set_done = q.then_set_done;
	nfs4_deleg_offered(c, &q.newfh, &q.open.delegation, false);
	return 0;
}

int nfs4_open_release(struct nfs_client *c, const struct rpc_cred *cred,
		      struct nfs4_open *o, uint32_t access)
{
	enum nfs4_open_action act;
	struct sreq q = { 0 };
	struct nfs_fh3 fh;
	int ret;

	if (!o || !c->v4opens)
		return 0;
	nfs4_open_fh_of(o, &fh);
	/* While a delegation is held the last release keeps the open, for
	 * the next open of the file to reuse without an OPEN. */
	act = nfs4_opens_begin_release_idle(c->v4opens, o, access,
					    nfs4_deleg_held(c, &fh) != 0, &q.want,
					    &q.sid);
	if (act == NFS4_OPEN_KEEP)
		return 0;
	q.fh = &fh;
	q.op = act == NFS4_OPEN_CLOSE ? NFS4OP_CLOSE : NFS4OP_OPEN_DOWNGRADE;
	ret = state_call(c, cred, &q);
	if (ret)
		nf_log(NF_LOG_INFO, "%s: %s", act == NFS4_OPEN_CLOSE ? "CLOSE"
		       : "OPEN_DOWNGRADE", strerror(-ret));
	nfs4_opens_end_release(c->v4opens, o, act, ret == 0, &q.out);
	return ret;
}

void nfs4_open_close_idle(struct nfs_client *c, const struct nfs_fh3 *fh)
{
	struct nfs4_open *o;
	struct nfs_fh3 ofh;
	struct sreq q;
	uint32_t uid;
	int ret;

	if (!c->v4opens)
		return;
	while ((o = nfs4_opens_take_idle(c->v4opens, fh, &uid, &q.sid))) {
		/* As its owner, like every CLOSE (the daemon's groups: the
		 * stateid is what the server checks). */
		struct rpc_cred cred = c->v4->cred;

		cred.uid = uid;
		nfs4_open_fh_of(o, &ofh);
		q.fh = &ofh;
		q.op = NFS4OP_CLOSE;
		ret = state_call(c, &cred, &q);
		if (ret)
			nf_log(NF_LOG_INFO, "CLOSE of an idle open: %s",
			       strerror(-ret));
		nfs4_opens_end_release(c->v4opens, o, NFS4_OPEN_CLOSE,
				       ret == 0, &q.out);
	}
}
