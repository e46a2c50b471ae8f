/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mount.h"

#include <errno.h>
#include <string.h>

const char *const mnt_proc_names[MNTPROC_COUNT] = {
	[MNTPROC_NULL] = "NULL",
	[MNTPROC_MNT] = "MNT",
	[MNTPROC_DUMP] = "DUMP",
	[MNTPROC_UMNT] = "UMNT",
	[MNTPROC_UMNTALL] = "UMNTALL",
	[MNTPROC_EXPORT] = "EXPORT",
};

static const struct {
	uint32_t status;
	int err;
	const char *name;
	const char *str;
} mnt_stats[] = {
	{ MNT3_OK, 0, "MNT3_OK", "success" },
	{ MNT3ERR_PERM, -EPERM, "MNT3ERR_PERM", "operation not permitted" },
	{ MNT3ERR_NOENT, -ENOENT, "MNT3ERR_NOENT",
	  "no such file or directory" },
	{ MNT3ERR_IO, -EIO, "MNT3ERR_IO", "input/output error" },
	{ MNT3ERR_ACCES, -EACCES, "MNT3ERR_ACCES", "permission denied" },
	{ MNT3ERR_NOTDIR, -ENOTDIR, "MNT3ERR_NOTDIR", "not a directory" },
	{ MNT3ERR_INVAL, -EINVAL, "MNT3ERR_INVAL", "invalid argument" },
	{ MNT3ERR_NAMETOOLONG, -ENAMETOOLONG, "MNT3ERR_NAMETOOLONG",
	  "file name too long" },
	{ MNT3ERR_NOTSUPP, -EOPNOTSUPP, "MNT3ERR_NOTSUPP",
	  "operation not supported" },
	{ MNT3ERR_SERVERFAULT, -EIO, "MNT3ERR_SERVERFAULT",
	  "server fault" },
};

#define NSTATS (sizeof(mnt_stats) / sizeof(mnt_stats[0]))

int mnt_stat_errno(uint32_t status)
{
	for (size_t i = 0; i < NSTATS; i++)
		if (mnt_stats[i].status == status)
			return mnt_stats[i].err;
	return -EIO;
}

const char *mnt_stat_str(uint32_t status)
{
	for (size_t i = 0; i < NSTATS; i++)
		if (mnt_stats[i].status == status)
			return mnt_stats[i].str;
	return "unknown mount status";
}

const char *mnt_stat_name(uint32_t status)
{
	for (size_t i = 0; i < NSTATS; i++)
		if (mnt_stats[i].status == status)
			return mnt_stats[i].name;
	return NULL;
}

/* typedef string dirpath<MNTPATHLEN>; */
int mnt_enc_dirpath_args(struct xdr_enc *e, const void *args)
{
	const struct mnt_dirpath_args *a = args;

	return xdr_enc_string(e, MNT_PATHLEN, a->dirpath);
}

int mnt_dec_dirpath_args(struct xdr_dec *d, const char **dirpath,
			 uint32_t *len)
{
	return xdr_dec_string(d, MNT_PATHLEN, dirpath, len);
}

/*
 * typedef opaque fhandle3<FHSIZE3>;
 * struct mountres3_ok { fhandle3 fhandle; int auth_flavors<>; };
 * union mountres3 switch (mountstat3 fhs_status) {
 * case MNT3_OK: mountres3_ok mountinfo;
 * default: void;
 * };
 */
