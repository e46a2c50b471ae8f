/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Port mapper version 2 (RFC 1833 section 3, program 100000) and the
 * GETADDR procedure of rpcbind versions 3 and 4 (RFC 1833 section 2).
 *
 * Ownership: mappings are small and copied into the structures.  The DUMP
 * list and the GETADDR universal address point into the buffer being
 * decoded and are valid only as long as that buffer.  The address is NOT
 * NUL-terminated: use the (uaddr, uaddr_len) pair.
 *
 * Decoders return 0 or -EBADMSG (malformed); encoders return 0 or the
 * encoder's sticky error (-ENOMEM, or -EINVAL for a string over its limit).
 */
#ifndef NFSFUSE_XDR_PMAP_H
#define NFSFUSE_XDR_PMAP_H

#include "xdr.h"

#define PMAP_PROGRAM 100000u
#define PMAP_VERSION 2u
#define RPCB_VERSION3 3u
#define RPCB_VERSION4 4u
#define PMAP_PORT 111

/* mapping.prot values (RFC 1833: IPPROTO_TCP / IPPROTO_UDP). */
#define PMAP_PROT_TCP 6u
#define PMAP_PROT_UDP 17u

/* Limits we accept from the wire for rpcbind strings (RFC 1833 leaves
 * them unbounded; an IPv6 universal address is at most 53 bytes). */
#define PMAP_MAXNETID 64u
#define PMAP_MAXUADDR 128u
#define PMAP_MAXOWNER 255u

enum pmap_proc {
	PMAPPROC_NULL = 0,
	PMAPPROC_SET = 1,
	PMAPPROC_UNSET = 2,
	PMAPPROC_GETPORT = 3,
	PMAPPROC_DUMP = 4,
	PMAPPROC_CALLIT = 5,
	PMAPPROC_COUNT = 6
};

/* rpcbind v3/v4 procedures this code speaks (same numbers in both). */
enum rpcb_proc {
	RPCBPROC_NULL = 0,
	RPCBPROC_SET = 1,   /* bool RPCBPROC_SET(rpcb) */
	RPCBPROC_UNSET = 2, /* bool RPCBPROC_UNSET(rpcb) */
	RPCBPROC_GETADDR = 3,
	RPCBPROC_COUNT = 4 /* size of rpcb_proc_names */
};

/* Procedure names as RFC 1833 spells them, indexed by number. */
extern const char *const pmap_proc_names[PMAPPROC_COUNT];
/* NULL, SET, UNSET and GETADDR. */
extern const char *const pmap_rpcb_proc_names[RPCBPROC_COUNT];

/*
 * struct mapping {
 *	unsigned int prog;
 *	unsigned int vers;
 *	unsigned int prot;
 *	unsigned int port;
 * };
 */
struct pmap_mapping {
	uint32_t prog;
	uint32_t vers;
	uint32_t prot; /* PMAP_PROT_TCP, PMAP_PROT_UDP; others kept as sent */
	uint32_t port; /* as sent: a value over 65535 is the caller's to judge */
};

int pmap_enc_mapping(struct xdr_enc *e, const struct pmap_mapping *m);
int pmap_dec_mapping(struct xdr_dec *d, struct pmap_mapping *m);

/* ---- per-procedure arguments and results ---- */

/* GETPORT, SET and UNSET take a mapping (port is ignored by GETPORT). */
struct pmap_getport_args {
	struct pmap_mapping map;
};
/* GETPORT: unsigned int port; 0 means "not registered". */
struct pmap_getport_res {
	uint32_t port;
};
/* SET, UNSET: bool. */
struct pmap_set_res {
	bool ok;
};

/*
 * DUMP:
 *	struct pmaplist { mapping map; pmaplist *next; };
 *	pmaplist *PMAPPROC_DUMP(void) = 4;
 *
 * The decoder walks and checks the whole list once, then leaves `entries`
 * at its start; pmap_dump_next() hands out the mappings without further
 * allocation.
 */
struct pmap_dump_res {
	struct xdr_dec entries;
	uint32_t nentries;
};
/* 1: *m filled; 0: end of list (and stays there); -EBADMSG only when the
 * iterator did not come from a successful decode. */
int pmap_dump_next(struct xdr_dec *it, struct pmap_mapping *m);

/*
 * rpcbind v3/v4 GETADDR:
 *	struct rpcb {
 *		unsigned long r_prog;
 *		unsigned long r_vers;
 *		string r_netid<>;
 *		string r_addr<>;
 *		string r_owner<>;
 *	};
 *	string RPCBPROC_GETADDR(rpcb) = 3;
 */
struct pmap_rpcb_args {
	uint32_t prog;
	uint32_t vers;
	const char *netid; /* "tcp", "udp", "tcp6", "udp6"; NUL-terminated */
	const char *addr;  /* NULL means "" */
	const char *owner; /* NULL means "" */
};
/* An empty address means "not registered". */
struct pmap_getaddr_res {
	const char *uaddr; /* into the reply; not NUL-terminated */
	uint32_t uaddr_len;
};

/*
 * Port of a universal address ("127.0.0.1.8.1" -> 2049, "::1.8.1" ->
 * 2049): the last two dot-separated decimal numbers, each 0..255, are the
 * port's high and low bytes; the address part must not be empty.
 * Returns 0, or -EINVAL for anything else (including "").
 */
int pmap_uaddr_port(const char *uaddr, size_t len, uint16_t *port);

/* Encoders take `const void *` to fit the RPC layer; each expects the args
 * struct named for it.  NULL has neither arguments nor results. */
int pmap_enc_getport_args(struct xdr_enc *e, const void *args); /* SET UNSET */
/* rpcbind GETADDR, SET and UNSET */
int pmap_enc_rpcb_args(struct xdr_enc *e, const void *args);

int pmap_dec_getport_res(struct xdr_dec *d, void *res);
/* SET and UNSET, of portmap v2 and rpcbind alike */
int pmap_dec_set_res(struct xdr_dec *d, void *res);
int pmap_dec_dump_res(struct xdr_dec *d, void *res);
int pmap_dec_getaddr_res(struct xdr_dec *d, void *res);

/* Server side, for tests and fake portmappers. */
int pmap_dec_getport_args(struct xdr_dec *d, void *args);
int pmap_enc_getport_res(struct xdr_enc *e, const void *res);
int pmap_enc_dump_res(struct xdr_enc *e, const struct pmap_mapping *maps,
		      size_t n);
/* A decoded rpcb: the strings point into the buffer being decoded and are
 * not NUL-terminated. */
struct pmap_rpcb_dec {
	uint32_t prog, vers;
	const char *netid, *addr, *owner;
	uint32_t netid_len, addr_len, owner_len;
};
int pmap_dec_rpcb_args(struct xdr_dec *d, struct pmap_rpcb_dec *out);
int pmap_enc_getaddr_res(struct xdr_enc *e, const char *uaddr);

#endif
