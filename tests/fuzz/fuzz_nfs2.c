/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSv2 codecs and conversions (xdr/nfs2.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 27:
 *   0..17  the result decoder of NFSv2 procedure <selector> (0 NULL,
 *          1 GETATTR ... 16 READDIR, 17 STATFS);
 *   18 fhandle  19 fattr  20 sattr (the type decoders);
 *   21 attrstat  22 diropres  23 a bare stat (the shared decoders);
 *   24 sattr3 -> sattr (nfs2_sattr_from_sattr3) from raw words;
 *   25 nfs2_read_range / nfs2_write_range from raw words;
 *   26 nfs2_readdir_next on the raw message (it must never read past it).
 * Decoded handles, attributes and names are encoded again and converted
 * to their NFSv3 forms.
 */
#include <errno.h>

#include "fuzz.h"
#include "nfs2.h"

FUZZ_DEFINE_SINK;

#define NSEL 27

FUZZ_WRAP_CODEC(fh, nfs2_enc_fh, nfs2_dec_fh, struct nfs2_fh)
FUZZ_WRAP_CODEC(fattr, nfs2_enc_fattr, nfs2_dec_fattr, struct nfs2_fattr)
FUZZ_WRAP_CODEC(sattr, nfs2_enc_sattr, nfs2_dec_sattr, struct nfs2_sattr)

static void check_status(uint32_t status)
{
	uint32_t s3 = nfs2_stat_to_nfsstat3(status);

	fuzz_sink += nfs2_stat_name(status) != NULL;
	FUZZ_CHECK((s3 == NFS3_OK) == (status == NFS2_OK));
	FUZZ_CHECK(nfs3_stat_name(s3) != NULL);
}

static void check_fh(const struct nfs2_fh *fh)
{
	struct nfs2_getattr_args args;
	struct nfs_fh3 fh3;
	struct nfs2_fh back;
	struct xdr_enc e;

	FUZZ_CHECK(fuzz_round_trip(fh_enc, fh_dec, fh, sizeof(*fh)) == 0);
	nfs2_fh_to_fh3(fh, &fh3);
	FUZZ_CHECK(nfs2_fh_from_fh3(&fh3, &back) == 0);
	FUZZ_CHECK(memcmp(back.data, fh->data, NFS2_FHSIZE) == 0);
	args.file = *fh;
	if (xdr_enc_init(&e, 64, 0))
		abort();
	FUZZ_CHECK(nfs2_enc_getattr_args(&e, &args) == 0);
	FUZZ_CHECK(e.len == NFS2_FHSIZE);
	xdr_enc_release(&e);
}

static void check_fattr(const struct nfs2_fattr *a)
{
	struct fattr3 a3;

	FUZZ_CHECK(fuzz_round_trip(fattr_enc, fattr_dec, a, sizeof(*a)) == 0);
	nfs2_fattr_to_fattr3(a, &a3);
	FUZZ_CHECK((a3.mode & ~07777u) == 0);
	FUZZ_CHECK(a3.atime.nseconds < 1000000000u);
	FUZZ_CHECK(a3.mtime.nseconds < 1000000000u);
	FUZZ_CHECK(a3.ctime.nseconds < 1000000000u);
	FUZZ_CHECK(a3.size == a->size);
	fuzz_sink += a3.type + (uint32_t)a3.used;
}

/* A decoded name as a LOOKUP argument in dir. */
static void check_name(const char *name, uint32_t len)
{
	static const struct nfs2_fh dir = { { 1, 2, 3, 4 } };
	struct nfs2_lookup_args args;
	struct xdr_enc e;
	char *copy;

	fuzz_touch(name, len);
	FUZZ_CHECK(len <= NFS2_MAXNAMLEN);
	copy = fuzz_strndup(name, len);
	args.what.dir = &dir;
	args.what.name = copy;
	if (xdr_enc_init(&e, 64, 0))
		abort();
	/* The encoder refuses the empty name a server may send. */
	FUZZ_CHECK((nfs2_enc_lookup_args(&e, &args) == 0) == (len > 0));
	xdr_enc_release(&e);
	free(copy);
}

static void check_readdir(struct nfs2_readdir_res *r)
{
	struct nfs2_entry ent;
	uint32_t n = 0;
	int ret;

	check_status(r->status);
	if (r->status != NFS2_OK)
		return;
	while ((ret = nfs2_readdir_next(&r->entries, &ent)) == 1) {
		check_name(ent.name, ent.namelen);
		FUZZ_CHECK(++n <= r->nentries);
	}
	FUZZ_CHECK(ret == 0 && n == r->nentries);
	FUZZ_CHECK(nfs2_readdir_next(&r->entries, &ent) == 0);
}

/* A time of the message: seconds as a signed u64 (before 1970 and past
 * 2106 too, as a fattr3 holds them), nanoseconds. */
static int dec_time(struct xdr_dec *d, struct nfstime3 *t)
{
	uint64_t s;

	if (xdr_dec_u64(d, &s) || xdr_dec_u32(d, &t->nseconds))
		return -EBADMSG;
	t->seconds = (int64_t)s;
	return 0;
}

/* Fields of a sattr3 from the message, one word each (u64 for size). */
static void check_sattr3(struct xdr_dec *d)
{
	struct sattr3 s;
	struct nfstime3 now;
	struct nfs2_sattr out, back;
	uint32_t flags = 0;
	int ret;

	memset(&s, 0, sizeof(s));
	if (xdr_dec_u32(d, &flags) || xdr_dec_u32(d, &s.mode) ||
	    xdr_dec_u32(d, &s.uid) || xdr_dec_u32(d, &s.gid) ||
	    xdr_dec_u64(d, &s.size) || xdr_dec_u32(d, &s.set_atime) ||
	    dec_time(d, &s.atime) || xdr_dec_u32(d, &s.set_mtime) ||
	    dec_time(d, &s.mtime) || dec_time(d, &now))
		return;
	s.set_mode = flags & 1;
	s.set_uid = flags & 2;
	s.set_gid = flags & 4;
	s.set_size = flags & 8;
	memset(&out, 0x5a, sizeof(out));
	ret = nfs2_sattr_from_sattr3(&s, &out, flags & 16 ? NULL : &now);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL || ret == -EFBIG ||
			   ret == -EOVERFLOW);
		return;
	}
	if (s.set_size)
		FUZZ_CHECK(out.size == s.size && s.size <= NFS2_MAXFILESIZE);
	else
		FUZZ_CHECK(out.size == NFS2_SATTR_NOT_SET);
	if (s.set_mode)
		FUZZ_CHECK(out.mode == s.mode);
	/* A time set by the client is the nearest the wire holds (one past
	 * 2106 failed: its clamp is the "not set" value). */
	if (s.set_mtime == SET_TO_CLIENT_TIME)
		FUZZ_CHECK(out.mtime.seconds == (s.mtime.seconds < 0 ? 0 :
			   (uint32_t)s.mtime.seconds));
	FUZZ_CHECK(fuzz_round_trip(sattr_enc, sattr_dec, &out,
				   sizeof(out)) == 0);
	nfs2_sattr_none(&back);
	FUZZ_CHECK(fuzz_round_trip(sattr_enc, sattr_dec, &back,
				   sizeof(back)) == 0);
}

