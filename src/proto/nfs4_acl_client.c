/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 ACLs through GETATTR and SETATTR (nfs4_acl_client.h).
 */
#include "nfs4_acl_client.h"

#include <errno.h>
#include <string.h>

#include "nfs4_idmap.h"
#include "nfs4_session.h"

static int add_putfh(struct nfs4_compound *cmp, const struct nfs_fh3 *fh)
{
	struct nfs4_putfh_args a;

	if (!fh || fh->len == 0 || fh->len > NFS3_FHSIZE)
		return -EINVAL;
	a.fh.len = fh->len;
	memcpy(a.fh.data, fh->data, fh->len);
	return nfs4_add_putfh(cmp, &a);
}

int nfs4_aclcall_build(struct nfs4_compound *cmp, void *ctx)
{
	struct nfs4_aclcall *q = ctx;
	struct nfs4_getattr_args ga = { .request = nfs4_fattr3_request };
	int ret = add_putfh(cmp, q->fh);

	if (ret)
		return ret;
	if (q->get) {
		nfs4_bitmap_set(&ga.request, NFS4_FATTR_SUPPORTED_ATTRS);
		nfs4_bitmap_set(&ga.request, NFS4_FATTR_ACL);
	} else {
		/* The ACL alone: a mode beside it would be applied after it
		 * and undo what it says (RFC 8881 §6.4.1.3). */
		struct nfs4_setattr_args sa = { .stateid = { 0, { 0 } } };

		sa.attrs.acl = *q->acl;
		nfs4_bitmap_set(&sa.attrs.mask, NFS4_FATTR_ACL);
		nfs4_add_setattr(cmp, &sa);
	}
	return nfs4_add_getattr(cmp, &ga);
}

static void attr_of(const struct nfs4_fattr *f, struct post_op_attr *out)
{
	struct nfs4_attr3 a3;

	/* Attributes the server left out stay 0: the rest is still true. */
	nfs4_fattr_to_attr3(f, &a3);
	out->attr = a3.attr;
	out->attr.change = a3.change;
	out->attr.uid = nfs4_idmap_uid(a3.owner.s, a3.owner.len);
	out->attr.gid = nfs4_idmap_gid(a3.owner_group.s, a3.owner_group.len);
	out->present = true;
}

/* The next result: 1 when NFS4_OK; 0 when the compound stopped at or
 * before it (*st4 then says why); -EBADMSG. */
static int step(struct nfs4_compound_res *r, uint32_t op, void *res,
		uint32_t *st4)
{
	int ret = nfs4_compound_next(r, op, res);

	if (ret == -ENODATA) {
		*st4 = r->status ? r->status : NFS4ERR_SERVERFAULT;
		return 0;
	}
	if (ret)
		return ret;
	if (*(uint32_t *)res != NFS4_OK) {
		*st4 = *(uint32_t *)res;
		return 0;
	}
	return 1;
}

int nfs4_aclcall_parse(struct nfs4_compound_res *r, void *ctx)
{
	struct nfs4_aclcall *q = ctx;
	uint32_t *st4 = q->get ? &q->get->st4 : &q->set->st4;
	struct post_op_attr *attr = q->get ? &q->get->attr : &q->set->attr;
	struct nfs4_status_res sr;
	struct nfs4_setattr_res sa;
	struct nfs4_getattr_res gr;
	int ret;

	*st4 = NFS4_OK;
	if ((ret = step(r, NFS4OP_PUTFH, &sr, st4)) <= 0)
		return ret;
	if (q->set && (ret = step(r, NFS4OP_SETATTR, &sa, st4)) <= 0)
		return ret;
	/* After a SETATTR that worked, a failed GETATTR leaves it worked. */
	if ((ret = step(r, NFS4OP_GETATTR, &gr, q->get ? st4
						   : &(uint32_t){ 0 })) <= 0)
		return ret;
	attr_of(&gr.attrs, attr);
	if (q->get) {
		q->get->supported = nfs4_bitmap_isset(&gr.attrs.supported_attrs,
						      NFS4_FATTR_ACL);
		q->get->has_acl = nfs4_bitmap_isset(&gr.attrs.mask,
						    NFS4_FATTR_ACL);
		if (q->get->has_acl)
			q->get->acl = gr.attrs.acl;
	}
	return 0;
}

int nfs4_getacl(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, struct nfs4_getacl_res *res,
		struct rpc_reply *reply, volatile int *interrupted)
{
	struct nfs4_aclcall q = { .fh = fh, .get = res };

	memset(res, 0, sizeof(*res));
	if (!c->v4)
		return -EOPNOTSUPP;
	return nfs4_session_call(c->v4, cred, 0, nfs4_aclcall_build,
				 nfs4_aclcall_parse, &q, reply,
				 interrupted);
}

int nfs4_setacl(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, const struct nfs4_acl *acl,
		struct nfs4_setacl_res *res, volatile int *interrupted)
{
	struct nfs4_aclcall q = { .fh = fh, .acl = acl, .set = res };

	memset(res, 0, sizeof(*res));
	if (!c->v4)
		return -EOPNOTSUPP;
	return nfs4_session_call(c->v4, cred, NFS4_CALL_CACHETHIS,
				 nfs4_aclcall_build, nfs4_aclcall_parse, &q, NULL,
				 interrupted);
}
