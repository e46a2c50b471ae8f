/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 3 (RFC 1813): types and one encoder/decoder pair per
 * procedure.
 *
 * Ownership: file handles and verifiers are copied into the structures
 * (they are small and outlive replies in the caches).  Names, link targets,
 * READ data and directory entries point into the buffer being decoded and
 * are valid only as long as that buffer.  Names are NOT NUL-terminated:
 * use the (name, namelen) pairs.
 *
 * Decoders return 0 or -EBADMSG (malformed); the NFS status is data in the
 * result.  On a failed status the failure arm is still decoded so that the
 * caches learn the post-op and wcc attributes the server sent.  A status
 * this code does not know is decoded with the failure arm as well: RFC 1813
 * gives every non-OK status the same arm.
 */
#ifndef NFSFUSE_XDR_NFS3_H
#define NFSFUSE_XDR_NFS3_H

#include "xdr.h"

#define NFS3_PROGRAM 100003u
#define NFS3_VERSION 3u

#define NFS3_FHSIZE 64
#define NFS3_COOKIEVERFSIZE 8
#define NFS3_CREATEVERFSIZE 8
#define NFS3_WRITEVERFSIZE 8
/* Limits we accept from the wire (RFC 1813 leaves strings unbounded). */
#define NFS3_MAXNAMLEN 255
#define NFS3_MAXPATHLEN 4096
/* The largest READ/WRITE payload we will ever encode or accept. */
#define NFS3_MAXDATA (4u << 20)

enum nfs3_proc {
	NFS3PROC_NULL = 0,
	NFS3PROC_GETATTR = 1,
	NFS3PROC_SETATTR = 2,
	NFS3PROC_LOOKUP = 3,
	NFS3PROC_ACCESS = 4,
	NFS3PROC_READLINK = 5,
	NFS3PROC_READ = 6,
	NFS3PROC_WRITE = 7,
	NFS3PROC_CREATE = 8,
	NFS3PROC_MKDIR = 9,
	NFS3PROC_SYMLINK = 10,
	NFS3PROC_MKNOD = 11,
	NFS3PROC_REMOVE = 12,
	NFS3PROC_RMDIR = 13,
	NFS3PROC_RENAME = 14,
	NFS3PROC_LINK = 15,
	NFS3PROC_READDIR = 16,
	NFS3PROC_READDIRPLUS = 17,
	NFS3PROC_FSSTAT = 18,
	NFS3PROC_FSINFO = 19,
	NFS3PROC_PATHCONF = 20,
	NFS3PROC_COMMIT = 21,
	NFS3PROC_COUNT = 22
};

/* Procedure names as RFC 1813 spells them, indexed by enum nfs3_proc. */
extern const char *const nfs3_proc_names[NFS3PROC_COUNT];

enum nfsstat3 {
	NFS3_OK = 0,
	NFS3ERR_PERM = 1,
	NFS3ERR_NOENT = 2,
	NFS3ERR_IO = 5,
	NFS3ERR_NXIO = 6,
	NFS3ERR_ACCES = 13,
	NFS3ERR_EXIST = 17,
	NFS3ERR_XDEV = 18,
	NFS3ERR_NODEV = 19,
	NFS3ERR_NOTDIR = 20,
	NFS3ERR_ISDIR = 21,
	NFS3ERR_INVAL = 22,
	NFS3ERR_FBIG = 27,
	NFS3ERR_NOSPC = 28,
	NFS3ERR_ROFS = 30,
	NFS3ERR_MLINK = 31,
	NFS3ERR_NAMETOOLONG = 63,
	NFS3ERR_NOTEMPTY = 66,
	NFS3ERR_DQUOT = 69,
	NFS3ERR_STALE = 70,
	NFS3ERR_REMOTE = 71,
	NFS3ERR_BADHANDLE = 10001,
	NFS3ERR_NOT_SYNC = 10002,
	NFS3ERR_BAD_COOKIE = 10003,
	NFS3ERR_NOTSUPP = 10004,
	NFS3ERR_TOOSMALL = 10005,
	NFS3ERR_SERVERFAULT = 10006,
	NFS3ERR_BADTYPE = 10007,
	NFS3ERR_JUKEBOX = 10008
};

/* Name of a status for logs ("NFS3ERR_STALE"), or NULL if unknown. */
const char *nfs3_stat_name(uint32_t status);

