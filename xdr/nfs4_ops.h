/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1/4.2 operations: the arguments and results of each operation the
 * client sends (nfs4_ops.c, nfs4_ops_io.c), the typed wrappers of
 * nfs4_compound_add() and the per-operation codecs.  Included by nfs4.h,
 * whose conventions (ownership, status, zeroed results) hold here.
 */
#ifndef NFSFUSE_XDR_NFS4_OPS_H
#define NFSFUSE_XDR_NFS4_OPS_H

#ifndef NFSFUSE_XDR_NFS4_H
#error "include nfs4.h, not nfs4_ops.h"
#endif

/* ---- operations a session needs ---- */

/* EXCHANGE_ID flags */
#define NFS4_EXCHGID_FLAG_SUPP_MOVED_REFER 0x00000001u
#define NFS4_EXCHGID_FLAG_SUPP_MOVED_MIGR 0x00000002u
#define NFS4_EXCHGID_FLAG_BIND_PRINC_STATEID 0x00000100u
#define NFS4_EXCHGID_FLAG_USE_NON_PNFS 0x00010000u
#define NFS4_EXCHGID_FLAG_USE_PNFS_MDS 0x00020000u
#define NFS4_EXCHGID_FLAG_USE_PNFS_DS 0x00040000u
#define NFS4_EXCHGID_FLAG_MASK_PNFS 0x00070000u
#define NFS4_EXCHGID_FLAG_UPD_CONFIRMED_REC_A 0x40000000u
#define NFS4_EXCHGID_FLAG_CONFIRMED_R 0x80000000u

enum nfs4_state_protect_how { NFS4_SP4_NONE = 0, NFS4_SP4_MACH_CRED = 1,
			      NFS4_SP4_SSV = 2 };

/* nfs_impl_id4: who wrote the software at the other end (optional). */
struct nfs4_impl_id {
	struct nfs4_str domain;
	struct nfs4_str name;
	struct nfs4_time date;
};

struct nfs4_exchange_id_args {
	uint8_t verifier[NFS4_VERIFIER_SIZE]; /* changes at each client restart */
	const uint8_t *ownerid;               /* stable: the client owner */
	uint32_t ownerid_len;                 /* 1..NFS4_OPAQUE_LIMIT */
	uint32_t flags;
	/* State protection is always SP4_NONE. */
	bool has_impl_id;
	struct nfs4_impl_id impl_id;
};
struct nfs4_exchange_id_res {
	uint32_t status;
	uint64_t clientid;
	uint32_t sequenceid;
	uint32_t flags;
	uint32_t state_protect; /* enum nfs4_state_protect_how; arms skipped */
	uint64_t server_minor_id;
	struct nfs4_str server_major_id; /* opaque, into the reply */
	struct nfs4_str server_scope;    /* opaque, into the reply */
	bool has_impl_id;
	struct nfs4_impl_id impl_id;
};

/* channel_attrs4 */
struct nfs4_channel_attrs {
	uint32_t headerpadsize;
	uint32_t maxrequestsize;
	uint32_t maxresponsesize;
	uint32_t maxresponsesize_cached;
	uint32_t maxoperations;
	uint32_t maxrequests;
	bool has_rdma_ird;
	uint32_t rdma_ird;
};

#define NFS4_CREATE_SESSION_FLAG_PERSIST 0x1u
#define NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN 0x2u
#define NFS4_CREATE_SESSION_FLAG_CONN_RDMA 0x4u

/* callback_sec_parms4: what the server uses to call us back.  Only
 * AUTH_NONE and AUTH_SYS are encoded (RPCSEC_GSS needs a GSS context). */
struct nfs4_cb_sec {
	uint32_t flavor;             /* RPC_AUTH_NONE (0) or RPC_AUTH_SYS (1) */
	uint32_t stamp;              /* AUTH_SYS */
	const char *machinename;     /* AUTH_SYS, NUL-terminated, <= 255 */
	uint32_t uid, gid;           /* AUTH_SYS */
};

struct nfs4_create_session_args {
	uint64_t clientid;
	uint32_t sequenceid;
	uint32_t flags;
	struct nfs4_channel_attrs fore;
	struct nfs4_channel_attrs back;
	uint32_t cb_program;
	uint32_t nsec;               /* 0..2 */
	struct nfs4_cb_sec sec[2];
};
struct nfs4_create_session_res {
	uint32_t status;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t flags;
	struct nfs4_channel_attrs fore;
	struct nfs4_channel_attrs back;
};