static void check_ranges(struct xdr_dec *d)
{
	uint64_t offset;
	uint32_t count, off32 = 0, cnt32 = 0;

	if (xdr_dec_u64(d, &offset) || xdr_dec_u32(d, &count))
		return;
	if (nfs2_read_range(offset, count, &off32, &cnt32) == 0) {
		FUZZ_CHECK(off32 == offset && cnt32 <= count &&
			   cnt32 <= NFS2_MAXDATA);
		FUZZ_CHECK((uint64_t)off32 + cnt32 <= NFS2_MAXFILESIZE);
	} else {
		FUZZ_CHECK(offset > NFS2_MAXFILESIZE);
	}
	if (nfs2_write_range(offset, count, &off32, &cnt32) == 0) {
		FUZZ_CHECK(off32 == offset && cnt32 <= count &&
			   cnt32 <= NFS2_MAXDATA);
		FUZZ_CHECK((uint64_t)off32 + cnt32 <= NFS2_MAXFILESIZE);
		FUZZ_CHECK(count == 0 || cnt32 > 0);
	} else {
		FUZZ_CHECK(offset >= NFS2_MAXFILESIZE);
	}
}

static void run(unsigned sel, struct xdr_dec *d)
{
	union {
		struct nfs2_attrstat attrstat;
		struct nfs2_diropres dirop;
		struct nfs2_stat_res stat;
		struct nfs2_readlink_res readlink;
		struct nfs2_read_res read;
		struct nfs2_readdir_res readdir;
		struct nfs2_statfs_res statfs;
		struct nfs2_fh fh;
		struct nfs2_fattr fattr;
		struct nfs2_sattr sattr;
		struct nfs2_entry entry;
	} u;
	int (*attrstat)(struct xdr_dec *, void *) = NULL;
	int (*dirop)(struct xdr_dec *, void *) = NULL;
	int (*stat)(struct xdr_dec *, void *) = NULL;

	memset(&u, 0, sizeof(u));
	switch (sel) {
	case NFS2PROC_NULL:
	case NFS2PROC_ROOT:
	case NFS2PROC_WRITECACHE:
		FUZZ_CHECK(nfs2_dec_void_res(d, NULL) == 0);
		break;
	case NFS2PROC_GETATTR: attrstat = nfs2_dec_getattr_res; break;
	case NFS2PROC_SETATTR: attrstat = nfs2_dec_setattr_res; break;
	case NFS2PROC_WRITE: attrstat = nfs2_dec_write_res; break;
	case 21: attrstat = nfs2_dec_attrstat; break;
	case NFS2PROC_LOOKUP: dirop = nfs2_dec_lookup_res; break;
	case NFS2PROC_CREATE: dirop = nfs2_dec_create_res; break;
	case NFS2PROC_MKDIR: dirop = nfs2_dec_mkdir_res; break;
	case 22: dirop = nfs2_dec_diropres; break;
	case NFS2PROC_REMOVE: stat = nfs2_dec_remove_res; break;
	case NFS2PROC_RENAME: stat = nfs2_dec_rename_res; break;
	case NFS2PROC_LINK: stat = nfs2_dec_link_res; break;
	case NFS2PROC_SYMLINK: stat = nfs2_dec_symlink_res; break;
	case NFS2PROC_RMDIR: stat = nfs2_dec_rmdir_res; break;
	case 23: stat = nfs2_dec_stat_res; break;
	case NFS2PROC_READLINK:
		if (nfs2_dec_readlink_res(d, &u.readlink) == 0) {
			check_status(u.readlink.status);
			FUZZ_CHECK(u.readlink.len <= NFS2_MAXPATHLEN);
			fuzz_touch(u.readlink.data, u.readlink.len);
		}
		break;
	case NFS2PROC_READ:
		if (nfs2_dec_read_res(d, &u.read) == 0) {
			check_status(u.read.status);
			if (u.read.status == NFS2_OK) {
				check_fattr(&u.read.attributes);
				FUZZ_CHECK(u.read.count <= NFS2_MAXDATA);
				fuzz_touch(u.read.data, u.read.count);
			}
		}
		break;
	case NFS2PROC_READDIR:
		if (nfs2_dec_readdir_res(d, &u.readdir) == 0)
			check_readdir(&u.readdir);
		break;
	case NFS2PROC_STATFS:
		if (nfs2_dec_statfs_res(d, &u.statfs) == 0)
			check_status(u.statfs.status);
		break;
	case 18:
		if (nfs2_dec_fh(d, &u.fh) == 0)
			check_fh(&u.fh);
		break;
	case 19:
		if (nfs2_dec_fattr(d, &u.fattr) == 0)
			check_fattr(&u.fattr);
		break;
	case 20:
		if (nfs2_dec_sattr(d, &u.sattr) == 0)
			FUZZ_CHECK(fuzz_round_trip(sattr_enc, sattr_dec,
						   &u.sattr,
						   sizeof(u.sattr)) == 0);
		break;
	case 24:
		check_sattr3(d);
		break;
	case 25:
		check_ranges(d);
		break;
	case 26:
		while (nfs2_readdir_next(d, &u.entry) == 1)
			fuzz_touch(u.entry.name, u.entry.namelen);
		break;
	default:
		abort();
	}
	if (attrstat && attrstat(d, &u.attrstat) == 0) {
		check_status(u.attrstat.status);
		if (u.attrstat.status == NFS2_OK)
			check_fattr(&u.attrstat.attributes);
	}
	if (dirop && dirop(d, &u.dirop) == 0) {
		check_status(u.dirop.status);
		if (u.dirop.status == NFS2_OK) {
			check_fh(&u.dirop.file);
			check_fattr(&u.dirop.attributes);
		}
	}
	if (stat && stat(d, &u.stat) == 0)
		check_status(u.stat.status);
	FUZZ_CHECK(d->p <= d->end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	run(data[0] % NSEL, &d);
	free(buf);
	return 0;
}
