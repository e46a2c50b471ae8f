/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A server's (or our own) IPv4 or IPv6 socket address, as every client
 * above the transport is given it, and the text forms it takes: the
 * numeric host ("192.0.2.1", "2001:db8::1") and the RFC 1833 universal
 * address that rpcbind speaks ("192.0.2.1.8.1", "2001:db8::1.8.1": the
 * host, then the port's high and low bytes in decimal).
 *
 * Nothing here resolves names or does I/O.
 */
#ifndef NFSFUSE_RPC_ADDR_H
#define NFSFUSE_RPC_ADDR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255" and a NUL. */
#define RPC_ADDR_HOSTLEN INET6_ADDRSTRLEN
/* The host, ".255.255" and a NUL. */
#define RPC_ADDR_UADDRLEN (INET6_ADDRSTRLEN + 8)

struct rpc_addr {
	union {
		struct sockaddr sa;
		struct sockaddr_in sin;
		struct sockaddr_in6 sin6;
	} u;
	socklen_t len; /* 0: no address */
};

/* Copies an AF_INET or AF_INET6 sockaddr: 0, or -EAFNOSUPPORT (other
 * families, or a length that does not fit the family). */
int rpc_addr_set(struct rpc_addr *a, const struct sockaddr *sa,
		 socklen_t len);
/* A numeric IPv4 or IPv6 host (no brackets, no port) with port (host
 * order): 0, or -EINVAL. */
int rpc_addr_parse(struct rpc_addr *a, const char *host, uint16_t port);

static inline int rpc_addr_family(const struct rpc_addr *a)
{
	return a->u.sa.sa_family;
}

/* Port in host order. */
uint16_t rpc_addr_port(const struct rpc_addr *a);
void rpc_addr_set_port(struct rpc_addr *a, uint16_t port);
/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket
 * reports for an IPv4 peer) becomes the IPv4 address; others stay. */
void rpc_addr_unmap(struct rpc_addr *a);
/* 127.0.0.0/8 or ::1. */
bool rpc_addr_is_loopback(const struct rpc_addr *a);
/* The same host (family and address; ports and scope ignored). */
bool rpc_addr_same_host(const struct rpc_addr *a, const struct rpc_addr *b);
/* The host in numeric form into buf (RPC_ADDR_HOSTLEN bytes will do);
 * returns buf, "?" written into it when the address is unset. */
const char *rpc_addr_host(const struct rpc_addr *a, char *buf, size_t len);
/* The rpcbind network id of the address family and proto
 * (IPPROTO_TCP/UDP): "tcp", "udp", "tcp6" or "udp6". */
const char *rpc_addr_netid(const struct rpc_addr *a, int proto);

/* The universal address of a (host and port) into buf: 0, or -ENOSPC. */
int rpc_addr_to_uaddr(const struct rpc_addr *a, char *buf, size_t len);
/*
 * A universal address: uaddr[0..len), not NUL-terminated.  IPv4 when the
 * host has no ':', else IPv6; the two trailing numbers are 0..255 each,
 * written in decimal without sign or blanks.  0, or -EINVAL.
 */
int rpc_addr_from_uaddr(struct rpc_addr *a, const char *uaddr, size_t len);

#endif
