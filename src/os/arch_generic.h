/* arch_generic: arch.h on a processor memtop has no pair for, included by
 * arch.h alone: the monotonic clock as the tick counter (1 tick a ns), no
 * spin hint. mt_arch_has and mt_arch_cpuid are arch_generic.c's. */
#ifndef MEMTOP_ARCH_GENERIC_H
#define MEMTOP_ARCH_GENERIC_H

#include <stdint.h>
#include <time.h>

#define MT_ARCH_GENERIC 1
#define MT_ARCH_COUNTER "monotonic"

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t mt_arch_ticks(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* No spin-wait hint. */
static inline void mt_arch_relax(void)
{
}

#endif
