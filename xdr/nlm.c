/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nlm.h"

#include <errno.h>
#include <string.h>

const char *const nlm_proc_names[NLMPROC_COUNT] = {
	[NLMPROC_NULL] = "NULL",
	[NLMPROC_TEST] = "TEST",
	[NLMPROC_LOCK] = "LOCK",
	[NLMPROC_CANCEL] = "CANCEL",
	[NLMPROC_UNLOCK] = "UNLOCK",
	[NLMPROC_GRANTED] = "GRANTED",
	[NLMPROC_TEST_MSG] = "TEST_MSG",
	[NLMPROC_LOCK_MSG] = "LOCK_MSG",
	[NLMPROC_CANCEL_MSG] = "CANCEL_MSG",
	[NLMPROC_UNLOCK_MSG] = "UNLOCK_MSG",
	[NLMPROC_GRANTED_MSG] = "GRANTED_MSG",
	[NLMPROC_TEST_RES] = "TEST_RES",
	[NLMPROC_LOCK_RES] = "LOCK_RES",
	[NLMPROC_CANCEL_RES] = "CANCEL_RES",
	[NLMPROC_UNLOCK_RES] = "UNLOCK_RES",
	[NLMPROC_GRANTED_RES] = "GRANTED_RES",
	[NLMPROC_SHARE] = "SHARE",
	[NLMPROC_UNSHARE] = "UNSHARE",
	[NLMPROC_NM_LOCK] = "NM_LOCK",
	[NLMPROC_FREE_ALL] = "FREE_ALL",
};

const char *nlm_stat_name(uint32_t stat)
{
	static const char *const names[] = {
		[NLM_GRANTED] = "NLM_GRANTED",
		[NLM_DENIED] = "NLM_DENIED",
		[NLM_DENIED_NOLOCKS] = "NLM_DENIED_NOLOCKS",
		[NLM_BLOCKED] = "NLM_BLOCKED",
		[NLM_DENIED_GRACE_PERIOD] = "NLM_DENIED_GRACE_PERIOD",
		[NLM4_DEADLCK] = "NLM4_DEADLCK",
		[NLM4_ROFS] = "NLM4_ROFS",
		[NLM4_STALE_FH] = "NLM4_STALE_FH",
		[NLM4_FBIG] = "NLM4_FBIG",
		[NLM4_FAILED] = "NLM4_FAILED",
	};

	if (stat < sizeof(names) / sizeof(names[0]))
		return names[stat];
	return NULL;
}

int nlm_stat_errno(uint32_t stat)
{
	switch (stat) {
	case NLM_GRANTED:
		return 0;
	case NLM_DENIED:
		return -EAGAIN;
	case NLM_DENIED_NOLOCKS:
		return -ENOLCK;
	case NLM_BLOCKED:
		return NLM_ERRNO_BLOCKED;
	case NLM_DENIED_GRACE_PERIOD:
		/* Not a conflict: the server takes only reclaims until its
		 * grace period ends.  The caller waits and retries; -EAGAIN
		 * is what it reports if it gives up (F_SETLK). */
		return -EAGAIN;
	case NLM4_DEADLCK:
		return -EDEADLK;
	case NLM4_ROFS:
		return -EROFS;
	case NLM4_STALE_FH:
		return -ESTALE;
	case NLM4_FBIG:
		return -EFBIG;
	case NLM4_FAILED:
		return -ENOLCK;
	default:
		return -EIO;
	}
}

/* Sets the encoder's sticky error (unless one is already set). */
int nlm_stat_errno_v1(uint32_t stat)
{
	/* enum nlm_stats of XNFS: GRANTED..DENIED_GRACE_PERIOD. */
	if (stat > NLM_DENIED_GRACE_PERIOD)
		return -EIO;
	return nlm_stat_errno(stat);
}

bool nlm_range_fits_v1(uint64_t off, uint64_t len)
{
	if (off > NLM_V1_OFFSET_MAX)
		return false;
	return len == 0 || len - 1 <= NLM_V1_OFFSET_MAX - off;
}

