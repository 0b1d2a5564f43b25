/* SPDX-License-Identifier: MIT */
/* Compiler markers every layer may use (core/: it includes nothing). */
#ifndef SM_CORE_COMPILER_H
#define SM_CORE_COMPILER_H

/* A parameter a function takes for its signature's sake and does not read
 * (an ops table's callback, a render row, an option callback, a job hook):
 * written before the parameter's type, `SM_UNUSED int fd`. The build has
 * -Wunused-parameter on (-Wextra), so a parameter left unread without the
 * marker is a warning, and -DSM_WERROR=ON an error. */
#define SM_UNUSED __attribute__((unused))

#endif
