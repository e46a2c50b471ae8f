/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 ACLs through GETATTR and SETATTR (nfs4_acl_client.h).
 */
#include "nfs4_acl_client.h"

#include <errno.h>
#include <string.h>

#include "nfs4_session.h"
#include "nfs4_walk.h"

int nfs4_aclcall_build(struct nfs4_compound *cmp, void *ctx)
{
	struct nfs4_aclcall *q = ctx;
	struct nfs4_getattr_args ga = { .request = nfs4_fattr3_request };
	int ret = nfs4_add_putfh3(cmp, q->fh);

	if (ret)
		return ret;
	if (q->get) {
		nfs4_bitmap_set(&ga.request, NFS4_FATTR_SUPPORTED_ATTRS);
		nfs4_bitmap_set(&ga.request, NFS4_FATTR_ACL);
	} else {
		/* The ACL alone: a mode beside it would be applied after it
		 * and undo what it says (RFC 8881 §6.4.1.3). */
		struct nfs4_setattr_args sa = { .stateid = nfs4_anon_stateid };

		sa.attrs.acl = *q->acl;
		nfs4_bitmap_set(&sa.attrs.mask, NFS4_FATTR_ACL);
		nfs4_add_setattr(cmp, &sa);
	}
	return nfs4_add_getattr(cmp, &ga);
}

int nfs4_aclcall_parse(struct nfs4_compound_res *r, void *ctx)
{
	struct nfs4_aclcall *q = ctx;
	uint32_t *st4 = q->get ? &q->get->st4 : &q->set->st4;
	struct post_op_attr *attr = q->get ? &q->get->attr : &q->set->attr;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs4_status_res sr;
	struct nfs4_setattr_res sa;
	struct nfs4_getattr_res gr;
	int ret;

	ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr);
	if (ret > 0 && q->set)
		ret = nfs4_walk_next(r, &w, NFS4OP_SETATTR, &sa);
	*st4 = w.st4;
	if (ret <= 0)
		return ret;
	/* After a SETATTR that worked, a failed GETATTR leaves it worked. */
	ret = nfs4_walk_next(r, &w, NFS4OP_GETATTR, &gr);
	if (q->get)
		*st4 = w.st4;
	if (ret <= 0)
		return ret;
	nfs4_attr_to_post_op(&gr.attrs, attr);
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