static int enc_fail(struct xdr_enc *e, int err)
{
	if (!e->err)
		e->err = err;
	return e->err;
}

/* string name<max> from a (pointer, length) pair; a NUL inside would not
 * survive our own decoder, so it is refused here too. */
static int enc_name(struct xdr_enc *e, uint32_t max, const char *s,
		    uint32_t len)
{
	if (len && (!s || memchr(s, '\0', len)))
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, max, s, len);
}

/* typedef opaque netobj<MAXNETOBJ_SZ>; */
int nlm_enc_netobj(struct xdr_enc *e, const struct nlm_netobj *o)
{
	if (o->len && !o->data)
		return enc_fail(e, -EINVAL);
	return xdr_enc_opaque(e, NLM_MAXNETOBJ, o->data, o->len);
}

int nlm_dec_netobj(struct xdr_dec *d, struct nlm_netobj *o)
{
	return xdr_dec_opaque(d, NLM_MAXNETOBJ, &o->data, &o->len);
}

/* l_offset and l_len: uint64 in v4, unsigned (32 bits) in v1/3. */
static int enc_range(struct xdr_enc *e, uint64_t off, uint64_t len, bool v4)
{
	if (v4) {
		xdr_enc_u64(e, off);
		return xdr_enc_u64(e, len);
	}
	if (off > UINT32_MAX || len > UINT32_MAX)
		return enc_fail(e, -EOVERFLOW);
	xdr_enc_u32(e, (uint32_t)off);
	return xdr_enc_u32(e, (uint32_t)len);
}

static int dec_range(struct xdr_dec *d, uint64_t *off, uint64_t *len, bool v4)
{
	uint32_t o32, l32;

	if (v4)
		return xdr_dec_u64(d, off) || xdr_dec_u64(d, len) ? -EBADMSG : 0;
	if (xdr_dec_u32(d, &o32) || xdr_dec_u32(d, &l32))
		return -EBADMSG;
	*off = o32;
	*len = l32;
	return 0;
}

/*
 * struct nlm4_lock {
 *	string caller_name<LM_MAXSTRLEN>;
 *	netobj fh;
 *	netobj oh;
 *	int32 svid;
 *	uint64 l_offset;	(v1/3: unsigned)
 *	uint64 l_len;		(v1/3: unsigned)
 * };
 */
static int enc_lock(struct xdr_enc *e, const struct nlm_lock *l, bool v4)
{
	enc_name(e, NLM_MAXSTRLEN, l->caller_name, l->caller_name_len);
	nlm_enc_netobj(e, &l->fh);
	nlm_enc_netobj(e, &l->oh);
	xdr_enc_i32(e, l->svid);
	return enc_range(e, l->l_offset, l->l_len, v4);
}

static int dec_lock(struct xdr_dec *d, struct nlm_lock *l, bool v4)
{
	if (xdr_dec_string(d, NLM_MAXSTRLEN, &l->caller_name,
			   &l->caller_name_len) ||
	    nlm_dec_netobj(d, &l->fh) || nlm_dec_netobj(d, &l->oh) ||
	    xdr_dec_i32(d, &l->svid))
		return -EBADMSG;
	return dec_range(d, &l->l_offset, &l->l_len, v4);
}

/*
 * struct nlm4_holder {
 *	bool exclusive;
 *	int32 svid;
 *	netobj oh;
 *	uint64 l_offset;	(v1/3: unsigned)
 *	uint64 l_len;		(v1/3: unsigned)
 * };
 */
static int enc_holder(struct xdr_enc *e, const struct nlm_holder *h, bool v4)
{
	xdr_enc_bool(e, h->exclusive);
	xdr_enc_i32(e, h->svid);
	nlm_enc_netobj(e, &h->oh);
	return enc_range(e, h->l_offset, h->l_len, v4);
}

static int dec_holder(struct xdr_dec *d, struct nlm_holder *h, bool v4)
{
	if (xdr_dec_bool(d, &h->exclusive) || xdr_dec_i32(d, &h->svid) ||
	    nlm_dec_netobj(d, &h->oh))
		return -EBADMSG;
	return dec_range(d, &h->l_offset, &h->l_len, v4);
}

