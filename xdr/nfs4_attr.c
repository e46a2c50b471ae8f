/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 attributes (RFC 8881 section 5, fattr4): the values this client
 * reads and sets, and their conversion to and from the v3 types the upper
 * layers use.
 *
 * A fattr4 is a bitmap and then the values of the attributes it names,
 * in bit order, as one opaque.  Each attribute has a fixed XDR type, so a
 * table of kinds drives both directions.  An attribute this code does
 * not know has a type it cannot skip alone, but the opaque around all the
 * values can be: decoding stops at the first unknown bit and leaves the
 * rest out.
 */
#include "nfs4.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* A fattr4 value list larger than this is refused (big ACLs fit). */
#define NFS4_MAXATTRLEN (1u << 20)

static int enc_fail(struct xdr_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

enum kind {
	K_NONE = 0,   /* not known here: stop decoding */
	K_BITMAP,
	K_U32,
	K_U64,
	K_BOOL,
	K_FSID,
	K_ACL,
	K_FH,
	K_STR,        /* utf8str_mixed, NFS4_MAXSTR */
	K_SPEC,
	K_TIME,
	K_SETTIME,
	/* known types, values not kept */
	K_SKIP_BOOL,
	K_SKIP_U32,
	K_SKIP_U64,
	K_SKIP_TIME,
	K_SKIP_STR
};

struct attr_desc {
	unsigned char kind;
	size_t off; /* of the value in struct nfs4_fattr */
};

#define A(bit, k, field) [bit] = { k, offsetof(struct nfs4_fattr, field) }
#define SKIP(bit, k) [bit] = { k, 0 }

static const struct attr_desc attrs[NFS4_FATTR_COUNT] = {
	A(NFS4_FATTR_SUPPORTED_ATTRS, K_BITMAP, supported_attrs),
	A(NFS4_FATTR_TYPE, K_U32, type),
	A(NFS4_FATTR_FH_EXPIRE_TYPE, K_U32, fh_expire_type),
	A(NFS4_FATTR_CHANGE, K_U64, change),
	A(NFS4_FATTR_SIZE, K_U64, size),
	A(NFS4_FATTR_LINK_SUPPORT, K_BOOL, link_support),
	A(NFS4_FATTR_SYMLINK_SUPPORT, K_BOOL, symlink_support),
	SKIP(NFS4_FATTR_NAMED_ATTR, K_SKIP_BOOL),
	A(NFS4_FATTR_FSID, K_FSID, fsid),
	SKIP(NFS4_FATTR_UNIQUE_HANDLES, K_SKIP_BOOL),
	A(NFS4_FATTR_LEASE_TIME, K_U32, lease_time),
	A(NFS4_FATTR_RDATTR_ERROR, K_U32, rdattr_error),
	A(NFS4_FATTR_ACL, K_ACL, acl),
	A(NFS4_FATTR_ACLSUPPORT, K_U32, aclsupport),
	SKIP(NFS4_FATTR_ARCHIVE, K_SKIP_BOOL),
	SKIP(NFS4_FATTR_CANSETTIME, K_SKIP_BOOL),
	SKIP(NFS4_FATTR_CASE_INSENSITIVE, K_SKIP_BOOL),
	SKIP(NFS4_FATTR_CASE_PRESERVING, K_SKIP_BOOL),
	SKIP(NFS4_FATTR_CHOWN_RESTRICTED, K_SKIP_BOOL),
	A(NFS4_FATTR_FILEHANDLE, K_FH, filehandle),
	A(NFS4_FATTR_FILEID, K_U64, fileid),
	A(NFS4_FATTR_FILES_AVAIL, K_U64, files_avail),
	A(NFS4_FATTR_FILES_FREE, K_U64, files_free),
	A(NFS4_FATTR_FILES_TOTAL, K_U64, files_total),
	/* 24 fs_locations: not known (a nested structure) */
	SKIP(NFS4_FATTR_HIDDEN, K_SKIP_BOOL),
	SKIP(NFS4_FATTR_HOMOGENEOUS, K_SKIP_BOOL),
	A(NFS4_FATTR_MAXFILESIZE, K_U64, maxfilesize),
	SKIP(NFS4_FATTR_MAXLINK, K_SKIP_U32),
	A(NFS4_FATTR_MAXNAME, K_U32, maxname),
	A(NFS4_FATTR_MAXREAD, K_U64, maxread),
	A(NFS4_FATTR_MAXWRITE, K_U64, maxwrite),
	SKIP(NFS4_FATTR_MIMETYPE, K_SKIP_STR),
	A(NFS4_FATTR_MODE, K_U32, mode),
	SKIP(NFS4_FATTR_NO_TRUNC, K_SKIP_BOOL),
	A(NFS4_FATTR_NUMLINKS, K_U32, numlinks),
	A(NFS4_FATTR_OWNER, K_STR, owner),
	A(NFS4_FATTR_OWNER_GROUP, K_STR, owner_group),
	SKIP(NFS4_FATTR_QUOTA_AVAIL_HARD, K_SKIP_U64),
	SKIP(NFS4_FATTR_QUOTA_AVAIL_SOFT, K_SKIP_U64),
	SKIP(NFS4_FATTR_QUOTA_USED, K_SKIP_U64),
	A(NFS4_FATTR_RAWDEV, K_SPEC, rawdev),
	A(NFS4_FATTR_SPACE_AVAIL, K_U64, space_avail),
	A(NFS4_FATTR_SPACE_FREE, K_U64, space_free),
	A(NFS4_FATTR_SPACE_TOTAL, K_U64, space_total),
	A(NFS4_FATTR_SPACE_USED, K_U64, space_used),
	SKIP(NFS4_FATTR_SYSTEM, K_SKIP_BOOL),
	A(NFS4_FATTR_TIME_ACCESS, K_TIME, time_access),
	A(NFS4_FATTR_TIME_ACCESS_SET, K_SETTIME, time_access_set),
	SKIP(NFS4_FATTR_TIME_BACKUP, K_SKIP_TIME),
	SKIP(NFS4_FATTR_TIME_CREATE, K_SKIP_TIME),
	A(NFS4_FATTR_TIME_DELTA, K_TIME, time_delta),
	A(NFS4_FATTR_TIME_METADATA, K_TIME, time_metadata),
	A(NFS4_FATTR_TIME_MODIFY, K_TIME, time_modify),
	A(NFS4_FATTR_TIME_MODIFY_SET, K_SETTIME, time_modify_set),
	A(NFS4_FATTR_MOUNTED_ON_FILEID, K_U64, mounted_on_fileid),
	A(NFS4_FATTR_SUPPATTR_EXCLCREAT, K_BITMAP, suppattr_exclcreat),
};

static const struct attr_desc *desc(unsigned bit)
{
	return bit < NFS4_FATTR_COUNT ? &attrs[bit] : NULL;
}

bool nfs4_fattr_known(unsigned bit)
{
	const struct attr_desc *a = desc(bit);

	return a && a->kind != K_NONE && a->kind < K_SKIP_BOOL;
}

#define W0(b) (1u << (b))
#define W1(b) (1u << ((b) - 32))
const struct nfs4_bitmap nfs4_fattr3_request = { {
	W0(NFS4_FATTR_TYPE) | W0(NFS4_FATTR_CHANGE) | W0(NFS4_FATTR_SIZE) |
	W0(NFS4_FATTR_FSID) | W0(NFS4_FATTR_FILEID),
	W1(NFS4_FATTR_MODE) | W1(NFS4_FATTR_NUMLINKS) | W1(NFS4_FATTR_OWNER) |
	W1(NFS4_FATTR_OWNER_GROUP) | W1(NFS4_FATTR_RAWDEV) |
	W1(NFS4_FATTR_SPACE_USED) | W1(NFS4_FATTR_TIME_ACCESS) |
	W1(NFS4_FATTR_TIME_METADATA) | W1(NFS4_FATTR_TIME_MODIFY) |
	W1(NFS4_FATTR_MOUNTED_ON_FILEID),
	0 } };

/* ---- ACLs ---- */

/* nfsace4: type, flag, access_mask (uint32 each), who (utf8str_mixed). */
int nfs4_dec_ace(struct xdr_dec *d, struct nfs4_ace *ace)
{
	const uint8_t *p = xdr_dec_inline(d, 12);

	if (!p)
		return -EBADMSG;
	ace->type = xdr_get_u32(p);
	ace->flag = xdr_get_u32(p + 4);
	ace->access_mask = xdr_get_u32(p + 8);
	return nfs4_dec_str(d, NFS4_MAXSTR, &ace->who);
}

int nfs4_enc_ace(struct xdr_enc *e, const struct nfs4_ace *ace)
{
	xdr_enc_u32(e, ace->type);
	xdr_enc_u32(e, ace->flag);
	xdr_enc_u32(e, ace->access_mask);
	return nfs4_enc_str(e, NFS4_MAXSTR, &ace->who);
}

int nfs4_acl_next(struct xdr_dec *it, struct nfs4_ace *ace)
{
	if (xdr_dec_left(it) == 0)
		return 0;
	return nfs4_dec_ace(it, ace) ? -EBADMSG : 1;
}

/* nfsace4<>: checked once, kept as the raw entries. */
int nfs4_dec_acl(struct xdr_dec *d, struct nfs4_acl *acl)
{
	struct nfs4_ace ace;
	uint32_t n;

	memset(acl, 0, sizeof(*acl));
	if (xdr_dec_u32(d, &n) || n > NFS4_MAXACES)
		return -EBADMSG;
	acl->raw = d->p;
	for (uint32_t i = 0; i < n; i++)
		if (nfs4_dec_ace(d, &ace))
			return -EBADMSG;
	acl->naces = n;
	acl->raw_len = (uint32_t)(d->p - acl->raw);
	return 0;
}

int nfs4_enc_acl(struct xdr_enc *e, const struct nfs4_acl *acl)
{
	if (acl->naces > NFS4_MAXACES)
		return enc_fail(e, -EINVAL);
	xdr_enc_u32(e, acl->naces);
	if (acl->aces) {
		for (uint32_t i = 0; i < acl->naces; i++)
			nfs4_enc_ace(e, &acl->aces[i]);
		return e->err;
	}
	if (acl->raw_len % 4 || (acl->raw_len && !acl->raw))
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque_fixed(e, acl->raw, acl->raw_len);
}

/* ---- one value ---- */

/* settime4: how, then for SET_TO_CLIENT_TIME4 an nfstime4. */
static int dec_settime(struct xdr_dec *d, struct nfs4_settime *t)
{
	memset(t, 0, sizeof(*t));
	if (xdr_dec_u32(d, &t->how))
		return -EBADMSG;
	switch (t->how) {
	case NFS4_SET_TO_SERVER_TIME:
		return 0;
	case NFS4_SET_TO_CLIENT_TIME:
		return nfs4_dec_time(d, &t->time);
	}
	return -EBADMSG;
}

static int enc_settime(struct xdr_enc *e, const struct nfs4_settime *t)
{
	switch (t->how) {
	case NFS4_SET_TO_SERVER_TIME:
		return xdr_enc_u32(e, t->how);
	case NFS4_SET_TO_CLIENT_TIME:
		xdr_enc_u32(e, t->how);
		return nfs4_enc_time(e, &t->time);
	}
	return enc_fail(e, -EINVAL);
}

static int dec_value(struct xdr_dec *d, unsigned kind, void *v)
{
	struct nfs4_specdata *sp = v;
	struct nfs4_fsid *fs = v;
	struct nfs4_str junk;
	struct nfs4_time t;
	uint64_t u64;
	uint32_t u32;
	bool b;

	switch (kind) {
	case K_BITMAP:
		return nfs4_dec_bitmap(d, v, NULL);
	case K_U32:
		return xdr_dec_u32(d, v);
	case K_U64:
		return xdr_dec_u64(d, v);
	case K_BOOL:
		return xdr_dec_bool(d, v);
	case K_FSID:
		if (xdr_dec_u64(d, &fs->major))
			return -EBADMSG;
		return xdr_dec_u64(d, &fs->minor);
	case K_ACL:
		return nfs4_dec_acl(d, v);
	case K_FH:
		return nfs4_dec_fh(d, v);
	case K_STR:
		return nfs4_dec_str(d, NFS4_MAXSTR, v);
	case K_SPEC:
		if (xdr_dec_u32(d, &sp->specdata1))
			return -EBADMSG;
		return xdr_dec_u32(d, &sp->specdata2);
	case K_TIME:
		return nfs4_dec_time(d, v);
	case K_SETTIME:
		return dec_settime(d, v);
	case K_SKIP_BOOL:
		return xdr_dec_bool(d, &b);
	case K_SKIP_U32:
		return xdr_dec_u32(d, &u32);
	case K_SKIP_U64:
		return xdr_dec_u64(d, &u64);
	case K_SKIP_TIME:
		return nfs4_dec_time(d, &t);
	case K_SKIP_STR:
		return nfs4_dec_str(d, NFS4_MAXSTR, &junk);
	}
	return -EBADMSG;
}

static int enc_value(struct xdr_enc *e, unsigned kind, const void *v)
{
	const struct nfs4_specdata *sp = v;
	const struct nfs4_fsid *fs = v;

	switch (kind) {
	case K_BITMAP:
		return nfs4_enc_bitmap(e, v);
	case K_U32:
		return xdr_enc_u32(e, *(const uint32_t *)v);
	case K_U64:
		return xdr_enc_u64(e, *(const uint64_t *)v);
	case K_BOOL:
		return xdr_enc_bool(e, *(const bool *)v);
	case K_FSID:
		xdr_enc_u64(e, fs->major);
		return xdr_enc_u64(e, fs->minor);
	case K_ACL:
		return nfs4_enc_acl(e, v);
	case K_FH:
		return nfs4_enc_fh(e, v);
	case K_STR:
		return nfs4_enc_str(e, NFS4_MAXSTR, v);
	case K_SPEC:
		xdr_enc_u32(e, sp->specdata1);
		return xdr_enc_u32(e, sp->specdata2);
	case K_TIME:
		return nfs4_enc_time(e, v);
	case K_SETTIME:
		return enc_settime(e, v);
	}
	return enc_fail(e, -EINVAL);
}

/* ---- fattr4 ---- */

int nfs4_dec_fattr(struct xdr_dec *d, struct nfs4_fattr *a)
{
	struct nfs4_bitmap sent;
	const uint8_t *vals;
	struct xdr_dec v;
	uint32_t len;
	bool beyond;

	memset(a, 0, sizeof(*a));
	if (nfs4_dec_bitmap(d, &sent, &beyond) ||
	    xdr_dec_opaque(d, NFS4_MAXATTRLEN, &vals, &len))
		return -EBADMSG;
	xdr_dec_init(&v, vals, len);
	for (unsigned bit = 0; bit < 32 * NFS4_BITMAP_WORDS; bit++) {
		const struct attr_desc *ad;

		if (!nfs4_bitmap_isset(&sent, bit))
			continue;
		ad = desc(bit);
		if (!ad || ad->kind == K_NONE) {
			/* Its size is unknown: the rest cannot be read. */
			a->skipped = true;
			return 0;
		}
		if (dec_value(&v, ad->kind, (char *)a + ad->off))
			return -EBADMSG;
		if (ad->kind < K_SKIP_BOOL)
			nfs4_bitmap_set(&a->mask, bit);
	}
	if (beyond) {
		a->skipped = true;
		return 0;
	}
	/* Every value was read: bytes left over are not a fattr4's. */
	return xdr_dec_left(&v) == 0 ? 0 : -EBADMSG;
}

int nfs4_enc_fattr(struct xdr_enc *e, const struct nfs4_fattr *a)
{
	size_t len_at;

	if (!a)
		return enc_fail(e, -EINVAL);
	for (unsigned bit = 0; bit < 32 * NFS4_BITMAP_WORDS; bit++)
		if (nfs4_bitmap_isset(&a->mask, bit) && !nfs4_fattr_known(bit))
			return enc_fail(e, -EINVAL);
	nfs4_enc_bitmap(e, &a->mask);
	len_at = e->len;
	xdr_enc_u32(e, 0);
	for (unsigned bit = 0; bit < 32 * NFS4_BITMAP_WORDS; bit++) {
		const struct attr_desc *ad = desc(bit);

		if (nfs4_bitmap_isset(&a->mask, bit))
			enc_value(e, ad->kind, (const char *)a + ad->off);
	}
	if (e->err)
		return e->err;
	if (e->len - len_at - 4 > NFS4_MAXATTRLEN)
		return enc_fail(e, -EINVAL);
	/* Every value is a whole number of XDR units: no padding. */
	xdr_put_u32(e->buf + len_at, (uint32_t)(e->len - len_at - 4));
	return 0;
}

/* ---- to and from the v3 types ---- */

/* Before 1970 and after 2106 as they are; only past the bounds of a
 * fattr3 (NFSTIME3_SECONDS_MAX) is a time clamped. */
static struct nfstime3 time3(const struct nfs4_time *t)
{
	struct nfstime3 r = { t->seconds, t->nseconds };

	if (t->seconds > NFSTIME3_SECONDS_MAX) {
		r.seconds = NFSTIME3_SECONDS_MAX;
		r.nseconds = 999999999u;
	} else if (t->seconds < -NFSTIME3_SECONDS_MAX) {
		r.seconds = -NFSTIME3_SECONDS_MAX;
		r.nseconds = 0;
	}
	return r;
}

int nfs4_fattr_to_attr3(const struct nfs4_fattr *f, struct nfs4_attr3 *out)
{
	struct fattr3 *a = &out->attr;
	const struct nfs4_bitmap *m = &f->mask;
	bool missing = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < NFS4_BITMAP_WORDS; i++) {
		out->missing.w[i] = nfs4_fattr3_request.w[i] & ~m->w[i];
		/* mounted_on_fileid is asked for, not needed in a fattr3. */
		if (i == 1)
			out->missing.w[i] &= ~W1(NFS4_FATTR_MOUNTED_ON_FILEID);
		missing |= out->missing.w[i] != 0;
	}
	a->type = f->type;
	a->mode = f->mode & 07777u;
	a->nlink = f->numlinks;
	a->size = f->size;
	a->used = f->space_used;
	a->rdev.specdata1 = f->rawdev.specdata1;
	a->rdev.specdata2 = f->rawdev.specdata2;
	a->fsid = f->fsid.major ^ (f->fsid.minor << 32 | f->fsid.minor >> 32);
	a->fileid = f->fileid;
	a->atime = time3(&f->time_access);
	a->mtime = time3(&f->time_modify);
	a->ctime = time3(&f->time_metadata);
	out->change = f->change;
	out->owner = f->owner;
	out->owner_group = f->owner_group;
	return missing ? -ENODATA : 0;
}

