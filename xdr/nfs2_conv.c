/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 2 <-> NFS version 3 types.  The upper layers speak NFSv3
 * (64-bit sizes, nanosecond times, ftype3, nfsstat3); these pure functions
 * translate, and refuse what NFSv2 cannot express instead of letting a
 * 64-bit value wrap into a 32-bit field.
 */
#include "nfs2.h"

#include <errno.h>
#include <string.h>

#define NSEC_PER_USEC 1000u
#define USEC_PER_SEC 1000000u
#define NSEC_PER_SEC 1000000000u

static uint32_t usec_to_nsec(uint32_t usec)
{
	/* A well-formed useconds is below 10^6; anything else (including
	 * the 1000000 "server time" marker, which is an argument-only
	 * convention) is clamped rather than overflowing. */
	if (usec >= USEC_PER_SEC)
		return NSEC_PER_SEC - 1;
	return usec * NSEC_PER_USEC;
}

static void time_to_nfstime3(const struct nfs2_time *t, struct nfstime3 *out)
{
	out->seconds = t->seconds;
	out->nseconds = usec_to_nsec(t->useconds);
}

static uint32_t ftype_to_ftype3(uint32_t type, uint32_t rdev)
{
	switch (type) {
	case NF2CHR:
		return rdev == NFS2_FIFO_DEV ? NF3FIFO : NF3CHR;
	case NF2REG:
	case NF2DIR:
	case NF2BLK:
	case NF2LNK:
	case NF2SOCK:
		return type; /* same numbers in both versions */
	case NF2FIFO:
		return NF3FIFO;
	case NF2NON:
	case NF2BAD:
		return 0; /* no ftype3 is 0; NF2BAD's 7 would read as NF3FIFO */
	}
	return type;
}

void nfs2_fattr_to_fattr3(const struct nfs2_fattr *a, struct fattr3 *out)
{
	memset(out, 0, sizeof(*out));
	out->type = ftype_to_ftype3(a->type, a->rdev);
	out->mode = a->mode & 07777;
	out->nlink = a->nlink;
	out->uid = a->uid;
	out->gid = a->gid;
	out->size = a->size;
	out->used = (uint64_t)a->blocks * a->blocksize;
	if (out->type == NF3CHR || out->type == NF3BLK) {
		/* Linux new_decode_dev(): 12-bit major, 20-bit minor. */
		out->rdev.specdata1 = (a->rdev & 0xfff00u) >> 8;
		out->rdev.specdata2 = (a->rdev & 0xffu) |
				      ((a->rdev >> 12) & 0xfff00u);
	}
	out->fsid = a->fsid;
	out->fileid = a->fileid;
	time_to_nfstime3(&a->atime, &out->atime);
	time_to_nfstime3(&a->mtime, &out->mtime);
	time_to_nfstime3(&a->ctime, &out->ctime);
}

/* One set_atime/set_mtime into an sattr time (left "not set" for
 * DONT_CHANGE). */
static int time_from_set_time(uint32_t how, const struct nfstime3 *t,
			      const struct nfstime3 *now,
			      struct nfs2_time *out)
{
	switch (how) {
	case DONT_CHANGE:
		return 0;
	case SET_TO_SERVER_TIME:
		if (!now)
			return -EINVAL;
		if (now->seconds < 0 || now->seconds >= NFS2_SATTR_NOT_SET)
			return -EOVERFLOW;
		out->seconds = (uint32_t)now->seconds;
		out->useconds = NFS2_USEC_SERVER_TIME;
		return 0;
	case SET_TO_CLIENT_TIME: {
		struct nfstime3 w = nfstime3_wire(t);

		if (t->nseconds >= NSEC_PER_SEC)
			return -EINVAL;
		if (w.seconds == NFS2_SATTR_NOT_SET)
			return -EOVERFLOW;
		out->seconds = (uint32_t)w.seconds;
		out->useconds = w.nseconds / NSEC_PER_USEC;
		return 0;
	}
	}
	return -EINVAL;
}

