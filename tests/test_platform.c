/* Unit tests of the platform interface (os/platform.h, os/arch.h): the
 * calling thread's CPUs read back exactly what it was allowed, a thread
 * started pinned runs on its CPU alone (and says so), pages' nodes are told apart from
 * pages never touched, sysctl answers only where the OS has it, and the
 * processor side names the counter the clock calibrates, the vector units
 * of its family only and CPUID where there is one; a run's freed heap goes
 * back to the OS. Each case runs on every
 * OS and processor: where the interface says "cannot", it checks that. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "os/arch.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"

static int mine[1024];
static int nmine;

/* The CPUs allowed before a case, given back after it. */
static int keep_cpus(void **state)
{
	(void)state;
	nmine = mt_allowed_cpus(mine, (int)MT_ARRAY_LEN(mine));
	return 0;
}

static int give_back_cpus(void **state)
{
	(void)state;
	if (nmine > 0)
		mt_plat_set_allowed(mine, nmine);
	return 0;
}

static void allowed_cpus_read_back(void **state)
{
	int got[1024], n;
	(void)state;
	if (!mt_plat_can_pin()) {
		assert_int_equal(nmine, 0);
		assert_int_equal(mt_plat_set_allowed(mine, 1), -1);
		return;
	}
	assert_true(nmine >= 1);
	for (int i = 1; i < nmine; i++)
		assert_true(mine[i] > mine[i - 1]); /* ascending */
	assert_int_equal(mt_plat_set_allowed(mine, 0), -1);
	assert_int_equal(mt_plat_set_allowed(&mine[nmine - 1], 1), 0);
	n = mt_allowed_cpus(got, (int)MT_ARRAY_LEN(got));
	assert_int_equal(n, 1);
	assert_int_equal(got[0], mine[nmine - 1]);
	assert_int_equal(mt_cpu_allowed(mine[nmine - 1]), 1);
	assert_int_equal(mt_cpu_allowed(mine[0]), nmine == 1); /* taken away, unless the same */
	assert_int_equal(mt_cpu_allowed(-1), 0);
	assert_int_equal(mt_plat_set_allowed(mine, nmine), 0);
	n = mt_allowed_cpus(got, (int)MT_ARRAY_LEN(got));
	assert_int_equal(n, nmine);
	assert_memory_equal(got, mine, (size_t)n * sizeof *got);
	assert_int_equal(mt_allowed_cpus(got, 1), 1); /* cap respected */
}

struct seen {
	int n, cpu, now;
};

static void *report_cpus(void *arg)
{
	struct seen *s = arg;
	int cpus[1024];
	s->n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	s->cpu = s->n > 0 ? cpus[0] : -1;
	s->now = mt_plat_current_cpu();
	return NULL;
}

static void pinned_thread_runs_there(void **state)
{
	struct seen s = { -1, -1, -2 };
	pthread_t tid;
	int cpu = nmine > 0 ? mine[nmine - 1] : 0;
	(void)state;
	assert_int_equal(mt_thread_start(&tid, mt_plat_can_pin() ? cpu : -1, report_cpus, &s), 0);
	assert_int_equal(mt_thread_join(tid), 0);
	if (!mt_plat_can_pin()) {
		assert_int_equal(s.n, 0);
		return;
	}
	assert_int_equal(s.n, 1);
	assert_int_equal(s.cpu, cpu);
	if (s.now != -1) /* -1: the OS cannot say where a thread runs */
		assert_int_equal(s.now, cpu);
}

/* Why the pages' nodes cannot be asked here (qemu-user has no move_pages,
 * macOS no such call), or NULL. */
static const char *page_nodes_why(void)
{
	static char page[1];
	void *addr[1] = { page };
	int node[1];
	return mt_plat_page_nodes(addr, 1, node) == 0 ? NULL : "the OS does not say where pages are";
}

