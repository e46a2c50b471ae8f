/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nsm.h"

#include <errno.h>
#include <string.h>

const char *const nsm_proc_names[NSMPROC_COUNT] = {
	[NSMPROC_NULL] = "NULL",
	[NSMPROC_STAT] = "SM_STAT",
	[NSMPROC_MON] = "SM_MON",
	[NSMPROC_UNMON] = "SM_UNMON",
	[NSMPROC_UNMON_ALL] = "SM_UNMON_ALL",
	[NSMPROC_SIMU_CRASH] = "SM_SIMU_CRASH",
	[NSMPROC_NOTIFY] = "SM_NOTIFY",
};

/* string name<SM_MAXSTRLEN> from a (pointer, length) pair. */
static int enc_name(struct xdr_enc *e, const char *s, uint32_t len)
{
	if (len && (!s || memchr(s, '\0', len))) {
		if (!e->err)
			e->err = -EINVAL;
		return e->err;
	}
	return xdr_enc_opaque(e, NSM_MAXSTRLEN, s, len);
}

static int dec_name(struct xdr_dec *d, const char **s, uint32_t *len)
{
	return xdr_dec_string(d, NSM_MAXSTRLEN, s, len);
}

/* struct sm_name { string mon_name<SM_MAXSTRLEN>; }; */
int nsm_enc_name(struct xdr_enc *e, const void *args)
{
	const struct nsm_name *a = args;

	return enc_name(e, a->mon_name, a->mon_name_len);
}

int nsm_dec_name(struct xdr_dec *d, void *args)
{
	struct nsm_name *a = args;

	memset(a, 0, sizeof(*a));
	return dec_name(d, &a->mon_name, &a->mon_name_len);
}

/*
 * struct my_id {
 *	string my_name<SM_MAXSTRLEN>;
 *	int my_prog;
 *	int my_vers;
 *	int my_proc;
 * };
 */
int nsm_enc_my_id(struct xdr_enc *e, const void *args)
{
	const struct nsm_my_id *a = args;

	enc_name(e, a->my_name, a->my_name_len);
	xdr_enc_u32(e, a->my_prog);
	xdr_enc_u32(e, a->my_vers);
	return xdr_enc_u32(e, a->my_proc);
}

int nsm_dec_my_id(struct xdr_dec *d, void *args)
{
	struct nsm_my_id *a = args;

	memset(a, 0, sizeof(*a));
	if (dec_name(d, &a->my_name, &a->my_name_len) ||
	    xdr_dec_u32(d, &a->my_prog) || xdr_dec_u32(d, &a->my_vers) ||
	    xdr_dec_u32(d, &a->my_proc))
		return -EBADMSG;
	return 0;
}

/* struct mon_id { string mon_name<SM_MAXSTRLEN>; struct my_id my_id; }; */
int nsm_enc_mon_id(struct xdr_enc *e, const void *args)
{
	const struct nsm_mon_id *a = args;

	enc_name(e, a->mon_name, a->mon_name_len);
	return nsm_enc_my_id(e, &a->my_id);
}

int nsm_dec_mon_id(struct xdr_dec *d, void *args)
{
	struct nsm_mon_id *a = args;

	memset(a, 0, sizeof(*a));
	if (dec_name(d, &a->mon_name, &a->mon_name_len))
		return -EBADMSG;
	return nsm_dec_my_id(d, &a->my_id);
}

/* struct mon { struct mon_id mon_id; opaque priv[16]; }; */
int nsm_enc_mon(struct xdr_enc *e, const void *args)
{
	const struct nsm_mon *a = args;

	nsm_enc_mon_id(e, &a->mon_id);
	return xdr_enc_opaque_fixed(e, a->priv, NSM_PRIV_SIZE);
}

int nsm_dec_mon(struct xdr_dec *d, void *args)
{
	struct nsm_mon *a = args;
	const uint8_t *priv;

	memset(a, 0, sizeof(*a));
	if (nsm_dec_mon_id(d, &a->mon_id) ||
	    xdr_dec_opaque_fixed(d, NSM_PRIV_SIZE, &priv))
		return -EBADMSG;
	memcpy(a->priv, priv, NSM_PRIV_SIZE);
	return 0;
}

/* struct sm_stat_res { res res_stat; int state; }; */
int nsm_enc_stat_res(struct xdr_enc *e, const void *res)
{
	const struct nsm_stat_res *r = res;

	xdr_enc_u32(e, r->res_stat);
	return xdr_enc_i32(e, r->state);
}

