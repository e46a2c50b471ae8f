/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFS version 4.1 (RFC 8881) and 4.2 (RFC 7862): COMPOUND and CB_COMPOUND
 * framing, the common types, the arguments and results of the operations
 * a client sends, the attributes it reads and sets (fattr4), and the
 * callbacks it answers on the backchannel.  The operations' structures
 * are in nfs4_ops.h and the callbacks' in nfs4_cb.h, both included at the
 * end of this header: include this one.
 *
 * Building a COMPOUND: nfs4_compound_start() writes the tag and minor
 * version into an encoder, then nfs4_compound_add() (or the typed
 * nfs4_add_<op>() wrappers) appends one operation at a time with its
 * arguments; the operation count is kept current after every add, so the
 * message is complete whenever xdr_enc_error() is 0.  The operation numbers
 * sent are remembered in the compound for the reply walk.
 *
 * Reading the reply: nfs4_dec_compound_res() reads the status and tag,
 * then nfs4_compound_next() decodes one result at a time, checking that its
 * operation number is the one expected.  The server stops at the first
 * operation that fails; so does the walk: after a non-OK result the next
 * call returns -ENODATA, as it does when the results run out early (the
 * compound status then says why).  A result for NFS4OP_ILLEGAL (a server
 * that does not know the operation, e.g. a 4.2 operation on a 4.1 server)
 * is taken for the operation expected, with its status (NFS4ERR_OP_ILLEGAL)
 * and nothing else.
 *
 * Every result structure begins with `uint32_t status`; decoders zero the
 * structure first, so fields of an arm not sent read as 0/false/NULL.
 * Decoders return 0 or -EBADMSG (malformed, an operation out of order,
 * a count or length over the limits below); the NFS status is data.
 *
 * Ownership: file handles, stateids, verifiers, session ids and bitmaps
 * are small and copied into the structures.  Strings (struct nfs4_str),
 * READ data, READDIR entries, ACL entries, opaque owners and the raw
 * bytes of a fattr4 point into the buffer being decoded and are valid
 * only as long as that buffer (the RPC reply, or the callback request).
 * Strings are NOT NUL-terminated.  On the encoding side every pointer is
 * the caller's and is read only during the call.
 */
#ifndef NFSFUSE_XDR_NFS4_H
#define NFSFUSE_XDR_NFS4_H

#include <string.h>

#include "xdr.h"
#include "nfs3.h"

#define NFS4_PROGRAM 100003u
#define NFS4_VERSION 4u
/* Procedures of the NFS program at version 4 and of the callback program. */
#define NFS4_PROC_NULL 0u
#define NFS4_PROC_COMPOUND 1u
#define NFS4_CB_PROC_NULL 0u
#define NFS4_CB_PROC_COMPOUND 1u

#define NFS4_FHSIZE 128
#define NFS4_VERIFIER_SIZE 8
#define NFS4_OTHER_SIZE 12
#define NFS4_SESSIONID_SIZE 16
#define NFS4_OPAQUE_LIMIT 1024u
/* Limits we accept from the wire (the RFC leaves these unbounded). */
#define NFS4_MAXNAMLEN 255u   /* a component4 */
#define NFS4_MAXPATHLEN 4096u /* a linktext4 */
#define NFS4_MAXDATA (4u << 20)
#define NFS4_MAXTAG 1024u
#define NFS4_MAXOPS 64u       /* operations in one COMPOUND, either way */
#define NFS4_MAXSTR NFS4_OPAQUE_LIMIT /* owner strings, ACL who, impl ids */
#define NFS4_MAXSTATEIDS 1024u /* TEST_STATEID */
#define NFS4_MAXSECINFO 16u   /* flavors kept from SECINFO_NO_NAME */
#define NFS4_MAXACES 4096u    /* entries of one ACL */
#define NFS4_MAXREFCALLS 256u /* referring calls in one CB_SEQUENCE */
/* Attribute bitmaps: words we keep; longer ones must be zero past them. */
#define NFS4_BITMAP_WORDS 3
#define NFS4_BITMAP_WIRE_MAX 64u

/* ---- operation numbers ---- */

