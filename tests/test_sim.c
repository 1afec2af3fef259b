/* Unit tests of sim: the (s, E, b) LRU cache against cachelab's examples and
 * against a slow reference LRU, for small and large E. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

static void geometry_checked(void **state)
{
	mt_error e;
	(void)state;
	assert_null(sim_new(-1, 1, 1, &e));
	assert_non_null(strstr(e.msg, "s must be"));
	assert_null(sim_new(1, 0, 1, &e));
	assert_non_null(strstr(e.msg, "E must be"));
	assert_null(sim_new(1, SIM_MAX_E + 1, 1, &e));
	assert_null(sim_new(1, 1, -1, &e));
	assert_non_null(strstr(e.msg, "b must be"));
	assert_null(sim_new(30, 1, 40, &e));
	assert_non_null(strstr(e.msg, "s + b"));
	assert_null(sim_new(20, 1024, 4, &e));
	assert_non_null(strstr(e.msg, "lines"));
	struct sim_cache *c = sim_new(0, 1, 0, &e);
	assert_non_null(c);
	sim_free(c);
	sim_free(NULL);
}

/* yi.trace on (4, 1, 4), access by access, as csim-ref -v prints it. */
static void yi_direct_mapped(void **state)
{
	mt_error e;
	struct sim_stats st;
	struct sim_cache *c = sim_new(4, 1, 4, &e);
	(void)state;
	assert_non_null(c);
	assert_int_equal(sim_access(c, 0x10, 0), SIM_MISS);                 /* L 10 */
	assert_int_equal(sim_access(c, 0x20, 0), SIM_MISS);                 /* M 20 */
	assert_int_equal(sim_access(c, 0x20, 1), SIM_HIT);
	assert_int_equal(sim_access(c, 0x22, 0), SIM_HIT);                  /* L 22 */
	assert_int_equal(sim_access(c, 0x18, 1), SIM_HIT);                  /* S 18 */
	/* L 110: set 1's line was stored to by S 18, so its eviction is dirty */
	assert_int_equal(sim_access(c, 0x110, 0), SIM_MISS | SIM_EVICT | SIM_DIRTY_EVICT);
	assert_int_equal(sim_access(c, 0x210, 0), SIM_MISS | SIM_EVICT);    /* L 210 */
	assert_int_equal(sim_access(c, 0x12, 0), SIM_MISS | SIM_EVICT);     /* M 12 */
	assert_int_equal(sim_access(c, 0x12, 1), SIM_HIT);
	assert_int_equal(sim_last_evicted_tag(c), 2); /* 0x210's tag */
	sim_stats(c, &st);
	assert_int_equal(st.hits, 4);
	assert_int_equal(st.misses, 5);
	assert_int_equal(st.evictions, 3);
	assert_int_equal(st.dirty_evictions, 1);
	assert_int_equal(st.accesses, 9);
	assert_int_equal(st.stores, 3);
	assert_int_equal(st.loads, 6);
	sim_reset(c);
	sim_stats(c, &st);
	assert_int_equal(st.accesses, 0);
	assert_int_equal(sim_access(c, 0x10, 0), SIM_MISS); /* empty again */
	sim_free(c);
}

static void address_split(void **state)
{
	mt_error e;
	struct sim_cache *c = sim_new(5, 2, 5, &e);
	int s, E, b;
	(void)state;
	assert_non_null(c);
	sim_geometry(c, &s, &E, &b);
	assert_int_equal(s, 5);
	assert_int_equal(E, 2);
	assert_int_equal(b, 5);
	assert_int_equal(sim_set_index(c, 0x140000 + 3 * 32 + 7), 3);
	assert_int_equal(sim_tag(c, 0x140000 + 3 * 32 + 7), 0x140000 >> 10);
	assert_int_equal(sim_block_addr(c, 3, 0x140000 >> 10), 0x140000 + 3 * 32);
	sim_free(c);
}