/* SEQUENCE status flags (sr_status_flags) */
#define NFS4_SEQ4_STATUS_CB_PATH_DOWN 0x00000001u
#define NFS4_SEQ4_STATUS_CB_GSS_CONTEXTS_EXPIRING 0x00000002u
#define NFS4_SEQ4_STATUS_CB_GSS_CONTEXTS_EXPIRED 0x00000004u
#define NFS4_SEQ4_STATUS_EXPIRED_ALL_STATE_REVOKED 0x00000008u
#define NFS4_SEQ4_STATUS_EXPIRED_SOME_STATE_REVOKED 0x00000010u
#define NFS4_SEQ4_STATUS_ADMIN_STATE_REVOKED 0x00000020u
#define NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED 0x00000040u
#define NFS4_SEQ4_STATUS_LEASE_MOVED 0x00000080u
#define NFS4_SEQ4_STATUS_RESTART_RECLAIM_NEEDED 0x00000100u
#define NFS4_SEQ4_STATUS_CB_PATH_DOWN_SESSION 0x00000200u
#define NFS4_SEQ4_STATUS_BACKCHANNEL_FAULT 0x00000400u
#define NFS4_SEQ4_STATUS_DEVID_CHANGED 0x00000800u
#define NFS4_SEQ4_STATUS_DEVID_DELETED 0x00001000u

struct nfs4_sequence_args {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
	uint32_t highest_slotid;
	bool cachethis;
};
struct nfs4_sequence_res {
	uint32_t status;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t sequenceid;
	uint32_t slotid;
	uint32_t highest_slotid;
	uint32_t target_highest_slotid;
	uint32_t status_flags;
};

struct nfs4_destroy_session_args {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
};
struct nfs4_destroy_clientid_args {
	uint64_t clientid;
};
struct nfs4_reclaim_complete_args {
	bool one_fs;
};

/* channel_dir_from_client4 / channel_dir_from_server4 */
#define NFS4_CDFC4_FORE 0x1u
#define NFS4_CDFC4_BACK 0x2u
#define NFS4_CDFC4_FORE_OR_BOTH 0x3u
#define NFS4_CDFC4_BACK_OR_BOTH 0x7u
#define NFS4_CDFS4_FORE 0x1u
#define NFS4_CDFS4_BACK 0x2u
#define NFS4_CDFS4_BOTH 0x3u

struct nfs4_bind_conn_args {
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t dir;  /* NFS4_CDFC4_* */
	bool use_rdma;
};
struct nfs4_bind_conn_res {
	uint32_t status;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t dir;  /* NFS4_CDFS4_* */
	bool use_rdma;
};

/* Results that are a status and nothing else: PUTFH, PUTROOTFH, LOOKUP,
 * LOOKUPP, SAVEFH, RESTOREFH, DESTROY_SESSION, DESTROY_CLIENTID,
 * RECLAIM_COMPLETE, VERIFY, NVERIFY, DELEGRETURN, FREE_STATEID, ALLOCATE,
 * DEALLOCATE (and the callbacks' CB_RECALL, CB_NOTIFY_LOCK,
 * CB_RECALL_ANY, CB_LAYOUTRECALL). */
struct nfs4_status_res {
	uint32_t status;
};

struct nfs4_putfh_args {
	struct nfs4_fh fh;
};
struct nfs4_getfh_res {
	uint32_t status;
	struct nfs4_fh fh;
};
struct nfs4_lookup_args {
	struct nfs4_str name; /* 1..NFS4_MAXNAMLEN bytes */
};

struct nfs4_getattr_args {
	struct nfs4_bitmap request;
};
struct nfs4_getattr_res {
	uint32_t status;
	struct nfs4_fattr attrs;
};

enum nfs4_secinfo_style { NFS4_SECINFO_STYLE_CURRENT_FH = 0,
			  NFS4_SECINFO_STYLE_PARENT = 1 };
struct nfs4_secinfo_no_name_args {
	uint32_t style;
};
/* One flavor the server accepts; RPCSEC_GSS (6) with its mechanism. */
struct nfs4_secinfo {
	uint32_t flavor;
	struct nfs4_str oid;  /* RPCSEC_GSS: the mechanism OID, DER bytes */
	uint32_t qop;
	uint32_t service;     /* rpc_gss_svc_t: 1 none, 2 integrity, 3 privacy */
};
struct nfs4_secinfo_res {
	uint32_t status;
	uint32_t count;       /* flavors kept, in the server's order */
	struct nfs4_secinfo flavors[NFS4_MAXSECINFO];
};

