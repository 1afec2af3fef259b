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
 *                  mt_sink.
 * And the attributes of a timed kernel, so that what is timed is the code
 * written, not what the compiler made of it at one call site:
 *   MT_KERNEL         the function is neither inlined into its caller nor,
 *                     on GCC, specialised from what a caller passes (noipa:
 *                     no constant-propagated clone);
 *   MT_KERNEL_SCALAR  MT_KERNEL, and its loops stay scalar: not vectorised
 *                     and not turned into a memset or memcpy call (the
 *                     scalar kernels the vector ones are held against);
 *   MT_LOOP_SCALAR    before a loop of such a kernel: clang takes "not
 *                     vectorised" per loop (GCC: the attribute does it). */
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

#if defined(__clang__)
#define MT_KERNEL __attribute__((noinline))
#define MT_KERNEL_SCALAR __attribute__((noinline, no_builtin))
#define MT_LOOP_SCALAR _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define MT_KERNEL __attribute__((noinline, noipa))
#define MT_KERNEL_SCALAR                                                                    \
	__attribute__((noinline, noipa,                                                     \
		       optimize("no-tree-vectorize", "no-tree-loop-distribute-patterns")))
#define MT_LOOP_SCALAR
#else
#define MT_KERNEL
#define MT_KERNEL_SCALAR
#define MT_LOOP_SCALAR
#endif

#endif
