/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 2 (RFC 1094; /usr/include/rpcsvc/nfs_prot.x): types, one
 * encoder/decoder pair per procedure, and the conversions to and from the
 * NFSv3 types that the upper layers speak (nfs2_conv.c).
 *
 * Ownership: file handles (32 bytes) and attributes are copied into the
 * structures.  Names, link targets, READ data and directory entries point
 * into the buffer being decoded and are valid only as long as that buffer.
 * Names are NOT NUL-terminated: use the (name, namelen) pairs.
 *
 * Decoders return 0 or -EBADMSG (malformed); the NFS status is data in the
 * result.  Every NFSv2 failure arm is void, so on a failed (or unknown)
 * status only the status is decoded.  Encoders return 0, -EINVAL for
 * arguments that cannot be sent (a name over NFS2_MAXNAMLEN, a count over
 * NFS2_MAXDATA), or -ENOMEM; errors are sticky in the encoder as in xdr.h.
 *
 * Everything is 32 bits wide in NFSv2: sizes, offsets, file ids, cookies.
 * The upper layers use 64-bit NFSv3 types; the conversions below refuse
 * (-EFBIG / -EOVERFLOW) what does not fit rather than let it wrap.
 */
#ifndef NFSFUSE_XDR_NFS2_H
#define NFSFUSE_XDR_NFS2_H

#include "nfs3.h" /* struct fattr3, sattr3, nfs_fh3 for the conversions */
#include "xdr.h"

#define NFS2_PROGRAM 100003u
#define NFS2_VERSION 2u

#define NFS2_FHSIZE 32
#define NFS2_COOKIESIZE 4
#define NFS2_MAXDATA 8192u
#define NFS2_MAXNAMLEN 255u
#define NFS2_MAXPATHLEN 1024u
/* fattr: 17 words (type .. fileid, then three nfstime of two words). */
#define NFS2_FATTR_SIZE 68u
#define NFS2_SATTR_SIZE 32u

/* sattr: a field of all ones is left unchanged by the server. */
#define NFS2_SATTR_NOT_SET 0xffffffffu
/* sattr time with useconds == 1000000: "set to the server's current time"
 * (Sun convention; the seconds then carry the client's clock for servers
 * that ignore it). */
#define NFS2_USEC_SERVER_TIME 1000000u
/* rdev of an NF2CHR that is really a FIFO (nfs_prot.x NFS_FIFO_DEV, -1). */
#define NFS2_FIFO_DEV 0xffffffffu
/*
 * The largest file size a v2 client uses: RFC 1094 sizes are unsigned but
 * servers of the time kept them in a signed off_t, and the Linux client
 * uses 0x7fffffff as well.  A byte at or past this offset cannot be read or
 * written over NFSv2.
 */
#define NFS2_MAXFILESIZE 0x7fffffffu

/* Mode bits of the file type, as v2 servers send them in fattr.mode. */
#define NFS2MODE_FMT 0170000u
#define NFS2MODE_DIR 0040000u
#define NFS2MODE_CHR 0020000u
#define NFS2MODE_BLK 0060000u
#define NFS2MODE_REG 0100000u
#define NFS2MODE_LNK 0120000u
#define NFS2MODE_SOCK 0140000u
#define NFS2MODE_FIFO 0010000u

enum nfs2_proc {
	NFS2PROC_NULL = 0,
	NFS2PROC_GETATTR = 1,
	NFS2PROC_SETATTR = 2,
	NFS2PROC_ROOT = 3,	 /* obsolete: void args, void result */
	NFS2PROC_LOOKUP = 4,
	NFS2PROC_READLINK = 5,
	NFS2PROC_READ = 6,
	NFS2PROC_WRITECACHE = 7, /* obsolete: void args, void result */
	NFS2PROC_WRITE = 8,
	NFS2PROC_CREATE = 9,
	NFS2PROC_REMOVE = 10,
	NFS2PROC_RENAME = 11,
	NFS2PROC_LINK = 12,
	NFS2PROC_SYMLINK = 13,
	NFS2PROC_MKDIR = 14,
	NFS2PROC_RMDIR = 15,
	NFS2PROC_READDIR = 16,
	NFS2PROC_STATFS = 17,
	NFS2PROC_COUNT = 18
};