/* ---- file operations ---- */

#define NFS4_ACCESS_READ 0x01u
#define NFS4_ACCESS_LOOKUP 0x02u
#define NFS4_ACCESS_MODIFY 0x04u
#define NFS4_ACCESS_EXTEND 0x08u
#define NFS4_ACCESS_DELETE 0x10u
#define NFS4_ACCESS_EXECUTE 0x20u

struct nfs4_access_args {
	uint32_t access;
};
struct nfs4_access_res {
	uint32_t status;
	uint32_t supported;
	uint32_t access;
};

#define NFS4_SHARE_ACCESS_READ 0x1u
#define NFS4_SHARE_ACCESS_WRITE 0x2u
#define NFS4_SHARE_ACCESS_BOTH 0x3u
#define NFS4_SHARE_DENY_NONE 0x0u
#define NFS4_SHARE_DENY_READ 0x1u
#define NFS4_SHARE_DENY_WRITE 0x2u
#define NFS4_SHARE_DENY_BOTH 0x3u
/* 4.1 delegation wishes, or-ed into share_access */
#define NFS4_SHARE_WANT_NO_PREFERENCE 0x0000u
#define NFS4_SHARE_WANT_READ_DELEG 0x0100u
#define NFS4_SHARE_WANT_WRITE_DELEG 0x0200u
#define NFS4_SHARE_WANT_ANY_DELEG 0x0300u
#define NFS4_SHARE_WANT_NO_DELEG 0x0400u
#define NFS4_SHARE_WANT_CANCEL 0x0500u
#define NFS4_SHARE_SIGNAL_DELEG_WHEN_RESRC_AVAIL 0x10000u
#define NFS4_SHARE_PUSH_DELEG_WHEN_UNCONTENDED 0x20000u

enum nfs4_opentype { NFS4_OPEN_NOCREATE = 0, NFS4_OPEN_CREATE = 1 };
enum nfs4_createmode {
	NFS4_CREATE_UNCHECKED = 0,
	NFS4_CREATE_GUARDED = 1,
	NFS4_CREATE_EXCLUSIVE = 2,   /* 4.0 only: not sent by this client */
	NFS4_CREATE_EXCLUSIVE4_1 = 3
};
enum nfs4_open_claim_type {
	NFS4_CLAIM_NULL = 0,
	NFS4_CLAIM_PREVIOUS = 1,
	NFS4_CLAIM_DELEGATE_CUR = 2,
	NFS4_CLAIM_DELEGATE_PREV = 3,
	NFS4_CLAIM_FH = 4,
	NFS4_CLAIM_DELEG_CUR_FH = 5,
	NFS4_CLAIM_DELEG_PREV_FH = 6
};
enum nfs4_open_delegation_type {
	NFS4_OPEN_DELEGATE_NONE = 0,
	NFS4_OPEN_DELEGATE_READ = 1,
	NFS4_OPEN_DELEGATE_WRITE = 2,
	NFS4_OPEN_DELEGATE_NONE_EXT = 3
};
enum nfs4_why_no_delegation {
	NFS4_WND_NOT_WANTED = 0,
	NFS4_WND_CONTENTION = 1,
	NFS4_WND_RESOURCE = 2,
	NFS4_WND_NOT_SUPP_FTYPE = 3,
	NFS4_WND_WRITE_DELEG_NOT_SUPP_FTYPE = 4,
	NFS4_WND_NOT_SUPP_UPGRADE = 5,
	NFS4_WND_NOT_SUPP_DOWNGRADE = 6,
	NFS4_WND_CANCELLED = 7,
	NFS4_WND_IS_DIR = 8
};

/* OPEN result flags (rflags) */
#define NFS4_OPEN_RESULT_CONFIRM 0x2u
#define NFS4_OPEN_RESULT_LOCKTYPE_POSIX 0x4u
#define NFS4_OPEN_RESULT_PRESERVE_UNLINKED 0x8u
#define NFS4_OPEN_RESULT_MAY_NOTIFY_LOCK 0x20u

