/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfsacl_client.h"

#include <errno.h>

int nfsacl_client_open(const struct rpc_addr *server,
		       const struct rpc_clnt_opts *opts, struct rpc_clnt **out)
{
	struct rpc_clnt_opts probe = *opts, ro = *opts;
	struct rpc_clnt *c;
	int ret;

	probe.timeo_ds = 50;
	probe.retrans = 1;
	probe.soft = true;
	probe.proc_names = nfsacl_proc_names;
	probe.nprocs = NFSACLPROC_COUNT;
	ret = rpc_clnt_create(&server->u.sa, server->len,
			      NFSACL_PROGRAM, NFSACL_V3, &probe, &c);
	if (ret)
		return ret;
	ret = rpc_clnt_call(c, NFSACLPROC_NULL, NULL, NULL, NULL, NULL, NULL,
			    NULL, NULL);
	rpc_clnt_destroy(c);
	if (ret)
		return ret;
	ro.proc_names = nfsacl_proc_names;
	ro.nprocs = NFSACLPROC_COUNT;
	return rpc_clnt_create(&server->u.sa, server->len,
			       NFSACL_PROGRAM, NFSACL_V3, &ro, out);
}

int nfsacl_getacl(struct rpc_clnt *c, const struct rpc_cred *cred,
		  const struct nfsacl_getacl_args *args,
		  struct nfsacl_getacl_res *res, struct rpc_reply *reply,
		  volatile int *interrupted)
{
	return rpc_clnt_call(c, NFSACLPROC3_GETACL, cred,
			     nfsacl_enc_getacl_args, args,
			     nfsacl_dec_getacl_res, res, reply, interrupted);
}

int nfsacl_setacl(struct rpc_clnt *c, const struct rpc_cred *cred,
		  const struct nfsacl_setacl_args *args,
		  struct nfsacl_setacl_res *res, volatile int *interrupted)
{
	return rpc_clnt_call(c, NFSACLPROC3_SETACL, cred,
			     nfsacl_enc_setacl_args, args,
			     nfsacl_dec_setacl_res, res, NULL, interrupted);
}
