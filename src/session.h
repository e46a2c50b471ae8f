/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Everything between the command line and the first FUSE request: find
 * the server, get the root handle from MOUNT, connect to NFS, learn the
 * server's limits (FSINFO) and check the root handle works.  vers=2 uses
 * MOUNT v1 and nfs_version2; vers= absent tries v3 first, then NFSv4.2
 * and 4.1 when the server has no v3 (MOUNT or NFS), then v2.  And the
 * reverse at the end: UMNT and disconnect.
 *
 * NFSv4 (vers=4, 4.1, 4.2) uses no MOUNT, portmapper, NLM or NSM and no
 * reserved port: it connects to port 2049 (or port=), starts a client id
 * and a session (proto/nfs4_session.h) and walks the export path from the
 * server's pseudo root.
 */
#ifndef NFSFUSE_SESSION_H
#define NFSFUSE_SESSION_H

#include <netinet/in.h>
#include <stdbool.h>

#include "options.h"
#include "proto/nfs.h"
#include "proto/nfs4_session.h"
#include "rpc/addr.h"

struct session {
	const struct nfsfuse_opts *o;
	struct rpc_addr addr;   /* the server's address that answered */
	char machinename[256];
	struct rpc_cred cred;   /* the daemon's own, for MNT, UMNT, FSINFO */
	struct nfs_client nfs;
	struct rpc_clnt *acl;   /* NFSACL v3, or NULL: noacl, v2, or none */
	bool mounted;           /* MNT succeeded: UMNT at close */
	uint32_t mountvers;     /* MOUNT version of the MNT (and UMNT) */
	struct nfs4_session v4; /* NFSv4.1: client id and session */
	bool v4_started;        /* nfs4_session_start() ran: stop at close */
};

/* Addresses tried for one server name, at most. */
#define SESSION_MAX_ADDRS 16

/*
 * The IPv4 and IPv6 addresses of host (a name or a numeric address, no
 * brackets), each once, in getaddrinfo()'s order.  Their number (>= 1),
 * or -1 with one line in err.
 */
int session_resolve(const char *host, struct rpc_addr *out, size_t max,
		    char *err, size_t errlen);
/* err (a negative errno) says the address did not answer at all, so
 * that the name's next address is worth a try. */
bool session_unreachable(int err);

/* Resolves o->host and tries its addresses in order (session_resolve()).
 * On failure: -1, with one line of explanation in err. */
int session_open(struct session *s, const struct nfsfuse_opts *o, char *err,
		 size_t errlen);
/* Ends the connections (calls in flight complete with -ESHUTDOWN) and
 * the mount; again, it does nothing. */
void session_close(struct session *s);

#endif