struct nfs4_open_args {
	uint32_t seqid;          /* 0 in 4.1 */
	uint32_t share_access;   /* NFS4_SHARE_ACCESS_* | NFS4_SHARE_WANT_* */
	uint32_t share_deny;
	struct nfs4_owner owner;
	uint32_t opentype;       /* enum nfs4_opentype */
	uint32_t createmode;     /* enum nfs4_createmode, OPEN4_CREATE */
	struct nfs4_fattr createattrs; /* UNCHECKED, GUARDED, EXCLUSIVE4_1 */
	uint8_t verifier[NFS4_VERIFIER_SIZE]; /* EXCLUSIVE(4_1) */
	uint32_t claim;          /* enum nfs4_open_claim_type */
	struct nfs4_str name;    /* CLAIM_NULL, DELEGATE_CUR, DELEGATE_PREV */
	uint32_t delegate_type;  /* CLAIM_PREVIOUS: what was held */
	struct nfs4_stateid delegate_stateid; /* DELEGATE_CUR, DELEG_CUR_FH */
};

/* nfs_space_limit4 */
enum nfs4_limit_by { NFS4_LIMIT_SIZE = 1, NFS4_LIMIT_BLOCKS = 2 };

struct nfs4_open_delegation {
	uint32_t type;                 /* enum nfs4_open_delegation_type */
	struct nfs4_stateid stateid;   /* READ, WRITE */
	bool recall;                   /* READ, WRITE */
	struct nfs4_ace permissions;   /* READ, WRITE */
	uint32_t limitby;              /* WRITE: enum nfs4_limit_by */
	uint64_t filesize;             /* WRITE, LIMIT_SIZE */
	uint32_t num_blocks;           /* WRITE, LIMIT_BLOCKS */
	uint32_t bytes_per_block;
	uint32_t why_none;             /* NONE_EXT: enum nfs4_why_no_delegation */
	bool will_push_or_signal;      /* NONE_EXT, CONTENTION or RESOURCE */
};

struct nfs4_open_res {
	uint32_t status;
	struct nfs4_stateid stateid;
	struct nfs4_change_info cinfo;
	uint32_t rflags;
	struct nfs4_bitmap attrset;
	struct nfs4_open_delegation delegation;
};

struct nfs4_open_downgrade_args {
	struct nfs4_stateid stateid;
	uint32_t seqid;
	uint32_t share_access;
	uint32_t share_deny;
};
/* Result of OPEN_DOWNGRADE, CLOSE and LOCKU: a stateid on success. */
struct nfs4_stateid_res {
	uint32_t status;
	struct nfs4_stateid stateid;
};
struct nfs4_close_args {
	uint32_t seqid;
	struct nfs4_stateid stateid;
};

struct nfs4_read_args {
	struct nfs4_stateid stateid;
	uint64_t offset;
	uint32_t count;
};
struct nfs4_read_res {
	uint32_t status;
	bool eof;
	const uint8_t *data;   /* into the reply */
	uint32_t data_len;     /* <= NFS4_MAXDATA */
};

enum nfs4_stable_how { NFS4_UNSTABLE = 0, NFS4_DATA_SYNC = 1,
		       NFS4_FILE_SYNC = 2 };
struct nfs4_write_args {
	struct nfs4_stateid stateid;
	uint64_t offset;
	uint32_t stable;       /* enum nfs4_stable_how */
	const void *data;      /* caller-owned */
	uint32_t data_len;     /* <= NFS4_MAXDATA */
};
struct nfs4_write_res {
	uint32_t status;
	uint32_t count;
	uint32_t committed;
	uint8_t verifier[NFS4_VERIFIER_SIZE];
};

struct nfs4_commit_args {
	uint64_t offset;
	uint32_t count;
};
struct nfs4_commit_res {
	uint32_t status;
	uint8_t verifier[NFS4_VERIFIER_SIZE];
};

/* CREATE: directories, symlinks, devices, sockets, fifos (not files). */
struct nfs4_create_args {
	uint32_t type;               /* enum nfs_ftype4, not NF4REG */
	struct nfs4_str linkdata;    /* NF4LNK: the target */
	struct nfs4_specdata devdata;/* NF4BLK, NF4CHR */
	struct nfs4_str name;
	struct nfs4_fattr attrs;
};
struct nfs4_create_res {
	uint32_t status;
	struct nfs4_change_info cinfo;
	struct nfs4_bitmap attrset;
};

struct nfs4_remove_args {
	struct nfs4_str name;
};
/* Result of REMOVE and LINK. */
struct nfs4_cinfo_res {
	uint32_t status;
	struct nfs4_change_info cinfo;
};

/* RENAME: from the saved filehandle's directory to the current one's. */
struct nfs4_rename_args {
	struct nfs4_str oldname;
	struct nfs4_str newname;
};
struct nfs4_rename_res {
	uint32_t status;
	struct nfs4_change_info source;
	struct nfs4_change_info target;
};

