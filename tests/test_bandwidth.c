/* Unit tests of the bandwidth lab: exact byte counts per kernel (STREAM's
 * counting) and per layout; every kernel of every instruction set this CPU
 * has computes what it should (copy copies, triad computes, writes write,
 * reads sum every word) and the checks catch a wrong array; the thread,
 * kernel and CPU lists are parsed and refused when bad; placement from a
 * recorded /sys topology; the size plan (credible levels, DRAM floor and
 * memory cap); the worker streams a checked table and the loaded sweep;
 * results survive JSON; a cancel stops the threads. (The chaser's cycle is
 * base/chase.c's, tested in test_latency.c.) */
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

/* Run p to its end, applying every event to r; returns the cells seen. */
static int run_job(struct bandwidth_params *p, struct bandwidth_result *r, int *notes)
{
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	mt_error e;
	job_t *job;
	int ended = 0, cells = 0;
	bandwidth_result_init(r, p);
	*notes = 0;
	job = job_start(bandwidth_worker, p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == JOB_EV_CELL)
				cells++;
			if (ev[i].type == JOB_EV_NOTE)
				(*notes)++;
			else if (ev[i].type != JOB_EV_CELL && ev[i].type != JOB_EV_UPDATE)
				ended = ev[i].type;
			bandwidth_result_apply(r, &ev[i]);
		}
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	return cells;
}

static void worker_streams_checked_table(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	mt_error e;
	cJSON *j;
	int notes;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 16384, 300000 }, 2, &e), 0);
	p.threads[0] = 1;
	p.threads[1] = 3; /* oversubscribed on a machine with fewer CPUs: still exact */
	p.nthreads = 2;
	p.min_tries = p.max_tries = 1;
	p.try_ns = 1e5;
	assert_int_equal(run_job(&p, &r, &notes), (int)(2 * p.nkernels * 2));
	assert_int_equal(r.wrong, 0);
	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < p.nkernels; k++)
			for (size_t t = 0; t < 2; t++) {
				const struct bandwidth_cell *c = &r.cell[s][p.kernels[k]][t];
				struct bandwidth_layout l;
				bandwidth_layout(p.kernels[k], &p.sizes[s], p.threads[t], 1, &l);
				assert_true(c->have && c->checked && c->gbs > 0);
				assert_true(c->pass_bytes == (double)(l.pass_bytes * p.threads[t]));
			}
	/* JSON round trip: the same cells come back */
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	assert_true(bandwidth_result_is(j));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_int_equal(back.nsizes, 2);
	assert_int_equal(back.nthreads, 2);
	assert_int_equal(back.nkernels, p.nkernels);
	assert_int_equal(bandwidth_result_measured(&back), bandwidth_result_measured(&r));
	assert_true(fabs(back.cell[1][BANDWIDTH_TRIAD][1].gbs - r.cell[1][BANDWIDTH_TRIAD][1].gbs) < 0.001);
	/* a broken file names the field */
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0), "kernel",
				  cJSON_CreateString("stream"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: results[0]: field \"kernel\""));
	cJSON_Delete(j);
}

/* An empty result of one thread at sizes[0..n) (--sizes), for a lesson's
 * recorded figures. */
static void one_thread_result(struct bandwidth_result *r, const uint64_t *sizes, size_t n)
{
	static struct bandwidth_params p;
	mt_error e;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, sizes, n, &e), 0);
	p.threads[0] = 1;
	p.nthreads = 1;
	bandwidth_result_init(r, &p);
}

/* The write-allocate's lesson: said at a DRAM size with both the cached and
 * the streaming kernel measured, with recorded figures, exactly. */
static void write_allocate_lesson(void **state)
{
	static struct bandwidth_result r;
	char buf[400] = "";
	(void)state;
	one_thread_result(&r, (const uint64_t[]){ 32768, 512ull << 20 }, 2);
	r.cell[1][BANDWIDTH_COPY][0] = (struct bandwidth_cell){ .have = 1, .gbs = 13.1 };
	r.cell[1][BANDWIDTH_COPY_NT][0] = (struct bandwidth_cell){ .have = 1, .gbs = 19.65 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_COPY_NT, buf, sizeof buf), 1);
	assert_string_equal(buf, "512M copy, one thread: cached 13.1 GB/s, streaming stores 19.6 "
				 "(1.50x): a cached copy moves 3 lines per line it stores (the stored "
				 "line is first read for ownership), a streaming one 2, so where memory "
				 "is the limit it can run up to 1.50x faster");
	/* no triad_nt measured, no lesson; none for a read; none at a cache size */
	r.cell[1][BANDWIDTH_TRIAD][0] = (struct bandwidth_cell){ .have = 1, .gbs = 14.2 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_TRIAD, buf, sizeof buf), 0);
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_READ, buf, sizeof buf), 0);
	r.cell[1][BANDWIDTH_TRIAD_NT][0] = (struct bandwidth_cell){ .have = 1, .gbs = 17.75 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_TRIAD, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "cached 14.2 GB/s, streaming stores 17.8 (1.25x): a cached "
				    "triad moves 4 lines"));
	assert_non_null(strstr(buf, "a streaming one 3, so where memory is the limit it can run up "
				    "to 1.33x faster"));
	/* faster than the lines alone allow: the streams said */
	r.cell[1][BANDWIDTH_TRIAD_NT][0].gbs = 21.3;
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_TRIAD, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "(1.50x): a cached triad"));
	assert_non_null(strstr(buf, "up to 1.33x faster; beyond: it runs 4 streams at once"));
	r.sizes[1].bytes = 1 << 20;
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_TRIAD, buf, sizeof buf), 0);
}

/* The C library's kernels against memtop's own, in memory, one thread:
 * figures recorded on the Zen 5 guest (1536M, busy), exactly; then a
 * memcpy that beats them says why (the ERMS clause is this CPU's, so only
 * what does not depend on it is held). */
