/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network Lock Manager, program 100021: versions 1 and 3 (Open Group XNFS,
 * as in rpcsvc/nlm_prot.x: 32-bit offsets and lengths) and version 4
 * (RFC 1813 Appendix II: 64-bit offsets and lengths).
 *
 * One set of structures serves every version; offsets and lengths are held
 * in 64 bits.  The codecs whose wire form differs come in pairs: `_v1` for
 * versions 1 and 3 (which share their types; version 3 only adds the
 * SHARE/UNSHARE/NM_LOCK/FREE_ALL procedures) and `_v4`.  A `_v1` encoder
 * fails with -EOVERFLOW (sticky) when an offset or length does not fit in
 * 32 bits: the caller decides whether to give up or to widen the range to
 * "up to end of file" (l_len 0).  The other codecs (nlm_res, share, notify)
 * are the same on the wire in every version and have no suffix.
 *
 * Both directions are here for every type: the client encodes calls and
 * decodes results, and its callback listener decodes the GRANTED and
 * GRANTED_MSG calls and the *_RES messages a server sends and encodes the
 * replies.  Every encoder takes `const void *` and every decoder `void *`
 * so that they fit struct xdr_proc_codec (see nlm_proc_codec()).
 *
 * Ownership: netobj data (cookie, fh, oh) and names are NOT copied.  After
 * decoding they point into the buffer being decoded and are valid only as
 * long as that buffer; names are NOT NUL-terminated: use the (name, len)
 * pairs.  To encode, the caller points them at its own memory (len bytes,
 * no NUL needed; a NUL inside a name is refused with -EINVAL, as the
 * decoder refuses it with -EBADMSG).  The NFS file handle travels as a
 * netobj: point fh at struct nfs_fh3 .data/.len.
 *
 * Decoders return 0 or -EBADMSG (malformed: truncated, a length over its
 * limit, a bool that is neither 0 nor 1, a NUL inside a name); they zero the
 * structure first, so arms that were not sent read as zero.  The NLM status
 * is data: unknown values are kept as sent.  Encoders return 0 or the
 * encoder's sticky error: -ENOMEM, -EINVAL (a netobj or name over its
 * limit), -EOVERFLOW (`_v1` range over 32 bits).
 */
#ifndef NFSFUSE_XDR_NLM_H
#define NFSFUSE_XDR_NLM_H

#include "xdr.h"

#define NLM_PROGRAM 100021u
#define NLM_V1 1u
#define NLM_V3 3u
#define NLM_V4 4u

#define NLM_MAXNETOBJ 1024u  /* MAXNETOBJ_SZ: netobj is opaque<1024> */
#define NLM_MAXSTRLEN 1024u  /* LM_MAXSTRLEN: caller_name<LM_MAXSTRLEN> */
#define NLM_MAXNAMELEN 1025u /* MAXNAMELEN = LM_MAXSTRLEN+1: notify name */

/* Procedure numbers, the same in every version (v1 stops at 15). */
enum nlm_proc {
	NLMPROC_NULL = 0,
	NLMPROC_TEST = 1,
	NLMPROC_LOCK = 2,
	NLMPROC_CANCEL = 3,
	NLMPROC_UNLOCK = 4,
	NLMPROC_GRANTED = 5,
	NLMPROC_TEST_MSG = 6,
	NLMPROC_LOCK_MSG = 7,
	NLMPROC_CANCEL_MSG = 8,
	NLMPROC_UNLOCK_MSG = 9,
	NLMPROC_GRANTED_MSG = 10,
	NLMPROC_TEST_RES = 11,
	NLMPROC_LOCK_RES = 12,
	NLMPROC_CANCEL_RES = 13,
	NLMPROC_UNLOCK_RES = 14,
	NLMPROC_GRANTED_RES = 15,
	/*
	 * Not in XNFS nor RFC 1813: Linux lockd asks its statd to call this
	 * procedure (NLM v3) when a monitored host reboots.  Its argument is
	 * the statd callback, struct nsm_status in nsm.h; no codec here.
	 */
	NLMPROC_NSM_NOTIFY = 16,
	NLMPROC_SHARE = 20,
	NLMPROC_UNSHARE = 21,
	NLMPROC_NM_LOCK = 22,
	NLMPROC_FREE_ALL = 23,
	NLMPROC_COUNT = 24
};