enum nfs4_op {
	NFS4OP_ACCESS = 3,
	NFS4OP_CLOSE = 4,
	NFS4OP_COMMIT = 5,
	NFS4OP_CREATE = 6,
	NFS4OP_DELEGPURGE = 7,
	NFS4OP_DELEGRETURN = 8,
	NFS4OP_GETATTR = 9,
	NFS4OP_GETFH = 10,
	NFS4OP_LINK = 11,
	NFS4OP_LOCK = 12,
	NFS4OP_LOCKT = 13,
	NFS4OP_LOCKU = 14,
	NFS4OP_LOOKUP = 15,
	NFS4OP_LOOKUPP = 16,
	NFS4OP_NVERIFY = 17,
	NFS4OP_OPEN = 18,
	NFS4OP_OPENATTR = 19,
	NFS4OP_OPEN_CONFIRM = 20,
	NFS4OP_OPEN_DOWNGRADE = 21,
	NFS4OP_PUTFH = 22,
	NFS4OP_PUTPUBFH = 23,
	NFS4OP_PUTROOTFH = 24,
	NFS4OP_READ = 25,
	NFS4OP_READDIR = 26,
	NFS4OP_READLINK = 27,
	NFS4OP_REMOVE = 28,
	NFS4OP_RENAME = 29,
	NFS4OP_RENEW = 30,
	NFS4OP_RESTOREFH = 31,
	NFS4OP_SAVEFH = 32,
	NFS4OP_SECINFO = 33,
	NFS4OP_SETATTR = 34,
	NFS4OP_SETCLIENTID = 35,
	NFS4OP_SETCLIENTID_CONFIRM = 36,
	NFS4OP_VERIFY = 37,
	NFS4OP_WRITE = 38,
	NFS4OP_RELEASE_LOCKOWNER = 39,
	NFS4OP_BACKCHANNEL_CTL = 40,
	NFS4OP_BIND_CONN_TO_SESSION = 41,
	NFS4OP_EXCHANGE_ID = 42,
	NFS4OP_CREATE_SESSION = 43,
	NFS4OP_DESTROY_SESSION = 44,
	NFS4OP_FREE_STATEID = 45,
	NFS4OP_GET_DIR_DELEGATION = 46,
	NFS4OP_GETDEVICEINFO = 47,
	NFS4OP_GETDEVICELIST = 48,
	NFS4OP_LAYOUTCOMMIT = 49,
	NFS4OP_LAYOUTGET = 50,
	NFS4OP_LAYOUTRETURN = 51,
	NFS4OP_SECINFO_NO_NAME = 52,
	NFS4OP_SEQUENCE = 53,
	NFS4OP_SET_SSV = 54,
	NFS4OP_TEST_STATEID = 55,
	NFS4OP_WANT_DELEGATION = 56,
	NFS4OP_DESTROY_CLIENTID = 57,
	NFS4OP_RECLAIM_COMPLETE = 58,
	/* 4.2 */
	NFS4OP_ALLOCATE = 59,
	NFS4OP_COPY = 60,
	NFS4OP_COPY_NOTIFY = 61,
	NFS4OP_DEALLOCATE = 62,
	NFS4OP_IO_ADVISE = 63,
	NFS4OP_LAYOUTERROR = 64,
	NFS4OP_LAYOUTSTATS = 65,
	NFS4OP_OFFLOAD_CANCEL = 66,
	NFS4OP_OFFLOAD_STATUS = 67,
	NFS4OP_READ_PLUS = 68,
	NFS4OP_SEEK = 69,
	NFS4OP_WRITE_SAME = 70,
	NFS4OP_CLONE = 71,
	/* RFC 8276: extended attributes */
	NFS4OP_GETXATTR = 72,
	NFS4OP_SETXATTR = 73,
	NFS4OP_LISTXATTRS = 74,
	NFS4OP_REMOVEXATTR = 75,
	NFS4OP_ILLEGAL = 10044
};

enum nfs4_cb_op {
	NFS4CBOP_GETATTR = 3,
	NFS4CBOP_RECALL = 4,
	NFS4CBOP_LAYOUTRECALL = 5,
	NFS4CBOP_NOTIFY = 6,
	NFS4CBOP_PUSH_DELEG = 7,
	NFS4CBOP_RECALL_ANY = 8,
	NFS4CBOP_RECALLABLE_OBJ_AVAIL = 9,
	NFS4CBOP_RECALL_SLOT = 10,
	NFS4CBOP_SEQUENCE = 11,
	NFS4CBOP_WANTS_CANCELLED = 12,
	NFS4CBOP_NOTIFY_LOCK = 13,
	NFS4CBOP_NOTIFY_DEVICEID = 14,
	NFS4CBOP_OFFLOAD = 15,
	NFS4CBOP_ILLEGAL = 10044
};

/* "SEQUENCE", "CB_RECALL"; NULL for a number not in the protocol. */
/* Operation names by number, NULL where no operation has that number
 * (NFS4OP_ILLEGAL is not in it): NFS4OP_REMOVEXATTR is the last. */
