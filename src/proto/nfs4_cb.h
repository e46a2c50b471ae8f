/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.1 backchannel: calls the server makes on our own connection
 * (RFC 8881 §2.10.3.1), so that no listening socket is needed.  The
 * dispatcher answers CB_NULL, and CB_COMPOUND with CB_SEQUENCE on the
 * backchannel's one slot, CB_RECALL of a delegation (through the
 * session's recall hook), CB_GETATTR of a file we hold a write
 * delegation for (its hook), CB_NOTIFY_LOCK (its lock-notification
 * hook: the waits for that file poll at once) and NFS4ERR_NOTSUPP for
 * any other operation: this client keeps no layouts.
 */
#ifndef NFSFUSE_PROTO_NFS4_CB_H
#define NFSFUSE_PROTO_NFS4_CB_H

#include <stddef.h>
#include <stdint.h>

#include "../../xdr/xdr.h"

struct nfs4_session;

/* An rpc_callback_fn; ctx is the struct nfs4_session. */
int nfs4_cb_dispatch(void *ctx, const uint8_t *msg, size_t len,
		     struct xdr_enc *reply);
/* An rpc_reconnect_fn: BIND_CONN_TO_SESSION on the new connection. */
void nfs4_cb_reconnected(void *ctx);
/* The same, when the server says the backchannel is down. */
void nfs4_cb_rebind(struct nfs4_session *s);

#endif
