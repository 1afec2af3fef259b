/* Unit tests of memtop run numa's traffic mixes (the --mix parser, the
 * bytes each mix counts) and of a loaded-latency curve's knee by one rule
 * and Little's law (flat, a knee and a wall; all flat; noisy), exact. No
 * NUMA machine is needed. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/numa.h"
#include "testlib.h"

/* ---- the mixes ------------------------------------------------------------------ */

/* --mix as a table: each list, what it gives or the one line it fails with. */
static void mix_parser(void **state)
{
	static const struct {
		const char *list;
		unsigned want; /* ~0u: refused with msg */
		const char *msg;
	} t[] = {
		{ "reads", 1u << NUMA_MIX_READS, NULL },
		{ "read", 1u << NUMA_MIX_READS, NULL },
		{ "reads,triad", NUMA_MIXES_DEFAULT, NULL },
		{ "triad,reads", NUMA_MIXES_DEFAULT, NULL },
		{ "3:1,2:1,1:1", (1u << NUMA_MIX_31) | (1u << NUMA_MIX_21) | (1u << NUMA_MIX_11), NULL },
		{ "all", NUMA_MIXES_ALL, NULL },
		{ "none", 0, NULL },
		{ "0:1", ~0u, "--mix: '0:1': no mix of 0 reads (writes alone are the bandwidth lab's "
			      "write kernels; the mixes: reads, 3:1, 2:1, 1:1, triad, or all)" },
		{ "3:", ~0u, "--mix: '3:': a mix of reads to writes is READS:WRITES, such as 3:1 (the "
			     "mixes: reads, 3:1, 2:1, 1:1, triad, or all)" },
		{ ":1", ~0u, "--mix: ':1' is not a mix (the mixes: reads, 3:1, 2:1, 1:1, triad, or all)" },
		{ "3:x", ~0u, "--mix: '3:x': a mix of reads to writes is READS:WRITES, such as 3:1 (the "
			      "mixes: reads, 3:1, 2:1, 1:1, triad, or all)" },
		{ "4:1", ~0u, "--mix: '4:1' is no mix measured here (the mixes: reads, 3:1, 2:1, 1:1, "
			      "triad, or all)" },
		{ "writes", ~0u, "--mix: 'writes' is not a mix (the mixes: reads, 3:1, 2:1, 1:1, triad, "
				 "or all)" },
		{ "reads,,triad", ~0u, "--mix: an empty name (the mixes: reads, 3:1, 2:1, 1:1, triad, "
				       "or all)" },
		{ "", ~0u, "--mix: empty (the mixes: reads, 3:1, 2:1, 1:1, triad, or all)" },
		{ "triad,triad", ~0u, "--mix: 'triad' given twice" },
		{ "reads,all", ~0u, "--mix: 'all' stands alone" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		unsigned got = 12345;
		mt_error e = { "" };
		int rc = numa_mix_parse(t[i].list, &got, &e);
		if (t[i].want == ~0u) {
			assert_int_equal(rc, -1);
			assert_string_equal(e.msg, t[i].msg);
			assert_int_equal(got, 12345); /* untouched */
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(got, t[i].want);
		}
	}
}

/* Each mix's kernel, and the bytes it counts a pass over arrays of n
 * doubles: reads + writes, what its GB/s divide, as the lab's kernel counts
 * them; 3:1 over whole groups of four spans exactly 3:1. */
static void mix_bytes(void **state)
{
	static const struct {
		int mix, kernel, kernel_nt;
		uint64_t rd, wr; /* bytes for n = 16 spans */
	} t[] = {
		{ NUMA_MIX_READS, BANDWIDTH_READ, BANDWIDTH_READ, 16 * 2048 * 8, 0 },
		{ NUMA_MIX_31, BANDWIDTH_R3W1, BANDWIDTH_R3W1_NT, 36 * 2048 * 8, 12 * 2048 * 8 },
		{ NUMA_MIX_21, BANDWIDTH_R2W1, BANDWIDTH_R2W1_NT, 32 * 2048 * 8, 16 * 2048 * 8 },
		{ NUMA_MIX_11, BANDWIDTH_COPY, BANDWIDTH_COPY_NT, 16 * 2048 * 8, 16 * 2048 * 8 },
		{ NUMA_MIX_TRIAD, BANDWIDTH_TRIAD, BANDWIDTH_TRIAD_NT, 32 * 2048 * 8, 16 * 2048 * 8 },
	};
	size_t n = 16 * BANDWIDTH_MIX_SPAN;
	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint64_t rd, wr;
		assert_int_equal(numa_mix_kernel(t[i].mix, 0), t[i].kernel);
		assert_int_equal(numa_mix_kernel(t[i].mix, 1), t[i].kernel_nt);
		numa_mix_bytes(t[i].mix, n, &rd, &wr);
		assert_int_equal(rd, t[i].rd);
		assert_int_equal(wr, t[i].wr);
		assert_int_equal(rd + wr, bandwidth_kernel_bytes(t[i].kernel, n));
		assert_int_equal(numa_meas_mix(numa_mix_meas(t[i].mix)), t[i].mix);
	}
	/* a span and a half: 3:1's fourth span never comes, 2:1 then */
	{
		uint64_t rd, wr;
		numa_mix_bytes(NUMA_MIX_31, 3 * BANDWIDTH_MIX_SPAN / 2, &rd, &wr);
		assert_int_equal(rd, 2 * 3072 * 8);
		assert_int_equal(wr, 3072 * 8);
	}
	assert_int_equal(numa_mix_kernel(NUMA_NMIX, 0), -1);
	assert_null(numa_mix_name(-1));
	assert_int_equal(numa_meas_mix(NUMA_LAT), -1);
}

