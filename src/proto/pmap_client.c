/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pmap_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "oneshot.h"

/* Short-lived and soft: a portmapper that does not answer in 5 s (and once
 * more) is not there. */
#define PMAP_TIMEO_DS 50u
#define PMAP_RETRANS 1u

/* The portmapper at server's port 111, speaking portmap v2 or rpcbind
 * vers. */
static struct oneshot_peer pmap_peer(const struct rpc_addr *server,
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

	rpc_addr_set_port(&peer.addr, PMAP_PORT);
	return peer;
}

/*
 * rpcbind v3/v4 GETADDR for the network id of server's address family
 * ("tcp6" for an IPv6 server).  -ENOENT: rpcbind answered, nothing is
 * registered; -EPROTONOSUPPORT: this rpcbind version is not spoken.
 */
static int rpcb_getaddr(const struct rpc_addr *server, uint32_t rpcb_vers,
			uint32_t prog, uint32_t vers, int proto,
			uint16_t *port)
{
	struct pmap_rpcb_args args = {
		.prog = prog,
		.vers = vers,
		.netid = rpc_addr_netid(server, proto),
		.addr = "",
		.owner = "",
	};
	struct oneshot_peer peer = pmap_peer(server, rpcb_vers);
	struct pmap_getaddr_res res;
	struct rpc_reply reply;
	struct rpc_addr at;
	char host[RPC_ADDR_HOSTLEN];
	int ret;

	/* rpcbind answers GETADDR for the network id of the transport the
	 * question came in on, whatever r_netid says: a UDP service is
	 * asked about over UDP, or the answer is its TCP port. */
	peer.proto = proto;
	ret = oneshot_call(&peer, RPCBPROC_GETADDR, NULL, pmap_enc_rpcb_args,
			   &args, pmap_dec_getaddr_res, &res, &reply, NULL);
	if (ret == 0) {
		/* The address part may be a wildcard ("::", "0.0.0.0"):
		 * only the port is taken, but all of it must parse. */
		if (res.uaddr_len == 0)
			ret = -ENOENT;
		else if (rpc_addr_from_uaddr(&at, res.uaddr, res.uaddr_len))
			ret = -EIO;
		else if ((*port = rpc_addr_port(&at)) == 0)
			ret = -ENOENT;
		nf_log(NF_LOG_DEBUG, "portmapper %s: rpcbind v%u GETADDR "
		       "%u v%u %s: \"%.*s\"",
		       rpc_addr_host(server, host, sizeof(host)), rpcb_vers,
		       prog, vers, args.netid, (int)res.uaddr_len, res.uaddr);
		rpc_reply_release(&reply);
	}
	return ret;
}

/* portmap v2 GETPORT: IPv4 registrations only, whatever the transport. */
static int pmap_v2_getport(const struct rpc_addr *server, uint32_t prog,
			   uint32_t vers, int proto, uint16_t *port)
{
	struct pmap_getport_args args = {
		{ prog, vers, 0, 0 }
	};
	struct oneshot_peer peer = pmap_peer(server, PMAP_VERSION);
	struct pmap_getport_res res;
	char host[RPC_ADDR_HOSTLEN];
	int ret;

	args.map.prot = proto == IPPROTO_TCP ? PMAP_PROT_TCP : PMAP_PROT_UDP;
	ret = oneshot_call(&peer, PMAPPROC_GETPORT, NULL, pmap_enc_getport_args,
			   &args, pmap_dec_getport_res, &res, NULL, NULL);
	if (ret)
		return ret;
	nf_log(NF_LOG_DEBUG, "portmapper %s: portmap v2 GETPORT %u v%u %s: %u",
	       rpc_addr_host(server, host, sizeof(host)), prog, vers,
	       proto == IPPROTO_TCP ? "tcp" : "udp", res.port);
	if (res.port == 0)
		return -EPROTONOSUPPORT;
	if (res.port > 65535)
		return -EIO;
	*port = (uint16_t)res.port;
	return 0;
}

int pmap_clnt_getport(const struct rpc_addr *server, uint32_t prog,
		      uint32_t vers, int proto, uint16_t *port)
{
	int ret;

	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return -EINVAL;
	/* RFC 1833: rpcbind v4, then v3, each with universal addresses
	 * (the only way to ask for an IPv6 registration); portmap v2 for
	 * a portmapper that speaks neither. */
	ret = rpcb_getaddr(server, RPCB_VERSION4, prog, vers, proto, port);
	if (ret == -EPROTONOSUPPORT)
		ret = rpcb_getaddr(server, RPCB_VERSION3, prog, vers, proto,
				   port);
	if (ret == -EPROTONOSUPPORT)
		return pmap_v2_getport(server, prog, vers, proto, port);
	return ret == -ENOENT ? -EPROTONOSUPPORT : ret;
}

int pmap_clnt_dump(const struct rpc_addr *server, struct pmap_mapping **maps,
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
