/* SPDX-License-Identifier: MIT */
/* What the commands share: option parsing, path and memory checks, the end of stdout. */
#include "cmd/cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "args/out_opts.h"
#include "core/clock.h"
#include "core/memcheck.h"
#include "core/opt.h"

int sm_cmd_parse(const char *prog, const char *help_hint, const struct sm_opt *opts, int argc,
		 char **argv, unsigned flags, int *first,
		 void (*usage)(FILE *f, const struct sm_opt *opts))
{
	char msg[SM_MSG_MAX];
	int rc = sm_opt_parse(opts, argc, argv, flags, first, msg, sizeof(msg));

	if (rc == SM_OPT_LIST_CODE) {
		sm_opt_list(stdout, opts, 0);
		return SM_EXIT_OK;
	}
	if (rc > 0) {
		usage(stdout, opts);
		return SM_EXIT_OK;
	}
	if (rc)
		return sm_usage_error(prog, help_hint, "%s", msg);
	return -1;
}

int sm_check_memory(const char *prog, uint64_t need, const char *what)
{
	char msg[600];

	if (!sm_mem_check(need, what, msg, sizeof(msg)))
		return 0;
	sm_prog_error(prog, "%s", msg);   /* one line, as every usage error */
	return SM_EXIT_USAGE;
}

/* Format p's line as it stands now (p->mu held) into line (of len bytes),
 * fitted to the terminal's width so that a redraw never wraps onto a
 * second line: the label (p->what) is shortened first, ending in "...",
 * so that the figures and the times ("4 s in, 48 s left") stay whole; a
 * terminal too narrow even for those cuts the line's end. Returns its
 * length. */
static size_t progress_format(const struct sm_progress *p, char *line, size_t len)
{
	uint64_t now = sm_now_ns();
	double el = (double)(now - p->base_ns) / 1e9, in = (double)(now - p->phase_ns) / 1e9;
	double bud = (double)p->budget_ns / 1e9;
	char head[48], tail[200], what[sizeof(p->what)];
	struct winsize ws;
	size_t n, cols = 80, fixed;
	int k;

	if (p->budget_ns)
		snprintf(head, sizeof(head), "[%3.0f/%.0f s] ", el, bud);
	else
		snprintf(head, sizeof(head), "[%3.0f s] ", el);
	/* the test's figures first, then the times */
	k = snprintf(tail, sizeof(tail), "%s%s%.0f s in", p->figures, p->figures[0] ? ", " : "", in);
	if (p->budget_ns && el < bud && k >= 0 && (size_t)k < sizeof(tail))
		snprintf(tail + k, sizeof(tail) - (size_t)k, ", %.0f s left", bud - el);
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1)
		cols = ws.ws_col;
	snprintf(what, sizeof(what), "%s", p->what);
	fixed = strlen(head) + 2 + strlen(tail);   /* 2: ": " */
	if (fixed + strlen(what) > cols - 1) {
		size_t room = fixed < cols - 1 ? cols - 1 - fixed : 0;

		if (room > 3) {
			size_t cut = room - 3;

			while (cut && strchr(" :,", what[cut - 1]))   /* no "capture: ..." */
				cut--;
			snprintf(what + cut, sizeof(what) - cut, "...");
		} else
			what[room] = '\0';
	}
	k = snprintf(line, len, "\r\033[K%s%s: %s", head, what, tail);
	if (k < 0)
		return 0;
	n = (size_t)k < len ? (size_t)k : len - 1;
	if (n > 4 + cols - 1)   /* "\r\033[K" takes no column */
		n = 4 + cols - 1;
	return n;
}

/* The ticker: redraws the line every half second until told to stop. */
static void *progress_tick(void *arg)
{
	struct sm_progress *p = arg;
	struct timespec ts;
	char line[400];
	size_t n;

	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 500000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&p->cv, &p->mu, &ts) == ETIMEDOUT && !p->stop) {
			/* written with the lock let go: a terminal that blocks
			 * (^S) never holds up whoever hands over figures */
			n = progress_format(p, line, sizeof(line));
			pthread_mutex_unlock(&p->mu);
			(void)!write(STDERR_FILENO, line, n);
			pthread_mutex_lock(&p->mu);
		}
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void sm_progress_run(const char *what, const char *figures, uint64_t elapsed_ns,
		     uint64_t budget_ns, void *arg)
{
	struct sm_progress *p = arg;

	if (!what) {
		if (p->on && p->ticking && !pthread_mutex_trylock(&p->mu)) {
			snprintf(p->figures, sizeof(p->figures), "%s", figures ? figures : "");
			pthread_mutex_unlock(&p->mu);
		}
		return;
	}
	sm_progress_line(what, elapsed_ns, budget_ns, arg);
}

void sm_progress_line(const char *what, uint64_t elapsed_ns, uint64_t budget_ns, void *arg)
{
	struct sm_progress *p = arg;
	uint64_t now = sm_now_ns();
	char line[400];
	size_t n;

	if (!p->on)
		return;
	fflush(stderr);
	if (!p->ticking) {
		pthread_condattr_t ca;
		sigset_t all, old;

		p->stop = 0;
		pthread_mutex_init(&p->mu, NULL);
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&p->cv, &ca);
		pthread_condattr_destroy(&ca);
		/* signals (^C, time's forwarding) stay with the threads that
		 * handle them */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		p->ticking = !pthread_create(&p->thread, NULL, progress_tick, p);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!p->ticking) {
			pthread_cond_destroy(&p->cv);
			pthread_mutex_destroy(&p->mu);
		}
	}
	if (p->ticking)
		pthread_mutex_lock(&p->mu);
	snprintf(p->what, sizeof(p->what), "%s", what);
	p->figures[0] = '\0';
	p->base_ns = now - elapsed_ns;
	p->phase_ns = now;
	p->budget_ns = budget_ns;
	n = progress_format(p, line, sizeof(line));
	if (p->ticking)
		pthread_mutex_unlock(&p->mu);
	(void)!write(STDERR_FILENO, line, n);
}

void sm_progress_clear(struct sm_progress *p)
{
	if (!p->on)
		return;
	if (p->ticking) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_signal(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
		p->ticking = 0;
	}
	(void)!write(STDERR_FILENO, "\r\033[K", 4);
}