static void library_lesson(void **state)
{
	static struct bandwidth_result r;
	char buf[700] = "";
	(void)state;
	one_thread_result(&r, (const uint64_t[]){ 32768, 1536ull << 20 }, 2);
	r.cell[1][BANDWIDTH_FILL][0] = (struct bandwidth_cell){ .have = 1, .gbs = 30.9 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_FILL, buf, sizeof buf), 0); /* no write */
	r.cell[1][BANDWIDTH_FILL_ZERO][0] = (struct bandwidth_cell){ .have = 1, .gbs = 42.3 };
	r.cell[1][BANDWIDTH_WRITE][0] = (struct bandwidth_cell){ .have = 1, .gbs = 30.5 };
	r.cell[1][BANDWIDTH_WRITE_NT][0] = (struct bandwidth_cell){ .have = 1, .gbs = 38.7 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_FILL, buf, sizeof buf), 1);
	assert_string_equal(buf, "1536M, one thread: the C library's memset 30.9 GB/s (of zeros "
				 "42.3), memtop's write 30.5 and write_nt 38.7: the library is slower "
				 "(0.80x memtop's best); it stores through the caches, as memtop's "
				 "write does: each line is read for ownership first; zeros 1.37x "
				 "faster than a non-zero byte: a fast path for zeros (the core's, or "
				 "the library's: dc zva on Arm)");
	r.cell[1][BANDWIDTH_COPY][0] = (struct bandwidth_cell){ .have = 1, .gbs = 39.5 };
	r.cell[1][BANDWIDTH_COPY_NT][0] = (struct bandwidth_cell){ .have = 1, .gbs = 40.0 };
	r.cell[1][BANDWIDTH_COPY_LIB][0] = (struct bandwidth_cell){ .have = 1, .gbs = 50.0 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_COPY_LIB, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "the C library's memcpy 50.0 GB/s, memtop's copy 39.5 and "
				    "copy_nt 40.0: the library wins (1.25x memtop's best); it stores "
				    "without reading each line first, as streaming stores do (glibc "
				    "turns to non-temporal stores past its x86_non_temporal_threshold"));
	r.sizes[1].bytes = 1 << 20; /* a cache size: the lesson is memory's */
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_COPY_LIB, buf, sizeof buf), 0);
}

/* The load kernel's lesson: at the L1 size, one thread, load and
 * read_vector both measured, with recorded figures, exactly; none without
 * either, at another level, or for another kernel. */
static void consumed_loads_lesson(void **state)
{
	static struct bandwidth_result r;
	char buf[400] = "";
	const char *op = "none";
	(void)state;
	one_thread_result(&r, (const uint64_t[]){ 24576, 1 << 20 }, 2);
	mt_strlcpy(r.sizes[0].level, "L1", sizeof r.sizes[0].level);
	mt_strlcpy(r.sizes[1].level, "L2", sizeof r.sizes[1].level);
	r.cell[0][BANDWIDTH_LOAD][0] = (struct bandwidth_cell){ .have = 1, .gbs = 436.0 };
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 0); /* no read_vector */
	r.cell[0][BANDWIDTH_READ_VECTOR][0] = (struct bandwidth_cell){ .have = 1, .gbs = 370.6 };
	r.isa = BANDWIDTH_ISA_AVX512;
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 1);
	assert_string_equal(buf, "L1 24K, one thread: load 436.0 GB/s (the loads alone: what the "
				 "load ports allow), read_vector 370.6 (the same loads, each consumed "
				 "into an accumulator): 0.85x, consuming the loads costs this core 15 % of "
				 "its load rate: read_vector's 8 vpternlogq (512-bit) per 16 loads, "
				 "about 1.9 % each");
	/* the ops per 16 loads and their width are the run's ISA's */
	r.isa = BANDWIDTH_ISA_AVX2;
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "15 % of its load rate: read_vector's 8 vfmadd231pd "
				    "(256-bit) per 16 loads, about 1.9 % each"));
	r.isa = BANDWIDTH_ISA_SSE2;
	assert_int_equal(bandwidth_read_ops(BANDWIDTH_NISA, &op), 0);
	assert_string_equal(op, "none"); /* out of range: untouched */
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "read_vector's 16 pxor (128-bit) per 16 loads, about 0.9 % each"));
	r.isa = BANDWIDTH_ISA_AVX512;
	buf[0] = '\0';
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_READ_VECTOR, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "0.85x"));
	r.cell[0][BANDWIDTH_READ_VECTOR][0].gbs = 430.0;
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 1);
	assert_non_null(strstr(buf, "0.99x, consuming the loads costs this core nothing measurable"));
	assert_null(strstr(buf, "% each")); /* no cost, no cost per op */
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_WRITE, buf, sizeof buf), 0);
	/* the L2 row's figures teach nothing of the core: no L1 size, no lesson */
	mt_strlcpy(r.sizes[0].level, "L2", sizeof r.sizes[0].level);
	assert_int_equal(bandwidth_lesson(&r, BANDWIDTH_LOAD, buf, sizeof buf), 0);
}

/* /proc/cpuinfo as recorded on each kind of machine: the core the table
 * finds for it, exactly. */
