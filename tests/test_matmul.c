/* Unit tests of matmul: every order and the blocked one give ijk's product
 * (n not a multiple of the block included), slicing into steps changes
 * nothing, the book's estimate, the simulator's exact access counts and the
 * seed's misses per iteration, the worker through the job API, and one
 * robust timing relation (class BC faster than class AC at n = 256). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "os/clock.h"
#include "run/job.h"
#include "testjob.h"
#include "matmul/matmul.h"

/* A cancel ends a run of minutes within this on any healthy machine. */
#define CANCEL_BOUND_NS 5000000000ull

static double *mat(size_t n)
{
	double *m = calloc(n > 0 ? n * n : 1, sizeof *m);
	assert_non_null(m);
	return m;
}

static void all_orders_equal_ijk(void **state)
{
	static const size_t ns[] = { 1, 2, 4, 5, 7, 16, 33, 37, 64, 100 };
	static const size_t blocks[] = { 1, 3, 8, 16, 32, 64, 128 };
	(void)state;
	for (size_t t = 0; t < MT_ARRAY_LEN(ns); t++) {
		size_t n = ns[t];
		double *a = mat(n), *b = mat(n), *ref = mat(n), *c = mat(n);
		matmul_fill(n, a, b);
		matmul_multiply(MATMUL_IJK, n, 0, a, b, ref);
		for (int o = 1; o < MATMUL_NORDERS; o++)
			for (size_t k = 0; k < MT_ARRAY_LEN(blocks); k++) {
				if (!matmul_is_blocked(o) && k > 0)
					break;
				memset(c, 0, n * n * sizeof *c);
				matmul_multiply(o, n, blocks[k], a, b, c);
				if (memcmp(c, ref, n * n * sizeof *c) != 0)
					fail_msg("%s n=%zu block=%zu differs from ijk",
						 matmul_order_name(o), n, blocks[k]);
			}
		free(a);
		free(b);
		free(ref);
		free(c);
	}
}

static void dot_product_corner(void **state)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };
	double c[4] = { 0, 0, 0, 0 };
	(void)state;
	matmul_multiply(MATMUL_KIJ, 2, 0, a, b, c);
	assert_true(c[0] == 1 * 5 + 2 * 7);
	assert_true(c[3] == 3 * 6 + 4 * 8);
}

static void steps_in_any_cut(void **state)
{
	const size_t n = 37;
	double *a = mat(n), *b = mat(n), *ref = mat(n), *c = mat(n);
	(void)state;
	matmul_fill(n, a, b);
	matmul_multiply(MATMUL_IJK, n, 0, a, b, ref);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		uint64_t steps = matmul_steps(o, n, 8), s = 0, iters = 0, cut = 1;
		memset(c, 0, n * n * sizeof *c);
		while (s < steps) {
			uint64_t e = s + cut < steps ? s + cut : steps;
			iters += matmul_run_steps(o, n, 8, a, b, c, s, e);
			s = e;
			cut = cut * 3 % 53 + 1; /* uneven cuts, across outer boundaries */
		}
		assert_int_equal(iters, (uint64_t)n * n * n);
		assert_memory_equal(c, ref, n * n * sizeof *c);
	}
	free(a);
	free(b);
	free(ref);
	free(c);
}

static void classes_and_book(void **state)
{
	double m[3];
	enum matmul_walk w[3];
	(void)state;
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_IJK)), "AB");
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_JIK)), "AB");
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_JKI)), "AC");
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_KJI)), "AC");
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_KIJ)), "BC");
	assert_string_equal(matmul_class_name(matmul_order_class(MATMUL_IKJ)), "BC");
	assert_true(fabs(matmul_book_estimate(MATMUL_IJK, 4, m) - 1.25) < 1e-12);
	assert_true(fabs(m[0] - 0.25) < 1e-12 && fabs(m[1] - 1.0) < 1e-12 && m[2] == 0);
	assert_true(fabs(matmul_book_estimate(MATMUL_KJI, 4, m) - 2.0) < 1e-12);
	assert_true(fabs(matmul_book_estimate(MATMUL_IKJ, 4, m) - 0.5) < 1e-12);
	assert_true(fabs(matmul_book_estimate(MATMUL_IJK, 8, m) - 1.125) < 1e-12);
	assert_true(fabs(matmul_book_estimate(MATMUL_KIJ, 16, m) - 0.125) < 1e-12);
	matmul_inner_walk(MATMUL_JKI, w);
	assert_int_equal(w[0], MATMUL_WALK_COL);
	assert_int_equal(w[1], MATMUL_WALK_REG);
	assert_int_equal(w[2], MATMUL_WALK_COL);
	for (int o = 0; o < MATMUL_NORDERS; o++)
		assert_int_equal(matmul_order_parse(matmul_order_name(o)), o);
	assert_int_equal(matmul_order_parse("ijj"), -1);
}

