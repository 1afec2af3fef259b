/* barrier: the optimisation barriers every measuring kernel uses, so that
 * the compiler can neither drop nor merge nor hoist the work being timed.
 * They cost no instruction: they only tell the compiler what it may not
 * assume.
 *   mt_launder(x)  x (a value or a pointer) may have changed: what it knew
 *                  of x is forgotten, so work on x cannot be hoisted out of
 *                  a loop or shared between two passes;
 *   mt_sink(x)     x is used: the work that produced it must be done;
 *   mt_sink_memory(p)  p is used and any memory may have been read: the
 *                  stores before it must be done;
 *   mt_sink_vector(v)  v, a vector (SSE, AVX, AVX-512 or NEON register),
 *                  is used: it must be in a register, so the load that
 *                  produced it must be done (a load nothing else consumes,
 *                  as the bandwidth lab's load kernel makes); scalars:
 *                  mt_sink. */
#ifndef MEMTOP_BARRIER_H
#define MEMTOP_BARRIER_H

#include "arch.h" /* MT_ARCH_X86, MT_ARCH_AARCH64 */

#define mt_launder(x) __asm__ __volatile__("" : "+r"(x))
#define mt_sink(x) __asm__ __volatile__("" : : "r"(x))
#define mt_sink_memory(p) __asm__ __volatile__("" : : "r"(p) : "memory")
#if defined(MT_ARCH_X86)
#define mt_sink_vector(v) __asm__ __volatile__("" : : "v"(v)) /* any xmm/ymm/zmm */
#elif defined(MT_ARCH_AARCH64)
#define mt_sink_vector(v) __asm__ __volatile__("" : : "w"(v)) /* any v register */
#endif

#endif