/* LINK: the saved filehandle as `newname` in the current directory. */
struct nfs4_link_args {
	struct nfs4_str newname;
};

struct nfs4_readlink_res {
	uint32_t status;
	struct nfs4_str link;  /* into the reply, <= NFS4_MAXPATHLEN */
};

struct nfs4_readdir_args {
	uint64_t cookie;
	uint8_t cookieverf[NFS4_VERIFIER_SIZE];
	uint32_t dircount;
	uint32_t maxcount;
	struct nfs4_bitmap request;
};
/*
 * The decoder walks and checks the whole entry list once (names, cookies
 * and every entry's attributes), then leaves `entries` at its start;
 * nfs4_readdir_next() hands the entries out again without allocating.
 */
struct nfs4_readdir_res {
	uint32_t status;
	uint8_t cookieverf[NFS4_VERIFIER_SIZE];
	struct xdr_dec entries;
	uint32_t nentries;
	bool eof;
};
struct nfs4_entry {
	uint64_t cookie;
	struct nfs4_str name;  /* into the reply */
	struct nfs4_fattr attrs;
};
/* 1: *e filled; 0: end of list.  Only after a successful decode. */
int nfs4_readdir_next(struct xdr_dec *it, struct nfs4_entry *e);

struct nfs4_setattr_args {
	struct nfs4_stateid stateid; /* the open's for a size change, else zero */
	struct nfs4_fattr attrs;
};
/* attrsset is sent on failure too. */
struct nfs4_setattr_res {
	uint32_t status;
	struct nfs4_bitmap attrsset;
};

/* VERIFY and NVERIFY: the current object's attributes are (not) these. */
struct nfs4_verify_args {
	struct nfs4_fattr attrs;
};

enum nfs4_lock_type { NFS4_READ_LT = 1, NFS4_WRITE_LT = 2,
		      NFS4_READW_LT = 3, NFS4_WRITEW_LT = 4 };

/* LOCK4denied: who holds the conflicting lock. */
struct nfs4_lock_denied {
	uint64_t offset;
	uint64_t length;
	uint32_t locktype;
	struct nfs4_owner owner; /* owner bytes into the reply */
};

struct nfs4_lock_args {
	uint32_t locktype;       /* enum nfs4_lock_type */
	bool reclaim;
	uint64_t offset;
	uint64_t length;         /* UINT64_MAX: to the end of the file */
	bool new_lock_owner;
	/* new_lock_owner: open_to_lock_owner4 */
	uint32_t open_seqid;
	struct nfs4_stateid open_stateid;
	uint32_t lock_seqid;     /* both arms */
	struct nfs4_owner lock_owner;
	/* !new_lock_owner: exist_lock_owner4 */
	struct nfs4_stateid lock_stateid;
};
struct nfs4_lock_res {
	uint32_t status;
	struct nfs4_stateid stateid;    /* NFS4_OK */
	struct nfs4_lock_denied denied; /* NFS4ERR_DENIED */
};

struct nfs4_lockt_args {
	uint32_t locktype;
	uint64_t offset;
	uint64_t length;
	struct nfs4_owner owner;
};
struct nfs4_lockt_res {
	uint32_t status;
	struct nfs4_lock_denied denied; /* NFS4ERR_DENIED */
};

struct nfs4_locku_args {
	uint32_t locktype;
	uint32_t seqid;
	struct nfs4_stateid stateid;
	uint64_t offset;
	uint64_t length;
};

/* DELEGRETURN and FREE_STATEID */
struct nfs4_stateid_args {
	struct nfs4_stateid stateid;
};

struct nfs4_test_stateid_args {
	uint32_t count;          /* <= NFS4_MAXSTATEIDS */
	const struct nfs4_stateid *stateids;
};
/* One status per stateid sent: walk `codes` with xdr_dec_u32. */
struct nfs4_test_stateid_res {
	uint32_t status;
	uint32_t count;
	struct xdr_dec codes;
};

/* ---- 4.2 ---- */

enum nfs4_data_content { NFS4_CONTENT_DATA = 0, NFS4_CONTENT_HOLE = 1 };
struct nfs4_seek_args {
	struct nfs4_stateid stateid;
	uint64_t offset;
	uint32_t what;           /* enum nfs4_data_content */
};
struct nfs4_seek_res {
	uint32_t status;
	bool eof;
	uint64_t offset;
};

/* ALLOCATE and DEALLOCATE */
struct nfs4_allocate_args {
	struct nfs4_stateid stateid;
	uint64_t offset;
	uint64_t length;
};

