/* SPDX-License-Identifier: MIT */
/*
 * The launcher of `stormark time`: a tiny static program, without libc,
 * that starts each run of the timed command from a memory of a few pages.
 *
 * Why it exists: the kernel keeps a process's peak RSS (ru_maxrss) as the
 * maximum over every memory it ever had, and the memory a process had
 * before its exec counts too. A command started straight from stormark
 * (clone with CLONE_VM, or fork) would carry stormark's own peak, several
 * MiB, into its figure. Started from here instead, the command's process
 * is born in this program's memory and has had no other: its ru_maxrss is
 * its own.
 *
 * How: stormark execs this program once per invocation (from a memfd,
 * core/proctree.c), as soon as it starts, before its options are parsed:
 *     launch FD ARGS...
 * with FD its end of a socket pair and ARGS stormark's. Once they are
 * parsed, stormark sends 'c', the index in ARGS of the command's first
 * word (an int) and the shell flag ('1': "sh -c" the command's first
 * word); the command runs to the end of ARGS. Then it serves one request
 * per run, and writes its pid as an int before its first answer (in the
 * same write):
 *   stormark sends 's'; the launcher starts a child with CLONE_VM |
 *   CLONE_PARENT (so the child is not the launcher's but its parent's)
 *   and writes the child's pid as an int (-errno if the clone failed).
 *   The child itself takes stormark's next byte from the socket: at 'g'
 *   it resets the signals this program ignores and execs COMMAND as
 *   execvp does (or "sh -c COMMAND" when the shell flag is set); at
 *   anything else or end of file it gives up and exits 125. It receives
 *   it with recvmsg, which the kernel does not count in a process's read
 *   calls and bytes (/proc/PID/io), and makes no other I/O call before
 *   its exec: the command's figures are its own. (Taken by the child, the
 *   'g' wakes one process, not the launcher and then the child.) When the
 *   child has exec'd or exited (the kernel clears its CLONE_CHILD_CLEARTID
 *   word), the launcher writes an int: 0, or the errno of the failed exec
 *   (the child then exits 127 when the command was not found, else 126).
 *   stormark sends 'h' with descriptors (SCM_RIGHTS): the launcher keeps
 *   them, close-on-exec, so that no command ever holds one. They are the
 *   system-call counter of the first run (src/core/perfsys.c says why it
 *   is kept): at end of file the launcher then closes every other file,
 *   moves to /, and exits LINGER_S later, so that stormark, which does not
 *   wait for it, never waits for the counter's last close either, and an
 *   invocation that follows within that second finds the probe in place.
 *   'q' (quit) drops that wait: it is for a caller that waits for the
 *   launcher's end.
 * At end of file on FD the launcher exits. FD is close-on-exec, so the
 * command never holds it.
 *
 * Built freestanding (-nostdlib -static, no sanitizer) for x86_64 and
 * aarch64 by CMakeLists.txt, and embedded in stormark as bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
static long sys4(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return r;
}

/* long launch_clone(flags, stack_top, fn, arg, ctid): the child runs
 * fn(arg) on stack_top and exits with its value; the parent gets the pid
 * (ctid: the child-tid word of CLONE_CHILD_CLEARTID). */
__asm__(".text\n"
	".type launch_clone,@function\n"
	"launch_clone:\n"
	"	and $-16,%rsi\n"
	"	sub $16,%rsi\n"
	"	mov %rcx,8(%rsi)\n"
	"	mov %rdx,(%rsi)\n"
	"	mov %r8,%r10\n"
	"	xor %edx,%edx\n"
	"	xor %r8d,%r8d\n"
	"	mov $" "56" ",%eax\n"          /* SYS_clone */
	"	syscall\n"
	"	test %rax,%rax\n"
	"	jnz 1f\n"
	"	xor %ebp,%ebp\n"
	"	pop %rax\n"
	"	pop %rdi\n"
	"	call *%rax\n"
	"	mov %eax,%edi\n"
	"	mov $" "60" ",%eax\n"          /* SYS_exit */
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".global _start\n"
	".type _start,@function\n"
	"_start:\n"
	"	xor %ebp,%ebp\n"
	"	mov %rsp,%rdi\n"
	"	and $-16,%rsp\n"
	"	call launch_main\n"
	"	hlt\n");
