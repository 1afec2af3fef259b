/* arch: what memtop asks of the processor, behind one interface: the tick
 * counter (read inline: it brackets timed code), the pause in a spin loop,
 * CPUID and the vector units the CPU and the OS enable. One header and one
 * file per processor family defines it: arch_x86.{h,c} (x86-64 and i386),
 * arch_aarch64.{h,c}, arch_generic.h (anything else: the monotonic clock,
 * no CPUID, no vector unit). This header picks the pair, and is the only
 * place that does; a port to another processor is one new pair and one line
 * here. The OS side is platform.h's. */
#ifndef MEMTOP_ARCH_H
#define MEMTOP_ARCH_H

#include <stdint.h>

/* The vector units a kernel may be written for, and the string
 * instructions the C library's may use (mt_arch_has). */
enum mt_isa_feature {
	MT_FEAT_SSE2,    /* x86 */
	MT_FEAT_AVX2,    /* x86 */
	MT_FEAT_AVX512F, /* x86, AVX-512 Foundation */
	MT_FEAT_FMA,     /* x86, FMA3 (fused multiply-add on AVX registers) */
	MT_FEAT_NEON,    /* aarch64 Advanced SIMD */
	MT_FEAT_ERMS,    /* x86, enhanced rep movsb/stosb (the C library's memset/memcpy path) */
	MT_FEAT_FSRM,    /* x86, fast short rep movsb */
};

/* 1 when this CPU has feature f and the OS saves its registers, else 0 (a
 * feature of another processor family included). */
int mt_arch_has(enum mt_isa_feature f);

/* CPUID leaf, subleaf into r[0..3] (eax, ebx, ecx, edx), as the instruction
 * gives it (the caller checks the leaf is below the highest one). Returns 0,
 * or -1 when this processor has no CPUID (r zeroed). */
int mt_arch_cpuid(unsigned leaf, unsigned subleaf, uint32_t r[4]);

/* Each header below defines, for its family:
 *   MT_ARCH_X86, MT_ARCH_AARCH64 or MT_ARCH_GENERIC (1; the others undefined):
 *     the kernels' intrinsics (immintrin.h, arm_neon.h) are chosen by them;
 *   MT_ARCH_COUNTER: the tick counter's name ("tsc", "cntvct", "monotonic");
 *   static inline uint64_t mt_arch_ticks(void): the tick counter now;
 *   static inline void mt_arch_relax(void): the spin-wait hint (pause, yield). */
#if defined(__x86_64__) || defined(__i386__)
#include "arch_x86.h"
#elif defined(__aarch64__)
#include "arch_aarch64.h"
#else
#include "arch_generic.h"
#endif

#endif
