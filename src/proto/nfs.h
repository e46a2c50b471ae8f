/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The version-neutral NFS client.  Upper layers speak in the NFSv3 types
 * of xdr/nfs3.h (a superset of NFSv2's) and name procedures by their v3
 * number; each protocol version supplies a table that says how to put a
 * procedure on the wire and how to turn its reply back into the v3 result.
 * A version that lacks a procedure (v2 has no ACCESS, PATHCONF, COMMIT)
 * has no entry, and nfs_call() answers -ENOTSUP without a round trip.  A
 * version may also stand in for a procedure with one of its own: v2 answers
 * FSINFO from STATFS, MKNOD with CREATE, and READDIRPLUS with READDIR
 * (entries without attributes or handles, which READDIRPLUS3 allows).
 *
 * The NFS status is data in the result, not the return value: callers map
 * it with nfs_stat_errno() after letting the caches learn from the
 * attributes that even a failed reply carries.
 */
#ifndef NFSFUSE_PROTO_NFS_H
#define NFSFUSE_PROTO_NFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"
#include "../rpc/rpc.h"

/*
 * fixup, optional: runs after dec succeeded, for results a decoder cannot
 * finish from the reply bytes alone.  It may read the scalar fields of
 * args (for asynchronous calls a copy of args_size bytes taken when the
 * call was sent: pointers in it may no longer be valid) and may replace
 * reply->buf by a buffer of its own (malloc'd; the old one freed), moving
 * the pointers in res along, so that "results point into *reply" stays
 * true.  Returns 0 or a negative errno, which nfs_call() returns (having
 * released the reply).  NFSv2 uses it for the WRITE count, the READ eof
 * and to rewrite READDIR entries in the NFSv3 format (nfs2_procs.c).
 */
typedef int (*nfs_fixup_fn)(const void *args, void *res,
			    struct rpc_reply *reply);

struct nfs_proc {
	uint32_t wire_proc;  /* procedure number on the wire */
	xdr_enc_fn enc;
	xdr_dec_fn dec;
	nfs_fixup_fn fixup;  /* NULL for most */
	size_t args_size;    /* sizeof the args struct, when fixup is set */
};

struct nfs_client;
typedef void (*nfs_done_fn)(void *ctx, int err, void *res,
			    struct rpc_reply *reply);

struct nfs_version {
	uint32_t vers;
	const struct nfs_proc *procs; /* indexed by enum nfs3_proc */
	const char *const *names;     /* for statistics, by wire number */
	unsigned nnames;
	/*
	 * Optional, for versions whose calls need the client's state at
	 * encoding time, which a stateless enc cannot reach (NFSv4.1: a
	 * session slot and its sequence id, the open-owner, the owner
	 * strings).  When set, nfs_call() and nfs_call_async() hand every
	 * procedure that procs lists (dec non-NULL, or NULL) to them, with
	 * the same contract as themselves; procs then says only which
	 * procedures exist.
	 */
	int (*call)(struct nfs_client *c, enum nfs3_proc proc,
		    const struct rpc_cred *cred, const void *args, void *res,
		    struct rpc_reply *reply, volatile int *interrupted);
	int (*call_async)(struct nfs_client *c, enum nfs3_proc proc,
			  const struct rpc_cred *cred, const void *args,
			  void *res, nfs_done_fn done, void *ctx);
};

extern const struct nfs_version nfs_version3;
/* NFSv2 (RFC 1094) behind the same v3 types: nfs2_procs.c. */
extern const struct nfs_version nfs_version2;
/* NFSv4.1 and 4.2 (RFC 8881, RFC 7862) as COMPOUNDs: nfs4_procs.c.  Its
 * nfs_client needs v4, a started session. */
extern const struct nfs_version nfs_version4;

struct nfs4_session;
struct nfs4_locks;
struct nfs4_delegs;
struct nfs_client;
/*
 * NFSv4: the handle of path, walked from the server's pseudo root
 * (PUTROOTFH, then a LOOKUP per component, in one COMPOUND).  0, or a
 * negative errno with *failed (*failed_len bytes) the component the walk
 * stopped at, when it stopped at one.
 */
int nfs4_root_fh(struct nfs_client *c, const struct rpc_cred *cred,
		 const char *path, struct nfs_fh3 *out, const char **failed,
		 size_t *failed_len);

/* What FSINFO (or its NFSv2 stand-ins) told us about the server. */
struct nfs_fsinfo {
	uint32_t rtmax, rtpref;
	uint32_t wtmax, wtpref;
	uint32_t dtpref;
	uint64_t maxfilesize;
	struct nfstime3 time_delta;
	uint32_t properties;
};

/* nconnect=: TCP connections to the server at most (nfs(5)'s limit). */
#define NFS_NCONNECT_MAX 16u

struct nfs_client {
	/*
	 * The connections to the server: rpc is conns[0], the one that
	 * counts when there is one.  With nconnect=N there are N, each a
	 * client of its own (its socket, transport thread, XIDs, local
	 * port and reconnection), and calls are dealt to them in turn.  A
	 * call stays on the connection that sent it, so a retransmission
	 * reaches the server from the address and port its duplicate
	 * request cache knows it by.
	 */
	struct rpc_clnt *rpc;
	struct rpc_clnt *conns[NFS_NCONNECT_MAX];
	unsigned nconns;
	unsigned next_conn;   /* [atomic] */
	const struct nfs_version *v;
	struct nfs_fh3 root;
	struct nfs_fsinfo info;
	uint32_t rsize;  /* negotiated: min(option, rtmax) */
	uint32_t wsize;
	uint32_t dsize;  /* READDIR(PLUS) reply size */
	struct nfs4_session *v4; /* NFSv4.1 client id and session, or NULL */
	struct nfs4_opens *v4opens; /* its open state (nfs4_open.h), or NULL */
	/* Its lock state (nfs4_lock.h), for the reclaim, or NULL;
	 * [v4->lock]. */
	struct nfs4_locks *v4locks;
	/* Its delegations (nfs4_deleg.h), or NULL. */
	struct nfs4_delegs *v4delegs;
};

/* The connection for the next call. */
struct rpc_clnt *nfs_conn(struct nfs_client *c);

/*
 * One procedure.  Returns 0 when a reply was decoded (look at res->status),
 * or the transport's negative errno.  *reply owns the buffer that decoded
 * names and data point into; it may be NULL for procedures whose results
 * hold no pointers (everything but READLINK, READ, READDIR, READDIRPLUS).
 */
int nfs_call(struct nfs_client *c, enum nfs3_proc proc,
	     const struct rpc_cred *cred, const void *args, void *res,
	     struct rpc_reply *reply, volatile int *interrupted);

/*
 * The same, without waiting: done(ctx, err, res, reply) runs on the RPC
 * transport thread once the reply is decoded into res (err 0) or the call
 * failed (err < 0, res untouched).  done must not block; it owns *reply.
 * res must stay valid until done runs.  Returns 0 when the call was sent
 * (done will run exactly once) or a negative errno (it will not).
 */
int nfs_call_async(struct nfs_client *c, enum nfs3_proc proc,
		   const struct rpc_cred *cred, const void *args, void *res,
		   nfs_done_fn done, void *ctx);

/*
 * nfs_call() for a call the caller may stop waiting for without
 * abandoning it (reply NULL: results without pointers).  Returns as
 * nfs_call() does, done not called; or, once *interrupted is set,
 * -EINPROGRESS: the call goes on, and done(ctx, ...) runs at its end as
 * for nfs_call_async() (res must stay valid until then, and so must args
 * on NFSv4.1, which may send it again).  The write-back's WRITEs and
 * COMMITs: a caller that was interrupted stops waiting, and the
 * write-back still learns what became of them.
 */
int nfs_call_detach(struct nfs_client *c, enum nfs3_proc proc,
		    const struct rpc_cred *cred, const void *args, void *res,
		    volatile int *interrupted, nfs_done_fn done, void *ctx);

/* The one table from nfsstat3 to errno; unknown statuses log once and give
 * -EIO.  NFS3ERR_JUKEBOX gives -EAGAIN: the caller should retry later. */
int nfs_stat_errno(uint32_t status);

#endif