/* struct nlm4_testargs { netobj cookie; bool exclusive; nlm4_lock alock; }; */
static int enc_testargs(struct xdr_enc *e, const struct nlm_testargs *a,
			bool v4)
{
	nlm_enc_netobj(e, &a->cookie);
	xdr_enc_bool(e, a->exclusive);
	return enc_lock(e, &a->alock, v4);
}

static int dec_testargs(struct xdr_dec *d, struct nlm_testargs *a, bool v4)
{
	memset(a, 0, sizeof(*a));
	if (nlm_dec_netobj(d, &a->cookie) || xdr_dec_bool(d, &a->exclusive))
		return -EBADMSG;
	return dec_lock(d, &a->alock, v4);
}

/*
 * struct nlm4_lockargs {
 *	netobj cookie;
 *	bool block;
 *	bool exclusive;
 *	nlm4_lock alock;
 *	bool reclaim;
 *	int32 state;
 * };
 */
static int enc_lockargs(struct xdr_enc *e, const struct nlm_lockargs *a,
			bool v4)
{
	nlm_enc_netobj(e, &a->cookie);
	xdr_enc_bool(e, a->block);
	xdr_enc_bool(e, a->exclusive);
	enc_lock(e, &a->alock, v4);
	xdr_enc_bool(e, a->reclaim);
	return xdr_enc_i32(e, a->state);
}

static int dec_lockargs(struct xdr_dec *d, struct nlm_lockargs *a, bool v4)
{
	memset(a, 0, sizeof(*a));
	if (nlm_dec_netobj(d, &a->cookie) || xdr_dec_bool(d, &a->block) ||
	    xdr_dec_bool(d, &a->exclusive) || dec_lock(d, &a->alock, v4) ||
	    xdr_dec_bool(d, &a->reclaim) || xdr_dec_i32(d, &a->state))
		return -EBADMSG;
	return 0;
}

/*
 * struct nlm4_cancargs {
 *	netobj cookie;
 *	bool block;
 *	bool exclusive;
 *	nlm4_lock alock;
 * };
 */
static int enc_cancargs(struct xdr_enc *e, const struct nlm_cancargs *a,
			bool v4)
{
	nlm_enc_netobj(e, &a->cookie);
	xdr_enc_bool(e, a->block);
	xdr_enc_bool(e, a->exclusive);
	return enc_lock(e, &a->alock, v4);
}

static int dec_cancargs(struct xdr_dec *d, struct nlm_cancargs *a, bool v4)
{
	memset(a, 0, sizeof(*a));
	if (nlm_dec_netobj(d, &a->cookie) || xdr_dec_bool(d, &a->block) ||
	    xdr_dec_bool(d, &a->exclusive))
		return -EBADMSG;
	return dec_lock(d, &a->alock, v4);
}

/* struct nlm4_unlockargs { netobj cookie; nlm4_lock alock; }; */
static int enc_unlockargs(struct xdr_enc *e, const struct nlm_unlockargs *a,
			  bool v4)
{
	nlm_enc_netobj(e, &a->cookie);
	return enc_lock(e, &a->alock, v4);
}

static int dec_unlockargs(struct xdr_dec *d, struct nlm_unlockargs *a,
			  bool v4)
{
	memset(a, 0, sizeof(*a));
	if (nlm_dec_netobj(d, &a->cookie))
		return -EBADMSG;
	return dec_lock(d, &a->alock, v4);
}

/*
 * union nlm4_testrply switch (nlm4_stats stat) {
 *	case NLM4_DENIED: nlm4_holder holder;
 *	default: void;
 * };
 * struct nlm4_testres { netobj cookie; nlm4_testrply test_stat; };
 */
static int enc_testres(struct xdr_enc *e, const struct nlm_testres *r,
		       bool v4)
{
	nlm_enc_netobj(e, &r->cookie);
	xdr_enc_u32(e, r->stat);
	if (r->stat == NLM_DENIED)
		enc_holder(e, &r->holder, v4);
	return xdr_enc_error(e);
}

