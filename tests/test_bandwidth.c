/* Unit tests of the bandwidth lab: exact byte counts per kernel (STREAM's
 * counting) and per layout; every kernel of every instruction set this CPU
 * has computes what it should (copy copies, triad computes, writes write,
 * reads sum every word) and the checks catch a wrong array; the thread,
 * kernel and CPU lists are parsed and refused when bad; placement from a
 * recorded /sys topology; the size plan (credible levels, DRAM floor and
 * memory cap), the rows --quick keeps and --levels. The worker's tests are
 * test_bandwidth_worker.c, the lessons' and the ceilings'
 * test_bandwidth_lessons.c. (The chaser's cycle is base/chase.c's, tested
 * in test_latency.c.) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bandwidth/bandwidth.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/threads.h"
#include "run/job.h"
#include "testjob.h"
#include "testlib.h"
#include "os/sysinfo.h"
#include "testmachine.h"

static void byte_counts_exact(void **state)
{
	static const uint64_t want[BANDWIDTH_NKERNELS] = { 32768, 32768, 32768, 32768, 32768,
						    65536, 65536, 98304, 98304,
						    32768, 32768, 65536, /* fill, fill_zero, copy_lib */
						    /* r2w1, r2w1_nt, r3w1, r3w1_nt: every
						     * double of the three arrays once a pass */
						    98304, 98304, 98304, 98304 };
	struct bandwidth_size sz = { .bytes = 100000, .per_thread = 1 };
	struct bandwidth_layout l;
	(void)state;
	for (int k = 0; k < BANDWIDTH_NKERNELS; k++)
		assert_int_equal(bandwidth_kernel_bytes(k, 4096), want[k]);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_LOAD), 1); /* one array, read once a pass */
	assert_int_equal(bandwidth_kernel_bytes(BANDWIDTH_LOAD, 3072), 24576);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_COPY), 2);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_TRIAD), 3);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_COPY_NT), 2);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_TRIAD_NT), 3);
	assert_int_equal(bandwidth_kernel_arrays(BANDWIDTH_NKERNELS), 0);
	/* 100000 bytes a thread, three arrays: 4166 doubles, rounded down to 4160 */
	bandwidth_layout(BANDWIDTH_TRIAD, &sz, 4, 1, &l);
	assert_int_equal(l.n, 4160);
	assert_int_equal(l.pass_bytes, 3 * 4160 * 8);
	assert_int_equal(l.slice_stride % 4096, 0);
	assert_true(l.array_off[1] >= 4160 * 8 && l.array_off[1] % 64 == 0);
	assert_true(l.array_off[1] % 4096 != 0); /* skewed: no 4K aliasing of a[i], b[i] */
	assert_true(l.array_off[2] - l.array_off[1] == l.array_off[1]);
	/* a total split over 2 threads: 96K / 2 / 2 arrays = 3072 doubles each */
	sz.bytes = 96 * 1024;
	sz.per_thread = 0;
	bandwidth_layout(BANDWIDTH_COPY, &sz, 2, 1, &l);
	assert_int_equal(l.n, 3072);
	assert_int_equal(l.pass_bytes, 2 * 3072 * 8);
	/* never below one unrolled block */
	sz.bytes = 4096;
	bandwidth_layout(BANDWIDTH_TRIAD, &sz, 64, 1, &l);
	assert_int_equal(l.n, BANDWIDTH_UNROLL);
	/* each L3 group's 1M shared by its threads: 8 threads over 2 groups,
	 * 4 a group, 256K each, 2 arrays of 16384 doubles */
	sz.bytes = 1 << 20;
	sz.per_group = 1;
	bandwidth_layout(BANDWIDTH_COPY, &sz, 8, 2, &l);
	assert_int_equal(l.n, 16384);
}

