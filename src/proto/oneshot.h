/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One call on a connection of its own: open a soft client, make the call,
 * close it.  For the side services asked at mount time or now and then
 * (MOUNT, the portmapper, rquotad), never for the data path, where the
 * session's long-lived client keeps its connection and counters.
 */
#ifndef NFSFUSE_PROTO_ONESHOT_H
#define NFSFUSE_PROTO_ONESHOT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "../rpc/addr.h"
#include "../rpc/rpc.h"

/* Where to call and how long to try.  The strings and the name table must
 * outlive the call only. */
struct oneshot_peer {
	struct rpc_addr addr;     /* the service's own port, not 0 */
	int proto;                /* IPPROTO_TCP or IPPROTO_UDP */
	bool resvport;
	unsigned timeo_ds;        /* as rpc_clnt_opts: soft, these retries */
	unsigned retrans;
	const char *service;      /* "mountd": messages name "mountd ::1" */
	uint32_t prog;
	uint32_t vers;
	const char *const *proc_names;
	unsigned nprocs;
	/* May be NULL: set to true when no connection could be made (a
	 * local bind or connect failure: nothing was sent). */
	bool *noconn;
};

/*
 * rpc_clnt_call() of proc on a fresh client for peer, which is closed before
 * this returns.  Arguments, results and errors are rpc_clnt_call()'s, and
 * those of rpc_clnt_create(); *reply (when not NULL) owns the results'
 * buffer after the client is gone.  stats (may be NULL) receives the
 * call's counters, which otherwise go with the client.
 */
int oneshot_call(const struct oneshot_peer *peer, uint32_t proc,
		 const struct rpc_cred *cred, xdr_enc_fn enc, const void *args,
		 xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		 struct rpc_proc_stats *stats);

#endif