/* ---- the knee and Little's law ------------------------------------------------- */

/* A built curve: idle at idle ns, then (gbs[i], ns[i]). */
static size_t curve(struct numa_point *pts, double idle, const double *gbs, const double *ns,
		    size_t n)
{
	pts[0] = (struct numa_point){ .delay_ns = -1, .gbs = 0, .ns = idle };
	for (size_t i = 0; i < n; i++)
		pts[i + 1] = (struct numa_point){ .delay_ns = 1000.0 * (double)(n - i), .gbs = gbs[i],
						  .ns = ns[i] };
	return n + 1;
}

/* A curve of up to 8 loaded points after the idle one, and what its knee
 * reads as: found or not, the peak's point, the two sentences; then the
 * row's own checks, more (NULL: none), on its points and knee. */
struct knee_row {
	double idle, gbs[8], ns[8];
	size_t n;
	int found;
	size_t peak;
	const char *knee, *little;
	void (*more)(const struct knee_row *row, struct numa_point *pts, size_t n,
		     const struct numa_knee *k);
};

/* The flat-knee-wall's knee: where, how far up, Little's law's figures,
 * and the same knee from the points in any order after the idle one. */
static void knee_wall_more(const struct knee_row *row, struct numa_point *pts, size_t n,
			   const struct numa_knee *k)
{
	struct numa_point r[16];
	struct numa_knee k2;
	(void)row;
	assert_int_equal(k->knee, 6); /* (30 GB/s, 104 ns) */
	assert_float_equal(k->frac, 30.0 / 33, 1e-12);
	assert_float_equal(k->ratio, 1.04, 1e-12);
	assert_float_equal(k->peak_ratio, 3.0, 1e-12);
	/* Little's law: 30 GB/s x 104 ns / 64 B = 48.75 lines; 33 x 300 / 64 = 154.6875 */
	assert_float_equal(k->inflight_knee, 48.75, 1e-9);
	assert_float_equal(k->inflight_peak, 154.6875, 1e-9);
	r[0] = pts[0];
	for (size_t i = 1; i < n; i++)
		r[i] = pts[n - i];
	assert_int_equal(numa_knee_find(r, n, &k2), 1);
	assert_float_equal(r[k2.knee].gbs, 30, 0);
}

