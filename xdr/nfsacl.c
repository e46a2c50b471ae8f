/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfsacl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const nfsacl_proc_names[NFSACLPROC_COUNT] = {
	[NFSACLPROC_NULL] = "NULL",
	[NFSACLPROC3_GETACL] = "GETACL",
	[NFSACLPROC3_SETACL] = "SETACL",
};

#define ENTRY_SIZE 12u

void nfsacl_entry_get(const struct nfsacl_wire_list *l, uint32_t i,
		      struct nfsacl_entry *e)
{
	const uint8_t *p = l->wire + (size_t)i * ENTRY_SIZE;

	e->type = xdr_get_u32(p);
	e->id = xdr_get_u32(p + 4);
	e->perm = xdr_get_u32(p + 8);
}

/* int aclcnt; aclent aclentp<NFS_ACL_MAX_ENTRIES>; */
static int dec_list(struct xdr_dec *d, struct nfsacl_wire_list *l)
{
	if (xdr_dec_u32(d, &l->count) || xdr_dec_u32(d, &l->n) ||
	    l->n > NFSACL_MAX_ENTRIES)
		return -EBADMSG;
	l->wire = xdr_dec_inline(d, (size_t)l->n * ENTRY_SIZE);
	return l->wire ? 0 : -EBADMSG;
}

static int enc_list(struct xdr_enc *e, const struct nfsacl_list *l)
{
	if (l->n > NFSACL_MAX_ENTRIES) {
		if (!e->err)
			e->err = -EINVAL;
		return e->err;
	}
	xdr_enc_u32(e, l->count);
	xdr_enc_u32(e, l->n);
	for (uint32_t i = 0; i < l->n; i++) {
		xdr_enc_u32(e, l->entries[i].type);
		xdr_enc_u32(e, l->entries[i].id);
		xdr_enc_u32(e, l->entries[i].perm);
	}
	return e->err;
}

/* struct GETACL3args { nfs_fh3 fh; u_int mask; }; */
int nfsacl_enc_getacl_args(struct xdr_enc *e, const void *args)
{
	const struct nfsacl_getacl_args *a = args;

	nfs3_enc_fh3(e, &a->fh);
	return xdr_enc_u32(e, a->mask);
}

int nfsacl_dec_getacl_args(struct xdr_dec *d, void *args)
{
	struct nfsacl_getacl_args *a = args;

	if (nfs3_dec_fh3(d, &a->fh) || xdr_dec_u32(d, &a->mask))
		return -EBADMSG;
	return 0;
}

/*
 * union GETACL3res switch (nfsstat3 status) {
 * case NFS3_OK: post_op_attr attr; secattr acl;
 * default:      post_op_attr attr;
 * };
 */
int nfsacl_dec_getacl_res(struct xdr_dec *d, void *res)
{
	struct nfsacl_getacl_res *r = res;

	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	/* nfs-ganesha sends no attributes with a failure (its arm is void) */
	if (r->status != NFS3_OK && xdr_dec_left(d) == 0)
		return 0;
	if (nfs3_dec_post_op_attr(d, &r->attr))
		return -EBADMSG;
	if (r->status != NFS3_OK)
		return 0;
	if (xdr_dec_u32(d, &r->mask) || dec_list(d, &r->acl) ||
	    dec_list(d, &r->dfacl))
		return -EBADMSG;
	return 0;
}

int nfsacl_enc_getacl_res(struct xdr_enc *e, const struct nfsacl_getacl_res *r,
			  const struct nfsacl_list *acl,
			  const struct nfsacl_list *dfacl)
{
	xdr_enc_u32(e, r->status);
	nfs3_enc_post_op_attr(e, &r->attr);
	if (r->status != NFS3_OK)
		return e->err;
	xdr_enc_u32(e, r->mask);
	enc_list(e, acl);
	return enc_list(e, dfacl);
}

/* struct SETACL3args { nfs_fh3 fh; secattr acl; }; */
int nfsacl_enc_setacl_args(struct xdr_enc *e, const void *args)
{
	const struct nfsacl_setacl_args *a = args;

	nfs3_enc_fh3(e, &a->fh);
	xdr_enc_u32(e, a->mask);
	enc_list(e, &a->acl);
	return enc_list(e, &a->dfacl);
}

