/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fore channel slot table of an NFSv4.1 session (RFC 8881 §2.10.6).
 *
 * Each request takes a free slot and sends the slot's next sequence id;
 * at most one request is in flight per slot, so the slot count bounds the
 * requests in flight.  The reply gives the slot back:
 *
 *   - SEQUENCE succeeded: the server executed the request at that
 *     sequence id, so the next use of the slot sends seqid + 1;
 *   - SEQUENCE failed: the server did not touch the slot, whose sequence
 *     id stays;
 *   - no reply (timeout, interrupted, connection lost): the server may or
 *     may not have seen it.  The slot's sequence id still advances, as if
 *     it had; a NFS4ERR_SEQ_MISORDERED on the next use says it had not,
 *     and nfs4_slots_misordered() steps back once.
 *
 * The server says in every SEQUENCE reply how many slots it wants used
 * (target_highest_slotid) and how many it has (highest_slotid): slots
 * above the target are not handed out again until the target rises.
 * highest_slotid in the arguments is the highest slot in use.
 *
 * Pure: a table and its rules, no locks and no I/O; the session
 * (nfs4_session.c) holds its lock around every call.
 */
#ifndef NFSFUSE_PROTO_NFS4_SLOTS_H
#define NFSFUSE_PROTO_NFS4_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

/* Slots we keep at most, whatever the server offers. */
#define NFS4_SLOTS_MAX 128u

struct nfs4_slots {
	uint32_t n;             /* slots granted (CREATE_SESSION's maxrequests) */
	uint32_t target;        /* highest slot id to hand out */
	uint32_t in_use;        /* slots taken now */
	bool busy[NFS4_SLOTS_MAX];
	uint32_t seqid[NFS4_SLOTS_MAX]; /* the next sequence id to send */
};

/* maxrequests slots (capped at NFS4_SLOTS_MAX; at least one), every
 * sequence id 1 (RFC 8881: the first request on a slot sends 1). */
void nfs4_slots_init(struct nfs4_slots *s, uint32_t maxrequests);
/* The lowest free slot at or below the target, marked busy, and its
 * sequence id; -1 when every usable slot is busy (wait and retry). */
int nfs4_slots_take(struct nfs4_slots *s, uint32_t *slotid,
		    uint32_t *seqid);
/* The highest slot in use, for SEQUENCE's highest_slotid (0 when none). */
uint32_t nfs4_slots_highest(const struct nfs4_slots *s);
/* Gives slotid back; its sequence id advances when advance is true (see
 * above).  target is the server's target_highest_slotid from the reply
 * (or UINT32_MAX when there was none), clamped to the slots granted. */
void nfs4_slots_release(struct nfs4_slots *s, uint32_t slotid, bool advance,
			uint32_t target);
/* The server answered NFS4ERR_SEQ_MISORDERED on slotid, taken again for
 * a retry: the previous request never reached it; step its sequence id
 * back by one.  The slot stays busy. */
void nfs4_slots_misordered(struct nfs4_slots *s, uint32_t slotid,
			   uint32_t *seqid);

#endif