static int dec_testres(struct xdr_dec *d, struct nlm_testres *r, bool v4)
{
	memset(r, 0, sizeof(*r));
	if (nlm_dec_netobj(d, &r->cookie) || xdr_dec_u32(d, &r->stat))
		return -EBADMSG;
	if (r->stat == NLM_DENIED)
		return dec_holder(d, &r->holder, v4);
	return 0;
}

/* ---- the versioned entry points ---- */

int nlm_enc_testargs_v1(struct xdr_enc *e, const void *args)
{
	return enc_testargs(e, args, false);
}

int nlm_dec_testargs_v1(struct xdr_dec *d, void *args)
{
	return dec_testargs(d, args, false);
}

int nlm_enc_lockargs_v1(struct xdr_enc *e, const void *args)
{
	return enc_lockargs(e, args, false);
}

int nlm_dec_lockargs_v1(struct xdr_dec *d, void *args)
{
	return dec_lockargs(d, args, false);
}

int nlm_enc_cancargs_v1(struct xdr_enc *e, const void *args)
{
	return enc_cancargs(e, args, false);
}

int nlm_dec_cancargs_v1(struct xdr_dec *d, void *args)
{
	return dec_cancargs(d, args, false);
}

int nlm_enc_unlockargs_v1(struct xdr_enc *e, const void *args)
{
	return enc_unlockargs(e, args, false);
}

int nlm_dec_unlockargs_v1(struct xdr_dec *d, void *args)
{
	return dec_unlockargs(d, args, false);
}

int nlm_enc_testres_v1(struct xdr_enc *e, const void *res)
{
	return enc_testres(e, res, false);
}

int nlm_dec_testres_v1(struct xdr_dec *d, void *res)
{
	return dec_testres(d, res, false);
}

int nlm_enc_testargs_v4(struct xdr_enc *e, const void *args)
{
	return enc_testargs(e, args, true);
}

int nlm_dec_testargs_v4(struct xdr_dec *d, void *args)
{
	return dec_testargs(d, args, true);
}

int nlm_enc_lockargs_v4(struct xdr_enc *e, const void *args)
{
	return enc_lockargs(e, args, true);
}

int nlm_dec_lockargs_v4(struct xdr_dec *d, void *args)
{
	return dec_lockargs(d, args, true);
}

int nlm_enc_cancargs_v4(struct xdr_enc *e, const void *args)
{
	return enc_cancargs(e, args, true);
}

int nlm_dec_cancargs_v4(struct xdr_dec *d, void *args)
{
	return dec_cancargs(d, args, true);
}

int nlm_enc_unlockargs_v4(struct xdr_enc *e, const void *args)
{
	return enc_unlockargs(e, args, true);
}

int nlm_dec_unlockargs_v4(struct xdr_dec *d, void *args)
{
	return dec_unlockargs(d, args, true);
}

int nlm_enc_testres_v4(struct xdr_enc *e, const void *res)
{
	return enc_testres(e, res, true);
}

int nlm_dec_testres_v4(struct xdr_dec *d, void *res)
{
	return dec_testres(d, res, true);
}

/* ---- the same in every version ---- */

/* struct nlm4_stat { nlm4_stats stat; };
 * struct nlm4_res { netobj cookie; nlm4_stat stat; }; */
int nlm_enc_res(struct xdr_enc *e, const void *res)
{
	const struct nlm_res *r = res;

	nlm_enc_netobj(e, &r->cookie);
	return xdr_enc_u32(e, r->stat);
}

int nlm_dec_res(struct xdr_dec *d, void *res)
{
	struct nlm_res *r = res;

	memset(r, 0, sizeof(*r));
	if (nlm_dec_netobj(d, &r->cookie) || xdr_dec_u32(d, &r->stat))
		return -EBADMSG;
	return 0;
}

/*
 * struct nlm4_share {
 *	string caller_name<LM_MAXSTRLEN>;
 *	netobj fh;
 *	netobj oh;
 *	fsh4_mode mode;
 *	fsh4_access access;
 * };
 * struct nlm4_shareargs { netobj cookie; nlm4_share share; bool reclaim; };
 */
