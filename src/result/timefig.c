/* SPDX-License-Identifier: MIT */
/* The figures of `stormark time`'s runs: the table, a run's record, the
 * result's release. Its statistics and hints are analysis/time.c's. */
#include "result/timefig.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/clock.h"

const struct sm_tf_desc sm_tf_desc[SM_TF_COUNT] = {
	[SM_TF_WALL_NS] = { "wall_ns", "wall time", SM_TFU_NS, 0 },
	[SM_TF_USER_NS] = { "user_ns", "user CPU", SM_TFU_NS, 0 },
	[SM_TF_SYS_NS] = { "sys_ns", "system CPU", SM_TFU_NS, 0 },
	[SM_TF_CPU_PCT] = { "cpu_pct", "CPU", SM_TFU_PCT, 0 },
	[SM_TF_MAX_RSS_BYTES] = { "max_rss_bytes", "max RSS", SM_TFU_BYTES, 0 },
	[SM_TF_MINOR_FAULTS] = { "minor_faults", "minor page faults", SM_TFU_COUNT, 0 },
	[SM_TF_MAJOR_FAULTS] = { "major_faults", "major page faults", SM_TFU_COUNT, 0 },
	[SM_TF_VOL_CTXSW] = { "voluntary_ctxsw", "voluntary ctx switches", SM_TFU_COUNT, 0 },
	[SM_TF_INVOL_CTXSW] = { "involuntary_ctxsw", "involuntary ctx switches", SM_TFU_COUNT, 0,
				"invol. ctx switches" },
	[SM_TF_SYSCALLS] = { "syscalls", "system calls (all)", SM_TFU_COUNT, 0 },
	[SM_TF_FLUSH_CALLS] = { "flush_calls", "flush calls (fsync...)", SM_TFU_COUNT, 0 },
	[SM_TF_READ_CALLS] = { "read_calls", "read calls", SM_TFU_COUNT, 0 },
	[SM_TF_WRITE_CALLS] = { "write_calls", "write calls", SM_TFU_COUNT, 0 },
	[SM_TF_READ_BYTES] = { "read_bytes", "bytes read (logical)", SM_TFU_BYTES, 0,
			       "logical bytes read" },
	[SM_TF_WRITE_BYTES] = { "write_bytes", "bytes written (logical)", SM_TFU_BYTES, 0,
			"logical bytes written" },
	[SM_TF_READ_BYTES_PER_CALL] = { "read_bytes_per_call", "mean bytes per read call",
					SM_TFU_BYTES, 0, "bytes per read call" },
	[SM_TF_WRITE_BYTES_PER_CALL] = { "write_bytes_per_call", "mean bytes per write call",
					 SM_TFU_BYTES, 0, "bytes per write call" },
	[SM_TF_STORAGE_READ_BYTES] = { "storage_read_bytes", "storage bytes read",
				       SM_TFU_BYTES, 0 },
	[SM_TF_STORAGE_WRITE_BYTES] = { "storage_write_bytes", "storage bytes written",
					SM_TFU_BYTES, 0 },
	[SM_TF_CANCELLED_WRITE_BYTES] = { "cancelled_write_bytes", "cancelled writes",
					  SM_TFU_BYTES, 0 },
	[SM_TF_STORAGE_READ_BPS] = { "storage_read_bytes_per_s", "storage read rate",
				     SM_TFU_BPS, 0 },
	[SM_TF_STORAGE_WRITE_BPS] = { "storage_write_bytes_per_s", "storage write rate",
				      SM_TFU_BPS, 0 },
	[SM_TF_PROCESSES] = { "processes", "processes reaped", SM_TFU_COUNT, 0 },
	[SM_TF_DISK_READ_IOS] = { "disk_read_ios", "device reads", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_READ_BYTES] = { "disk_read_bytes", "device bytes read", SM_TFU_BYTES, 1 },
	[SM_TF_DISK_WRITE_IOS] = { "disk_write_ios", "device writes", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_WRITE_BYTES] = { "disk_write_bytes", "device bytes written",
				     SM_TFU_BYTES, 1 },
	[SM_TF_DISK_FLUSHES] = { "disk_flushes", "device flushes", SM_TFU_COUNT, 1 },
	[SM_TF_DISK_BUSY_MS] = { "disk_busy_ms", "device busy time", SM_TFU_MS, 1 },
};

const char *sm_tf_brief(int f)
{
	return sm_tf_desc[f].brief ? sm_tf_desc[f].brief : sm_tf_desc[f].label;
}

int sm_tf_find(const char *key)
{
	for (int i = 0; i < SM_TF_COUNT; i++)
		if (!strcmp(sm_tf_desc[i].key, key))
			return i;
	return -1;
}