struct nfs_fh3;
/* The handles a call's arguments name: the object's, or its directory's
 * (returned); the second directory of a RENAME or LINK in *other (NULL
 * for the others).  NULL for NULL, which names none. */
const struct nfs_fh3 *nfs3_args_fh(enum nfs3_proc proc, const void *args,
				   const struct nfs_fh3 **other);
/* A decoded result's status (each result struct begins with it); NFS3_OK
 * for NULL, which has none. */
uint32_t nfs3_res_status(enum nfs3_proc proc, const void *res);

enum ftype3 {
	NF3REG = 1,
	NF3DIR = 2,
	NF3BLK = 3,
	NF3CHR = 4,
	NF3LNK = 5,
	NF3SOCK = 6,
	NF3FIFO = 7
};

/* ACCESS bits */
#define ACCESS3_READ 0x0001u
#define ACCESS3_LOOKUP 0x0002u
#define ACCESS3_MODIFY 0x0004u
#define ACCESS3_EXTEND 0x0008u
#define ACCESS3_DELETE 0x0010u
#define ACCESS3_EXECUTE 0x0020u

/* FSINFO properties */
#define FSF3_LINK 0x0001u
#define FSF3_SYMLINK 0x0002u
#define FSF3_HOMOGENEOUS 0x0008u
#define FSF3_CANSETTIME 0x0010u

enum stable_how { UNSTABLE = 0, DATA_SYNC = 1, FILE_SYNC = 2 };
enum createmode3 { UNCHECKED = 0, GUARDED = 1, EXCLUSIVE = 2 };
enum time_how {
	DONT_CHANGE = 0,
	SET_TO_SERVER_TIME = 1,
	SET_TO_CLIENT_TIME = 2
};

struct nfs_fh3 {
	uint32_t len; /* 0..NFS3_FHSIZE */
	uint8_t data[NFS3_FHSIZE];
};

/*
 * On the NFSv3 wire the seconds are a uint32: 1970 to 2106.  A fattr3
 * also carries the attributes of an NFSv4 reply, whose nfstime4 reaches
 * before 1970 and past 2106, so the field is wider than the wire's (see
 * nfstime3_wire(), and nfs4_fattr_to_attr3() for its bounds).  Packed to
 * 12 bytes: every cached inode holds several.
 */
struct nfstime3 {
	int64_t seconds;
	uint32_t nseconds;
} __attribute__((packed, aligned(4)));

/* The seconds a fattr3 holds at most either way: a time in nanoseconds
 * then fits an int64 (1678 to 2262). */
#define NFSTIME3_SECONDS_MAX (INT64_MAX / 1000000000 - 1)

/* t as the NFSv3 wire holds it: a time before 1970 as the epoch, one
 * after 2106 as its last second (the limits the Linux client sets an
 * NFSv3 mount's timestamps to). */
static inline struct nfstime3 nfstime3_wire(const struct nfstime3 *t)
{
	struct nfstime3 w = *t;

	if (w.seconds < 0) {
		w.seconds = 0;
		w.nseconds = 0;
	} else if (w.seconds > (int64_t)UINT32_MAX) {
		w.seconds = UINT32_MAX;
		w.nseconds = 0;
	}
	return w;
}

struct specdata3 {
	uint32_t specdata1;
	uint32_t specdata2;
};

struct fattr3 {
	uint32_t type; /* enum ftype3; unknown values are kept as sent */
	uint32_t mode;
	uint32_t nlink;
	uint32_t uid;
	uint32_t gid;
	uint64_t size;
	uint64_t used;
	struct specdata3 rdev;
	uint64_t fsid;
	uint64_t fileid;
	struct nfstime3 atime;
	struct nfstime3 mtime;
	struct nfstime3 ctime;
	/* Not on the NFSv3 wire: NFSv4's change attribute, which moves at
	 * every change of the file (data or metadata) whatever the clock
	 * granularity; 0 where the version has none (v2, v3). */
	uint64_t change;
};

struct post_op_attr {
	bool present;
	struct fattr3 attr;
};

struct wcc_attr {
	uint64_t size;
	struct nfstime3 mtime;
	struct nfstime3 ctime;
	/* Not on the NFSv3 wire: NFSv4's change attribute before the
	 * operation (change_info4), which then stands for the three above;
	 * 0 where the version has none. */
	uint64_t change;
};