#elif defined(__aarch64__)
static long sys4(long n, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}

__asm__(".text\n"
	".type launch_clone,%function\n"
	"launch_clone:\n"
	"	and x1,x1,#-16\n"
	"	stp x2,x3,[x1,#-16]!\n"
	"	mov x2,#0\n"
	"	mov x3,#0\n"
	"	mov x8,#220\n"                 /* SYS_clone */
	"	svc #0\n"
	"	cbz x0,1f\n"
	"	ret\n"
	"1:	ldp x1,x0,[sp],#16\n"
	"	blr x1\n"
	"	mov x8,#93\n"                  /* SYS_exit */
	"	svc #0\n"
	".global _start\n"
	".type _start,%function\n"
	"_start:\n"
	"	mov x29,#0\n"
	"	mov x30,#0\n"
	"	mov x0,sp\n"
	"	and x1,x0,#-16\n"
	"	mov sp,x1\n"
	"	bl launch_main\n"
	"1:	b 1b\n");
#else
#error "the launcher is built for x86_64 and aarch64 only (CMakeLists.txt)"
#endif

static long sys(long n, long a, long b, long c)
{
	return sys4(n, a, b, c, 0);
}

long launch_clone(unsigned long flags, void *stack_top, int (*fn)(void *), void *arg,
		  volatile int *ctid);
void launch_main(long *sp);

/* What the child needs; in this program's memory, which the child shares
 * (and this program waits, suspended, until the child has exec'd). */
struct job {
	int fd, shell;
	volatile int exec_errno;   /* set by the child when its exec failed */
	volatile int ctid;      /* cleared by the kernel when the child has
				 * exec'd or exited (CLONE_CHILD_CLEARTID) */
	char **argv, **envp;
};

static struct job job;
/* the descriptors given with 'h' (at most HELD_MAX are kept) */
#define HELD_MAX 4
static int held[HELD_MAX], nheld, quit;
#define LINGER_S 1   /* SM_PERFSYS_LINGER_MS in src/core/perfsys.c */
/* the child's stack until it execs; the pre-exec work needs little */
static char child_stack[16384] __attribute__((aligned(16)));
/* room for one "DIR/FILE" candidate of the PATH search */
static char path_buf[4096 + 256];

/* The signals this program ignores (so that a terminal's ^C or a hangup
 * does not end it while stormark runs on); the command gets them back. */
static const int ignored[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE };

/* The kernel's struct sigaction, enough for SIG_DFL and SIG_IGN. */
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

