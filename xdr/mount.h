/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MOUNT protocol, program 100005: version 3 (RFC 1813 Appendix I) and
 * version 1 (RFC 1094 Appendix A).  Both versions number their procedures
 * the same and differ only in the MNT result.
 *
 * Ownership: file handles and auth flavors are copied into the results.
 * The EXPORT and DUMP lists and every name in them point into the buffer
 * being decoded and are valid only as long as that buffer; the names are
 * NOT NUL-terminated: use the (name, len) pairs.
 *
 * Decoders return 0 or -EBADMSG (malformed); the mount status is data in
 * the result.  Encoders return 0 or the encoder's sticky error (-ENOMEM,
 * or -EINVAL for a path over MNT_PATHLEN).
 */
#ifndef NFSFUSE_XDR_MOUNT_H
#define NFSFUSE_XDR_MOUNT_H

#include "xdr.h"
#include "nfs3.h" /* struct nfs_fh3 (the type only) */

#define MNT_PROGRAM 100005u
#define MNT_V1 1u
#define MNT_V3 3u

#define MNT_PATHLEN 1024u /* MNTPATHLEN: dirpath<MNTPATHLEN> */
#define MNT_NAMELEN 255u  /* MNTNAMLEN: name<MNTNAMLEN> */
#define MNT_FHSIZE3 64u   /* FHSIZE3: fhandle3<FHSIZE3> */
#define MNT_FHSIZE1 32u   /* FHSIZE (v1): opaque fhandle[FHSIZE] */
/* int auth_flavors<> is unbounded; we keep this many and skip the rest
 * (after checking that they are there). */
#define MNT_MAXFLAVORS 16u

enum mnt_proc {
	MNTPROC_NULL = 0,
	MNTPROC_MNT = 1,
	MNTPROC_DUMP = 2,
	MNTPROC_UMNT = 3,
	MNTPROC_UMNTALL = 4,
	MNTPROC_EXPORT = 5,
	MNTPROC_COUNT = 6
};

/* Procedure names as the RFCs spell them, indexed by enum mnt_proc. */
extern const char *const mnt_proc_names[MNTPROC_COUNT];

/*
 * enum mountstat3 (RFC 1813).  Version 1 returns a UNIX errno in the same
 * place; the common values coincide with these.
 */
enum mountstat3 {
	MNT3_OK = 0,
	MNT3ERR_PERM = 1,           /* Not owner */
	MNT3ERR_NOENT = 2,          /* No such file or directory */
	MNT3ERR_IO = 5,             /* I/O error */
	MNT3ERR_ACCES = 13,         /* Permission denied */
	MNT3ERR_NOTDIR = 20,        /* Not a directory */
	MNT3ERR_INVAL = 22,         /* Invalid argument */
	MNT3ERR_NAMETOOLONG = 63,   /* Filename too long */
	MNT3ERR_NOTSUPP = 10004,    /* Operation not supported */
	MNT3ERR_SERVERFAULT = 10006 /* A failure on the server */
};

/* Negative errno for a status (0 for MNT3_OK); -EIO for unknown values.
 * NOTSUPP -EOPNOTSUPP, SERVERFAULT -EIO. */
int mnt_stat_errno(uint32_t status);
/* Lower-case text for a one-line message ("no such file or directory");
 * "unknown mount status" for unknown values.  Never NULL. */
const char *mnt_stat_str(uint32_t status);
/* Name for logs ("MNT3ERR_NOENT"), or NULL if unknown. */
const char *mnt_stat_name(uint32_t status);

/* ---- per-procedure arguments and results ---- */

/* MNT and UMNT: dirpath<MNTPATHLEN>. */
struct mnt_dirpath_args {
	const char *dirpath; /* NUL-terminated */
};