static void names_and_isas(void **state)
{
	(void)state;
	for (int k = 0; k < BANDWIDTH_NKERNELS; k++)
		assert_int_equal(bandwidth_kernel_parse(bandwidth_kernel_name(k)), k);
	assert_int_equal(bandwidth_kernel_parse("stream"), -1);
	assert_int_equal(bandwidth_kernel_parse("load"), BANDWIDTH_LOAD);
	assert_string_equal(bandwidth_kernel_name(BANDWIDTH_LOAD), "load");
	/* every ISA has a load kernel, the scalar fallback too */
	for (int isa = 0; isa < BANDWIDTH_NISA; isa++)
		if (bandwidth_isa_supported(isa))
			assert_non_null(bandwidth_kernel_fn(BANDWIDTH_LOAD, isa));
	assert_null(bandwidth_kernel_name(BANDWIDTH_NKERNELS));
	assert_int_equal(bandwidth_isa_parse("avx-512"), BANDWIDTH_ISA_AVX512);
	assert_int_equal(bandwidth_isa_parse("AVX2"), BANDWIDTH_ISA_AVX2);
	assert_int_equal(bandwidth_isa_parse("mmx"), -1);
	assert_int_equal(bandwidth_isa_width(BANDWIDTH_ISA_AVX512), 64);
	assert_int_equal(bandwidth_isa_width(BANDWIDTH_ISA_SCALAR), 8);
	assert_true(bandwidth_isa_supported(BANDWIDTH_ISA_SCALAR));
	assert_true(bandwidth_isa_supported(bandwidth_isa_best()));
	assert_non_null(bandwidth_kernel_fn(BANDWIDTH_READ_VECTOR, bandwidth_isa_best()));
	assert_null(bandwidth_kernel_fn(BANDWIDTH_WRITE_NT, BANDWIDTH_ISA_SCALAR)); /* no streaming stores */
	assert_null(bandwidth_kernel_fn(BANDWIDTH_COPY_NT, BANDWIDTH_ISA_SCALAR));
	assert_null(bandwidth_kernel_fn(BANDWIDTH_TRIAD_NT, BANDWIDTH_ISA_SCALAR));
	assert_null(bandwidth_kernel_fn(BANDWIDTH_COPY_NT, BANDWIDTH_ISA_NEON));
	/* the C library's kernels are there whatever the ISA */
	for (int isa = 0; isa < BANDWIDTH_NISA; isa++)
		if (bandwidth_isa_supported(isa)) {
			assert_non_null(bandwidth_kernel_fn(BANDWIDTH_FILL, isa));
			assert_non_null(bandwidth_kernel_fn(BANDWIDTH_FILL_ZERO, isa));
			assert_non_null(bandwidth_kernel_fn(BANDWIDTH_COPY_LIB, isa));
		}
	assert_string_equal(bandwidth_kernel_name(BANDWIDTH_COPY_LIB), "copy_lib");
#if defined(__x86_64__)
	/* every x86-64 has SSE2: its streaming copy and triad are there */
	assert_non_null(bandwidth_kernel_fn(BANDWIDTH_COPY_NT, BANDWIDTH_ISA_SSE2));
	assert_non_null(bandwidth_kernel_fn(BANDWIDTH_TRIAD_NT, BANDWIDTH_ISA_SSE2));
#endif
	/* a share of the load-port ceiling: at or under it says nothing; over
	 * it (a clock read low under load: 113 % was seen) says why */
	assert_string_equal(bandwidth_ceiling_doubt(0.94), "");
	assert_string_equal(bandwidth_ceiling_doubt(1.05), "");
	assert_non_null(strstr(bandwidth_ceiling_doubt(1.13), "the core clock read low"));
	{ /* a count that only grows */
		long p0 = mt_plat_thread_preemptions();
		assert_true(p0 >= 0 && mt_plat_thread_preemptions() >= p0);
	}
#if defined(__x86_64__)
	assert_true(bandwidth_isa_supported(BANDWIDTH_ISA_SSE2)); /* x86-64's baseline */
	assert_false(bandwidth_isa_supported(BANDWIDTH_ISA_NEON));
#endif
}

/* The xor of n doubles' 64-bit words. */
static uint64_t xor_words(const double *a, size_t n)
{
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;
		memcpy(&w, &a[i], sizeof w);
		x ^= w;
	}
	return x;
}

/* The sum of the first half of n doubles times the second, word by word
 * (what AVX2's vector read returns for one pass over bandwidth_fill's
 * small integers). */
static uint64_t halves_product(const double *a, size_t n)
{
	int64_t t = 0;
	for (size_t j = 0; j < n / 2; j++)
		t += (int64_t)a[j] * (int64_t)a[n / 2 + j];
	return (uint64_t)t;
}

/* n doubles plus a guard word past the end of each array. */
#define N (BANDWIDTH_UNROLL * 50)

