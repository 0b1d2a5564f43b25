/* SPDX-License-Identifier: MIT */
/* nouring: run a command where io_uring_setup(2) fails with ENOSYS, as it
 * does in a container under Docker's default seccomp profile or under an
 * emulator that lacks it (tests/cli/engine_fallback.sh).
 *
 *   nouring COMMAND [ARG]...
 *
 * Sets no_new_privs (so an unprivileged caller may install a filter), then
 * a seccomp filter that answers io_uring_setup with ENOSYS and lets every
 * other system call through, then execs COMMAND. The filter is inherited by
 * every child and cannot be removed. Exit 126 when the filter cannot be
 * installed, 127 when COMMAND cannot be run. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425   /* the same number on every architecture */
#endif

#if defined(__x86_64__)
#define NOURING_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NOURING_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NOURING_ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define NOURING_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NOURING_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define NOURING_ARCH AUDIT_ARCH_S390X
#endif

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
#ifdef NOURING_ARCH
		/* a call made through another ABI (x32, a 32-bit call on a
		 * 64-bit kernel) has other numbers: let it through untouched */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOURING_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };

	if (argc < 2) {
		fprintf(stderr, "usage: nouring COMMAND [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "nouring: prctl(PR_SET_NO_NEW_PRIVS): %s\n", strerror(errno));
		return 126;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		fprintf(stderr, "nouring: prctl(PR_SET_SECCOMP): %s\n", strerror(errno));
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nouring: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
