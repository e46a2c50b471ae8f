/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prints, as a text2pcap hex dump, one ONC RPC call of each of the 18
 * NFSv2 procedures with its arguments encoded by xdr/nfs2.c, followed by
 * a few replies (bodies built from the nfs2 type encoders), each as one
 * TCP record with its record mark.  tshark_nfs2.sh turns the dump into a
 * pcap and checks that Wireshark, which knows nothing of our codecs,
 * decodes every frame as NFSv2 with the right procedure and nothing
 * malformed.
 *
 * The RPC header (RFC 5531) is encoded here by hand, on purpose not with
 * xdr/rpc_msg.c, so that this check depends on the NFSv2 codec alone:
 *
 *	call:  xid, CALL(0), rpcvers 2, prog 100003, vers 2, proc,
 *	       cred AUTH_NONE (0, length 0), verf AUTH_NONE (0, length 0)
 *	reply: xid, REPLY(1), MSG_ACCEPTED(0), verf AUTH_NONE (0, 0),
 *	       SUCCESS(0)
 *
 * Each packet is preceded by its direction as a capture on the server
 * would see it, for text2pcap -D: "I" (inbound) for a call, "O" for a
 * reply.  Output: the dump on stdout.  Exit 0, or 1 if an encoder failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs2.h"

#define XID_BASE 0x4e465332u /* "NFS2" */

static int failed;

static struct nfs2_fh fh_make(uint8_t first)
{
	struct nfs2_fh fh;
	unsigned int i;

	for (i = 0; i < NFS2_FHSIZE; i++)
		fh.data[i] = (uint8_t)(first + i);
	return fh;
}

static void print_packet(const char *dir, const uint8_t *p, size_t len)
{
	size_t i;

	printf("%s\n", dir);
	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			printf("%06zx", i);
		printf(" %02x", p[i]);
		if (i % 16 == 15 || i + 1 == len)
			printf("\n");
	}
	printf("\n");
}

/* Writes the record mark (last fragment, length) and prints. */
static void finish(struct xdr_enc *e, const char *dir, const char *what)
{
	if (xdr_enc_error(e)) {
		fprintf(stderr, "dump_nfs2_calls: encoding %s failed: %d\n",
			what, xdr_enc_error(e));
		failed = 1;
	} else {
		xdr_put_u32(e->buf, 0x80000000u | (uint32_t)(e->len - 4));
		print_packet(dir, e->buf, e->len);
	}
	xdr_enc_release(e);
}

static void call_header(struct xdr_enc *e, uint32_t xid, uint32_t proc)
{
	xdr_enc_init(e, 256, 4); /* 4 bytes of headroom: the record mark */
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, 0);	/* CALL */
	xdr_enc_u32(e, 2);	/* RPC version */
	xdr_enc_u32(e, NFS2_PROGRAM);
	xdr_enc_u32(e, NFS2_VERSION);
	xdr_enc_u32(e, proc);
	xdr_enc_u32(e, 0);	/* cred: AUTH_NONE */
	xdr_enc_u32(e, 0);	/*       length 0 */
	xdr_enc_u32(e, 0);	/* verf: AUTH_NONE */
	xdr_enc_u32(e, 0);	/*       length 0 */
}

static void reply_header(struct xdr_enc *e, uint32_t xid)
{
	xdr_enc_init(e, 256, 4);
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, 1);	/* REPLY */
	xdr_enc_u32(e, 0);	/* MSG_ACCEPTED */
	xdr_enc_u32(e, 0);	/* verf: AUTH_NONE */
	xdr_enc_u32(e, 0);	/*       length 0 */
	xdr_enc_u32(e, 0);	/* SUCCESS */
}

static const struct nfs2_fattr sample_attr = {
	.type = NF2REG, .mode = 0100644, .nlink = 1, .uid = 1000, .gid = 100,
	.size = 13, .blocksize = 4096, .rdev = 0xffffffff, .blocks = 8,
	.fsid = 0x801, .fileid = 0x1234,
	.atime = { 1700000000, 250000 },
	.mtime = { 1700000001, 0 },
	.ctime = { 1700000002, 999999 },
};

