/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Everything between the command line and the first FUSE request: find
 * the server, get the root handle from MOUNT, connect to NFS, learn the
 * server's limits (FSINFO) and check the root handle works.  vers=2 uses
 * MOUNT v1 and nfs_version2; vers= absent tries v3 first and falls back
 * to v2 when the server has no v3 (MOUNT or NFS).  And the
 * reverse at the end: UMNT and disconnect.
 */
#ifndef NFSFUSE_SESSION_H
#define NFSFUSE_SESSION_H

#include <netinet/in.h>
#include <stdbool.h>

#include "options.h"
#include "proto/nfs.h"

struct session {
	const struct nfsfuse_opts *o;
	struct sockaddr_in addr;
	char machinename[256];
	struct rpc_cred cred;   /* the daemon's own, for MNT, UMNT, FSINFO */
	struct nfs_client nfs;
	struct rpc_clnt *acl;   /* NFSACL v3, or NULL: noacl, v2, or none */
	bool mounted;           /* MNT succeeded: UMNT at close */
	uint32_t mountvers;     /* MOUNT version of the MNT (and UMNT) */
};

/* On failure: -1, with one line of explanation in err. */
int session_open(struct session *s, const struct nfsfuse_opts *o, char *err,
		 size_t errlen);
void session_close(struct session *s);

#endif
