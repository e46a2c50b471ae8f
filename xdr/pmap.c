/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pmap.h"

#include <errno.h>
#include <string.h>

const char *const pmap_proc_names[PMAPPROC_COUNT] = {
	[PMAPPROC_NULL] = "NULL",
	[PMAPPROC_SET] = "SET",
	[PMAPPROC_UNSET] = "UNSET",
	[PMAPPROC_GETPORT] = "GETPORT",
	[PMAPPROC_DUMP] = "DUMP",
	[PMAPPROC_CALLIT] = "CALLIT",
};

const char *const pmap_rpcb_proc_names[RPCBPROC_COUNT] = {
	[RPCBPROC_NULL] = "NULL",
	[RPCBPROC_SET] = "SET",
	[RPCBPROC_UNSET] = "UNSET",
	[RPCBPROC_GETADDR] = "GETADDR",
};

#define PMAP_MAPPING_SIZE 16u

/*
 * struct mapping {
 *	unsigned int prog;
 *	unsigned int vers;
 *	unsigned int prot;
 *	unsigned int port;
 * };
 */
int pmap_enc_mapping(struct xdr_enc *e, const struct pmap_mapping *m)
{
	xdr_enc_u32(e, m->prog);
	xdr_enc_u32(e, m->vers);
	xdr_enc_u32(e, m->prot);
	xdr_enc_u32(e, m->port);
	return xdr_enc_error(e);
}

static void get_mapping(const uint8_t *p, struct pmap_mapping *m)
{
	m->prog = xdr_get_u32(p);
	m->vers = xdr_get_u32(p + 4);
	m->prot = xdr_get_u32(p + 8);
	m->port = xdr_get_u32(p + 12);
}

int pmap_dec_mapping(struct xdr_dec *d, struct pmap_mapping *m)
{
	const uint8_t *p = xdr_dec_inline(d, PMAP_MAPPING_SIZE);

	if (!p)
		return -EBADMSG;
	get_mapping(p, m);
	return 0;
}

int pmap_enc_getport_args(struct xdr_enc *e, const void *args)
{
	const struct pmap_getport_args *a = args;

	return pmap_enc_mapping(e, &a->map);
}

int pmap_dec_getport_args(struct xdr_dec *d, void *args)
{
	struct pmap_getport_args *a = args;

	return pmap_dec_mapping(d, &a->map);
}

/* unsigned int PMAPPROC_GETPORT(mapping) = 3; */
int pmap_dec_getport_res(struct xdr_dec *d, void *res)
{
	struct pmap_getport_res *r = res;

	return xdr_dec_u32(d, &r->port);
}

int pmap_enc_getport_res(struct xdr_enc *e, const void *res)
{
	const struct pmap_getport_res *r = res;

	return xdr_enc_u32(e, r->port);
}

/* bool PMAPPROC_SET(mapping) = 1;  bool PMAPPROC_UNSET(mapping) = 2; */
int pmap_dec_set_res(struct xdr_dec *d, void *res)
{
	struct pmap_set_res *r = res;

	return xdr_dec_bool(d, &r->ok);
}

/*
 * struct pmaplist { mapping map; pmaplist *next; };
 * pmaplist *PMAPPROC_DUMP(void) = 4;
 *
 * On the wire: (TRUE mapping)* FALSE.
 */
int pmap_dec_dump_res(struct xdr_dec *d, void *res)
{
	struct pmap_dump_res *r = res;
	struct xdr_dec start = *d;
	uint32_t n = 0;

	for (;;) {
		bool more;

		if (xdr_dec_bool(d, &more))
			return -EBADMSG;
		if (!more)
			break;
		if (!xdr_dec_inline(d, PMAP_MAPPING_SIZE))
			return -EBADMSG;
		n++;
	}
	r->entries.p = start.p;
	r->entries.end = d->p;
	r->nentries = n;
	return 0;
}