static void ceiling_lookup(void **state)
{
	static const struct {
		const char *text, *core;
	} cases[] = {
		{ "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
		  "model name\t: Intel(R) Xeon(R) Platinum 8480+\nflags\t\t: fpu avx512f\n", "Golden Cove" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n", "Skylake-SP" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 94\n", "Skylake" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n", "Sunny Cove" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 190\n", "Gracemont" },
		/* the KVM guest this was written on: Rocket Lake's model, AMX flags */
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\n"
		  "flags\t\t: fpu avx512f amx_bf16 avx512_fp16 amx_tile amx_int8\n", "Golden Cove" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\nflags\t\t: fpu\n",
		  "Sunny Cove" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 49\n", "Zen 2" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 33\n", "Zen 3" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n", "Zen 4" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n", "Zen 5" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 1\n", NULL }, /* Zen 1 */
		{ "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
		  "CPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n", "Neoverse N1" },
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd4f\n", "Neoverse V2" },
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd40\n", "Neoverse V1" },
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd0b\n", "Cortex-A76" },
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd05\n", "Cortex-A55" },
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd0e\n", NULL }, /* A76AE: not the A76 */
		{ "CPU implementer\t: 0x51\nCPU part\t: 0xd0b\n", NULL }, /* not Arm's part */
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n", "Golden Cove" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 151\n", "Golden Cove" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 0x55\n", "Skylake-SP" },
		{ "vendor_id\t: GenuineIntel\ncpu family\t: 15\nmodel\t\t: 85\n", NULL },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 68\n", "Zen 5" },
		{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 97\n", "Zen 4" },
		{ "CPU implementer\t: 0x61\nCPU part\t: 0x023\n", NULL }, /* Apple: none */
		/* only the first CPU's block counts */
		{ "CPU implementer\t: 0x41\nCPU part\t: 0xd05\n\nCPU implementer\t: 0x41\n"
		  "CPU part\t: 0xd0b\n", "Cortex-A55" },
	};
	struct bandwidth_cpu_id id;
	char text[96];
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct bandwidth_core *c;
		assert_int_equal(bandwidth_cpu_id_parse(cases[i].text, &id), 0);
		c = bandwidth_core_find(&id);
		if (!cases[i].core)
			assert_null(c);
		else
			assert_string_equal(c ? c->name : "(none)", cases[i].core);
	}
	assert_int_equal(bandwidth_cpu_id_parse("processor\t: 0\n", &id), -1);
	assert_null(bandwidth_core_find(&id));
	bandwidth_cpu_id_text(&id, text, sizeof text);
	assert_string_equal(text, "an unknown CPU");
	bandwidth_cpu_id_parse(cases[5].text, &id);
	bandwidth_cpu_id_text(&id, text, sizeof text);
	assert_string_equal(text, "GenuineIntel family 0x6 model 0xa7 with AMX");
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		if (cases[i].core) /* every core the table names has a source */
			assert_true(strlen(bandwidth_core_named(cases[i].core)->source) > 20);
}

/* The ceilings, exactly, from the table's figures: core (NULL: none
 * known), kernel, level, vector bytes, the ceiling in bytes a cycle, and
 * the reason said with it (NULL: not checked). */
