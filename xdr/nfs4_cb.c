/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 callbacks (RFC 8881 section 20): the CB_COMPOUND the server
 * sends on the backchannel, the arguments of the callbacks this client
 * answers and the results it sends back.
 */
#include "nfs4.h"

#include <errno.h>
#include <string.h>

static const struct xdr_proc_codec cb_codecs[] = {
	[NFS4CBOP_SEQUENCE] = { NFS4CBOP_SEQUENCE, "CB_SEQUENCE", NULL, NULL,
		0, NULL, nfs4_dec_status_res, sizeof(struct nfs4_status_res) },
};

const struct xdr_proc_codec *nfs4_cb_op_codec(uint32_t op)
{
	if (op >= sizeof(cb_codecs) / sizeof(cb_codecs[0]) ||
	    !cb_codecs[op].name)
		return NULL;
	return &cb_codecs[op];
}