#define NFS4_OP_NAMES 76u
extern const char *const nfs4_op_names[NFS4_OP_NAMES];
const char *nfs4_op_name(uint32_t op);
const char *nfs4_cb_op_name(uint32_t op);

/* ---- status codes ---- */

enum nfsstat4 {
	NFS4_OK = 0,
	NFS4ERR_PERM = 1,
	NFS4ERR_NOENT = 2,
	NFS4ERR_IO = 5,
	NFS4ERR_NXIO = 6,
	NFS4ERR_ACCESS = 13,
	NFS4ERR_EXIST = 17,
	NFS4ERR_XDEV = 18,
	NFS4ERR_NOTDIR = 20,
	NFS4ERR_ISDIR = 21,
	NFS4ERR_INVAL = 22,
	NFS4ERR_FBIG = 27,
	NFS4ERR_NOSPC = 28,
	NFS4ERR_ROFS = 30,
	NFS4ERR_MLINK = 31,
	NFS4ERR_NAMETOOLONG = 63,
	NFS4ERR_NOTEMPTY = 66,
	NFS4ERR_DQUOT = 69,
	NFS4ERR_STALE = 70,
	NFS4ERR_BADHANDLE = 10001,
	NFS4ERR_BAD_COOKIE = 10003,
	NFS4ERR_NOTSUPP = 10004,
	NFS4ERR_TOOSMALL = 10005,
	NFS4ERR_SERVERFAULT = 10006,
	NFS4ERR_BADTYPE = 10007,
	NFS4ERR_DELAY = 10008,
	NFS4ERR_SAME = 10009,
	NFS4ERR_DENIED = 10010,
	NFS4ERR_EXPIRED = 10011,
	NFS4ERR_LOCKED = 10012,
	NFS4ERR_GRACE = 10013,
	NFS4ERR_FHEXPIRED = 10014,
	NFS4ERR_SHARE_DENIED = 10015,
	NFS4ERR_WRONGSEC = 10016,
	NFS4ERR_CLID_INUSE = 10017,
	NFS4ERR_RESOURCE = 10018,
	NFS4ERR_MOVED = 10019,
	NFS4ERR_NOFILEHANDLE = 10020,
	NFS4ERR_MINOR_VERS_MISMATCH = 10021,
	NFS4ERR_STALE_CLIENTID = 10022,
	NFS4ERR_STALE_STATEID = 10023,
	NFS4ERR_OLD_STATEID = 10024,
	NFS4ERR_BAD_STATEID = 10025,
	NFS4ERR_BAD_SEQID = 10026,
	NFS4ERR_NOT_SAME = 10027,
	NFS4ERR_LOCK_RANGE = 10028,
	NFS4ERR_SYMLINK = 10029,
	NFS4ERR_RESTOREFH = 10030,
	NFS4ERR_LEASE_MOVED = 10031,
	NFS4ERR_ATTRNOTSUPP = 10032,
	NFS4ERR_NO_GRACE = 10033,
	NFS4ERR_RECLAIM_BAD = 10034,
	NFS4ERR_RECLAIM_CONFLICT = 10035,
	NFS4ERR_BADXDR = 10036,
	NFS4ERR_LOCKS_HELD = 10037,
	NFS4ERR_OPENMODE = 10038,
	NFS4ERR_BADOWNER = 10039,
	NFS4ERR_BADCHAR = 10040,
	NFS4ERR_BADNAME = 10041,
	NFS4ERR_BAD_RANGE = 10042,
	NFS4ERR_LOCK_NOTSUPP = 10043,
	NFS4ERR_OP_ILLEGAL = 10044,
	NFS4ERR_DEADLOCK = 10045,
	NFS4ERR_FILE_OPEN = 10046,
	NFS4ERR_ADMIN_REVOKED = 10047,
	NFS4ERR_CB_PATH_DOWN = 10048,
	NFS4ERR_BADIOMODE = 10049,
	NFS4ERR_BADLAYOUT = 10050,
	NFS4ERR_BAD_SESSION_DIGEST = 10051,
	NFS4ERR_BADSESSION = 10052,
	NFS4ERR_BADSLOT = 10053,
	NFS4ERR_COMPLETE_ALREADY = 10054,
	NFS4ERR_CONN_NOT_BOUND_TO_SESSION = 10055,
	NFS4ERR_DELEG_ALREADY_WANTED = 10056,
	NFS4ERR_BACK_CHAN_BUSY = 10057,
	NFS4ERR_LAYOUTTRYLATER = 10058,
	NFS4ERR_LAYOUTUNAVAILABLE = 10059,
	NFS4ERR_NOMATCHING_LAYOUT = 10060,
	NFS4ERR_RECALLCONFLICT = 10061,
	NFS4ERR_UNKNOWN_LAYOUTTYPE = 10062,
	NFS4ERR_SEQ_MISORDERED = 10063,
	NFS4ERR_SEQUENCE_POS = 10064,
	NFS4ERR_REQ_TOO_BIG = 10065,
	NFS4ERR_REP_TOO_BIG = 10066,
	NFS4ERR_REP_TOO_BIG_TO_CACHE = 10067,
	NFS4ERR_RETRY_UNCACHED_REP = 10068,
	NFS4ERR_UNSAFE_COMPOUND = 10069,
	NFS4ERR_TOO_MANY_OPS = 10070,
	NFS4ERR_OP_NOT_IN_SESSION = 10071,
	NFS4ERR_HASH_ALG_UNSUPP = 10072,
	NFS4ERR_CLIENTID_BUSY = 10074,
	NFS4ERR_PNFS_IO_HOLE = 10075,
	NFS4ERR_SEQ_FALSE_RETRY = 10076,
	NFS4ERR_BAD_HIGH_SLOT = 10077,
	NFS4ERR_DEADSESSION = 10078,
	NFS4ERR_ENCR_ALG_UNSUPP = 10079,
	NFS4ERR_PNFS_NO_LAYOUT = 10080,
	NFS4ERR_NOT_ONLY_OP = 10081,
	NFS4ERR_WRONG_CRED = 10082,
	NFS4ERR_WRONG_TYPE = 10083,
	NFS4ERR_DIRDELEG_UNAVAIL = 10084,
	NFS4ERR_REJECT_DELEG = 10085,
	NFS4ERR_RETURNCONFLICT = 10086,
	NFS4ERR_DELEG_REVOKED = 10087,
	NFS4ERR_PARTNER_NOTSUPP = 10088,
	NFS4ERR_PARTNER_NO_AUTH = 10089,
	NFS4ERR_UNION_NOTSUPP = 10090,
	NFS4ERR_OFFLOAD_DENIED = 10091,
	NFS4ERR_WRONG_LFS = 10092,
	NFS4ERR_BADLABEL = 10093,
	NFS4ERR_OFFLOAD_NO_REQS = 10094,
	NFS4ERR_NOXATTR = 10095,          /* RFC 8276 */
	NFS4ERR_XATTR2BIG = 10096
};

