/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "oneshot.h"

#include <stdio.h>
#include <string.h>

int oneshot_call(const struct oneshot_peer *peer, uint32_t proc,
		 const struct rpc_cred *cred, xdr_enc_fn enc, const void *args,
		 xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		 struct rpc_proc_stats *stats)
{
	char host[RPC_ADDR_HOSTLEN], name[RPC_ADDR_HOSTLEN + 32];
	struct rpc_clnt_opts opts = {
		.proto = peer->proto,
		.resvport = peer->resvport,
		.timeo_ds = peer->timeo_ds,
		.retrans = peer->retrans,
		.soft = true,
		.server = name,
		.proc_names = peer->proc_names,
		.nprocs = peer->nprocs,
	};
	struct rpc_clnt *c;
	int ret;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	snprintf(name, sizeof(name), "%s %s", peer->service,
		 rpc_addr_host(&peer->addr, host, sizeof(host)));
	ret = rpc_clnt_create(&peer->addr.u.sa, peer->addr.len, peer->prog,
			      peer->vers, &opts, &c);
	if (ret) {
		if (peer->noconn)
			*peer->noconn = true;
		return ret;
	}
	ret = rpc_clnt_call(c, proc, cred, enc, args, dec, res, reply, NULL);
	if (stats && rpc_clnt_get_stats(c, proc, stats))
		memset(stats, 0, sizeof(*stats)); /* proc beyond nprocs */
	rpc_clnt_destroy(c);
	return ret;
}
