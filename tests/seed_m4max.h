/* tests/seed_m4max.h: the seed's Apple M4 Max mountain (MB/s), which the
 * cliff and passport tests both read. Include after <cmocka.h>. */
#ifndef MEMTOP_SEED_M4MAX_H
#define MEMTOP_SEED_M4MAX_H

#include <string.h>

#include "mountain/mountain.h"

/* The seed's Apple M4 Max table (MB/s), strides 1, 2, 4, 8, 15, 16 KB to
 * 128 MB; a new mountain the test frees (the test fails out of memory). */
static inline struct mountain *m4max(void)
{
	static const uint64_t sizes[] = { 16ull << 10, 32ull << 10,  64ull << 10, 128ull << 10,
					  256ull << 10, 512ull << 10, 1ull << 20,   4ull << 20,
					  16ull << 20, 64ull << 20,  128ull << 20 };
	static const unsigned strides[] = { 1, 2, 4, 8, 15 };
	static const double rows[][5] = {
		{ 44789, 49196, 56497, 70182, 90549 }, { 88074, 85890, 83712, 71755, 89998 },
		{ 88739, 88108, 86078, 75150, 77266 }, { 89578, 87901, 83438, 73807, 84113 },
		{ 79876, 55905, 36083, 20841, 28296 }, { 81620, 56473, 33956, 18703, 17033 },
		{ 81794, 56600, 33848, 17658, 14958 }, { 78705, 55443, 32352, 17109, 13547 },
		{ 78505, 54436, 32083, 16050, 13515 }, { 77523, 49357, 27890, 14757, 10278 },
		{ 76032, 46756, 26572, 13848, 9304 },
	};
	struct mountain *m = mountain_new(sizes, 11, strides, 5);
	assert_non_null(m);
	memcpy(m->mbs, rows, sizeof rows);
	return m;
}

#endif