static void sim_seed_n100(void **state)
{
	static const double want[] = { 1.282, 1.282, 2.010, 2.010, 0.504, 0.504 };
	uint64_t base[3];
	mt_error e;
	(void)state;
	matmul_model_bases(100, base);
	assert_int_equal(base[0], 0x100000);
	assert_int_equal(base[1], 0x200000);
	assert_int_equal(base[2], 0x300000);
	for (int o = 0; o < 6; o++) {
		struct matmul_sim r;
		assert_int_equal(matmul_simulate(o, 100, 0, 5, 1, 5, 0, &r, &e), 0);
		assert_int_equal(r.accesses, o < 2 ? 2020000u : 3010000u);
		assert_int_equal(r.iterations, 1000000u);
		assert_int_equal(r.misses, r.miss[0] + r.miss[1] + r.miss[2]);
		if (fabs(r.per_iter - want[o]) > 0.02 * want[o])
			fail_msg("%s: %.4f misses/iteration, seed %.3f", matmul_order_name(o),
				 r.per_iter, want[o]);
	}
}

static void sim_seed_n64(void **state)
{
	/* The seed's tables at n = 64; with our bases the counts come out
	 * exactly the seed's. */
	static const uint64_t m515[] = { 278400, 337920, 528384, 528384, 301536, 301536 };
	static const uint64_t m425[] = { 272256, 331776, 528384, 528384, 74688, 74688 };
	mt_error e;
	(void)state;
	for (int o = 0; o < 6; o++) {
		struct matmul_sim r;
		assert_int_equal(matmul_simulate(o, 64, 0, 5, 1, 5, 0, &r, &e), 0);
		assert_int_equal(r.accesses, o < 2 ? 532480u : 790528u);
		assert_int_equal(r.misses, m515[o]);
		assert_int_equal(matmul_simulate(o, 64, 0, 4, 2, 5, 0, &r, &e), 0);
		assert_int_equal(r.misses, m425[o]);
	}
}

static void sim_sample_and_errors(void **state)
{
	struct matmul_sim r;
	mt_error e;
	(void)state;
	assert_int_equal(matmul_simulate(MATMUL_IJK, 100, 0, 5, 1, 5, 100000, &r, &e), 0);
	assert_true(r.steps_done < r.steps);
	assert_true(r.accesses >= 100000 && r.accesses < 100000 + 300);
	assert_int_equal(matmul_simulate(MATMUL_IJK, 100, 0, 5, 0, 5, 0, &r, &e), -1);
	assert_int_equal(matmul_simulate(MATMUL_BLOCKED, 33, 8, 5, 1, 5, 0, &r, &e), 0);
	assert_int_equal(r.iterations, 33u * 33 * 33);
}

struct collected {
	int results, races, sweeps, unequal;
	int rank_seen[MATMUL_NORDERS + 1];
	int ended;
};

/* One cell event of the worker into c. */
static void collect(const struct job_event *ev, void *ctx)
{
	struct collected *c = ctx;
	struct matmul_ev_result x;
	struct matmul_ev_race race;
	if (ev->subtype == MATMUL_CELL_RESULT) {
		assert_int_equal(JOB_PAYLOAD_GET(ev, struct matmul_ev_result, &x), 0);
		c->results++;
		if (!x.equal)
			c->unequal++;
		if (x.rank >= 0 && x.rank <= MATMUL_NORDERS)
			c->rank_seen[x.rank]++;
		assert_true(ev->value > 0);
	} else if (ev->subtype == MATMUL_CELL_RACE) {
		assert_int_equal(JOB_PAYLOAD_GET(ev, struct matmul_ev_race, &race), 0);
		c->races++;
		assert_true(race.frac >= 0 && race.frac <= 1);
	} else if (ev->subtype == MATMUL_CELL_SWEEP) {
		assert_int_equal(JOB_PAYLOAD_GET(ev, struct matmul_ev_result, &x), 0);
		c->sweeps++;
		if (!x.equal)
			c->unequal++;
	}
}

/* Runs the matmul worker on p to its end, its events collected into c;
 * the test fails when it does not start or ends in an error. */
static void run_collect(struct matmul_params *p, struct collected *c)
{
	struct job_opts o = { -1, 0 };
	mt_error e;
	job_t *job = job_start(matmul_worker, p, &o, &e);
	assert_non_null(job);
	memset(c, 0, sizeof *c);
	c->ended = test_job_cells(job, collect, c);
	assert_int_equal(job_join(job, &e), 0);
}

/* p: the worker's defaults at side n. */
static void params_at(struct matmul_params *p, size_t n)
{
	matmul_params_default(p);
	p->n = n;
}

/* Races p's orders to the end in 0.2 ms slices, its events into c: each
 * of the results it must give (n) finishes once, in places 1..n. */
static void race_places(struct matmul_params *p, struct collected *c, int n)
{
	p->race = 1;
	p->slice_ms = 0.2;
	run_collect(p, c);
	assert_int_equal(c->results, n);
	for (int r = 1; r <= n; r++)
		assert_int_equal(c->rank_seen[r], 1);
}

static void worker_table_and_sweep(void **state)
{
	struct matmul_params p;
	struct collected c;
	(void)state;
	params_at(&p, 45);
	p.block = 16;
	p.tries = 2;
	MT_SET_LIST(p.sweep, p.nsweep, size_t, 8, 32, 64);
	run_collect(&p, &c);
	assert_int_equal(c.ended, JOB_EV_DONE);
	assert_int_equal(c.results, MATMUL_NCLASSIC);
	assert_int_equal(c.sweeps, 3);
	assert_int_equal(c.unequal, 0);
}

