/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every NFSv4 caller builds and walks alike: nfs4_walk.h. */
#include "nfs4_walk.h"

#include <errno.h>
#include <string.h>

#include "../base/log.h"
#include "nfs4_idmap.h"

const struct nfs4_stateid nfs4_anon_stateid = { 0, { 0 } };
const struct nfs4_stateid nfs4_current_stateid = { 1, { 0 } };

int nfs4_add_putfh3(struct nfs4_compound *cmp, const struct nfs_fh3 *fh)
{
	struct nfs4_putfh_args a;

	if (!fh || fh->len == 0 || fh->len > NFS3_FHSIZE)
		return -EINVAL;
	a.fh.len = fh->len;
	memcpy(a.fh.data, fh->data, fh->len);
	return nfs4_add_putfh(cmp, &a);
}

int nfs4_add_getattr3(struct nfs4_compound *cmp)
{
	struct nfs4_getattr_args a = { .request = nfs4_fattr3_request };

	return nfs4_add_getattr(cmp, &a);
}

int nfs4_walk_next(struct nfs4_compound_res *r, struct nfs4_walk *w,
		   uint32_t op, void *res)
{
	uint32_t *status = res; /* every result begins with its status */
	int ret;

	if (w->stopped)
		return 0;
	ret = nfs4_compound_next(r, op, res);
	if (ret == -ENODATA) {
		w->stopped = true;
		if (w->st4 == NFS4_OK)
			w->st4 = r->status ? r->status : NFS4ERR_SERVERFAULT;
		return 0;
	}
	if (ret)
		return ret;
	if (*status != NFS4_OK) {
		w->stopped = true;
		if (w->st4 == NFS4_OK)
			w->st4 = *status;
		return 0;
	}
	return 1;
}

int nfs4_walk_optional(struct nfs4_compound_res *r, struct nfs4_walk *w,
		       uint32_t op, void *res)
{
	uint32_t *status = res; /* every result begins with its status */
	int ret;

	if (w->stopped)
		return 0;
	ret = nfs4_compound_next(r, op, res);
	if (ret == -ENODATA || (ret == 0 && *status != NFS4_OK)) {
		w->stopped = true;
		return 0;
	}
	return ret ? ret : 1;
}

int nfs4_walk_attr(struct nfs4_compound_res *r, struct nfs4_walk *w,
		   struct post_op_attr *out)
{
	struct nfs4_getattr_res gr;
	int ret;

	out->present = false;
	if ((ret = nfs4_walk_optional(r, w, NFS4OP_GETATTR, &gr)) <= 0)
		return ret;
	nfs4_attr_to_post_op(&gr.attrs, out);
	return 0;
}

void nfs4_attr_to_post_op(const struct nfs4_fattr *f,
			  struct post_op_attr *out)
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

void nfs4_wcc_from_cinfo(const struct nfs4_change_info *ci,
			 struct wcc_data *w)
{
	w->before.present = ci->atomic && ci->before != 0 &&
			    w->after.present &&
			    w->after.attr.change == ci->after;
	w->before.attr = (struct wcc_attr){ .change = ci->before };
}

int nfs4_walk_dir_after(struct nfs4_compound_res *r, struct nfs4_walk *w,
			const struct nfs4_change_info *ci,
			struct wcc_data *out)
{
	struct nfs4_status_res sr;
	int ret;

	out->before.present = false;
	out->after.present = false;
	if ((ret = nfs4_walk_optional(r, w, NFS4OP_RESTOREFH, &sr)) <= 0)
		return ret;
	if ((ret = nfs4_walk_attr(r, w, &out->after)))
		return ret;
	nfs4_wcc_from_cinfo(ci, out);
	return 0;
}

int nfs4_fh_to_fh3(const struct nfs4_fh *in, struct nfs_fh3 *out)
{
	static int warned;

	if (in->len == 0 || in->len > NFS3_FHSIZE) {
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			nf_log(NF_LOG_ERR, "NFSv4 file handle of %u bytes: "
			       "more than the %u this client keeps", in->len,
			       NFS3_FHSIZE);
		return -1;
	}
	out->len = in->len;
	memcpy(out->data, in->data, in->len);
	return 0;
}