/* COPY within one server (no source servers are sent): from the saved
 * filehandle to the current one. */
struct nfs4_copy_args {
	struct nfs4_stateid src_stateid;
	struct nfs4_stateid dst_stateid;
	uint64_t src_offset;
	uint64_t dst_offset;
	uint64_t count;          /* 0: to the end of the source */
	bool consecutive;
	bool synchronous;
};
struct nfs4_copy_res {
	uint32_t status;
	/* NFS4_OK: write_response4 */
	bool has_callback_id;    /* an asynchronous copy was started */
	struct nfs4_stateid callback_id;
	uint64_t count;
	uint32_t committed;
	uint8_t verifier[NFS4_VERIFIER_SIZE];
	/* NFS4_OK and NFS4ERR_OFFLOAD_NO_REQS */
	bool consecutive;
	bool synchronous;
};

/* ---- extended attributes (RFC 8276) ---- */

/* An xattr's key is a component4 (1..NFS4_MAXNAMLEN bytes): the name in
 * the user namespace, without its "user." prefix.  Its value is at most
 * NFS4_XATTR_VALUE_MAX bytes (Linux's XATTR_SIZE_MAX). */
#define NFS4_XATTR_VALUE_MAX 65536u

struct nfs4_getxattr_args {
	struct nfs4_str name;
};
struct nfs4_getxattr_res {
	uint32_t status;
	const uint8_t *value;    /* into the reply */
	uint32_t len;
};

enum nfs4_setxattr_option {
	NFS4_SETXATTR_EITHER = 0,
	NFS4_SETXATTR_CREATE = 1,
	NFS4_SETXATTR_REPLACE = 2,
};
struct nfs4_setxattr_args {
	uint32_t option;         /* enum nfs4_setxattr_option */
	struct nfs4_str name;
	const void *value;
	uint32_t len;            /* <= NFS4_XATTR_VALUE_MAX */
};
/* SETXATTR and REMOVEXATTR answer a change_info4: struct nfs4_cinfo_res. */
struct nfs4_removexattr_args {
	struct nfs4_str name;
};

struct nfs4_listxattrs_args {
	uint64_t cookie;
	uint32_t maxcount;
};
/* count names, each an xdr string (key4): walk `names` with
 * nfs4_listxattrs_next(). */
struct nfs4_listxattrs_res {
	uint32_t status;
	uint64_t cookie;
	uint32_t count;
	struct xdr_dec names;
	bool eof;
};
/* The next name of a LISTXATTRS reply; -ENODATA after the last. */
int nfs4_listxattrs_next(struct nfs4_listxattrs_res *r, struct nfs4_str *name);

/* Typed wrappers of nfs4_compound_add(). */
#define NFS4_ADD_VOID(name, op)                                              \
	static inline int nfs4_add_##name(struct nfs4_compound *c)           \
	{                                                                    \
		return nfs4_compound_add(c, op, NULL);                       \
	}
#define NFS4_ADD(name, op, type)                                             \
	static inline int nfs4_add_##name(struct nfs4_compound *c,           \
					  const type *a)                     \
	{                                                                    \
		return nfs4_compound_add(c, op, a);                          \
	}
