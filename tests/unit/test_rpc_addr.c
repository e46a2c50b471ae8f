/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket addresses and RFC 1833 universal addresses: the forms rpcbind
 * writes for IPv4 and IPv6, round trips, and what must be refused
 * (missing parts, octets over 255, signs and blanks, scopes, brackets,
 * hosts longer than any address).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/rpc/addr.h"

static void from_uaddr_ok(const char *u, int family, const char *host,
			  uint16_t port)
{
	struct rpc_addr a;
	char buf[RPC_ADDR_HOSTLEN];

	assert_int_equal(rpc_addr_from_uaddr(&a, u, strlen(u)), 0);
	assert_int_equal(rpc_addr_family(&a), family);
	assert_int_equal(a.len, family == AF_INET
					? sizeof(struct sockaddr_in)
					: sizeof(struct sockaddr_in6));
	assert_string_equal(rpc_addr_host(&a, buf, sizeof(buf)), host);
	assert_int_equal(rpc_addr_port(&a), port);
}

static void test_uaddr_good(void **state)
{
	(void)state;
	/* What rpcbind answered for the test server's MOUNT and NFS. */
	from_uaddr_ok("127.0.0.1.78.80", AF_INET, "127.0.0.1", 20048);
	from_uaddr_ok("0.0.0.0.8.1", AF_INET, "0.0.0.0", 2049);
	from_uaddr_ok("::1.8.1", AF_INET6, "::1", 2049);
	from_uaddr_ok("::.128.35", AF_INET6, "::", 32803);
	from_uaddr_ok("fe80::1:2.0.111", AF_INET6, "fe80::1:2", 111);
	from_uaddr_ok("2001:db8:0:0:0:0:0:7.255.255", AF_INET6,
		      "2001:db8::7", 65535);
	/* An IPv6 address written with an embedded IPv4 tail. */
	from_uaddr_ok("::ffff:192.0.2.1.0.1", AF_INET6, "::ffff:192.0.2.1",
		      1);
	from_uaddr_ok("192.0.2.1.0.0", AF_INET, "192.0.2.1", 0);
	/* Leading zeros in the port octets are decimal, not octal. */
	from_uaddr_ok("10.1.2.3.010.001", AF_INET, "10.1.2.3", 10 * 256 + 1);
}

static void test_uaddr_bad(void **state)
{
	static const char *const bad[] = {
		"", ".", "..", "8.1", ".8.1", "127.0.0.1", "127.0.0.1.8",
		"127.0.0.1.8.", "127.0.0.1..1", "127.0.0.1.256.1",
		"127.0.0.1.1.256", "127.0.0.1.1000.1", "127.0.0.1.-1.1",
		"127.0.0.1.+1.1", "127.0.0.1. 1.1", "127.0.0.1.1.1 ",
		"127.0.0.1.0x1.1", "127.0.0.256.8.1", "127.0.0.8.1",
		"1.2.3.4.5.8.1", "::1", "::1.8", "[::1].8.1", "::1%lo.8.1",
		"fe80::1%1.8.1", ":::1.8.1", "1::2::3.8.1", "::g.8.1",
		"localhost.8.1", "127.0.0.1.99999999999999999999.1",
		/* host longer than any IPv6 address */
		"0000:0000:0000:0000:0000:0000:0000:0000:0000.8.1",
	};
	struct rpc_addr a;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (rpc_addr_from_uaddr(&a, bad[i], strlen(bad[i])) != -EINVAL)
			fail_msg("accepted \"%s\"", bad[i]);
	}
	assert_int_equal(rpc_addr_from_uaddr(&a, NULL, 0), -EINVAL);
	/* NUL inside the counted string. */
	assert_int_equal(rpc_addr_from_uaddr(&a, "127.0\0.0.1.8.1", 14),
			 -EINVAL);
}

/* The length is honoured: no read past it, no NUL needed. */
static void test_uaddr_counted(void **state)
{
	const char buf[] = "::1.8.1XXXX";
	char host[RPC_ADDR_HOSTLEN];
	struct rpc_addr a;

	(void)state;
	assert_int_equal(rpc_addr_from_uaddr(&a, buf, 7), 0);
	assert_string_equal(rpc_addr_host(&a, host, sizeof(host)), "::1");
	assert_int_equal(rpc_addr_port(&a), 2049);
	/* Every shorter prefix lacks a part. */
	for (size_t n = 0; n < 7; n++)
		assert_int_equal(rpc_addr_from_uaddr(&a, buf, n), -EINVAL);
}