int nsm_dec_stat_res(struct xdr_dec *d, void *res)
{
	struct nsm_stat_res *r = res;

	memset(r, 0, sizeof(*r));
	if (xdr_dec_u32(d, &r->res_stat) || xdr_dec_i32(d, &r->state))
		return -EBADMSG;
	return 0;
}

/* struct sm_stat { int state; }; */
int nsm_enc_stat(struct xdr_enc *e, const void *res)
{
	const struct nsm_stat *r = res;

	return xdr_enc_i32(e, r->state);
}

int nsm_dec_stat(struct xdr_dec *d, void *res)
{
	struct nsm_stat *r = res;

	memset(r, 0, sizeof(*r));
	return xdr_dec_i32(d, &r->state);
}

/* struct stat_chge { string mon_name<SM_MAXSTRLEN>; int state; }; */
int nsm_enc_stat_chge(struct xdr_enc *e, const void *args)
{
	const struct nsm_stat_chge *a = args;

	enc_name(e, a->mon_name, a->mon_name_len);
	return xdr_enc_i32(e, a->state);
}

int nsm_dec_stat_chge(struct xdr_dec *d, void *args)
{
	struct nsm_stat_chge *a = args;

	memset(a, 0, sizeof(*a));
	if (dec_name(d, &a->mon_name, &a->mon_name_len) ||
	    xdr_dec_i32(d, &a->state))
		return -EBADMSG;
	return 0;
}

/*
 * struct status {
 *	string mon_name<SM_MAXSTRLEN>;
 *	int state;
 *	opaque priv[16];
 * };
 */
int nsm_enc_status(struct xdr_enc *e, const void *args)
{
	const struct nsm_status *a = args;

	enc_name(e, a->mon_name, a->mon_name_len);
	xdr_enc_i32(e, a->state);
	return xdr_enc_opaque_fixed(e, a->priv, NSM_PRIV_SIZE);
}

int nsm_dec_status(struct xdr_dec *d, void *args)
{
	struct nsm_status *a = args;
	const uint8_t *priv;

	memset(a, 0, sizeof(*a));
	if (dec_name(d, &a->mon_name, &a->mon_name_len) ||
	    xdr_dec_i32(d, &a->state) ||
	    xdr_dec_opaque_fixed(d, NSM_PRIV_SIZE, &priv))
		return -EBADMSG;
	memcpy(a->priv, priv, NSM_PRIV_SIZE);
	return 0;
}

#define NSM_VOID NULL, NULL, 0
#define NSM_CODEC(type) nsm_enc_##type, nsm_dec_##type, \
	sizeof(struct nsm_##type)

static const struct xdr_proc_codec nsm_procs[NSMPROC_COUNT] = {
	/* void SM_NULL(void) = 0; */
	[NSMPROC_NULL] = { NSMPROC_NULL, "NULL", NSM_VOID, NSM_VOID },
	/* struct sm_stat_res SM_STAT(struct sm_name) = 1; */
	[NSMPROC_STAT] = { NSMPROC_STAT, "SM_STAT", NSM_CODEC(name),
			   NSM_CODEC(stat_res) },
	/* struct sm_stat_res SM_MON(struct mon) = 2; */
	[NSMPROC_MON] = { NSMPROC_MON, "SM_MON", NSM_CODEC(mon),
			  NSM_CODEC(stat_res) },
	/* struct sm_stat SM_UNMON(struct mon_id) = 3; */
	[NSMPROC_UNMON] = { NSMPROC_UNMON, "SM_UNMON", NSM_CODEC(mon_id),
			    NSM_CODEC(stat) },
	/* struct sm_stat SM_UNMON_ALL(struct my_id) = 4; */
	[NSMPROC_UNMON_ALL] = { NSMPROC_UNMON_ALL, "SM_UNMON_ALL",
				NSM_CODEC(my_id), NSM_CODEC(stat) },
	/* void SM_SIMU_CRASH(void) = 5; */
	[NSMPROC_SIMU_CRASH] = { NSMPROC_SIMU_CRASH, "SM_SIMU_CRASH",
				 NSM_VOID, NSM_VOID },
	/* void SM_NOTIFY(struct stat_chge) = 6; */
	[NSMPROC_NOTIFY] = { NSMPROC_NOTIFY, "SM_NOTIFY", NSM_CODEC(stat_chge),
			     NSM_VOID },
};

const struct xdr_proc_codec *nsm_proc_codec(uint32_t proc)
{
	if (proc >= NSMPROC_COUNT)
		return NULL;
	return &nsm_procs[proc];
}
