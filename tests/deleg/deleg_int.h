/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What deleg.c (the rules, the held messages) and callback.c (the
 * callbacks) share.  Touched only from the proxy's one loop.
 */
#ifndef NFSFUSE_TESTS_DELEG_INT_H
#define NFSFUSE_TESTS_DELEG_INT_H

#include "delegproxy.h"

struct deleg {
	uint8_t other[NFS4_OTHER_SIZE];
	uint32_t type;       /* NFS4_OPEN_DELEGATE_READ or _WRITE */
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	unsigned int holder;
	bool recalling;
	bool recall_due;     /* the CB_RECALL waits for the holder's slot */
	uint32_t cb_xid;     /* our CB_RECALL in flight */
	bool getattr_due;    /* a CB_GETATTR waits for the holder's slot */
	uint32_t ga_xid;     /* our CB_GETATTR in flight */
	bool revoked;        /* the recall timed out: conflicts pass */
	struct deleg *next;
};

/* Every delegation granted and not yet returned. */
extern struct deleg *delegs;

/* ---- deleg.c ---- */
struct deleg *deleg_by_other(const uint8_t *other);
/* Let go every message waiting for other (only the GETATTRs, with size
 * for their replies, when getattr_only); why names the event. */
void release(const uint8_t *other, const char *why, bool getattr_only,
	     const uint64_t *size);

/* ---- callback.c ---- */
/* CB_RECALL to d's holder (once; when its slot is free). */
void recall(struct deleg *d);
/* Ask d's holder for its attributes, unless already asked. */
void cb_getattr(struct deleg *d);
/* A reply from c: to our callback (consumed, and the next callback
 * waiting sent), else to the server's (forwarded). */
void cb_client_reply(struct dp_conn *c, uint32_t xid, const uint8_t *p,
		     size_t len);

#endif
