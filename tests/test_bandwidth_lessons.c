/* Unit tests of what a bandwidth result teaches: the write-allocate, the C
 * library's and the consumed loads' lessons from recorded figures, and the
 * ceilings they are held against (each core's data paths looked up by the
 * CPU's identity, their figures, a cell's share of its ceiling). */
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
#include <time.h>
#include <unistd.h>

#include "bandwidth/bandwidth.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"
#include "run/job.h"
#include "testjob.h"
#include "testlib.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_allocate_lesson),
		cmocka_unit_test(library_lesson),
		cmocka_unit_test(consumed_loads_lesson),
		cmocka_unit_test(ceiling_lookup),
		cmocka_unit_test(ceiling_figures),
		cmocka_unit_test(ceiling_fractions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