int pmap_dump_next(struct xdr_dec *it, struct pmap_mapping *m)
{
	const uint8_t *save = it->p;
	bool more;

	if (xdr_dec_bool(it, &more))
		return -EBADMSG;
	if (!more) {
		it->p = save; /* stay at the end */
		return 0;
	}
	return pmap_dec_mapping(it, m) ? -EBADMSG : 1;
}

int pmap_enc_dump_res(struct xdr_enc *e, const struct pmap_mapping *maps,
		      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		xdr_enc_bool(e, true);
		pmap_enc_mapping(e, &maps[i]);
	}
	xdr_enc_bool(e, false);
	return xdr_enc_error(e);
}

/*
 * struct rpcb {
 *	unsigned long r_prog;
 *	unsigned long r_vers;
 *	string r_netid<>;
 *	string r_addr<>;
 *	string r_owner<>;
 * };
 */
int pmap_enc_rpcb_args(struct xdr_enc *e, const void *args)
{
	const struct pmap_rpcb_args *a = args;

	xdr_enc_u32(e, a->prog);
	xdr_enc_u32(e, a->vers);
	xdr_enc_string(e, PMAP_MAXNETID, a->netid ? a->netid : "");
	xdr_enc_string(e, PMAP_MAXUADDR, a->addr ? a->addr : "");
	xdr_enc_string(e, PMAP_MAXOWNER, a->owner ? a->owner : "");
	return xdr_enc_error(e);
}

int pmap_dec_rpcb_args(struct xdr_dec *d, struct pmap_rpcb_dec *out)
{
	if (xdr_dec_u32(d, &out->prog) || xdr_dec_u32(d, &out->vers) ||
	    xdr_dec_string(d, PMAP_MAXNETID, &out->netid, &out->netid_len) ||
	    xdr_dec_string(d, PMAP_MAXUADDR, &out->addr, &out->addr_len) ||
	    xdr_dec_string(d, PMAP_MAXOWNER, &out->owner, &out->owner_len))
		return -EBADMSG;
	return 0;
}

/* string RPCBPROC_GETADDR(rpcb) = 3; */
int pmap_dec_getaddr_res(struct xdr_dec *d, void *res)
{
	struct pmap_getaddr_res *r = res;

	return xdr_dec_string(d, PMAP_MAXUADDR, &r->uaddr, &r->uaddr_len);
}

int pmap_enc_getaddr_res(struct xdr_enc *e, const char *uaddr)
{
	return xdr_enc_string(e, PMAP_MAXUADDR, uaddr);
}

/* One decimal number 0..255 in s[0..len), no sign, no leading blanks. */
static int parse_octet(const char *s, size_t len, unsigned *v)
{
	unsigned n = 0;

	if (len == 0 || len > 3)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		n = n * 10 + (unsigned)(s[i] - '0');
	}
	if (n > 255)
		return -EINVAL;
	*v = n;
	return 0;
}

/* "h1.h2.h3.h4.p1.p2" (or an IPv6 address followed by ".p1.p2"). */
int pmap_uaddr_port(const char *uaddr, size_t len, uint16_t *port)
{
	const char *lo_dot, *hi_dot;
	unsigned hi, lo;

	if (!uaddr || len == 0)
		return -EINVAL;
	if (memchr(uaddr, '\0', len))
		return -EINVAL;
	lo_dot = memrchr(uaddr, '.', len);
	if (!lo_dot || lo_dot == uaddr)
		return -EINVAL;
	hi_dot = memrchr(uaddr, '.', (size_t)(lo_dot - uaddr));
	if (!hi_dot || hi_dot == uaddr) /* the host part must not be empty */
		return -EINVAL;
	if (parse_octet(hi_dot + 1, (size_t)(lo_dot - hi_dot - 1), &hi) ||
	    parse_octet(lo_dot + 1, len - (size_t)(lo_dot - uaddr) - 1, &lo))
		return -EINVAL;
	*port = (uint16_t)(hi << 8 | lo);
	return 0;
}