/* Procedure names as the specifications spell them ("LOCK_MSG"), indexed
 * by enum nlm_proc; NULL for 16..19. */
extern const char *const nlm_proc_names[NLMPROC_COUNT];

/*
 * enum nlm_stats (v1/3: 0..4) and enum nlm4_stats (v4 adds 5..9).
 */
enum nlm_stats {
	NLM_GRANTED = 0,
	NLM_DENIED = 1,
	NLM_DENIED_NOLOCKS = 2,
	NLM_BLOCKED = 3,
	NLM_DENIED_GRACE_PERIOD = 4,
	NLM4_DEADLCK = 5,
	NLM4_ROFS = 6,
	NLM4_STALE_FH = 7,
	NLM4_FBIG = 8,
	NLM4_FAILED = 9
};

/* Name for logs ("NLM_DENIED", "NLM4_DEADLCK"), or NULL if unknown. */
const char *nlm_stat_name(uint32_t stat);

/* Returned by nlm_stat_errno() for NLM_BLOCKED: not an error; the server
 * queued the request and will call back with GRANTED/GRANTED_MSG. */
#define NLM_ERRNO_BLOCKED 1

/*
 * The errno for a status: GRANTED 0; BLOCKED NLM_ERRNO_BLOCKED (positive);
 * DENIED -EAGAIN; DENIED_NOLOCKS -ENOLCK; DENIED_GRACE_PERIOD -EAGAIN too
 * (the server is in its grace period and takes only reclaims: the caller
 * retries after a delay, it must not report a conflict); DEADLCK -EDEADLK;
 * ROFS -EROFS; STALE_FH -ESTALE; FBIG -EFBIG; FAILED -ENOLCK; unknown
 * values -EIO (the caller logs them).
 */
int nlm_stat_errno(uint32_t stat);

/*
 * The same for versions 1 and 3, whose enum nlm_stats stops at
 * DENIED_GRACE_PERIOD (4): values 0..4 as above, anything else (the v4-only
 * DEADLCK..FAILED included) -EIO, an unknown status the caller logs.
 */
int nlm_stat_errno_v1(uint32_t stat);

/* The largest offset versions 1 and 3 carry: Linux's NLM_OFFSET_MAX (the
 * unsigned fields are read as signed 32-bit by most peers). */
#define NLM_V1_OFFSET_MAX 0x7fffffffu

/*
 * Does the range [off, off+len) (len 0: to end of file) fit a version 1/3
 * request?  The first byte and, unless the range runs to end of file, the
 * last byte must be at most NLM_V1_OFFSET_MAX -- the check the Linux NFSv2
 * client makes before it sends a lock (it fails the request with EINVAL).
 */
bool nlm_range_fits_v1(uint64_t off, uint64_t len);

/* enum fsh_mode / fsh4_mode: deny modes of SHARE (bit encoded). */
enum nlm_fsh_mode {
	NLM_FSM_DN = 0,  /* deny none */
	NLM_FSM_DR = 1,  /* deny read */
	NLM_FSM_DW = 2,  /* deny write */
	NLM_FSM_DRW = 3  /* deny read/write */
};

/* enum fsh_access / fsh4_access */
enum nlm_fsh_access {
	NLM_FSA_NONE = 0,
	NLM_FSA_R = 1,
	NLM_FSA_W = 2,
	NLM_FSA_RW = 3
};

/* netobj: opaque<MAXNETOBJ_SZ>.  data may be NULL when len is 0. */
struct nlm_netobj {
	const uint8_t *data;
	uint32_t len;
};