/* Procedure names as RFC 1094 spells them ("NULL", "GETATTR", ...),
 * indexed by enum nfs2_proc. */
extern const char *const nfs2_proc_names[NFS2PROC_COUNT];

/* nfsstat: a subset of the NFSv3 numbers, plus NFSERR_WFLUSH. */
enum nfs2_stat {
	NFS2_OK = 0,
	NFS2ERR_PERM = 1,
	NFS2ERR_NOENT = 2,
	NFS2ERR_IO = 5,
	NFS2ERR_NXIO = 6,
	NFS2ERR_ACCES = 13,
	NFS2ERR_EXIST = 17,
	NFS2ERR_NODEV = 19,
	NFS2ERR_NOTDIR = 20,
	NFS2ERR_ISDIR = 21,
	NFS2ERR_FBIG = 27,
	NFS2ERR_NOSPC = 28,
	NFS2ERR_ROFS = 30,
	NFS2ERR_NAMETOOLONG = 63,
	NFS2ERR_NOTEMPTY = 66,
	NFS2ERR_DQUOT = 69,
	NFS2ERR_STALE = 70,
	NFS2ERR_WFLUSH = 99
};

/* Name of a status as RFC 1094 spells it ("NFSERR_STALE", "NFS_OK"), or
 * NULL if it is not an NFSv2 status. */
const char *nfs2_stat_name(uint32_t status);

/* ftype.  Beware: not the NFSv3 numbers (NF2FIFO is 8, NF3FIFO is 7). */
enum nfs2_ftype {
	NF2NON = 0,
	NF2REG = 1,
	NF2DIR = 2,
	NF2BLK = 3,
	NF2CHR = 4,
	NF2LNK = 5,
	NF2SOCK = 6,
	NF2BAD = 7,
	NF2FIFO = 8
};

struct nfs2_fh {
	uint8_t data[NFS2_FHSIZE];
};

struct nfs2_time {
	uint32_t seconds;
	uint32_t useconds;
};

struct nfs2_fattr {
	uint32_t type; /* enum nfs2_ftype, kept as sent */
	uint32_t mode; /* includes the NFS2MODE_FMT bits on most servers */
	uint32_t nlink;
	uint32_t uid;
	uint32_t gid;
	uint32_t size;
	uint32_t blocksize;
	uint32_t rdev;
	uint32_t blocks;
	uint32_t fsid;
	uint32_t fileid;
	struct nfs2_time atime;
	struct nfs2_time mtime;
	struct nfs2_time ctime;
};

/* Every field NFS2_SATTR_NOT_SET means "leave unchanged"; a time is not
 * set when both of its words are.  nfs2_sattr_none() fills that in. */
struct nfs2_sattr {
	uint32_t mode;
	uint32_t uid;
	uint32_t gid;
	uint32_t size;
	struct nfs2_time atime;
	struct nfs2_time mtime;
};

void nfs2_sattr_none(struct nfs2_sattr *s);

struct nfs2_diropargs {
	const struct nfs2_fh *dir;
	const char *name; /* NUL-terminated, 1..NFS2_MAXNAMLEN bytes */
};

/* Type codecs, exported for the NLM v1/v3 codec, tests and proxies. */
int nfs2_enc_fh(struct xdr_enc *e, const struct nfs2_fh *fh);
int nfs2_dec_fh(struct xdr_dec *d, struct nfs2_fh *fh);
int nfs2_enc_fattr(struct xdr_enc *e, const struct nfs2_fattr *a);
int nfs2_dec_fattr(struct xdr_dec *d, struct nfs2_fattr *a);
int nfs2_enc_sattr(struct xdr_enc *e, const struct nfs2_sattr *s);
int nfs2_dec_sattr(struct xdr_dec *d, struct nfs2_sattr *s);
int nfs2_enc_diropargs(struct xdr_enc *e, const struct nfs2_diropargs *a);

