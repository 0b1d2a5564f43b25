/* SPDX-License-Identifier: MIT */
/* The launcher program (src/launch/launch.c) as bytes, embedded at build
 * time by scripts/embed.cmake. */
#ifndef SM_LAUNCHBLOB_H
#define SM_LAUNCHBLOB_H

#include <stddef.h>

/* A static ELF executable of sm_launch_elf_size bytes; the size is 0 when
 * no launcher was built for this processor. */
extern const unsigned char sm_launch_elf[];
extern const size_t sm_launch_elf_size;

#endif
