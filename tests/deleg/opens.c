/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The opens the server granted, of any access, per connection, until
 * their CLOSE: a read delegation is granted only while no other
 * connection has the file open for writing, a write delegation only while
 * no other connection has it open at all.  An open is known by its
 * stateid's "other" (an OPEN that upgrades one gives the same), so a
 * CLOSE ends every entry with it.
 */
#include <stdlib.h>
#include <string.h>

#include "delegproxy.h"

struct dp_open {
	unsigned int conn;
	uint8_t other[NFS4_OTHER_SIZE];
	uint32_t access;     /* NFS4_SHARE_ACCESS_* */
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	struct dp_open *next;
};

static struct dp_open *opens;

void opens_add(unsigned int conn, const uint8_t stateid[16],
	       const uint8_t *fh, uint32_t fhlen, uint32_t access)
{
	struct dp_open *o = calloc(1, sizeof(*o));

	if (!o || fhlen > NFS4_FHSIZE) {
		free(o);
		dp_log("error cannot note an open of conn=%u", conn);
		dp_st.errors++;
		return;
	}
	o->conn = conn;
	memcpy(o->other, stateid + 4, NFS4_OTHER_SIZE);
	o->access = access;
	memcpy(o->fh, fh, fhlen);
	o->fhlen = fhlen;
	o->next = opens;
	opens = o;
}

void opens_close(unsigned int conn, const uint8_t stateid[16])
{
	struct dp_open **pp = &opens, *o;

	while ((o = *pp)) {
		if (o->conn == conn &&
		    !memcmp(o->other, stateid + 4, NFS4_OTHER_SIZE)) {
			*pp = o->next;
			free(o);
		} else {
			pp = &o->next;
		}
	}
}

bool opens_other(unsigned int conn, const uint8_t *fh, uint32_t fhlen,
		 bool writers_only)
{
	struct dp_open *o;

	for (o = opens; o; o = o->next)
		if (o->conn != conn && o->fhlen == fhlen &&
		    !memcmp(o->fh, fh, fhlen) &&
		    (!writers_only || (o->access & NFS4_SHARE_ACCESS_WRITE)))
			return true;
	return false;
}

void opens_conn_closed(unsigned int conn)
{
	struct dp_open **pp = &opens, *o;

	while ((o = *pp)) {
		if (o->conn == conn) {
			*pp = o->next;
			free(o);
		} else {
			pp = &o->next;
		}
	}
}

void opens_free_all(void)
{
	struct dp_open *o;

	while ((o = opens)) {
		opens = o->next;
		free(o);
	}
}