/* A slow, obviously right LRU: timestamps, scan every line. */
struct ref {
	int s, E, b;
	uint64_t *tag, *stamp;
	int *valid, *dirty;
	uint64_t now;
};

static unsigned ref_access(struct ref *r, uint64_t addr, int st)
{
	uint64_t set = (addr >> r->b) & ((1ull << r->s) - 1), tag = addr >> (r->s + r->b);
	size_t base = set * (size_t)r->E, victim = base;
	unsigned f = SIM_MISS;
	r->now++;
	for (size_t i = base; i < base + (size_t)r->E; i++)
		if (r->valid[i] && r->tag[i] == tag) {
			r->stamp[i] = r->now;
			r->dirty[i] |= st;
			return SIM_HIT;
		}
	for (size_t i = base; i < base + (size_t)r->E; i++) {
		if (!r->valid[i]) {
			victim = i;
			break;
		}
		if (r->stamp[i] < r->stamp[victim])
			victim = i;
	}
	if (r->valid[victim]) {
		f |= SIM_EVICT;
		if (r->dirty[victim])
			f |= SIM_DIRTY_EVICT;
	}
	r->valid[victim] = 1;
	r->tag[victim] = tag;
	r->stamp[victim] = r->now;
	r->dirty[victim] = st;
	return f;
}

static void check_against_reference(int s, int E, int b, int blocks, int n, unsigned seed)
{
	mt_error e;
	struct ref r;
	size_t lines = ((size_t)1 << s) * (size_t)E;
	struct sim_cache *c = sim_new(s, E, b, &e);
	struct sim_line *got = calloc((size_t)E, sizeof *got);
	assert_non_null(c);
	assert_non_null(got);
	memset(&r, 0, sizeof r);
	r.s = s, r.E = E, r.b = b;
	r.tag = calloc(lines, sizeof *r.tag);
	r.stamp = calloc(lines, sizeof *r.stamp);
	r.valid = calloc(lines, sizeof *r.valid);
	r.dirty = calloc(lines, sizeof *r.dirty);
	for (int i = 0; i < n; i++) {
		uint64_t addr;
		int st;
		seed = seed * 1103515245u + 12345u;
		/* a hot region and a cold one, so sets see hits and evictions */
		if ((seed >> 16) % 4)
			addr = ((seed >> 8) % (unsigned)(blocks / 4 + 1)) << b;
		else
			addr = ((seed >> 4) % (unsigned)blocks) << b;
		addr |= (seed >> 24) & ((1u << b) - 1);
		st = (seed >> 20) & 1;
		unsigned want = ref_access(&r, addr, st), have = sim_access(c, addr, st);
		if (want != have)
			fail_msg("s=%d E=%d b=%d access %d addr %llx: want %u, got %u", s, E, b, i,
				 (unsigned long long)addr, want, have);
	}
	/* recency order of every set matches the reference's timestamps */
	for (uint64_t set = 0; set < (1ull << s); set++) {
		int k = sim_set_lines(c, set, got, E), cnt = 0;
		uint64_t last = UINT64_MAX;
		for (int i = 0; i < E; i++)
			cnt += r.valid[set * (size_t)E + (size_t)i];
		assert_int_equal(k, cnt);
		for (int j = 0; j < k; j++) {
			int found = 0;
			for (int i = 0; i < E; i++) {
				size_t x = set * (size_t)E + (size_t)i;
				if (r.valid[x] && r.tag[x] == got[j].tag) {
					assert_true(r.stamp[x] < last);
					assert_int_equal(r.dirty[x], got[j].dirty);
					last = r.stamp[x];
					found = 1;
				}
			}
			assert_true(found);
		}
	}
	assert_int_equal(sim_set_lines(c, 1ull << s, got, E), -1);
	free(r.tag);
	free(r.stamp);
	free(r.valid);
	free(r.dirty);
	free(got);
	sim_free(c);
}