static void every_kernel_computes(void **state)
{
	double *a = aligned_alloc(64, (N + 8) * sizeof(double));
	double *b = aligned_alloc(64, (N + 8) * sizeof(double));
	double *c = aligned_alloc(64, (N + 8) * sizeof(double));
	int tested = 0;
	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	for (int isa = 0; isa < BANDWIDTH_NISA; isa++) {
		if (!bandwidth_isa_supported(isa))
			continue;
		for (int k = 0; k < BANDWIDTH_NKERNELS; k++) {
			bandwidth_pass_fn fn = bandwidth_kernel_fn(k, isa);
			uint64_t sum;
			double s = k == BANDWIDTH_TRIAD || k == BANDWIDTH_TRIAD_NT ? 3.0 : 2.5;
			if (!fn)
				continue;
			bandwidth_fill(a, b, c, N + 8);
			sum = fn(a, b, c, N, s, 1);
			assert_true(bandwidth_check(k, isa, a, b, c, N, s, sum, 1));
			/* the guard words past n are untouched */
			assert_true(a[N] == -1.0 - (double)(N % 1000));
			/* three passes in one call: three times the sum */
			assert_true(bandwidth_check(k, isa, a, b, c, N, s, fn(a, b, c, N, s, 3), 3));
			if (k == BANDWIDTH_LOAD) { /* its loads leave nothing: 0, a untouched */
				assert_true(sum == 0);
				assert_false(bandwidth_check(k, isa, a, b, c, N, s, 1, 1));
			}
			if (k == BANDWIDTH_READ || k == BANDWIDTH_READ_VECTOR) {
				assert_false(bandwidth_check(k, isa, a, b, c, N, s, sum + 1, 1));
				assert_false(bandwidth_check(k, isa, a, b, c, N, s, sum, 2));
				a[N / 2] += 1; /* the check reads every word */
				assert_false(bandwidth_check(k, isa, a, b, c, N, s, sum, 1));
			} else {
				a[N - 1] = 12345; /* one wrong word is caught */
				assert_false(bandwidth_check(k, isa, a, b, c, N, s, 0, 1));
			}
			tested++;
		}
		/* the four-stream copy_nt and triad_nt at every small n: each
		 * quarter copied or computed, nothing written past n */
		for (size_t n = BANDWIDTH_UNROLL; n <= 5 * BANDWIDTH_UNROLL; n += BANDWIDTH_UNROLL) {
			for (int k = BANDWIDTH_COPY_NT; k <= BANDWIDTH_TRIAD_NT; k += BANDWIDTH_TRIAD_NT - BANDWIDTH_COPY_NT) {
				bandwidth_pass_fn fn = bandwidth_kernel_fn(k, isa);
				if (!fn)
					continue;
				bandwidth_fill(a, b, c, N + 8);
				(void)fn(a, b, c, n, 3.0, 2);
				assert_true(bandwidth_check(k, isa, a, b, c, n, 3.0, 0, 2));
				assert_true(a[n] == -1.0 - (double)(n % 1000));
			}
		}
		/* every ISA's vector read but AVX2's gives the same: reps x the xor
		 * of the words, over an n whose turns of sixteen loads leave a
		 * tail of eight; AVX2's reps x the first half's words times the
		 * second half's */
		bandwidth_fill(a, b, c, N);
		assert_true(bandwidth_kernel_fn(BANDWIDTH_READ_VECTOR, isa)(a, NULL, NULL, N - 64, 0, 3) ==
			    (isa == BANDWIDTH_ISA_AVX2 ? halves_product(a, N - 64) : xor_words(a, N - 64)) * 3);
	}
	assert_true(tested >= 6);
#if defined(__x86_64__)
	assert_true(tested >= 6 + 9); /* scalar's six and SSE2's nine, streaming ones too */
#endif
	free(a);
	free(b);
	free(c);
}

static void lists_parsed_and_refused(void **state)
{
	static const char *const bad[] = { "0", "2,1", "1,1", "a", "", "1,,2", "1025", "1,2,",
					   "-1", "1 2" };
	unsigned t[BANDWIDTH_MAX_TLIST];
	int k[BANDWIDTH_NKERNELS];
	char badk[80];
	(void)state;
	assert_int_equal(bandwidth_parse_threads("1,2,4", t, BANDWIDTH_MAX_TLIST), 3);
	assert_int_equal(t[2], 4);
	assert_int_equal(bandwidth_parse_threads("3", t, BANDWIDTH_MAX_TLIST), 1);
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++)
		assert_int_equal(bandwidth_parse_threads(bad[i], t, BANDWIDTH_MAX_TLIST), -1);
	assert_int_equal(bandwidth_parse_threads("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", t,
						 BANDWIDTH_MAX_TLIST),
			 -1);
	assert_int_equal(bandwidth_parse_kernels("triad,read", k, BANDWIDTH_NKERNELS, badk, sizeof badk), 2);
	assert_int_equal(k[0], BANDWIDTH_TRIAD);
	assert_int_equal(k[1], BANDWIDTH_READ);
	assert_int_equal(bandwidth_parse_kernels("read,stream", k, BANDWIDTH_NKERNELS, badk, sizeof badk), -1);
	assert_string_equal(badk, "stream");
	assert_int_equal(bandwidth_parse_kernels("copy,copy", k, BANDWIDTH_NKERNELS, badk, sizeof badk), -1);
	assert_int_equal(bandwidth_parse_kernels("", k, BANDWIDTH_NKERNELS, badk, sizeof badk), -1);
}

