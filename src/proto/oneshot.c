/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "oneshot.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

int oneshot_call(const struct oneshot_peer *peer, uint32_t proc,
		 const struct rpc_cred *cred, xdr_enc_fn enc, const void *args,
		 xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		 struct rpc_proc_stats *stats)
{
	struct sockaddr_in sin = peer->addr;
	char host[INET_ADDRSTRLEN], name[INET_ADDRSTRLEN + 32];
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
	if (!inet_ntop(AF_INET, &sin.sin_addr, host, sizeof(host)))
		strcpy(host, "?");
	snprintf(name, sizeof(name), "%s %s", peer->service, host);
	sin.sin_family = AF_INET;
	ret = rpc_clnt_create((const struct sockaddr *)&sin, sizeof(sin),
			      peer->prog, peer->vers, &opts, &c);
	if (ret)
		return ret;
	ret = rpc_clnt_call(c, proc, cred, enc, args, dec, res, reply, NULL);
	if (stats && rpc_clnt_get_stats(c, proc, stats))
		memset(stats, 0, sizeof(*stats)); /* proc beyond nprocs */
	rpc_clnt_destroy(c);
	return ret;
}