/* ---- per-procedure arguments ---- */

/* GETATTR, READLINK and STATFS take a bare nfs_fh. */
struct nfs2_getattr_args {
	struct nfs2_fh file;
};
struct nfs2_readlink_args {
	struct nfs2_fh file;
};
struct nfs2_statfs_args {
	struct nfs2_fh file;
};

struct nfs2_setattr_args {
	struct nfs2_fh file;
	struct nfs2_sattr attributes;
};

/* LOOKUP, REMOVE and RMDIR take a diropargs. */
struct nfs2_lookup_args {
	struct nfs2_diropargs what;
};
struct nfs2_remove_args {
	struct nfs2_diropargs what;
};
struct nfs2_rmdir_args {
	struct nfs2_diropargs what;
};

struct nfs2_read_args {
	struct nfs2_fh file;
	uint32_t offset;
	uint32_t count;      /* <= NFS2_MAXDATA */
	uint32_t totalcount; /* unused by servers; send 0 or count */
};

struct nfs2_write_args {
	struct nfs2_fh file;
	uint32_t beginoffset; /* unused by servers; send 0 */
	uint32_t offset;
	uint32_t totalcount;  /* unused by servers; send 0 */
	const void *data;     /* count bytes, caller-owned */
	uint32_t count;       /* <= NFS2_MAXDATA */
};

/* CREATE and MKDIR take createargs. */
struct nfs2_create_args {
	struct nfs2_diropargs where;
	struct nfs2_sattr attributes;
};
struct nfs2_mkdir_args {
	struct nfs2_diropargs where;
	struct nfs2_sattr attributes;
};

struct nfs2_rename_args {
	struct nfs2_diropargs from;
	struct nfs2_diropargs to;
};

struct nfs2_link_args {
	struct nfs2_fh from;
	struct nfs2_diropargs to;
};

struct nfs2_symlink_args {
	struct nfs2_diropargs from;
	const char *to; /* NUL-terminated, <= NFS2_MAXPATHLEN bytes */
	struct nfs2_sattr attributes;
};

/* nfscookie is opaque[4]; it is carried as the big-endian u32 of those
 * four bytes, so it round-trips bit for bit. */
struct nfs2_readdir_args {
	struct nfs2_fh dir;
	uint32_t cookie; /* 0 for the start of the directory */
	uint32_t count;  /* bytes of reply the server may send */
};

/* ---- per-procedure results (named for the XDR union they decode) ---- */

/* attrstat: GETATTR, SETATTR, WRITE. */
struct nfs2_attrstat {
	uint32_t status;
	struct nfs2_fattr attributes; /* NFS2_OK only */
};

/* diropres: LOOKUP, CREATE, MKDIR. */
struct nfs2_diropres {
	uint32_t status;
	struct nfs2_fh file;          /* NFS2_OK only */
	struct nfs2_fattr attributes; /* NFS2_OK only */
};

/* A bare nfsstat: REMOVE, RENAME, LINK, SYMLINK, RMDIR. */
struct nfs2_stat_res {
	uint32_t status;
};

struct nfs2_readlink_res {
	uint32_t status;
	const char *data; /* into the reply; NFS2_OK only */
	uint32_t len;     /* <= NFS2_MAXPATHLEN */
};

struct nfs2_read_res {
	uint32_t status;
	struct nfs2_fattr attributes; /* NFS2_OK only */
	const uint8_t *data;          /* into the reply; NFS2_OK only */
	uint32_t count;               /* <= NFS2_MAXDATA */
};

/*
 * The decoder walks and checks the whole entry list once, then leaves
 * `entries` at its start; nfs2_readdir_next() then hands out the entries
 * without further allocation.
 */
struct nfs2_readdir_res {
	uint32_t status;
	struct xdr_dec entries; /* NFS2_OK only */
	uint32_t nentries;      /* NFS2_OK only */
	bool eof;               /* NFS2_OK only */
};
struct nfs2_entry {
	uint32_t fileid;
	const char *name; /* into the reply */
	uint32_t namelen;
	uint32_t cookie;  /* opaque[4] as a big-endian u32 */
};
/* 1: *e filled; 0: end of list; -EBADMSG.  Use only on the `entries` of a
 * successfully decoded reply. */