/* "NFS4ERR_BADSESSION", or NULL if unknown. */
const char *nfs4_stat_name(uint32_t status);

enum nfs_ftype4 {
	NF4REG = 1,
	NF4DIR = 2,
	NF4BLK = 3,
	NF4CHR = 4,
	NF4LNK = 5,
	NF4SOCK = 6,
	NF4FIFO = 7,
	NF4ATTRDIR = 8,
	NF4NAMEDATTR = 9
};

/* ---- common types ---- */

/* A UTF-8 string or opaque: (pointer, length), not NUL-terminated. */
struct nfs4_str {
	const char *s;
	uint32_t len;
};
/* A C string as an nfs4_str (for arguments). */
static inline struct nfs4_str nfs4_str(const char *s)
{
	struct nfs4_str r = { s, s ? (uint32_t)strlen(s) : 0 };

	return r;
}

struct nfs4_stateid {
	uint32_t seqid;
	uint8_t other[NFS4_OTHER_SIZE];
};

struct nfs4_fh {
	uint32_t len; /* 1..NFS4_FHSIZE on the wire; 0 only in errors */
	uint8_t data[NFS4_FHSIZE];
};

struct nfs4_bitmap {
	uint32_t w[NFS4_BITMAP_WORDS];
};
static inline void nfs4_bitmap_set(struct nfs4_bitmap *b, unsigned bit)
{
	if (bit < 32 * NFS4_BITMAP_WORDS)
		b->w[bit / 32] |= 1u << (bit % 32);
}
static inline bool nfs4_bitmap_isset(const struct nfs4_bitmap *b,
				     unsigned bit)
{
	return bit < 32 * NFS4_BITMAP_WORDS &&
	       (b->w[bit / 32] >> (bit % 32) & 1u);
}

struct nfs4_time {
	int64_t seconds;
	uint32_t nseconds; /* < 10^9 on the wire, else malformed */
};

