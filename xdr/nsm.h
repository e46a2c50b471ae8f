/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network Status Monitor (STATMON), program 100024 version 1, as in
 * rpcsvc/sm_inter.x and Open Group XNFS chapter 11, plus SM_NOTIFY (6),
 * and the callback that the local statd makes to the program, version and
 * procedure given in my_id when a monitored host reboots (struct status).
 *
 * The client talks to its local statd (SM_MON, SM_UNMON, SM_UNMON_ALL,
 * SM_STAT), statd calls us back with struct status, and sm-notify style
 * code sends SM_NOTIFY to servers.  Both directions are here for every
 * type, to fit struct xdr_proc_codec (encoders `const void *`, decoders
 * `void *`; see nsm_proc_codec()).
 *
 * Ownership: names point into the buffer being decoded and are valid only
 * as long as that buffer; they are NOT NUL-terminated: use the (name, len)
 * pairs.  To encode, point them at the caller's memory (len bytes, no NUL
 * needed; a NUL inside is refused with -EINVAL).  priv[16] is copied.
 *
 * Decoders return 0 or -EBADMSG (malformed) and zero the structure first;
 * res_stat is data, kept as sent.  Encoders return 0 or the encoder's
 * sticky error (-ENOMEM, -EINVAL for a name over SM_MAXSTRLEN).
 */
#ifndef NFSFUSE_XDR_NSM_H
#define NFSFUSE_XDR_NSM_H

#include "xdr.h"

#define NSM_PROGRAM 100024u
#define NSM_VERSION 1u

#define NSM_MAXSTRLEN 1024u /* SM_MAXSTRLEN */
#define NSM_PRIV_SIZE 16u   /* opaque priv[16] */

enum nsm_proc {
	NSMPROC_NULL = 0,
	NSMPROC_STAT = 1,
	NSMPROC_MON = 2,
	NSMPROC_UNMON = 3,
	NSMPROC_UNMON_ALL = 4,
	NSMPROC_SIMU_CRASH = 5,
	NSMPROC_NOTIFY = 6,
	NSMPROC_COUNT = 7
};

/* "SM_MON" etc., indexed by enum nsm_proc ("NULL" for 0). */
extern const char *const nsm_proc_names[NSMPROC_COUNT];

/* enum res */
enum nsm_res_stat {
	NSM_STAT_SUCC = 0, /* status monitor agrees to monitor */
	NSM_STAT_FAIL = 1  /* status monitor cannot monitor */
};

/* A state number is odd while the host is up, even while it is down;
 * it increases at every change. */
static inline bool nsm_state_up(int32_t state)
{
	return (state & 1) != 0;
}

/* struct sm_name { string mon_name<SM_MAXSTRLEN>; };  SM_STAT */
struct nsm_name {
	const char *mon_name; /* mon_name_len bytes, no NUL */
	uint32_t mon_name_len;
};

/*
 * struct my_id {
 *	string my_name<SM_MAXSTRLEN>;
 *	int my_prog;
 *	int my_vers;
 *	int my_proc;
 * };
 * SM_UNMON_ALL.  The three numbers are ints in the .x; they carry RPC
 * program, version and procedure numbers, unsigned here (same 32 bits).
 */
struct nsm_my_id {
	const char *my_name; /* my_name_len bytes, no NUL */
	uint32_t my_name_len;
	uint32_t my_prog;
	uint32_t my_vers;
	uint32_t my_proc;
};

/* struct mon_id { string mon_name<SM_MAXSTRLEN>; struct my_id my_id; };
 * SM_UNMON. */
struct nsm_mon_id {
	const char *mon_name; /* mon_name_len bytes, no NUL */
	uint32_t mon_name_len;
	struct nsm_my_id my_id;
};

/* struct mon { struct mon_id mon_id; opaque priv[16]; };  SM_MON */
struct nsm_mon {
	struct nsm_mon_id mon_id;
	uint8_t priv[NSM_PRIV_SIZE];
};

/* struct sm_stat_res { res res_stat; int state; };  SM_STAT, SM_MON */
struct nsm_stat_res {
	uint32_t res_stat; /* enum nsm_res_stat, kept as sent */
	int32_t state;
};

/* struct sm_stat { int state; };  SM_UNMON, SM_UNMON_ALL */
struct nsm_stat {
	int32_t state;
};

/* struct stat_chge { string mon_name<SM_MAXSTRLEN>; int state; };
 * SM_NOTIFY */
struct nsm_stat_chge {
	const char *mon_name; /* mon_name_len bytes, no NUL */
	uint32_t mon_name_len;
	int32_t state;
};

/*
 * struct status {
 *	string mon_name<SM_MAXSTRLEN>;
 *	int state;
 *	opaque priv[16];
 * };
 * The argument of statd's callback to my_prog/my_vers/my_proc; void
 * result.  mon_name is the name given to SM_MON, priv what was given
 * with it.
 */
struct nsm_status {
	const char *mon_name; /* mon_name_len bytes, no NUL */
	uint32_t mon_name_len;
	int32_t state;
	uint8_t priv[NSM_PRIV_SIZE];
};

int nsm_enc_name(struct xdr_enc *e, const void *args);
int nsm_dec_name(struct xdr_dec *d, void *args);
int nsm_enc_my_id(struct xdr_enc *e, const void *args);
int nsm_dec_my_id(struct xdr_dec *d, void *args);
int nsm_enc_mon_id(struct xdr_enc *e, const void *args);
int nsm_dec_mon_id(struct xdr_dec *d, void *args);
int nsm_enc_mon(struct xdr_enc *e, const void *args);
int nsm_dec_mon(struct xdr_dec *d, void *args);
int nsm_enc_stat_res(struct xdr_enc *e, const void *res);
int nsm_dec_stat_res(struct xdr_dec *d, void *res);
int nsm_enc_stat(struct xdr_enc *e, const void *res);
int nsm_dec_stat(struct xdr_dec *d, void *res);
int nsm_enc_stat_chge(struct xdr_enc *e, const void *args);
int nsm_dec_stat_chge(struct xdr_dec *d, void *args);
int nsm_enc_status(struct xdr_enc *e, const void *args);
int nsm_dec_status(struct xdr_dec *d, void *args);

/* The codecs of proc (version 1), or NULL if there is no such procedure.
 * The statd callback has no fixed number (it is my_proc): use
 * nsm_enc_status()/nsm_dec_status() directly. */
const struct xdr_proc_codec *nsm_proc_codec(uint32_t proc);

#endif