int nlm_enc_shareargs(struct xdr_enc *e, const void *args)
{
	const struct nlm_shareargs *a = args;
	const struct nlm_share *s = &a->share;

	nlm_enc_netobj(e, &a->cookie);
	enc_name(e, NLM_MAXSTRLEN, s->caller_name, s->caller_name_len);
	nlm_enc_netobj(e, &s->fh);
	nlm_enc_netobj(e, &s->oh);
	xdr_enc_u32(e, s->mode);
	xdr_enc_u32(e, s->access);
	return xdr_enc_bool(e, a->reclaim);
}

int nlm_dec_shareargs(struct xdr_dec *d, void *args)
{
	struct nlm_shareargs *a = args;
	struct nlm_share *s = &a->share;

	memset(a, 0, sizeof(*a));
	if (nlm_dec_netobj(d, &a->cookie) ||
	    xdr_dec_string(d, NLM_MAXSTRLEN, &s->caller_name,
			   &s->caller_name_len) ||
	    nlm_dec_netobj(d, &s->fh) || nlm_dec_netobj(d, &s->oh) ||
	    xdr_dec_u32(d, &s->mode) || xdr_dec_u32(d, &s->access) ||
	    xdr_dec_bool(d, &a->reclaim))
		return -EBADMSG;
	return 0;
}

/* struct nlm4_shareres { netobj cookie; nlm4_stats stat; int32 sequence; }; */
int nlm_enc_shareres(struct xdr_enc *e, const void *res)
{
	const struct nlm_shareres *r = res;

	nlm_enc_netobj(e, &r->cookie);
	xdr_enc_u32(e, r->stat);
	return xdr_enc_i32(e, r->sequence);
}

int nlm_dec_shareres(struct xdr_dec *d, void *res)
{
	struct nlm_shareres *r = res;

	memset(r, 0, sizeof(*r));
	if (nlm_dec_netobj(d, &r->cookie) || xdr_dec_u32(d, &r->stat) ||
	    xdr_dec_i32(d, &r->sequence))
		return -EBADMSG;
	return 0;
}

/* struct nlm4_notify { string name<MAXNAMELEN>; int32 state; };
 * (32 bits on the wire: see nlm.h) */
int nlm_enc_notify(struct xdr_enc *e, const void *args)
{
	const struct nlm_notify *n = args;

	enc_name(e, NLM_MAXNAMELEN, n->name, n->name_len);
	return xdr_enc_i32(e, n->state);
}

int nlm_dec_notify(struct xdr_dec *d, void *args)
{
	struct nlm_notify *n = args;

	memset(n, 0, sizeof(*n));
	if (xdr_dec_string(d, NLM_MAXNAMELEN, &n->name, &n->name_len) ||
	    xdr_dec_i32(d, &n->state))
		return -EBADMSG;
	return 0;
}

/* ---- procedure tables ---- */