int mnt_dec_mnt3_res(struct xdr_dec *d, void *res)
{
	struct mnt_mnt_res *r = res;
	const uint8_t *p;
	uint32_t len, n;

	r->fh.len = 0;
	r->nflavors = r->nflavors_sent = 0;
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	if (r->status != MNT3_OK)
		return 0;
	if (xdr_dec_opaque(d, MNT_FHSIZE3, &p, &len))
		return -EBADMSG;
	memcpy(r->fh.data, p, len);
	r->fh.len = len;
	if (xdr_dec_u32(d, &n))
		return -EBADMSG;
	/* n * 4 could overflow 32 bits: compare in units instead. */
	if (xdr_dec_left(d) / XDR_UNIT < n)
		return -EBADMSG;
	p = xdr_dec_inline(d, (size_t)n * XDR_UNIT);
	r->nflavors_sent = n;
	r->nflavors = n < MNT_MAXFLAVORS ? n : MNT_MAXFLAVORS;
	for (uint32_t i = 0; i < r->nflavors; i++)
		r->flavors[i] = xdr_get_u32(p + 4 * i);
	return 0;
}

/*
 * typedef opaque fhandle[FHSIZE];
 * union fhstatus switch (unsigned fhs_status) {
 * case 0: fhandle fhs_fhandle;
 * default: void;
 * };
 */
int mnt_dec_mnt1_res(struct xdr_dec *d, void *res)
{
	struct mnt_mnt_res *r = res;
	const uint8_t *p;

	r->fh.len = 0;
	r->nflavors = r->nflavors_sent = 0;
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	if (r->status != 0)
		return 0;
	if (xdr_dec_opaque_fixed(d, MNT_FHSIZE1, &p))
		return -EBADMSG;
	memcpy(r->fh.data, p, MNT_FHSIZE1);
	r->fh.len = MNT_FHSIZE1;
	return 0;
}

int mnt_enc_mnt3_res(struct xdr_enc *e, const struct mnt_mnt_res *r)
{
	xdr_enc_u32(e, r->status);
	if (r->status != MNT3_OK)
		return xdr_enc_error(e);
	xdr_enc_opaque(e, MNT_FHSIZE3, r->fh.data, r->fh.len);
	if (r->nflavors > MNT_MAXFLAVORS && !e->err)
		e->err = -EINVAL;
	xdr_enc_u32(e, r->nflavors);
	for (uint32_t i = 0; i < r->nflavors && i < MNT_MAXFLAVORS; i++)
		xdr_enc_u32(e, r->flavors[i]);
	return xdr_enc_error(e);
}

int mnt_enc_mnt1_res(struct xdr_enc *e, const struct mnt_mnt_res *r)
{
	xdr_enc_u32(e, r->status);
	if (r->status != 0)
		return xdr_enc_error(e);
	if (r->fh.len != MNT_FHSIZE1 && !e->err)
		e->err = -EINVAL;
	xdr_enc_opaque_fixed(e, r->fh.data, MNT_FHSIZE1);
	return xdr_enc_error(e);
}

/* Skips one groups list: (TRUE name)* FALSE.  Counts the names. */
static int skip_groups(struct xdr_dec *d, uint32_t *n)
{
	const char *name;
	uint32_t len;
	bool more;

	*n = 0;
	for (;;) {
		if (xdr_dec_bool(d, &more))
			return -EBADMSG;
		if (!more)
			return 0;
		if (xdr_dec_string(d, MNT_NAMELEN, &name, &len))
			return -EBADMSG;
		(*n)++;
	}
}

/*
 * typedef struct groupnode *groups;
 * struct groupnode { name gr_name; groups gr_next; };
 * typedef struct exportnode *exports;
 * struct exportnode { dirpath ex_dir; groups ex_groups; exports ex_next; };
 *
 * On the wire: (TRUE dirpath (TRUE name)* FALSE)* FALSE.  Every element
 * takes at least 4 bytes, so a list that never ends runs out of buffer.
 */
int mnt_dec_export_res(struct xdr_dec *d, void *res)
{
	struct mnt_export_res *r = res;
	const uint8_t *start = d->p;
	uint32_t n = 0;

	for (;;) {
		const char *dir;
		uint32_t len, ngroups;
		bool more;

		if (xdr_dec_bool(d, &more))
			return -EBADMSG;
		if (!more)
			break;
		if (xdr_dec_string(d, MNT_PATHLEN, &dir, &len) ||
		    skip_groups(d, &ngroups))
			return -EBADMSG;
		n++;
	}
	r->entries.p = start;
	r->entries.end = d->p;
	r->nexports = n;
	return 0;
}