static void set_signals(unsigned long handler)
{
	struct ksigaction sa = { handler, 0, 0, 0 };

	for (unsigned i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sys4(SYS_rt_sigaction, ignored[i], (long)&sa, 0, sizeof(sa.mask));
}

static void futex_wait(volatile int *w, int v)
{
	sys4(SYS_futex, (long)w, 0 /* FUTEX_WAIT */, v, 0);
}

/* Our pid, written with the first answer (one write, so that stormark,
 * waiting for both, wakes once); 0 once written. */
static int pid_unsaid;

static int put_int(int v)
{
	int two[2] = { pid_unsaid, v };
	long n = pid_unsaid ? 2 * (long)sizeof(int) : (long)sizeof(int);

	pid_unsaid = 0;
	return sys(SYS_write, job.fd, (long)(two + (n == sizeof(int))), n) == n ? 0 : -1;
}

static size_t slen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int has_slash(const char *s)
{
	for (; *s; s++)
		if (*s == '/')
			return 1;
	return 0;
}

/* Decimal text to int; -1 when it is not one. */
static int to_int(const char *s)
{
	int v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static const char *getenv_path(char **envp)
{
	for (; *envp; envp++) {
		const char *e = *envp;

		if (e[0] == 'P' && e[1] == 'A' && e[2] == 'T' && e[3] == 'H' && e[4] == '=')
			return e + 5;
	}
	return NULL;
}

/* execve, and for a file without a #! line or ELF header (ENOEXEC) the
 * shell, as execvp does. Returns -errno (it only returns on failure). */
static long exec_one(const char *file, char **argv, char **envp)
{
	long r = sys(SYS_execve, (long)file, (long)argv, (long)envp);

	if (r == -ENOEXEC) {
		char *sh_argv[256];
		int i;

		sh_argv[0] = "sh";
		sh_argv[1] = (char *)file;
		for (i = 1; argv[i] && i < 253; i++)
			sh_argv[i + 1] = argv[i];
		sh_argv[i + 1] = NULL;
		if (!argv[i])
			sys(SYS_execve, (long)"/bin/sh", (long)sh_argv, (long)envp);
	}
	return r;
}

/* execvp: a name without a slash is looked up in PATH (default
 * "/bin:/usr/bin"); EACCES seen on the way wins over a final ENOENT. */
static long exec_path(char **argv, char **envp)
{
	const char *file = argv[0], *path, *p;
	size_t flen = slen(file);
	int saw_eacces = 0;
	long r;

	if (!*file)
		return -ENOENT;
	if (has_slash(file))
		return exec_one(file, argv, envp);
	if (flen > 255)
		return -ENAMETOOLONG;
	path = getenv_path(envp);
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *end = p;
		size_t dlen, i;

		while (*end && *end != ':')
			end++;
		dlen = (size_t)(end - p);
		if (dlen < 4096) {
			for (i = 0; i < dlen; i++)
				path_buf[i] = p[i];
			if (dlen)
				path_buf[dlen++] = '/';   /* an empty entry is "." */
			for (i = 0; i <= flen; i++)
				path_buf[dlen + i] = file[i];
			r = exec_one(path_buf, argv, envp);
			if (r == -EACCES)
				saw_eacces = 1;
			else if (r != -ENOENT && r != -ENOTDIR && r != -ESTALE &&
				 r != -ENODEV && r != -ETIMEDOUT)
				return r;
		}
		if (!*end)
			break;
		p = end;
	}
	return saw_eacces ? -EACCES : -ENOENT;
}

/* The kernel's struct msghdr, iovec and cmsghdr (the same on x86_64 and
 * aarch64). */
struct kiovec {
	void *base;
	unsigned long len;
};

struct kmsghdr {
	void *name;
	int namelen;
	struct kiovec *iov;
	unsigned long iovlen;
	void *control;
	unsigned long controllen;
	int flags;
};

struct kcmsghdr {
	unsigned long len;
	int level, type;
};

#define K_SOL_SOCKET 1
#define K_SCM_RIGHTS 1
#define K_MSG_CMSG_CLOEXEC 0x40000000

/* Read exactly len bytes; 0, or -1 at end of file or on an error. */
static int get_all(char *buf, long len)
{
	while (len > 0) {
		long n = sys(SYS_read, job.fd, (long)buf, len);

		if (n == -EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* The arguments after FD, and how many */
static char **args;
static long nargs;

/* 'c': the command's index in args and the shell flag. 0, or -1. */
static int get_command(void)
{
	char b[5];
	int at;

	if (get_all(b, sizeof(b)))
		return -1;
	for (int i = 0; i < 4; i++)   /* stormark's int, in our common byte order */
		((char *)&at)[i] = b[i];
	if (at < 0 || at >= nargs)
		return -1;
	job.argv = args + at;
	job.shell = b[4] == '1';
	return 0;
}

/* The next request byte ('s'); 'h' and its descriptors, 'c' and its
 * command, and 'q' are taken here ('g' is the child's). -1 at end of file
 * or on an error. */
static int get_req(void)
{
	for (;;) {
		unsigned long cbuf[(sizeof(struct kcmsghdr) + HELD_MAX * sizeof(int)) /
				   sizeof(unsigned long) + 1];
		char req;
		struct kiovec iov = { &req, 1 };
		struct kmsghdr mh = { 0, 0, &iov, 1, cbuf, sizeof(cbuf), 0 };
		const struct kcmsghdr *cm = (const struct kcmsghdr *)cbuf;
		long n = sys(SYS_recvmsg, job.fd, (long)&mh, K_MSG_CMSG_CLOEXEC);

		if (n == -EINTR)
			continue;
		if (n != 1)
			return -1;
		if (mh.controllen >= sizeof(*cm) && cm->level == K_SOL_SOCKET &&
		    cm->type == K_SCM_RIGHTS) {
			const int *fds = (const int *)(cm + 1);
			unsigned long nfd = (cm->len - sizeof(*cm)) / sizeof(int);

			for (unsigned long i = 0; i < nfd; i++) {
				if (nheld < HELD_MAX)
					held[nheld++] = fds[i];
				else
					sys(SYS_close, fds[i], 0, 0);
			}
		}
		if (req == 'q')
			quit = 1;
		if (req == 'c' && get_command())
			return -1;
		if (req != 'h' && req != 'q' && req != 'c')
			return req;
	}
}

/* Close lo..hi (close_range: Linux 5.9; one by one, up to 1024, before). */
static void close_between(unsigned lo, unsigned hi)
{
	if (sys(SYS_close_range, lo, hi, 0) == -ENOSYS)
		for (unsigned fd = lo; fd <= hi && fd < 1024; fd++)
			sys(SYS_close, fd, 0, 0);
}

/* The end: with descriptors held, first close every other file (a pipe
 * or terminal of stormark's caller must not wait for us), leave the
 * directory, and wait LINGER_S; the held ones close as we exit. */
static void finish(int code)
{
	if (nheld && !quit) {
		struct { long sec, nsec; } ts = { LINGER_S, 0 };
		unsigned lo = 0;

		for (int i = 0; i < nheld; i++)   /* ascending order, for the gaps */
			for (int j = i + 1; j < nheld; j++)
				if (held[j] < held[i]) {
					int t = held[i];

					held[i] = held[j];
					held[j] = t;
				}
		for (int i = 0; i < nheld; i++) {
			if ((unsigned)held[i] > lo)
				close_between(lo, (unsigned)held[i] - 1);
			lo = (unsigned)held[i] + 1;
		}
		close_between(lo, ~0U);
		sys(SYS_chdir, (long)"/", 0, 0);
		sys(SYS_nanosleep, (long)&ts, 0, 0);
	}
	sys(SYS_exit_group, code, 0, 0);
}

/* The command's process until its exec: it makes no read or write (they
 * would be counted as the command's), it only waits for the word. */
static int child(void *unused)
{
	char go;
	struct kiovec iov = { &go, 1 };
	struct kmsghdr mh = { 0, 0, &iov, 1, 0, 0, 0 };
	long r;

	(void)unused;
	do {
		r = sys(SYS_recvmsg, job.fd, (long)&mh, 0);
	} while (r == -EINTR);
	if (r != 1 || go != 'g') {
		if (r == 1 && go == 'q')
			quit = 1;   /* the launcher's, in our shared memory */
		return 125;   /* stormark went away first, or stops */
	}
	set_signals(0 /* SIG_DFL */);
	if (job.shell) {
		char *sh_argv[] = { "sh", "-c", job.argv[0], NULL };

		r = sys(SYS_execve, (long)"/bin/sh", (long)sh_argv, (long)job.envp);
	} else {
		r = exec_path(job.argv, job.envp);
	}
	job.exec_errno = (int)-r;
	return job.exec_errno == ENOENT ? 127 : 126;
}

void launch_main(long *sp)
{
	long argc = sp[0], pid;
	char **argv = (char **)(sp + 1);

	job.envp = argv + argc + 1;
	if (argc < 3)
		sys(SYS_exit_group, 125, 0, 0);
	job.fd = to_int(argv[1]);
	args = argv + 2;
	nargs = argc - 2;
	if (job.fd < 0)
		sys(SYS_exit_group, 125, 0, 0);
	sys(SYS_fcntl, job.fd, F_SETFD, FD_CLOEXEC);
	set_signals(1 /* SIG_IGN */);
	pid_unsaid = (int)sys(SYS_getpid, 0, 0, 0);
	while (get_req() == 's' && job.argv) {
		job.exec_errno = 0;
		job.ctid = 1;
		/* the child is our parent's (CLONE_PARENT), in our memory */
		pid = launch_clone(CLONE_VM | CLONE_PARENT | CLONE_CHILD_CLEARTID,
				   child_stack + sizeof(child_stack), child, NULL, &job.ctid);
		if (pid < 0) {
			put_int((int)pid);
			break;
		}
		if (put_int((int)pid))
			break;   /* the child gives up at stormark's end */
		/* the child takes stormark's 'g', and execs or gives up */
		for (int v; (v = job.ctid) != 0;)
			futex_wait(&job.ctid, v);   /* returns at once if it changed */
		if (put_int(job.exec_errno))
			break;
	}
	finish(0);
}
