/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the port mapper / rpcbind codecs (xdr/pmap.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 8:
 *   0  pmap_dec_getport_res   1  pmap_dec_set_res
 *   2  pmap_dec_dump_res (iterated to the end)
 *   3  pmap_dec_getaddr_res, then both universal address parsers
 *   4  pmap_dec_getport_args  5  pmap_dec_rpcb_args (server side)
 *   6  pmap_dec_mapping       7  pmap_uaddr_port and rpc_addr_from_uaddr
 *                             on the raw message
 * Each is encoded again where an encoder exists.
 */
#include <errno.h>

#include "fuzz.h"
#include "pmap.h"
#include "addr.h"

FUZZ_DEFINE_SINK;

FUZZ_WRAP_CODEC(mapping, pmap_enc_mapping, pmap_dec_mapping,
		struct pmap_mapping)

/* Both parsers of a universal address: the port-only one and the full
 * IPv4/IPv6 one, which must agree on the port, and whose result written
 * out again parses to the same host and port. */
static void check_uaddr(const char *s, size_t len)
{
	struct rpc_addr a, b;
	char out[RPC_ADDR_UADDRLEN];
	uint16_t port = 0;
	int full;

	fuzz_touch(s, len);
	if (pmap_uaddr_port(s, len, &port) == 0) {
		FUZZ_CHECK(len >= 5); /* "h.p.q" at least */
		fuzz_sink += port;
	}
	full = rpc_addr_from_uaddr(&a, s, len);
	FUZZ_CHECK(full == 0 || full == -EINVAL);
	if (full)
		return;
	FUZZ_CHECK(pmap_uaddr_port(s, len, &port) == 0);
	FUZZ_CHECK(rpc_addr_port(&a) == port);
	FUZZ_CHECK(rpc_addr_to_uaddr(&a, out, sizeof(out)) == 0);
	FUZZ_CHECK(rpc_addr_from_uaddr(&b, out, strlen(out)) == 0);
	FUZZ_CHECK(rpc_addr_same_host(&a, &b));
	FUZZ_CHECK(rpc_addr_port(&b) == port);
}

static void check_dump(struct xdr_dec *d)
{
	struct pmap_dump_res r;
	struct pmap_mapping *maps;
	struct xdr_enc e;
	struct xdr_dec d2;
	size_t n = 0;
	int ret;

	memset(&r, 0, sizeof(r));
	if (pmap_dec_dump_res(d, &r))
		return;
	maps = calloc(r.nentries + 1, sizeof(*maps));
	if (!maps)
		abort();
	while ((ret = pmap_dump_next(&r.entries, &maps[n])) == 1)
		FUZZ_CHECK(++n <= r.nentries);
	FUZZ_CHECK(ret == 0 && n == r.nentries);
	FUZZ_CHECK(pmap_dump_next(&r.entries, &maps[n]) == 0);

	if (xdr_enc_init(&e, 256, 0))
		abort();
	FUZZ_CHECK(pmap_enc_dump_res(&e, maps, n) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	FUZZ_CHECK(pmap_dec_dump_res(&d2, &r) == 0);
	FUZZ_CHECK(r.nentries == n && xdr_dec_left(&d2) == 0);
	for (size_t i = 0; i < n; i++) {
		struct pmap_mapping m;

		FUZZ_CHECK(pmap_dump_next(&r.entries, &m) == 1);
		FUZZ_CHECK(memcmp(&m, &maps[i], sizeof(m)) == 0);
	}
	xdr_enc_release(&e);
	free(maps);
}

static void check_getaddr(struct xdr_dec *d)
{
	struct pmap_getaddr_res r;
	struct xdr_enc e;
	struct xdr_dec d2;
	char *copy;

	memset(&r, 0, sizeof(r));
	if (pmap_dec_getaddr_res(d, &r))
		return;
	FUZZ_CHECK(r.uaddr_len <= PMAP_MAXUADDR);
	check_uaddr(r.uaddr, r.uaddr_len);
	copy = fuzz_strndup(r.uaddr, r.uaddr_len);
	if (xdr_enc_init(&e, 64, 0))
		abort();
	FUZZ_CHECK(pmap_enc_getaddr_res(&e, copy) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	FUZZ_CHECK(pmap_dec_getaddr_res(&d2, &r) == 0);
	FUZZ_CHECK(r.uaddr_len == strlen(copy) &&
		   memcmp(r.uaddr, copy, r.uaddr_len) == 0);
	xdr_enc_release(&e);
	free(copy);
}

static void check_rpcb(struct xdr_dec *d)
{
	struct pmap_rpcb_dec r, r2;
	struct pmap_rpcb_args a;
	struct xdr_enc e;
	struct xdr_dec d2;
	char *netid, *addr, *owner;

	memset(&r, 0, sizeof(r));
	if (pmap_dec_rpcb_args(d, &r))
		return;
	fuzz_touch(r.netid, r.netid_len);
	fuzz_touch(r.addr, r.addr_len);
	fuzz_touch(r.owner, r.owner_len);
	netid = fuzz_strndup(r.netid, r.netid_len);
	addr = fuzz_strndup(r.addr, r.addr_len);
	owner = fuzz_strndup(r.owner, r.owner_len);
	a.prog = r.prog;
	a.vers = r.vers;
	a.netid = netid;
	a.addr = addr;
	a.owner = owner;
	if (xdr_enc_init(&e, 64, 0))
		abort();
	FUZZ_CHECK(pmap_enc_rpcb_args(&e, &a) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	FUZZ_CHECK(pmap_dec_rpcb_args(&d2, &r2) == 0);
	FUZZ_CHECK(r2.prog == r.prog && r2.vers == r.vers &&
		   r2.netid_len == r.netid_len && r2.addr_len == r.addr_len &&
		   r2.owner_len == r.owner_len);
	xdr_enc_release(&e);
	free(netid);
	free(addr);
	free(owner);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union {
		struct pmap_getport_res port;
		struct pmap_set_res set;
		struct pmap_getport_args args;
		struct pmap_mapping map;
	} u;
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	memset(&u, 0, sizeof(u));
	switch (data[0] % 8) {
	case 0:
		if (pmap_dec_getport_res(&d, &u.port) == 0)
			fuzz_round_trip(pmap_enc_getport_res,
					pmap_dec_getport_res, &u.port,
					sizeof(u.port));
		break;
	case 1:
		if (pmap_dec_set_res(&d, &u.set) == 0)
			fuzz_sink += u.set.ok;
		break;
	case 2:
		check_dump(&d);
		break;
	case 3:
		check_getaddr(&d);
		break;
	case 4:
		if (pmap_dec_getport_args(&d, &u.args) == 0)
			FUZZ_CHECK(fuzz_round_trip(pmap_enc_getport_args,
						   pmap_dec_getport_args,
						   &u.args,
						   sizeof(u.args)) == 0);
		break;
	case 5:
		check_rpcb(&d);
		break;
	case 6:
		if (pmap_dec_mapping(&d, &u.map) == 0)
			FUZZ_CHECK(fuzz_round_trip(mapping_enc, mapping_dec,
						   &u.map,
						   sizeof(u.map)) == 0);
		break;
	default:
		check_uaddr((const char *)buf, len);
		break;
	}
	FUZZ_CHECK(d.p <= d.end);
	free(buf);
	return 0;
}
