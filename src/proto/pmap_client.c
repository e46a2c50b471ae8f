/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pmap_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rpc/rpc.h"

/* Short-lived and soft: a portmapper that does not answer in 5 s (and once
 * more) is not there. */
#define PMAP_TIMEO_DS 50u
#define PMAP_RETRANS 1u

static int pmap_connect(const struct sockaddr_in *server, uint32_t vers,
			struct rpc_clnt **c)
{
	struct sockaddr_in sin = *server;
	char host[INET_ADDRSTRLEN], name[INET_ADDRSTRLEN + 32];
	struct rpc_clnt_opts opts = {
		.proto = IPPROTO_TCP,
		.resvport = false,
		.timeo_ds = PMAP_TIMEO_DS,
		.retrans = PMAP_RETRANS,
		.soft = true,
		.server = name,
	};

	if (!inet_ntop(AF_INET, &sin.sin_addr, host, sizeof(host)))
		strcpy(host, "?");
	snprintf(name, sizeof(name), "portmapper %s", host);
	if (vers == PMAP_VERSION) {
		opts.proc_names = pmap_proc_names;
		opts.nprocs = PMAPPROC_COUNT;
	} else {
		opts.proc_names = pmap_rpcb_proc_names;
		opts.nprocs = RPCBPROC_COUNT;
	}
	sin.sin_family = AF_INET;
	sin.sin_port = htons(PMAP_PORT);
	return rpc_clnt_create((const struct sockaddr *)&sin, sizeof(sin),
			       PMAP_PROGRAM, vers, &opts, c);
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
	struct pmap_getaddr_res res;
	struct rpc_reply reply;
	struct rpc_clnt *c;
	int ret;

	ret = pmap_connect(server, rpcb_vers, &c);
	if (ret)
		return ret;
	ret = rpc_call(c, RPCBPROC_GETADDR, NULL, pmap_enc_rpcb_args, &args,
		       pmap_dec_getaddr_res, &res, &reply, NULL);
	if (ret == 0) {
		if (res.uaddr_len == 0)
			ret = -EPROTONOSUPPORT;
		else if (pmap_uaddr_port(res.uaddr, res.uaddr_len, port))
			ret = -EIO;
		else if (*port == 0)
			ret = -EPROTONOSUPPORT;
		rpc_reply_release(&reply);
	}
	rpc_clnt_destroy(c);
	return ret;
}

int pmap_getport(const struct sockaddr_in *server, uint32_t prog,
		 uint32_t vers, int proto, uint16_t *port)
{
	struct pmap_getport_args args = {
		{ prog, vers, 0, 0 }
	};
	struct pmap_getport_res res;
	struct rpc_clnt *c;
	int ret;

	if (proto == IPPROTO_TCP)
		args.map.prot = PMAP_PROT_TCP;
	else if (proto == IPPROTO_UDP)
		args.map.prot = PMAP_PROT_UDP;
	else
		return -EINVAL;

	ret = pmap_connect(server, PMAP_VERSION, &c);
	if (ret)
		return ret;
	ret = rpc_call(c, PMAPPROC_GETPORT, NULL, pmap_enc_getport_args, &args,
		       pmap_dec_getport_res, &res, NULL, NULL);
	rpc_clnt_destroy(c);
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

int pmap_dump(const struct sockaddr_in *server, struct pmap_mapping **maps,
	      size_t *n)
{
	struct pmap_dump_res res;
	struct pmap_mapping *list = NULL;
	struct rpc_reply reply;
	struct rpc_clnt *c;
	size_t i = 0;
	int ret;

	*maps = NULL;
	*n = 0;
	ret = pmap_connect(server, PMAP_VERSION, &c);
	if (ret)
		return ret;
	ret = rpc_call(c, PMAPPROC_DUMP, NULL, NULL, NULL, pmap_dec_dump_res,
		       &res, &reply, NULL);
	rpc_clnt_destroy(c);
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
