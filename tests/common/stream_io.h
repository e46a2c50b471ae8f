/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Blocking stream I/O for the test-only servers (tests/v2proxy,
 * tests/aclsrv): each serves one connection per thread, so a send simply
 * waits until the peer takes every byte.
 */
#ifndef NFSFUSE_TESTS_STREAM_IO_H
#define NFSFUSE_TESTS_STREAM_IO_H

#include <stddef.h>
#include <stdint.h>

/* Send all of p[0..n) on fd; 0, or -EIO when the peer is gone. */
int stream_write_all(int fd, const uint8_t *p, size_t n);

#endif
