/* arch_x86: arch.h's functions on x86 (empty elsewhere). */
#include "config.h"

#include "arch.h"

#ifdef MT_ARCH_X86
#include <string.h>
#ifdef HAVE_CPUID_H
#include <cpuid.h>
#endif

int mt_arch_has(enum mt_isa_feature f)
{
	__builtin_cpu_init();
	switch (f) {
	case MT_FEAT_SSE2:
		return __builtin_cpu_supports("sse2") != 0;
	case MT_FEAT_AVX2:
		return __builtin_cpu_supports("avx2") != 0;
	case MT_FEAT_AVX512F:
		return __builtin_cpu_supports("avx512f") != 0;
	case MT_FEAT_FMA:
		return __builtin_cpu_supports("fma") != 0;
	case MT_FEAT_ERMS:
	case MT_FEAT_FSRM: { /* CPUID leaf 7: EBX bit 9, EDX bit 4 */
		uint32_t r[4];
		if (mt_arch_cpuid(0, 0, r) < 0 || r[0] < 7 || mt_arch_cpuid(7, 0, r) < 0)
			return 0;
		return f == MT_FEAT_ERMS ? (r[1] >> 9) & 1 : (r[3] >> 4) & 1;
	}
	default:
		return 0;
	}
}

int mt_arch_cpuid(unsigned leaf, unsigned subleaf, uint32_t r[4])
{
#ifdef HAVE_CPUID_H
	unsigned a, b, c, d;
	__cpuid_count(leaf, subleaf, a, b, c, d);
	r[0] = a, r[1] = b, r[2] = c, r[3] = d;
	return 0;
#else
	(void)leaf, (void)subleaf;
	memset(r, 0, 4 * sizeof *r);
	return -1;
#endif
}
#endif