int nfsacl_dec_setacl_args(struct xdr_dec *d, void *args)
{
	struct nfsacl_setacl_wire *a = args;

	memset(a, 0, sizeof(*a));
	if (nfs3_dec_fh3(d, &a->fh) || xdr_dec_u32(d, &a->mask) ||
	    dec_list(d, &a->acl) || dec_list(d, &a->dfacl))
		return -EBADMSG;
	return 0;
}

/* union SETACL3res switch (nfsstat3 status) { default: post_op_attr attr; }; */
int nfsacl_dec_setacl_res(struct xdr_dec *d, void *res)
{
	struct nfsacl_setacl_res *r = res;

	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	if (r->status != NFS3_OK && xdr_dec_left(d) == 0)
		return 0; /* nfs-ganesha: no attributes with a failure */
	return nfs3_dec_post_op_attr(d, &r->attr) ? -EBADMSG : 0;
}

int nfsacl_enc_setacl_res(struct xdr_enc *e, const void *res)
{
	const struct nfsacl_setacl_res *r = res;

	xdr_enc_u32(e, r->status);
	return nfs3_enc_post_op_attr(e, &r->attr);
}

/* ---- Linux posix_acl xattr format ---- */

static bool is_obj(uint32_t tag)
{
	return tag == NFSACL_USER_OBJ || tag == NFSACL_GROUP_OBJ ||
	       tag == NFSACL_CLASS_OBJ || tag == NFSACL_OTHER_OBJ;
}

static bool known_tag(uint32_t tag)
{
	return is_obj(tag) || tag == NFSACL_USER || tag == NFSACL_GROUP;
}

/* POSIX order: USER_OBJ, USER (by id), GROUP_OBJ, GROUP (by id), MASK,
 * OTHER; the tag values are in that order already. */
static int cmp_entry(const void *a, const void *b)
{
	const struct nfsacl_entry *x = a, *y = b;
	uint32_t tx = x->type & ~NFSACL_DEFAULT, ty = y->type & ~NFSACL_DEFAULT;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (is_obj(tx) || x->id == y->id)
		return 0;
	return x->id < y->id ? -1 : 1;
}

/*
 * Sorted entries (tags without the default bit): one USER_OBJ, GROUP_OBJ
 * and OTHER; a MASK (at most one) when there are named entries; no
 * duplicate named ids.  *named tells whether there are named entries.
 */
static bool acl_valid(const struct nfsacl_entry *e, uint32_t n, bool *named)
{
	unsigned cnt[0x21] = { 0 };

	*named = false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = e[i].type & ~NFSACL_DEFAULT;

		if (!known_tag(t) || e[i].perm > 7)
			return false;
		cnt[t]++;
		if (!is_obj(t)) {
			*named = true;
			if (i > 0 && (e[i - 1].type & ~NFSACL_DEFAULT) == t &&
			    e[i - 1].id == e[i].id)
				return false;
		}
	}
	return cnt[NFSACL_USER_OBJ] == 1 && cnt[NFSACL_GROUP_OBJ] == 1 &&
	       cnt[NFSACL_OTHER_OBJ] == 1 && cnt[NFSACL_CLASS_OBJ] <= 1 &&
	       (!*named || cnt[NFSACL_CLASS_OBJ] == 1);
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return get_le16(p) | (uint32_t)get_le16(p + 2) << 16;
}

long nfsacl_to_xattr(const struct nfsacl_wire_list *l, bool access,
		     void *buf, size_t size)
{
	struct nfsacl_entry *e;
	uint32_t n = l->n, group_perm = 8;
	bool named;
	size_t need;

	if (n == 0)
		return 0;
	e = malloc((size_t)n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		nfsacl_entry_get(l, i, &e[i]);
		e[i].type &= ~NFSACL_DEFAULT;
		if (is_obj(e[i].type))
			e[i].id = NFSACL_XATTR_UNDEFINED_ID;
	}
	qsort(e, n, sizeof(*e), cmp_entry);
	if (!acl_valid(e, n, &named)) {
		free(e);
		return -EIO;
	}
	/* Solaris's minimal ACL: drop the mask that only repeats the group. */
	for (uint32_t i = 0; i < n; i++)
		if (e[i].type == NFSACL_GROUP_OBJ)
			group_perm = e[i].perm;
	if (n == 4 && !named && e[2].type == NFSACL_CLASS_OBJ &&
	    e[2].perm == group_perm) {
		e[2] = e[3];
		n = 3;
	}
	/* An access ACL without named entries is the mode and nothing more. */
	if (access && !named) {
		free(e);
		return 0;
	}
	need = NFSACL_XATTR_SIZE(n);
	if (buf && size >= need) {
		uint8_t *p = buf;

		put_le32(p, NFSACL_XATTR_VERSION);
		for (uint32_t i = 0; i < n; i++) {
			p += i ? 8 : 4;
			put_le16(p, (uint16_t)e[i].type);
			put_le16(p + 2, (uint16_t)e[i].perm);
			put_le32(p + 4, e[i].id);
		}
	}
	free(e);
	return (long)need;
}

