/* chase: splitmix64, Sattolo's random cycle and the unrolled chase loop,
 * one copy for the latency lab and the loaded-latency chaser. */
#include "config.h"

#include "chase.h"

uint64_t chase_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

size_t chase_build_cycle(void *buf, uint64_t size, unsigned stride, uint64_t seed,
			 uint32_t *scratch)
{
	char *b = buf;
	uint64_t s = seed;
	size_t n;
	if (!buf || !scratch || stride < sizeof(void *) || stride % sizeof(void *) ||
	    stride > size || size / stride > UINT32_MAX)
		return 0;
	n = (size_t)(size / stride);
	for (size_t i = 0; i < n; i++)
		scratch[i] = (uint32_t)i;
	/* Sattolo: j < i strictly, so the permutation is one n-cycle (n = 1:
	 * the slot points to itself) */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(((unsigned __int128)chase_splitmix64(&s) * i) >> 64);
		uint32_t t = scratch[i];
		scratch[i] = scratch[j];
		scratch[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(void *)(b + i * stride) = b + (size_t)scratch[i] * stride;
	return n;
}

#define CH1 q = (void **)*q;
#define CH8 CH1 CH1 CH1 CH1 CH1 CH1 CH1 CH1
#define CH64 CH8 CH8 CH8 CH8 CH8 CH8 CH8 CH8

__attribute__((noinline)) void *chase_walk(void *p, uint64_t n)
{
	void **q = p;
	for (uint64_t b = n / 64; b; b--) {
		CH64
	}
	for (uint64_t r = n % 64; r; r--) {
		CH1
	}
	return q;
}