static int settime_from3(uint32_t how, const struct nfstime3 *t,
			 unsigned bit, struct nfs4_settime *out,
			 struct nfs4_bitmap *mask)
{
	switch (how) {
	case DONT_CHANGE:
		return 0;
	case SET_TO_SERVER_TIME:
		out->how = NFS4_SET_TO_SERVER_TIME;
		break;
	case SET_TO_CLIENT_TIME:
		if (t->nseconds >= 1000000000u)
			return -EINVAL;
		out->how = NFS4_SET_TO_CLIENT_TIME;
		out->time.seconds = t->seconds;
		out->time.nseconds = t->nseconds;
		break;
	default:
		return -EINVAL;
	}
	nfs4_bitmap_set(mask, bit);
	return 0;
}

int nfs4_fattr_from_sattr3(const struct sattr3 *s, const char *owner,
			   const char *owner_group, struct nfs4_fattr *out)
{
	memset(out, 0, sizeof(*out));
	if (s->set_mode) {
		out->mode = s->mode & 07777u;
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_MODE);
	}
	if (s->set_size) {
		out->size = s->size;
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_SIZE);
	}
	if (owner) {
		out->owner = nfs4_str(owner);
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_OWNER);
	}
	if (owner_group) {
		out->owner_group = nfs4_str(owner_group);
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_OWNER_GROUP);
	}
	if (settime_from3(s->set_atime, &s->atime, NFS4_FATTR_TIME_ACCESS_SET,
			  &out->time_access_set, &out->mask) ||
	    settime_from3(s->set_mtime, &s->mtime, NFS4_FATTR_TIME_MODIFY_SET,
			  &out->time_modify_set, &out->mask))
		return -EINVAL;
	return 0;
}
