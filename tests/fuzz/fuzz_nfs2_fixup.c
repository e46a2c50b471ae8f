/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSv2 -> NFSv3 result conversion
 * (src/proto/nfs2_procs.c, reached through the nfs_version2 table as
 * nfs_call() and nfs_call_async() reach it).
 *
 * Input:
 *   byte 0      the NFSv3 procedure (% NFS3PROC_COUNT) whose v2 entry runs;
 *   bytes 1..12 its arguments: offset (u64) and count (u32), big-endian,
 *               used by READ, WRITE, READDIR and READDIRPLUS (also as the
 *               cookie and the reply size); the entry's own encoder must
 *               accept them, as no call is sent otherwise;
 *   the rest    the NFSv2 reply body, in a heap buffer of exactly its size
 *               owned by a struct rpc_reply, as the transport hands it over.
 *
 * The entry's decoder runs, then its fixup (if any) on the same reply, and
 * the reply is released as nfs_call() does.  Checked: every pointer in the
 * result points into the reply buffer the fixup left (READDIR replaces it
 * with its own), lengths stay inside it, the fixups' promises hold (WRITE
 * echoes the count, FILE_SYNC; READ's eof; FSINFO's limits), and the
 * rewritten READDIR entries are the v2 entries, one for one.  Leaks and
 * double frees of the old or new buffer are ASan's.
 */
#include <errno.h>

#include "fuzz.h"
#include "nfs.h"
#include "nfs2.h"

FUZZ_DEFINE_SINK;

#define ARGS_LEN 12

static const uint8_t data[NFS2_MAXDATA];

static bool inside(const struct rpc_reply *r, const void *p, size_t n)
{
	const uint8_t *b = p;

	return n == 0 || (r->buf && b >= r->buf && b <= r->buf + r->len &&
			  n <= (size_t)(r->buf + r->len - b));
}

static void check_dec_in(const struct rpc_reply *r, const struct xdr_dec *d)
{
	FUZZ_CHECK(d->p <= d->end);
	FUZZ_CHECK(inside(r, d->p, (size_t)(d->end - d->p)));
}

/* v3 entries after the fixup against the v2 entries of the original
 * reply (orig: a copy of it, decoded again). */
static void check_readdir(const struct rpc_reply *r, struct xdr_dec *ent,
			  uint32_t nentries, bool eof, bool plus,
			  const uint8_t *orig, size_t orig_len)
{
	struct nfs2_readdir_res r2;
	struct nfs2_entry e2;
	struct xdr_dec d2, it = *ent;
	uint32_t n = 0;
	int ret;

	check_dec_in(r, ent);
	xdr_dec_init(&d2, orig, orig_len);
	FUZZ_CHECK(nfs2_dec_readdir_res(&d2, &r2) == 0);
	FUZZ_CHECK(r2.status == NFS2_OK && r2.nentries == nentries &&
		   r2.eof == eof);
	for (;;) {
		uint64_t fileid, cookie;
		const char *name;
		uint32_t namelen;

		if (plus) {
			struct nfs3_entryplus e;

			ret = nfs3_readdirplus_next(&it, &e);
			FUZZ_CHECK(ret == 0 || ret == 1);
			if (ret == 1)
				FUZZ_CHECK(!e.name_attributes.present &&
					   !e.name_handle.present);
			fileid = e.fileid;
			cookie = e.cookie;
			name = e.name;
			namelen = e.namelen;
		} else {
			struct nfs3_entry e;

			ret = nfs3_readdir_next(&it, &e);
			FUZZ_CHECK(ret == 0 || ret == 1);
			fileid = e.fileid;
			cookie = e.cookie;
			name = e.name;
			namelen = e.namelen;
		}
		if (ret == 0)
			break;
		FUZZ_CHECK(nfs2_readdir_next(&r2.entries, &e2) == 1);
		FUZZ_CHECK(inside(r, name, namelen));
		fuzz_touch(name, namelen);
		FUZZ_CHECK(fileid == e2.fileid && cookie == e2.cookie &&
			   namelen == e2.namelen &&
			   memcmp(name, e2.name, namelen) == 0);
		n++;
	}
	FUZZ_CHECK(nfs2_readdir_next(&r2.entries, &e2) == 0);
	FUZZ_CHECK(n == nentries);
	FUZZ_CHECK(it.p == it.end); /* nothing after the list */
}