static void to_uaddr_is(const char *host, uint16_t port, const char *want)
{
	struct rpc_addr a, back;
	char u[RPC_ADDR_UADDRLEN];

	assert_int_equal(rpc_addr_parse(&a, host, port), 0);
	assert_int_equal(rpc_addr_to_uaddr(&a, u, sizeof(u)), 0);
	assert_string_equal(u, want);
	assert_int_equal(rpc_addr_from_uaddr(&back, u, strlen(u)), 0);
	assert_true(rpc_addr_same_host(&a, &back));
	assert_int_equal(rpc_addr_port(&back), port);
}

static void test_uaddr_format(void **state)
{
	struct rpc_addr a;
	char small[8];

	(void)state;
	to_uaddr_is("127.0.0.1", 2049, "127.0.0.1.8.1");
	to_uaddr_is("::", 32803, "::.128.35");
	to_uaddr_is("::1", 0, "::1.0.0");
	to_uaddr_is("2001:db8::7", 65535, "2001:db8::7.255.255");
	/* The longest form fits the advertised size. */
	to_uaddr_is("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535,
		    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff.255.255");
	to_uaddr_is("::ffff:255.255.255.255", 258,
		    "::ffff:255.255.255.255.1.2");
	assert_int_equal(rpc_addr_parse(&a, "192.0.2.1", 2049), 0);
	assert_int_equal(rpc_addr_to_uaddr(&a, small, sizeof(small)),
			 -ENOSPC);
	memset(&a, 0, sizeof(a));
	assert_int_equal(rpc_addr_to_uaddr(&a, small, sizeof(small)),
			 -EINVAL);
}

static void test_parse_and_compare(void **state)
{
	struct rpc_addr a, b;
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_un_like { sa_family_t f; char p[20]; } un = { AF_UNIX, "" };
	char host[RPC_ADDR_HOSTLEN];

	(void)state;
	assert_int_equal(rpc_addr_parse(&a, "::1", 111), 0);
	assert_true(rpc_addr_is_loopback(&a));
	assert_string_equal(rpc_addr_netid(&a, IPPROTO_TCP), "tcp6");
	assert_string_equal(rpc_addr_netid(&a, IPPROTO_UDP), "udp6");
	assert_int_equal(rpc_addr_parse(&b, "127.0.0.1", 111), 0);
	assert_string_equal(rpc_addr_netid(&b, IPPROTO_TCP), "tcp");
	assert_false(rpc_addr_same_host(&a, &b));
	assert_int_equal(rpc_addr_parse(&a, "127.3.2.1", 0), 0);
	assert_true(rpc_addr_is_loopback(&a));
	assert_int_equal(rpc_addr_parse(&a, "[::1]", 0), -EINVAL);
	assert_int_equal(rpc_addr_parse(&a, "example.org", 0), -EINVAL);
	assert_int_equal(rpc_addr_parse(&a, "", 0), -EINVAL);

	/* A dual-stack socket's IPv4 peer is the IPv4 host. */
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6.sin6_addr);
	sin6.sin6_port = htons(4045);
	assert_int_equal(rpc_addr_set(&a, (struct sockaddr *)&sin6,
				      sizeof(sin6)), 0);
	assert_false(rpc_addr_same_host(&a, &b));
	rpc_addr_unmap(&a);
	assert_int_equal(rpc_addr_family(&a), AF_INET);
	assert_true(rpc_addr_same_host(&a, &b));
	assert_int_equal(rpc_addr_port(&a), 4045);
	assert_string_equal(rpc_addr_host(&a, host, sizeof(host)),
			    "127.0.0.1");
	/* Other families, and short lengths, are refused. */
	assert_int_equal(rpc_addr_set(&a, (struct sockaddr *)&un, sizeof(un)),
			 -EAFNOSUPPORT);
	assert_int_equal(rpc_addr_set(&a, (struct sockaddr *)&sin6, 8),
			 -EAFNOSUPPORT);
	memset(&a, 0, sizeof(a));
	assert_string_equal(rpc_addr_host(&a, host, sizeof(host)), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uaddr_good),
		cmocka_unit_test(test_uaddr_bad),
		cmocka_unit_test(test_uaddr_counted),
		cmocka_unit_test(test_uaddr_format),
		cmocka_unit_test(test_parse_and_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