struct nfs4_fsid {
	uint64_t major;
	uint64_t minor;
};

struct nfs4_specdata {
	uint32_t specdata1;
	uint32_t specdata2;
};

struct nfs4_change_info {
	bool atomic;
	uint64_t before;
	uint64_t after;
};

/* An open_owner4 or lock_owner4: the client id and an owner of at most
 * NFS4_OPAQUE_LIMIT bytes. */
struct nfs4_owner {
	uint64_t clientid;
	const uint8_t *owner;
	uint32_t owner_len;
};

/* Common type codecs, exported for the unit tests and the other nfs4 files. */
int nfs4_enc_stateid(struct xdr_enc *e, const struct nfs4_stateid *s);
int nfs4_dec_stateid(struct xdr_dec *d, struct nfs4_stateid *s);
int nfs4_enc_fh(struct xdr_enc *e, const struct nfs4_fh *fh);
int nfs4_dec_fh(struct xdr_dec *d, struct nfs4_fh *fh);
/* Trailing zero words are not sent, but at least one word is. */
int nfs4_enc_bitmap(struct xdr_enc *e, const struct nfs4_bitmap *b);
/* Up to NFS4_BITMAP_WIRE_MAX words; bits past NFS4_BITMAP_WORDS are
 * dropped, and *beyond (may be NULL) says whether any was set. */
int nfs4_dec_bitmap(struct xdr_dec *d, struct nfs4_bitmap *b, bool *beyond);
int nfs4_enc_time(struct xdr_enc *e, const struct nfs4_time *t);
int nfs4_dec_time(struct xdr_dec *d, struct nfs4_time *t);
int nfs4_enc_str(struct xdr_enc *e, uint32_t max, const struct nfs4_str *s);
/* A utf8 string: not empty? no; no NUL inside (it could not be a name). */
int nfs4_dec_str(struct xdr_dec *d, uint32_t max, struct nfs4_str *s);
int nfs4_enc_owner(struct xdr_enc *e, const struct nfs4_owner *o);
int nfs4_dec_owner(struct xdr_dec *d, struct nfs4_owner *o);
int nfs4_dec_change_info(struct xdr_dec *d, struct nfs4_change_info *c);
int nfs4_enc_change_info(struct xdr_enc *e, const struct nfs4_change_info *c);

/* ---- attributes (fattr4) ---- */

enum nfs4_fattr_bit {
	NFS4_FATTR_SUPPORTED_ATTRS = 0,
	NFS4_FATTR_TYPE = 1,
	NFS4_FATTR_FH_EXPIRE_TYPE = 2,
	NFS4_FATTR_CHANGE = 3,
	NFS4_FATTR_SIZE = 4,
	NFS4_FATTR_LINK_SUPPORT = 5,
	NFS4_FATTR_SYMLINK_SUPPORT = 6,
	NFS4_FATTR_NAMED_ATTR = 7,
	NFS4_FATTR_FSID = 8,
	NFS4_FATTR_UNIQUE_HANDLES = 9,
	NFS4_FATTR_LEASE_TIME = 10,
	NFS4_FATTR_RDATTR_ERROR = 11,
	NFS4_FATTR_ACL = 12,
	NFS4_FATTR_ACLSUPPORT = 13,
	NFS4_FATTR_ARCHIVE = 14,
	NFS4_FATTR_CANSETTIME = 15,
	NFS4_FATTR_CASE_INSENSITIVE = 16,
	NFS4_FATTR_CASE_PRESERVING = 17,
	NFS4_FATTR_CHOWN_RESTRICTED = 18,
	NFS4_FATTR_FILEHANDLE = 19,
	NFS4_FATTR_FILEID = 20,
	NFS4_FATTR_FILES_AVAIL = 21,
	NFS4_FATTR_FILES_FREE = 22,
	NFS4_FATTR_FILES_TOTAL = 23,
	NFS4_FATTR_FS_LOCATIONS = 24,
	NFS4_FATTR_HIDDEN = 25,
	NFS4_FATTR_HOMOGENEOUS = 26,
	NFS4_FATTR_MAXFILESIZE = 27,
	NFS4_FATTR_MAXLINK = 28,
	NFS4_FATTR_MAXNAME = 29,
	NFS4_FATTR_MAXREAD = 30,
	NFS4_FATTR_MAXWRITE = 31,
	NFS4_FATTR_MIMETYPE = 32,
	NFS4_FATTR_MODE = 33,
	NFS4_FATTR_NO_TRUNC = 34,
	NFS4_FATTR_NUMLINKS = 35,
	NFS4_FATTR_OWNER = 36,
	NFS4_FATTR_OWNER_GROUP = 37,
	NFS4_FATTR_QUOTA_AVAIL_HARD = 38,
	NFS4_FATTR_QUOTA_AVAIL_SOFT = 39,
	NFS4_FATTR_QUOTA_USED = 40,
	NFS4_FATTR_RAWDEV = 41,
	NFS4_FATTR_SPACE_AVAIL = 42,
	NFS4_FATTR_SPACE_FREE = 43,
	NFS4_FATTR_SPACE_TOTAL = 44,
	NFS4_FATTR_SPACE_USED = 45,
	NFS4_FATTR_SYSTEM = 46,
	NFS4_FATTR_TIME_ACCESS = 47,
	NFS4_FATTR_TIME_ACCESS_SET = 48,
	NFS4_FATTR_TIME_BACKUP = 49,
	NFS4_FATTR_TIME_CREATE = 50,
	NFS4_FATTR_TIME_DELTA = 51,
	NFS4_FATTR_TIME_METADATA = 52,
	NFS4_FATTR_TIME_MODIFY = 53,
	NFS4_FATTR_TIME_MODIFY_SET = 54,
	NFS4_FATTR_MOUNTED_ON_FILEID = 55,
	NFS4_FATTR_SUPPATTR_EXCLCREAT = 75,
	NFS4_FATTR_COUNT = 76 /* bits past this one are not decoded */
};