static void check_attr(const struct post_op_attr *a)
{
	if (a->present)
		FUZZ_CHECK((a->attr.mode & ~07777u) == 0);
}

static void run(unsigned proc, uint64_t offset, uint32_t count,
		uint8_t *msg, size_t len)
{
	const struct nfs_proc *p = &nfs_version2.procs[proc];
	struct nfs_fh3 fh = { .len = NFS2_FHSIZE };
	union {
		struct nfs3_read_args read;
		struct nfs3_write_args write;
		struct nfs3_readdir_args readdir;
		struct nfs3_readdirplus_args readdirplus;
		struct nfs3_getattr_args getattr;
	} args;
	union {
		struct nfs3_getattr_res getattr;
		struct nfs3_setattr_res setattr;
		struct nfs3_lookup_res lookup;
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
	} res;
	struct rpc_reply reply = { msg, len };
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *orig;
	int ret;

	if (!p->dec) {
		/* No v2 counterpart: nfs_call() answers -ENOTSUP unsent. */
		FUZZ_CHECK(proc == NFS3PROC_NULL || proc == NFS3PROC_ACCESS ||
			   proc == NFS3PROC_PATHCONF ||
			   proc == NFS3PROC_COMMIT);
		FUZZ_CHECK(!p->fixup);
		rpc_reply_release(&reply);
		return;
	}
	memset(&args, 0, sizeof(args));
	memset(fh.data, 0xa5, NFS2_FHSIZE);
	switch (proc) {
	case NFS3PROC_READ:
		args.read = (struct nfs3_read_args){ .file = fh,
						     .offset = offset,
						     .count = count };
		break;
	case NFS3PROC_WRITE:
		args.write = (struct nfs3_write_args){ fh, offset, count,
						       FILE_SYNC, data };
		break;
	case NFS3PROC_READDIR:
		args.readdir.dir = fh;
		args.readdir.cookie = offset;
		args.readdir.count = count;
		break;
	case NFS3PROC_READDIRPLUS:
		args.readdirplus.dir = fh;
		args.readdirplus.cookie = offset;
		args.readdirplus.dircount = count;
		args.readdirplus.maxcount = count;
		break;
	default:
		/* The others' fixups (none) read no arguments; these are
		 * never encoded, only GETATTR's is, to check the handle. */
		args.getattr.object = fh;
		break;
	}
	if (p->fixup) {
		FUZZ_CHECK(p->args_size <= sizeof(args));
		if (xdr_enc_init(&e, 64, 0))
			abort();
		ret = p->enc(&e, &args);
		xdr_enc_release(&e);
		if (ret) {
			/* Refused before sending: no reply to convert. */
			FUZZ_CHECK(ret < 0);
			rpc_reply_release(&reply);
			return;
		}
	}

	orig = fuzz_copy(msg, len, &len);
	memset(&res, 0x5a, sizeof(res));
	xdr_dec_init(&d, reply.buf, reply.len);
	ret = p->dec(&d, &res);
	FUZZ_CHECK(d.p <= d.end);
	if (ret) {
		/* -EIO for the caller; the reply is released. */
		rpc_reply_release(&reply);
		free(orig);
		return;
	}
	if (p->fixup) {
		ret = p->fixup(&args, &res, &reply);
		if (ret) {
			FUZZ_CHECK(ret == -ENOMEM || ret == -EIO);
			rpc_reply_release(&reply);
			free(orig);
			return;
		}
	}
	FUZZ_CHECK(res.getattr.status == NFS3_OK ||
		   nfs3_stat_name(res.getattr.status) != NULL);
	switch (proc) {
	case NFS3PROC_GETATTR:
		if (res.getattr.status == NFS3_OK)
			FUZZ_CHECK((res.getattr.obj_attributes.mode &
				    ~07777u) == 0);
		break;
	case NFS3PROC_SETATTR:
		FUZZ_CHECK(!res.setattr.obj_wcc.before.present);
		check_attr(&res.setattr.obj_wcc.after);
		break;
	case NFS3PROC_LOOKUP:
		if (res.lookup.status == NFS3_OK) {
			FUZZ_CHECK(res.lookup.object.len == NFS2_FHSIZE);
			check_attr(&res.lookup.obj_attributes);
		}
		break;
	case NFS3PROC_READLINK:
		FUZZ_CHECK(res.readlink.len <= NFS2_MAXPATHLEN);
		FUZZ_CHECK(inside(&reply, res.readlink.data,
				  res.readlink.len));
		fuzz_touch(res.readlink.data, res.readlink.len);
		break;
	case NFS3PROC_READ:
		if (res.read.status != NFS3_OK)
			break;
		FUZZ_CHECK(res.read.count == res.read.data_len &&
			   res.read.data_len <= NFS2_MAXDATA);
		FUZZ_CHECK(inside(&reply, res.read.data, res.read.data_len));
		fuzz_touch(res.read.data, res.read.data_len);
		FUZZ_CHECK(res.read.eof ==
			   (res.read.count == 0 ||
			    offset + res.read.count >=
				    res.read.file_attributes.attr.size));
		break;
	case NFS3PROC_WRITE:
		FUZZ_CHECK(!res.write.file_wcc.before.present);
		if (res.write.status == NFS3_OK)
			FUZZ_CHECK(res.write.count == count &&
				   res.write.committed == FILE_SYNC);
		break;
	case NFS3PROC_CREATE:
	case NFS3PROC_MKDIR:
	case NFS3PROC_MKNOD:
		if (res.dirop.status == NFS3_OK)
			FUZZ_CHECK(res.dirop.obj.present &&
				   res.dirop.obj.fh.len == NFS2_FHSIZE);
		else
			FUZZ_CHECK(!res.dirop.obj.present);
		FUZZ_CHECK(!res.dirop.dir_wcc.before.present &&
			   !res.dirop.dir_wcc.after.present);
		break;
	case NFS3PROC_SYMLINK:
		FUZZ_CHECK(!res.dirop.obj.present &&
			   !res.dirop.obj_attributes.present);
		break;
	case NFS3PROC_READDIR:
		if (res.readdir.status == NFS3_OK) {
			FUZZ_CHECK(reply.buf != msg); /* replaced */
			check_readdir(&reply, &res.readdir.entries,
				      res.readdir.nentries, res.readdir.eof,
				      false, orig, len);
		}
		break;
	case NFS3PROC_READDIRPLUS:
		if (res.readdirplus.status == NFS3_OK) {
			FUZZ_CHECK(reply.buf != msg);
			check_readdir(&reply, &res.readdirplus.entries,
				      res.readdirplus.nentries,
				      res.readdirplus.eof, true, orig, len);
		}
		break;
	case NFS3PROC_FSSTAT:
		if (res.fsstat.status == NFS3_OK)
			FUZZ_CHECK(res.fsstat.tfiles == 0 &&
				   !res.fsstat.obj_attributes.present);
		break;
	case NFS3PROC_FSINFO:
		if (res.fsinfo.status != NFS3_OK)
			break;
		FUZZ_CHECK(res.fsinfo.rtmax > 0 &&
			   res.fsinfo.rtmax <= NFS2_MAXDATA);
		FUZZ_CHECK(res.fsinfo.wtmax == res.fsinfo.rtmax &&
			   res.fsinfo.dtpref == res.fsinfo.rtmax);
		FUZZ_CHECK(res.fsinfo.maxfilesize == NFS2_MAXFILESIZE);
		break;
	default:
		break;
	}
	rpc_reply_release(&reply);
	free(orig);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	uint8_t *msg;
	size_t len;

	if (size < 1 + ARGS_LEN)
		return 0;
	msg = fuzz_copy(in + 1 + ARGS_LEN, size - 1 - ARGS_LEN, &len);
	run(in[0] % NFS3PROC_COUNT, xdr_get_u64(in + 1),
	    xdr_get_u32(in + 9), msg, len);
	return 0;
}
