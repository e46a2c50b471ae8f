/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delegation proxy's --revoke mode (revoke.c for the rules,
 * revoke_compound.c for what it reads and rewrites): a conflict revokes
 * the delegation instead of recalling it, and the holder learns it as a
 * server tells it (RFC 8881 §8.2.2, §18.46.3): a SEQUENCE status flag,
 * DELEGRETURN answered NFS4ERR_DELEG_REVOKED, FREE_STATEID to let go.
 * Touched only from the proxy's one loop, like the rest of its state.
 */
#ifndef NFSFUSE_TESTS_DELEG_REVOKE_H
#define NFSFUSE_TESTS_DELEG_REVOKE_H

#include "delegproxy.h"

/* --revoke: off by default, and then nothing below changes a message. */
extern bool revoke_enabled;

/* ---- revoke.c: the rules ---- */

/* Connection by's `what` conflicts with holder's delegation (other, fh):
 * true when it was revoked (the caller forgets the delegation and lets
 * the message go on), false when it is to be recalled as without
 * --revoke. */
bool revoke_conflict(unsigned int holder, const uint8_t *other,
		     const uint8_t *fh, uint32_t fhlen, unsigned int by,
		     const char *what);
/* A parsed call of c's client: true when it was taken here (DELEGRETURN
 * of a stateid revoked from c, FREE_STATEID of one) and is on its way. */
bool revoke_call(struct dp_conn *c, const struct dp_call *ci,
		 const uint8_t *p, size_t len);
/* A message of c's server: true when it answered a call cut here (its
 * rewritten copy has been sent on). */
bool revoke_reply(struct dp_conn *c, const uint8_t *p, size_t len);
/* A message about to go to c's client, rewritten in place: while c has
 * revoked delegations not freed, its SEQUENCE result is flagged. */
void revoke_outgoing(struct dp_conn *c, uint8_t *p, size_t len);
void revoke_conn_closed(struct dp_conn *c);
void revoke_free_all(void);
/* The counters, "name N" each followed by sep, appended at b's end. */
void revoke_stats_text(char *b, size_t bl, const char *sep);

/* ---- revoke_compound.c: bounded parsers and rewrites ---- */

/* The offset of sr_status_flags in a COMPOUND reply (accepted, RPC
 * success) whose first result is a SEQUENCE with NFS4_OK; 0 or -1. */
int dp_seq_flags_at(const uint8_t *p, size_t len, size_t *at);
/* The stateid of a call dp_parse_call() read as SEQUENCE PUTFH
 * FREE_STATEID, that operation ending the message; 0 or -1. */
int dp_free_stateid_arg(const uint8_t *p, size_t len,
			const struct dp_call *ci, uint8_t stateid[16]);
/* A reply of SEQUENCE and PUTFH results alone (all NFS4_OK: the reply
 * to a call cut after its PUTFH) with one more result, op with status,
 * which when not NFS4_OK becomes the compound's status too; malloc'ed
 * into *out.  0 or -1. */
int dp_append_result(const uint8_t *p, size_t len, uint32_t op,
		     uint32_t status, uint8_t **out, size_t *outlen);

#endif
