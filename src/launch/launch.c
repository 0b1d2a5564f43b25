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
 * core/proctree.c) as
 *     launch FD SHELL COMMAND [ARGS...]
 * with FD its end of a socket pair. It writes its pid as an int (it is
 * running), then serves one request per run:
 *   stormark sends 's'; the launcher starts a child with CLONE_VM |
 *   CLONE_PARENT (so the child is not the launcher's but its parent's)
 *   and writes the child's pid as an int (-errno if the clone failed).
 *   The child waits on a word in memory; when stormark sends 'g' the
 *   launcher sets it (at end of file, or if the launcher dies, the child
 *   gives up and exits 125), and the child resets the signals this program
 *   ignores and execs COMMAND as execvp does (or "sh -c COMMAND" when
 *   SHELL is 1). When the child has exec'd or exited (the kernel clears
 *   its CLONE_CHILD_CLEARTID word), the launcher writes an int: 0, or the
 *   errno of the failed exec (the child then exits 127 when the command
 *   was not found, else 126). Before its exec the child makes no read or
 *   write call, which the command's figures would count.
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
	volatile int state;     /* 1 wait, 2 exec, 0 give up: set by the launcher,
				 * and to 0 by the kernel if it dies (its
				 * set_tid_address word) */
	volatile int exec_errno;   /* set by the child when its exec failed */
	volatile int ctid;      /* cleared by the kernel when the child has
				 * exec'd or exited (CLONE_CHILD_CLEARTID) */
	char **argv, **envp;
};

static struct job job;
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

static void futex_wake(volatile int *w)
{
	sys4(SYS_futex, (long)w, 1 /* FUTEX_WAKE */, 1, 0);
}

static int put_int(int v)
{
	return sys(SYS_write, job.fd, (long)&v, sizeof(v)) == sizeof(v) ? 0 : -1;
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

/* The command's process until its exec: it makes no read or write (they
 * would be counted as the command's), it only waits for the word. */
static int child(void *unused)
{
	long r;
	int v;

	(void)unused;
	while ((v = job.state) == 1)
		futex_wait(&job.state, 1);
	if (v != 2)
		return 125;   /* stormark or the launcher went away first */
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
	char req;

	job.envp = argv + argc + 1;
	if (argc < 4)
		sys(SYS_exit_group, 125, 0, 0);
	job.fd = to_int(argv[1]);
	job.shell = argv[2][0] == '1';
	job.argv = argv + 3;
	if (job.fd < 0)
		sys(SYS_exit_group, 125, 0, 0);
	sys(SYS_fcntl, job.fd, F_SETFD, FD_CLOEXEC);
	set_signals(1 /* SIG_IGN */);
	/* however this program ends, a child still waiting gives up */
	sys(SYS_set_tid_address, (long)&job.state, 0, 0);
	if (put_int((int)sys(SYS_getpid, 0, 0, 0)))
		sys(SYS_exit_group, 125, 0, 0);
	while (sys(SYS_read, job.fd, (long)&req, 1) == 1 && req == 's') {
		job.state = 1;
		job.exec_errno = 0;
		job.ctid = 1;
		/* the child is our parent's (CLONE_PARENT), in our memory */
		pid = launch_clone(CLONE_VM | CLONE_PARENT | CLONE_CHILD_CLEARTID,
				   child_stack + sizeof(child_stack), child, NULL, &job.ctid);
		if (pid < 0) {
			put_int((int)pid);
			break;
		}
		if (put_int((int)pid) || sys(SYS_read, job.fd, (long)&req, 1) != 1 || req != 'g') {
			job.state = 0;
			futex_wake(&job.state);
			break;
		}
		job.state = 2;
		futex_wake(&job.state);
		for (int v; (v = job.ctid) != 0;)
			futex_wait(&job.ctid, v);   /* returns at once if it changed */
		if (put_int(job.exec_errno))
			break;
	}
	sys(SYS_exit_group, 0, 0, 0);
}
