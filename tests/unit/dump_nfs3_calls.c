/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prints one ONC RPC CALL per NFSv3 procedure (and per union arm of
 * SETATTR, CREATE and MKNOD), each with a record mark, as a text2pcap hex
 * dump.  The arguments come from our encoders; tshark-nfs3-calls.sh has
 * Wireshark dissect them to show that real decoders read what we write.
 *
 * Before each packet a comment line "# NAME" gives the procedure name as
 * nfs3_proc_names spells it (text2pcap ignores lines starting with '#').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs3.h"

static const struct nfs_fh3 fh = {
	.len = 12, .data = { 1, 0, 7, 0, 2, 0, 0, 0, 0, 0, 0, 0x2a },
};
static const struct nfs_fh3 fh2 = { .len = 5, .data = { 9, 8, 7, 6, 5 } };

static unsigned int xid = 0x10000;

static void dump(enum nfs3_proc proc,
		 int (*enc)(struct xdr_enc *e, const void *args), const void *args)
{
	struct xdr_enc e;
	size_t i;

	if (xdr_enc_init(&e, 256, 4)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	xdr_enc_u32(&e, xid++);
	xdr_enc_u32(&e, 0);		/* CALL */
	xdr_enc_u32(&e, 2);		/* RPC version */
	xdr_enc_u32(&e, NFS3_PROGRAM);
	xdr_enc_u32(&e, NFS3_VERSION);
	xdr_enc_u32(&e, proc);
	xdr_enc_u32(&e, 0);		/* credential AUTH_NONE, empty */
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 0);		/* verifier AUTH_NONE, empty */
	xdr_enc_u32(&e, 0);
	if (enc)
		enc(&e, args);
	if (xdr_enc_error(&e)) {
		fprintf(stderr, "%s: encoding failed: %d\n",
			nfs3_proc_names[proc], xdr_enc_error(&e));
		exit(1);
	}
	/* Record mark: last fragment, length of what follows. */
	xdr_put_u32(e.buf, 0x80000000u | (uint32_t)(e.len - 4));
	printf("# %s\n", nfs3_proc_names[proc]);
	for (i = 0; i < e.len; i++) {
		if (i % 16 == 0)
			printf("%06zx", i);
		printf(" %02x", e.buf[i]);
		if (i % 16 == 15 || i + 1 == e.len)
			putchar('\n');
	}
	xdr_enc_release(&e);
}

int main(void)
{
	struct nfs3_getattr_args ga = { .object = fh };
	struct nfs3_setattr_args sa = {
		.object = fh,
		.new_attributes = {
			.set_mode = true, .mode = 0600, .set_uid = true,
			.uid = 1000, .set_gid = true, .gid = 100,
			.set_size = true, .size = 12345,
			.set_atime = SET_TO_CLIENT_TIME, .atime = { 1, 2 },
			.set_mtime = SET_TO_SERVER_TIME,
		},
		.guard_check = true, .guard_ctime = { 3, 4 },
	};
	struct nfs3_lookup_args la = { .what = { &fh, "lookup-name" } };
	struct nfs3_access_args aa = { .object = fh, .access = 0x3f };
	struct nfs3_readlink_args rla = { .symlink = fh };
	struct nfs3_read_args ra = { .file = fh, .offset = 8192, .count = 4096 };
	struct nfs3_write_args wa = {
		.file = fh, .offset = 4096, .count = 5, .stable = FILE_SYNC,
		.data = "hello",
	};
	struct nfs3_create_args ca = {
		.where = { &fh, "created" },
		.obj_attributes = { .set_mode = true, .mode = 0644 },
		.verf = { 1, 2, 3, 4, 5, 6, 7, 8 },
	};
	struct nfs3_mkdir_args ma = {
		.where = { &fh, "dir" },
		.attributes = { .set_mode = true, .mode = 0755 },
	};
	struct nfs3_symlink_args sla = {
		.where = { &fh, "link" }, .symlink_data = "../target/file",
	};
	struct nfs3_mknod_args mna = {
		.where = { &fh, "node" },
		.attributes = { .set_mode = true, .mode = 0600 },
		.spec = { 8, 1 },
	};
	static const uint32_t types[] = {
		NF3CHR, NF3BLK, NF3SOCK, NF3FIFO, NF3REG, NF3DIR, NF3LNK,
	};
	struct nfs3_remove_args rma = { .object = { &fh, "removed" } };
	struct nfs3_rename_args rna = {
		.from = { &fh, "old" }, .to = { &fh2, "new-name" },
	};
	struct nfs3_link_args lka = { .file = fh2, .link = { &fh, "hardlink" } };
	struct nfs3_readdir_args rda = {
		.dir = fh, .cookie = 7, .cookieverf = { 1 }, .count = 4096,
	};
	struct nfs3_readdirplus_args rpa = {
		.dir = fh, .cookie = 9, .cookieverf = { 2 },
		.dircount = 4096, .maxcount = 32768,
	};
	struct nfs3_fsstat_args fsa = { .fsroot = fh };
	struct nfs3_fsinfo_args fia = { .fsroot = fh };
	struct nfs3_pathconf_args pca = { .object = fh };
	struct nfs3_commit_args cma = { .file = fh, .offset = 0, .count = 0 };
	unsigned int i;

	dump(NFS3PROC_NULL, NULL, NULL);
	dump(NFS3PROC_GETATTR, nfs3_enc_getattr_args, &ga);
	dump(NFS3PROC_SETATTR, nfs3_enc_setattr_args, &sa);
	sa.new_attributes = (struct sattr3){ .set_mtime = SET_TO_CLIENT_TIME };
	sa.guard_check = false;
	dump(NFS3PROC_SETATTR, nfs3_enc_setattr_args, &sa);
	dump(NFS3PROC_LOOKUP, nfs3_enc_lookup_args, &la);
	dump(NFS3PROC_ACCESS, nfs3_enc_access_args, &aa);
	dump(NFS3PROC_READLINK, nfs3_enc_readlink_args, &rla);
	dump(NFS3PROC_READ, nfs3_enc_read_args, &ra);
	dump(NFS3PROC_WRITE, nfs3_enc_write_args, &wa);
	for (ca.mode = UNCHECKED; ca.mode <= EXCLUSIVE; ca.mode++)
		dump(NFS3PROC_CREATE, nfs3_enc_create_args, &ca);
	dump(NFS3PROC_MKDIR, nfs3_enc_mkdir_args, &ma);
	dump(NFS3PROC_SYMLINK, nfs3_enc_symlink_args, &sla);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		mna.type = types[i];
		dump(NFS3PROC_MKNOD, nfs3_enc_mknod_args, &mna);
	}
	dump(NFS3PROC_REMOVE, nfs3_enc_remove_args, &rma);
	dump(NFS3PROC_RMDIR, nfs3_enc_remove_args, &rma);
	dump(NFS3PROC_RENAME, nfs3_enc_rename_args, &rna);
	dump(NFS3PROC_LINK, nfs3_enc_link_args, &lka);
	dump(NFS3PROC_READDIR, nfs3_enc_readdir_args, &rda);
	dump(NFS3PROC_READDIRPLUS, nfs3_enc_readdirplus_args, &rpa);
	dump(NFS3PROC_FSSTAT, nfs3_enc_fsstat_args, &fsa);
	dump(NFS3PROC_FSINFO, nfs3_enc_fsinfo_args, &fia);
	dump(NFS3PROC_PATHCONF, nfs3_enc_pathconf_args, &pca);
	dump(NFS3PROC_COMMIT, nfs3_enc_commit_args, &cma);
	return 0;
}
