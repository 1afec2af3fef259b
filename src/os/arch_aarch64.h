/* arch_aarch64: the aarch64 side of arch.h, included by arch.h alone. The
 * tick counter is the generic timer's virtual count CNTVCT_EL0 (a fixed
 * rate, tens of MHz on most parts, 1 GHz on Armv8.6 and later). */
#ifndef MEMTOP_ARCH_AARCH64_H
#define MEMTOP_ARCH_AARCH64_H

#include <stdint.h>

#define MT_ARCH_AARCH64 1
#define MT_ARCH_COUNTER "cntvct"

/* CNTVCT_EL0 now, after an isb (so it is not read ahead of earlier code). */
static inline uint64_t mt_arch_ticks(void)
{
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* The spin-wait hint: yield. */
static inline void mt_arch_relax(void)
{
	__asm__ __volatile__("yield");
}

#endif