#define NLM_VOID NULL, NULL, 0
#define NLM_ARGS(type, v) nlm_enc_##type##v, nlm_dec_##type##v, \
	sizeof(struct nlm_##type)
#define NLM_RES(type, v) nlm_enc_##type##v, nlm_dec_##type##v, \
	sizeof(struct nlm_##type)

#define NLM_TABLE(v)                                                         \
	{                                                                    \
		[NLMPROC_NULL] = { NLMPROC_NULL, "NULL", NLM_VOID, NLM_VOID }, \
		[NLMPROC_TEST] = { NLMPROC_TEST, "TEST",                     \
				   NLM_ARGS(testargs, v),                    \
				   NLM_RES(testres, v) },                    \
		[NLMPROC_LOCK] = { NLMPROC_LOCK, "LOCK",                     \
				   NLM_ARGS(lockargs, v), NLM_RES(res, ) },  \
		[NLMPROC_CANCEL] = { NLMPROC_CANCEL, "CANCEL",               \
				     NLM_ARGS(cancargs, v),                  \
				     NLM_RES(res, ) },                       \
		[NLMPROC_UNLOCK] = { NLMPROC_UNLOCK, "UNLOCK",               \
				     NLM_ARGS(unlockargs, v),                \
				     NLM_RES(res, ) },                       \
		[NLMPROC_GRANTED] = { NLMPROC_GRANTED, "GRANTED",            \
				      NLM_ARGS(testargs, v),                 \
				      NLM_RES(res, ) },                      \
		[NLMPROC_TEST_MSG] = { NLMPROC_TEST_MSG, "TEST_MSG",         \
				       NLM_ARGS(testargs, v), NLM_VOID },    \
		[NLMPROC_LOCK_MSG] = { NLMPROC_LOCK_MSG, "LOCK_MSG",         \
				       NLM_ARGS(lockargs, v), NLM_VOID },    \
		[NLMPROC_CANCEL_MSG] = { NLMPROC_CANCEL_MSG, "CANCEL_MSG",   \
					 NLM_ARGS(cancargs, v), NLM_VOID },  \
		[NLMPROC_UNLOCK_MSG] = { NLMPROC_UNLOCK_MSG, "UNLOCK_MSG",   \
					 NLM_ARGS(unlockargs, v),            \
					 NLM_VOID },                         \
		[NLMPROC_GRANTED_MSG] = { NLMPROC_GRANTED_MSG, "GRANTED_MSG", \
					  NLM_ARGS(testargs, v), NLM_VOID }, \
		[NLMPROC_TEST_RES] = { NLMPROC_TEST_RES, "TEST_RES",         \
				       NLM_ARGS(testres, v), NLM_VOID },     \
		[NLMPROC_LOCK_RES] = { NLMPROC_LOCK_RES, "LOCK_RES",         \
				       NLM_ARGS(res, ), NLM_VOID },          \
		[NLMPROC_CANCEL_RES] = { NLMPROC_CANCEL_RES, "CANCEL_RES",   \
					 NLM_ARGS(res, ), NLM_VOID },        \
		[NLMPROC_UNLOCK_RES] = { NLMPROC_UNLOCK_RES, "UNLOCK_RES",   \
					 NLM_ARGS(res, ), NLM_VOID },        \
		[NLMPROC_GRANTED_RES] = { NLMPROC_GRANTED_RES, "GRANTED_RES", \
					  NLM_ARGS(res, ), NLM_VOID },       \
		[NLMPROC_SHARE] = { NLMPROC_SHARE, "SHARE",                  \
				    NLM_ARGS(shareargs, ),                   \
				    NLM_RES(shareres, ) },                   \
		[NLMPROC_UNSHARE] = { NLMPROC_UNSHARE, "UNSHARE",            \
				      NLM_ARGS(shareargs, ),                 \
				      NLM_RES(shareres, ) },                 \
		[NLMPROC_NM_LOCK] = { NLMPROC_NM_LOCK, "NM_LOCK",            \
				      NLM_ARGS(lockargs, v),                 \
				      NLM_RES(res, ) },                      \
		[NLMPROC_FREE_ALL] = { NLMPROC_FREE_ALL, "FREE_ALL",         \
				       NLM_ARGS(notify, ), NLM_VOID },       \
	}

static const struct xdr_proc_codec nlm_v1_procs[NLMPROC_COUNT] =
	NLM_TABLE(_v1);
static const struct xdr_proc_codec nlm_v4_procs[NLMPROC_COUNT] =
	NLM_TABLE(_v4);

const struct xdr_proc_codec *nlm_proc_codec(uint32_t vers, uint32_t proc)
{
	const struct xdr_proc_codec *t;

	switch (vers) {
	case NLM_V1:
		if (proc > NLMPROC_GRANTED_RES)
			return NULL;
		t = nlm_v1_procs;
		break;
	case NLM_V3:
		t = nlm_v1_procs;
		break;
	case NLM_V4:
		t = nlm_v4_procs;
		break;
	default:
		return NULL;
	}
	if (proc >= NLMPROC_COUNT || !t[proc].name)
		return NULL;
	return &t[proc];
}