static void ceiling_figures(void **state)
{
	static const struct {
		const char *core;
		int kernel;
		const char *level;
		unsigned width;
		double want;
		const char *why;
	} cases[] = {
		{ "Golden Cove", BANDWIDTH_READ_VECTOR, "L1", 64, 128, "the L1 ports" },
		{ "Golden Cove", BANDWIDTH_READ_VECTOR, "L1", 32, 96, NULL },
		{ "Golden Cove", BANDWIDTH_READ, "L1", 64, 24, NULL }, /* 3 x 8 B */
		/* load: the load ports, as read_vector */
		{ "Golden Cove", BANDWIDTH_LOAD, "L1", 64, 128, "the L1 ports" },
		{ "Golden Cove", BANDWIDTH_LOAD, "L1", 32, 96, NULL },
		{ "Golden Cove", BANDWIDTH_LOAD, "L2", 64, 64, "the L2 fill" },
		{ "Zen 4", BANDWIDTH_LOAD, "L1", 64, 64, NULL },
		{ "Cortex-A76", BANDWIDTH_LOAD, "L1", 16, 32, NULL },
		{ "Gracemont", BANDWIDTH_LOAD, "L1", 8, 16, NULL }, /* the scalar path: 2 x 8 B */
		{ NULL, BANDWIDTH_LOAD, "L1", 64, 0, NULL },
		{ "Golden Cove", BANDWIDTH_WRITE, "L1", 64, 64, NULL },
		{ "Golden Cove", BANDWIDTH_COPY, "L1", 64, 128, NULL },
		{ "Golden Cove", BANDWIDTH_TRIAD, "L1", 64, 192, NULL },
		{ "Golden Cove", BANDWIDTH_READ_VECTOR, "L2", 64, 64, "the L2 fill" },
		{ "Golden Cove", BANDWIDTH_READ, "L2", 64, 24, NULL },
		{ "Golden Cove", BANDWIDTH_READ_VECTOR, "L3", 64, 0, "no fill figure for this level" },
		{ "Golden Cove", BANDWIDTH_READ_VECTOR, "DRAM", 64, 0, NULL },
		{ "Golden Cove", BANDWIDTH_COPY_NT, "L1", 64, 0, "streaming stores bypass the caches" },
		/* Skylake-SP: the L3 sends 16 B a cycle to a core (kerncraft's model) */
		{ "Skylake-SP", BANDWIDTH_READ_VECTOR, "L3", 64, 16, "the L3 fill" },
		{ "Skylake-SP", BANDWIDTH_TRIAD, "L3", 64, 16, NULL },
		{ "Skylake-SP", BANDWIDTH_READ_VECTOR, "L2", 64, 64, "the L2 fill" },
		{ "Sunny Cove", BANDWIDTH_READ_VECTOR, "L3", 64, 0, "no fill figure for this level" },
		{ "Zen 4", BANDWIDTH_READ_VECTOR, "L1", 64, 64, NULL }, /* split */
		{ "Zen 4", BANDWIDTH_WRITE, "L1", 64, 32, NULL },
		{ "Zen 4", BANDWIDTH_COPY, "L1", 64, 64, NULL },
		{ "Zen 4", BANDWIDTH_TRIAD, "L1", 64, 96, NULL },
		{ "Zen 4", BANDWIDTH_TRIAD, "L3", 64, 32, NULL },
		/* Cortex-A76: 2 x 16 B loads, a 256-bit write path, a 256-bit L2
		 * interface (its TRM) */
		{ "Cortex-A76", BANDWIDTH_READ_VECTOR, "L1", 16, 32, NULL },
		{ "Cortex-A76", BANDWIDTH_WRITE, "L1", 16, 32, "the L1 ports" },
		{ "Cortex-A76", BANDWIDTH_COPY, "L1", 16, 64, NULL },
		{ "Cortex-A76", BANDWIDTH_TRIAD, "L1", 16, 48, NULL },
		{ "Cortex-A76", BANDWIDTH_READ_VECTOR, "L2", 16, 32, "the L2 fill" },
		{ "Cortex-A76", BANDWIDTH_READ_VECTOR, "L3", 16, 0, "no fill figure for this level" },
		{ "Neoverse N1", BANDWIDTH_WRITE, "L1", 16, 32, NULL },
		{ "Neoverse N1", BANDWIDTH_COPY, "L2", 16, 32, "the L2 fill" },
		/* Neoverse V1: 3 x 16 B loads, 2 x 16 B stores (LLVM's model) */
		{ "Neoverse V1", BANDWIDTH_WRITE, "L1", 16, 32, NULL },
		{ "Neoverse V1", BANDWIDTH_COPY, "L1", 16, 64, NULL },
		{ "Neoverse V1", BANDWIDTH_TRIAD, "L1", 16, 72, NULL },
		{ "Neoverse V1", BANDWIDTH_READ_VECTOR, "L2", 16, 0, "no fill figure for this level" },
		{ "Cortex-A55", BANDWIDTH_WRITE, "L1", 16, 16, NULL },
		/* Neoverse V2: 3 x 16 B loads, 2 x 16 B stores (the OSACA model) */
		{ "Neoverse V2", BANDWIDTH_READ_VECTOR, "L1", 16, 48, NULL },
		{ "Neoverse V2", BANDWIDTH_WRITE, "L1", 16, 32, NULL },
		{ "Neoverse V2", BANDWIDTH_COPY, "L1", 16, 64, NULL },
		{ "Neoverse V2", BANDWIDTH_TRIAD, "L1", 16, 72, NULL },
		{ "Neoverse V2", BANDWIDTH_READ_VECTOR, "L2", 16, 0, "no fill figure for this level" },
		{ NULL, BANDWIDTH_READ, "L1", 8, 0, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct bandwidth_core *c = cases[i].core ? bandwidth_core_named(cases[i].core) : NULL;
		const char *why;
		assert_true(bandwidth_ceiling(c, cases[i].kernel, cases[i].level, cases[i].width,
					      &why) == cases[i].want);
		if (cases[i].why)
			assert_string_equal(why, cases[i].why);
	}
}

/* A recorded cell's share: GB/s over the clock measured during the run,
 * over the ceiling; in the JSON too. */
static void ceiling_fractions(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r;
	struct bandwidth_share sh;
	mt_error e;
	cJSON *j, *res, *it;
	int measured;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 32768, 1 << 20 }, 2, &e), 0);
	p.threads[0] = 1;
	p.nthreads = 1;
	p.isa = BANDWIDTH_ISA_AVX512;
	bandwidth_result_init(&r, &p);
	r.vector_bytes = 64;
	mt_strlcpy(r.sizes[0].level, "L1", sizeof r.sizes[0].level);
	mt_strlcpy(r.sizes[1].level, "L2", sizeof r.sizes[1].level);
	bandwidth_cpu_id_parse("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n", &r.cpu);
	r.hdr.clock.core_ghz = 3.0; /* calibrated; the run measured 4.0 */
	r.hdr.has_diag = 1;
	r.hdr.diag.run_ghz_start = 3.9;
	r.hdr.diag.run_ghz_end = 4.1;
	assert_true(bandwidth_result_ghz(&r, &measured) == 4.0 && measured == 1);
	r.cell[0][BANDWIDTH_READ_VECTOR][0] = (struct bandwidth_cell){ .have = 1, .gbs = 384 };
	r.cell[1][BANDWIDTH_COPY][0] = (struct bandwidth_cell){ .have = 1, .gbs = 128 };
	r.cell[0][BANDWIDTH_COPY_NT][0] = (struct bandwidth_cell){ .have = 1, .gbs = 40 };
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ_VECTOR, 0, &sh), 0);
	assert_true(sh.bpc == 96 && sh.ceiling == 128 && sh.fraction == 0.75);
	assert_int_equal(bandwidth_cell_share(&r, 1, BANDWIDTH_COPY, 0, &sh), 0);
	assert_true(sh.bpc == 32 && sh.ceiling == 64 && sh.fraction == 0.5);
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_COPY_NT, 0, &sh), 0);
	assert_true(sh.bpc == 10 && sh.ceiling == 0 && sh.fraction == 0);
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_WRITE, 0, &sh), -1); /* not measured */
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "ceiling"), "core")->valuestring,
			    "Golden Cove");
	res = cJSON_GetObjectItem(j, "results");
	it = cJSON_GetArrayItem(res, 0); /* L1 read_vector */
	assert_true(cJSON_GetObjectItem(it, "bytes_per_cycle")->valuedouble == 96);
	assert_true(cJSON_GetObjectItem(it, "ceiling_bpc")->valuedouble == 128);
	assert_true(cJSON_GetObjectItem(it, "ceiling_fraction")->valuedouble == 0.75);
	it = cJSON_GetArrayItem(res, 1); /* L1 copy_nt: no ceiling */
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(it, "ceiling_bpc")));
	/* read back: the same core, so the same ceilings */
	{
		static struct bandwidth_result back;
		assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
		assert_string_equal(bandwidth_core_find(&back.cpu)->name, "Golden Cove");
	}
	/* a core the table lacks: bytes a cycle, no ceiling */
	bandwidth_cpu_id_parse("CPU implementer\t: 0x61\nCPU part\t: 0x023\n", &r.cpu);
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ_VECTOR, 0, &sh), 0);
	assert_true(sh.bpc == 96 && sh.ceiling == 0);
	assert_string_equal(sh.why, "no ceiling known for this core");
	cJSON_Delete(j);
}

/* --pages: the words; what each resolves to under each THP mode; the
 * result keeps what was asked, what was used and, from the worker's note,
 * how much was huge; the JSON says it and reads it back; a file without it
 * does not say; a wrong one is refused naming the field. */