struct pre_op_attr {
	bool present;
	struct wcc_attr attr;
};

struct wcc_data {
	struct pre_op_attr before;
	struct post_op_attr after;
};

struct post_op_fh3 {
	bool present;
	struct nfs_fh3 fh;
};

struct sattr3 {
	bool set_mode;
	uint32_t mode;
	bool set_uid;
	uint32_t uid;
	bool set_gid;
	uint32_t gid;
	bool set_size;
	uint64_t size;
	uint32_t set_atime; /* enum time_how */
	struct nfstime3 atime;
	uint32_t set_mtime; /* enum time_how */
	struct nfstime3 mtime;
};

struct diropargs3 {
	const struct nfs_fh3 *dir;
	const char *name; /* NUL-terminated, at most NFS3_MAXNAMLEN bytes */
};

/* Type codecs, exported for the other protocol files (NFSACL, NLM) and
 * for the unit tests. */
int nfs3_enc_fh3(struct xdr_enc *e, const struct nfs_fh3 *fh);
int nfs3_dec_fh3(struct xdr_dec *d, struct nfs_fh3 *fh);
int nfs3_dec_fattr3(struct xdr_dec *d, struct fattr3 *a);
int nfs3_dec_post_op_attr(struct xdr_dec *d, struct post_op_attr *a);
int nfs3_dec_wcc_data(struct xdr_dec *d, struct wcc_data *w);
int nfs3_dec_post_op_fh3(struct xdr_dec *d, struct post_op_fh3 *fh);
int nfs3_enc_sattr3(struct xdr_enc *e, const struct sattr3 *s);
int nfs3_enc_diropargs3(struct xdr_enc *e, const struct diropargs3 *a);
/* An nfstime3 as the wire holds it (nfstime3_wire). */
int nfs3_enc_nfstime3(struct xdr_enc *e, const struct nfstime3 *t);
/* Encoders for the server side of tests and proxies. */
int nfs3_enc_fattr3(struct xdr_enc *e, const struct fattr3 *a);
int nfs3_enc_post_op_attr(struct xdr_enc *e, const struct post_op_attr *a);
int nfs3_enc_wcc_data(struct xdr_enc *e, const struct wcc_data *w);

/* ---- per-procedure arguments and results ---- */

struct nfs3_getattr_args {
	struct nfs_fh3 object;
};
struct nfs3_getattr_res {
	uint32_t status;
	struct fattr3 obj_attributes; /* NFS3_OK only */
};

struct nfs3_setattr_args {
	struct nfs_fh3 object;
	struct sattr3 new_attributes;
	bool guard_check;
	struct nfstime3 guard_ctime;
};
struct nfs3_setattr_res {
	uint32_t status;
	struct wcc_data obj_wcc;
};

struct nfs3_lookup_args {
	struct diropargs3 what;
};
struct nfs3_lookup_res {
	uint32_t status;
	struct nfs_fh3 object; /* NFS3_OK only */
	struct post_op_attr obj_attributes; /* NFS3_OK only */
	struct post_op_attr dir_attributes;
};

struct nfs3_access_args {
	struct nfs_fh3 object;
	uint32_t access;
};
struct nfs3_access_res {
	uint32_t status;
	struct post_op_attr obj_attributes;
	uint32_t access; /* NFS3_OK only */
};

struct nfs3_readlink_args {
	struct nfs_fh3 symlink;
};
struct nfs3_readlink_res {
	uint32_t status;
	struct post_op_attr symlink_attributes;
	const char *data; /* into the reply; NFS3_OK only */
	uint32_t len;
};

struct nfs3_read_args {
	struct nfs_fh3 file;
	uint64_t offset;
	uint32_t count;
	/* Not on the NFSv3 wire, where a READ's attributes come with it at
	 * no cost: the caller has no use for them, and NFSv4 asks for none
	 * (a GETATTR in the COMPOUND costs the server as much as the READ). */
	bool no_attr;
};
struct nfs3_read_res {
	uint32_t status;
	struct post_op_attr file_attributes;
	uint32_t count;       /* NFS3_OK only */
	bool eof;             /* NFS3_OK only */
	const uint8_t *data;  /* into the reply; NFS3_OK only */
	uint32_t data_len;    /* length of the opaque; checked <= NFS3_MAXDATA */
};

