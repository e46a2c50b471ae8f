/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "killpriv.h"

#include <errno.h>
#include <linux/fuse.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* The INIT exchange happens once, before any other request, on the
 * session's first channel; these are written then and only read after. */
static uint64_t init_unique;    /* unique of the kernel's INIT; 0: none */
static bool kernel_offers;      /* its flags hold FUSE_HANDLE_KILLPRIV */
static bool kernel_offers_v2;   /* and FUSE_HANDLE_KILLPRIV_V2 */
static bool wanted;
static bool granted;

void killpriv_want(bool on)
{
	__atomic_store_n(&wanted, on, __ATOMIC_RELEASE);
}

bool killpriv_granted(void)
{
	return __atomic_load_n(&granted, __ATOMIC_ACQUIRE);
}

static ssize_t kp_read(int fd, void *buf, size_t len, void *userdata)
{
	const struct fuse_in_header *in = buf;
	ssize_t n = read(fd, buf, len);

	(void)userdata;
	if (n >= (ssize_t)(sizeof(*in) + offsetof(struct fuse_init_in, flags) +
			   sizeof(uint32_t)) &&
	    in->opcode == FUSE_INIT) {
		const struct fuse_init_in *arg = (const void *)(in + 1);

		kernel_offers = (arg->flags & FUSE_HANDLE_KILLPRIV) != 0;
		kernel_offers_v2 = (arg->flags & FUSE_HANDLE_KILLPRIV_V2) != 0;
		__atomic_store_n(&init_unique, in->unique, __ATOMIC_RELEASE);
	}
	return n;
}

static ssize_t kp_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	uint64_t unique = __atomic_load_n(&init_unique, __ATOMIC_ACQUIRE);

	(void)userdata;
	if (unique && count >= 2 && iov[0].iov_len >= sizeof(struct fuse_out_header) &&
	    iov[1].iov_len >= offsetof(struct fuse_init_out, flags) + sizeof(uint32_t)) {
		const struct fuse_out_header *out = iov[0].iov_base;

		if (out->unique == unique && out->error == 0) {
			struct fuse_init_out *arg = iov[1].iov_base;

			if (kernel_offers &&
			    __atomic_load_n(&wanted, __ATOMIC_ACQUIRE)) {
				arg->flags |= FUSE_HANDLE_KILLPRIV;
				/* Only with the second form does the kernel
				 * mark the file system SB_NOSEC: otherwise
				 * each write(2) to a file without setuid or
				 * setgid first asks GETXATTR of
				 * security.capability, a FUSE round trip
				 * per write that NFS has no answer for. */
				if (kernel_offers_v2)
					arg->flags |= FUSE_HANDLE_KILLPRIV_V2;
			}
			__atomic_store_n(&granted,
					 (arg->flags & (FUSE_HANDLE_KILLPRIV |
						       FUSE_HANDLE_KILLPRIV_V2)) != 0,
					 __ATOMIC_RELEASE);
			__atomic_store_n(&init_unique, 0, __ATOMIC_RELEASE);
		}
	}
	return writev(fd, iov, count);
}

int killpriv_attach(struct fuse_session *se)
{
	static const struct fuse_custom_io io = {
		.read = kp_read,
		.writev = kp_writev,
	};
	int fd = fuse_session_fd(se);

	if (fd < 0)
		return -EBADF;
	return fuse_session_custom_io(se, &io, fd);
}
