/* arch_generic: arch.h's functions on a processor with no pair of its own
 * (empty on x86 and aarch64): no vector unit memtop has kernels for, no
 * CPUID. */
#include "config.h"

#include "arch.h"

#ifdef MT_ARCH_GENERIC
#include <string.h>

int mt_arch_has(enum mt_isa_feature f)
{
	(void)f;
	return 0;
}

int mt_arch_cpuid(unsigned leaf, unsigned subleaf, uint32_t r[4])
{
	(void)leaf, (void)subleaf;
	memset(r, 0, 4 * sizeof *r);
	return -1;
}
#endif