int nfs2_readdir_next(struct xdr_dec *it, struct nfs2_entry *e);

struct nfs2_statfs_res {
	uint32_t status;
	uint32_t tsize;  /* NFS2_OK only: preferred transfer size */
	uint32_t bsize;  /* block size of the counts below */
	uint32_t blocks;
	uint32_t bfree;
	uint32_t bavail;
};

/*
 * Encoders take `const void *` so that they fit the RPC layer's procedure
 * table; each expects the args struct named for it.  NULL, ROOT and
 * WRITECACHE have void arguments and void results: nfs2_enc_void_args()
 * encodes nothing and nfs2_dec_void_res() decodes nothing.
 */
int nfs2_enc_void_args(struct xdr_enc *e, const void *args);
int nfs2_enc_getattr_args(struct xdr_enc *e, const void *args);
int nfs2_enc_setattr_args(struct xdr_enc *e, const void *args);
int nfs2_enc_lookup_args(struct xdr_enc *e, const void *args);
int nfs2_enc_readlink_args(struct xdr_enc *e, const void *args);
int nfs2_enc_read_args(struct xdr_enc *e, const void *args);
int nfs2_enc_write_args(struct xdr_enc *e, const void *args);
int nfs2_enc_create_args(struct xdr_enc *e, const void *args);
int nfs2_enc_remove_args(struct xdr_enc *e, const void *args);
int nfs2_enc_rename_args(struct xdr_enc *e, const void *args);
int nfs2_enc_link_args(struct xdr_enc *e, const void *args);
int nfs2_enc_symlink_args(struct xdr_enc *e, const void *args);
int nfs2_enc_mkdir_args(struct xdr_enc *e, const void *args);
int nfs2_enc_rmdir_args(struct xdr_enc *e, const void *args);
int nfs2_enc_readdir_args(struct xdr_enc *e, const void *args);
int nfs2_enc_statfs_args(struct xdr_enc *e, const void *args);

int nfs2_dec_void_res(struct xdr_dec *d, void *res);      /* res unused */
int nfs2_dec_attrstat(struct xdr_dec *d, void *res);      /* nfs2_attrstat */
int nfs2_dec_getattr_res(struct xdr_dec *d, void *res);   /* nfs2_attrstat */
int nfs2_dec_setattr_res(struct xdr_dec *d, void *res);   /* nfs2_attrstat */
int nfs2_dec_write_res(struct xdr_dec *d, void *res);     /* nfs2_attrstat */
int nfs2_dec_diropres(struct xdr_dec *d, void *res);      /* nfs2_diropres */
int nfs2_dec_lookup_res(struct xdr_dec *d, void *res);    /* nfs2_diropres */
int nfs2_dec_create_res(struct xdr_dec *d, void *res);    /* nfs2_diropres */
int nfs2_dec_mkdir_res(struct xdr_dec *d, void *res);     /* nfs2_diropres */
int nfs2_dec_stat_res(struct xdr_dec *d, void *res);      /* nfs2_stat_res */
int nfs2_dec_remove_res(struct xdr_dec *d, void *res);    /* nfs2_stat_res */
int nfs2_dec_rename_res(struct xdr_dec *d, void *res);    /* nfs2_stat_res */
int nfs2_dec_link_res(struct xdr_dec *d, void *res);      /* nfs2_stat_res */
int nfs2_dec_symlink_res(struct xdr_dec *d, void *res);   /* nfs2_stat_res */
int nfs2_dec_rmdir_res(struct xdr_dec *d, void *res);     /* nfs2_stat_res */
int nfs2_dec_readlink_res(struct xdr_dec *d, void *res);  /* nfs2_readlink_res */
int nfs2_dec_read_res(struct xdr_dec *d, void *res);      /* nfs2_read_res */
int nfs2_dec_readdir_res(struct xdr_dec *d, void *res);   /* nfs2_readdir_res */
int nfs2_dec_statfs_res(struct xdr_dec *d, void *res);    /* nfs2_statfs_res */