/* settime4: how a time is set (time_access_set, time_modify_set). */
enum nfs4_time_how {
	NFS4_SET_TO_SERVER_TIME = 0,
	NFS4_SET_TO_CLIENT_TIME = 1
};
struct nfs4_settime {
	uint32_t how;          /* enum nfs4_time_how */
	struct nfs4_time time; /* NFS4_SET_TO_CLIENT_TIME */
};

/* ACE types, flags and mask bits (acetype4, aceflag4, acemask4). */
#define NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE 0u
#define NFS4_ACE_ACCESS_DENIED_ACE_TYPE 1u
#define NFS4_ACE_SYSTEM_AUDIT_ACE_TYPE 2u
#define NFS4_ACE_SYSTEM_ALARM_ACE_TYPE 3u
#define NFS4_ACL_SUPPORT_ALLOW_ACL 0x1u
#define NFS4_ACL_SUPPORT_DENY_ACL 0x2u

struct nfs4_ace {
	uint32_t type;
	uint32_t flag;
	uint32_t access_mask;
	struct nfs4_str who;
};
/*
 * An ACL.  Decoded: naces entries checked once, `raw` the bytes of the
 * entries in the buffer (walk them with nfs4_acl_next), `aces` NULL.
 * To encode: either `aces` (naces entries of the caller's) or, when aces
 * is NULL, raw as decoded (to send back an ACL read earlier).
 */
struct nfs4_acl {
	uint32_t naces;
	const struct nfs4_ace *aces;
	const uint8_t *raw;
	uint32_t raw_len;
};
int nfs4_enc_ace(struct xdr_enc *e, const struct nfs4_ace *ace);
int nfs4_dec_ace(struct xdr_dec *d, struct nfs4_ace *ace);
/* it = xdr_dec over (raw, raw_len); 1: *ace filled, 0: end, <0 malformed. */
int nfs4_acl_next(struct xdr_dec *it, struct nfs4_ace *ace);
/* fattr4_acl (nfsace4<>): the count, then each entry.  The decoder
 * bounds the count by NFS4_MAXACES and each who by NFS4_MAXSTR and
 * leaves the entries raw; -EBADMSG when malformed.  The encoder sends
 * aces, or raw as decoded; -EINVAL (sticky) for a count over the bound
 * or raw bytes that are not whole XDR units. */
int nfs4_dec_acl(struct xdr_dec *d, struct nfs4_acl *acl);
int nfs4_enc_acl(struct xdr_enc *e, const struct nfs4_acl *acl);