void sm_time_run_fill(struct sm_time_run *run, const struct sm_proc_totals *t,
		      uint64_t wall_ns, uint64_t syscalls, uint64_t flush_calls,
		      const struct sm_diskstat *disk, int wait_status)
{
	double *v = run->v;
	double wall_s = (double)wall_ns / 1e9;

	memset(run, 0, sizeof(*run));
	v[SM_TF_WALL_NS] = (double)wall_ns;
	v[SM_TF_USER_NS] = (double)t->user_ns;
	v[SM_TF_SYS_NS] = (double)t->sys_ns;
	v[SM_TF_CPU_PCT] = wall_ns ? 100.0 * (double)(t->user_ns + t->sys_ns) / (double)wall_ns : 0;
	if (t->maxrss_not_own)
		run->missing |= SM_TF_BIT(SM_TF_MAX_RSS_BYTES);
	else
		v[SM_TF_MAX_RSS_BYTES] = (double)t->maxrss_kib * 1024.0;
	v[SM_TF_MINOR_FAULTS] = (double)t->minflt;
	v[SM_TF_MAJOR_FAULTS] = (double)t->majflt;
	v[SM_TF_VOL_CTXSW] = (double)t->nvcsw;
	v[SM_TF_INVOL_CTXSW] = (double)t->nivcsw;
	if (syscalls == SM_NO_COUNT)
		run->missing |= SM_TF_BIT(SM_TF_SYSCALLS);
	else
		v[SM_TF_SYSCALLS] = (double)syscalls;
	if (flush_calls == SM_NO_COUNT)
		run->missing |= SM_TF_BIT(SM_TF_FLUSH_CALLS);
	else
		v[SM_TF_FLUSH_CALLS] = (double)flush_calls;
	v[SM_TF_PROCESSES] = t->reaped;
	if (t->io_missing) {
		/* a process's io could not be read: the sums would undercount */
		for (int f = SM_TF_READ_CALLS; f <= SM_TF_STORAGE_WRITE_BPS; f++)
			run->missing |= SM_TF_BIT(f);
	} else {
		v[SM_TF_READ_CALLS] = (double)t->syscr;
		v[SM_TF_WRITE_CALLS] = (double)t->syscw;
		v[SM_TF_READ_BYTES] = (double)t->rchar;
		v[SM_TF_WRITE_BYTES] = (double)t->wchar;
		if (t->syscr)
			v[SM_TF_READ_BYTES_PER_CALL] = (double)t->rchar / (double)t->syscr;
		else
			run->missing |= SM_TF_BIT(SM_TF_READ_BYTES_PER_CALL);
		if (t->syscw)
			v[SM_TF_WRITE_BYTES_PER_CALL] = (double)t->wchar / (double)t->syscw;
		else
			run->missing |= SM_TF_BIT(SM_TF_WRITE_BYTES_PER_CALL);
		v[SM_TF_STORAGE_READ_BYTES] = (double)t->read_bytes;
		v[SM_TF_STORAGE_WRITE_BYTES] = (double)t->write_bytes;
		v[SM_TF_CANCELLED_WRITE_BYTES] = (double)t->cancelled_write_bytes;
		if (wall_s > 0) {
			v[SM_TF_STORAGE_READ_BPS] = (double)t->read_bytes / wall_s;
			v[SM_TF_STORAGE_WRITE_BPS] = (double)t->write_bytes / wall_s;
		}
	}
	if (disk) {
		v[SM_TF_DISK_READ_IOS] = (double)disk->rd_ios;
		v[SM_TF_DISK_READ_BYTES] = (double)disk->rd_bytes;
		v[SM_TF_DISK_WRITE_IOS] = (double)disk->wr_ios;
		v[SM_TF_DISK_WRITE_BYTES] = (double)disk->wr_bytes;
		v[SM_TF_DISK_FLUSHES] = (double)disk->flush_ios;
		v[SM_TF_DISK_BUSY_MS] = (double)disk->io_ticks_ms;
	} else {
		for (int f = SM_TF_DISK_READ_IOS; f <= SM_TF_DISK_BUSY_MS; f++)
			run->missing |= SM_TF_BIT(f);
	}
	if (WIFSIGNALED(wait_status)) {
		run->term_signal = WTERMSIG(wait_status);
		run->exit_code = 128 + run->term_signal;
	} else {
		run->exit_code = WEXITSTATUS(wait_status);
	}
}

void sm_time_result_release(struct sm_time_result *r)
{
	if (r->owned) {
		for (int i = 0; i < r->cmd_argc; i++)
			free(r->cmd_argv[i]);
		free(r->cmd_argv);
		free((char *)r->prepare);
		free((struct sm_time_run *)r->runs);
		r->cmd_argv = NULL;
		r->prepare = NULL;
		r->runs = NULL;
		r->cmd_argc = 0;
		r->nruns = 0;
		r->owned = 0;
	}
	sm_result_head_release(&r->head);
}