static void touched_pages_have_a_node(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *addr[4];
	int node[4];
	(void)state;
	assert_true(p != MAP_FAILED);
	p[0] = 1;
	p[2 * pg] = 1;
	for (int i = 0; i < 4; i++)
		addr[i] = p + (size_t)i * pg;
	assert_int_equal(mt_plat_page_nodes(addr, 4, node), 0);
	assert_true(node[0] >= 0);
	assert_true(node[2] >= 0);
	assert_int_equal(node[1], -ENOENT);
	assert_int_equal(node[3], -ENOENT);
	munmap(p, 4 * pg);
}

/* What a session's run does to the heap: a large buffer freed (glibc
 * would raise its thresholds to its size), then many mid-sized ones held
 * and freed in the run's thread. */
#define HEAP_BIG (16u << 20)
#define HEAP_MID (300u << 10)
#define HEAP_NMID 64
struct heap_run {
	struct mt_heap held; /* while the mid-sized buffers are held */
	int ok;
};

static void *heap_run(void *arg)
{
	struct heap_run *r = arg;
	char *big = malloc(HEAP_BIG), *mid[HEAP_NMID];
	if (!big)
		return NULL;
	memset(big, 1, HEAP_BIG);
	free(big);
	r->ok = 1;
	for (int i = 0; i < HEAP_NMID; i++) {
		mid[i] = malloc(HEAP_MID);
		if (mid[i])
			memset(mid[i], 1, HEAP_MID);
		r->ok &= mid[i] != NULL;
	}
	mt_plat_heap(&r->held);
	for (int i = 0; i < HEAP_NMID; i++)
		free(mid[i]);
	return NULL;
}

/* The heap's figures follow what is held, and a long-lived process gives a
 * run's freed buffers back: with mt_plat_heap_long_lived, the resident set
 * after the run's thread freed its 19 MB (and mt_plat_heap_release) is
 * under 8 MB above where it started (glibc left them all resident: its
 * thresholds rose to the large buffer's size). The live figures hold where
 * the allocator tells them (glibc, ASan); the resident set is checked on a
 * build without a sanitizer (their allocators keep freed chunks in a
 * quarantine), wherever the OS tells it. */
static void freed_run_goes_back(void **state)
{
	struct heap_run r = { { 0, 0, 0 }, 0 };
	struct mt_heap h0, h1;
	pthread_t tid;
	(void)state;
	mt_plat_heap_long_lived();
	mt_plat_heap(&h0);
	assert_int_equal(pthread_create(&tid, NULL, heap_run, &r), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_true(r.ok);
	mt_plat_heap_release();
	mt_plat_heap(&h1);
	if (h0.live) {
		assert_true(r.held.live >= h0.live + (size_t)HEAP_NMID * HEAP_MID);
		assert_true(h1.live <= h0.live + (1u << 20));
		assert_true(r.held.held >= r.held.live);
	} else {
		assert_int_equal(h1.live, 0);
		assert_int_equal(h1.held, 0);
	}
	if (h0.rss && !MEMTOP_SANITIZE_FLAGS[0]) {
		assert_true(r.held.rss >= h0.rss + (size_t)HEAP_NMID * HEAP_MID);
		assert_true(h1.rss < h0.rss + (8u << 20));
	}
}

/* Under qemu-user the smaps the guest reads are the emulator's own
 * mappings, not the guest's: nothing to hold a range against. */
static const char *smaps_why(void)
{
	const char *t = getenv("MEMTOP_SKIP_TIMING");
	return t && strstr(t, "qemu") ? "qemu-user: /proc/self/smaps is the emulator's" : NULL;
}

/* A buffer from mt_map_2m starts on a 2 MB boundary; advised off huge
 * pages and touched, the OS counts it resident and none of it huge (or
 * cannot tell, and says so). */
static void huge_bytes_of_a_buffer(void **state)
{
	const size_t len = 4u << 20;
	char *p = mt_map_2m(len, 0);
	uint64_t resident = 1, huge = 1;
	(void)state;
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (2u << 20), 0);
	for (size_t off = 0; off < len; off += 4096)
		p[off] = 1;
	if (mt_plat_huge_bytes(p, len, &resident, &huge) == 0) {
		assert_true(resident >= len);
		assert_true(huge == 0);
	} else {
		assert_true(resident == 0 && huge == 0);
	}
	munmap(p, len);
}