NFS4_ADD(exchange_id, NFS4OP_EXCHANGE_ID, struct nfs4_exchange_id_args)
NFS4_ADD(create_session, NFS4OP_CREATE_SESSION, struct nfs4_create_session_args)
NFS4_ADD(sequence, NFS4OP_SEQUENCE, struct nfs4_sequence_args)
NFS4_ADD(destroy_session, NFS4OP_DESTROY_SESSION, struct nfs4_destroy_session_args)
NFS4_ADD(destroy_clientid, NFS4OP_DESTROY_CLIENTID, struct nfs4_destroy_clientid_args)
NFS4_ADD(reclaim_complete, NFS4OP_RECLAIM_COMPLETE, struct nfs4_reclaim_complete_args)
NFS4_ADD(bind_conn_to_session, NFS4OP_BIND_CONN_TO_SESSION, struct nfs4_bind_conn_args)
NFS4_ADD_VOID(putrootfh, NFS4OP_PUTROOTFH)
NFS4_ADD(putfh, NFS4OP_PUTFH, struct nfs4_putfh_args)
NFS4_ADD_VOID(getfh, NFS4OP_GETFH)
NFS4_ADD(lookup, NFS4OP_LOOKUP, struct nfs4_lookup_args)
NFS4_ADD_VOID(lookupp, NFS4OP_LOOKUPP)
NFS4_ADD(getattr, NFS4OP_GETATTR, struct nfs4_getattr_args)
NFS4_ADD(secinfo_no_name, NFS4OP_SECINFO_NO_NAME, struct nfs4_secinfo_no_name_args)
NFS4_ADD(access, NFS4OP_ACCESS, struct nfs4_access_args)
NFS4_ADD(open, NFS4OP_OPEN, struct nfs4_open_args)
NFS4_ADD(open_downgrade, NFS4OP_OPEN_DOWNGRADE, struct nfs4_open_downgrade_args)
NFS4_ADD(close, NFS4OP_CLOSE, struct nfs4_close_args)
NFS4_ADD(read, NFS4OP_READ, struct nfs4_read_args)
NFS4_ADD(write, NFS4OP_WRITE, struct nfs4_write_args)
NFS4_ADD(commit, NFS4OP_COMMIT, struct nfs4_commit_args)
NFS4_ADD(create, NFS4OP_CREATE, struct nfs4_create_args)
NFS4_ADD(remove, NFS4OP_REMOVE, struct nfs4_remove_args)
NFS4_ADD(rename, NFS4OP_RENAME, struct nfs4_rename_args)
NFS4_ADD(link, NFS4OP_LINK, struct nfs4_link_args)
NFS4_ADD_VOID(readlink, NFS4OP_READLINK)
NFS4_ADD(readdir, NFS4OP_READDIR, struct nfs4_readdir_args)
NFS4_ADD(setattr, NFS4OP_SETATTR, struct nfs4_setattr_args)
NFS4_ADD_VOID(savefh, NFS4OP_SAVEFH)
NFS4_ADD_VOID(restorefh, NFS4OP_RESTOREFH)
NFS4_ADD(verify, NFS4OP_VERIFY, struct nfs4_verify_args)
NFS4_ADD(nverify, NFS4OP_NVERIFY, struct nfs4_verify_args)
NFS4_ADD(lock, NFS4OP_LOCK, struct nfs4_lock_args)
NFS4_ADD(lockt, NFS4OP_LOCKT, struct nfs4_lockt_args)
NFS4_ADD(locku, NFS4OP_LOCKU, struct nfs4_locku_args)
NFS4_ADD(delegreturn, NFS4OP_DELEGRETURN, struct nfs4_stateid_args)
NFS4_ADD(free_stateid, NFS4OP_FREE_STATEID, struct nfs4_stateid_args)
NFS4_ADD(test_stateid, NFS4OP_TEST_STATEID, struct nfs4_test_stateid_args)
NFS4_ADD(seek, NFS4OP_SEEK, struct nfs4_seek_args)
NFS4_ADD(allocate, NFS4OP_ALLOCATE, struct nfs4_allocate_args)
NFS4_ADD(deallocate, NFS4OP_DEALLOCATE, struct nfs4_allocate_args)
NFS4_ADD(copy, NFS4OP_COPY, struct nfs4_copy_args)
NFS4_ADD(getxattr, NFS4OP_GETXATTR, struct nfs4_getxattr_args)
NFS4_ADD(setxattr, NFS4OP_SETXATTR, struct nfs4_setxattr_args)
NFS4_ADD(listxattrs, NFS4OP_LISTXATTRS, struct nfs4_listxattrs_args)
NFS4_ADD(removexattr, NFS4OP_REMOVEXATTR, struct nfs4_removexattr_args)
#undef NFS4_ADD
#undef NFS4_ADD_VOID