/* aceflag4 and acemask4 bits (RFC 8881 §6.2.1.4, §6.2.1.3). */
#define NFS4_ACE_FILE_INHERIT 0x1u
#define NFS4_ACE_DIRECTORY_INHERIT 0x2u
#define NFS4_ACE_NO_PROPAGATE_INHERIT 0x4u
#define NFS4_ACE_INHERIT_ONLY 0x8u
#define NFS4_ACE_SUCCESSFUL_ACCESS 0x10u
#define NFS4_ACE_FAILED_ACCESS 0x20u
#define NFS4_ACE_IDENTIFIER_GROUP 0x40u
#define NFS4_ACE_INHERITED 0x80u
#define NFS4_ACE_FLAGS_ALL 0xffu
#define NFS4_ACE_READ_DATA 0x1u
#define NFS4_ACE_WRITE_DATA 0x2u
#define NFS4_ACE_APPEND_DATA 0x4u
#define NFS4_ACE_READ_NAMED_ATTRS 0x8u
#define NFS4_ACE_WRITE_NAMED_ATTRS 0x10u
#define NFS4_ACE_EXECUTE 0x20u
#define NFS4_ACE_DELETE_CHILD 0x40u
#define NFS4_ACE_READ_ATTRIBUTES 0x80u
#define NFS4_ACE_WRITE_ATTRIBUTES 0x100u
#define NFS4_ACE_WRITE_RETENTION 0x200u
#define NFS4_ACE_WRITE_RETENTION_HOLD 0x400u
#define NFS4_ACE_DELETE 0x10000u
#define NFS4_ACE_READ_ACL 0x20000u
#define NFS4_ACE_WRITE_ACL 0x40000u
#define NFS4_ACE_WRITE_OWNER 0x80000u
#define NFS4_ACE_SYNCHRONIZE 0x100000u
#define NFS4_ACE_MASK_ALL 0x1f07ffu

/*
 * The value of the system.nfs4_acl extended attribute, as the Linux
 * client gives and takes it and nfs4_getfacl/nfs4_setfacl read and write
 * it: the XDR of fattr4_acl itself, the count and then the entries, who
 * strings as the server sends them ("OWNER@", "user@domain", a number).
 *
 * nfs4_acl_to_xattr: the value of a decoded ACL (or of aces) into buf
 * (size bytes; buf NULL or size 0 asks for the length only).  Returns
 * the length, -ERANGE when it does not fit, -EINVAL when over the
 * bounds.
 *
 * nfs4_acl_from_xattr: checks a value given to setxattr: at most
 * NFS4_MAXACES entries, each of a known type (allow, deny, audit,
 * alarm), only the flag and mask bits RFC 8881 defines, a who of 1 to
 * NFS4_MAXSTR bytes without NUL, and no byte after the last entry.
 * 0 with *acl the entries raw in value (send it with nfs4_enc_acl), or
 * -EINVAL.
 */
long nfs4_acl_to_xattr(const struct nfs4_acl *acl, void *buf, size_t size);
int nfs4_acl_from_xattr(const void *value, size_t size, struct nfs4_acl *acl);

/*
 * The attributes this client reads or sets.  `mask` says which are
 * present: after a decode, those the server sent and this code decoded;
 * for an encode, those to send (each must be one this code knows, else
 * -EINVAL).  A reply may carry attributes this code does not decode: the
 * known ones are read in bit order up to the first unknown one, the rest
 * of the (length-delimited) values are skipped and left out of `mask`,
 * and `skipped` says so.
 */
struct nfs4_fattr {
	struct nfs4_bitmap mask;
	bool skipped;
	struct nfs4_bitmap supported_attrs;
	uint32_t type;           /* enum nfs_ftype4 */
	uint32_t fh_expire_type;
	uint64_t change;
	uint64_t size;
	bool link_support;
	bool symlink_support;
	struct nfs4_fsid fsid;
	uint32_t lease_time;     /* seconds */
	uint32_t rdattr_error;   /* nfsstat4 */
	struct nfs4_acl acl;
	uint32_t aclsupport;
	struct nfs4_fh filehandle;
	uint64_t fileid;
	uint64_t files_avail;
	uint64_t files_free;
	uint64_t files_total;
	uint64_t maxfilesize;
	uint32_t maxname;
	uint64_t maxread;
	uint64_t maxwrite;
	uint32_t mode;           /* the 12 low bits: permissions, suid, sgid, sticky */
	uint32_t numlinks;
	struct nfs4_str owner;       /* "user@domain" or a number: not mapped here */
	struct nfs4_str owner_group;
	struct nfs4_specdata rawdev;
	uint64_t space_avail;
	uint64_t space_free;
	uint64_t space_total;
	uint64_t space_used;
	struct nfs4_time time_access;
	struct nfs4_settime time_access_set; /* to set only */
	struct nfs4_time time_delta;
	struct nfs4_time time_metadata;
	struct nfs4_time time_modify;
	struct nfs4_settime time_modify_set; /* to set only */
	uint64_t mounted_on_fileid;
	struct nfs4_bitmap suppattr_exclcreat;
};