/* mt_populate gives every stretch of a buffer two and a half stretches
 * long, the last one short (mincore counts each page resident), or says it
 * could not; the buffer is usable either way. Under qemu-user madvise's
 * advice is the emulator's to take or drop: only "usable" is checked. */
static void populate_gives_every_stretch(void **state)
{
	const size_t len = 2 * MT_POPULATE_STEP + MT_POPULATE_STEP / 2;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = len / page, in = 0;
	char *p = mt_map_2m(len, 0);
	unsigned char *vec = malloc(pages);
	int rc;
	(void)state;
	assert_non_null(p);
	assert_non_null(vec);
	rc = mt_populate(p, len);
	assert_true(rc == 0 || rc == -1);
	if (rc == 0 && !smaps_why()) {
		assert_int_equal(mincore(p, len, vec), 0);
		for (size_t i = 0; i < pages; i++)
			in += vec[i] & 1;
		assert_int_equal(in, pages);
	}
	p[0] = p[len - 1] = 1;
	assert_int_equal(p[0] + p[len - 1], 2);
	free(vec);
	munmap(p, len);
}

static void sysctl_only_where_there_is_one(void **state)
{
	char buf[64];
	size_t n = sizeof buf;
	(void)state;
	if (!mt_plat_has_sysctl()) {
		assert_int_equal(mt_plat_sysctl("hw.memsize", buf, &n), -1);
		return;
	}
	assert_int_equal(mt_plat_sysctl("no.such.name.memtop", buf, &n), -1);
}

static void counter_is_the_clocks(void **state)
{
	struct mt_clock c;
	uint64_t t0 = mt_ticks();
	(void)state;
	mt_nap(2000000);
	assert_true(mt_ticks() > t0);
	mt_clock_calibrate(&c, 0);
	assert_string_equal(c.counter, MT_ARCH_COUNTER);
}

static void vector_units_of_this_family(void **state)
{
	uint32_t r[4];
	char vendor[13];
	(void)state;
#if defined(MT_ARCH_X86)
	assert_int_equal(mt_arch_has(MT_FEAT_NEON), 0);
	if (sizeof(void *) == 8)
		assert_int_equal(mt_arch_has(MT_FEAT_SSE2), 1); /* x86-64's baseline */
	if (mt_arch_has(MT_FEAT_AVX512F))
		assert_int_equal(mt_arch_has(MT_FEAT_AVX2), 1); /* no AVX-512 CPU lacks AVX2 */
	assert_int_equal(mt_arch_cpuid(0, 0, r), 0);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = '\0';
	for (int i = 0; i < 12; i++)
		assert_true(isprint((unsigned char)vendor[i]));
#else
	assert_int_equal(mt_arch_has(MT_FEAT_SSE2), 0);
	assert_int_equal(mt_arch_has(MT_FEAT_AVX2), 0);
	assert_int_equal(mt_arch_has(MT_FEAT_AVX512F), 0);
	assert_int_equal(mt_arch_cpuid(0, 0, r), -1);
	assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
	(void)vendor;
#if defined(MT_ARCH_AARCH64) && defined(__ARM_NEON)
	assert_int_equal(mt_arch_has(MT_FEAT_NEON), 1);
#endif
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(allowed_cpus_read_back, keep_cpus, give_back_cpus),
		cmocka_unit_test_setup_teardown(pinned_thread_runs_there, keep_cpus, give_back_cpus),
		MT_SKIP_IF(page_nodes_why(), touched_pages_have_a_node),
		cmocka_unit_test(freed_run_goes_back),
		MT_SKIP_IF(smaps_why(), huge_bytes_of_a_buffer),
		cmocka_unit_test(populate_gives_every_stretch),
		cmocka_unit_test(sysctl_only_where_there_is_one),
		cmocka_unit_test(counter_is_the_clocks),
		cmocka_unit_test(vector_units_of_this_family),
	};
	return cmocka_run_group_tests_name("platform", tests, NULL, NULL);
}