/* No knee either where latency rises from the first load (no flat part),
 * or with the idle point alone, or nothing. */
static void knee_none_more(const struct knee_row *row, struct numa_point *pts, size_t n,
			   const struct numa_knee *k)
{
	static const double steep[] = { 200, 300, 380, 440, 480 };
	struct numa_knee k2;
	char buf[200];
	(void)k;
	n = curve(pts, row->idle, row->gbs, steep, 5);
	assert_int_equal(numa_knee_find(pts, n, &k2), 0);
	assert_non_null(
		strstr(numa_knee_text(pts, &k2, buf, sizeof buf), "rising from the lightest"));
	assert_int_equal(numa_knee_find(pts, 1, &k2), 0);
	assert_string_equal(numa_knee_text(pts, &k2, buf, sizeof buf), "no knee: no loaded point");
	assert_string_equal(numa_little_text(pts, &k2, buf, sizeof buf), "");
	assert_int_equal(numa_knee_find(pts, 0, &k2), 0);
}

static const struct knee_row knee_rows[] = {
	/* Flat, a knee, a wall: the knee is the last point before the wall. */
	{ 100, { 5, 10, 15, 20, 25, 30, 32, 33 }, { 100, 100, 101, 101, 102, 104, 160, 300 }, 8, 1,
	  8, "knee at 0.91 of the peak: 30.0 GB/s, latency 1.0x idle (104.0 ns)",
	  "Little's law: 49 lines of 64 B in flight at the knee (30.0 GB/s x 104.0 ns), 155 at the "
	  "peak (33.0 GB/s x 300.0 ns)",
	  knee_wall_more },
	/* All flat (latency within 20 % of idle): no knee, said with the peak. */
	{ 90, { 2, 4, 6, 8, 10 }, { 90, 91, 92, 95, 105 }, 5, 0, 5,
	  "no knee: latency 1.17x idle at the peak, 10.0 GB/s (a knee needs a rise of 1.2x)",
	  "Little's law: 16 lines of 64 B in flight at the peak (10.0 GB/s x 105.0 ns)",
	  knee_none_more },
};

static void knees(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof knee_rows / sizeof *knee_rows; r++) {
		const struct knee_row *w = &knee_rows[r];
		struct numa_point pts[16];
		struct numa_knee k;
		char buf[200];
		size_t n = curve(pts, w->idle, w->gbs, w->ns, w->n);
		assert_int_equal(numa_knee_find(pts, n, &k), w->found);
		assert_int_equal(k.peak, w->peak);
		assert_string_equal(numa_knee_text(pts, &k, buf, sizeof buf), w->knee);
		assert_string_equal(numa_little_text(pts, &k, buf, sizeof buf), w->little);
		if (w->more)
			w->more(w, pts, n, &k);
	}
}

/* The flat-knee-wall curve with noise (single slow tries on the flat
 * part, up to 2.5x): the same knee. */
static void knee_noisy(void **state)
{
	static const double g[] = { 5, 10, 15, 20, 25, 30, 32, 33 };
	static const double ns[] = { 100, 250, 101, 180, 102, 104, 160, 300 };
	struct numa_point pts[16];
	struct numa_knee k;
	size_t n = curve(pts, 100, g, ns, 8);
	(void)state;
	assert_int_equal(numa_knee_find(pts, n, &k), 1);
	assert_int_equal(k.knee, 6);
	assert_float_equal(k.ratio, 1.04, 1e-12);
	assert_float_equal(numa_inflight(10, 64), 10, 1e-12); /* 10 B/ns x 64 ns / 64 B */
	assert_float_equal(numa_inflight(0, 64), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mix_parser),
		cmocka_unit_test(mix_bytes),
		cmocka_unit_test(knees),
		cmocka_unit_test(knee_noisy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
