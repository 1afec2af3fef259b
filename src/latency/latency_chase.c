/* latency_chase: linking the chases the latency lab times (a fixed stride,
 * one random cycle, a random cycle group by group). See latency.h for the
 * contracts; the chase loop itself is chase_walk() (base/chase.h). */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "base/chase.h"

#include <stdint.h>

static int stride_ok(uint64_t size, unsigned stride)
{
	return stride >= sizeof(void *) && stride % sizeof(void *) == 0 && stride <= size;
}

size_t latency_build_fixed(void *buf, uint64_t size, unsigned stride)
{
	char *b = buf;
	size_t n;
	if (!stride_ok(size, stride))
		return 0;
	n = (size_t)(size / stride);
	for (size_t i = 0; i + 1 < n; i++)
		*(void **)(b + i * stride) = b + (i + 1) * stride;
	*(void **)(b + (n - 1) * stride) = b;
	return n;
}

size_t latency_build_random(void *buf, uint64_t size, unsigned stride, uint64_t seed,
			    uint32_t *scratch)
{
	return chase_build_cycle(buf, size, stride, seed, scratch);
}

/* Fisher-Yates over v[0..n) with splitmix64 from *s. */
static void shuffle_u32(uint32_t *v, size_t n, uint64_t *s)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(((unsigned __int128)chase_splitmix64(s) * i) >> 64);
		uint32_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

size_t latency_build_random_local(void *buf, uint64_t size, unsigned stride, uint64_t locality,
				  uint64_t seed, uint32_t *scratch)
{
	char *b = buf;
	uint64_t s = seed;
	size_t n, per, ngroups, pos = 0;
	uint32_t *order = scratch, *groups;
	if (locality == 0 || locality >= size)
		return latency_build_random(buf, size, stride, seed, scratch);
	if (!stride_ok(size, stride) || size / stride > UINT32_MAX)
		return 0;
	n = (size_t)(size / stride);
	per = locality / stride ? (size_t)(locality / stride) : 1;
	ngroups = (n + per - 1) / per;
	groups = scratch + n;
	for (size_t g = 0; g < ngroups; g++)
		groups[g] = (uint32_t)g;
	shuffle_u32(groups, ngroups, &s);
	for (size_t k = 0; k < ngroups; k++) {
		size_t first = (size_t)groups[k] * per;
		size_t count = n - first < per ? n - first : per;
		for (size_t j = 0; j < count; j++)
			order[pos + j] = (uint32_t)(first + j);
		shuffle_u32(order + pos, count, &s);
		pos += count;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(b + (size_t)order[i] * stride) = b + (size_t)order[(i + 1) % n] * stride;
	return n;
}

/* The slot i's pointer of a chase at stride, off bytes into the slot. */
static void **slot_at(char *b, unsigned stride, unsigned off, size_t i)
{
	return (void **)(void *)(b + i * stride + off);
}

static int grow_ok(unsigned stride, unsigned off, size_t from, size_t to)
{
	return to > 0 && to >= from && off % sizeof(void *) == 0 && off + sizeof(void *) <= stride;
}

size_t latency_grow_fixed(void *buf, unsigned stride, unsigned off, size_t from, size_t to)
{
	char *b = buf;
	if (!buf || !grow_ok(stride, off, from, to))
		return 0;
	for (size_t i = from ? from - 1 : 0; i + 1 < to; i++)
		*slot_at(b, stride, off, i) = slot_at(b, stride, off, i + 1);
	*slot_at(b, stride, off, to - 1) = slot_at(b, stride, off, 0);
	return to;
}

size_t latency_grow_random(void *buf, unsigned stride, unsigned off, size_t from, size_t to,
			   uint64_t *rng)
{
	char *b = buf;
	if (!buf || !rng || !grow_ok(stride, off, from, to) || to > UINT32_MAX)
		return 0;
	if (from == 0) { /* one slot: a cycle to itself */
		*slot_at(b, stride, off, 0) = slot_at(b, stride, off, 0);
		from = 1;
	}
	for (size_t j = from; j < to; j++) {
		size_t r = (size_t)(((unsigned __int128)chase_splitmix64(rng) * j) >> 64);
		void **after = slot_at(b, stride, off, r), **mine = slot_at(b, stride, off, j);
		*mine = *after;
		*after = mine;
	}
	return to;
}

int latency_chases_grow(const struct latency_params *p)
{
	size_t ncol = p->nstrides + (p->random ? 1 : 0);
	if (ncol > 8 || (p->random && (p->tlb_locality || !p->random_stride ||
				       p->random_stride % 64)))
		return 0;
	for (size_t k = 0; k < p->nstrides; k++)
		if (!p->strides[k] || p->strides[k] % 64)
			return 0;
	return 1;
}
