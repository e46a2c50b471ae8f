/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 ACLs as the system.nfs4_acl extended attribute (nfs4.h).
 *
 * The Linux client hands user space the bytes of fattr4_acl as they came
 * in the GETATTR reply, and sends what setxattr gave it as the SETATTR
 * value without looking inside: nfs4-acl-tools parses and builds that
 * same XDR.  So reading is a copy of what nfs4_dec_acl() checked, and
 * writing is a check of the caller's bytes, which then go out as they
 * are.  The check here is stricter than the XDR alone: a value that the
 * protocol could carry but that no server can take as an ACL (an unknown
 * type, flag or mask bit, an empty who) is refused before anything is
 * sent, with EINVAL, as the RFC lets a server refuse it with
 * NFS4ERR_INVAL.
 *
 *   struct nfsace4 {
 *           acetype4        type;
 *           aceflag4        flag;
 *           acemask4        access_mask;
 *           utf8str_mixed   who;
 *   };
 *   typedef nfsace4 fattr4_acl<>;
 */
#include "nfs4.h"

#include <errno.h>
#include <string.h>

long nfs4_acl_to_xattr(const struct nfs4_acl *acl, void *buf, size_t size)
{
	struct xdr_enc e;
	long len;
	int ret;

	if (!acl || acl->naces > NFS4_MAXACES)
		return -EINVAL;
	if (!acl->aces) {
		/* Decoded: the count, then the entries as they came. */
		if (acl->raw_len % 4 || (acl->raw_len && !acl->raw))
			return -EINVAL;
		len = 4 + (long)acl->raw_len;
		if (!buf || size == 0)
			return len;
		if (size < (size_t)len)
			return -ERANGE;
		xdr_put_u32(buf, acl->naces);
		if (acl->raw_len)
			memcpy((uint8_t *)buf + 4, acl->raw, acl->raw_len);
		return len;
	}
	if (xdr_enc_init(&e, 64 + (size_t)acl->naces * 32, 0))
		return -ENOMEM;
	ret = nfs4_enc_acl(&e, acl);
	len = ret ? ret : (long)e.len;
	if (len > 0 && buf && size) {
		if (size < (size_t)len)
			len = -ERANGE;
		else
			memcpy(buf, e.buf, (size_t)len);
	}
	xdr_enc_release(&e);
	return len;
}

static bool ace_valid(const struct nfs4_ace *ace)
{
	return ace->type <= NFS4_ACE_SYSTEM_ALARM_ACE_TYPE &&
	       !(ace->flag & ~NFS4_ACE_FLAGS_ALL) &&
	       !(ace->access_mask & ~NFS4_ACE_MASK_ALL) && ace->who.len > 0;
}

int nfs4_acl_from_xattr(const void *value, size_t size, struct nfs4_acl *acl)
{
	struct nfs4_ace ace;
	struct xdr_dec d, it;
	int ret;

	memset(acl, 0, sizeof(*acl));
	/* More than the largest ACL could hold is refused before the walk. */
	if (!value || size < 4 || size % 4 ||
	    size > 4 + (size_t)NFS4_MAXACES * (16 + NFS4_MAXSTR))
		return -EINVAL;
	xdr_dec_init(&d, value, size);
	if (nfs4_dec_acl(&d, acl) || xdr_dec_left(&d) != 0)
		goto bad;
	xdr_dec_init(&it, acl->raw, acl->raw_len);
	while ((ret = nfs4_acl_next(&it, &ace)) == 1)
		if (!ace_valid(&ace))
			goto bad;
	if (ret == 0)
		return 0;
bad:
	memset(acl, 0, sizeof(*acl));
	return -EINVAL;
}
