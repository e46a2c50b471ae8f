/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../xdr/pmap.h"

int rpc_addr_set(struct rpc_addr *a, const struct sockaddr *sa,
		 socklen_t len)
{
	memset(a, 0, sizeof(*a));
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		memcpy(&a->u.sin, sa, sizeof(a->u.sin));
		a->len = sizeof(a->u.sin);
		return 0;
	}
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		memcpy(&a->u.sin6, sa, sizeof(a->u.sin6));
		a->len = sizeof(a->u.sin6);
		return 0;
	}
	return -EAFNOSUPPORT;
}

int rpc_addr_parse(struct rpc_addr *a, const char *host, uint16_t port)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, host, &a->u.sin.sin_addr) == 1) {
		a->u.sin.sin_family = AF_INET;
		a->len = sizeof(a->u.sin);
	} else if (inet_pton(AF_INET6, host, &a->u.sin6.sin6_addr) == 1) {
		a->u.sin6.sin6_family = AF_INET6;
		a->len = sizeof(a->u.sin6);
	} else {
		return -EINVAL;
	}
	rpc_addr_set_port(a, port);
	return 0;
}

uint16_t rpc_addr_port(const struct rpc_addr *a)
{
	if (rpc_addr_family(a) == AF_INET)
		return ntohs(a->u.sin.sin_port);
	if (rpc_addr_family(a) == AF_INET6)
		return ntohs(a->u.sin6.sin6_port);
	return 0;
}

void rpc_addr_set_port(struct rpc_addr *a, uint16_t port)
{
	if (rpc_addr_family(a) == AF_INET)
		a->u.sin.sin_port = htons(port);
	else if (rpc_addr_family(a) == AF_INET6)
		a->u.sin6.sin6_port = htons(port);
}

void rpc_addr_unmap(struct rpc_addr *a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (rpc_addr_family(a) != AF_INET6 ||
	    !IN6_IS_ADDR_V4MAPPED(&a->u.sin6.sin6_addr))
		return;
	memcpy(&sin.sin_addr, &a->u.sin6.sin6_addr.s6_addr[12], 4);
	sin.sin_port = a->u.sin6.sin6_port;
	memset(a, 0, sizeof(*a));
	a->u.sin = sin;
	a->len = sizeof(sin);
}

bool rpc_addr_is_loopback(const struct rpc_addr *a)
{
	if (rpc_addr_family(a) == AF_INET)
		return (ntohl(a->u.sin.sin_addr.s_addr) >> 24) == 127;
	if (rpc_addr_family(a) == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&a->u.sin6.sin6_addr);
	return false;
}

bool rpc_addr_same_host(const struct rpc_addr *a, const struct rpc_addr *b)
{
	if (rpc_addr_family(a) != rpc_addr_family(b))
		return false;
	if (rpc_addr_family(a) == AF_INET)
		return a->u.sin.sin_addr.s_addr == b->u.sin.sin_addr.s_addr;
	if (rpc_addr_family(a) == AF_INET6)
		return !memcmp(&a->u.sin6.sin6_addr, &b->u.sin6.sin6_addr,
			       sizeof(a->u.sin6.sin6_addr));
	return false;
}

const char *rpc_addr_host(const struct rpc_addr *a, char *buf, size_t len)
{
	const void *src = rpc_addr_family(a) == AF_INET
				  ? (const void *)&a->u.sin.sin_addr
				  : (const void *)&a->u.sin6.sin6_addr;

	if (len == 0)
		return buf;
	if ((rpc_addr_family(a) != AF_INET && rpc_addr_family(a) != AF_INET6) ||
	    !inet_ntop(rpc_addr_family(a), src, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

const char *rpc_addr_netid(const struct rpc_addr *a, int proto)
{
	bool v6 = rpc_addr_family(a) == AF_INET6;

	if (proto == IPPROTO_UDP)
		return v6 ? "udp6" : "udp";
	return v6 ? "tcp6" : "tcp";
}

int rpc_addr_to_uaddr(const struct rpc_addr *a, char *buf, size_t len)
{
	char host[RPC_ADDR_HOSTLEN];
	uint16_t port = rpc_addr_port(a);
	int n;

	if (rpc_addr_family(a) != AF_INET && rpc_addr_family(a) != AF_INET6)
		return -EINVAL;
	rpc_addr_host(a, host, sizeof(host));
	n = snprintf(buf, len, "%s.%u.%u", host, port >> 8, port & 0xffu);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int rpc_addr_from_uaddr(struct rpc_addr *a, const char *uaddr, size_t len)
{
	char host[RPC_ADDR_HOSTLEN];
	const char *lo_dot, *hi_dot;
	uint16_t port;
	size_t hostlen;

	memset(a, 0, sizeof(*a));
	/* The codec checks the two port octets and that a host precedes
	 * them: both dots exist once it has said yes. */
	if (pmap_uaddr_port(uaddr, len, &port))
		return -EINVAL;
	lo_dot = memrchr(uaddr, '.', len);
	hi_dot = memrchr(uaddr, '.', (size_t)(lo_dot - uaddr));
	hostlen = (size_t)(hi_dot - uaddr);
	if (hostlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, uaddr, hostlen);
	host[hostlen] = '\0';
	/* inet_pton() takes neither a scope ("%eth0") nor brackets: what
	 * it accepts is exactly the numeric host RFC 1833 writes. */
	if (memchr(host, ':', hostlen)) {
		if (inet_pton(AF_INET6, host, &a->u.sin6.sin6_addr) != 1)
			return -EINVAL;
		a->u.sin6.sin6_family = AF_INET6;
		a->len = sizeof(a->u.sin6);
	} else {
		if (inet_pton(AF_INET, host, &a->u.sin.sin_addr) != 1)
			return -EINVAL;
		a->u.sin.sin_family = AF_INET;
		a->len = sizeof(a->u.sin);
	}
	rpc_addr_set_port(a, port);
	return 0;
}