/*
 * struct nlm4_lock {			struct nlm_lock {
 *	string caller_name<LM_MAXSTRLEN>;	(the same)
 *	netobj fh;
 *	netobj oh;
 *	int32 svid;				int svid;
 *	uint64 l_offset;			unsigned l_offset;
 *	uint64 l_len;				unsigned l_len;
 * };					};
 * l_len 0 means "up to end of file" in every version.
 */
struct nlm_lock {
	const char *caller_name; /* caller_name_len bytes, no NUL */
	uint32_t caller_name_len;
	struct nlm_netobj fh;
	struct nlm_netobj oh;
	int32_t svid;
	uint64_t l_offset;
	uint64_t l_len;
};

/*
 * struct nlm4_holder {
 *	bool exclusive;
 *	int32 svid;
 *	netobj oh;
 *	uint64 l_offset;	(v1/3: unsigned)
 *	uint64 l_len;		(v1/3: unsigned)
 * };
 */
struct nlm_holder {
	bool exclusive;
	int32_t svid;
	struct nlm_netobj oh;
	uint64_t l_offset;
	uint64_t l_len;
};

/* ---- arguments ---- */

/*
 * struct nlm4_testargs { netobj cookie; bool exclusive; nlm4_lock alock; };
 * TEST, TEST_MSG, GRANTED, GRANTED_MSG.
 */
struct nlm_testargs {
	struct nlm_netobj cookie;
	bool exclusive;
	struct nlm_lock alock;
};

/*
 * struct nlm4_lockargs {
 *	netobj cookie; bool block; bool exclusive; nlm4_lock alock;
 *	bool reclaim; int32 state;
 * };
 * LOCK, LOCK_MSG, NM_LOCK.  state is our NSM state number.
 */
struct nlm_lockargs {
	struct nlm_netobj cookie;
	bool block;
	bool exclusive;
	struct nlm_lock alock;
	bool reclaim;
	int32_t state;
};

/*
 * struct nlm4_cancargs {
 *	netobj cookie; bool block; bool exclusive; nlm4_lock alock;
 * };
 * CANCEL, CANCEL_MSG.
 */
struct nlm_cancargs {
	struct nlm_netobj cookie;
	bool block;
	bool exclusive;
	struct nlm_lock alock;
};

/*
 * struct nlm4_unlockargs { netobj cookie; nlm4_lock alock; };
 * UNLOCK, UNLOCK_MSG.
 */
struct nlm_unlockargs {
	struct nlm_netobj cookie;
	struct nlm_lock alock;
};

/*
 * struct nlm4_share {
 *	string caller_name<LM_MAXSTRLEN>; netobj fh; netobj oh;
 *	fsh4_mode mode; fsh4_access access;
 * };
 * struct nlm4_shareargs { netobj cookie; nlm4_share share; bool reclaim; };
 * SHARE, UNSHARE (v3 and v4; the same on the wire).
 */
struct nlm_share {
	const char *caller_name; /* caller_name_len bytes, no NUL */
	uint32_t caller_name_len;
	struct nlm_netobj fh;
	struct nlm_netobj oh;
	uint32_t mode;   /* enum nlm_fsh_mode, kept as sent */
	uint32_t access; /* enum nlm_fsh_access, kept as sent */
};
struct nlm_shareargs {
	struct nlm_netobj cookie;
	struct nlm_share share;
	bool reclaim;
};

/*
 * struct nlm4_notify { string name<MAXNAMELEN>; int32 state; };
 * FREE_ALL (v3 and v4).  XNFS has "long state" (32 bits in XDR).  RFC 1813
 * prints the v4 state as int64, but Linux, FreeBSD and nfs-ganesha all
 * send and expect 32 bits: so do we.  XNFS says the state is unused and
 * should be 0.
 */
struct nlm_notify {
	const char *name; /* name_len bytes, no NUL */
	uint32_t name_len;
	int32_t state;
};

/* ---- results (and the arguments of the *_RES messages) ---- */

/*
 * struct nlm4_res { netobj cookie; nlm4_stat stat; };
 * LOCK, CANCEL, UNLOCK, GRANTED, NM_LOCK results; the argument of
 * LOCK_RES, CANCEL_RES, UNLOCK_RES, GRANTED_RES.  The same on the wire in
 * every version.
 */
