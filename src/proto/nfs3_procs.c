/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NFSv3 is the native shape of the neutral client: every procedure maps to
 * itself. */
#include "nfs.h"

#define P3(num, e, d) [num] = { .wire_proc = num, .enc = e, .dec = d }

static const struct nfs_proc nfs3_procs[NFS3PROC_COUNT] = {
	P3(NFS3PROC_NULL, NULL, NULL),
	P3(NFS3PROC_GETATTR, nfs3_enc_getattr_args, nfs3_dec_getattr_res),
	P3(NFS3PROC_SETATTR, nfs3_enc_setattr_args, nfs3_dec_setattr_res),
	P3(NFS3PROC_LOOKUP, nfs3_enc_lookup_args, nfs3_dec_lookup_res),
	P3(NFS3PROC_ACCESS, nfs3_enc_access_args, nfs3_dec_access_res),
	P3(NFS3PROC_READLINK, nfs3_enc_readlink_args, nfs3_dec_readlink_res),
	P3(NFS3PROC_READ, nfs3_enc_read_args, nfs3_dec_read_res),
	P3(NFS3PROC_WRITE, nfs3_enc_write_args, nfs3_dec_write_res),
	P3(NFS3PROC_CREATE, nfs3_enc_create_args, nfs3_dec_diropres),
	P3(NFS3PROC_MKDIR, nfs3_enc_mkdir_args, nfs3_dec_diropres),
	P3(NFS3PROC_SYMLINK, nfs3_enc_symlink_args, nfs3_dec_diropres),
	P3(NFS3PROC_MKNOD, nfs3_enc_mknod_args, nfs3_dec_diropres),
	P3(NFS3PROC_REMOVE, nfs3_enc_remove_args, nfs3_dec_wccstat_res),
	P3(NFS3PROC_RMDIR, nfs3_enc_remove_args, nfs3_dec_wccstat_res),
	P3(NFS3PROC_RENAME, nfs3_enc_rename_args, nfs3_dec_rename_res),
	P3(NFS3PROC_LINK, nfs3_enc_link_args, nfs3_dec_link_res),
	P3(NFS3PROC_READDIR, nfs3_enc_readdir_args, nfs3_dec_readdir_res),
	P3(NFS3PROC_READDIRPLUS, nfs3_enc_readdirplus_args,
	   nfs3_dec_readdirplus_res),
	P3(NFS3PROC_FSSTAT, nfs3_enc_fsstat_args, nfs3_dec_fsstat_res),
	P3(NFS3PROC_FSINFO, nfs3_enc_fsinfo_args, nfs3_dec_fsinfo_res),
	P3(NFS3PROC_PATHCONF, nfs3_enc_pathconf_args, nfs3_dec_pathconf_res),
	P3(NFS3PROC_COMMIT, nfs3_enc_commit_args, nfs3_dec_commit_res),
};

const struct nfs_version nfs_version3 = {
	.vers = NFS3_VERSION,
	.procs = nfs3_procs,
	.names = nfs3_proc_names,
	.nnames = NFS3PROC_COUNT,
};
