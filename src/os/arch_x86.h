/* arch_x86: the x86 side of arch.h (x86-64 and i386), included by arch.h
 * alone. The tick counter is the TSC (constant rate on every CPU memtop
 * targets; not the core clock). */
#ifndef MEMTOP_ARCH_X86_H
#define MEMTOP_ARCH_X86_H

#include <stdint.h>

#define MT_ARCH_X86 1
#define MT_ARCH_COUNTER "tsc"

/* The TSC now (rdtsc, not serialising: the callers bracket long stretches). */
static inline uint64_t mt_arch_ticks(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* The spin-wait hint: pause. */
static inline void mt_arch_relax(void)
{
	__builtin_ia32_pause();
}

#endif
