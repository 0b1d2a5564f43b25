#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run a command with its stderr (and with --all its stdin and stdout too)
on a pseudo-terminal of 80x24, note when every byte reaches the terminal
and print the longest silence: from the start to the first byte, between
two bytes, and from the last byte to the command's end.

usage: pty_silence.py [--all] LOG STDOUT_FILE CMD...
LOG gets what the terminal received; STDOUT_FILE the command's stdout when
it is not on the terminal. Prints "silence SECS", "bytes N", "rc RC"."""
import fcntl, os, select, struct, subprocess, sys, termios, time

args = sys.argv[1:]
allpty = args[:1] == ["--all"]
if allpty:
    args = args[1:]
log, outf, cmd = args[0], args[1], args[2:]
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
with open(outf, "wb") as out:
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=slave if allpty else subprocess.DEVNULL,
                         stdout=slave if allpty else out, stderr=slave, start_new_session=True,
                         preexec_fn=lambda: fcntl.ioctl(0 if allpty else 2, termios.TIOCSCTTY, 0))
os.close(slave)
last, longest, got = t0, 0.0, bytearray()
while True:
    r, _, _ = select.select([master], [], [], 0.05)
    if r:
        try:
            b = os.read(master, 4096)
        except OSError:   # EIO: every holder of the terminal is gone
            b = b""
        if not b:
            break
        now = time.monotonic()
        longest = max(longest, now - last)
        last = now
        got += b
    elif p.poll() is not None:
        # the command ended; a child that kept the terminal is not waited for
        break
rc = p.wait()
longest = max(longest, time.monotonic() - last)
os.close(master)
with open(log, "wb") as f:
    f.write(got)
print("silence %.2f" % longest)
print("bytes %d" % len(got))
print("rc %d" % rc)