/* fattr4: the bitmap, then the values as one opaque. */
int nfs4_enc_fattr(struct xdr_enc *e, const struct nfs4_fattr *a);
int nfs4_dec_fattr(struct xdr_dec *d, struct nfs4_fattr *a);
/* Whether this code can decode and encode attribute `bit`. */
bool nfs4_fattr_known(unsigned bit);

/* The attributes the client asks for to fill a fattr3 (GETATTR, READDIR,
 * and after every change): type, change, size, fsid, fileid, mode,
 * numlinks, owner, owner_group, rawdev, space_used, the three times and
 * mounted_on_fileid. */
extern const struct nfs4_bitmap nfs4_fattr3_request;

/*
 * Attributes as the upper layers use them: the v3 fattr3 with the change
 * attribute beside it and the owner strings as the server sent them.  uid
 * and gid in `attr` are left 0: the owner strings are mapped above.
 */
struct nfs4_attr3 {
	struct fattr3 attr;
	uint64_t change;
	struct nfs4_str owner;
	struct nfs4_str owner_group;
	struct nfs4_bitmap missing; /* of nfs4_fattr3_request, not sent */
};
/* fsid folded into 64 bits (major ^ minor rotated); times before 1970 or
 * after 2106 clamped to what nfstime3 holds.  Returns 0 when every
 * attribute of nfs4_fattr3_request was present, else -ENODATA (with the
 * present ones filled and `missing` saying which were not). */
int nfs4_fattr_to_attr3(const struct nfs4_fattr *f, struct nfs4_attr3 *out);
/* A sattr3 as fattr4 values to set: mode, size, times; owner and group
 * are the (already mapped) strings, each NULL to leave it.  set_uid and
 * set_gid in s are ignored: pass the strings.  Returns 0, or -EINVAL for
 * a time_how this code does not know. */
int nfs4_fattr_from_sattr3(const struct sattr3 *s, const char *owner,
			   const char *owner_group, struct nfs4_fattr *out);

/* ---- COMPOUND ---- */

struct nfs4_compound {
	struct xdr_enc *e;
	size_t nops_at;          /* offset of the operation count in e->buf */
	uint32_t nops;
	uint32_t ops[NFS4_MAXOPS];
	bool cb;                 /* a CB_COMPOUND (nfs4_cb_compound_start) */
};

/* The COMPOUND arguments' head: tag (NUL-terminated, may be "" or NULL),
 * minor version, an operation count of 0 for now. */
int nfs4_compound_start(struct nfs4_compound *c, struct xdr_enc *e,
			const char *tag, uint32_t minorversion);
/* One operation and its arguments (the nfs4_<op>_args named for it; NULL
 * for the operations without arguments).  -EINVAL for an operation this
 * code cannot encode, -E2BIG past NFS4_MAXOPS; errors are sticky in e. */
int nfs4_compound_add(struct nfs4_compound *c, uint32_t op, const void *args);

struct nfs4_compound_res {
	uint32_t status;         /* the compound's: that of the last result */
	struct nfs4_str tag;     /* into the reply */
	uint32_t nres;           /* results the reply carries */
	uint32_t next;           /* results decoded so far */
	bool stopped;            /* a result was not NFS4_OK */
	bool cb;                 /* a CB_COMPOUND reply */
	struct xdr_dec d;        /* the rest of the reply */
};
/* Reads the status, the tag and the result count; the rest of d (to its
 * end) is the walk's.  -EBADMSG if malformed or over NFS4_MAXOPS. */
int nfs4_dec_compound_res(struct xdr_dec *d, struct nfs4_compound_res *r);
/* The next result, which must be for `op`, into res (the result structure
 * named for op: nfs4_status_res for status-only results).  0: decoded, see
 * res->status; -ENODATA: no more results; -EBADMSG: malformed, another
 * operation, or results after a failed one. */
int nfs4_compound_next(struct nfs4_compound_res *r, uint32_t op, void *res);

/*
 * The codecs of each operation, for the fuzz harness, the tests and the
 * callback server: proc is the operation number, NULL codecs are void
 * (or, for dec_args/enc_res of fore-channel operations, not written:
 * this client is not a server).  NULL for an operation not supported.
 */
const struct xdr_proc_codec *nfs4_op_codec(uint32_t op);
const struct xdr_proc_codec *nfs4_cb_op_codec(uint32_t op);

/* The operations' arguments and results, and the callbacks. */
#include "nfs4_ops.h"
#include "nfs4_cb.h"

#endif