int mnt_export_next(struct xdr_dec *it, struct mnt_exportnode *ex)
{
	const uint8_t *save = it->p;
	bool more;

	if (xdr_dec_bool(it, &more))
		return -EBADMSG;
	if (!more) {
		it->p = save;
		return 0;
	}
	if (xdr_dec_string(it, MNT_PATHLEN, &ex->dir, &ex->dirlen))
		return -EBADMSG;
	ex->groups = *it;
	if (skip_groups(it, &ex->ngroups))
		return -EBADMSG;
	ex->groups.end = it->p;
	return 1;
}

int mnt_group_next(struct xdr_dec *it, const char **name, uint32_t *len)
{
	const uint8_t *save = it->p;
	bool more;

	if (xdr_dec_bool(it, &more))
		return -EBADMSG;
	if (!more) {
		it->p = save;
		return 0;
	}
	return xdr_dec_string(it, MNT_NAMELEN, name, len) ? -EBADMSG : 1;
}

int mnt_enc_export_res(struct xdr_enc *e, const struct mnt_export *list,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		xdr_enc_bool(e, true);
		xdr_enc_string(e, MNT_PATHLEN, list[i].dir);
		for (size_t g = 0; g < list[i].ngroups; g++) {
			xdr_enc_bool(e, true);
			xdr_enc_string(e, MNT_NAMELEN, list[i].groups[g]);
		}
		xdr_enc_bool(e, false);
	}
	xdr_enc_bool(e, false);
	return xdr_enc_error(e);
}

/*
 * typedef struct mountbody *mountlist;
 * struct mountbody { name ml_hostname; dirpath ml_directory;
 *		      mountlist ml_next; };
 */
static int dec_mountbody(struct xdr_dec *d, struct mnt_mountbody *mb)
{
	if (xdr_dec_string(d, MNT_NAMELEN, &mb->hostname, &mb->hostlen) ||
	    xdr_dec_string(d, MNT_PATHLEN, &mb->dir, &mb->dirlen))
		return -EBADMSG;
	return 0;
}

int mnt_dec_dump_res(struct xdr_dec *d, void *res)
{
	struct mnt_dump_res *r = res;
	const uint8_t *start = d->p;
	uint32_t n = 0;

	for (;;) {
		struct mnt_mountbody mb;
		bool more;

		if (xdr_dec_bool(d, &more))
			return -EBADMSG;
		if (!more)
			break;
		if (dec_mountbody(d, &mb))
			return -EBADMSG;
		n++;
	}
	r->entries.p = start;
	r->entries.end = d->p;
	r->nentries = n;
	return 0;
}

int mnt_dump_next(struct xdr_dec *it, struct mnt_mountbody *mb)
{
	const uint8_t *save = it->p;
	bool more;

	if (xdr_dec_bool(it, &more))
		return -EBADMSG;
	if (!more) {
		it->p = save;
		return 0;
	}
	return dec_mountbody(it, mb) ? -EBADMSG : 1;
}

static int enc_bytes(struct xdr_enc *e, uint32_t max, const char *s,
		     uint32_t len)
{
	return xdr_enc_opaque(e, max, s ? s : "", s ? len : 0);
}

int mnt_enc_dump_res(struct xdr_enc *e, const struct mnt_mountbody *list,
		     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		xdr_enc_bool(e, true);
		enc_bytes(e, MNT_NAMELEN, list[i].hostname, list[i].hostlen);
		enc_bytes(e, MNT_PATHLEN, list[i].dir, list[i].dirlen);
	}
	xdr_enc_bool(e, false);
	return xdr_enc_error(e);
}
