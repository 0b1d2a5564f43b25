/* SPDX-License-Identifier: MIT */
/* SM_TSAN_BUILD is 1 in a ThreadSanitizer build (gcc or clang), else 0. */
#ifndef SM_TSAN_H
#define SM_TSAN_H

/*
 * ThreadSanitizer cannot follow a child made by clone(CLONE_VM) that runs
 * on after clone() returned in the parent: its clone() interceptor hands
 * the child a pointer into the parent's stack frame, which the parent has
 * reused by then (the child jumps to garbage: "SEGV ... tsan_interceptors_
 * posix.cpp:2233" with gcc 12), and the child's instrumented code would
 * share the parent thread's sanitizer state in any case. Where stormark
 * starts such a child to save a copy of the page tables, a TSan build
 * forks instead and runs the same child function on a copy of the memory.
 */
#if defined(__SANITIZE_THREAD__)
#define SM_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SM_TSAN_BUILD 1
#endif
#endif
#ifndef SM_TSAN_BUILD
#define SM_TSAN_BUILD 0
#endif

#endif