/* ---- conversions to and from NFSv3 types (nfs2_conv.c) ---- */

/*
 * fattr -> fattr3.  Type: NF2REG..NF2SOCK keep their numbers, NF2FIFO
 * becomes NF3FIFO, and an NF2CHR whose rdev is NFS2_FIFO_DEV is a FIFO
 * (the v2 "size kludge for named pipes").  NF2NON and NF2BAD become 0, a
 * value no ftype3 uses (NF2BAD's own number, 7, is NF3FIFO); any other
 * unknown value is kept as sent.  mode keeps only the 07777 bits (fattr3
 * carries the type apart).  rdev is split into (major, minor) as Linux's
 * new_decode_dev() does, for NF2CHR and NF2BLK only (servers send all ones
 * for other files).  used = blocks * blocksize (RFC 1094: "blocks ... the
 * number of blocks the file takes up on disk"), computed in 64 bits.
 * Times: useconds * 1000, with a useconds >= 1000000 (malformed) clamped
 * to 999999999 nanoseconds.
 */
void nfs2_fattr_to_fattr3(const struct nfs2_fattr *a, struct fattr3 *out);

/*
 * sattr3 -> sattr.  Returns 0, or:
 *   -EFBIG     a size over NFS2_MAXFILESIZE (truncate(2)'s error);
 *   -EOVERFLOW a time (client's, or `now` for SET_TO_SERVER_TIME) whose
 *              seconds are all ones: it would read as "not set";
 *   -EINVAL    a uid, gid or mode of all ones (indistinguishable from
 *              "not set"), nseconds >= 10^9, a time_how that is not one,
 *              or SET_TO_SERVER_TIME with now == NULL.
 * SET_TO_SERVER_TIME is sent as {now->seconds, 1000000}; now may be NULL
 * when neither time is SET_TO_SERVER_TIME.  *out is filled only on success.
 */
int nfs2_sattr_from_sattr3(const struct sattr3 *s, struct nfs2_sattr *out,
			   const struct nfstime3 *now);

/*
 * 64-bit file ranges -> NFSv2 READ/WRITE arguments.  A range never reaches
 * past NFS2_MAXFILESIZE; *count32 is clipped to the bytes that fit (and to
 * NFS2_MAXDATA), so it may come back smaller than count (a short read or
 * write, as POSIX has at the file size limit), even 0 for a read at the
 * limit.
 *   nfs2_read_range:  offset > NFS2_MAXFILESIZE -> -EOVERFLOW.
 *   nfs2_write_range: offset > NFS2_MAXFILESIZE, or offset ==
 *                     NFS2_MAXFILESIZE with count > 0 -> -EFBIG.
 * The outputs are written only on success.
 */
int nfs2_read_range(uint64_t offset, uint32_t count, uint32_t *offset32,
		    uint32_t *count32);
int nfs2_write_range(uint64_t offset, uint32_t count, uint32_t *offset32,
		     uint32_t *count32);

/* nfsstat -> nfsstat3.  The v2 numbers are kept (they are v3 numbers);
 * NFSERR_WFLUSH becomes NFS3ERR_IO.  Values outside RFC 1094 that servers
 * are known to send and that mean the same in v3 (XDEV 18, INVAL 22,
 * MLINK 31, REMOTE 71) are kept; anything else becomes NFS3ERR_IO. */
uint32_t nfs2_stat_to_nfsstat3(uint32_t status);

/* fhandle <-> nfs_fh3.  A v3-typed handle converts back only when it is
 * exactly NFS2_FHSIZE bytes long (-EINVAL otherwise). */
void nfs2_fh_to_fh3(const struct nfs2_fh *fh, struct nfs_fh3 *out);
int nfs2_fh_from_fh3(const struct nfs_fh3 *fh, struct nfs2_fh *out);

#endif