static char tmpdir[] = "/tmp/memtop-bw-XXXXXX";

/* Two packages, a node and an L3 of 16M each, 4 cores of 2 threads a
 * package: CPUs 0-7 on node 0 (0,1 one core), 8-15 on node 1. */
#define TWO_SOCKETS "pack:2 [numa(memory=16GiB)] l3:1(size=16MiB) l2:4(size=1MiB) " \
		    "l1d:1(size=48KiB) core:1 pu:2"

static int make_tmpdir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

static void placement_from_topology(void **state)
{
	static struct bandwidth_params p;
	struct machine *m = testmachine(tmpdir, TWO_SOCKETS, NULL);
	static const int spread[16] = { 0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15 };
	static const int list[] = { 0, 1, 2, 3 };
	char text[128];
	mt_error e;
	(void)state;
	assert_non_null(m);
	bandwidth_params_default(&p, m);
	/* spread: one a node in turn, then one a core, the siblings last */
	assert_int_equal(p.ncpus, 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(p.cpus[i], spread[i]);
	/* threads: 1, one a package (= a node, an L3), one a core (8), all (16), 4 between */
	assert_int_equal(p.nthreads, 5);
	assert_int_equal(p.threads[0], 1);
	assert_int_equal(p.threads[1], 2);
	assert_int_equal(p.threads[2], 4);
	assert_int_equal(p.threads[3], 8);
	assert_int_equal(p.threads[4], 16);
	assert_int_equal(p.groups[0], 1);
	assert_int_equal(p.groups[1], 2);
	assert_int_equal(p.groups[4], 2);
	assert_int_equal(bandwidth_placement(&p, 2, text, sizeof text), 0);
	assert_string_equal(text, "CPUs 0,8: separate cores");
	assert_int_equal(bandwidth_placement(&p, 1, text, sizeof text), 0);
	assert_string_equal(text, "CPU 0");
	bandwidth_order_cpus(&p, BANDWIDTH_COMPACT);
	assert_int_equal(p.cpus[0], 0);
	assert_int_equal(p.cpus[1], 1);
	assert_int_equal(p.cpus[2], 2);
	bandwidth_placement(&p, 2, text, sizeof text);
	assert_string_equal(text, "CPUs 0,1: 1 pair of SMT siblings");
	bandwidth_placement(&p, 4, text, sizeof text);
	assert_string_equal(text, "CPUs 0,1,2,3: 2 pairs of SMT siblings");
	assert_int_equal(bandwidth_placement(&p, 17, text, sizeof text), 1);
	assert_string_equal(text, "17 threads on 16 CPUs: oversubscribed");
	/* given CPUs: kept in order; refused: a CPU not there, a CPU twice */
	assert_int_equal(bandwidth_set_cpus(&p, list, 4, m, &e), 0);
	assert_int_equal(p.core[0], p.core[1]);
	assert_int_equal(bandwidth_set_cpus(&p, (const int[]){ 0, 17 }, 2, m, &e), -1);
	assert_non_null(strstr(e.msg, "CPU 17"));
	assert_int_equal(bandwidth_set_cpus(&p, (const int[]){ 1, 1 }, 2, m, &e), -1);
	machine_free(m);
}

/* A size plan's case: a synthetic machine, the params at their defaults,
 * the notes. */
struct plan_case {
	struct bandwidth_params p;
	struct machine *m;
	char notes[4][BANDWIDTH_NOTE_LEN];
	mt_error e;
};

static void plan_case_init(struct plan_case *c, const char *desc)
{
	memset(c, 0, sizeof *c);
	c->m = testmachine(tmpdir, desc, NULL);
	assert_non_null(c->m);
	bandwidth_params_default(&c->p, c->m);
}

/* Adds a source claiming an L3 of l3 bytes (a guest's CPUID of its host,
 * say) with a doubt when doubt is not NULL, and plans the levels again. */
static void claim_l3(struct plan_case *c, uint64_t l3, const char *doubt)
{
	struct info_source s;
	struct cache_level lv = { .level = 3, .type = "unified", .size = l3 };
	info_source_init(&s, "cpuid");
	assert_int_equal(info_source_add_level(&s, &lv), 0);
	assert_int_equal(info_add_source(&c->m->info, &s), 0);
	c->m->info.ndoubts = 0;
	if (doubt) {
		struct info_doubt *d = &c->m->info.doubt[c->m->info.ndoubts++];
		memset(d, 0, sizeof *d);
		d->level = 3;
		mt_strlcpy(d->type, "unified", sizeof d->type);
		d->size = l3;
		mt_strlcpy(d->sources, "cpuid", sizeof d->sources);
		mt_strlcpy(d->why, doubt, sizeof d->why);
	}
	machine_update_levels(c->m);
}

static int plan(struct plan_case *c)
{
	return bandwidth_plan_sizes(&c->p, c->m, NULL, 0, c->notes, 4, &c->e);
}

static void size_plan(void **state)
{
	struct plan_case c;
	(void)state;
	/* two sockets of 16M: L1, L2 each thread, L3 each group, DRAM 4 x both L3s */
	plan_case_init(&c, TWO_SOCKETS);
	assert_int_equal(plan(&c), 0);
	assert_int_equal(c.p.nsizes, 4);
	assert_int_equal(c.p.sizes[0].bytes, 24 << 10);
	assert_true(c.p.sizes[0].per_thread);
	assert_string_equal(c.p.sizes[0].level, "L1");
	assert_non_null(strstr(c.p.sizes[0].from, "half the L1 48K (hwloc)"));
	assert_int_equal(c.p.sizes[1].bytes, 512 << 10);
	assert_true(c.p.sizes[2].per_group);
	assert_false(c.p.sizes[2].per_thread);
	assert_int_equal(c.p.sizes[2].bytes, 8 << 20);
	assert_string_equal(c.p.sizes[3].level, "DRAM");
	assert_false(c.p.sizes[3].per_thread || c.p.sizes[3].per_group);
	assert_int_equal(c.p.sizes[3].bytes, BANDWIDTH_DRAM_MIN); /* 4 x 32M = 128M: raised to 256M */
	assert_string_equal(c.p.sizes[3].from, "4 x the L3s of 2 groups, 2 x 16M (hwloc), raised "
					       "to 256M");
	assert_int_equal(c.p.chase_bytes, BANDWIDTH_DRAM_MIN);
	/* a source claiming a 508M L3, doubted: the L3 rows stay at the credible
	 * 16M (hwloc), DRAM goes past 4 x both claimed L3s */
	claim_l3(&c, 508ull << 20, "a VM's shared last level");
	assert_int_equal(plan(&c), 0);
	assert_int_equal(c.p.nsizes, 4);
	assert_int_equal(c.p.sizes[2].bytes, 8 << 20);
	assert_string_equal(c.p.sizes[3].level, "DRAM");
	assert_int_equal(c.p.sizes[3].bytes, 4 * 2 * (508ull << 20));
	assert_string_equal(c.p.sizes[3].from, "4 x the L3s of 2 groups, 2 x 508M (cpuid)");
	/* memory caps the last row: under the floor, it is not called DRAM (it
	 * fits in the L3s claimed: L3) */
	c.m->mem_avail = 2ull << 30;
	assert_int_equal(plan(&c), 2);
	assert_int_equal(c.p.sizes[c.p.nsizes - 1].bytes, 512ull << 20);
	assert_string_equal(c.p.sizes[c.p.nsizes - 1].level, "L3");
	assert_string_equal(c.notes[0], "2.0 GB of memory there: the DRAM row capped at 512M, 4 x "
					"the L3s of 2 groups, 2 x 508M (cpuid) would be 4064M");
	assert_non_null(strstr(c.notes[1], "so it is named L3, not DRAM"));
	/* a job's cgroup of 768M (a recorded tree's limit, 700M left): a quarter
	 * of what it leaves a run, said naming the job */
	c.m->limits.known = 1;
	c.m->limits.mem.bytes = 768ull << 20;
	c.m->limits.room = 700ull << 20;
	assert_int_equal(plan(&c), 2);
	assert_int_equal(c.p.sizes[c.p.nsizes - 1].bytes, 163ull << 20); /* (700M - 48M) / 4 */
	assert_string_equal(c.notes[0], "this job may use 768M (its cgroup): the DRAM row capped "
					"at 163M, 4 x the L3s of 2 groups, 2 x 508M (cpuid) would "
					"be 4064M");
	memset(&c.m->limits, 0, sizeof c.m->limits);
	c.m->mem_avail = 6ull << 30; /* 1.5G: past both L3s, under the floor */
	assert_int_equal(plan(&c), 2);
	assert_string_equal(c.p.sizes[c.p.nsizes - 1].level, "L3+DRAM");
	/* not even 1M: refused */
	c.m->mem_avail = 2 << 20;
	assert_int_equal(plan(&c), -1);
	machine_free(c.m);
	/* only a doubted source knows an L3 (a guest's CPUID): left out, said;
	 * DRAM at 4 x its claim */
	plan_case_init(&c, "pack:1 [numa(memory=16GiB)] l2:2(size=1MiB) l1d:1(size=48KiB) core:1 pu:1");
	claim_l3(&c, 508ull << 20, "a VM's shared last level");
	assert_int_equal(plan(&c), 1);
	assert_string_equal(c.notes[0], "L3 508M (cpuid) left out, memtop info doubts it: a VM's "
					"shared last level");
	assert_int_equal(c.p.nsizes, 3);
	assert_int_equal(c.p.sizes[2].bytes, 4 * (508ull << 20));
	machine_free(c.m);
	/* given sizes: increasing, 4K..64G */
	assert_int_equal(bandwidth_set_sizes(&c.p, (const uint64_t[]){ 16384, 1 << 20 }, 2, &c.e), 0);
	assert_int_equal(bandwidth_set_sizes(&c.p, (const uint64_t[]){ 1 << 20, 16384 }, 2, &c.e), -1);
	assert_int_equal(bandwidth_set_sizes(&c.p, (const uint64_t[]){ 1024 }, 1, &c.e), -1);
}

/* --quick cuts the rows past 16M and names them by where 16M sits. */
static void quick_rows_named(void **state)
{
	struct plan_case c;
	(void)state;
	plan_case_init(&c, TWO_SOCKETS);
	assert_int_equal(plan(&c), 0);
	bandwidth_params_quick(&c.p, c.m);
	assert_int_equal(c.p.sizes[3].bytes, 16 << 20);
	assert_string_equal(c.p.sizes[3].level, "L3");
	assert_non_null(strstr(c.p.sizes[3].from, "cut to 16M by --quick: L3, no longer DRAM"));
	machine_free(c.m);
}

/* --levels keeps the rows of the plan it names, in the plan's order, any
 * case; a name that is no row of the plan is refused with the rows there
 * are, and the plan stays whole. */
static void levels_kept(void **state)
{
	struct plan_case c;
	(void)state;
	plan_case_init(&c, TWO_SOCKETS);
	assert_int_equal(plan(&c), 0);
	assert_int_equal(c.p.nsizes, 4);
	assert_int_equal(bandwidth_keep_levels(&c.p, "L4", &c.e), -1);
	assert_string_equal(c.e.msg, "no level 'L4' in the plan (it has L1, L2, L3, DRAM)");
	assert_int_equal(bandwidth_keep_levels(&c.p, "L1,L", &c.e), -1);
	assert_int_equal(c.p.nsizes, 4);
	assert_int_equal(bandwidth_keep_levels(&c.p, "dram,l1", &c.e), 0);
	assert_int_equal(c.p.nsizes, 2);
	assert_string_equal(c.p.sizes[0].level, "L1");
	assert_int_equal(c.p.sizes[0].bytes, 24 << 10);
	assert_string_equal(c.p.sizes[1].level, "DRAM");
	assert_int_equal(bandwidth_keep_levels(&c.p, "L1", &c.e), 0);
	assert_int_equal(c.p.nsizes, 1);
	assert_string_equal(c.p.sizes[0].level, "L1");
	machine_free(c.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(byte_counts_exact),
		cmocka_unit_test(names_and_isas),
		cmocka_unit_test(every_kernel_computes),
		cmocka_unit_test(lists_parsed_and_refused),
		cmocka_unit_test(placement_from_topology),
		cmocka_unit_test(size_plan),
		cmocka_unit_test(levels_kept),
		cmocka_unit_test(quick_rows_named),
	};
	return cmocka_run_group_tests_name("bandwidth", tests, make_tmpdir, remove_tmpdir);
}