static void pages_asked_used_and_said(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	static const struct {
		int asked;
		const char *thp;
		int used;
	} cases[] = {
		{ BANDWIDTH_PAGES_4K, "always", BANDWIDTH_PAGES_4K },     { BANDWIDTH_PAGES_4K, "madvise", BANDWIDTH_PAGES_4K },
		{ BANDWIDTH_PAGES_HUGE, "madvise", BANDWIDTH_PAGES_HUGE }, { BANDWIDTH_PAGES_HUGE, "never", BANDWIDTH_PAGES_HUGE },
		{ BANDWIDTH_PAGES_AUTO, "always", BANDWIDTH_PAGES_HUGE }, { BANDWIDTH_PAGES_AUTO, "madvise", BANDWIDTH_PAGES_HUGE },
		{ BANDWIDTH_PAGES_AUTO, "never", BANDWIDTH_PAGES_4K },    { BANDWIDTH_PAGES_AUTO, "", BANDWIDTH_PAGES_4K },
	};
	struct job_event ev;
	mt_error e;
	cJSON *j, *pg;
	(void)state;
	assert_int_equal(bandwidth_pages_parse("4k"), BANDWIDTH_PAGES_4K);
	assert_int_equal(bandwidth_pages_parse("huge"), BANDWIDTH_PAGES_HUGE);
	assert_int_equal(bandwidth_pages_parse("auto"), BANDWIDTH_PAGES_AUTO);
	assert_int_equal(bandwidth_pages_parse("2m"), -1);
	assert_int_equal(bandwidth_pages_parse("4K"), -1);
	assert_null(bandwidth_pages_name(3));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(bandwidth_pages_used(cases[i].asked, cases[i].thp), cases[i].used);
	bandwidth_params_default(&p, NULL);
	assert_int_equal(p.pages, BANDWIDTH_PAGES_4K); /* the default */
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 1 << 20, 3 << 20 }, 2, &e), 0);
	p.pages_asked = BANDWIDTH_PAGES_AUTO;
	p.pages = BANDWIDTH_PAGES_HUGE;
	/* the largest layout and a page of slack, in whole 2 MB */
	assert_int_equal(bandwidth_buffer_bytes(&p) % (2u << 20), 0);
	assert_true(bandwidth_buffer_bytes(&p) >= bandwidth_table_bytes(&p) + 4096);
	assert_true(bandwidth_buffer_bytes(&p) < bandwidth_table_bytes(&p) + 4096 + (2u << 20));
	bandwidth_result_init(&r, &p);
	assert_true(r.pages.asked == BANDWIDTH_PAGES_AUTO && r.pages.used == BANDWIDTH_PAGES_HUGE);
	assert_true(r.pages.huge_bytes == -1); /* before the note */
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = BANDWIDTH_NOTE_PAGES;
	ev.value = 2u << 20;
	assert_int_equal(bandwidth_result_apply(&r, &ev), 0); /* a note, not a cell */
	assert_true(r.pages.huge_bytes == 2u << 20);
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	pg = cJSON_GetObjectItem(j, "pages");
	assert_string_equal(cJSON_GetObjectItem(pg, "asked")->valuestring, "auto");
	assert_string_equal(cJSON_GetObjectItem(pg, "used")->valuestring, "huge");
	assert_true(cJSON_GetObjectItem(pg, "huge_bytes")->valuedouble == 2u << 20);
	assert_true(cJSON_GetObjectItem(pg, "buffer_bytes")->valuedouble ==
		    (double)bandwidth_buffer_bytes(&p));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.asked == BANDWIDTH_PAGES_AUTO && back.pages.used == BANDWIDTH_PAGES_HUGE);
	assert_true(back.pages.huge_bytes == 2u << 20);
	assert_true(back.pages.buffer_bytes == bandwidth_buffer_bytes(&p));
	/* more huge than the buffer: refused, naming the field */
	cJSON_SetNumberValue(cJSON_GetObjectItem(pg, "huge_bytes"), 1e12);
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: field \"pages.huge_bytes\""));
	cJSON_ReplaceItemInObject(pg, "huge_bytes", cJSON_CreateNull());
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.huge_bytes == -1); /* null: not known */
	cJSON_ReplaceItemInObject(pg, "used", cJSON_CreateString("2m"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: field \"pages\""));
	/* a file from before: no "pages", nothing said */
	cJSON_DeleteItemFromObject(j, "pages");
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.asked == -1 && back.pages.huge_bytes == -1);
	cJSON_Delete(j);
}

static void worker_loaded_sweep(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r;
	int notes;
	(void)state;
	bandwidth_params_default(&p, NULL);
	p.loaded = 2;
	p.chase_bytes = p.loader_bytes = 4 << 20;
	p.delays[0] = 2000;
	p.delays[1] = 0;
	p.ndelays = 2;
	p.point_ns = 2e6; /* short tries: what is asserted does not hang on their length */
	p.loaded_tries = 2;
	if (p.ncpus < 2) {
		assert_int_equal(run_job(&p, &r, &notes), 0);
		assert_int_equal(notes, 1); /* "needs 2 CPUs" */
		return;
	}
	assert_int_equal(run_job(&p, &r, &notes), 3);
	assert_true(r.pts[0].have && r.pts[0].idle);
	assert_true(r.pts[0].gbs == 0);
	assert_true(r.pts[0].latency_ns > 0);
	assert_true(r.pts[1].have && !r.pts[1].idle && r.pts[1].delay_ns == 2000);
	assert_true(r.pts[2].have && r.pts[2].delay_ns == 0);
	/* Every loaded point was measured while the loaders moved bytes: a try
	 * goes on until they have, however long a busy machine keeps them off
	 * their CPU (a fixed 20 ms window, or 0.6 ms after a preempted
	 * calibration, saw none 3 times in 50 beside stress-ng --cpu 4). */
	assert_true(r.pts[1].gbs > 0);
	assert_true(r.pts[2].gbs > 0);
}

static void cancel_stops_threads(void **state)
{
	static struct bandwidth_params p;
	mt_error e;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 64ull << 20 }, 1, &e), 0);
	p.min_tries = p.max_tries = 100;
	p.try_ns = 1e9; /* minutes */
	/* seconds, as the other cancel tests allow: a ThreadSanitizer build took 2 s */
	assert_true(test_job_cancel_after(bandwidth_worker, &p, 200) < 5000000000ull);
}

/* Short runs for the clock's tests: the read kernel at 16K, threads
 * threads, one timed try of 0.1 ms a cell. */
