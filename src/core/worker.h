/* SPDX-License-Identifier: MIT */
/* Worker threads released together, and the stop flag that SIGINT, SIGTERM
 * and SIGHUP (or a time limit) raise. */
#ifndef SM_WORKER_H
#define SM_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

/* The one mutable global: 0 while running, else the signal number that asked
 * to stop (SIGINT, SIGTERM, SIGHUP). Read it with sm_stopped(). An atomic, not a
 * volatile sig_atomic_t: worker threads read it while the handler writes it
 * on another thread, and a lock-free atomic store is async-signal-safe. */
extern _Atomic int sm_stop_signal;

/* Install SIGINT, SIGTERM and SIGHUP handlers that set sm_stop_signal
 * (without SA_RESTART, so blocking waits wake up). Idempotent. */
void sm_signals_install(void);

/* As sm_signals_install(), except that a SIGINT the process started with
 * ignored (a background job of a script: `trap '' INT`) stays ignored, as
 * frametest leaves it. Call it before anything installs a SIGINT handler
 * (it looks at the disposition it finds). Returns 1 when SIGINT was
 * ignored and left so, else 0. */
int sm_signals_install_keep_int(void);

/* Sleep until due_ns (CLOCK_MONOTONIC) in slices of at most 100 ms, so a
 * stop request is seen within that. Returns 0 at due_ns; 1 when the stop
 * flag was set, or at deadline_ns (UINT64_MAX: none) when that comes
 * before due_ns (the run ends before the event is due). */
int sm_sleep_until_or_stop(uint64_t due_ns, uint64_t deadline_ns);

static inline int sm_stopped(void)
{
	return atomic_load_explicit(&sm_stop_signal, memory_order_relaxed) != 0;
}

/* Exit code for an interrupted run. */
#define SM_EXIT_INTERRUPTED 130

/* Start gate: workers wait on it so that all begin together, at t0_ns. */
struct sm_start {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int released;          /* 1: go; -1: aborted (a thread failed to start) */
	uint64_t t0_ns;        /* sm_now_ns() when released */
};

void sm_start_init(struct sm_start *s);
void sm_start_release(struct sm_start *s);

/* Block until the gate opens. Returns 0 to go, -ECANCELED when aborted. */
int sm_start_wait(struct sm_start *s);

/*
 * Run fn(arg_i) on n threads, arg_i = (char *)args + i * size. When every
 * thread exists, the gate `start` opens (workers call sm_start_wait() first)
 * and t0 is set; then all are joined. Returns 0, or -errno when a thread
 * could not be created (the gate is then aborted and the others joined).
 */
int sm_threads_run(unsigned n, void *(*fn)(void *), void *args, size_t size,
		   struct sm_start *start);

#endif