struct nfs3_write_args {
	struct nfs_fh3 file;
	uint64_t offset;
	uint32_t count;
	uint32_t stable; /* enum stable_how */
	const void *data; /* count bytes, caller-owned */
};
struct nfs3_write_res {
	uint32_t status;
	struct wcc_data file_wcc;
	uint32_t count;     /* NFS3_OK only */
	uint32_t committed; /* NFS3_OK only */
	uint8_t verf[NFS3_WRITEVERFSIZE]; /* NFS3_OK only */
};

struct nfs3_create_args {
	struct diropargs3 where;
	uint32_t mode; /* enum createmode3 */
	struct sattr3 obj_attributes; /* UNCHECKED, GUARDED */
	uint8_t verf[NFS3_CREATEVERFSIZE]; /* EXCLUSIVE */
};
/* Result of CREATE, MKDIR, SYMLINK and MKNOD (diropres3). */
struct nfs3_diropres {
	uint32_t status;
	struct post_op_fh3 obj;               /* NFS3_OK only */
	struct post_op_attr obj_attributes;   /* NFS3_OK only */
	struct wcc_data dir_wcc;
};

struct nfs3_mkdir_args {
	struct diropargs3 where;
	struct sattr3 attributes;
};

struct nfs3_symlink_args {
	struct diropargs3 where;
	struct sattr3 symlink_attributes;
	const char *symlink_data; /* NUL-terminated, <= NFS3_MAXPATHLEN */
};

struct nfs3_mknod_args {
	struct diropargs3 where;
	uint32_t type; /* enum ftype3: NF3CHR, NF3BLK, NF3SOCK, NF3FIFO */
	struct sattr3 attributes;
	struct specdata3 spec; /* NF3CHR, NF3BLK */
};

struct nfs3_remove_args {
	struct diropargs3 object;
};
/* Result of REMOVE and RMDIR. */
struct nfs3_wccstat_res {
	uint32_t status;
	struct wcc_data dir_wcc;
};

struct nfs3_rename_args {
	struct diropargs3 from;
	struct diropargs3 to;
};
struct nfs3_rename_res {
	uint32_t status;
	struct wcc_data fromdir_wcc;
	struct wcc_data todir_wcc;
};

struct nfs3_link_args {
	struct nfs_fh3 file;
	struct diropargs3 link;
};
struct nfs3_link_res {
	uint32_t status;
	struct post_op_attr file_attributes;
	struct wcc_data linkdir_wcc;
};

struct nfs3_readdir_args {
	struct nfs_fh3 dir;
	uint64_t cookie;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	uint32_t count;
};
/*
 * The decoder walks and checks the whole entry list once, then leaves
 * `entries` at its start; nfs3_readdir_next()/nfs3_readdirplus_next() then
 * hand out the entries without further allocation.
 */
struct nfs3_readdir_res {
	uint32_t status;
	struct post_op_attr dir_attributes;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE]; /* NFS3_OK only */
	struct xdr_dec entries;                  /* NFS3_OK only */
	uint32_t nentries;                       /* NFS3_OK only */
	bool eof;                                /* NFS3_OK only */
};
struct nfs3_entry {
	uint64_t fileid;
	const char *name; /* into the reply */
	uint32_t namelen;
	uint64_t cookie;
};
/* 1: *e filled; 0: end of list.  Only after a successful decode. */
int nfs3_readdir_next(struct xdr_dec *it, struct nfs3_entry *e);

struct nfs3_readdirplus_args {
	struct nfs_fh3 dir;
	uint64_t cookie;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	uint32_t dircount;
	uint32_t maxcount;
};
struct nfs3_readdirplus_res {
	uint32_t status;
	struct post_op_attr dir_attributes;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	struct xdr_dec entries;
	uint32_t nentries;
	bool eof;
};
struct nfs3_entryplus {
	uint64_t fileid;
	const char *name;
	uint32_t namelen;
	uint64_t cookie;
	struct post_op_attr name_attributes;
	struct post_op_fh3 name_handle;
};
int nfs3_readdirplus_next(struct xdr_dec *it, struct nfs3_entryplus *e);

struct nfs3_fsstat_args {
	struct nfs_fh3 fsroot;
};
struct nfs3_fsstat_res {
	uint32_t status;
	struct post_op_attr obj_attributes;
	uint64_t tbytes, fbytes, abytes; /* NFS3_OK only */
	uint64_t tfiles, ffiles, afiles;
	uint32_t invarsec;
};