static void short_read_params(struct bandwidth_params *p, unsigned threads)
{
	mt_error e;
	bandwidth_params_default(p, NULL);
	assert_int_equal(bandwidth_set_sizes(p, (const uint64_t[]){ 16384 }, 1, &e), 0);
	p->kernels[0] = BANDWIDTH_READ;
	p->nkernels = 1;
	p->threads[0] = threads;
	p->nthreads = 1;
	p->min_tries = p->max_tries = 1;
	p->try_ns = 1e5;
}

/* A stand-in for the clock's measurement: notes the thread and CPU of each
 * call; 6.5 GHz at the start, 7.5 at the end. No timing. */
static struct {
	int calls;
	pthread_t tid[8];
	int cpu[8];
	pthread_t worker;
} fake_clock;

static double fake_measure(void)
{
	int i = fake_clock.calls++;
	if (i < 8) {
		fake_clock.tid[i] = pthread_self();
		fake_clock.cpu[i] = sched_getcpu();
	}
	return i == 0 ? 6.5 : 7.5;
}

/* The lab's worker with the fake clock in the job's run clock. */
static int worker_with_fake_clock(job_t *job, void *arg, mt_error *e)
{
	fake_clock.worker = pthread_self();
	job_run_clock(job)->measure = fake_measure;
	return bandwidth_worker(job, arg, e);
}

/* The clock a bandwidth run turns into bytes a cycle is measured on its
 * first measuring thread, on that thread's CPU (--cpus), once at the start
 * of the run and once at its end, never on the job's worker: with two
 * CPUs the job sits on one and the threads on the other (the 103 % shares
 * of the last session came from a clock taken on the job's CPU). */
static void clock_from_the_first_measuring_thread(void **state)
{
	static struct bandwidth_params p;
	int cpus[1024], n = mt_allowed_cpus(cpus, 1024), done = 0;
	struct job_opts o = { -1, 0 };
	struct job_progress pr;
	struct job_event ev[64];
	mt_error e;
	job_t *job;
	(void)state;
	memset(&fake_clock, 0, sizeof fake_clock);
	short_read_params(&p, 2);
	p.kernels[1] = BANDWIDTH_WRITE;
	p.nkernels = 2;
	if (n >= 2) {
		o.cpu = cpus[0];
		p.cpus[0] = cpus[n - 1];
		p.cpus[1] = cpus[0];
		p.ncpus = 2;
	}
	job = job_start(worker_with_fake_clock, &p, &o, &e);
	assert_non_null(job);
	while (!done) {
		size_t k = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < k; i++)
			done |= ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED;
	}
	job_get_progress(job, &pr);
	assert_int_equal(job_join(job, &e), 0);
	/* many tries started many threads: the clock was taken once, then at the end */
	assert_int_equal(fake_clock.calls, 2);
	assert_false(pthread_equal(fake_clock.tid[0], fake_clock.worker));
	assert_true(pr.ghz_start == 6.5 && pr.ghz_end == 7.5);
	assert_int_equal(pr.ghz_cpu, fake_clock.cpu[0]);
	assert_int_equal(fake_clock.cpu[1], fake_clock.cpu[0]);
	if (n >= 2 && fake_clock.cpu[0] >= 0) {
		assert_int_equal(pr.ghz_cpu, p.cpus[0]);
		assert_int_not_equal(pr.ghz_cpu, pr.cpu);
	}
}

/* A stand-in for the short look at the clock around a try: call i is
 * the (i % 2 ? after : before) of try i / 2, before 2.0 + i / 2 GHz and
 * after 2.5 + i / 2, so a try's mean is 2.25 + its number (2.0 + or
 * 2.5 + it when the other look lost its CPU on a busy machine and was
 * left out); notes the thread of each call. No timing. */
static struct {
	int calls;
	int on_worker; /* calls made on the job's worker thread */
} fake_try;

static double fake_measure_try(void)
{
	int i = fake_try.calls++;
	fake_try.on_worker += pthread_equal(pthread_self(), fake_clock.worker) != 0;
	return (i % 2 ? 2.5 : 2.0) + i / 2;
}

/* Whether ghz is what one try's fake looks give: their mean (2.25 + n),
 * or one of them (2.0 + n, 2.5 + n) when the other was left out. */
static int fake_look(double ghz)
{
	double f = ghz - 2.0 - (int)(ghz - 2.0);
	return ghz >= 2.0 && (f == 0 || f == 0.25 || f == 0.5);
}

static int worker_with_fake_try_clock(job_t *job, void *arg, mt_error *e)
{
	fake_clock.worker = pthread_self();
	job_run_clock(job)->measure = fake_measure;
	job_run_clock(job)->measure_try = fake_measure_try;
	return bandwidth_worker(job, arg, e);
}

/* A one-thread cell's bytes a cycle divide by the clock measured right
 * before and after its best try on the measuring thread (the mean of that
 * try's two looks), not by the run's start and end (6.5 and 7.5 here); the
 * run's figure stays beside it; a two-thread cell takes no look; the JSON
 * says each cell's clock and reads it back. */