static void worker_race(void **state)
{
	struct matmul_params p;
	struct collected c;
	(void)state;
	params_at(&p, 96);
	race_places(&p, &c, MATMUL_NCLASSIC);
	assert_int_equal(c.unequal, 0);
	assert_true(c.races >= MATMUL_NCLASSIC);
}

/* --blocked: the blocked versions of the other orders race too, and give
 * ijk's product; ijk runs whatever the mask says (it checks the others). */
static void worker_blocked_orders(void **state)
{
	struct matmul_params p;
	struct collected c;
	unsigned mask;
	(void)state;
	assert_int_equal(matmul_blocked_parse("jki,kij", &mask), 0);
	assert_int_equal(mask, 1u << MATMUL_B_JKI | 1u << MATMUL_B_KIJ);
	assert_int_equal(matmul_blocked_parse("all", &mask), 0);
	assert_int_equal(mask, 0x3fu << MATMUL_BLOCKED);
	assert_int_equal(matmul_blocked_parse("blocked", &mask), -1);
	assert_int_equal(matmul_blocked_parse("jkk", &mask), -1);
	params_at(&p, 40);
	p.block = 16;
	p.tries = 1;
	p.orders = 1u << MATMUL_JKI | 1u << MATMUL_B_JKI | 1u << MATMUL_B_IJK;
	run_collect(&p, &c);
	assert_int_equal(c.results, 4); /* ijk, jki, blocked-jki, blocked-ijk */
	assert_int_equal(c.unequal, 0);
	race_places(&p, &c, 4);
}

/* A blocked order whose tile covers the whole matrix makes exactly its
 * base order's accesses: the same misses on any cache. */
static void sim_blocked_whole_tile(void **state)
{
	mt_error e;
	(void)state;
	for (int o = MATMUL_BLOCKED; o < MATMUL_NORDERS; o++) {
		struct matmul_sim rb, r;
		int base = matmul_base_order(o);
		assert_int_equal(matmul_simulate(o, 48, 48, 5, 1, 5, 0, &rb, &e), 0);
		assert_int_equal(matmul_simulate(base, 48, 0, 5, 1, 5, 0, &r, &e), 0);
		assert_int_equal(rb.accesses, r.accesses);
		assert_int_equal(rb.misses, r.misses);
		assert_int_equal(rb.iterations, 48u * 48 * 48);
		assert_int_equal(matmul_order_class(o), matmul_order_class(base));
		assert_int_equal(matmul_blocked_of(base), o);
	}
	assert_int_equal(matmul_order_parse("blocked-ikj"), MATMUL_BLOCKED);
	assert_string_equal(matmul_order_name(MATMUL_B_JKI), "blocked-jki");
}

static void worker_cancels_quickly(void **state)
{
	struct matmul_params p;
	(void)state;
	params_at(&p, 1024); /* jki alone would take seconds */
	/* 100 ms promised (bench/labs times it); a test only asks for a bound
	 * no healthy machine misses, against the tens of seconds of the run */
	assert_true(test_job_cancel_after(matmul_worker, &p, 100) < CANCEL_BOUND_NS);
}

static double best_ms(int order, size_t n, const double *a, const double *b, double *c)
{
	double best = INFINITY;
	for (int t = 0; t < 3; t++) {
		uint64_t t0;
		memset(c, 0, n * n * sizeof *c);
		t0 = mt_now_ns();
		matmul_multiply(order, n, 32, a, b, c);
		best = fmin(best, (double)(mt_now_ns() - t0) / 1e6);
	}
	return best;
}

static void bc_faster_than_ac(void **state)
{
	const size_t n = 256;
	double *a, *b, *c;
	double bc, ac;
	(void)state;
	a = mat(n);
	b = mat(n);
	c = mat(n);
	matmul_fill(n, a, b);
	bc = best_ms(MATMUL_KIJ, n, a, b, c);
	ac = best_ms(MATMUL_JKI, n, a, b, c);
	if (!(bc < ac))
		fail_msg("kij %.1f ms is not faster than jki %.1f ms at n = 256", bc, ac);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_orders_equal_ijk),
		cmocka_unit_test(dot_product_corner),
		cmocka_unit_test(steps_in_any_cut),
		cmocka_unit_test(classes_and_book),
		cmocka_unit_test(sim_seed_n100),
		cmocka_unit_test(sim_seed_n64),
		cmocka_unit_test(sim_sample_and_errors),
		cmocka_unit_test(worker_table_and_sweep),
		cmocka_unit_test(worker_race),
		cmocka_unit_test(worker_blocked_orders),
		cmocka_unit_test(sim_blocked_whole_tile),
		cmocka_unit_test(worker_cancels_quickly),
		MT_TIMING_TEST(bc_faster_than_ac), /* a timing relation: plain builds only */
	};
	return cmocka_run_group_tests_name("matmul", tests, NULL, NULL);
}
