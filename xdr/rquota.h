/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RQUOTA, program 100011: a user's (v2: or a group's) disk quota on the
 * server's file system, as quota(1) shows it.  Version 1 is
 * /usr/include/rpcsvc/rquota.x; version 2 (EXT_RQUOTAVERS, Linux
 * quota-tools' rquota.x) adds the quota type to the arguments:
 *
 *	struct getquota_args { string gqa_pathp<RQ_PATHLEN>; int gqa_uid; };
 *	struct ext_getquota_args { string gqa_pathp<RQ_PATHLEN>;
 *				   int gqa_type; int gqa_id; };
 *	struct rquota {
 *		int rq_bsize; bool rq_active;
 *		unsigned rq_bhardlimit, rq_bsoftlimit, rq_curblocks;
 *		unsigned rq_fhardlimit, rq_fsoftlimit, rq_curfiles;
 *		unsigned rq_btimeleft, rq_ftimeleft;
 *	};
 *	enum gqr_status { Q_OK = 1, Q_NOQUOTA = 2, Q_EPERM = 3 };
 *	union getquota_rslt switch (gqr_status status) {
 *	case Q_OK: rquota gqr_rquota;
 *	default: void;     (Q_NOQUOTA and Q_EPERM)
 *	};
 * Procedures 1 GETQUOTA and 2 GETACTIVEQUOTA in both versions (v1 args
 * getquota_args, v2 ext_getquota_args); the result is the same.
 *
 * Decoders return 0 or -EBADMSG (an unknown status is kept as data, with
 * no arm decoded); encoders 0 or the sticky error (-EINVAL: path too long).
 */
#ifndef NFSFUSE_XDR_RQUOTA_H
#define NFSFUSE_XDR_RQUOTA_H

#include "xdr.h"

#define RQUOTA_PROGRAM 100011u
#define RQUOTA_V1 1u
#define RQUOTA_V2 2u
#define RQUOTA_PATHLEN 1024u

enum rquota_proc {
	RQUOTAPROC_NULL = 0,
	RQUOTAPROC_GETQUOTA = 1,
	RQUOTAPROC_GETACTIVEQUOTA = 2,
	RQUOTAPROC_COUNT = 3
};
extern const char *const rquota_proc_names[RQUOTAPROC_COUNT];

enum rquota_type { RQUOTA_USRQUOTA = 0, RQUOTA_GRPQUOTA = 1 };
enum rquota_status { RQUOTA_Q_OK = 1, RQUOTA_Q_NOQUOTA = 2, RQUOTA_Q_EPERM = 3 };

struct rquota_getquota_args {
	const char *path;  /* NUL-terminated; the export path on the server */
	uint32_t type;     /* enum rquota_type; v2 only (v1: users only) */
	uint32_t id;
};

struct rquota_dqblk {
	int32_t bsize;     /* bytes per block of the block counts */
	bool active;
	uint32_t bhardlimit, bsoftlimit, curblocks;
	uint32_t fhardlimit, fsoftlimit, curfiles;
	uint32_t btimeleft, ftimeleft; /* seconds of grace left */
};

struct rquota_getquota_res {
	uint32_t status;   /* enum rquota_status */
	struct rquota_dqblk q; /* Q_OK only */
};

int rquota_enc_getquota1_args(struct xdr_enc *e, const void *args);
int rquota_enc_getquota2_args(struct xdr_enc *e, const void *args);
int rquota_dec_getquota_res(struct xdr_dec *d, void *res);

/* server side, for tests and fake servers */
int rquota_enc_getquota_res(struct xdr_enc *e, const void *res);

/* Negative errno of a status: 0, -ESRCH (no quota: as quotactl), -EPERM,
 * -EIO for unknown values. */
int rquota_stat_errno(uint32_t status);

#endif
