/* arch_aarch64: arch.h's functions on aarch64 (empty elsewhere). */
#include "config.h"

#include "arch.h"

#ifdef MT_ARCH_AARCH64
#include <string.h>

int mt_arch_has(enum mt_isa_feature f)
{
#ifdef __ARM_NEON
	return f == MT_FEAT_NEON; /* Advanced SIMD is part of every aarch64 */
#else
	(void)f;
	return 0;
#endif
}

int mt_arch_cpuid(unsigned leaf, unsigned subleaf, uint32_t r[4])
{
	(void)leaf, (void)subleaf;
	memset(r, 0, 4 * sizeof *r);
	return -1;
}
#endif