/*
 * v3:	struct mountres3_ok { fhandle3 fhandle; int auth_flavors<>; };
 *	union mountres3 switch (mountstat3 fhs_status) {
 *	case MNT3_OK: mountres3_ok mountinfo;
 *	default: void;
 *	};
 * v1:	union fhstatus switch (unsigned fhs_status) {
 *	case 0: fhandle fhs_fhandle;
 *	default: void;
 *	};
 * Both decode into this: v1 gives a 32-byte handle and no flavors.
 */
struct mnt_mnt_res {
	uint32_t status;  /* enum mountstat3 (v1: a UNIX errno) */
	struct nfs_fh3 fh;                  /* status 0 only */
	uint32_t nflavors;                  /* kept, <= MNT_MAXFLAVORS */
	uint32_t nflavors_sent;             /* as the server sent them */
	uint32_t flavors[MNT_MAXFLAVORS];   /* in the server's order */
};

/*
 * EXPORT:
 *	struct groupnode { name gr_name; groups gr_next; };
 *	struct exportnode { dirpath ex_dir; groups ex_groups; exports ex_next; };
 *	exports MOUNTPROC3_EXPORT(void) = 5;
 *
 * The decoder walks and checks the whole list, groups included, once and
 * leaves `entries` at its start; mnt_export_next() and mnt_group_next()
 * then hand out the entries without further allocation.
 */
struct mnt_export_res {
	struct xdr_dec entries;
	uint32_t nexports;
};
struct mnt_exportnode {
	const char *dir; /* into the reply */
	uint32_t dirlen;
	struct xdr_dec groups; /* iterate with mnt_group_next() */
	uint32_t ngroups;
};
/* 1: filled; 0: end of list (and stays there); -EBADMSG only when the
 * iterator did not come from a successful decode. */
int mnt_export_next(struct xdr_dec *it, struct mnt_exportnode *ex);
int mnt_group_next(struct xdr_dec *it, const char **name, uint32_t *len);

/*
 * DUMP:
 *	struct mountbody { name ml_hostname; dirpath ml_directory;
 *			   mountlist ml_next; };
 *	mountlist MOUNTPROC3_DUMP(void) = 2;
 */
struct mnt_dump_res {
	struct xdr_dec entries;
	uint32_t nentries;
};
struct mnt_mountbody {
	const char *hostname; /* into the reply */
	uint32_t hostlen;
	const char *dir;      /* into the reply */
	uint32_t dirlen;
};
int mnt_dump_next(struct xdr_dec *it, struct mnt_mountbody *mb);

/* Encoders take `const void *` to fit the RPC layer.  NULL and UMNTALL
 * have neither arguments nor results; UMNT has no results. */
int mnt_enc_dirpath_args(struct xdr_enc *e, const void *args); /* MNT UMNT */

int mnt_dec_mnt3_res(struct xdr_dec *d, void *res); /* struct mnt_mnt_res */
int mnt_dec_mnt1_res(struct xdr_dec *d, void *res); /* struct mnt_mnt_res */
int mnt_dec_export_res(struct xdr_dec *d, void *res);
int mnt_dec_dump_res(struct xdr_dec *d, void *res);

/* ---- server side, for tests and fake servers ---- */

/* args->dirpath points into the buffer, NOT NUL-terminated: len in *len. */
int mnt_dec_dirpath_args(struct xdr_dec *d, const char **dirpath,
			 uint32_t *len);
/* v3 encodes flavors[0..nflavors); v1 needs fh.len == MNT_FHSIZE1. */
int mnt_enc_mnt3_res(struct xdr_enc *e, const struct mnt_mnt_res *r);
int mnt_enc_mnt1_res(struct xdr_enc *e, const struct mnt_mnt_res *r);

/* An export with its groups, owned (the MOUNT client returns these). */
struct mnt_export {
	char *dir;
	char **groups;
	size_t ngroups;
};
int mnt_enc_export_res(struct xdr_enc *e, const struct mnt_export *list,
		       size_t n);
int mnt_enc_dump_res(struct xdr_enc *e, const struct mnt_mountbody *list,
		     size_t n);

#endif