int nfsacl_from_xattr(const void *value, size_t size, uint32_t flag,
		      uint32_t uid, uint32_t gid, struct nfsacl_entry **out,
		      uint32_t *n)
{
	const uint8_t *p = value;
	struct nfsacl_entry *e;
	uint32_t cnt, group_perm = 0;
	bool named;

	*out = NULL;
	*n = 0;
	if (size < 4 || (size - 4) % 8)
		return -EINVAL;
	if (get_le32(p) != NFSACL_XATTR_VERSION)
		return -EOPNOTSUPP;
	if ((size - 4) / 8 > NFSACL_MAX_ENTRIES)
		return -ENOSPC;
	cnt = (uint32_t)((size - 4) / 8);
	if (cnt == 0)
		return 0;
	/* room for the mask a minimal ACL gets */
	e = calloc((size_t)cnt + 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (uint32_t i = 0; i < cnt; i++) {
		const uint8_t *q = p + 4 + 8 * (size_t)i;

		e[i].type = get_le16(q);
		e[i].perm = get_le16(q + 2);
		e[i].id = get_le32(q + 4);
		if (!known_tag(e[i].type) || e[i].perm > 7) {
			free(e);
			return -EINVAL;
		}
		if (is_obj(e[i].type))
			e[i].id = 0;
	}
	qsort(e, cnt, sizeof(*e), cmp_entry);
	if (!acl_valid(e, cnt, &named)) {
		free(e);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < cnt; i++)
		if (e[i].type == NFSACL_GROUP_OBJ)
			group_perm = e[i].perm;
	if (cnt == 3) {
		/* USER_OBJ GROUP_OBJ OTHER: the mask goes before OTHER */
		e[3] = e[2];
		e[2] = (struct nfsacl_entry){ NFSACL_CLASS_OBJ, 0, group_perm };
		cnt = 4;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		if (e[i].type == NFSACL_USER_OBJ)
			e[i].id = uid;
		else if (e[i].type == NFSACL_GROUP_OBJ)
			e[i].id = gid;
		e[i].type |= flag;
	}
	*out = e;
	*n = cnt;
	return 0;
}

void nfsacl_from_mode(uint32_t mode, uint32_t uid, uint32_t gid,
		      struct nfsacl_entry out[4])
{
	out[0] = (struct nfsacl_entry){ NFSACL_USER_OBJ, uid, (mode >> 6) & 7 };
	out[1] = (struct nfsacl_entry){ NFSACL_GROUP_OBJ, gid, (mode >> 3) & 7 };
	out[2] = (struct nfsacl_entry){ NFSACL_CLASS_OBJ, 0, (mode >> 3) & 7 };
	out[3] = (struct nfsacl_entry){ NFSACL_OTHER_OBJ, 0, mode & 7 };
}

int nfsacl_xattr_map_ids(void *value, size_t size, nfsacl_id_map_fn map,
			 void *ctx)
{
	uint8_t *p = value;

	if (size < 4 || (size - 4) % 8 ||
	    get_le32(p) != NFSACL_XATTR_VERSION)
		return -EINVAL;
	for (size_t at = 4; at < size; at += 8) {
		uint32_t tag = get_le16(p + at), id = get_le32(p + at + 4);

		if (tag != NFSACL_USER && tag != NFSACL_GROUP)
			continue;
		if (!map(ctx, tag == NFSACL_GROUP, &id))
			return -EINVAL;
		put_le32(p + at + 4, id);
	}
	return 0;
}