/* Per-operation codecs (in the tables above), exported for the tests. */
int nfs4_enc_status_res(struct xdr_enc *e, const void *res);
int nfs4_dec_status_res(struct xdr_dec *d, void *res);
int nfs4_enc_exchange_id_args(struct xdr_enc *e, const void *args);
int nfs4_dec_exchange_id_res(struct xdr_dec *d, void *res);
int nfs4_enc_create_session_args(struct xdr_enc *e, const void *args);
int nfs4_dec_create_session_res(struct xdr_dec *d, void *res);
int nfs4_enc_sequence_args(struct xdr_enc *e, const void *args);
int nfs4_dec_sequence_args(struct xdr_dec *d, void *args);
int nfs4_enc_sequence_res(struct xdr_enc *e, const void *res);
int nfs4_dec_sequence_res(struct xdr_dec *d, void *res);
int nfs4_enc_destroy_session_args(struct xdr_enc *e, const void *args);
int nfs4_enc_destroy_clientid_args(struct xdr_enc *e, const void *args);
int nfs4_enc_reclaim_complete_args(struct xdr_enc *e, const void *args);
int nfs4_enc_bind_conn_args(struct xdr_enc *e, const void *args);
int nfs4_dec_bind_conn_res(struct xdr_dec *d, void *res);
int nfs4_enc_putfh_args(struct xdr_enc *e, const void *args);
int nfs4_dec_getfh_res(struct xdr_dec *d, void *res);
int nfs4_enc_lookup_args(struct xdr_enc *e, const void *args);
int nfs4_enc_getattr_args(struct xdr_enc *e, const void *args);
int nfs4_dec_getattr_res(struct xdr_dec *d, void *res);
int nfs4_enc_getattr_res(struct xdr_enc *e, const void *res);
int nfs4_enc_secinfo_no_name_args(struct xdr_enc *e, const void *args);
int nfs4_dec_secinfo_res(struct xdr_dec *d, void *res);
int nfs4_enc_access_args(struct xdr_enc *e, const void *args);
int nfs4_dec_access_res(struct xdr_dec *d, void *res);
int nfs4_enc_open_args(struct xdr_enc *e, const void *args);
int nfs4_dec_open_res(struct xdr_dec *d, void *res);
int nfs4_enc_open_res(struct xdr_enc *e, const void *res);
int nfs4_enc_open_downgrade_args(struct xdr_enc *e, const void *args);
int nfs4_dec_stateid_res(struct xdr_dec *d, void *res);
int nfs4_enc_close_args(struct xdr_enc *e, const void *args);
int nfs4_enc_read_args(struct xdr_enc *e, const void *args);
int nfs4_dec_read_res(struct xdr_dec *d, void *res);
int nfs4_enc_write_args(struct xdr_enc *e, const void *args);
int nfs4_dec_write_res(struct xdr_dec *d, void *res);
int nfs4_enc_commit_args(struct xdr_enc *e, const void *args);
int nfs4_dec_commit_res(struct xdr_dec *d, void *res);
int nfs4_enc_create_args(struct xdr_enc *e, const void *args);
int nfs4_dec_create_res(struct xdr_dec *d, void *res);
int nfs4_enc_remove_args(struct xdr_enc *e, const void *args);
int nfs4_dec_cinfo_res(struct xdr_dec *d, void *res);
int nfs4_enc_rename_args(struct xdr_enc *e, const void *args);
int nfs4_dec_rename_res(struct xdr_dec *d, void *res);
int nfs4_enc_link_args(struct xdr_enc *e, const void *args);
int nfs4_dec_readlink_res(struct xdr_dec *d, void *res);
int nfs4_enc_readdir_args(struct xdr_enc *e, const void *args);
int nfs4_dec_readdir_res(struct xdr_dec *d, void *res);
int nfs4_enc_setattr_args(struct xdr_enc *e, const void *args);
int nfs4_dec_setattr_res(struct xdr_dec *d, void *res);
int nfs4_enc_verify_args(struct xdr_enc *e, const void *args);
int nfs4_enc_lock_args(struct xdr_enc *e, const void *args);
int nfs4_dec_lock_res(struct xdr_dec *d, void *res);
int nfs4_enc_lockt_args(struct xdr_enc *e, const void *args);
int nfs4_dec_lockt_res(struct xdr_dec *d, void *res);
int nfs4_enc_locku_args(struct xdr_enc *e, const void *args);
int nfs4_enc_stateid_args(struct xdr_enc *e, const void *args);
int nfs4_enc_test_stateid_args(struct xdr_enc *e, const void *args);
int nfs4_dec_test_stateid_res(struct xdr_dec *d, void *res);
int nfs4_enc_seek_args(struct xdr_enc *e, const void *args);
int nfs4_dec_seek_res(struct xdr_dec *d, void *res);
int nfs4_enc_allocate_args(struct xdr_enc *e, const void *args);
int nfs4_enc_copy_args(struct xdr_enc *e, const void *args);
int nfs4_dec_copy_res(struct xdr_dec *d, void *res);
int nfs4_enc_getxattr_args(struct xdr_enc *e, const void *args);
int nfs4_dec_getxattr_res(struct xdr_dec *d, void *res);
int nfs4_enc_setxattr_args(struct xdr_enc *e, const void *args);
int nfs4_enc_listxattrs_args(struct xdr_enc *e, const void *args);
int nfs4_dec_listxattrs_res(struct xdr_dec *d, void *res);
int nfs4_enc_removexattr_args(struct xdr_enc *e, const void *args);

#endif