struct nfs3_fsinfo_args {
	struct nfs_fh3 fsroot;
};
struct nfs3_fsinfo_res {
	uint32_t status;
	struct post_op_attr obj_attributes;
	uint32_t rtmax, rtpref, rtmult; /* NFS3_OK only */
	uint32_t wtmax, wtpref, wtmult;
	uint32_t dtpref;
	uint64_t maxfilesize;
	struct nfstime3 time_delta;
	uint32_t properties;
};

struct nfs3_pathconf_args {
	struct nfs_fh3 object;
};
struct nfs3_pathconf_res {
	uint32_t status;
	struct post_op_attr obj_attributes;
	uint32_t linkmax, name_max; /* NFS3_OK only */
	bool no_trunc, chown_restricted, case_insensitive, case_preserving;
};

struct nfs3_commit_args {
	struct nfs_fh3 file;
	uint64_t offset;
	uint32_t count;
};
struct nfs3_commit_res {
	uint32_t status;
	struct wcc_data file_wcc;
	uint8_t verf[NFS3_WRITEVERFSIZE]; /* NFS3_OK only */
};

/*
 * Encoders take `const void *` so that they fit the RPC layer's
 * procedure table; each expects the args struct named for it.  NULL has
 * neither arguments nor results.
 */
int nfs3_enc_getattr_args(struct xdr_enc *e, const void *args);
int nfs3_enc_setattr_args(struct xdr_enc *e, const void *args);
int nfs3_enc_lookup_args(struct xdr_enc *e, const void *args);
int nfs3_enc_access_args(struct xdr_enc *e, const void *args);
int nfs3_enc_readlink_args(struct xdr_enc *e, const void *args);
int nfs3_enc_read_args(struct xdr_enc *e, const void *args);
int nfs3_enc_write_args(struct xdr_enc *e, const void *args);
int nfs3_enc_create_args(struct xdr_enc *e, const void *args);
int nfs3_enc_mkdir_args(struct xdr_enc *e, const void *args);
int nfs3_enc_symlink_args(struct xdr_enc *e, const void *args);
int nfs3_enc_mknod_args(struct xdr_enc *e, const void *args);
int nfs3_enc_remove_args(struct xdr_enc *e, const void *args); /* and RMDIR */
int nfs3_enc_rename_args(struct xdr_enc *e, const void *args);
int nfs3_enc_link_args(struct xdr_enc *e, const void *args);
int nfs3_enc_readdir_args(struct xdr_enc *e, const void *args);
int nfs3_enc_readdirplus_args(struct xdr_enc *e, const void *args);
int nfs3_enc_fsstat_args(struct xdr_enc *e, const void *args);
int nfs3_enc_fsinfo_args(struct xdr_enc *e, const void *args);
int nfs3_enc_pathconf_args(struct xdr_enc *e, const void *args);
int nfs3_enc_commit_args(struct xdr_enc *e, const void *args);

int nfs3_dec_getattr_res(struct xdr_dec *d, void *res);
int nfs3_dec_setattr_res(struct xdr_dec *d, void *res);
int nfs3_dec_lookup_res(struct xdr_dec *d, void *res);
int nfs3_dec_access_res(struct xdr_dec *d, void *res);
int nfs3_dec_readlink_res(struct xdr_dec *d, void *res);
int nfs3_dec_read_res(struct xdr_dec *d, void *res);
int nfs3_dec_write_res(struct xdr_dec *d, void *res);
int nfs3_dec_diropres(struct xdr_dec *d, void *res); /* CREATE MKDIR SYMLINK MKNOD */
int nfs3_dec_wccstat_res(struct xdr_dec *d, void *res); /* REMOVE RMDIR */
int nfs3_dec_rename_res(struct xdr_dec *d, void *res);
int nfs3_dec_link_res(struct xdr_dec *d, void *res);
int nfs3_dec_readdir_res(struct xdr_dec *d, void *res);
int nfs3_dec_readdirplus_res(struct xdr_dec *d, void *res);
int nfs3_dec_fsstat_res(struct xdr_dec *d, void *res);
int nfs3_dec_fsinfo_res(struct xdr_dec *d, void *res);
int nfs3_dec_pathconf_res(struct xdr_dec *d, void *res);
int nfs3_dec_commit_res(struct xdr_dec *d, void *res);

#endif