static void cell_divides_by_clock_around_its_try(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	struct bandwidth_share sh;
	const struct bandwidth_cell *c;
	mt_error e;
	job_t *job;
	cJSON *j;
	int ended = 0, pair;
	(void)state;
	memset(&fake_clock, 0, sizeof fake_clock);
	memset(&fake_try, 0, sizeof fake_try);
	short_read_params(&p, 1);
	p.threads[1] = 2;
	p.nthreads = 2;
	bandwidth_result_init(&r, &p);
	job = job_start(worker_with_fake_try_clock, &p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED)
				ended = ev[i].type;
			bandwidth_result_apply(&r, &ev[i]);
		}
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	r.hdr.has_diag = 1;
	r.hdr.diag.run_ghz_start = 6.5;
	r.hdr.diag.run_ghz_end = 7.5;
	/* the ports' canary, the one-thread cell, the canary again: one timed
	 * try each (two if doubtful and measured again), a look before and
	 * after each try, all on the measuring thread */
	assert_true(fake_try.calls >= 6 && fake_try.calls <= 12 && fake_try.calls % 2 == 0);
	assert_int_equal(fake_try.on_worker, 0);
	c = &r.cell[0][BANDWIDTH_READ][0];
	assert_true(c->have);
	pair = (int)(c->ghz - 2.0);
	assert_true(pair >= 1 && 2 * pair < fake_try.calls - 2 && fake_look(c->ghz));
	/* the canaries before and after the table, each at the clock around its try */
	assert_true(r.ports[0].have && r.ports[0].gbs > 0 && fake_look(r.ports[0].ghz));
	assert_true(r.ports[0].ghz < c->ghz);
	assert_true(r.ports[1].have && (int)(r.ports[1].ghz - 2.0) == fake_try.calls / 2 - 1 &&
		    fake_look(r.ports[1].ghz));
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ, 0, &sh), 0);
	assert_int_equal(sh.clock, BANDWIDTH_CLOCK_TRY);
	assert_true(sh.ghz == c->ghz && sh.bpc == c->gbs / c->ghz);
	assert_true(sh.run_ghz == 7.0 && sh.run_bpc == c->gbs / 7.0);
	assert_string_equal(bandwidth_clock_name(sh.clock), "measured around the try");
	/* two threads: no look, the run's clock */
	assert_true(r.cell[0][BANDWIDTH_READ][1].have && r.cell[0][BANDWIDTH_READ][1].ghz == 0);
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ, 1, &sh), 0);
	assert_true(sh.clock == BANDWIDTH_CLOCK_RUN && sh.ghz == 7.0);
	/* the JSON: each cell's clock, read back the same */
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	assert_true(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0),
					"try_ghz")->valuedouble == c->ghz);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 1), "try_ghz")));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.cell[0][BANDWIDTH_READ][0].ghz == c->ghz && back.cell[0][BANDWIDTH_READ][1].ghz == 0);
	cJSON_Delete(j);
}

/* The load ports' verdict from fake canary figures (no timing): a canary
 * at 90 % of the load ceiling is the core's own rate, one under 70 %
 * (after the table here) says the ports were shared or slowed and the L1
 * fractions are not the core's; the line goes at the boundary; nothing
 * without a ceiling or a clock; the JSON writes the canaries and the
 * verdict and reads them back strictly. */
static void ports_canary_verdict(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	char line[400];
	int shared = -1;
	mt_error e;
	cJSON *j, *o;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 24576 }, 1, &e), 0);
	p.threads[0] = 1;
	p.nthreads = 1;
	p.isa = BANDWIDTH_ISA_AVX512;
	bandwidth_result_init(&r, &p);
	r.vector_bytes = 64;
	bandwidth_cpu_id_parse("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n", &r.cpu);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0); /* none yet */
	{
		struct job_event ev;
		struct bandwidth_ev_ports x = { .when = 0, .gbs = 460.8, .ghz = 4.0 };
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_NOTE;
		ev.subtype = BANDWIDTH_NOTE_PORTS;
		JOB_PAYLOAD_PUT(&ev, struct bandwidth_ev_ports, &x);
		assert_int_equal(bandwidth_result_apply(&r, &ev), 0);
	}
	assert_true(r.ports[0].have && r.ports[0].gbs == 460.8 && r.ports[0].ghz == 4.0);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	assert_string_equal(line, "load ports: the canary (load over 4K, one thread) read 115.2 "
			    "B/cycle at 4.00 GHz before the table: 90 % of Golden Cove's 128: the "
			    "core's own load rate, no sign of a sharer");
	r.ports[1] = (struct bandwidth_ports){ .have = 1, .gbs = 230.4, .ghz = 4.0 }; /* 57.6 B/cycle */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 1);
	assert_string_equal(line, "load ports: the canary (load over 4K, one thread) read 115.2 "
			    "B/cycle at 4.00 GHz before the table, 57.6 B/cycle at 4.00 GHz after the "
			    "table: at worst 45 % of Golden Cove's 128, under 70 %: the core's load "
			    "ports were shared (a tenant on its SMT sibling) or slowed during the run, "
			    "and the L1 fractions are not the core's");
	r.ports[1].gbs = 0.70 * 128 * 4.0 * 1.001; /* just over the line */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	r.ports[1].gbs = 0.70 * 128 * 4.0 * 0.999; /* just under it */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 1);
	r.ports[1].preempted = 1; /* that try lost its CPU: no verdict from it */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	assert_null(strstr(line, "after the table"));
	r.ports[1].preempted = 0;
	/* the JSON: both canaries and the verdict, read back the same */
	r.ports[1].gbs = 230.4;
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	o = cJSON_GetObjectItem(j, "ports");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "shared")));
	assert_non_null(strstr(cJSON_GetObjectItem(o, "verdict")->valuestring, "were shared"));
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "after"), "gbs")->valuedouble == 230.4);
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.ports[0].have && back.ports[0].gbs == 460.8 && back.ports[0].ghz == 4.0);
	assert_true(back.ports[1].have && back.ports[1].gbs == 230.4);
	cJSON_ReplaceItemInObject(o, "before", cJSON_CreateString("fast"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_string_equal(e.msg, "t.json: field \"ports.before\": null or an object with \"gbs\" "
			    "(a number > 0) and \"ghz\" (0 < GHz < 1000, or null)");
	cJSON_Delete(j);
	/* no clock around the canary, or no ceiling known: nothing to say */
	r.ports[0].ghz = r.ports[1].ghz = 0;
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0);
	r.ports[0].ghz = r.ports[1].ghz = 4.0;
	bandwidth_cpu_id_parse("CPU implementer\t: 0x61\nCPU part\t: 0x023\n", &r.cpu);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0);
}

/* The load ports' canaries come before and after the lab's own table
 * (two notes beside the pages one), never in a caller's buffer (memtop run
 * numa's sub-runs pass the lab's notes on as their own). */
