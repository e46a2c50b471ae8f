/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSv3 decoders (xdr/nfs3.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 26:
 *   1..21  the result decoder of NFS procedure <selector> (1 GETATTR ...
 *          21 COMMIT; CREATE, MKDIR, SYMLINK and MKNOD share diropres,
 *          REMOVE and RMDIR wccstat);
 *   0      nfs_fh3;  22 fattr3;  23 post_op_attr;  24 wcc_data;
 *   25     post_op_fh3.
 * Spans into the reply (names, link targets, READ data, directory
 * entries) are read to the end; decoded handles, attributes and names are
 * encoded again (as arguments where there is no result encoder).
 */
#include "fuzz.h"
#include "nfs3.h"

FUZZ_DEFINE_SINK;

#define NSEL 26

FUZZ_WRAP_CODEC(fh3, nfs3_enc_fh3, nfs3_dec_fh3, struct nfs_fh3)
FUZZ_WRAP_CODEC(fattr3, nfs3_enc_fattr3, nfs3_dec_fattr3, struct fattr3)
FUZZ_WRAP_CODEC(poa, nfs3_enc_post_op_attr, nfs3_dec_post_op_attr,
		struct post_op_attr)
FUZZ_WRAP_CODEC(wcc, nfs3_enc_wcc_data, nfs3_dec_wcc_data, struct wcc_data)

static void touch_fattr(const struct fattr3 *a)
{
	fuzz_sink += a->type + a->mode + (uint32_t)a->size + a->atime.nseconds;
}

static void reencode_fh(const struct nfs_fh3 *fh)
{
	struct nfs3_getattr_args args;

	FUZZ_CHECK(fh->len <= NFS3_FHSIZE);
	args.object = *fh;
	fuzz_round_trip(fh3_enc, fh3_dec,
			fh, sizeof(*fh));
	{
		struct xdr_enc e;

		if (xdr_enc_init(&e, 128, 0))
			abort();
		FUZZ_CHECK(nfs3_enc_getattr_args(&e, &args) == 0);
		xdr_enc_release(&e);
	}
}

static void reencode_post_op_attr(const struct post_op_attr *a)
{
	fuzz_round_trip(poa_enc, poa_dec, a, sizeof(*a));
	if (a->present)
		touch_fattr(&a->attr);
}

static void reencode_wcc(const struct wcc_data *w)
{
	fuzz_round_trip(wcc_enc, wcc_dec, w, sizeof(*w));
}

/* A decoded name as the argument of a LOOKUP in dir. */
static void reencode_name(const struct nfs_fh3 *dir, const char *name,
			  uint32_t len)
{
	struct nfs3_lookup_args args;
	struct xdr_enc e;
	char *copy;

	fuzz_touch(name, len);
	copy = fuzz_strndup(name, len);
	args.what.dir = dir;
	args.what.name = copy;
	if (xdr_enc_init(&e, 128, 0))
		abort();
	/* Names over NFS3_MAXNAMLEN are the encoder's to refuse. */
	nfs3_enc_lookup_args(&e, &args);
	xdr_enc_release(&e);
	free(copy);
}

static void check_readdir(struct nfs3_readdir_res *r)
{
	static const struct nfs_fh3 dir = { 4, { 1, 2, 3, 4 } };
	struct nfs3_entry ent;
	uint32_t n = 0;
	int ret;

	reencode_post_op_attr(&r->dir_attributes);
	if (r->status != NFS3_OK)
		return;
	while ((ret = nfs3_readdir_next(&r->entries, &ent)) == 1) {
		reencode_name(&dir, ent.name, ent.namelen);
		FUZZ_CHECK(++n <= r->nentries);
	}
	FUZZ_CHECK(ret == 0);
	FUZZ_CHECK(n == r->nentries);
	/* The end stays the end. */
	FUZZ_CHECK(nfs3_readdir_next(&r->entries, &ent) == 0);
}

static void check_readdirplus(struct nfs3_readdirplus_res *r)
{
	static const struct nfs_fh3 dir = { 4, { 1, 2, 3, 4 } };
	struct nfs3_entryplus ent;
	uint32_t n = 0;
	int ret;

	reencode_post_op_attr(&r->dir_attributes);
	if (r->status != NFS3_OK)
		return;
	while ((ret = nfs3_readdirplus_next(&r->entries, &ent)) == 1) {
		reencode_name(&dir, ent.name, ent.namelen);
		reencode_post_op_attr(&ent.name_attributes);
		if (ent.name_handle.present)
			reencode_fh(&ent.name_handle.fh);
		FUZZ_CHECK(++n <= r->nentries);
	}
	FUZZ_CHECK(ret == 0);
	FUZZ_CHECK(n == r->nentries);
	FUZZ_CHECK(nfs3_readdirplus_next(&r->entries, &ent) == 0);
}

static void check_diropres(const struct nfs3_diropres *r)
{
	if (r->status == NFS3_OK) {
		if (r->obj.present)
			reencode_fh(&r->obj.fh);
		reencode_post_op_attr(&r->obj_attributes);
	}
	reencode_wcc(&r->dir_wcc);
}

static void run(unsigned sel, struct xdr_dec *d)
{
	union {
		struct nfs3_getattr_res getattr;
		struct nfs3_setattr_res setattr;
		struct nfs3_lookup_res lookup;
		struct nfs3_access_res access;
		struct nfs3_readlink_res readlink;
		struct nfs3_read_res read;
		struct nfs3_write_res write;
		struct nfs3_diropres dirop;
		struct nfs3_wccstat_res wccstat;
		struct nfs3_rename_res rename;
		struct nfs3_link_res link;
		struct nfs3_readdir_res readdir;
		struct nfs3_readdirplus_res readdirplus;
		struct nfs3_fsstat_res fsstat;
		struct nfs3_fsinfo_res fsinfo;
		struct nfs3_pathconf_res pathconf;
		struct nfs3_commit_res commit;
		struct nfs_fh3 fh;
		struct fattr3 fattr;
		struct post_op_attr poa;
		struct wcc_data wcc;
		struct post_op_fh3 pofh;
	} u;

	memset(&u, 0, sizeof(u));
	switch (sel) {
	case 0:
		if (nfs3_dec_fh3(d, &u.fh) == 0)
			reencode_fh(&u.fh);
		break;
	case NFS3PROC_GETATTR:
		if (nfs3_dec_getattr_res(d, &u.getattr) == 0 &&
		    u.getattr.status == NFS3_OK) {
			fuzz_round_trip(fattr3_enc, fattr3_dec,
					&u.getattr.obj_attributes,
					sizeof(struct fattr3));
		}
		fuzz_sink += nfs3_stat_name(u.getattr.status) != NULL;
		break;
	case NFS3PROC_SETATTR:
		if (nfs3_dec_setattr_res(d, &u.setattr) == 0)
			reencode_wcc(&u.setattr.obj_wcc);
		break;
	case NFS3PROC_LOOKUP:
		if (nfs3_dec_lookup_res(d, &u.lookup) == 0) {
			if (u.lookup.status == NFS3_OK) {
				reencode_fh(&u.lookup.object);
				reencode_post_op_attr(
					&u.lookup.obj_attributes);
			}
			reencode_post_op_attr(&u.lookup.dir_attributes);
		}
		break;
	case NFS3PROC_ACCESS:
		if (nfs3_dec_access_res(d, &u.access) == 0)
			reencode_post_op_attr(&u.access.obj_attributes);
		break;
	case NFS3PROC_READLINK:
		if (nfs3_dec_readlink_res(d, &u.readlink) == 0) {
			reencode_post_op_attr(
				&u.readlink.symlink_attributes);
			if (u.readlink.status == NFS3_OK) {
				FUZZ_CHECK(u.readlink.len <= NFS3_MAXPATHLEN);
				fuzz_touch(u.readlink.data, u.readlink.len);
			}
		}
		break;
	case NFS3PROC_READ:
		if (nfs3_dec_read_res(d, &u.read) == 0) {
			reencode_post_op_attr(&u.read.file_attributes);
			if (u.read.status == NFS3_OK) {
				FUZZ_CHECK(u.read.data_len <= NFS3_MAXDATA);
				fuzz_touch(u.read.data, u.read.data_len);
			}
		}
		break;
	case NFS3PROC_WRITE:
		if (nfs3_dec_write_res(d, &u.write) == 0)
			reencode_wcc(&u.write.file_wcc);
		break;
	case NFS3PROC_CREATE:
	case NFS3PROC_MKDIR:
	case NFS3PROC_SYMLINK:
	case NFS3PROC_MKNOD:
		if (nfs3_dec_diropres(d, &u.dirop) == 0)
			check_diropres(&u.dirop);
		break;
	case NFS3PROC_REMOVE:
	case NFS3PROC_RMDIR:
		if (nfs3_dec_wccstat_res(d, &u.wccstat) == 0)
			reencode_wcc(&u.wccstat.dir_wcc);
		break;
	case NFS3PROC_RENAME:
		if (nfs3_dec_rename_res(d, &u.rename) == 0) {
			reencode_wcc(&u.rename.fromdir_wcc);
			reencode_wcc(&u.rename.todir_wcc);
		}
		break;
	case NFS3PROC_LINK:
		if (nfs3_dec_link_res(d, &u.link) == 0) {
			reencode_post_op_attr(&u.link.file_attributes);
			reencode_wcc(&u.link.linkdir_wcc);
		}
		break;
	case NFS3PROC_READDIR:
		if (nfs3_dec_readdir_res(d, &u.readdir) == 0)
			check_readdir(&u.readdir);
		break;
	case NFS3PROC_READDIRPLUS:
		if (nfs3_dec_readdirplus_res(d, &u.readdirplus) == 0)
			check_readdirplus(&u.readdirplus);
		break;
	case NFS3PROC_FSSTAT:
		if (nfs3_dec_fsstat_res(d, &u.fsstat) == 0)
			reencode_post_op_attr(&u.fsstat.obj_attributes);
		break;
	case NFS3PROC_FSINFO:
		if (nfs3_dec_fsinfo_res(d, &u.fsinfo) == 0)
			reencode_post_op_attr(&u.fsinfo.obj_attributes);
		break;
	case NFS3PROC_PATHCONF:
		if (nfs3_dec_pathconf_res(d, &u.pathconf) == 0)
			reencode_post_op_attr(&u.pathconf.obj_attributes);
		break;
	case NFS3PROC_COMMIT:
		if (nfs3_dec_commit_res(d, &u.commit) == 0)
			reencode_wcc(&u.commit.file_wcc);
		break;
	case 22:
		if (nfs3_dec_fattr3(d, &u.fattr) == 0)
			fuzz_round_trip(fattr3_enc, fattr3_dec, &u.fattr,
					sizeof(u.fattr));
		break;
	case 23:
		if (nfs3_dec_post_op_attr(d, &u.poa) == 0)
			reencode_post_op_attr(&u.poa);
		break;
	case 24:
		if (nfs3_dec_wcc_data(d, &u.wcc) == 0)
			reencode_wcc(&u.wcc);
		break;
	case 25:
		if (nfs3_dec_post_op_fh3(d, &u.pofh) == 0 && u.pofh.present)
			reencode_fh(&u.pofh.fh);
		break;
	default:
		abort();
	}
	/* The cursor never moves past the end. */
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
