/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Port mapper queries (RFC 1833): which port does a program listen on?
 *
 * Each call opens a short-lived TCP connection to the server's port 111
 * (the port in server is ignored), soft, with a 5 s timeout and one
 * retry, makes one query and closes it again.  These run at mount time
 * and for diagnostics, never on the data path.
 *
 * A port is asked for with rpcbind v4 GETADDR, then v3 GETADDR when v4 is
 * refused (a program-version mismatch), then portmap v2 GETPORT when v3 is
 * too.  GETADDR names the network id of the server's address family
 * ("tcp6" for an IPv6 server), so an IPv6 server's own registration is
 * found; portmap v2 knows IPv4 registrations only.
 */
#ifndef NFSFUSE_PROTO_PMAP_CLIENT_H
#define NFSFUSE_PROTO_PMAP_CLIENT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/pmap.h"
#include "../rpc/addr.h"

/*
 * Port of (prog, vers) over proto (IPPROTO_TCP or IPPROTO_UDP).
 * Returns 0 with *port set, or:
 *  -EPROTONOSUPPORT  the program/version/transport is not registered
 *                    (the portmapper answered port 0 or "")
 *  -ECONNREFUSED     nothing listens on port 111
 *  -ETIMEDOUT        no answer
 *  -EIO              malformed reply, or a port over 65535
 *  -EINVAL           proto is neither TCP nor UDP
 */
int pmap_clnt_getport(const struct rpc_addr *server, uint32_t prog,
		      uint32_t vers, int proto, uint16_t *port);

/*
 * Every registration (portmap v2 DUMP): *maps is a malloc'd array of *n
 * mappings that the caller frees (NULL when *n is 0).  Errors as above.
 */
int pmap_clnt_dump(const struct rpc_addr *server, struct pmap_mapping **maps,
		   size_t *n);

#endif
