/* SPDX-License-Identifier: MIT */
/* SM_ASSERT(cond): an invariant a comment states, checked where it must
 * hold. Checked in debug builds (no NDEBUG: CMAKE_BUILD_TYPE=Debug, which
 * the sanitizer passes use) and in every sanitizer build (SM_ASSERTS, set
 * by CMake with SM_SANITIZE, SM_TSAN or SM_FUZZ); compiled out of a
 * release build (NDEBUG without SM_ASSERTS), where cond is not evaluated
 * but still compiled, so it cannot rot. A failed one prints the condition
 * and where it is on stderr, one line, and aborts: a bug, never a user's
 * error. cond must have no side effect. */
#ifndef SM_CORE_ASSERT_H
#define SM_CORE_ASSERT_H

#if defined(SM_ASSERTS) || !defined(NDEBUG)
#define SM_ASSERTS_ON 1
#define SM_ASSERT(cond) \
	((cond) ? (void)0 : sm_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define SM_ASSERTS_ON 0
#define SM_ASSERT(cond) ((void)sizeof((cond) ? 1 : 0))
#endif

/* Print "stormark: assertion failed: COND (FILE:LINE, FUNC)" and abort. */
_Noreturn void sm_assert_fail(const char *cond, const char *file, int line, const char *func);

/* 1 when the library was built with its assertions checked (as SM_ASSERTS_ON
 * was when src/core/assert.c was compiled), else 0. */
int sm_asserts_built(void);

#endif