int main(void)
{
	static const uint8_t data[13] = "Hello, NFSv2\n";
	struct nfs2_fh root = fh_make(0x10), file = fh_make(0x80);
	struct nfs2_sattr sa, sa_mode;
	struct nfs2_getattr_args getattr = { root };
	struct nfs2_setattr_args setattr = { .file = file };
	struct nfs2_lookup_args lookup = { { &root, "hello.txt" } };
	struct nfs2_readlink_args readlink = { file };
	struct nfs2_read_args read = {
		.file = file, .offset = 0, .count = 8192, .totalcount = 0,
	};
	struct nfs2_write_args write = {
		.file = file, .offset = 4096, .data = data,
		.count = sizeof(data),
	};
	struct nfs2_create_args create = { .where = { &root, "new.txt" } };
	struct nfs2_remove_args remove_ = { { &root, "old.txt" } };
	struct nfs2_rename_args rename_ = {
		{ &root, "a" }, { &root, "b.renamed" },
	};
	struct nfs2_link_args link_ = { file, { &root, "hardlink" } };
	struct nfs2_symlink_args symlink_ = {
		.from = { &root, "sym" }, .to = "../some/target",
	};
	struct nfs2_mkdir_args mkdir_ = { .where = { &root, "subdir" } };
	struct nfs2_rmdir_args rmdir_ = { { &root, "olddir" } };
	struct nfs2_readdir_args readdir = {
		.dir = root, .cookie = 0, .count = 4096,
	};
	struct nfs2_statfs_args statfs = { root };
	const struct {
		int (*enc)(struct xdr_enc *e, const void *args);
		const void *args;
	} calls[NFS2PROC_COUNT] = {
		[NFS2PROC_NULL] = { nfs2_enc_void_args, NULL },
		[NFS2PROC_GETATTR] = { nfs2_enc_getattr_args, &getattr },
		[NFS2PROC_SETATTR] = { nfs2_enc_setattr_args, &setattr },
		[NFS2PROC_ROOT] = { nfs2_enc_void_args, NULL },
		[NFS2PROC_LOOKUP] = { nfs2_enc_lookup_args, &lookup },
		[NFS2PROC_READLINK] = { nfs2_enc_readlink_args, &readlink },
		[NFS2PROC_READ] = { nfs2_enc_read_args, &read },
		[NFS2PROC_WRITECACHE] = { nfs2_enc_void_args, NULL },
		[NFS2PROC_WRITE] = { nfs2_enc_write_args, &write },
		[NFS2PROC_CREATE] = { nfs2_enc_create_args, &create },
		[NFS2PROC_REMOVE] = { nfs2_enc_remove_args, &remove_ },
		[NFS2PROC_RENAME] = { nfs2_enc_rename_args, &rename_ },
		[NFS2PROC_LINK] = { nfs2_enc_link_args, &link_ },
		[NFS2PROC_SYMLINK] = { nfs2_enc_symlink_args, &symlink_ },
		[NFS2PROC_MKDIR] = { nfs2_enc_mkdir_args, &mkdir_ },
		[NFS2PROC_RMDIR] = { nfs2_enc_rmdir_args, &rmdir_ },
		[NFS2PROC_READDIR] = { nfs2_enc_readdir_args, &readdir },
		[NFS2PROC_STATFS] = { nfs2_enc_statfs_args, &statfs },
	};
	struct xdr_enc e;
	uint32_t i;

	nfs2_sattr_none(&sa);
	sa.mode = 0100644;
	sa.uid = 1000;
	sa.gid = 100;
	create.attributes = sa;
	symlink_.attributes = sa;
	nfs2_sattr_none(&sa_mode);
	sa_mode.mode = 040755;
	mkdir_.attributes = sa_mode;
	nfs2_sattr_none(&setattr.attributes);
	setattr.attributes.size = 0;
	setattr.attributes.mtime.seconds = 1700000000;
	setattr.attributes.mtime.useconds = NFS2_USEC_SERVER_TIME;

	for (i = 0; i < NFS2PROC_COUNT; i++) {
		call_header(&e, XID_BASE + i, i);
		calls[i].enc(&e, calls[i].args);
		finish(&e, "I", nfs2_proc_names[i]);
	}

	/* Replies, matched to the calls above by xid. */
	reply_header(&e, XID_BASE + NFS2PROC_GETATTR);	/* attrstat OK */
	xdr_enc_u32(&e, NFS2_OK);
	nfs2_enc_fattr(&e, &sample_attr);
	finish(&e, "O", "GETATTR reply");

	reply_header(&e, XID_BASE + NFS2PROC_LOOKUP);	/* diropres OK */
	xdr_enc_u32(&e, NFS2_OK);
	nfs2_enc_fh(&e, &file);
	nfs2_enc_fattr(&e, &sample_attr);
	finish(&e, "O", "LOOKUP reply");

	reply_header(&e, XID_BASE + NFS2PROC_READLINK);	/* readlinkres */
	xdr_enc_u32(&e, NFS2_OK);
	xdr_enc_string(&e, NFS2_MAXPATHLEN, "../some/target");
	finish(&e, "O", "READLINK reply");

	reply_header(&e, XID_BASE + NFS2PROC_READ);	/* readres OK */
	xdr_enc_u32(&e, NFS2_OK);
	nfs2_enc_fattr(&e, &sample_attr);
	xdr_enc_opaque(&e, NFS2_MAXDATA, data, sizeof(data));
	finish(&e, "O", "READ reply");

	reply_header(&e, XID_BASE + NFS2PROC_REMOVE);	/* bare status */
	xdr_enc_u32(&e, NFS2ERR_NOENT);
	finish(&e, "O", "REMOVE reply");

	reply_header(&e, XID_BASE + NFS2PROC_READDIR);	/* readdirres */
	xdr_enc_u32(&e, NFS2_OK);
	{
		static const char *const names[] = { ".", "..", "hello.txt" };

		for (i = 0; i < 3; i++) {
			xdr_enc_bool(&e, true);		/* value follows */
			xdr_enc_u32(&e, 2 + i);		/* fileid */
			xdr_enc_string(&e, NFS2_MAXNAMLEN, names[i]);
			xdr_enc_u32(&e, i + 1);		/* cookie */
		}
	}
	xdr_enc_bool(&e, false);
	xdr_enc_bool(&e, true);				/* eof */
	finish(&e, "O", "READDIR reply");

	reply_header(&e, XID_BASE + NFS2PROC_STATFS);	/* statfsres OK */
	xdr_enc_u32(&e, NFS2_OK);
	xdr_enc_u32(&e, 8192);
	xdr_enc_u32(&e, 4096);
	xdr_enc_u32(&e, 1000000);
	xdr_enc_u32(&e, 500000);
	xdr_enc_u32(&e, 400000);
	finish(&e, "O", "STATFS reply");

	reply_header(&e, XID_BASE + NFS2PROC_SETATTR);	/* attrstat fail */
	xdr_enc_u32(&e, NFS2ERR_STALE);
	finish(&e, "O", "SETATTR reply");

	return failed;
}
