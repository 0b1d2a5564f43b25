/* SPDX-License-Identifier: MIT */
/* Threads, start barrier, stop flag. */
#include "core/worker.h"
#include "core/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Atomic int sm_stop_signal;

static void on_signal(int sig)
{
	sm_stop_signal = sig;
}

static void install(int with_int)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	if (with_int)
		sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal or ssh session stops a run like Ctrl-C: the
	 * report is printed and what the run created is cleaned up */
	sigaction(SIGHUP, &sa, NULL);
}

void sm_signals_install(void)
{
	install(1);
}

int sm_signals_install_keep_int(void)
{
	struct sigaction sa;
	int ignored = !sigaction(SIGINT, NULL, &sa) && sa.sa_handler == SIG_IGN;

	/* SIGINT is left as it is when ignored: never replaced, so none can
	 * be taken by the handler in between */
	install(!ignored);
	return ignored;
}

void sm_start_init(struct sm_start *s)
{
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->released = 0;
	s->t0_ns = 0;
}

static void gate_set(struct sm_start *s, int state)
{
	pthread_mutex_lock(&s->mu);
	s->t0_ns = sm_now_ns();
	s->released = state;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void sm_start_release(struct sm_start *s)
{
	gate_set(s, 1);
}

int sm_start_wait(struct sm_start *s)
{
	int state;

	pthread_mutex_lock(&s->mu);
	while (!s->released)
		pthread_cond_wait(&s->cv, &s->mu);
	state = s->released;
	pthread_mutex_unlock(&s->mu);
	return state > 0 ? 0 : -ECANCELED;
}

int sm_threads_run(unsigned n, void *(*fn)(void *), void *args, size_t size,
		   struct sm_start *start)
{
	pthread_t *tids = calloc(n, sizeof(*tids));
	unsigned started = 0;
	int rc = 0;

	if (!tids)
		return -ENOMEM;
	for (; started < n; started++) {
		rc = pthread_create(&tids[started], NULL, fn, (char *)args + started * size);
		if (rc) {
			rc = -rc;
			break;
		}
	}
	gate_set(start, rc ? -1 : 1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return rc;
}

int sm_sleep_until_or_stop(uint64_t due_ns, uint64_t deadline_ns)
{
	uint64_t until = due_ns < deadline_ns ? due_ns : deadline_ns;

	for (;;) {
		uint64_t now = sm_now_ns(), slice = 100 * SM_NS_PER_MS;

		if (sm_stopped())
			return 1;
		if (now >= until)
			return until < due_ns;
		sm_sleep_until_ns(until - now > slice ? now + slice : until);
	}
}
