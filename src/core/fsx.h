/* SPDX-License-Identifier: MIT */
/* File-system facts and safe file handling: fs type and device of a path,
 * free space and RAM, a direct-I/O probe, cache dropping. */
#ifndef SM_FSX_H
#define SM_FSX_H

#include <stddef.h>
#include <stdint.h>

#include "core/mount.h"

struct sm_fs_info {
	char fs_type[32];      /* "ext4", "tmpfs", ... from /proc/self/mountinfo */
	char device[128];      /* mount source, e.g. "/dev/vda" */
	char mount_point[256];
	unsigned dev_major, dev_minor;  /* st_dev of the path */
	uint64_t free_bytes;   /* available to an unprivileged user */
	uint64_t total_bytes;
	unsigned block_size;   /* st_blksize */
	struct sm_mount mount; /* the share's protocol, server and options
				* (core/mount.h); zeroed when unknown */
};

/* Fill *out for the file system holding path (which must exist).
 * Returns 0 or -errno; fields that cannot be found are left empty/zero. */
int sm_fs_info(const char *path, struct sm_fs_info *out);

/*
 * Can files in directory dir be opened with O_DIRECT, and with what
 * alignment? Creates and removes a uniquely named temporary file.
 * Returns the smallest working I/O size and alignment (512, 1024, 2048,
 * 4096) on success, -EINVAL when the file system refuses O_DIRECT, or
 * another -errno (e.g. -EACCES, -ENOSPC) when the probe itself failed.
 */
int sm_direct_probe(const char *dir);

/* The same for reading an existing file (no write access needed): opens it
 * with O_DIRECT and reads its first block. Returns the alignment, -EINVAL
 * when O_DIRECT is refused, or another -errno. */
int sm_direct_probe_read(const char *file);

/* MemAvailable and MemTotal from /proc/meminfo, in bytes (0 if unknown). */
uint64_t sm_mem_available(void);
uint64_t sm_mem_total(void);

/* sync(), then write 3 to /proc/sys/vm/drop_caches. Returns 0 or -errno
 * (-EACCES when not root). */
int sm_drop_caches(void);

/* Kernel release string (uname -r) into buf. */
void sm_kernel_release(char *buf, size_t len);

/* The CPU architecture (uname -m: "x86_64", "aarch64") into buf, "" when
 * unknown. */
void sm_cpu_arch(char *buf, size_t len);

/* The CPU model from the text of /proc/cpuinfo: the first "model name"
 * (x86, and arm64 kernels since 6.x for some cores), else "Model" (a
 * board's name, ARM), else "Hardware" (older ARM), else "cpu" (POWER),
 * its value with runs of blanks made one; "" when none. Pure: cpuinfo is
 * the file's text. */
void sm_cpuinfo_model(const char *cpuinfo, char *buf, size_t len);

/* sm_cpuinfo_model() of this machine's /proc/cpuinfo. */
void sm_cpu_model(char *buf, size_t len);

/* 1 if path exists and is a directory, 0 if it does not exist,
 * -ENOTDIR if it exists but is not a directory. */
int sm_is_dir(const char *path);

/* 1 when the directory path is the root of a file system: "/" (its own
 * parent) or a mount point (its device differs from its parent's); 0 when
 * it is not; -errno when it cannot be examined. Test files written there
 * would sit among everything else on that file system. */
int sm_fs_root(const char *path);

/* Is dir (an existing directory) a file system's root that a test may not
 * write into without --force? Returns NULL when it is not (or cannot be
 * examined: the command's own checks then report it), else the one-line
 * reason, in a static buffer. */
const char *sm_root_refusal(const char *dir);

/* Why a path given on the command line cannot be used whatever it names
 * ("is empty", "is longer than the system allows ..."), or NULL when it
 * may be fine; the caller puts the option and the path in front. */
const char *sm_path_problem(const char *path);

/* Create directory path and missing parents (mode 0755). Returns 0 or
 * -errno; an existing directory is success. */
int sm_mkdir_p(const char *path);

/* Remove directory path and everything under it (symlinks are removed,
 * never followed). A path that does not exist is success. A directory that
 * stays not empty (a FUSE file system releasing a closed file late) is
 * tried again for up to 1 s. Returns 0 or the first -errno. */
int sm_rm_tree(const char *path);

/* rmdir(path) of a directory whose own files were just removed. A file
 * removed while a reference to it was still being let go (an io_uring
 * request's, dropped just after its completion) stays for a moment as a
 * FUSE file system's .fuse_hidden* or an NFS client's .nfs* name; while
 * only such names are left, try again every 10 ms for up to 2 s. Returns
 * 0 (also when path is not there), or -errno (-ENOTEMPTY: something else
 * is in it). */
int sm_rmdir_settle(const char *path);

/* The directory part of path into out ("." for a bare name, "/" for a
 * file in the root). Returns 0 or -ENAMETOOLONG. */
int sm_parent_dir(const char *path, char *out, size_t len);

/* 0 when files can be created in directory dir (it is writable and not on
 * a read-only file system), else -errno (-EROFS, -EACCES...). Creates
 * nothing, so a test that would write there is refused before it starts. */
int sm_dir_check_writable(const char *dir);

/*
 * Write all len bytes of buf to fd: at offset off (pwrite), or at the file
 * position when off < 0 (write). A short write is continued from where it
 * stopped, so the error that stopped it is the system's own (a write cut
 * short by EIO is not taken for a full disk); a write that moves nothing
 * without an error is tried once more for its errno. EINTR is retried.
 * *done (when not NULL) gets the bytes written. Returns 0, or -errno
 * (-EIO when a write moved nothing twice and said nothing).
 */
int sm_write_all(int fd, const void *buf, size_t len, int64_t off, size_t *done);

#endif