static void no_canary_in_a_callers_buffer(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r;
	int notes;
	char *buf;
	(void)state;
	short_read_params(&p, 1);
	assert_int_equal(run_job(&p, &r, &notes), 1);
	assert_int_equal(notes, 3);
	assert_true(r.ports[0].have && r.ports[1].have);
	p.buf_bytes = ((size_t)bandwidth_table_bytes(&p) / 4096 + 1) * 4096;
	buf = aligned_alloc(4096, p.buf_bytes);
	assert_non_null(buf);
	p.buf = buf;
	assert_int_equal(run_job(&p, &r, &notes), 1);
	assert_int_equal(notes, 0);
	assert_false(r.ports[0].have || r.ports[1].have);
	free(buf);
}

/* "try_ghz" read strictly: absent or null is none (files before it), a
 * clock is kept, anything else fails naming the result and the field. */
static void try_clock_read_strictly(void **state)
{
	static struct bandwidth_result r;
	static const char *const bad[] = { "\"x\"", "0", "-3", "1e9", "true", "[]" };
	const char *head = "{\"experiment\":\"bandwidth\",\"sizes\":[{\"size\":16384}],"
			   "\"threads\":[{\"threads\":1}],\"results\":[{\"kernel\":\"read\","
			   "\"size\":16384,\"threads\":1,\"gbs\":100";
	char text[400];
	mt_error e;
	cJSON *j;
	(void)state;
	for (int i = 0; i < 3; i++) {
		static const char *const tail[] = { "", ",\"try_ghz\":null", ",\"try_ghz\":3.75" };
		mt_snprintf(text, sizeof text, "%s%s}]}", head, tail[i]);
		j = cJSON_Parse(text);
		assert_int_equal(bandwidth_result_from_json(j, "f.json", &r, &e), 0);
		assert_true(r.cell[0][BANDWIDTH_READ][0].ghz == (i == 2 ? 3.75 : 0));
		cJSON_Delete(j);
	}
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++) {
		mt_snprintf(text, sizeof text, "%s,\"try_ghz\":%s}]}", head, bad[i]);
		j = cJSON_Parse(text);
		assert_int_equal(bandwidth_result_from_json(j, "f.json", &r, &e), -1);
		assert_string_equal(e.msg, "f.json: results[0]: field \"try_ghz\" must be a clock in "
				    "GHz (0 < GHz < 1000) or null");
		cJSON_Delete(j);
	}
}

/* The worker run by a job that is cancelled before the worker starts. */
static int cancelled_first(job_t *job, void *arg, mt_error *e)
{
	job_cancel(job);
	return bandwidth_worker(job, arg, e);
}

/* Tries far shorter than the worker's 50 ms wait (0.1 ms, at 4 KB): each
 * try looks at the job when it ends, so a job cancelled before the first
 * try measures no cell. When only a try longer than the wait saw a stop, a
 * table of short tries ran to its end (q in the TUI once waited seconds). */
static void cancel_between_short_tries(void **state)
{
	static struct bandwidth_params p;
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	int cells = 0, ended = 0;
	mt_error e;
	job_t *job;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 4096 }, 1, &e), 0);
	p.min_tries = p.max_tries = 3;
	p.try_ns = 1e5;
	job = job_start(cancelled_first, &p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			cells += ev[i].type == JOB_EV_CELL;
			ended |= ev[i].type == JOB_EV_CANCELLED || ev[i].type == JOB_EV_DONE ||
				 ev[i].type == JOB_EV_FAILED;
		}
	}
	assert_int_equal(job_join(job, &e), 1);
	assert_int_equal(cells, 0);
}

/* A run cancelled before its first cell (cancelled_first): the worker
 * fills one stretch of the first cell's array and stops there (the DRAM
 * row's fill, hundreds of MB, held a stop ~0.3 s before it went in
 * stretches). */
static void cancelled_fill_stops_after_a_stretch(void **state)
{
	static struct bandwidth_params p;
	struct job_opts o = { -1, 0 };
	struct bandwidth_layout lay;
	const double *a;
	mt_error e;
	job_t *job;
	char *buf;
	(void)state;
	short_read_params(&p, 1);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 16u << 20 }, 1, &e), 0);
	p.buf_bytes = ((size_t)bandwidth_table_bytes(&p) / 4096 + 1) * 4096;
	buf = aligned_alloc(4096, p.buf_bytes);
	assert_non_null(buf);
	memset(buf, 0, p.buf_bytes);
	p.buf = buf;
	job = job_start(cancelled_first, &p, &o, &e);
	assert_non_null(job);
	assert_int_equal(job_join(job, &e), 1);
	bandwidth_layout(BANDWIDTH_READ, &p.sizes[0], 1, 1, &lay);
	assert_true(lay.n > 3 * BANDWIDTH_FILL_STRETCH);
	a = (const double *)(const void *)(buf + lay.array_off[0]);
	assert_true(a[0] == -1.0);
	assert_true(a[BANDWIDTH_FILL_STRETCH - 1] == -1.0 - (double)((BANDWIDTH_FILL_STRETCH - 1) % 1000));
	assert_true(a[BANDWIDTH_FILL_STRETCH] == 0.0); /* the next stretch never filled */
	assert_true(a[lay.n - 1] == 0.0);
	free(buf);
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
		cmocka_unit_test(worker_streams_checked_table),
		cmocka_unit_test(write_allocate_lesson),
		cmocka_unit_test(library_lesson),
		cmocka_unit_test(consumed_loads_lesson),
		cmocka_unit_test(ceiling_lookup),
		cmocka_unit_test(ceiling_figures),
		cmocka_unit_test(ceiling_fractions),
		cmocka_unit_test(pages_asked_used_and_said),
		cmocka_unit_test(clock_from_the_first_measuring_thread),
		cmocka_unit_test(cell_divides_by_clock_around_its_try),
		cmocka_unit_test(try_clock_read_strictly),
		cmocka_unit_test(ports_canary_verdict),
		cmocka_unit_test(no_canary_in_a_callers_buffer),
		cmocka_unit_test(worker_loaded_sweep),
		cmocka_unit_test(cancel_stops_threads),
		cmocka_unit_test(cancel_between_short_tries),
		cmocka_unit_test(cancelled_fill_stops_after_a_stretch),
	};
	return cmocka_run_group_tests_name("bandwidth", tests, make_tmpdir, remove_tmpdir);
}
