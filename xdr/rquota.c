/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rquota.h"

#include <errno.h>
#include <string.h>

const char *const rquota_proc_names[RQUOTAPROC_COUNT] = {
	[RQUOTAPROC_NULL] = "NULL",
	[RQUOTAPROC_GETQUOTA] = "GETQUOTA",
	[RQUOTAPROC_GETACTIVEQUOTA] = "GETACTIVEQUOTA",
};

/* struct getquota_args { string gqa_pathp<RQ_PATHLEN>; int gqa_uid; }; */
int rquota_enc_getquota1_args(struct xdr_enc *e, const void *args)
{
	const struct rquota_getquota_args *a = args;

	xdr_enc_string(e, RQUOTA_PATHLEN, a->path);
	return xdr_enc_u32(e, a->id);
}

/* struct ext_getquota_args { string gqa_pathp<RQ_PATHLEN>; int gqa_type;
 *			      int gqa_id; }; */
int rquota_enc_getquota2_args(struct xdr_enc *e, const void *args)
{
	const struct rquota_getquota_args *a = args;

	xdr_enc_string(e, RQUOTA_PATHLEN, a->path);
	xdr_enc_u32(e, a->type);
	return xdr_enc_u32(e, a->id);
}

/* union getquota_rslt switch (gqr_status status) { case Q_OK: rquota; ... } */
int rquota_dec_getquota_res(struct xdr_dec *d, void *res)
{
	struct rquota_getquota_res *r = res;
	const uint8_t *p;

	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->status))
		return -EBADMSG;
	if (r->status != RQUOTA_Q_OK)
		return 0;
	p = xdr_dec_inline(d, 10 * XDR_UNIT);
	if (!p)
		return -EBADMSG;
	r->q.bsize = (int32_t)xdr_get_u32(p);
	if (xdr_get_u32(p + 4) > 1)
		return -EBADMSG; /* bool */
	r->q.active = xdr_get_u32(p + 4) == 1;
	r->q.bhardlimit = xdr_get_u32(p + 8);
	r->q.bsoftlimit = xdr_get_u32(p + 12);
	r->q.curblocks = xdr_get_u32(p + 16);
	r->q.fhardlimit = xdr_get_u32(p + 20);
	r->q.fsoftlimit = xdr_get_u32(p + 24);
	r->q.curfiles = xdr_get_u32(p + 28);
	r->q.btimeleft = xdr_get_u32(p + 32);
	r->q.ftimeleft = xdr_get_u32(p + 36);
	return 0;
}

int rquota_enc_getquota_res(struct xdr_enc *e, const void *res)
{
	const struct rquota_getquota_res *r = res;

	xdr_enc_u32(e, r->status);
	if (r->status != RQUOTA_Q_OK)
		return e->err;
	xdr_enc_i32(e, r->q.bsize);
	xdr_enc_bool(e, r->q.active);
	xdr_enc_u32(e, r->q.bhardlimit);
	xdr_enc_u32(e, r->q.bsoftlimit);
	xdr_enc_u32(e, r->q.curblocks);
	xdr_enc_u32(e, r->q.fhardlimit);
	xdr_enc_u32(e, r->q.fsoftlimit);
	xdr_enc_u32(e, r->q.curfiles);
	xdr_enc_u32(e, r->q.btimeleft);
	return xdr_enc_u32(e, r->q.ftimeleft);
}

int rquota_stat_errno(uint32_t status)
{
	switch (status) {
	case RQUOTA_Q_OK: return 0;
	case RQUOTA_Q_NOQUOTA: return -ESRCH;
	case RQUOTA_Q_EPERM: return -EPERM;
	}
	return -EIO;
}