int nfs2_sattr_from_sattr3(const struct sattr3 *s, struct nfs2_sattr *out,
			   const struct nfstime3 *now)
{
	struct nfs2_sattr r;
	int ret;

	if (!s || !out)
		return -EINVAL;
	nfs2_sattr_none(&r);
	if (s->set_mode) {
		if (s->mode == NFS2_SATTR_NOT_SET)
			return -EINVAL;
		r.mode = s->mode;
	}
	if (s->set_uid) {
		if (s->uid == NFS2_SATTR_NOT_SET)
			return -EINVAL;
		r.uid = s->uid;
	}
	if (s->set_gid) {
		if (s->gid == NFS2_SATTR_NOT_SET)
			return -EINVAL;
		r.gid = s->gid;
	}
	if (s->set_size) {
		if (s->size > NFS2_MAXFILESIZE)
			return -EFBIG;
		r.size = (uint32_t)s->size;
	}
	ret = time_from_set_time(s->set_atime, &s->atime, now, &r.atime);
	if (ret)
		return ret;
	ret = time_from_set_time(s->set_mtime, &s->mtime, now, &r.mtime);
	if (ret)
		return ret;
	*out = r;
	return 0;
}

int nfs2_read_range(uint64_t offset, uint32_t count, uint32_t *offset32,
		    uint32_t *count32)
{
	uint64_t room;

	if (offset > NFS2_MAXFILESIZE)
		return -EOVERFLOW;
	room = NFS2_MAXFILESIZE - offset;
	if (count > NFS2_MAXDATA)
		count = NFS2_MAXDATA;
	if (count > room)
		count = (uint32_t)room;
	*offset32 = (uint32_t)offset;
	*count32 = count;
	return 0;
}

int nfs2_write_range(uint64_t offset, uint32_t count, uint32_t *offset32,
		     uint32_t *count32)
{
	uint64_t room;

	if (offset > NFS2_MAXFILESIZE ||
	    (offset == NFS2_MAXFILESIZE && count > 0))
		return -EFBIG;
	room = NFS2_MAXFILESIZE - offset;
	if (count > NFS2_MAXDATA)
		count = NFS2_MAXDATA;
	if (count > room)
		count = (uint32_t)room;
	*offset32 = (uint32_t)offset;
	*count32 = count;
	return 0;
}

uint32_t nfs2_stat_to_nfsstat3(uint32_t status)
{
	switch (status) {
	case NFS2_OK:
	case NFS2ERR_PERM:
	case NFS2ERR_NOENT:
	case NFS2ERR_IO:
	case NFS2ERR_NXIO:
	case NFS2ERR_ACCES:
	case NFS2ERR_EXIST:
	case NFS2ERR_NODEV:
	case NFS2ERR_NOTDIR:
	case NFS2ERR_ISDIR:
	case NFS2ERR_FBIG:
	case NFS2ERR_NOSPC:
	case NFS2ERR_ROFS:
	case NFS2ERR_NAMETOOLONG:
	case NFS2ERR_NOTEMPTY:
	case NFS2ERR_DQUOT:
	case NFS2ERR_STALE:
		return status; /* the same number means the same in v3 */
	case NFS3ERR_XDEV:
	case NFS3ERR_INVAL:
	case NFS3ERR_MLINK:
	case NFS3ERR_REMOTE:
		return status; /* not in RFC 1094, but sent by v2 servers */
	case NFS2ERR_WFLUSH:
		return NFS3ERR_IO;
	}
	return NFS3ERR_IO;
}

void nfs2_fh_to_fh3(const struct nfs2_fh *fh, struct nfs_fh3 *out)
{
	memset(out, 0, sizeof(*out));
	out->len = NFS2_FHSIZE;
	memcpy(out->data, fh->data, NFS2_FHSIZE);
}

int nfs2_fh_from_fh3(const struct nfs_fh3 *fh, struct nfs2_fh *out)
{
	if (!fh || fh->len != NFS2_FHSIZE)
		return -EINVAL;
	memcpy(out->data, fh->data, NFS2_FHSIZE);
	return 0;
}
