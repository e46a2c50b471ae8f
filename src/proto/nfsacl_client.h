/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSACL client (program 100227 version 3, xdr/nfsacl.h): a second RPC
 * client beside NFS, on the same server port, that GETs and SETs the
 * POSIX ACLs of file handles.  Calls may be made by any thread, as with
 * rpc_clnt_call().
 *
 * Results hold no pointers except the GETACL entry lists, which point
 * into *reply (release it with rpc_reply_release()).  The NFS status is
 * data; the return value is 0 or the transport's negative errno.
 */
#ifndef NFSFUSE_PROTO_NFSACL_CLIENT_H
#define NFSFUSE_PROTO_NFSACL_CLIENT_H

#include <netinet/in.h>

#include "../../xdr/nfsacl.h"
#include "../rpc/addr.h"
#include "../rpc/rpc.h"

/*
 * Connect to NFSACL v3 at server (its port: the NFS port) with the
 * mount's transport options, after probing it with a NULL call on a soft
 * client (5 s, one retry), so that a server without NFSACL never stalls a
 * hard mount.  0 with *out, -EPROTONOSUPPORT when the server does not
 * serve the program (ganesha's Enable_NFSACL = false), or another errno.
 */
int nfsacl_client_open(const struct rpc_addr *server,
		       const struct rpc_clnt_opts *opts, struct rpc_clnt **out);

int nfsacl_getacl(struct rpc_clnt *c, const struct rpc_cred *cred,
		  const struct nfsacl_getacl_args *args,
		  struct nfsacl_getacl_res *res, struct rpc_reply *reply,
		  volatile int *interrupted);
int nfsacl_setacl(struct rpc_clnt *c, const struct rpc_cred *cred,
		  const struct nfsacl_setacl_args *args,
		  struct nfsacl_setacl_res *res, volatile int *interrupted);

#endif
