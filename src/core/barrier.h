/* barrier: the optimisation barriers every measuring kernel uses, so that
 * the compiler can neither drop nor merge nor hoist the work being timed.
 * They cost no instruction: they only tell the compiler what it may not
 * assume.
 *   mt_launder(x)  x (a value or a pointer) may have changed: what it knew
 *                  of x is forgotten, so work on x cannot be hoisted out of
 *                  a loop or shared between two passes;
 *   mt_sink(x)     x is used: the work that produced it must be done;
 *   mt_sink_memory(p)  p is used and any memory may have been read: the
 *                  stores before it must be done. */
#ifndef MEMTOP_BARRIER_H
#define MEMTOP_BARRIER_H

#define mt_launder(x) __asm__ __volatile__("" : "+r"(x))
#define mt_sink(x) __asm__ __volatile__("" : : "r"(x))
#define mt_sink_memory(p) __asm__ __volatile__("" : : "r"(p) : "memory")

#endif