struct nlm_res {
	struct nlm_netobj cookie;
	uint32_t stat; /* enum nlm_stats, kept as sent */
};

/*
 * union nlm4_testrply switch (nlm4_stats stat) {
 *	case NLM4_DENIED: nlm4_holder holder;
 *	default: void;
 * };
 * struct nlm4_testres { netobj cookie; nlm4_testrply test_stat; };
 * TEST result; the argument of TEST_RES.
 */
struct nlm_testres {
	struct nlm_netobj cookie;
	uint32_t stat;            /* enum nlm_stats, kept as sent */
	struct nlm_holder holder; /* NLM_DENIED only */
};

/*
 * struct nlm4_shareres { netobj cookie; nlm4_stats stat; int32 sequence; };
 * SHARE, UNSHARE results.
 */
struct nlm_shareres {
	struct nlm_netobj cookie;
	uint32_t stat;
	int32_t sequence;
};

/* ---- codecs ---- */

int nlm_enc_netobj(struct xdr_enc *e, const struct nlm_netobj *o);
int nlm_dec_netobj(struct xdr_dec *d, struct nlm_netobj *o);

/* Versions 1 and 3 (32-bit ranges). */
int nlm_enc_testargs_v1(struct xdr_enc *e, const void *args);
int nlm_dec_testargs_v1(struct xdr_dec *d, void *args);
int nlm_enc_lockargs_v1(struct xdr_enc *e, const void *args);
int nlm_dec_lockargs_v1(struct xdr_dec *d, void *args);
int nlm_enc_cancargs_v1(struct xdr_enc *e, const void *args);
int nlm_dec_cancargs_v1(struct xdr_dec *d, void *args);
int nlm_enc_unlockargs_v1(struct xdr_enc *e, const void *args);
int nlm_dec_unlockargs_v1(struct xdr_dec *d, void *args);
int nlm_enc_testres_v1(struct xdr_enc *e, const void *res);
int nlm_dec_testres_v1(struct xdr_dec *d, void *res);

/* Version 4 (64-bit ranges). */
int nlm_enc_testargs_v4(struct xdr_enc *e, const void *args);
int nlm_dec_testargs_v4(struct xdr_dec *d, void *args);
int nlm_enc_lockargs_v4(struct xdr_enc *e, const void *args);
int nlm_dec_lockargs_v4(struct xdr_dec *d, void *args);
int nlm_enc_cancargs_v4(struct xdr_enc *e, const void *args);
int nlm_dec_cancargs_v4(struct xdr_dec *d, void *args);
int nlm_enc_unlockargs_v4(struct xdr_enc *e, const void *args);
int nlm_dec_unlockargs_v4(struct xdr_dec *d, void *args);
int nlm_enc_testres_v4(struct xdr_enc *e, const void *res);
int nlm_dec_testres_v4(struct xdr_dec *d, void *res);

/* Every version. */
int nlm_enc_res(struct xdr_enc *e, const void *res);
int nlm_dec_res(struct xdr_dec *d, void *res);
int nlm_enc_shareargs(struct xdr_enc *e, const void *args);
int nlm_dec_shareargs(struct xdr_dec *d, void *args);
int nlm_enc_shareres(struct xdr_enc *e, const void *res);
int nlm_dec_shareres(struct xdr_dec *d, void *res);
int nlm_enc_notify(struct xdr_enc *e, const void *args);
int nlm_dec_notify(struct xdr_dec *d, void *args);

/* ---- one table per version ---- */

/*
 * The codecs of proc in vers (1, 3 or 4), or NULL when that version has
 * no such procedure (v1: 0..15; v3 and v4: 0..15 and 20..23).  NULL has
 * no arguments; the _MSG and _RES procedures and FREE_ALL have no results
 * (whether any reply at all comes back for a _MSG/_RES call is up to the
 * peer: the RPC layer must not wait for one).
 */
const struct xdr_proc_codec *nlm_proc_codec(uint32_t vers, uint32_t proc);

#endif