/* Caches held against the reference model: s, E, b, distinct blocks,
 * accesses, seed; E up to 8 first, then the larger ones. */
static const struct {
	int s, E, b, blocks, n;
	unsigned seed;
} reference_cases[] = {
	{ 0, 1, 0, 8, 5000, 1 },      { 2, 1, 3, 64, 20000, 2 },    { 2, 2, 3, 64, 20000, 3 },
	{ 3, 4, 4, 200, 20000, 4 },   { 1, 8, 2, 100, 20000, 5 },   { 0, 9, 2, 30, 20000, 6 },
	{ 2, 16, 3, 200, 30000, 7 },  { 1, 33, 5, 300, 30000, 8 },  { 0, 64, 0, 150, 30000, 9 },
	{ 3, 100, 6, 2000, 50000, 10 },
};

/* The cases from index from to index to (not included). */
static void reference_range(size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		check_against_reference(reference_cases[i].s, reference_cases[i].E,
					reference_cases[i].b, reference_cases[i].blocks,
					reference_cases[i].n, reference_cases[i].seed);
}

static void matches_reference_small_e(void **state)
{
	(void)state;
	reference_range(0, 5);
}

static void matches_reference_large_e(void **state)
{
	(void)state;
	reference_range(5, MT_ARRAY_LEN(reference_cases));
}

/* Fully associative with 1024 lines: exact LRU at scale. */
static void large_e_exact(void **state)
{
	mt_error e;
	struct sim_stats st;
	struct sim_line top[2];
	struct sim_cache *c = sim_new(0, 1024, 6, &e);
	(void)state;
	assert_non_null(c);
	for (uint64_t k = 0; k < 1024; k++)
		assert_int_equal(sim_access(c, k << 6, k == 5), SIM_MISS); /* cold fills */
	for (uint64_t k = 0; k < 1024; k++)
		assert_int_equal(sim_access(c, (k << 6) + 8, 0), SIM_HIT);
	/* LRU now is block 0; touch it, so block 1 is next */
	assert_int_equal(sim_access(c, 0, 0), SIM_HIT);
	assert_int_equal(sim_access(c, 5000u << 6, 0), SIM_MISS | SIM_EVICT);
	assert_int_equal(sim_last_evicted_tag(c), 1);
	assert_int_equal(sim_access(c, 1u << 6, 0), SIM_MISS | SIM_EVICT); /* evicts 2 */
	assert_int_equal(sim_last_evicted_tag(c), 2);
	for (int k = 3; k < 5; k++)
		assert_int_equal(sim_access(c, (6000u + (unsigned)k) << 6, 1), SIM_MISS | SIM_EVICT);
	/* block 5 was stored to at the start: its eviction is dirty */
	assert_int_equal(sim_access(c, 7000u << 6, 0), SIM_MISS | SIM_EVICT | SIM_DIRTY_EVICT);
	assert_int_equal(sim_set_lines(c, 0, top, 2), 1024);
	assert_int_equal(top[0].tag, 7000);
	assert_int_equal(top[0].dirty, 0);
	assert_int_equal(top[1].tag, 6004);
	assert_int_equal(top[1].dirty, 1);
	sim_stats(c, &st);
	assert_int_equal(st.misses, 1024 + 5);
	assert_int_equal(st.evictions, 5);
	assert_int_equal(st.dirty_evictions, 1);
	sim_reset(c);
	assert_int_equal(sim_set_lines(c, 0, top, 2), 0);
	assert_int_equal(sim_access(c, 7000u << 6, 0), SIM_MISS);
	sim_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(geometry_checked),
		cmocka_unit_test(yi_direct_mapped),
		cmocka_unit_test(address_split),
		cmocka_unit_test(matches_reference_small_e),
		cmocka_unit_test(matches_reference_large_e),
		cmocka_unit_test(large_e_exact),
	};
	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
