/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pmap_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oneshot.h"

/* Short-lived and soft: a portmapper that does not answer in 5 s (and once
 * more) is not there. */
#define PMAP_TIMEO_DS 50u
#define PMAP_RETRANS 1u

/* The portmapper at server's port 111, speaking portmap v2 or rpcbind
 * vers. */
static struct oneshot_peer pmap_peer(const struct sockaddr_in *server,
				     uint32_t vers)
{
	struct oneshot_peer peer = {
		.addr = *server,
		.proto = IPPROTO_TCP,
		.resvport = false,
		.timeo_ds = PMAP_TIMEO_DS,
		.retrans = PMAP_RETRANS,
		.service = "portmapper",
		.prog = PMAP_PROGRAM,
		.vers = vers,
		.proc_names = vers == PMAP_VERSION ? pmap_proc_names
						   : pmap_rpcb_proc_names,
		.nprocs = vers == PMAP_VERSION ? PMAPPROC_COUNT
					       : RPCBPROC_COUNT,
	};

	peer.addr.sin_port = htons(PMAP_PORT);
	return peer;
}

/* rpcbind v3/v4 GETADDR, for servers without portmap v2. */
static int rpcb_getaddr(const struct sockaddr_in *server, uint32_t rpcb_vers,
			uint32_t prog, uint32_t vers, int proto,
			uint16_t *port)
{
	struct pmap_rpcb_args args = {
		.prog = prog,
		.vers = vers,
		.netid = proto == IPPROTO_TCP ? "tcp" : "udp",
		.addr = "",
		.owner = "",
	};
	struct oneshot_peer peer = pmap_peer(server, rpcb_vers);
	struct pmap_getaddr_res res;
	struct rpc_reply reply;
	int ret;

	ret = oneshot_call(&peer, RPCBPROC_GETADDR, NULL, pmap_enc_rpcb_args,
			   &args, pmap_dec_getaddr_res, &res, &reply, NULL);
	if (ret == 0) {
		if (res.uaddr_len == 0)
			ret = -EPROTONOSUPPORT;
		else if (pmap_uaddr_port(res.uaddr, res.uaddr_len, port))
			ret = -EIO;
		else if (*port == 0)
			ret = -EPROTONOSUPPORT;
		rpc_reply_release(&reply);
	}
	return ret;
}

int pmap_clnt_getport(const struct sockaddr_in *server, uint32_t prog,
		      uint32_t vers, int proto, uint16_t *port)
{
	struct pmap_getport_args args = {
		{ prog, vers, 0, 0 }
	};
	struct oneshot_peer peer = pmap_peer(server, PMAP_VERSION);
	struct pmap_getport_res res;
	int ret;

	if (proto == IPPROTO_TCP)
		args.map.prot = PMAP_PROT_TCP;
	else if (proto == IPPROTO_UDP)
		args.map.prot = PMAP_PROT_UDP;
	else
		return -EINVAL;

	ret = oneshot_call(&peer, PMAPPROC_GETPORT, NULL, pmap_enc_getport_args,
			   &args, pmap_dec_getport_res, &res, NULL, NULL);
	if (ret == -EPROTONOSUPPORT) {
		/* No portmap v2 here: rpcbind v4, then v3. */
		ret = rpcb_getaddr(server, RPCB_VERSION4, prog, vers, proto,
				   port);
		if (ret == -EPROTONOSUPPORT)
			ret = rpcb_getaddr(server, RPCB_VERSION3, prog, vers,
					   proto, port);
		return ret;
	}
	if (ret)
		return ret;
	if (res.port == 0)
		return -EPROTONOSUPPORT;
	if (res.port > 65535)
		return -EIO;
	*port = (uint16_t)res.port;
	return 0;
}

int pmap_clnt_dump(const struct sockaddr_in *server, struct pmap_mapping **maps,
		   size_t *n)
{
	struct oneshot_peer peer = pmap_peer(server, PMAP_VERSION);
	struct pmap_dump_res res;
	struct pmap_mapping *list = NULL;
	struct rpc_reply reply;
	size_t i = 0;
	int ret;

	*maps = NULL;
	*n = 0;
	ret = oneshot_call(&peer, PMAPPROC_DUMP, NULL, NULL, NULL,
			   pmap_dec_dump_res, &res, &reply, NULL);
	if (ret)
		return ret;
	if (res.nentries) {
		list = calloc(res.nentries, sizeof(*list));
		if (!list) {
			rpc_reply_release(&reply);
			return -ENOMEM;
		}
		while (i < res.nentries &&
		       pmap_dump_next(&res.entries, &list[i]) == 1)
			i++;
	}
	rpc_reply_release(&reply);
	*maps = list;
	*n = i;
	return 0;
}
