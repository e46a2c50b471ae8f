/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building NFSv4 COMPOUNDs from the NFSv3 types the upper layers hold, and
 * walking their replies: what every file that sends NFSv4 operations
 * (nfs4_procs.c, nfs4_open_ops.c, nfs4_acl_client.c, nfs42_ops.c) needs
 * alike.
 *
 * A walk reads the results in the order the operations were added.  The
 * first required operation that failed (or that the server never reached)
 * gives the call its status; after it nothing more is read.
 */
#ifndef NFSFUSE_PROTO_NFS4_WALK_H
#define NFSFUSE_PROTO_NFS4_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs4.h"

/* The special stateids of RFC 8881 §8.2.3: all zeros, anonymous (no
 * state); seqid 1 with other all zeros, the current stateid (the one the
 * previous operation of the COMPOUND produced). */
extern const struct nfs4_stateid nfs4_anon_stateid;
extern const struct nfs4_stateid nfs4_current_stateid;

/* PUTFH of a handle the upper layers hold: 0, -EINVAL for an empty or
 * oversized one, or the codec's error. */
int nfs4_add_putfh3(struct nfs4_compound *cmp, const struct nfs_fh3 *fh);
/* GETATTR of what an NFSv3 fattr3 and the change attribute need. */
int nfs4_add_getattr3(struct nfs4_compound *cmp);

struct nfs4_walk {
	uint32_t st4;   /* first failure among required operations */
	bool stopped;   /* no more results to read */
};
#define NFS4_WALK_INIT { NFS4_OK, false }

/* The next result, required: 1 when present and NFS4_OK; 0 when the
 * COMPOUND stopped at or before it (w->st4 then says why); -EBADMSG. */
int nfs4_walk_next(struct nfs4_compound_res *r, struct nfs4_walk *w,
		   uint32_t op, void *res);
/* The next result, optional: 1 when present and NFS4_OK; 0 when the
 * COMPOUND stopped at or before it, which ends the walk but leaves
 * w->st4 alone; -EBADMSG. */
int nfs4_walk_optional(struct nfs4_compound_res *r, struct nfs4_walk *w,
		       uint32_t op, void *res);
/* An optional GETATTR into *out (present only when it succeeded), as
 * above.  0 or -EBADMSG. */
int nfs4_walk_attr(struct nfs4_compound_res *r, struct nfs4_walk *w,
		   struct post_op_attr *out);

/* change_info4 into w->before, once w->after holds the directory's
 * attributes read after the operation: NFSv4's wcc.  Present only where
 * it proves the operation the directory's one change: taken atomically
 * with it, and "after" still the change attribute read since. */
void nfs4_wcc_from_cinfo(const struct nfs4_change_info *ci,
			 struct wcc_data *w);

/* RESTOREFH GETATTR after an operation on the directory saved before
 * it: its attributes after into out->after, and ci into out->before as
 * above.  Optional, as nfs4_walk_attr().  0 or -EBADMSG. */
int nfs4_walk_dir_after(struct nfs4_compound_res *r, struct nfs4_walk *w,
			const struct nfs4_change_info *ci,
			struct wcc_data *out);

/* A handle the upper layers can hold: 0, or -1 when it is longer than
 * NFS3_FHSIZE (logged once). */
int nfs4_fh_to_fh3(const struct nfs4_fh *in, struct nfs_fh3 *out);
/* Returned attributes as NFSv3 ones, owners mapped (nfs4_idmap.h);
 * attributes the server left out stay 0. */
void nfs4_attr_to_post_op(const struct nfs4_fattr *f,
			  struct post_op_attr *out);

#endif
